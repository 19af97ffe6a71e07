import test from 'ava';
import { canonicalJson, MASK, maskPayload, PayloadSealer, removeNulls } from './payload.js';
import { retryDelayMs } from './deliverer.js';

test('removeNulls drops null properties at any depth and keeps array elements', (t) => {
  t.deepEqual(removeNulls({ a: null, b: 1, c: { d: null, e: 'x', f: { g: null } }, h: [null, { i: null, j: 2 }] }), { b: 1, c: { e: 'x', f: {} }, h: [null, { j: 2 }] });
});

test('canonicalJson sorts keys so equal payloads hash equally', (t) => {
  t.is(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: 'x' } }), '{"a":{"c":"x","d":[2,{"y":2,"z":1}]},"b":1}');
});

test('sealed fields hide their values at rest and open again with the same secret only', (t) => {
  const sealer = new PayloadSealer('sealer-secret-0123456789');
  const payload = { email: 'ada@example.com', nested: { token: 42 }, keep: 'visible' };
  const sealed = sealer.seal(payload, ['email', 'nested.token', 'absent']);
  t.false(JSON.stringify(sealed).includes('ada@example.com'));
  t.is(sealed.keep, 'visible');
  t.deepEqual(sealer.unseal(sealed, ['email', 'nested.token']), payload);
  t.deepEqual(sealer.unsealAll(sealed), payload);
  t.throws(() => new PayloadSealer('another-secret-0123456789').unsealAll(sealed));
  t.deepEqual(maskPayload(payload, ['email', 'nested.token']), { email: MASK, nested: { token: MASK }, keep: 'visible' });
  t.is(sealer.hash({ a: 1, b: 2 }), sealer.hash({ b: 2, a: 1 }));
  t.not(sealer.hash({ a: 1 }), new PayloadSealer('another-secret-0123456789').hash({ a: 1 }));
});

test('the back-off grows by the factor and stops at the cap', (t) => {
  const policy = { initialDelayMs: 2000, factor: 3, maxDelayMs: 60_000 };
  t.deepEqual([1, 2, 3, 4, 5].map((retry) => retryDelayMs(policy, retry)), [2000, 6000, 18000, 54000, 60000]);
});
