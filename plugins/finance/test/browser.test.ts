/**
 * The Finance app's front-end in Chromium, through the real routes: a person signs in on the
 * workspace's sign-in page, opens Finance from the launcher (the shell hosts the app's sandboxed
 * frame), adds two accounts to the chart under a parent (the server's refusal of a bad code shows on
 * the Code field), budgets one of them and edits the budget, records a tagged bill with two line
 * items, one of them quantity × unit price, and a tax (the refusal of a negative amount shows on
 * that line's Amount field), saves the draft again,
 * marks it received and approves it (a void is asked for and cancelled in the shell's dialog), and
 * finds it in the payables aging and in budget vs actual, each drawn as a chart, in the trial
 * balance and in the account's general ledger; on a phone, a second draft with a discount and an
 * adjustment on the bill shows the server's totals as it is typed; a member who may edit bills but not
 * approve them reads the server's refusal where they asked; at 1280 px and at 375 px, axe-clean (no serious or critical
 * violation) in the shell and in the frame, no Content-Security-Policy violation, nothing wider
 * than the window. The screenshots are the ones docs/apps/finance.md shows.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type World } from '@wpk/testing';
import { browseWorld, checkPage, dismissToasts, saveScreenshot, type WorldBrowser } from '@wpk/testing/browser';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));

let web: WorldBrowser;
let world: World;
let origin: string;

test.before(async () => {
  web = await browseWorld(startWorld({ app: APP_DIR, subdomain: 'acme', listen: true }), { link: 'Finance', slug: 'finance', ready: 'finance-bills' });
  ({ world, origin } = web);
  // The install event, as the platform's worker delivers it: the default chart is seeded.
  await world.deliver('system.app.installed', { app_slug: 'finance', installed_by: world.owner.id });
});

test.after.always(() => web?.close());

/** A day `days` from today (UTC, the server's and this machine's calendar) as `YYYY-MM-DD`. */
const dayFrom = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test.serial('at 1280 px: sign in, open Finance, add accounts and a budget, record a bill with two items and a tax, approve it, and find it in the payables aging and budget vs actual', async (t) => {
  const { page, frame } = await web.openApp(1280);
  await frame.getByText('No bill yet: record the first one.').waitFor();
  await checkPage(t, page, frame, 'no bill yet');

  // The chart: a code with a space is refused, with the server's words on the Code field.
  await frame.getByRole('link', { name: 'Chart of accounts' }).click();
  await page.waitForURL(`${origin}/app/finance/accounts`);
  await frame.getByRole('cell', { name: '2100', exact: true }).waitFor();
  await frame.getByRole('link', { name: 'New account' }).click();
  await frame.getByLabel('Code').fill('65 50');
  await frame.getByLabel('Name', { exact: true }).fill('Cloud hosting');
  await frame.locator('wa-select[name="parent_id"]').click();
  await frame.getByRole('option', { name: '6000 Expenses' }).click();
  await frame.getByRole('button', { name: 'Add account' }).click();
  const refused = (await world.owner.request('POST', '/finance/accounts', { code: '65 50', name: 'Cloud hosting', type: 'expense' })).body.error as string;
  t.regex(refused, /^code /);
  const code = frame.locator('wa-input[name="code"]');
  await code.getByText(refused).waitFor();
  t.is(await code.getAttribute('aria-invalid'), 'true');
  await checkPage(t, page, frame, 'a refused account');

  await frame.getByLabel('Code').fill('6550');
  await frame.getByRole('button', { name: 'Add account' }).click();
  await frame.getByRole('link', { name: '6550' }).waitFor();
  await frame.getByRole('link', { name: 'New account' }).click();
  await frame.getByLabel('Code').fill('6560');
  await frame.getByLabel('Name', { exact: true }).fill('Design tools');
  await frame.getByRole('button', { name: 'Add account' }).click();
  await frame.getByRole('link', { name: '6560' }).waitFor();
  // The parent shows on the account's page.
  await frame.getByRole('link', { name: '6550' }).click();
  await frame.getByRole('heading', { name: '6550 Cloud hosting' }).waitFor();
  await frame.getByRole('link', { name: '6000 Expenses' }).waitFor();
  await frame.getByRole('link', { name: '← Chart of accounts' }).click();
  const accounts = ok(await world.owner.request('GET', '/finance/accounts?per_page=100')) as Array<Record<string, any>>;
  t.deepEqual(
    accounts.filter((account) => account.code.startsWith('65') && account.code.length === 4 && account.code >= '6550').map((account) => [account.code, account.name, account.type, account.normal_balance]),
    [['6550', 'Cloud hosting', 'expense', 'debit'], ['6560', 'Design tools', 'expense', 'debit']],
  );
  const expenses = accounts.find((account) => account.code === '6000')!;
  t.deepEqual(accounts.filter((account) => ['6550', '6560'].includes(account.code)).map((account) => account.parent_id), [expenses.id, null]);
  const hosting = accounts.find((account) => account.code === '6550')!;

  // A budget for the hosting account over the bill's period.
  const billDate = dayFrom(-40);
  await frame.getByRole('link', { name: 'Budgets' }).click();
  await frame.getByText('No budget yet.').waitFor();
  await frame.getByLabel('Account').selectOption({ label: '6550 Cloud hosting' });
  await frame.getByLabel('From').fill(dayFrom(-60));
  await frame.getByLabel('To').fill(dayFrom(30));
  await frame.getByLabel('Amount').fill('1400');
  await frame.getByRole('button', { name: 'Add budget' }).click();
  // Opening the budget edits it: 1400 becomes 1500.
  await frame.getByRole('link', { name: '6550 Cloud hosting' }).click();
  await frame.getByRole('heading', { name: 'Budget of 6550 Cloud hosting' }).waitFor();
  t.is(await frame.getByLabel('Amount').inputValue(), '1400.00');
  await frame.getByLabel('Amount').fill('1500');
  await frame.getByRole('button', { name: 'Save budget' }).click();
  await frame.getByRole('heading', { name: 'Budgets', exact: true }).waitFor();
  await frame.getByRole('cell', { name: '1,500.00' }).waitFor();
  const budgets = ok(await world.owner.request('GET', '/finance/budgets')) as Array<Record<string, any>>;
  t.deepEqual(budgets.map((budget) => [budget.account_id, budget.period_start, budget.period_end, budget.amount]), [[hosting.id, dayFrom(-60), dayFrom(30), '1500.00']]);
  await checkPage(t, page, frame, 'the budgets');

  // A bill: two line items, a 20 % tax on the first; a negative amount is refused on its line.
  await frame.getByRole('link', { name: 'Bills', exact: true }).click();
  await frame.getByRole('link', { name: 'New bill' }).click();
  await page.waitForURL(`${origin}/app/finance/bills/new`);
  await frame.getByLabel('Bill date').fill(billDate);
  await frame.getByLabel('Due date').fill(dayFrom(-10));
  const line1 = frame.getByRole('group', { name: 'Line 1' });
  await line1.getByLabel('Description').fill('Cloud servers');
  await line1.getByLabel('Account').selectOption({ label: '6550 Cloud hosting' });
  await line1.getByLabel('Amount').fill('1000');
  await frame.getByRole('button', { name: 'Add a tax to line 1' }).click();
  await line1.getByLabel('Tax name').fill('VAT 20%');
  await line1.getByLabel('Rate (%)').fill('20');
  await frame.getByRole('button', { name: 'Add a line' }).click();
  const line2 = frame.getByRole('group', { name: 'Line 2' });
  await line2.getByLabel('Description').fill('Design tool seats');
  await line2.getByLabel('Account').selectOption({ label: '6560 Design tools' });
  await line2.getByLabel('Amount').fill('-50');
  await frame.getByRole('button', { name: 'Record draft bill' }).click();
  const amount2 = frame.locator('wa-input[name="items.1.amount"]');
  await amount2.getByText(/^items\[1\]\.amount must be/).waitFor();
  t.is(await amount2.getAttribute('aria-invalid'), 'true');
  t.deepEqual(ok(await world.owner.request('GET', '/finance/bills')), []);
  // Two seats at 25.00: the amount is computed, as the server computes it.
  await line2.getByLabel('Amount').fill('');
  await line2.getByLabel('Quantity').fill('2');
  await line2.getByLabel('Unit price').fill('25');
  t.is(await line2.locator('wa-input[name="items.1.amount"]').evaluate((input) => (input as unknown as { value: string }).value), '50.00');
  await frame.getByLabel('Tags').fill('hosting, q3');
  const totals = frame.getByRole('definition').filter({ hasText: /1,250\.00/ });
  await totals.waitFor();
  t.deepEqual(await frame.locator('dl.totals dd').allTextContents(), ['$1,050.00', '$200.00', '$1,250.00']);
  await checkPage(t, page, frame, 'the bill editor');
  await frame.getByRole('button', { name: 'Record draft bill' }).click();
  await frame.getByText('State: Draft').waitFor();
  // A draft stays editable: a memo is added and saved.
  await frame.getByLabel('Memo').fill('Invoice 2026-117');
  await frame.getByRole('button', { name: 'Save draft' }).click();
  await page.getByText('Draft saved').waitFor();
  const [draft] = ok(await world.owner.request('GET', '/finance/bills')) as Array<Record<string, any>>;
  t.like(draft, { status: 'draft', memo: 'Invoice 2026-117', date: billDate, due_date: dayFrom(-10), currency: 'USD', subtotal: '1050.00', tax_total: '200.00', total: '1250.00', tags: ['hosting', 'q3'], adjustments: [] });
  t.deepEqual(draft!.items.map((item: any) => [item.description, item.account_code, item.quantity, item.unit_price, item.amount, item.taxes.map((tax: any) => [tax.name, tax.rate, tax.amount, tax.reverse_charge])]), [
    ['Cloud servers', '6550', null, null, '1000.00', [['VAT 20%', '20', '200.00', false]]],
    ['Design tool seats', '6560', '2', '25', '50.00', []],
  ]);
  await page.waitForURL(`${origin}/app/finance/bills/${draft!.id}`);

  // Draft → received → approved; the void is asked for in the shell's dialog, and cancelled.
  await frame.getByRole('button', { name: 'Mark received' }).click();
  await frame.getByText('State: Received').waitFor();
  t.like(ok(await world.owner.request('GET', `/finance/bills/${draft!.id}`)), { status: 'received' });
  await frame.getByRole('button', { name: 'Approve' }).click();
  await frame.getByText('State: Approved').waitFor();
  await frame.getByRole('table', { name: /^Approval entry of / }).waitFor();
  t.like(ok(await world.owner.request('GET', `/finance/bills/${draft!.id}`)), { status: 'approved' });
  await frame.getByRole('button', { name: 'Void' }).click();
  const question = page.getByText('A void is final: the bill stays in the books, and a reversing entry cancels what its approval posted.');
  await question.waitFor();
  await checkPage(t, page, frame, 'the void confirmation');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await question.waitFor({ state: 'hidden' });
  t.like(ok(await world.owner.request('GET', `/finance/bills/${draft!.id}`)), { status: 'approved' });
  t.is(await frame.getByRole('button', { name: 'Mark received' }).count(), 0);
  await frame.getByRole('cell', { name: /^Design tool seats\s*2 × \$25\.00$/ }).waitFor();
  await frame.getByRole('link', { name: 'q3' }).waitFor();
  await checkPage(t, page, frame, 'an approved bill');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}finance-bill-1280.png`);

  // The payables aging: owed 10 days past due, drawn and tabled.
  await frame.getByRole('link', { name: 'Reports' }).click();
  await frame.getByRole('link', { name: 'Payables aging' }).click();
  const aging = frame.getByRole('table', { name: /^Approved bills owed per supplier/ });
  await aging.waitFor();
  t.deepEqual(await aging.locator('tbody tr').first().locator('th, td').allTextContents(), ['No supplier given', '1', '0.00', '1,250.00', '0.00', '0.00', '0.00', '1,250.00']);
  await frame.getByRole('img', { name: /^Payables by age: Current 0\.00; 1–30 days 1,250\.00;/ }).waitFor();
  t.like((await world.owner.get('/finance/reports/ap-aging')).body, { totals: { days_1_30: '1250.00', total: '1250.00' } });
  await checkPage(t, page, frame, 'the payables aging');

  // Budget vs actual: the hosting account's 1000.00 against its 1500.00.
  await frame.getByRole('link', { name: 'Budget vs actual' }).click();
  const versus = frame.getByRole('table', { name: /^Budget vs actual/ });
  await versus.waitFor();
  const cells = await versus.locator('tbody tr').first().locator('th, td').allTextContents();
  t.deepEqual([...cells.slice(0, 2), ...cells.slice(3)], ['6550 Cloud hosting', 'Every line', '1,500.00', '1,000.00', '500.00']);
  await frame.getByRole('img', { name: 'Budget vs actual per budget: 6550 Cloud hosting, budget 1,500.00, actual 1,000.00' }).waitFor();
  await checkPage(t, page, frame, 'budget vs actual');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}finance-reports-1280.png`);

  // The trial balance balances; the hosting account's ledger holds the bill's line.
  await frame.getByRole('link', { name: 'Trial balance' }).click();
  const balance = frame.getByRole('table', { name: /^Trial balance/ });
  await balance.waitFor();
  t.deepEqual(await balance.locator('tbody th').allTextContents(), ['1400 Input tax recoverable', '2100 Accounts payable', '6550 Cloud hosting', '6560 Design tools']);
  t.deepEqual(await balance.locator('tfoot th, tfoot td').allTextContents(), ['Total', '1,250.00', '1,250.00', '1,250.00', '1,250.00']);
  await frame.getByRole('link', { name: 'General ledger' }).click();
  await frame.getByText('Choose an account to read its ledger.').waitFor();
  await frame.getByLabel('Account').selectOption({ label: '6550 Cloud hosting' });
  await frame.getByRole('button', { name: 'Show report' }).click();
  const ledger = frame.getByRole('table', { name: /^General ledger of 6550 Cloud hosting/ });
  await ledger.waitFor();
  t.deepEqual((await ledger.locator('tbody tr td').allTextContents()).slice(1), ['Cloud servers', '1,000.00', '0.00', '1,000.00']);
  await checkPage(t, page, frame, 'the general ledger');
  await page.context().close();
});

