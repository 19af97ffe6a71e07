import test from 'ava';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { luhnValid, paymentProvider, resolveBillingConfig } from '../src/billing/index.js';

// The payment providers behind POST /payment-methods. The Stripe adapter speaks Stripe's API
// shape to a local fake of Stripe's server (a third party): form-encoded card fields, the secret
// key as a Bearer token, the pm_… id and card details back, a card_error as a decline.

interface Received {
  method: string;
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  idempotencyKey: string | undefined;
  form: Record<string, string>;
}

let server: Server;
let apiBase: string;
const received: Received[] = [];
const intents = new Map<string, string>();

const body = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => resolve(text));
  });

test.before(async () => {
  server = createServer(async (request, response) => {
    const form = Object.fromEntries(new URLSearchParams(await body(request)));
    const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
    received.push({ method: request.method!, url: request.url!, authorization: request.headers.authorization, contentType: request.headers['content-type'], idempotencyKey, form });
    response.setHeader('content-type', 'application/json');
    if (request.headers.authorization !== 'Bearer sk_test_fake123') {
      response.statusCode = 401;
      response.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }));
    } else if (request.url === '/v1/payment_intents') {
      // Stripe's idempotency: the same key answers the first result again.
      const known = intents.get(idempotencyKey ?? '');
      if (form.payment_method === 'pm_declines') {
        response.statusCode = 402;
        response.end(JSON.stringify({ error: { type: 'card_error', code: 'card_declined', message: 'Your card has insufficient funds.' } }));
      } else if (form.payment_method === 'pm_3ds') {
        response.end(JSON.stringify({ id: 'pi_3ds', object: 'payment_intent', status: 'requires_action' }));
      } else {
        const id = known ?? `pi_${intents.size + 1}`;
        intents.set(idempotencyKey ?? '', id);
        response.end(JSON.stringify({ id, object: 'payment_intent', status: 'succeeded', amount: Number(form.amount), currency: form.currency }));
      }
    } else if (request.url?.endsWith('/detach')) {
      if (request.url.includes('pm_gone')) {
        response.statusCode = 400;
        response.end(JSON.stringify({ error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such PaymentMethod' } }));
      } else response.end(JSON.stringify({ id: request.url.split('/')[3], object: 'payment_method', customer: null }));
    } else if (form['card[number]'] === '4000000000000002') {
      response.statusCode = 402;
      response.end(JSON.stringify({ error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } }));
    } else {
      response.end(JSON.stringify({ id: 'pm_1Abc', object: 'payment_method', card: { brand: 'visa', last4: form['card[number]'].slice(-4), exp_month: Number(form['card[exp_month]']), exp_year: Number(form['card[exp_year]']) } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.after.always(() => new Promise<void>((resolve) => server.close(() => resolve())));

const now = () => new Date('2027-01-01T00:00:00.000Z');

test('the Stripe adapter is chosen by configuration and its key is never printed', (t) => {
  const config = resolveBillingConfig({}, { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_fake123', STRIPE_API_BASE: apiBase });
  t.is(config.provider, 'stripe');
  t.false(JSON.stringify(config).includes('sk_test_fake123'));
  t.false(inspect(config, { depth: 5 }).includes('sk_test_fake123'));
  t.is(paymentProvider(config, now).name, 'stripe');
  t.throws(() => resolveBillingConfig({}, { PAYMENT_PROVIDER: 'stripe' }), { message: 'STRIPE_SECRET_KEY must be a Stripe secret key (sk_test_… or sk_live_…) when PAYMENT_PROVIDER is stripe' });
  t.throws(() => resolveBillingConfig({}, { PAYMENT_PROVIDER: 'paypal' }), { message: 'PAYMENT_PROVIDER must be local or stripe, got "paypal"' });
  t.throws(() => resolveBillingConfig({}, { BILLING_PLANS: '[{"id":"team","name":"Team","seat_price":{"monthly":"8","annual":"80"}}]' }), { message: 'BILLING_PLANS must hold a plan with id "free" (new workspaces start on it)' });
  t.throws(() => resolveBillingConfig({}, { BILLING_PLANS: '[{"id":"free","name":"Free","seat_price":{"monthly":"0.001","annual":"0"}}]' }), { message: 'BILLING_PLANS[0].seat_price.monthly must be a non-negative decimal string with at most two places, e.g. "8.00"' });
});

test.serial('the Stripe adapter posts the card to /v1/payment_methods and keeps the pm_ id, brand, last 4 and expiry; a card_error is a decline', async (t) => {
  const stripe = paymentProvider(resolveBillingConfig({ provider: 'stripe', stripe: { secretKey: 'sk_test_fake123', apiBase } }), now);
  const card = await stripe.tokenize({ card_number: '4242 4242 4242 4242', expiry_month: '3', expiry_year: '29', cvv: '123' }, { workspaceId: 'w1' });
  t.deepEqual(card, { token: 'pm_1Abc', brand: 'visa', last4: '4242', exp_month: 3, exp_year: 2029 });
  t.like(received.at(-1), { method: 'POST', url: '/v1/payment_methods', authorization: 'Bearer sk_test_fake123', contentType: 'application/x-www-form-urlencoded' });
  t.deepEqual(received.at(-1)!.form, { type: 'card', 'card[number]': '4242424242424242', 'card[exp_month]': '3', 'card[exp_year]': '2029', 'card[cvc]': '123', 'metadata[workspace_id]': 'w1' });

  const declined = await t.throwsAsync(stripe.tokenize({ card_number: '4000000000000002', expiry_month: '3', expiry_year: '2029', cvv: '123' }, { workspaceId: 'w1' }));
  t.like(declined, { message: 'Your card was declined.', status: 402 });
  const wrongKey = paymentProvider(resolveBillingConfig({ provider: 'stripe', stripe: { secretKey: 'sk_test_other', apiBase } }), now);
  const failed = await t.throwsAsync(wrongKey.tokenize({ card_number: '4242424242424242', expiry_month: '3', expiry_year: '2029', cvv: '123' }, { workspaceId: 'w1' }));
  t.like(failed, { message: 'The payment provider answered 401', status: 502 });
  const unreachable = paymentProvider(resolveBillingConfig({ provider: 'stripe', stripe: { secretKey: 'sk_test_fake123', apiBase: 'http://127.0.0.1:9' } }), now);
  t.like(await t.throwsAsync(unreachable.tokenize({ card_number: '4242424242424242', expiry_month: '3', expiry_year: '2029', cvv: '123' }, { workspaceId: 'w1' })), { status: 502 });
});

test.serial('the Stripe adapter charges with a confirmed off-session payment intent and an idempotency key, and detaches a removed card', async (t) => {
  const stripe = paymentProvider(resolveBillingConfig({ provider: 'stripe', stripe: { secretKey: 'sk_test_fake123', apiBase } }), now);
  const input = { token: 'pm_1Abc', amount: 2400n, currency: 'USD', idempotencyKey: 'wpk-invoice-i1-attempt-1', description: 'Invoice 1', metadata: { workspace_id: 'w1', invoice_id: 'i1' } };
  const first = await stripe.charge(input);
  t.like(received.at(-1), { method: 'POST', url: '/v1/payment_intents', authorization: 'Bearer sk_test_fake123', idempotencyKey: 'wpk-invoice-i1-attempt-1' });
  t.deepEqual(received.at(-1)!.form, { amount: '2400', currency: 'usd', payment_method: 'pm_1Abc', confirm: 'true', off_session: 'true', description: 'Invoice 1', 'metadata[workspace_id]': 'w1', 'metadata[invoice_id]': 'i1' });
  t.deepEqual(await stripe.charge(input), first, 'a retried attempt (same key) is the same charge');
  t.notDeepEqual(await stripe.charge({ ...input, idempotencyKey: 'wpk-invoice-i1-attempt-2' }), first);
  t.like(await t.throwsAsync(stripe.charge({ ...input, token: 'pm_declines' })), { status: 402, message: 'Your card has insufficient funds.' });
  t.like(await t.throwsAsync(stripe.charge({ ...input, token: 'pm_3ds' })), { status: 402, message: 'The payment was not completed (requires_action): the card holder must confirm it' });

  await stripe.detach('pm_1Abc');
  t.like(received.at(-1), { method: 'POST', url: '/v1/payment_methods/pm_1Abc/detach', authorization: 'Bearer sk_test_fake123' });
  await t.notThrowsAsync(stripe.detach('pm_gone'), 'a method Stripe no longer knows counts as detached');
  const wrongKey = paymentProvider(resolveBillingConfig({ provider: 'stripe', stripe: { secretKey: 'sk_test_other', apiBase } }), now);
  t.like(await t.throwsAsync(wrongKey.detach('pm_1Abc')), { status: 502 });
  t.like(await t.throwsAsync(wrongKey.charge(input)), { status: 502, message: 'The payment provider answered 401' });
});

test('the local provider: Luhn check, declining test numbers, a token that carries no digit of the card', async (t) => {
  t.true(luhnValid('4242424242424242'));
  t.false(luhnValid('4242424242424241'));
  const local = paymentProvider(resolveBillingConfig({}, {}), now);
  const card = await local.tokenize({ card_number: '378282246310005', expiry_month: '01', expiry_year: '2027', cvv: '1234' }, { workspaceId: 'w1' });
  t.like(card, { brand: 'amex', last4: '0005', exp_month: 1, exp_year: 2027 });
  t.regex(card.token, /^tok_local_[0-9a-f]{24}$/);
  const failing = await local.tokenize({ card_number: '4000000000000341', expiry_month: '1', expiry_year: '2027', cvv: '123' }, { workspaceId: 'w1' });
  t.regex(failing.token, /^tok_local_chargefail_[0-9a-f]{24}$/, 'accepted when added; its charges decline');
  const charge = { amount: 100n, currency: 'USD', idempotencyKey: 'k1', description: 'Invoice 1', metadata: { workspace_id: 'w1', invoice_id: 'i1' } };
  t.like(await t.throwsAsync(local.charge({ ...charge, token: failing.token })), { status: 402, message: 'Your card was declined.' });
  const paid = await local.charge({ ...charge, token: card.token });
  t.regex(paid.id, /^ch_local_[0-9a-f]{24}$/);
  t.deepEqual(await local.charge({ ...charge, token: card.token }), paid, 'the same idempotency key is the same charge');
  t.like(await t.throwsAsync(local.tokenize({ card_number: '4000000000000127', expiry_month: '1', expiry_year: '2027', cvv: '123' }, { workspaceId: 'w1' })), { status: 402, message: "Your card's security code is incorrect." });
});
