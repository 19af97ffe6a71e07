import test from 'ava';
import { createHmac } from 'node:crypto';
import { InvalidError, UnauthorizedError } from '../errors.js';
import { parseDelivery, verifyDelivery } from './delivery.js';
import { signBody, verifySignature } from './signature.js';

const secret = 'sdk-test-secret-0123456789';
const body = JSON.stringify({ action: 'core.tasks.task.created', metadata: { workspace_id: '5b0e4c1e-8a43-4f6e-9d0c-0a7b1d8e2f11' }, payload: { task_id: 't1' } });

test('signBody is the hex HMAC-SHA256 of the exact bytes', (t) => {
  t.is(signBody(body, secret), createHmac('sha256', secret).update(body).digest('hex'));
  t.is(signBody(Buffer.from(body), secret), signBody(body, secret));
});

test('verifySignature accepts the right signature only', (t) => {
  const signature = signBody(body, secret);
  t.true(verifySignature(body, signature, secret));
  t.true(verifySignature(body, signature.toUpperCase(), secret));
  t.true(verifySignature(body, [signature], secret));
  t.false(verifySignature(body, signature, 'other-secret'));
  t.false(verifySignature(`${body} `, signature, secret));
  t.false(verifySignature(body, signature.slice(0, 63), secret));
  t.false(verifySignature(body, 'zz'.repeat(32), secret));
  t.false(verifySignature(body, undefined, secret));
  t.false(verifySignature(body, '', secret));
});

test('verifyDelivery parses a signed delivery and its headers', (t) => {
  const delivery = verifyDelivery({
    body,
    secret,
    headers: { 'x-broker-signature': signBody(body, secret), 'x-broker-event-id': '7c9e6679-7425-40de-944b-e07fc1f90ae7', 'x-broker-delivery-attempt': '3' },
  });
  t.deepEqual(delivery, {
    action: 'core.tasks.task.created',
    payload: { task_id: 't1' },
    metadata: { workspace_id: '5b0e4c1e-8a43-4f6e-9d0c-0a7b1d8e2f11' },
    workspaceId: '5b0e4c1e-8a43-4f6e-9d0c-0a7b1d8e2f11',
    deliveryId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    attempt: 3,
  });
  const error = t.throws(() => verifyDelivery({ body, secret, headers: { 'x-broker-signature': signBody(body, 'wrong') } }), { instanceOf: UnauthorizedError });
  t.is(error?.message, 'Invalid broker signature');
});

test('parseDelivery names what is wrong with a malformed body', (t) => {
  const cases: Array<[string, string]> = [
    ['not json', 'delivery body is not JSON'],
    ['[]', 'delivery body must be an object'],
    [JSON.stringify({ metadata: {}, payload: {} }), 'delivery action must be a string'],
    [JSON.stringify({ action: 'a.b.c', metadata: {}, payload: [] }), 'delivery payload must be an object'],
    [JSON.stringify({ action: 'a.b.c', payload: {} }), 'delivery metadata must be an object'],
    [JSON.stringify({ action: 'a.b.c', metadata: { workspace_id: 'acme' }, payload: {} }), 'delivery metadata.workspace_id must be a UUID'],
  ];
  for (const [input, message] of cases) t.throws(() => parseDelivery(input), { instanceOf: InvalidError, message });
});
