import test from 'ava';
import { Writable } from 'node:stream';
import pino from 'pino';
import { QueryTypes } from 'sequelize';
import { startBillingRuntime, type BillingRuntime } from './helpers/billing.js';
import type { KeyedWorkspace } from './helpers/keys.js';

// Billing (docs/billing.md): owner only; the plan catalog; PUT /plan with upgrade proration;
// PUT /plan/interval and the billing loop exactly as "States and transitions" gives them, on the
// runtime's clock; invoices in exact decimals; payment methods through the local provider.

let env: BillingRuntime;
let acme: KeyedWorkspace;
let adminKey: string;
let memberKey: string;
/** Every log line the runtime wrote, at every level. */
const logs: string[] = [];

const json = (response: { payload: string }) => JSON.parse(response.payload);
const at = (iso: string) => new Date(iso);

test.before(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  env = await startBillingRuntime(at('2027-01-01T00:00:00.000Z'), { logger: pino({ level: 'trace' }, sink) });
  acme = await env.workspace('acme');
  adminKey = await env.keyOf(acme, 'admin', 'admin@acme.test');
  memberKey = await env.keyOf(acme, 'member', 'member@acme.test');
});

test.after.always(async () => {
  await env?.close();
});

const invoiceEvents = (workspaceId: string) => env.events.filter((event) => event.action === 'core.billing.invoice.issued' && event.workspaceId === workspaceId);

test.serial('billing is for the owner only: admins and members get 403 on every billing route', async (t) => {
  const calls: Array<[string, string, unknown?]> = [
    ['GET', '/plan'],
    ['PUT', '/plan', { plan: 'team' }],
    ['PUT', '/plan/interval', { billing_interval: 'annual' }],
    ['GET', '/invoices'],
    ['GET', '/payment-methods'],
    ['POST', '/payment-methods', { card_number: '4242424242424242', expiry_month: '12', expiry_year: '2030', cvv: '123' }],
  ];
  for (const key of [adminKey, memberKey]) {
    for (const [method, path, body] of calls) {
      const answer = await env.inject(method, path, acme.as(key), body);
      t.is(answer.statusCode, 403, `${method} ${path}`);
      t.deepEqual(json(answer), { error: 'Only the workspace owner can manage billing' });
    }
  }
  const [row] = await env.runtime.db.sequelize.query<{ plan: string }>('SELECT plan FROM platform.workspaces WHERE id = :id', { type: QueryTypes.SELECT, replacements: { id: acme.id } });
  t.is(row.plan, 'free', 'nothing changed');
  t.is(invoiceEvents(acme.id).length, 0);
});

test.serial('the plan catalog comes from configuration; a new workspace is on free, monthly, with no billing account yet', async (t) => {
  const answer = await env.inject('GET', '/plan', acme.as(acme.ownerKey));
  t.is(answer.statusCode, 200);
  const data = json(answer).data;
  t.like(data, { plan: 'free', billing_interval: 'monthly', currency: 'USD', seats: 3, period_start: null, period_end: null, next_run_at: null, loop: null });
  t.deepEqual(data.plans.map((plan: { id: string; seat_price: unknown; current: boolean }) => [plan.id, plan.seat_price, plan.current]), [
    ['free', { monthly: '0.00', annual: '0.00' }, true],
    ['team', { monthly: '8.00', annual: '80.00' }, false],
    ['business', { monthly: '16.00', annual: '160.00' }, false],
  ]);
});

