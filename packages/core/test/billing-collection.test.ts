import test from 'ava';
import { QueryTypes } from 'sequelize';
import type { LocalPaymentProvider } from '../src/billing/index.js';
import { startBillingRuntime, type BillingRuntime } from './helpers/billing.js';
import type { KeyedWorkspace } from './helpers/keys.js';

// Payment collection and card removal (docs/billing.md, "Collection and dunning" and "Payment
// methods"): an issued invoice is charged to the default card at the worker's next pass; a failed
// charge makes it past due and is retried after 3, 5 and 7 days; when the last retry fails the
// workspace is past due until a new card pays every invoice. The default card rules on removal.

let env: BillingRuntime;

const json = (response: { payload: string }) => JSON.parse(response.payload);
const at = (iso: string) => new Date(iso);
const GOOD = { card_number: '4242424242424242', expiry_month: '12', expiry_year: '2030', cvv: '123' };
const MASTERCARD = { card_number: '5555555555554444', expiry_month: '1', expiry_year: '2031', cvv: '123' };
/** Accepted when added; every charge declines (Stripe's test card 4000 0000 0000 0341). */
const CHARGE_FAILS = { card_number: '4000000000000341', expiry_month: '12', expiry_year: '2030', cvv: '123' };

test.before(async () => {
  env = await startBillingRuntime(at('2027-01-01T00:00:00.000Z'));
});

test.after.always(async () => {
  await env?.close();
});

const billingEvents = (workspaceId: string) => env.events.filter((event) => event.workspaceId === workspaceId && event.action.startsWith('core.billing.') && event.action !== 'core.billing.invoice.issued');
const billingMessages = async (workspace: KeyedWorkspace) => {
  const threads = json(await env.inject('GET', '/messages', workspace.as(workspace.ownerKey))).data;
  const thread = threads.find((candidate: { topic: string }) => candidate.topic === 'billing');
  return json(await env.inject('GET', `/messages/${thread.id}`, workspace.as(workspace.ownerKey))).data.messages.map((message: { body: string }) => message.body) as string[];
};
const pass = () => env.runtime.billingWorker.runDue();

test.serial('an issued invoice is charged to the default card at the next pass: paid, once, with its event and notice', async (t) => {
  const acme = await env.workspace('acme');
  t.is((await env.inject('POST', '/payment-methods', acme.as(acme.ownerKey), GOOD)).statusCode, 200);
  const invoice = json(await env.inject('PUT', '/plan', acme.as(acme.ownerKey), { plan: 'team' })).data.invoice;
  t.like(invoice, { amount: '8.00', status: 'open', attempt_count: 0, next_attempt_at: '2027-01-01T00:00:00.000Z', last_payment_error: null, paid_at: null });

  await pass();
  const paid = json(await env.inject('GET', `/invoices/${invoice.id}`, acme.as(acme.ownerKey))).data;
  t.like(paid, { status: 'paid', attempt_count: 1, next_attempt_at: null, last_payment_error: null, paid_at: '2027-01-01T00:00:00.000Z' });
  t.deepEqual(
    billingEvents(acme.id).map((event) => [event.action, event.payload]),
    [['core.billing.invoice.paid', { invoice_id: invoice.id, workspace_id: acme.id, amount: '8.00', currency: 'USD', attempt_count: 1, paid_at: '2027-01-01T00:00:00.000Z' }]],
  );
  const provider = env.runtime.billing.provider as LocalPaymentProvider;
  const charges = [...provider.charges.values()].filter((charge) => charge.metadata.workspace_id === acme.id);
  t.deepEqual(charges.map((charge) => [charge.amount, charge.currency, charge.idempotencyKey, charge.metadata.invoice_id]), [[800n, 'USD', `wpk-invoice-${invoice.id}-attempt-1`, invoice.id]]);
  const [row] = await env.runtime.db.sequelize.query<{ provider_charge_id: string }>('SELECT provider_charge_id FROM platform.invoices WHERE workspace_id = :w AND id = :id', { type: QueryTypes.SELECT, replacements: { w: acme.id, id: invoice.id } });
  t.is(row.provider_charge_id, charges[0].id);

  await pass();
  t.is([...provider.charges.values()].filter((charge) => charge.metadata.workspace_id === acme.id).length, 1, 'a paid invoice is never charged again');
  t.deepEqual((await billingMessages(acme)).slice(-1), ['Invoice 1 of 8.00 USD was paid with the visa card ending in 4242.']);
});