test.serial('at 375 px: the bills, the bill editor, a bill and the payables aging read on a phone', async (t) => {
  const { page, frame } = await web.openApp(375);
  await frame.getByRole('link', { name: 'Cloud servers' }).waitFor();
  await checkPage(t, page, frame, 'the bills at 375 px');
  await frame.getByRole('link', { name: 'New bill' }).click();
  await frame.getByRole('group', { name: 'Line 1' }).waitFor();
  await frame.getByRole('button', { name: 'Add a tax to line 1' }).click();
  await frame.getByLabel('Tax name').waitFor();
  await checkPage(t, page, frame, 'the bill editor at 375 px');
  // A second draft: 4 licences at 250.00 less 100.00, 10 % tax, a 5 % early-payment discount and a 12.35 shipping charge on the bill.
  const line = frame.getByRole('group', { name: 'Line 1' });
  await line.getByLabel('Description').fill('Licences');
  await line.getByLabel('Quantity').fill('4');
  await line.getByLabel('Unit price').fill('250');
  await line.getByLabel('Discount').fill('100');
  await line.getByLabel('Rate (%)').fill('10');
  await frame.getByRole('button', { name: 'Add an adjustment' }).click();
  const early = frame.getByRole('group', { name: 'Adjustment 1' });
  await early.getByLabel('Label').fill('Early payment');
  await early.getByLabel('Percent of the subtotal').fill('5');
  await frame.getByRole('button', { name: 'Add an adjustment' }).click();
  const shipping = frame.getByRole('group', { name: 'Adjustment 2' });
  await shipping.getByLabel('Label').fill('Shipping');
  await shipping.getByLabel('Type').selectOption('charge');
  await shipping.getByLabel('Amount').fill('12.35');
  await frame.getByRole('definition').filter({ hasText: '$957.35' }).waitFor();
  t.deepEqual(await frame.locator('dl.totals dd').allTextContents(), ['$900.00', '$90.00', '-$32.65', '$957.35']);
  await checkPage(t, page, frame, 'adjustments at 375 px');
  await frame.getByRole('button', { name: 'Record draft bill' }).click();
  await frame.getByText('State: Draft').waitFor();
  const second = (ok(await world.owner.request('GET', '/finance/bills?status=draft')) as Array<Record<string, any>>)[0]!;
  t.like(second, { subtotal: '900.00', tax_total: '90.00', adjustment_total: '-32.65', total: '957.35' });
  t.deepEqual(second.items.map((item: any) => [item.quantity, item.unit_price, item.discount, item.amount]), [['4', '250', '100', '900.00']]);
  t.deepEqual(second.adjustments.map((adjustment: any) => [adjustment.label, adjustment.type, adjustment.value, adjustment.amount]), [['Early payment', 'discount', '5', '-45.00'], ['Shipping', 'charge', null, '12.35']]);
  // Saved again unchanged, the draft keeps its line's price and its adjustments.
  await frame.getByRole('button', { name: 'Save draft' }).click();
  await page.getByText('Draft saved').waitFor();
  t.like(ok(await world.owner.request('GET', `/finance/bills/${second.id}`)), { total: '957.35', adjustment_total: '-32.65' });
  await frame.getByRole('link', { name: '← All bills' }).click();
  await frame.getByRole('link', { name: 'Cloud servers' }).click();
  await frame.getByText('State: Approved').waitFor();
  await frame.getByRole('table', { name: /^Approval entry of / }).waitFor();
  await checkPage(t, page, frame, 'an approved bill at 375 px');
  await frame.getByRole('link', { name: 'Reports' }).click();
  await frame.getByRole('link', { name: 'Payables aging' }).click();
  await frame.getByRole('table', { name: /^Approved bills owed per supplier/ }).waitFor();
  await checkPage(t, page, frame, 'the payables aging at 375 px');
  await saveScreenshot(page, `${IMAGES}finance-aging-375.png`);
  await page.context().close();
});