test.serial('PUT /plan switches at once; an upgrade is prorated exactly on a seats invoice; a downgrade bills nothing', async (t) => {
  // free → team on 1 January: the account opens (period 1 January to 1 February) and the rest of it is charged.
  const first = await env.inject('PUT', '/plan', acme.as(acme.ownerKey), { plan: 'team' });
  t.is(first.statusCode, 200);
  const opened = json(first).data;
  t.like(opened, { plan: 'team', billing_interval: 'monthly', seats: 3, period_start: '2027-01-01T00:00:00.000Z', period_end: '2027-02-01T00:00:00.000Z', next_run_at: '2027-02-01T00:00:00.000Z', loop: 'monthly' });
  t.like(opened.invoice, { number: 1, kind: 'seats', plan: 'team', amount: '24.00', currency: 'USD', period_start: '2027-01-01T00:00:00.000Z', period_end: '2027-02-01T00:00:00.000Z', status: 'open', due_at: '2027-01-15T00:00:00.000Z' });
  t.deepEqual(opened.invoice.lines, [{ description: 'Remaining time on Team (2027-01-01 to 2027-02-01)', quantity: 3, unit_amount: '8.00', amount: '24.00' }]);

  // team → business on 11 January: 21 of the period's 31 days remain.
  // credit  = round(800 × 3 × 21 / 31) = round(1625.806…) = 1626 cents
  // charge  = round(1600 × 3 × 21 / 31) = round(3251.612…) = 3252 cents
  env.clock.set(at('2027-01-11T00:00:00.000Z'));
  const upgrade = await env.inject('PUT', '/plan', acme.as(acme.ownerKey), { plan: 'business' });
  t.is(upgrade.statusCode, 200);
  const invoice = json(upgrade).data.invoice;
  t.like(invoice, { number: 2, kind: 'seats', plan: 'business', amount: '16.26', period_start: '2027-01-11T00:00:00.000Z', period_end: '2027-02-01T00:00:00.000Z' });
  t.deepEqual(invoice.lines, [
    { description: 'Unused time on Team (2027-01-11 to 2027-02-01)', quantity: 3, unit_amount: '-8.00', amount: '-16.26' },
    { description: 'Remaining time on Business (2027-01-11 to 2027-02-01)', quantity: 3, unit_amount: '16.00', amount: '32.52' },
  ]);
  t.like(json(upgrade).data, { plan: 'business', period_start: '2027-01-01T00:00:00.000Z', period_end: '2027-02-01T00:00:00.000Z' });

  // Downgrade: at once, no invoice, no credit. The same plan again: nothing.
  const downgrade = await env.inject('PUT', '/plan', acme.as(acme.ownerKey), { plan: 'team' });
  t.is(downgrade.statusCode, 200);
  t.like(json(downgrade).data, { plan: 'team', invoice: null });
  const same = await env.inject('PUT', '/plan', acme.as(acme.ownerKey), { plan: 'team' });
  t.like(json(same).data, { plan: 'team', invoice: null });

  const unknown = await env.inject('PUT', '/plan', acme.as(acme.ownerKey), { plan: 'platinum' });
  t.is(unknown.statusCode, 400);
  t.deepEqual(json(unknown), { error: 'plan must be one of: free, team, business' });
  const missing = await env.inject('PUT', '/plan', acme.as(acme.ownerKey), {});
  t.is(missing.statusCode, 400);
  t.deepEqual(json(missing), { error: 'plan is required', field: 'plan' });

  const events = invoiceEvents(acme.id);
  t.is(events.length, 2, 'one event per invoice, none for the downgrade or the refusals');
  t.deepEqual(events[1].payload, {
    invoice_id: invoice.id,
    workspace_id: acme.id,
    kind: 'seats',
    amount: '16.26',
    currency: 'USD',
    period_start: '2027-01-11T00:00:00.000Z',
    period_end: '2027-02-01T00:00:00.000Z',
    due_at: '2027-01-25T00:00:00.000Z',
  });
  t.is(events[1].emitter, 'billing');

  // The monthly loop bills the next month in full at the plan then current, once.
  env.clock.set(at('2027-02-01T00:00:00.000Z'));
  t.is(await env.runtime.server.plugins.billing.worker.runDue(), 1);
  t.is(await env.runtime.server.plugins.billing.worker.runDue(), 0, 'nothing is due twice');
  const list = json(await env.inject('GET', '/invoices', acme.as(acme.ownerKey)));
  t.like(list.data[0], { number: 3, kind: 'seats', plan: 'team', billing_interval: 'monthly', amount: '24.00', period_start: '2027-02-01T00:00:00.000Z', period_end: '2027-03-01T00:00:00.000Z' });
  t.deepEqual(list.data.map((row: { number: number }) => row.number), [3, 2, 1], 'newest first');
  t.like(list.pagination, { page: 1, per_page: 25, total: 3, pages: 1 });
  const stored = await env.runtime.db.sequelize.query<{ amount: string }>('SELECT amount::text AS amount FROM platform.invoices WHERE workspace_id = :id ORDER BY number', { type: QueryTypes.SELECT, replacements: { id: acme.id } });
  t.deepEqual(stored.map((row) => row.amount), ['24.00', '16.26', '24.00'], 'stored as exact decimals');

  // The owner's invoices screen fragment lists the same invoices, newest first.
  const signIn = await env.inject('POST', '/sessions', { host: 'acme.localhost', 'x-api-version': '2026-11-01' }, { email: 'owner@acme.test', password: 'owner-password-1' });
  t.is(signIn.statusCode, 200);
  const cookie = ([] as string[]).concat(signIn.headers['set-cookie'] as string[]).map((value) => value.split(';')[0]).join('; ');
  const partial = await env.inject('GET', '/partials/invoices', { host: 'acme.localhost', cookie });
  t.is(partial.statusCode, 200);
  t.regex(String(partial.headers['content-type']), /^text\/html/);
  const cells = [...partial.payload.matchAll(/<tr id="invoice-[0-9a-f-]{36}"><td>(\d+)<\/td>.*?<td>(seats|usage)<\/td><td>([0-9.]+ USD)<\/td>/g)].map((match) => [match[1], match[2], match[3]]);
  t.deepEqual(cells, [['3', 'seats', '24.00 USD'], ['2', 'seats', '16.26 USD'], ['1', 'seats', '24.00 USD']]);

  // The settings page shows the owner the same rows, each under its id (billing's notifications link there).
  const settings = await env.inject('GET', '/admin/settings', { host: 'acme.localhost', cookie });
  t.is(settings.statusCode, 200);
  t.deepEqual([...settings.payload.matchAll(/<tr id="invoice-([0-9a-f-]{36})"><td>(\d+)<\/td>/g)].map((match) => [match[1], match[2]]), list.data.map((row: { id: string; number: number }) => [row.id, String(row.number)]));
});

