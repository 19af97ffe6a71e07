import test from 'ava';
import { ok } from '@wpk/testing';
import fs from 'node:fs';
import fc from 'fast-check';
import Decimal from 'decimal.js';
import { financeWorld } from './helpers/world.js';

const world = await financeWorld('ledger');
test.after.always(() => world.close());

interface Line { debit: string; credit: string }
interface Entry { id: string; kind: string; lines: Line[] }

/** Every entry balances, and the trial balance (from its own report and from the raw lines) sums to zero. */
async function assertBalanced(t: { is: (a: unknown, b: unknown, m?: string) => void; true: (v: boolean, m?: string) => void }, label: string) {
  const entries: Entry[] = [];
  for (let page = 1; ; page += 1) {
    const response = await world.owner.get(`/finance/journal-entries?per_page=100&page=${page}`);
    entries.push(...response.body.data);
    if (response.body.links.next === null) break;
  }
  for (const entry of entries) {
    const debit = entry.lines.reduce((total, line) => total.plus(line.debit), new Decimal(0));
    const credit = entry.lines.reduce((total, line) => total.plus(line.credit), new Decimal(0));
    t.true(debit.equals(credit) && debit.greaterThan(0), `${label}: entry ${entry.id} (${entry.kind}) debits ${debit} credits ${credit}`);
    for (const line of entry.lines) t.true(new Decimal(line.debit).isZero() !== new Decimal(line.credit).isZero(), `${label}: a line is one-sided`);
  }
  const report = await world.owner.get('/finance/reports/trial-balance?per_page=100');
  t.is(report.body.totals.balance, '0.00', `${label}: trial balance`);
  t.is(report.body.totals.debit, report.body.totals.credit, `${label}: trial balance sides`);
  t.is(report.body.totals.balance_debit, report.body.totals.balance_credit, `${label}: net balances`);
  const [raw] = await world.query<{ d: string; c: string }>('SELECT coalesce(sum(debit), 0)::text AS d, coalesce(sum(credit), 0)::text AS c FROM app_finance.journal_lines WHERE workspace_id = :ws', { ws: world.workspaceId });
  t.true(new Decimal(raw!.d).equals(raw!.c), `${label}: SQL sums ${raw!.d} / ${raw!.c}`);
}

const amount = fc.integer({ min: 0, max: 5_000_000 }).map((cents) => cents / 100);
const tax = fc.record({ rate: fc.option(fc.integer({ min: 0, max: 2500 }).map((x) => x / 100), { nil: undefined }), amount: fc.option(amount, { nil: undefined }), reverse_charge: fc.boolean() }).filter((t) => t.rate !== undefined || t.amount !== undefined);
const item = fc.oneof(
  fc.record({ amount, account_code: fc.constantFrom('6100', '6200', '1500'), taxes: fc.array(tax, { maxLength: 3 }) }),
  fc.record({ quantity: fc.integer({ min: 1, max: 1000 }).map((q) => q / 10), unit_price: fc.integer({ min: 0, max: 10_000_000 }).map((p) => p / 1000), account_code: fc.constantFrom('6300', '6400'), taxes: fc.array(tax, { maxLength: 2 }) }),
);
const body = fc.record({
  currency: fc.constantFrom('USD', 'EUR', 'JPY', 'GBP'),
  exchange_rate: fc.integer({ min: 1, max: 50_000_000 }).map((r) => r / 1_000_000),
  items: fc.array(item, { minLength: 1, maxLength: 5 }),
  adjustments: fc.array(fc.record({ type: fc.constantFrom('charge', 'discount'), value: fc.integer({ min: 0, max: 1000 }).map((v) => v / 100) }), { maxLength: 2 }),
  department: fc.constantFrom('Sales', 'Ops', undefined),
});
const operation = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('create' as const), body }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('approve' as const), pick: fc.nat() }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constantFrom('receive' as const, 'void' as const, 'edit' as const), pick: fc.nat() }), weight: 2 },
);

