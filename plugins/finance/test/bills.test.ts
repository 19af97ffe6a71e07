import test from 'ava';
import { ok } from '@wpk/testing';
import { financeWorld } from './helpers/world.js';

const world = await financeWorld('bills');
test.after.always(() => world.close());

const SUPPLIER = 'mrn:companies:company:acme-gmbh';

/** A bill in EUR with a rounding item, a charged and a reverse-charge tax, a % discount and a charge. */
const fullBody = () => ({
  date: '2026-10-05',
  due_date: '2026-11-04',
  currency: 'EUR',
  exchange_rate: 1.0825,
  company_mrn: SUPPLIER,
  contact_mrn: 'mrn:contacts:contact:anna',
  memo: 'October design sprint',
  tags: ['design', 'q4'],
  dimensions: { department: 'Marketing', project: 'Relaunch' },
  sources: ['mrn:files:file:invoice-481.pdf'],
  items: [
    { description: 'Design work', quantity: 3, unit_price: 333.335, discount: 10, account_code: '6500', product_mrn: 'mrn:products:product:design-hour', taxes: [{ name: 'VAT 20%', rate: 20 }] },
    { description: 'Cloud software', amount: 250, account_code: '6300', taxes: [{ name: 'EU VAT 19% (reverse charge)', rate: 19, reverse_charge: true }] },
  ],
  adjustments: [
    { label: 'Early payment discount', type: 'discount', value: 5 },
    { label: 'Shipping', type: 'charge', amount: 15 },
  ],
});

const lines = (entry: { lines: Array<{ account_code: string; debit: string; credit: string; amount_currency: string }> }) => entry.lines.map((line) => [line.account_code, line.debit, line.credit, line.amount_currency]);

test.serial('a bill with the full body: exact amounts, rounded half-up per line; approve posts a balanced entry with reverse charge and the rounding cent; void posts its mirror', async (t) => {
  world.takeEvents();
  const created = await world.owner.post('/finance/bills', fullBody());
  t.is(created.status, 200, JSON.stringify(created.body));
  const bill = created.body.data;
  t.like(bill, {
    status: 'draft', currency: 'EUR', exchange_rate: '1.0825', base_currency: 'USD', company_mrn: SUPPLIER, contact_mrn: 'mrn:contacts:contact:anna',
    memo: 'October design sprint', tags: ['design', 'q4'], dimensions: { department: 'Marketing', project: 'Relaunch' }, sources: ['mrn:files:file:invoice-481.pdf'],
    subtotal: '1240.01', tax_total: '198.00', adjustment_total: '-47.00', total: '1391.01', base_total: '1505.77', date: '2026-10-05', due_date: '2026-11-04',
  });
  t.deepEqual(bill.items, [
    { description: 'Design work', quantity: '3', unit_price: '333.335', discount: '10', amount: '990.01', account_code: '6500', product_mrn: 'mrn:products:product:design-hour', taxes: [{ name: 'VAT 20%', rate: '20', amount: '198.00', reverse_charge: false }] },
    { description: 'Cloud software', quantity: null, unit_price: null, discount: null, amount: '250.00', account_code: '6300', product_mrn: null, taxes: [{ name: 'EU VAT 19% (reverse charge)', rate: '19', amount: '47.50', reverse_charge: true }] },
  ]);
  t.deepEqual(bill.adjustments, [
    { label: 'Early payment discount', type: 'discount', value: '5', amount: '-62.00', account_code: '' },
    { label: 'Shipping', type: 'charge', value: null, amount: '15.00', account_code: '' },
  ]);
  t.deepEqual(world.takeEvents(), [{ action: 'core.finance.bill.created', payload: { bill_id: bill.id, currency: 'EUR', total: '1391.01', created_by: world.owner.id } }]);

  const received = await world.owner.patch(`/finance/bills/${bill.id}`, { status: 'received' });
  t.is(received.body.data.status, 'received');
  const approved = await world.owner.patch(`/finance/bills/${bill.id}`, { status: 'approved' });
  t.is(approved.status, 200, JSON.stringify(approved.body));
  const entryId = approved.body.data.journal_entry_id;
  t.truthy(entryId);
  const entries = await world.owner.get(`/finance/journal-entries?bill_id=${bill.id}`);
  t.is(entries.body.data.length, 1);
  t.like(entries.body.data[0], { id: entryId, kind: 'bill', date: '2026-10-05', currency: 'USD', reverses_id: null });
  t.deepEqual(lines(entries.body.data[0]), [
    ['6500', '1071.69', '0.00', '990.01'],
    ['1400', '214.34', '0.00', '198.00'],
    ['6300', '270.63', '0.00', '250.00'],
    ['1400', '51.42', '0.00', '47.50'],
    ['2200', '0.00', '51.42', '-47.50'],
    ['4900', '0.00', '67.12', '-62.00'],
    ['6100', '16.24', '0.00', '15.00'],
    ['2100', '0.00', '1505.77', '-1391.01'],
    ['6990', '0.00', '0.01', '0.00'],
  ]);
  const events = world.takeEvents();
  t.deepEqual(events, [
    { action: 'core.finance.bill.received', payload: { bill_id: bill.id, received_by: world.owner.id } },
    { action: 'core.finance.bill.approved', payload: { bill_id: bill.id, journal_entry_id: entryId, currency: 'EUR', total: '1391.01', base_currency: 'USD', base_total: '1505.77', approved_by: world.owner.id } },
  ]);

  const voided = await world.owner.patch(`/finance/bills/${bill.id}`, { status: 'void' });
  t.is(voided.status, 200);
  const reversalId = voided.body.data.reversal_entry_id;
  const after = await world.owner.get(`/finance/journal-entries?bill_id=${bill.id}`);
  t.is(after.body.data.length, 2);
  t.like(after.body.data[1], { id: reversalId, kind: 'reversal', reverses_id: entryId });
  t.deepEqual(lines(after.body.data[1]), lines(entries.body.data[0]).map(([code, debit, credit, amount]) => [code, credit, debit, amount === '0.00' ? '0.00' : amount!.startsWith('-') ? amount!.slice(1) : `-${amount}`]));
  t.deepEqual(world.takeEvents(), [{ action: 'core.finance.bill.voided', payload: { bill_id: bill.id, reversal_entry_id: reversalId, voided_by: world.owner.id } }]);
  // The first entry is still there, unchanged: nothing posted is updated or deleted.
  t.deepEqual(lines(after.body.data[0]), lines(entries.body.data[0]));
  const again = await world.owner.patch(`/finance/bills/${bill.id}`, { status: 'approved' });
  t.deepEqual([again.status, again.body], [409, { error: 'Cannot move a bill from void to approved: approved is reached from draft or received' }]);
});