test.serial('monthly → annual bills the year upfront at once; the monthly loop turns into the usage loop at its next firing; annual → monthly waits for the loop', async (t) => {
  const globex = await env.workspace('globex');
  // 1 February: team, 1 seat, a monthly period of 28 days.
  const opened = json(await env.inject('PUT', '/plan', globex.as(globex.ownerKey), { plan: 'team' })).data;
  t.like(opened, { period_start: '2027-02-01T00:00:00.000Z', period_end: '2027-03-01T00:00:00.000Z', invoice: { amount: '8.00' } });

  // 8 February: annual. Credit for 21 of 28 days at 8.00 = 6.00; the year at 80.00.
  env.clock.set(at('2027-02-08T00:00:00.000Z'));
  env.events.length = 0;
  const annual = await env.inject('PUT', '/plan/interval', globex.as(globex.ownerKey), { billing_interval: 'annual' });
  t.is(annual.statusCode, 200);
  const data = json(annual).data;
  t.like(data, { billing_interval: 'annual', period_start: '2027-02-08T00:00:00.000Z', period_end: '2028-02-08T00:00:00.000Z', loop: 'monthly', next_run_at: '2027-03-01T00:00:00.000Z' });
  t.like(data.invoice, { kind: 'seats', billing_interval: 'annual', amount: '74.00', period_start: '2027-02-08T00:00:00.000Z', period_end: '2028-02-08T00:00:00.000Z' });
  t.deepEqual(data.invoice.lines, [
    { description: 'Unused time on Team, monthly (2027-02-08 to 2027-03-01)', quantity: 1, unit_amount: '-8.00', amount: '-6.00' },
    { description: 'Team, annual seats (2027-02-08 to 2028-02-08)', quantity: 1, unit_amount: '80.00', amount: '80.00' },
  ]);
  t.deepEqual(invoiceEvents(globex.id).map((event) => event.payload), [
    { invoice_id: data.invoice.id, workspace_id: globex.id, kind: 'seats', amount: '74.00', currency: 'USD', period_start: '2027-02-08T00:00:00.000Z', period_end: '2028-02-08T00:00:00.000Z', due_at: '2027-02-22T00:00:00.000Z' },
  ], 'emitted at once, exactly once');
  const again = await env.inject('PUT', '/plan/interval', globex.as(globex.ownerKey), { billing_interval: 'annual' });
  t.like(json(again).data, { billing_interval: 'annual', invoice: null });

  // 1 March: the monthly loop's next firing converts it to the usage loop (no seats invoice: the year is paid).
  env.clock.set(at('2027-03-01T00:00:00.000Z'));
  await env.runtime.server.plugins.billing.worker.runDue();
  t.like(json(await env.inject('GET', '/plan', globex.as(globex.ownerKey))).data, { loop: 'usage', next_run_at: '2027-03-08T00:00:00.000Z' });
  t.is(invoiceEvents(globex.id).length, 1);

  // A second seat: the usage loop bills it for the month at the monthly price.
  await env.keyOf(globex, 'member', 'second@globex.test');
  env.clock.set(at('2027-03-08T00:00:00.000Z'));
  await env.runtime.server.plugins.billing.worker.runDue();
  const usage = json(await env.inject('GET', '/invoices', globex.as(globex.ownerKey))).data[0];
  t.like(usage, { kind: 'usage', amount: '8.00', period_start: '2027-02-08T00:00:00.000Z', period_end: '2027-03-08T00:00:00.000Z' });
  t.deepEqual(usage.lines, [{ description: 'Team, seats beyond the 1 paid (2027-02-08 to 2027-03-08)', quantity: 1, unit_amount: '8.00', amount: '8.00' }]);

  // annual → monthly: only the interval changes; the loop reads it at its next firing.
  const monthly = await env.inject('PUT', '/plan/interval', globex.as(globex.ownerKey), { billing_interval: 'monthly' });
  t.like(json(monthly).data, { billing_interval: 'monthly', loop: 'usage', next_run_at: '2027-04-08T00:00:00.000Z', period_end: '2028-02-08T00:00:00.000Z', invoice: null });

  // Through the rest of the paid year: ten more usage firings (April to January), then on
  // 8 February 2028 the last month's usage and, the interval read fresh, a monthly seats period.
  env.clock.set(at('2028-02-08T00:00:00.000Z'));
  await env.runtime.server.plugins.billing.worker.runDue();
  const all = json(await env.inject('GET', '/invoices?per_page=100', globex.as(globex.ownerKey))).data;
  t.is(all.filter((invoice: { kind: string }) => invoice.kind === 'usage').length, 12);
  t.like(all[0], { kind: 'seats', billing_interval: 'monthly', amount: '16.00', period_start: '2028-02-08T00:00:00.000Z', period_end: '2028-03-08T00:00:00.000Z' });
  t.like(json(await env.inject('GET', '/plan', globex.as(globex.ownerKey))).data, { loop: 'monthly', seats: 2, next_run_at: '2028-03-08T00:00:00.000Z' });
  const keys = await env.runtime.db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM platform.invoices WHERE workspace_id = :id', { type: QueryTypes.SELECT, replacements: { id: globex.id } });
  t.is(keys[0].n, all.length);
  t.is(invoiceEvents(globex.id).length, all.length - 1, 'one event per invoice (the first came before the capture was reset)');
});