test.serial('a member who may record and edit bills but not approve them: Approve is refused with the server\'s words above the bill, which stays a draft', async (t) => {
  // Nothing the front-end can read tells it the member's keys (docs/apps/finance.md, "Permissions"): the server's 403 is what the member sees.
  const clerk = await world.member(['finance.bills.read', 'finance.bills.create', 'finance.bills.edit']);
  const [draft] = ok(await world.owner.request('GET', '/finance/bills?status=draft')) as Array<Record<string, any>>;
  const { page, frame } = await web.openApp(1280, { email: clerk.email });
  await frame.getByRole('link', { name: 'Licences' }).click();
  await frame.getByText('State: Draft').waitFor();
  await frame.getByRole('button', { name: 'Approve' }).click();
  const refusal = (await clerk.request('PATCH', `/finance/bills/${draft!.id}`, { status: 'approved' }));
  t.deepEqual([refusal.status, refusal.body], [403, { error: 'Missing permission: finance.bills.approve' }]);
  await frame.getByRole('alert').filter({ hasText: 'Missing permission: finance.bills.approve' }).waitFor();
  t.like(ok(await world.owner.request('GET', `/finance/bills/${draft!.id}`)), { status: 'draft' });
  await checkPage(t, page, frame, 'a refused approval');
  await page.context().close();
});