test.serial('PUT edits a draft only (409 saying why otherwise), recomputing its amounts; unknown bills are 404', async (t) => {
  const { body } = await world.owner.post('/finance/bills', { date: '2026-11-01', currency: 'USD', items: [{ description: 'Coffee', quantity: 4, unit_price: 2.5 }] });
  const id = body.data.id;
  t.like(body.data, { total: '10.00', exchange_rate: '1', base_total: '10.00' });
  world.takeEvents();
  const edited = await world.owner.put(`/finance/bills/${id}`, { items: [{ description: 'Coffee', quantity: 4, unit_price: 2.5, taxes: [{ rate: 7 }] }], memo: 'Team coffee', due_date: '2026-11-30' });
  t.is(edited.status, 200, JSON.stringify(edited.body));
  t.like(edited.body.data, { total: '10.70', tax_total: '0.70', memo: 'Team coffee', due_date: '2026-11-30', date: '2026-11-01' });
  t.deepEqual(edited.body.data.items[0].taxes, [{ name: 'Tax 7%', rate: '7', amount: '0.70', reverse_charge: false }]);
  t.deepEqual(world.takeEvents(), [{ action: 'core.finance.bill.updated', payload: { bill_id: id, changed_fields: ['items', 'due_date', 'memo'], updated_by: world.owner.id } }]);
  const toEuro = await world.owner.put(`/finance/bills/${id}`, { currency: 'EUR' });
  t.deepEqual([toEuro.status, toEuro.body], [400, { error: 'exchange_rate: is required when the currency (EUR) is not the base currency (USD)' }]);
  const euro = await world.owner.put(`/finance/bills/${id}`, { currency: 'EUR', exchange_rate: 2 });
  t.like(euro.body.data, { currency: 'EUR', total: '10.70', base_total: '21.40' });
  const sameCurrency = await world.owner.put(`/finance/bills/${id}`, { currency: 'EUR', memo: 'Team coffee (EUR)' });
  t.like(sameCurrency.body.data, { currency: 'EUR', exchange_rate: '2', base_total: '21.40' });
  world.takeEvents();

  await world.owner.patch(`/finance/bills/${id}`, { status: 'received' });
  const refused = await world.owner.put(`/finance/bills/${id}`, { memo: 'late edit' });
  t.deepEqual([refused.status, refused.body], [409, { error: 'Only a draft bill can be edited; this bill is received' }]);
  await world.owner.patch(`/finance/bills/${id}`, { status: 'approved' });
  const posted = await world.owner.put(`/finance/bills/${id}`, { memo: 'late edit' });
  t.deepEqual([posted.status, posted.body], [409, { error: 'Only a draft bill can be edited; this bill is approved (posted to the ledger: void it and record a new one)' }]);
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.finance.bill.received', 'core.finance.bill.approved']);
  for (const [method, path] of [['get', '/finance/bills/nope'], ['put', '/finance/bills/6f1c0c1e-3f7a-4a53-9d1c-2b8f9e1d0a11'], ['patch', '/finance/bills/6f1c0c1e-3f7a-4a53-9d1c-2b8f9e1d0a11']] as const) {
    const response = method === 'get' ? await world.owner.get(path) : method === 'put' ? await world.owner.put(path, { memo: 'x' }) : await world.owner.patch(path, { status: 'received' });
    t.deepEqual([response.status, response.body], [404, { error: `Bill ${path.split('/').at(-1)} not found` }], `${method} ${path}`);
  }
});