test.serial('only an active workspace moves to annual (409, nothing written); annual → monthly is allowed in any state', async (t) => {
  const initech = await env.workspace('initech');
  const bad = await env.inject('PUT', '/plan/interval', initech.as(initech.ownerKey), { billing_interval: 'weekly' });
  t.is(bad.statusCode, 400);
  t.deepEqual(json(bad), { error: 'billing_interval must be one of [monthly, annual]', field: 'billing_interval' });
  // A suspended workspace's subdomain answers 404 to every request, so the rule is met in the service.
  await env.runtime.db.sequelize.query("UPDATE platform.workspaces SET status = 'suspended' WHERE id = :id", { replacements: { id: initech.id } });
  const billing = env.runtime.server.plugins.billing.billing;
  const refused = await t.throwsAsync(billing.changeInterval(initech.id, 'annual'));
  t.is(refused?.message, 'The workspace is suspended: only an active workspace can move to annual billing');
  t.is((refused as { status?: number }).status, 409);
  const rows = await env.runtime.db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM platform.billing_accounts WHERE workspace_id = :id', { type: QueryTypes.SELECT, replacements: { id: initech.id } });
  t.is(rows[0].n, 0, 'no account was opened');
  t.is(invoiceEvents(initech.id).length, 0);
  await env.runtime.db.sequelize.query("UPDATE platform.workspaces SET billing_interval = 'annual' WHERE id = :id", { replacements: { id: initech.id } });
  const back = await billing.changeInterval(initech.id, 'monthly');
  t.like(back, { subscription: { billing_interval: 'monthly' }, invoice: null });
});