test.serial('property: after every operation of random sequences (create, edit, receive, approve, void), every entry balances and the trial balance sums to zero', async (t) => {
  const ids: string[] = [];
  let step = 0;
  const run = async (operations: Array<{ kind: string; body?: fc.Arbitrary<unknown> extends never ? never : Record<string, unknown>; pick?: number }>) => {
    for (const op of operations) {
      step += 1;
      if (op.kind === 'create') {
        const { currency, exchange_rate, items, adjustments, department } = op.body as { currency: string; exchange_rate: number; items: unknown[]; adjustments: unknown[]; department?: string };
        const response = await world.owner.post('/finance/bills', { date: '2026-10-01', currency, ...(currency === 'USD' ? {} : { exchange_rate }), items, adjustments, dimensions: department ? { department } : {} });
        // A random discount may exceed the bill: refused whole (400), which the invariant survives too.
        if (response.status === 200) ids.push(response.body.data.id);
        else t.is(response.status, 400, JSON.stringify(response.body));
      } else if (ids.length > 0) {
        const id = ids[op.pick! % ids.length]!;
        const response =
          op.kind === 'edit'
            ? await world.owner.put(`/finance/bills/${id}`, { memo: `edit ${step}` })
            : await world.owner.patch(`/finance/bills/${id}`, { status: { receive: 'received', approve: 'approved', void: 'void' }[op.kind] });
        t.true([200, 409].includes(response.status), `${op.kind}: ${response.status} ${JSON.stringify(response.body)}`);
      }
      await assertBalanced(t, `step ${step} (${op.kind})`);
    }
  };
  await fc.assert(fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 15 }), async (operations) => run(operations as never)), { numRuns: 10, seed: 20261126 });
  const approved = await world.owner.get('/finance/bills?status=approved&per_page=1');
  const voided = await world.owner.get('/finance/bills?status=void&per_page=1');
  t.log(`${step} operations, ${ids.length} bills: ${approved.body.pagination.total} approved, ${voided.body.pagination.total} void`);
  t.true(approved.body.pagination.total + voided.body.pagination.total > 0);
});