test.serial('status moves: receive only a draft, approve a draft or received bill, void any but void; the same status twice is a 409', async (t) => {
  const make = async () => ok(await world.owner.post('/finance/bills', { date: '2026-11-02', currency: 'USD', items: [{ amount: 100 }] })).id as string;
  const a = await make();
  t.is(ok(await world.owner.patch(`/finance/bills/${a}`, { status: 'approved' })).status, 'approved');
  const receiveApproved = await world.owner.patch(`/finance/bills/${a}`, { status: 'received' });
  t.deepEqual([receiveApproved.status, receiveApproved.body], [409, { error: 'Cannot move a bill from approved to received: received is reached from draft' }]);
  const twice = await world.owner.patch(`/finance/bills/${a}`, { status: 'approved' });
  t.deepEqual([twice.status, twice.body], [409, { error: 'The bill is already approved' }]);
  const b = await make();
  world.takeEvents();
  const voidDraft = await world.owner.patch(`/finance/bills/${b}`, { status: 'void' });
  t.like(voidDraft.body.data, { status: 'void', reversal_entry_id: null, journal_entry_id: null });
  t.deepEqual(world.takeEvents(), [{ action: 'core.finance.bill.voided', payload: { bill_id: b, voided_by: world.owner.id } }]);
  const empty = ok(await world.owner.post('/finance/bills', { date: '2026-11-02', currency: 'USD' })).id;
  const nothing = await world.owner.patch(`/finance/bills/${empty}`, { status: 'approved' });
  t.deepEqual([nothing.status, nothing.body], [409, { error: 'The bill has nothing to post: approve a bill with items and a total above zero' }]);
  const bad = await world.owner.patch(`/finance/bills/${empty}`, { status: 'draft' });
  t.is(bad.status, 400);
  t.regex(bad.body.error, /status/);
});

test.serial('approve and void need their own permission on top of finance.bills.edit; each route needs its key', async (t) => {
  const clerk = await world.member(['finance.bills.read', 'finance.bills.create', 'finance.bills.edit']);
  const id = ok(await clerk.post('/finance/bills', { date: '2026-11-02', currency: 'USD', items: [{ amount: 40 }] })).id;
  t.is((await clerk.patch(`/finance/bills/${id}`, { status: 'received' })).status, 200);
  const approve = await clerk.patch(`/finance/bills/${id}`, { status: 'approved' });
  t.deepEqual([approve.status, approve.body], [403, { error: 'Missing permission: finance.bills.approve' }]);
  const voiding = await clerk.patch(`/finance/bills/${id}`, { status: 'void' });
  t.deepEqual([voiding.status, voiding.body], [403, { error: 'Missing permission: finance.bills.void' }]);
  const approver = await world.member(['finance.bills.edit', 'finance.bills.approve']);
  t.is((await approver.patch(`/finance/bills/${id}`, { status: 'approved' })).status, 200);
  const reader = await world.member(['finance.bills.read']);
  const create = await reader.post('/finance/bills', { date: '2026-11-02', currency: 'USD' });
  t.deepEqual([create.status, create.body], [403, { error: 'Missing permission: finance.bills.create' }]);
  await world.workspace.permissionMatrix('finance', {
    params: { account_id: await world.account('6100'), entry_id: id, budget_id: '6f1c0c1e-3f7a-4a53-9d1c-2b8f9e1d0a11' },
    payloads: {},
  });
});