test.serial('dunning: a declined charge is retried after 3, 5 and 7 days; then the workspace is past due until a new card pays', async (t) => {
  const globex = await env.workspace('globex');
  env.clock.set(at('2027-02-01T00:00:00.000Z'));
  t.is((await env.inject('POST', '/payment-methods', globex.as(globex.ownerKey), CHARGE_FAILS)).statusCode, 200, 'the card is accepted when added');
  const invoice = json(await env.inject('PUT', '/plan', globex.as(globex.ownerKey), { plan: 'team' })).data.invoice;
  t.is(invoice.amount, '8.00');
  const read = async () => json(await env.inject('GET', `/invoices/${invoice.id}`, globex.as(globex.ownerKey))).data;

  await pass();
  t.like(await read(), { status: 'past_due', attempt_count: 1, next_attempt_at: '2027-02-04T00:00:00.000Z', last_payment_error: 'Your card was declined.' });
  env.clock.set(at('2027-02-03T23:59:59.000Z'));
  await pass();
  t.like(await read(), { attempt_count: 1 }, 'nothing before the retry is due');
  env.clock.set(at('2027-02-04T00:00:00.000Z'));
  await pass();
  t.like(await read(), { status: 'past_due', attempt_count: 2, next_attempt_at: '2027-02-09T00:00:00.000Z' });
  env.clock.set(at('2027-02-09T00:00:00.000Z'));
  await pass();
  t.like(await read(), { attempt_count: 3, next_attempt_at: '2027-02-16T00:00:00.000Z' });
  t.like(json(await env.inject('GET', '/plan', globex.as(globex.ownerKey))).data, { billing_status: 'current', past_due_since: null });
  env.clock.set(at('2027-02-16T00:00:00.000Z'));
  await pass();
  t.like(await read(), { status: 'past_due', attempt_count: 4, next_attempt_at: null, last_payment_error: 'Your card was declined.' });
  t.like(json(await env.inject('GET', '/plan', globex.as(globex.ownerKey))).data, { billing_status: 'past_due', past_due_since: '2027-02-16T00:00:00.000Z' });
  await pass();
  t.like(await read(), { attempt_count: 4 }, 'no retry is left');

  const failed = (attempt: number, next?: string) => ['core.billing.invoice.payment_failed', { invoice_id: invoice.id, workspace_id: globex.id, amount: '8.00', currency: 'USD', attempt_count: attempt, error: 'Your card was declined.', ...(next ? { next_attempt_at: next } : {}) }];
  t.deepEqual(billingEvents(globex.id).map((event) => [event.action, event.payload]), [
    failed(1, '2027-02-04T00:00:00.000Z'),
    failed(2, '2027-02-09T00:00:00.000Z'),
    failed(3, '2027-02-16T00:00:00.000Z'),
    failed(4),
    ['core.billing.dunning.exhausted', { workspace_id: globex.id, invoice_id: invoice.id, since: '2027-02-16T00:00:00.000Z' }],
  ]);

  // The owner adds a card: it becomes the default (an invoice is unpaid) and the invoice is charged at once.
  env.clock.set(at('2027-02-17T00:00:00.000Z'));
  const added = json(await env.inject('POST', '/payment-methods', globex.as(globex.ownerKey), GOOD)).data;
  t.true(added.is_default);
  t.deepEqual(json(await env.inject('GET', '/payment-methods', globex.as(globex.ownerKey))).data.map((method: { last4: string; is_default: boolean }) => [method.last4, method.is_default]), [['0341', false], ['4242', true]]);
  await pass();
  t.like(await read(), { status: 'paid', attempt_count: 5, paid_at: '2027-02-17T00:00:00.000Z', last_payment_error: null });
  t.like(json(await env.inject('GET', '/plan', globex.as(globex.ownerKey))).data, { billing_status: 'current', past_due_since: null });
  t.deepEqual(billingEvents(globex.id).at(-1)?.action, 'core.billing.invoice.paid');
  t.deepEqual(await billingMessages(globex), [
    'A visa card ending in 0341 was added.',
    'Invoice 1 (seats) of 8.00 USD for 2027-02-01 to 2027-03-01 is due on 2027-02-15.',
    'The payment of invoice 1 (8.00 USD) failed: Your card was declined. It will be charged again on 2027-02-04.',
    'The payment of invoice 1 (8.00 USD) failed: Your card was declined. It will be charged again on 2027-02-09.',
    'The payment of invoice 1 (8.00 USD) failed: Your card was declined. It will be charged again on 2027-02-16.',
    'The payment of invoice 1 (8.00 USD) failed: Your card was declined. No retry is left: add a card, or choose another default card, to pay it.',
    'The workspace is past due: invoice 1 could not be charged after 4 attempts.',
    'A visa card ending in 4242 was added and is now the default card.',
    'Invoice 1 of 8.00 USD was paid with the visa card ending in 4242.',
    'Every invoice is paid: the workspace is no longer past due.',
  ]);
});

test.serial('an invoice with no card on file is past due with "No card on file"', async (t) => {
  const initech = await env.workspace('initech');
  const invoice = json(await env.inject('PUT', '/plan', initech.as(initech.ownerKey), { plan: 'business' })).data.invoice;
  await pass();
  t.like(json(await env.inject('GET', `/invoices/${invoice.id}`, initech.as(initech.ownerKey))).data, { status: 'past_due', attempt_count: 1, last_payment_error: 'No card on file', next_attempt_at: '2027-02-20T00:00:00.000Z' });
  t.deepEqual(billingEvents(initech.id).map((event) => event.action), ['core.billing.invoice.payment_failed']);
});