test('POST /payment-methods goes through the provider: only its token, brand, last 4 and expiry are kept', async (t) => {
  const hooli = await env.workspace('hooli');
  const added = await env.inject('POST', '/payment-methods', hooli.as(hooli.ownerKey), { card_number: '4242 4242 4242 4242', expiry_month: '12', expiry_year: '30', cvv: '987' });
  t.is(added.statusCode, 200);
  const method = json(added).data;
  t.like(method, { provider: 'local', brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, is_default: true });
  t.deepEqual(Object.keys(method).sort(), ['brand', 'created_at', 'exp_month', 'exp_year', 'id', 'is_default', 'last4', 'provider']);
  const second = json(await env.inject('POST', '/payment-methods', hooli.as(hooli.ownerKey), { card_number: '5555555555554444', expiry_month: '1', expiry_year: '2031', cvv: '123' })).data;
  t.like(second, { brand: 'mastercard', last4: '4444', exp_month: 1, exp_year: 2031, is_default: false });
  const list = json(await env.inject('GET', '/payment-methods', hooli.as(hooli.ownerKey)));
  t.deepEqual(list.data.map((row: { last4: string }) => row.last4), ['4242', '4444']);

  const [row] = await env.runtime.db.sequelize.query<Record<string, unknown>>('SELECT * FROM platform.payment_methods WHERE workspace_id = :id AND id = :methodId', { type: QueryTypes.SELECT, replacements: { id: hooli.id, methodId: method.id } });
  t.regex(String(row.provider_token), /^tok_local_[0-9a-f]{24}$/);
  // Every column but the random ones (ids and the token's random hex could hold "987" by chance).
  const dump = JSON.stringify(await env.runtime.db.sequelize.query('SELECT provider, brand, last4, exp_month, exp_year, is_default, created_at FROM platform.payment_methods', { type: QueryTypes.SELECT }));
  t.false(dump.includes('4242424242424242'));
  t.false(dump.includes('424242424242'));
  t.false(dump.includes('987'));
  // Nor does any log line, at any level, of these requests or the refused ones.
  await env.inject('POST', '/payment-methods', hooli.as(hooli.ownerKey), { card_number: '4000000000000002', expiry_month: '12', expiry_year: '30', cvv: '987' });
  await env.inject('POST', '/payment-methods', hooli.as(adminKey), { card_number: '4242424242424242', expiry_month: '12', expiry_year: '30', cvv: '987' });
  t.true(logs.length > 0);
  t.false(logs.some((line) => /4242 ?4242 ?4242 ?4242|4000000000000002/.test(line)), 'no log line carries the card number');
  t.false(logs.some((line) => /cvv\W+987|card_number/.test(line)), 'nor the CVV, nor the request body');
});