test.serial('idempotency_key: the same key returns the same bill and creates nothing more, whatever the body', async (t) => {
  world.takeEvents();
  const before = await world.counts();
  const first = await world.owner.post('/finance/bills', { date: '2026-11-03', currency: 'USD', items: [{ amount: 12 }], idempotency_key: 'invoice-77' });
  const second = await world.owner.post('/finance/bills', { date: '2026-11-04', currency: 'USD', items: [{ amount: 99 }], idempotency_key: 'invoice-77' });
  t.is(second.status, 200);
  t.deepEqual(second.body, first.body);
  t.is((await world.counts()).bills, before.bills + 1);
  t.is(world.takeEvents().length, 1);
  const other = await world.owner.post('/finance/bills', { date: '2026-11-03', currency: 'USD', items: [{ amount: 12 }], idempotency_key: 'invoice-78' });
  t.not(other.body.data.id, first.body.data.id);
});

test.serial('idempotency_key under concurrent requests: one bill, one event (on PostgreSQL the requests really race)', async (t) => {
  world.takeEvents();
  const before = (await world.counts()).bills;
  const answers = await Promise.all(Array.from({ length: 8 }, () => world.owner.post('/finance/bills', { date: '2026-11-05', currency: 'USD', items: [{ amount: 5 }], idempotency_key: 'race-1' })));
  t.deepEqual(answers.map((answer) => answer.status), Array(8).fill(200));
  t.is(new Set(answers.map((answer) => answer.body.data.id)).size, 1);
  t.is((await world.counts()).bills, before + 1);
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.finance.bill.created']);
});

test.serial('concurrent approvals and voids of one bill: one succeeds, the others are 409; one entry, one reversal, one event each', async (t) => {
  const id = ok(await world.owner.post('/finance/bills', { date: '2026-11-06', currency: 'USD', items: [{ amount: 33 }] })).id;
  world.takeEvents();
  const approvals = await Promise.all(Array.from({ length: 6 }, () => world.owner.patch(`/finance/bills/${id}`, { status: 'approved' })));
  t.deepEqual(approvals.map((answer) => answer.status).sort(), [200, 409, 409, 409, 409, 409]);
  t.true(approvals.filter((answer) => answer.status === 409).every((answer) => answer.body.error === 'The bill is already approved'));
  const voids = await Promise.all(Array.from({ length: 6 }, () => world.owner.patch(`/finance/bills/${id}`, { status: 'void' })));
  t.deepEqual(voids.map((answer) => answer.status).sort(), [200, 409, 409, 409, 409, 409]);
  const entries = await world.owner.get(`/finance/journal-entries?bill_id=${id}`);
  t.deepEqual(entries.body.data.map((entry: { kind: string }) => entry.kind), ['bill', 'reversal']);
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.finance.bill.approved', 'core.finance.bill.voided']);
});

