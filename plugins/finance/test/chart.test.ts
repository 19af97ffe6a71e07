import test from 'ava';
import { financeWorld } from './helpers/world.js';

const world = await financeWorld('chart');
test.after.always(() => world.close());

test.serial('the default chart is seeded once on install: the install event delivered twice seeds nothing more', async (t) => {
  const list = await world.owner.get('/finance/accounts?per_page=100');
  t.is(list.status, 200);
  t.deepEqual(list.body.data.map((account: { code: string }) => account.code), ['1000', '1010', '1020', '1200', '1400', '1500', '1510', '2000', '2100', '2200', '3000', '3100', '4000', '4100', '4900', '6000', '6100', '6200', '6300', '6400', '6500', '6900', '6990']);
  const byCode = new Map(list.body.data.map((account: { code: string }) => [account.code, account]));
  t.like(byCode.get('1510'), { type: 'asset', is_contra: true, normal_balance: 'credit', parent_id: (byCode.get('1500') as { id: string }).id });
  t.like(byCode.get('1020'), { is_bank: true, normal_balance: 'debit' });
  t.like(byCode.get('2100'), { name: 'Accounts payable', type: 'liability', normal_balance: 'credit', system_role: 'payables', show_in_unified: true, display_name: null });
  const again = await world.platform.deliver(world.workspaceId, 'system.app.installed', { app_slug: 'finance', installed_by: world.owner.id });
  t.is(again.finance, 'handled');
  const other = await world.platform.deliver(world.workspaceId, 'system.app.installed', { app_slug: 'tasks', installed_by: world.owner.id });
  t.is(other.finance, 'handled');
  t.is((await world.counts()).accounts, 23);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('a fresh install seeds the chart with one account.created event per account', async (t) => {
  const fresh = await world.another('fresh', { install: false });
  {
    await fresh.workspace.install('finance');
    t.is((await fresh.owner.get('/finance/accounts')).body.pagination.total, 0);
    await fresh.platform.deliver(fresh.workspaceId, 'system.app.installed', { app_slug: 'finance', installed_by: fresh.owner.id });
    const events = fresh.takeEvents();
    t.is(events.length, 23);
    t.like(events[0], { action: 'core.finance.account.created', payload: { code: '1000', name: 'Assets', type: 'asset' } });
    t.is((await fresh.owner.get('/finance/accounts')).body.pagination.total, 23);
    t.deepEqual(await fresh.platform.distributionProblems(), []);
  }
});

test.serial('POST /finance/accounts: normal balance from the type (flipped for a contra account) unless given; parent of the same type; code unique ignoring case', async (t) => {
  world.takeEvents();
  const equipment = await world.account('1500');
  const created = await world.owner.post('/finance/accounts', { code: '1550', name: 'Vehicles', type: 'asset', parent_id: equipment, description: 'Company cars' });
  t.is(created.status, 200, JSON.stringify(created.body));
  t.like(created.body.data, { code: '1550', name: 'Vehicles', type: 'asset', parent_id: equipment, normal_balance: 'debit', is_contra: false, is_bank: false, description: 'Company cars', display_name: null, show_in_unified: true, system_role: null });
  t.deepEqual(world.takeEvents(), [{ action: 'core.finance.account.created', payload: { account_id: created.body.data.id, code: '1550', name: 'Vehicles', type: 'asset', created_by: world.owner.id } }]);
  const contra = await world.owner.post('/finance/accounts', { code: '4950', name: 'Sales returns', type: 'income', is_contra: true });
  t.like(contra.body.data, { normal_balance: 'debit', is_contra: true });
  const given = await world.owner.post('/finance/accounts', { code: 'SUSP-1', name: 'Suspense', type: 'liability', normal_balance: 'debit' });
  t.like(given.body.data, { normal_balance: 'debit' });
  const bank = await world.owner.post('/finance/accounts', { code: '1030', name: 'Savings', type: 'asset', is_bank: true });
  t.like(bank.body.data, { is_bank: true });
  world.takeEvents();
  const before = await world.counts();
  const cases: Array<[Record<string, unknown>, number, string | RegExp]> = [
    [{ code: '1550', name: 'Again', type: 'asset' }, 409, 'An account with code 1550 already exists'],
    [{ code: 'susp-1', name: 'Again', type: 'asset' }, 409, 'An account with code susp-1 already exists'],
    [{ code: '1560', name: 'Wrong parent', type: 'expense', parent_id: equipment }, 400, 'parent_id: the parent account 1500 is of type asset, not expense; an account sits under one of its own type'],
    [{ code: '1560', name: 'No parent', type: 'asset', parent_id: '6f1c0c1e-3f7a-4a53-9d1c-2b8f9e1d0a11' }, 400, 'parent_id: 6f1c0c1e-3f7a-4a53-9d1c-2b8f9e1d0a11 is not an account of this workspace'],
    [{ code: '2900', name: 'Bank loan', type: 'liability', is_bank: true }, 400, 'is_bank: a bank account is an asset, not liability'],
    [{ code: 'x'.repeat(21), name: 'Long', type: 'asset' }, 400, /code length must be less than or equal to 20/],
    [{ code: '', name: 'Empty', type: 'asset' }, 400, /code is not allowed to be empty/],
    [{ code: '12 34', name: 'Space', type: 'asset' }, 400, 'code may hold letters, digits, ".", "_" and "-" only'],
    [{ code: '1570', name: 'n'.repeat(201), type: 'asset' }, 400, /name length must be less than or equal to 200/],
    [{ code: '1570', name: 'Kind', type: 'revenue' }, 400, /type must be one of \[asset, liability, equity, income, expense\]/],
    [{ code: '1570', name: 'Side', type: 'asset', normal_balance: 'left' }, 400, /normal_balance must be one of \[debit, credit\]/],
    [{ code: '1570', name: 'Long text', type: 'asset', description: 'd'.repeat(1001) }, 400, /description length must be less than or equal to 1000/],
    [{ name: 'No code', type: 'asset' }, 400, 'code is required'],
  ];
  for (const [body, status, error] of cases) {
    const response = await world.owner.post('/finance/accounts', body);
    t.is(response.status, status, JSON.stringify(body));
    if (typeof error === 'string') t.is(response.body.error, error);
    else t.regex(response.body.error, error);
  }
  t.deepEqual(await world.counts(), before);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('PUT /finance/accounts/{id} sets display_name and show_in_unified only; an unchanged PUT emits nothing', async (t) => {
  const id = await world.account('6300');
  world.takeEvents();
  const put = await world.owner.put(`/finance/accounts/${id}`, { display_name: 'SaaS', show_in_unified: false, code: '9999', name: 'ignored' });
  t.is(put.status, 200);
  t.like(put.body.data, { code: '6300', name: 'Software and subscriptions', display_name: 'SaaS', show_in_unified: false });
  t.deepEqual(world.takeEvents(), [{ action: 'core.finance.account.updated', payload: { account_id: id, changed_fields: ['display_name', 'show_in_unified'], updated_by: world.owner.id } }]);
  t.is((await world.owner.put(`/finance/accounts/${id}`, { display_name: 'SaaS' })).status, 200);
  t.deepEqual(world.takeEvents(), []);
  const cleared = await world.owner.put(`/finance/accounts/${id}`, { display_name: '' });
  t.is(cleared.body.data.display_name, null);
  const long = await world.owner.put(`/finance/accounts/${id}`, { display_name: 'x'.repeat(201) });
  t.is(long.status, 400);
  const missing = await world.owner.put('/finance/accounts/6f1c0c1e-3f7a-4a53-9d1c-2b8f9e1d0a11', { show_in_unified: true });
  t.deepEqual([missing.status, missing.body], [404, { error: 'Account 6f1c0c1e-3f7a-4a53-9d1c-2b8f9e1d0a11 not found' }]);
  const read = await world.owner.get(`/finance/accounts/${id}`);
  t.like(read.body, { data: { id, display_name: null, show_in_unified: false }, links: { self: `/finance/accounts/${id}`, ledger: `/finance/reports/general-ledger?account_id=${id}` } });
});

test.serial('accounts list filters by type, bank flag and text; search finds accounts by code and name', async (t) => {
  const liabilities = await world.owner.get('/finance/accounts?type=liability&per_page=100');
  t.deepEqual(liabilities.body.data.map((account: { code: string }) => account.code), ['2000', '2100', '2200', 'SUSP-1']);
  const banks = await world.owner.get('/finance/accounts?is_bank=true');
  t.deepEqual(banks.body.data.map((account: { code: string }) => account.code), ['1020', '1030']);
  const text = await world.owner.get('/finance/accounts?q=payable');
  t.deepEqual(text.body.data.map((account: { code: string }) => account.code), ['2100', '2200']);
  const found = await world.owner.get('/search?app=finance&q=payable&types=account');
  t.is(found.status, 200, JSON.stringify(found.body));
  t.deepEqual(found.body.data.map((hit: { title: string }) => hit.title), ['2100 Accounts payable', '2200 Output tax payable']);
  const byCode = await world.owner.get('/search?app=finance&q=1550&types=account');
  t.deepEqual(byCode.body.data.map((hit: { title: string; id: string }) => hit.title), ['1550 Vehicles']);
  // The result opens the front-end's page of the account (/app/finance/accounts/{id} in the shell).
  t.is(byCode.body.data[0].url, `/accounts/${await world.account('1550')}`);
  const reader = await world.member(['finance.bills.read']);
  const hidden = await reader.get('/search?app=finance&q=payable&types=account');
  t.deepEqual(hidden.body.data, []);
});

test.serial('the migrations go down and up again (tables, trigger and function removed and recreated)', async (t) => {
  t.deepEqual(await world.platform.migrateDown('finance'), ['0002-organization-copy', '0001-create-finance-tables']);
  const [gone] = await world.query<{ n: string }>("SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'app_finance' AND table_name <> 'migrations'");
  t.is(Number(gone!.n), 0);
  t.deepEqual(await world.platform.migrateUp('finance'), ['0001-create-finance-tables', '0002-organization-copy']);
  t.deepEqual(await world.platform.distributionProblems(), []);
});