test('payment methods: bounds, Luhn, expiry and the local provider\'s declining test cards; a refusal stores nothing', async (t) => {
  const umbrella = await env.workspace('umbrella');
  const card = { card_number: '4242424242424242', expiry_month: '12', expiry_year: '2030', cvv: '123' };
  const cases: Array<[Record<string, unknown>, number, string, string?]> = [
    [{ ...card, card_number: '424242424242' }, 400, 'card_number length must be at least 13 characters long', 'card_number'],
    [{ ...card, card_number: '42424242424242424242' }, 400, 'card_number length must be less than or equal to 19 characters long', 'card_number'],
    [{ ...card, card_number: '4242x42424242424' }, 400, 'card_number must be 13-19 digits'],
    [{ ...card, card_number: '4242424242424241' }, 400, 'card_number is not a valid card number (check digit)'],
    [{ ...card, expiry_month: '13' }, 400, 'expiry_month must be a month from 1 to 12'],
    [{ ...card, expiry_month: '123' }, 400, 'expiry_month length must be less than or equal to 2 characters long', 'expiry_month'],
    [{ ...card, expiry_year: '2' }, 400, 'expiry_year length must be at least 2 characters long', 'expiry_year'],
    [{ ...card, expiry_year: '202' }, 400, 'expiry_year must be 2 or 4 digits'],
    [{ ...card, expiry_month: '12', expiry_year: '2026' }, 400, 'the card has expired (expiry_month/expiry_year lie in the past)'],
    [{ ...card, cvv: '12' }, 400, 'cvv length must be at least 3 characters long', 'cvv'],
    [{ ...card, cvv: '12345' }, 400, 'cvv length must be less than or equal to 4 characters long', 'cvv'],
    [{ ...card, cvv: undefined }, 400, 'cvv is required', 'cvv'],
    [{ ...card, card_number: '4000000000000002' }, 402, 'Your card was declined.'],
    [{ ...card, card_number: '4000000000009995' }, 402, 'Your card has insufficient funds.'],
  ];
  for (const [body, status, error, field] of cases) {
    const answer = await env.inject('POST', '/payment-methods', umbrella.as(umbrella.ownerKey), body);
    t.is(answer.statusCode, status, error);
    t.deepEqual(json(answer), field === undefined ? { error } : { error, field });
  }
  const rows = await env.runtime.db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM platform.payment_methods WHERE workspace_id = :id', { type: QueryTypes.SELECT, replacements: { id: umbrella.id } });
  t.is(rows[0].n, 0);
});

test.serial('a change made while no worker runs is queued when a worker starts: the firing is not lost', async (t) => {
  const worker = env.runtime.billingWorker;
  await worker.stop();
  const soylent = await env.workspace('soylent');
  const opened = json(await env.inject('PUT', '/plan', soylent.as(soylent.ownerKey), { plan: 'team' })).data;
  const due = opened.next_run_at as string;
  const jobs = () =>
    env.runtime.db.sequelize.query<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'wpk-billing' AND data->>'w' = :id", { type: QueryTypes.SELECT, replacements: { id: soylent.id } });
  t.is((await jobs())[0].n, 0, 'nothing queued while the worker is stopped');
  await worker.start(false);
  t.is((await jobs())[0].n, 1, 'the starting worker queued the missing firing');
  env.clock.set(new Date(due));
  await worker.runDue();
  const invoices = json(await env.inject('GET', '/invoices', soylent.as(soylent.ownerKey))).data;
  t.deepEqual(invoices.map((invoice: { number: number; period_start: string }) => [invoice.number, invoice.period_start]), [[2, due], [1, opened.period_start]]);
});