test.serial('card removal and the default card: the last card stays on a paid plan, a removed default hands over to the newest card', async (t) => {
  const hooli = await env.workspace('hooli');
  const first = json(await env.inject('POST', '/payment-methods', hooli.as(hooli.ownerKey), GOOD)).data;
  const adminKey = await env.keyOf(hooli, 'admin', 'admin@hooli.test');
  for (const [method, path, body] of [['DELETE', `/payment-methods/${first.id}`], ['PATCH', `/payment-methods/${first.id}`, { is_default: true }]] as Array<[string, string, unknown?]>) {
    const refused = await env.inject(method, path, hooli.as(adminKey), body);
    t.deepEqual([refused.statusCode, json(refused)], [403, { error: 'Only the workspace owner can manage billing' }], `${method} ${path}`);
  }

  // On a paid plan the only card cannot go.
  json(await env.inject('PUT', '/plan', hooli.as(hooli.ownerKey), { plan: 'team' }));
  await pass();
  const only = await env.inject('DELETE', `/payment-methods/${first.id}`, hooli.as(hooli.ownerKey));
  t.deepEqual([only.statusCode, json(only)], [409, { error: 'This is the only card and the workspace is on the paid plan Team: add another card before removing it, or move to the free plan' }]);

  env.clock.set(at('2027-02-18T00:00:00.000Z'));
  const second = json(await env.inject('POST', '/payment-methods', hooli.as(hooli.ownerKey), MASTERCARD)).data;
  t.false(second.is_default, 'nothing unpaid: the default stays');
  env.clock.set(at('2027-02-19T00:00:00.000Z'));
  const third = json(await env.inject('POST', '/payment-methods', hooli.as(hooli.ownerKey), { ...GOOD, card_number: '4000056655665556' })).data;
  const list = async () => json(await env.inject('GET', '/payment-methods', hooli.as(hooli.ownerKey))).data.map((method: { id: string; is_default: boolean }) => [method.id, method.is_default]);

  // Choosing the default.
  const chosen = await env.inject('PATCH', `/payment-methods/${second.id}`, hooli.as(hooli.ownerKey), { is_default: true });
  t.is(chosen.statusCode, 200);
  t.like(json(chosen).data, { id: second.id, is_default: true });
  t.deepEqual(await list(), [[first.id, false], [second.id, true], [third.id, false]]);
  const unset = await env.inject('PATCH', `/payment-methods/${second.id}`, hooli.as(hooli.ownerKey), { is_default: false });
  t.deepEqual([unset.statusCode, json(unset)], [400, { error: 'is_default can only be set to true: choose another card as the default instead', field: 'is_default' }]);

  // Removing the default: the most recently added other card becomes the default.
  const removed = await env.inject('DELETE', `/payment-methods/${second.id}`, hooli.as(hooli.ownerKey));
  t.is(removed.statusCode, 200);
  t.deepEqual(json(removed).data, { id: second.id, brand: 'mastercard', last4: '4444', deleted: true, default_id: third.id });
  t.deepEqual(await list(), [[first.id, false], [third.id, true]]);
  // A card that is not the default just goes.
  t.deepEqual(json(await env.inject('DELETE', `/payment-methods/${first.id}`, hooli.as(hooli.ownerKey))).data, { id: first.id, brand: 'visa', last4: '4242', deleted: true, default_id: third.id });
  t.deepEqual(await list(), [[third.id, true]]);
  const gone = await env.inject('DELETE', `/payment-methods/${first.id}`, hooli.as(hooli.ownerKey));
  t.deepEqual([gone.statusCode, json(gone)], [404, { error: `No payment method ${first.id}` }]);
  t.is((await env.inject('DELETE', '/payment-methods/not-a-uuid', hooli.as(hooli.ownerKey))).statusCode, 404);

  // Back on the free plan with nothing owed, the last card may go.
  await env.inject('PUT', '/plan', hooli.as(hooli.ownerKey), { plan: 'free' });
  t.is((await env.inject('DELETE', `/payment-methods/${third.id}`, hooli.as(hooli.ownerKey))).statusCode, 200);
  t.deepEqual(await list(), []);
  t.deepEqual((await billingMessages(hooli)).filter((body) => body.includes('removed')), [
    'The mastercard card ending in 4444 was removed. The visa card ending in 5556 is now the default card.',
    'The visa card ending in 4242 was removed.',
    'The visa card ending in 5556 was removed.',
  ]);
});

test.serial('the only card cannot go while an invoice is unpaid, even on the free plan', async (t) => {
  const umbrella = await env.workspace('umbrella');
  const card = json(await env.inject('POST', '/payment-methods', umbrella.as(umbrella.ownerKey), CHARGE_FAILS)).data;
  await env.inject('PUT', '/plan', umbrella.as(umbrella.ownerKey), { plan: 'team' });
  await pass();
  await env.inject('PUT', '/plan', umbrella.as(umbrella.ownerKey), { plan: 'free' });
  const refused = await env.inject('DELETE', `/payment-methods/${card.id}`, umbrella.as(umbrella.ownerKey));
  t.deepEqual([refused.statusCode, json(refused)], [409, { error: 'This is the only card and an invoice is unpaid: add another card before removing it' }]);
  t.is(json(await env.inject('GET', '/payment-methods', umbrella.as(umbrella.ownerKey))).data.length, 1);
});