test.serial('reports: general ledger with running balance, AP aging buckets, budget vs actual per dimension; JSON and CSV', async (t) => {
  const ws = await world.another('reports');
  {
    const post = async (body: Record<string, unknown>) => {
      const created = await ws.owner.post('/finance/bills', { currency: 'USD', ...body });
      t.is(created.status, 200, JSON.stringify(created.body));
      const approved = await ws.owner.patch(`/finance/bills/${created.body.data.id}`, { status: 'approved' });
      t.is(approved.status, 200);
      return created.body.data.id as string;
    };
    await post({ date: '2026-07-01', due_date: '2026-07-31', company_mrn: 'mrn:companies:company:a', items: [{ description: 'Rent July', amount: 1000, account_code: '6200' }], dimensions: { department: 'Ops', location: 'Berlin' } });
    await post({ date: '2026-09-15', due_date: '2026-10-15', company_mrn: 'mrn:companies:company:a', items: [{ description: 'Rent Sept', amount: 1000, account_code: '6200' }], dimensions: { department: 'Ops', location: 'Paris' } });
    await post({ date: '2026-10-20', due_date: '2026-11-19', company_mrn: 'mrn:companies:company:b', items: [{ description: 'Flights', amount: 300, account_code: '6400' }], dimensions: { department: 'Sales' } });
    const voided = await post({ date: '2026-10-21', items: [{ description: 'Wrong bill', amount: 50, account_code: '6200' }], dimensions: { department: 'Ops' } });
    t.is((await ws.owner.patch(`/finance/bills/${voided}`, { status: 'void' })).status, 200);

    const rent = await ws.account('6200');
    const ledger = await ws.owner.get(`/finance/reports/general-ledger?account_id=${rent}&from=2026-09-01&to=2026-12-31`);
    t.is(ledger.status, 200, JSON.stringify(ledger.body));
    t.deepEqual(ledger.body.data.map((row: Record<string, unknown>) => [row.date, row.description, row.debit, row.credit, row.balance]), [
      ['2026-09-01', 'Opening balance', '0.00', '0.00', '1000.00'],
      ['2026-09-15', 'Rent Sept', '1000.00', '0.00', '2000.00'],
      ['2026-10-21', 'Wrong bill', '50.00', '0.00', '2050.00'],
      ['2026-10-21', 'Wrong bill', '0.00', '50.00', '2000.00'],
    ]);
    t.deepEqual(ledger.body.totals, { debit: '1050.00', credit: '50.00', balance: '2000.00' });
    t.like(ledger.body.account, { code: '6200', name: 'Rent', normal_balance: 'debit' });
    const payables = await ws.account('2100');
    const apLedger = await ws.owner.get(`/finance/reports/general-ledger?account_id=${payables}`);
    t.is(apLedger.body.totals.balance, '2300.00');

    const aging = await ws.owner.get('/finance/reports/ap-aging?as_of=2026-11-30');
    t.deepEqual(aging.body.data, [
      { company_mrn: 'mrn:companies:company:a', bills: 2, current: '0.00', days_1_30: '0.00', days_31_60: '1000.00', days_61_90: '0.00', days_over_90: '1000.00', total: '2000.00' },
      { company_mrn: 'mrn:companies:company:b', bills: 1, current: '0.00', days_1_30: '300.00', days_31_60: '0.00', days_61_90: '0.00', days_over_90: '0.00', total: '300.00' },
    ]);
    t.deepEqual(aging.body.totals, { current: '0.00', days_1_30: '300.00', days_31_60: '1000.00', days_61_90: '0.00', days_over_90: '1000.00', total: '2300.00' });
    const early = await ws.owner.get('/finance/reports/ap-aging?as_of=2026-07-15');
    t.deepEqual(early.body.data.map((row: { current: string }) => row.current), ['1000.00']);

    ws.takeEvents();
    const budget = await ws.owner.post('/finance/budgets', { account_id: rent, period_start: '2026-07-01', period_end: '2026-09-30', amount: 2500, dimensions: { department: 'Ops' }, notes: 'Q3 rent' });
    t.is(budget.status, 200, JSON.stringify(budget.body));
    t.like(budget.body.data, { account_id: rent, amount: '2500.00', dimensions: { department: 'Ops', location: null, project: null }, notes: 'Q3 rent' });
    const travel = await ws.account('6400');
    await ws.owner.post('/finance/budgets', { account_id: travel, period_start: '2026-10-01', period_end: '2026-12-31', amount: 250, dimensions: { department: 'Sales' } });
    await ws.owner.post('/finance/budgets', { account_id: rent, period_start: '2026-07-01', period_end: '2026-09-30', amount: 1200, dimensions: { location: 'Berlin' } });
    const events = ws.takeEvents();
    t.deepEqual(events[0], { action: 'core.finance.budget.created', payload: { budget_id: budget.body.data.id, account_id: rent, period_start: '2026-07-01', period_end: '2026-09-30', amount: '2500.00', created_by: ws.owner.id } });
    const byDepartment = await ws.owner.get('/finance/reports/budget-vs-actual?dimension=department');
    t.deepEqual(byDepartment.body.data.map((row: Record<string, unknown>) => [row.value, row.code, row.budget, row.actual, row.variance]), [
      ['Ops', '6200', '2500.00', '2000.00', '500.00'],
      ['Sales', '6400', '250.00', '300.00', '-50.00'],
      [null, '6200', '1200.00', '2000.00', '-800.00'],
    ]);
    const byLocation = await ws.owner.get('/finance/reports/budget-vs-actual?dimension=location');
    t.deepEqual(byLocation.body.data.map((row: Record<string, unknown>) => [row.value, row.code, row.actual]), [
      ['Berlin', '6200', '1000.00'],
      [null, '6200', '2000.00'],
      [null, '6400', '300.00'],
    ]);
    const patched = await ws.owner.patch(`/finance/budgets/${budget.body.data.id}`, { amount: 2000, dimensions: { department: null, project: 'HQ' } });
    t.like(patched.body.data, { amount: '2000.00', dimensions: { department: null, location: null, project: 'HQ' } });
    t.deepEqual(ws.takeEvents(), [{ action: 'core.finance.budget.updated', payload: { budget_id: budget.body.data.id, changed_fields: ['amount', 'dimensions.department', 'dimensions.project'], updated_by: ws.owner.id } }]);
    const same = await ws.owner.patch(`/finance/budgets/${budget.body.data.id}`, { amount: 2000 });
    t.is(same.status, 200);
    t.deepEqual(ws.takeEvents(), []);
    const badPeriod = await ws.owner.patch(`/finance/budgets/${budget.body.data.id}`, { period_end: '2026-01-01' });
    t.deepEqual([badPeriod.status, badPeriod.body], [400, { error: 'period_end: 2026-01-01 is before period_start 2026-07-01' }]);
    const badAccount = await ws.owner.post('/finance/budgets', { account_id: 'nope', period_start: '2026-07-01', period_end: '2026-09-30', amount: 1 });
    t.deepEqual([badAccount.status, badAccount.body], [400, { error: 'account_id: nope is not an account of this workspace' }]);
    const missing = await ws.owner.post('/finance/budgets', { account_id: rent, period_start: '2026-07-01', amount: 1 });
    t.deepEqual([missing.status, missing.body], [400, { error: 'period_end is required', field: 'period_end' }]);
    const notes = await ws.owner.post('/finance/budgets', { account_id: rent, period_start: '2026-07-01', period_end: '2026-07-31', amount: 1, notes: 'n'.repeat(2001) });
    t.is(notes.status, 400);
    const list = await ws.owner.get(`/finance/budgets?account_id=${travel}`);
    t.is(list.body.pagination.total, 1);
    t.is(ok(await ws.owner.get(`/finance/budgets/${budget.body.data.id}`)).amount, '2000.00');
    t.deepEqual((await ws.owner.get('/finance/budgets/6f1c0c1e-3f7a-4a53-9d1c-2b8f9e1d0a11')).body, { error: 'Budget 6f1c0c1e-3f7a-4a53-9d1c-2b8f9e1d0a11 not found' });

    const csv = await ws.owner.get('/finance/reports/ap-aging?as_of=2026-11-30&format=csv');
    t.is(csv.status, 200);
    const expected = 'company_mrn,bills,current,days_1_30,days_31_60,days_61_90,days_over_90,total\r\nmrn:companies:company:a,2,0.00,0.00,1000.00,0.00,1000.00,2000.00\r\nmrn:companies:company:b,1,0.00,300.00,0.00,0.00,0.00,300.00\r\nTotal,,0.00,300.00,1000.00,0.00,1000.00,2300.00\r\n';
    t.is(csv.body.data.csv, expected);
    const file = await ws.platform.follow(csv.body.data.url);
    t.is(file.status, 200);
    t.regex(String(file.headers['content-type']), /^text\/csv/);
    t.is(file.bytes.toString('utf8'), expected);
    const glCsv = await ws.owner.get(`/finance/reports/general-ledger?account_id=${rent}&format=csv`);
    t.is(glCsv.body.data.csv.split('\r\n')[0], 'date,entry_id,bill_id,line_no,description,debit,credit,balance');
    const bvaCsv = await ws.owner.get('/finance/reports/budget-vs-actual?format=csv');
    t.is(bvaCsv.body.data.csv.split('\r\n').at(-2), 'Total,,,,,,3450.00,4300.00,-850.00');
    const unknown = await ws.owner.get('/finance/reports/general-ledger?account_id=nope');
    t.deepEqual([unknown.status, unknown.body], [404, { error: 'Account nope not found' }]);
    const backwards = await ws.owner.get(`/finance/reports/general-ledger?account_id=${rent}&from=2026-10-01&to=2026-09-01`);
    t.deepEqual([backwards.status, backwards.body], [400, { error: 'to: 2026-09-01 is before from 2026-10-01' }]);
    const tb = await ws.owner.get('/finance/reports/trial-balance?as_of=2026-08-01');
    t.deepEqual(tb.body.data.map((row: Record<string, unknown>) => [row.code, row.balance_debit, row.balance_credit]), [['2100', '0.00', '1000.00'], ['6200', '1000.00', '0.00']]);
    const paged = await ws.owner.get('/finance/reports/trial-balance?per_page=1&page=2');
    t.is(paged.body.data.length, 1);
    t.deepEqual(paged.body.pagination, { page: 2, per_page: 1, total: 3, pages: 3 });
    t.is(paged.body.totals.balance, '0.00');
  }
});