test.serial("metered usage: an app's ctx.usage records on its declared meters; the firing that ends the month bills it exactly, on its own usage invoice, once", async (t) => {
  const wonka = await env.workspace('wonka');
  t.is((await env.inject('POST', '/applications/notes/installations', wonka.as(wonka.ownerKey), { access_policy: 'everyone' })).statusCode, 200);
  const opened = json(await env.inject('PUT', '/plan', wonka.as(wonka.ownerKey), { plan: 'team' })).data;
  const [start, due] = [opened.period_start as string, opened.next_run_at as string];
  const record = (body: Record<string, unknown>) => env.inject('POST', '/notes/metered', wonka.as(wonka.ownerKey), body);
  const ledger = async () =>
    (await env.runtime.db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM platform.metered_usage WHERE workspace_id = :id', { type: QueryTypes.SELECT, replacements: { id: wonka.id } }))[0].n;

  t.deepEqual(json(await record({ meter: 'words', microns: 1_234_567 })), { data: { recorded: true } });
  t.deepEqual(json(await record({ meter: 'words', microns: 5_000, key: 'note-1' })), { data: { recorded: true } });
  // The same key again (a redelivery): nothing is written, and it says so.
  t.deepEqual(json(await record({ meter: 'words', microns: 5_000, key: 'note-1' })), { data: { recorded: false } });
  t.deepEqual(json(await record({ meter: 'exports', microns: 15_000 })), { data: { recorded: true } });
  t.is(await ledger(), 3);

  // Refused with a clear error, nothing written: an undeclared meter, a bad amount, a bad key.
  const refusals: Array<[Record<string, unknown>, string]> = [
    [{ meter: 'pages', microns: 10 }, 'ctx.usage.record: "pages" is not a meter this app declares (words, exports)'],
    [{ meter: 'words', microns: 0 }, 'ctx.usage.record: microns must be a whole number from 1 to 1000000000000 (got 0)'],
    [{ meter: 'words', microns: -5 }, 'ctx.usage.record: microns must be a whole number from 1 to 1000000000000 (got -5)'],
    [{ meter: 'words', microns: 1.5 }, 'ctx.usage.record: microns must be a whole number from 1 to 1000000000000 (got 1.5)'],
    [{ meter: 'words', microns: '10' }, 'ctx.usage.record: microns must be a whole number from 1 to 1000000000000 (got "10")'],
    [{ meter: 'words', microns: 1_000_000_000_001 }, 'ctx.usage.record: microns must be a whole number from 1 to 1000000000000 (got 1000000000001)'],
    [{ meter: 'words', microns: 10, key: '' }, 'ctx.usage.record: key must be 1-200 characters'],
    // Recorded, then the unit of work fails: the record rolls back with it.
    [{ meter: 'words', microns: 7, fail: true }, 'refused after recording'],
  ];
  for (const [body, error] of refusals) {
    const answer = await record(body);
    t.is(answer.statusCode, 400, error);
    t.deepEqual(json(answer), { error });
  }
  t.is(await ledger(), 3, 'nothing written by a refused or rolled-back record');

  // GET /plan carries what the next firing bills: 1 239 567 microns = 123.9567 cents → 1.24; 15 000 = 1.5 cents → 0.02 (halves up).
  t.deepEqual(json(await env.inject('GET', '/plan', wonka.as(wonka.ownerKey))).data.metered, {
    since: start,
    amount: '1.26',
    lines: [
      { app: 'notes', meter: 'exports', microns: 15_000, amount: '0.02' },
      { app: 'notes', meter: 'words', microns: 1_239_567, amount: '1.24' },
    ],
  });

  env.events.length = 0;
  env.clock.set(new Date(due));
  await env.runtime.billingWorker.runDue();
  const invoices = json(await env.inject('GET', '/invoices', wonka.as(wonka.ownerKey))).data as Array<{ number: number; kind: string; amount: string; period_start: string; period_end: string; lines: unknown[] }>;
  t.deepEqual(invoices.map((invoice) => [invoice.number, invoice.kind, invoice.amount]), [[3, 'seats', '8.00'], [2, 'usage', '1.26'], [1, 'seats', '8.00']]);
  const [d1, d2] = [start.slice(0, 10), due.slice(0, 10)];
  t.like(invoices[1], { period_start: start, period_end: due });
  t.deepEqual(invoices[1].lines, [
    { description: `notes exports: 15000 microns (${d1} to ${d2})`, quantity: 1, unit_amount: '0.02', amount: '0.02' },
    { description: `notes words: 1239567 microns (${d1} to ${d2})`, quantity: 1, unit_amount: '1.24', amount: '1.24' },
  ]);
  t.deepEqual(invoiceEvents(wonka.id).map((event) => (event.payload as { kind: string; amount: string }).amount), ['1.26', '8.00']);
  t.deepEqual(json(await env.inject('GET', '/plan', wonka.as(wonka.ownerKey))).data.metered, { since: due, amount: '0.00', lines: [] });

  // A second firing of the same instant bills nothing again.
  t.deepEqual(await env.runtime.server.plugins.billing.billing.fire(wonka.id, new Date(due)), []);
  await env.runtime.billingWorker.runDue();
  t.is(json(await env.inject('GET', '/invoices', wonka.as(wonka.ownerKey))).data.length, 3);

  // Usage that rounds to nothing (49 microns: 0.0049 cents) is not billed: the next month has its seats only.
  t.deepEqual(json(await record({ meter: 'words', microns: 49 })), { data: { recorded: true } });
  const next = json(await env.inject('GET', '/plan', wonka.as(wonka.ownerKey))).data.next_run_at as string;
  env.clock.set(new Date(next));
  await env.runtime.billingWorker.runDue();
  t.deepEqual(json(await env.inject('GET', '/invoices', wonka.as(wonka.ownerKey))).data.map((invoice: { number: number; kind: string }) => [invoice.number, invoice.kind]), [[4, 'seats'], [3, 'seats'], [2, 'usage'], [1, 'seats']]);
});