test.serial('bad bodies: each a 400 naming what is wrong; nothing written, no event', async (t) => {
  world.takeEvents();
  const before = await world.counts();
  const base = { date: '2026-11-01', currency: 'USD' };
  const cases: Array<[Record<string, unknown>, string | RegExp]> = [
    [{ currency: 'USD' }, 'date is required'],
    [{ date: '2026-11-01' }, 'currency is required'],
    [{ ...base, date: '2026-02-30' }, /date/],
    [{ ...base, currency: 'XXX' }, /currency must be an ISO 4217 currency code/],
    [{ ...base, currency: 'EUR' }, 'exchange_rate: is required when the currency (EUR) is not the base currency (USD)'],
    [{ ...base, exchange_rate: 1.2 }, 'exchange_rate: a bill in the base currency (USD) has the rate 1, not 1.2'],
    [{ ...base, currency: 'EUR', exchange_rate: 0 }, /exchange_rate must be greater than 0/],
    [{ ...base, memo: 'x'.repeat(5001) }, /memo length must be less than or equal to 5000/],
    [{ ...base, idempotency_key: 'k'.repeat(101) }, /idempotency_key length must be less than or equal to 100/],
    [{ ...base, due_date: '2026-10-01' }, 'due_date: 2026-10-01 is before the bill\'s date 2026-11-01'],
    [{ ...base, company_mrn: 'acme' }, /company_mrn must be an MRN/],
    [{ ...base, items: [{ description: 'nothing' }] }, 'items[0]: give an amount, or a unit_price (with quantity, 1 by default)'],
    [{ ...base, items: [{ amount: 1.005 }] }, /items\[0\].amount must have at most 2 decimal places/],
    [{ ...base, items: [{ amount: -1 }] }, /items\[0\].amount must be greater than or equal to 0/],
    [{ ...base, items: [{ quantity: 2, unit_price: 5, amount: 11 }] }, 'items[0].amount: 11.00 is not quantity × unit_price − discount (10.00); send one or the other'],
    [{ ...base, items: [{ quantity: 1, unit_price: 5, discount: 6 }] }, 'items[0].discount: 6.00 is more than quantity × unit_price (5.00)'],
    [{ ...base, items: [{ amount: 5, account_code: '9999' }] }, 'items[0].account_code: 9999 is not an account of the chart'],
    [{ ...base, items: [{ amount: 5, account_code: '2100' }] }, 'items[0].account_code: 2100 is an liability account; a bill item is posted to an expense or asset account'],
    [{ ...base, items: [{ amount: 5, taxes: [{ name: 'VAT' }] }] }, 'items[0].taxes[0]: give a rate or an amount'],
    [{ ...base, items: [{ amount: 5, taxes: [{ rate: 101 }] }] }, /items\[0\].taxes\[0\].rate must be less than or equal to 100/],
    [{ ...base, items: [{ amount: 5 }], adjustments: [{ type: 'discount', amount: 6 }] }, 'adjustments: the discounts exceed the bill (its total would be -1.00 USD)'],
    [{ ...base, items: [{ amount: 5 }], adjustments: [{ type: 'rebate', amount: 1 }] }, /adjustments\[0\].type must be one of \[discount, charge\]/],
    [{ ...base, items: [{ amount: 5 }], adjustments: [{ type: 'charge' }] }, 'adjustments[0]: give an amount, or a value (a percentage of the subtotal)'],
    [{ ...base, items: [{ amount: 5 }], adjustments: [{ type: 'charge', amount: 1, account_code: 'nope' }] }, 'adjustments[0].account_code: nope is not an account of the chart'],
    [{ ...base, tags: ['a', 'a'] }, /tags\[1\] contains a duplicate value/],
    [{ ...base, dimensions: { department: 'd'.repeat(201) } }, /dimensions.department length must be less than or equal to 200/],
    [{ ...base, currency: 'EUR', exchange_rate: 1e6, items: Array.from({ length: 2 }, () => ({ amount: 1e12 })) }, /is more than the ledger keeps/],
  ];
  for (const [body, expected] of cases) {
    const response = await world.owner.post('/finance/bills', body);
    t.is(response.status, 400, JSON.stringify(body).slice(0, 200));
    if (typeof expected === 'string') t.is(response.body.error, expected);
    else t.regex(response.body.error, expected);
  }
  t.deepEqual(await world.counts(), before);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('the ledger refuses in the database itself to change or delete what was posted', async (t) => {
  const id = ok(await world.owner.post('/finance/bills', { date: '2026-11-02', currency: 'USD', items: [{ amount: 7 }] })).id;
  await world.owner.patch(`/finance/bills/${id}`, { status: 'approved' });
  for (const sql of [
    'UPDATE app_finance.journal_lines SET debit = debit + 1 WHERE workspace_id = :ws',
    'DELETE FROM app_finance.journal_lines WHERE workspace_id = :ws',
    "UPDATE app_finance.journal_entries SET memo = 'changed' WHERE workspace_id = :ws",
    'DELETE FROM app_finance.journal_entries WHERE workspace_id = :ws',
  ]) {
    const error = await t.throwsAsync(world.query(sql, { ws: world.workspaceId }));
    t.regex(error!.message, /posted journal entries are immutable: (UPDATE|DELETE) of app_finance\.journal_(lines|entries) refused/);
  }
  t.true(Number((await world.query<{ n: string }>('SELECT count(*) AS n FROM app_finance.journal_lines WHERE workspace_id = :ws', { ws: world.workspaceId }))[0]!.n) > 0);
});

test.serial('bills are listed newest first, filtered, and found by search', async (t) => {
  const list = await world.owner.get('/finance/bills?status=void&per_page=100');
  t.is(list.status, 200);
  t.true(list.body.data.every((bill: { status: string }) => bill.status === 'void'));
  const tagged = await world.owner.get('/finance/bills?tag=design');
  t.deepEqual(tagged.body.data.map((bill: { memo: string }) => bill.memo), ['October design sprint']);
  const found = await world.owner.get('/search?app=finance&q=design%20sprint&types=bill');
  t.is(found.status, 200, JSON.stringify(found.body));
  t.deepEqual(found.body.data.map((hit: { type: string; title: string }) => [hit.type, hit.title]), [['bill', 'Design work · 1391.01 EUR']]);
  // The result opens the front-end's page of the bill (/app/finance/bills/{id} in the shell).
  t.deepEqual(tagged.body.data.map((bill: { id: string }) => `/bills/${bill.id}`), [found.body.data[0].url]);
});