const DOC = new URL('../../../docs/apps/finance.md', import.meta.url);

test.serial('the worked example of docs/apps/finance.md: a EUR bill with two tax lines, approved then voided, its entries and the trial balance after each step', async (t) => {
  const ws = await world.another('example');
  const out: string[] = [];
  const json = (value: unknown) => ['```json', JSON.stringify(value, null, 2), '```'];
  interface EntryLine { account_code: string; debit: string; credit: string; amount_currency: string; description: string }
  const entryTable = (entry: { kind: string; date: string; lines: EntryLine[] }) => [
    `Journal entry (${entry.kind}, dated ${entry.date}, USD):`,
    '',
    '| # | account | debit USD | credit USD | EUR | description |',
    '|---|---|---:|---:|---:|---|',
    ...entry.lines.map((line, index) => `| ${index + 1} | ${line.account_code} | ${line.debit === '0.00' ? '' : line.debit} | ${line.credit === '0.00' ? '' : line.credit} | ${line.amount_currency} | ${line.description} |`),
  ];
  const trialBalance = async (label: string) => {
    const report = await ws.owner.get('/finance/reports/trial-balance');
    t.is(report.body.totals.balance, '0.00');
    return [
      `Trial balance ${label} (\`GET /finance/reports/trial-balance\`):`,
      '',
      '| code | name | debit | credit | balance (Dr) | balance (Cr) |',
      '|---|---|---:|---:|---:|---:|',
      ...report.body.data.map((row: Record<string, string>) => `| ${row.code} | ${row.name} | ${row.debit} | ${row.credit} | ${row.balance_debit} | ${row.balance_credit} |`),
      `| | **Total** | ${report.body.totals.debit} | ${report.body.totals.credit} | ${report.body.totals.balance_debit} | ${report.body.totals.balance_credit} |`,
    ];
  };
  const body = {
    date: '2026-10-05',
    due_date: '2026-11-04',
    currency: 'EUR',
    exchange_rate: 1.0825,
    company_mrn: 'mrn:companies:company:muster-gmbh',
    memo: 'Invoice RE-2026-481',
    dimensions: { department: 'Marketing' },
    items: [
      { description: 'Consulting, 7.5 h', quantity: 7.5, unit_price: 133.33, account_code: '6500', taxes: [{ name: 'VAT 19%', rate: 19 }] },
      { description: 'Design software licence', amount: 480, account_code: '6300', taxes: [{ name: 'EU VAT 19% (reverse charge)', rate: 19, reverse_charge: true }] },
    ],
  };
  const created = await ws.owner.post('/finance/bills', body);
  t.is(created.status, 200, JSON.stringify(created.body));
  const bill = created.body.data;
  out.push('**1. Record the bill** (`POST /finance/bills`):', '', ...json(body), '');
  out.push('The bill, a draft (amounts in EUR, rounded half away from zero per line):', '');
  out.push('| item | amount | tax line | tax | reverse charge |', '|---|---:|---|---:|---|');
  for (const item of bill.items) for (const tax of item.taxes) out.push(`| ${item.description} | ${item.amount} | ${tax.name} | ${tax.amount} | ${tax.reverse_charge ? 'yes' : 'no'} |`);
  out.push('', `subtotal ${bill.subtotal}, charged tax ${bill.tax_total}, total **${bill.total} EUR** (the reverse-charge tax is not charged by the supplier), × ${bill.exchange_rate} = **${bill.base_total} USD**. Nothing is posted yet.`, '');

  const approved = await ws.owner.patch(`/finance/bills/${bill.id}`, { status: 'approved' });
  t.is(approved.status, 200);
  const afterApprove = await ws.owner.get(`/finance/journal-entries?bill_id=${bill.id}`);
  out.push('**2. Approve it** (`PATCH /finance/bills/{id}` with `{"status": "approved"}`): one entry, debits = credits. Each line is converted on its own; the cent that leaves is posted to currency rounding (6990).', '', ...entryTable(afterApprove.body.data[0]), '');
  out.push(...(await trialBalance('after approval')), '');

  const voided = await ws.owner.patch(`/finance/bills/${bill.id}`, { status: 'void' });
  t.is(voided.status, 200);
  const afterVoid = await ws.owner.get(`/finance/journal-entries?bill_id=${bill.id}`);
  t.deepEqual(afterVoid.body.data[0], afterApprove.body.data[0]);
  out.push('**3. Void it** (`{"status": "void"}`): the first entry stays as it was; the reversal mirrors it.', '', ...entryTable(afterVoid.body.data[1]), '');
  out.push(...(await trialBalance('after the void')), '', 'Every account nets to zero: the bill left the ledger without anything posted being changed.');

  const generated = out.join('\n');
  const doc = fs.readFileSync(DOC, 'utf8');
  const start = '<!-- worked-example:start -->\n';
  const end = '<!-- worked-example:end -->';
  const current = doc.slice(doc.indexOf(start) + start.length, doc.indexOf(end));
  if (process.env.UPDATE_DOCS === '1') fs.writeFileSync(DOC, doc.replace(`${start}${current}${end}`, `${start}${generated}\n${end}`));
  else t.is(current, `${generated}\n`, 'docs/apps/finance.md is out of step with the worked example: run the test with UPDATE_DOCS=1');
});
