/**
 * The Tables front-end in Chromium, through the real routes. At 1280 px a member opens a table
 * from Bases, adds a formula field and sees it computed, edits a cell in place and sees the
 * formula follow, and adds a kanban view grouped by a single select. Two pages of two members
 * then show a cell live on the other page, and a stale write refused (409) rather than
 * overwriting. At 375 px the grid reads on a phone, and a kanban view shows the records its saved
 * filter selects in its saved sort order. Axe-clean (no serious or critical violation)
 * in the shell and in the frame, no CSP violation, nothing wider than the window. The screenshots
 * are the ones docs/apps/tables.md shows.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type TestMember } from '@wpk/testing';
import { browseWorld, checkPage, dismissToasts, saveScreenshot, type WorldBrowser } from '@wpk/testing/browser';

const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));
const KEYS = ['tables.bases.read', 'tables.records.edit', 'tables.bases.create'];

/** Waits until an input shows `value` (the page re-renders it from a live event or a reload). */
async function waitValue(locator: { inputValue(): Promise<string> }, value: string): Promise<void> {
  const started = Date.now();
  let seen = await locator.inputValue();
  while (seen !== value) {
    if (Date.now() - started > 10_000) throw new Error(`the input shows ${seen}, not ${value}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    seen = await locator.inputValue();
  }
}

let web: WorldBrowser;
let ann: TestMember;
let bob: TestMember;
const ids: Record<string, string> = {};

test.before(async () => {
  web = await browseWorld(startWorld({ app: fileURLToPath(new URL('..', import.meta.url)), subdomain: 'acme', listen: true, clock: new Date('2026-11-02T09:00:00.000Z') }), { link: 'Tables', slug: 'tables', ready: 'tables-bases' });
  ann = await web.world.member(KEYS, { name: 'Ann Maker' });
  bob = await web.world.member(KEYS, { name: 'Bob Editor' });
  ids.base = ok(await ann.post('/tables/bases', { name: 'Sales' })).id;
  const table = ok(await ann.post(`/tables/bases/${ids.base}/tables`, { name: 'Orders' }));
  ids.table = table.id;
  ids.name = table.primary_field_id;
  ids.price = ok(await ann.post(`/tables/tables/${ids.table}/fields`, { name: 'Price', type: 'currency' })).id;
  ids.qty = ok(await ann.post(`/tables/tables/${ids.table}/fields`, { name: 'Quantity', type: 'number' })).id;
  ids.status = ok(await ann.post(`/tables/tables/${ids.table}/fields`, { name: 'Status', type: 'single_select', options: { choices: [{ name: 'New' }, { name: 'Won' }] } })).id;
  const rows = [['Acme', '12.50', 3, 'New'], ['Globex', '4.00', 10, 'Won'], ['Initech', '99.99', 1, 'New']];
  const made = ok(await ann.post(`/tables/tables/${ids.table}/records/bulk`, { records: rows.map(([name, price, qty, status]) => ({ cells: { [ids.name]: name, [ids.price]: price, [ids.qty]: qty, [ids.status]: status } })) }));
  ids.acme = made[0].id;
});

test.after.always(() => web?.close());

test.serial('at 1280 px: a formula field, an edit in place the formula follows, a kanban view grouped by a single select', async (t) => {
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await frame.getByRole('link', { name: 'Orders' }).click();
  const grid = frame.getByRole('table', { name: 'Records' });
  await grid.getByRole('textbox', { name: 'Quantity of Acme' }).waitFor();
  await checkPage(t, page, frame, 'the grid');

  const form = frame.getByRole('form', { name: 'Add a field' });
  await form.getByLabel('Field name').fill('Total');
  await form.getByLabel('Type').selectOption('formula');
  await form.getByRole('textbox', { name: 'Formula' }).fill('{Price} * {Quantity}');
  await form.getByRole('button', { name: 'Add field' }).click();
  await grid.getByRole('columnheader', { name: 'Total' }).waitFor();
  await grid.getByRole('cell', { name: '37.5', exact: true }).waitFor();
  t.truthy(await grid.getByRole('cell', { name: '40', exact: true }).count());

  const quantity = grid.getByRole('textbox', { name: 'Quantity of Acme' });
  await quantity.fill('4');
  await quantity.press('Enter');
  await grid.getByRole('cell', { name: '50', exact: true }).waitFor();
  const acme = ok(await ann.get(`/tables/records/${ids.acme}`));
  t.is(acme.cells[ids.qty], 4);
  t.is(acme.versions[ids.qty], 2);
  await dismissToasts(page);
  await checkPage(t, page, frame, 'the grid with a formula');
  await saveScreenshot(page, `${IMAGES}tables-grid-1280.png`);

  const kanbanForm = frame.getByRole('form', { name: 'Add a kanban view' });
  await kanbanForm.getByLabel('Group cards by').selectOption({ label: 'Status' });
  await kanbanForm.getByRole('button', { name: 'Add a kanban view' }).click();
  const board = frame.getByRole('region', { name: 'By Status' });
  await board.getByRole('region', { name: 'Won' }).getByText('Globex').waitFor();
  t.is(await board.getByRole('region', { name: 'New' }).locator('.card').count(), 2);
  await board.getByRole('combobox', { name: 'Status of Initech' }).selectOption('Won');
  await board.getByRole('region', { name: 'Won' }).getByText('Initech').waitFor();
  t.is(await board.getByRole('region', { name: 'New' }).locator('.card').count(), 1);
  await dismissToasts(page);
  await checkPage(t, page, frame, 'the kanban view');
  await saveScreenshot(page, `${IMAGES}tables-kanban-1280.png`);
  await page.context().close();
});

test.serial('two pages: a change shows live on the other page; a stale write is refused, not saved over the newer value', async (t) => {
  const first = await web.openApp(1280, { email: ann.email });
  const second = await web.openApp(1280, { email: bob.email });
  for (const { frame } of [first, second]) {
    await frame.getByRole('link', { name: 'Orders' }).click();
    await frame.getByRole('table', { name: 'Records' }).getByRole('textbox', { name: 'Price of Globex' }).waitFor();
  }
  // Give both pages' live subscriptions a moment to be in place before the change.
  await first.frame.waitForTimeout(500);
  const annPrice = first.frame.getByRole('table', { name: 'Records' }).getByRole('textbox', { name: 'Price of Globex' });
  await annPrice.fill('5.00');
  await annPrice.press('Enter');
  const bobPrice = second.frame.getByRole('table', { name: 'Records' }).getByRole('textbox', { name: 'Price of Globex' });
  await waitValue(bobPrice, '5.00');
  await second.frame.getByRole('table', { name: 'Records' }).getByRole('cell', { name: '50', exact: true }).first().waitFor();

  // Bob starts editing the cell; Ann changes it meanwhile; Bob's save is refused and shows her value.
  await bobPrice.focus();
  await bobPrice.fill('7.00');
  await annPrice.fill('6.00');
  await annPrice.press('Enter');
  await second.page.waitForTimeout(700);
  await bobPrice.press('Enter');
  await second.page.getByText(/Cell Price of record #2 changed since you read it/).waitFor();
  await waitValue(bobPrice, '6.00');
  const globex = ok(await ann.get('/tables/tables/' + ids.table + '/records')).find((row: any) => row.title === 'Globex');
  t.is(globex.cells[ids.price], '6.00');
  await checkPage(t, second.page, second.frame, 'a refused stale write');
  await first.page.context().close();
  await second.page.context().close();
});

test.serial('at 375 px: the grid reads on a phone', async (t) => {
  const { page, frame } = await web.openApp(375, { email: ann.email });
  await frame.getByRole('link', { name: 'Orders' }).click();
  await frame.getByRole('table', { name: 'Records' }).getByRole('textbox', { name: 'Quantity of Acme' }).waitFor();
  await checkPage(t, page, frame, 'the grid at 375 px');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}tables-grid-375.png`);
  await page.context().close();
});

test.serial("at 375 px: a view's menu and its filter, sort and hidden-field form read on a phone; the kanban then shows what they select, in their order", async (t) => {
  // Won: Globex (quantity 10), Initech (1), Hooli (20): the filter below drops Initech, the sort puts Hooli first.
  ok(await ann.post(`/tables/tables/${ids.table}/records`, { cells: { [ids.name]: 'Hooli', [ids.qty]: 20, [ids.status]: 'Won' } }));
  const { page, frame } = await web.openApp(375, { email: ann.email });
  await frame.getByRole('link', { name: 'Orders' }).click();
  await frame.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'By Status' }).click();
  await frame.getByText('Shared view', { exact: true }).waitFor();
  await frame.getByRole('button', { name: 'View menu' }).click();
  await frame.getByRole('list', { name: 'Menu of view By Status' }).getByRole('button', { name: 'Filter, sort and hide fields' }).click();
  const settings = frame.getByRole('form', { name: 'Filter, sort and hide fields of By Status' });
  await settings.getByLabel('Sort by').selectOption({ label: 'Quantity' });
  await settings.getByLabel('Direction').selectOption('desc');
  await settings.getByLabel('Hide Price').check();
  // Hiding the board's own select hides it from the cards' text only: the cards keep their columns.
  await settings.getByLabel('Hide Status').check();
  await settings.getByLabel('Field', { exact: true }).selectOption({ label: 'Quantity' });
  await settings.getByLabel('Condition').selectOption('gte');
  await settings.getByLabel('Value').fill('2');
  await settings.getByRole('button', { name: 'Add the filter' }).click();
  await settings.getByRole('button', { name: 'Remove the filter Quantity is at least 2' }).waitFor();
  await checkPage(t, page, frame, "a view's settings at 375 px");
  await settings.getByRole('button', { name: 'Save the view' }).click();
  await page.getByText('View By Status saved').waitFor();
  const saved = ok(await ann.get(`/tables/tables/${ids.table}/views`)).find((view: any) => view.name === 'By Status');
  t.deepEqual(saved.config, { kanban_field_id: ids.status, filters: [{ field_id: ids.qty, op: 'gte', value: 2 }], sorts: [{ field_id: ids.qty, direction: 'desc' }], hidden_fields: [ids.price, ids.status] });
  t.is(saved.revision, 2);
  const board = frame.getByRole('region', { name: 'By Status' });
  const cards = (column: string) => board.getByRole('region', { name: column }).locator('.card strong').allTextContents();
  await board.getByRole('heading', { name: 'Won (2)' }).waitFor();
  t.deepEqual(await cards('Won'), ['Hooli', 'Globex']);
  t.deepEqual(await cards('New'), ['Acme']);
  await dismissToasts(page);
  await page.context().close();
});

test.serial('at 1280 px: the view menu renames and deletes a view (after the shell asks); a personal view is marked; the form link is the public page, copied', async (t) => {
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.origin });
  await frame.getByRole('link', { name: 'Orders' }).click();
  const views = frame.getByRole('navigation', { name: 'Views' });
  await views.getByRole('button', { name: 'By Status' }).click();
  const menu = frame.getByRole('list', { name: 'Menu of view By Status' });
  const opener = frame.getByRole('button', { name: 'View menu' });
  await opener.waitFor();
  t.false(await frame.locator('ul.actions').isVisible(), 'the menu is closed until opened');
  t.is(await opener.getAttribute('aria-expanded'), 'false');
  await opener.click();
  await menu.waitFor();
  t.is(await opener.getAttribute('aria-expanded'), 'true');
  t.deepEqual(await menu.getByRole('button').allTextContents(), ['Rename', 'Filter, sort and hide fields', 'Delete the view']);
  await checkPage(t, page, frame, "a view's menu");
  await saveScreenshot(page, `${IMAGES}tables-view-menu-1280.png`);
  await menu.getByRole('button', { name: 'Rename' }).click();
  const rename = frame.getByRole('form', { name: 'Rename view By Status' });
  await rename.getByLabel('View name').fill('Pipeline');
  await rename.getByRole('button', { name: 'Save the name' }).click();
  await views.getByRole('button', { name: 'Pipeline' }).waitFor();
  await frame.getByRole('heading', { name: 'Pipeline', level: 2 }).waitFor();
  t.deepEqual(ok(await ann.get(`/tables/tables/${ids.table}/views`)).map((view: any) => view.name), ['Grid', 'Pipeline']);

  // Deleting asks in the shell's dialog first: cancelling keeps the view, confirming deletes it.
  await frame.getByRole('button', { name: 'View menu' }).click();
  await frame.getByRole('list', { name: 'Menu of view Pipeline' }).getByRole('button', { name: 'Delete the view' }).click();
  const dialog = page.locator('wpk-confirm-dialog');
  await dialog.getByText('Everyone loses this shared view; the records stay.').waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.getByText('Everyone loses this shared view; the records stay.').waitFor({ state: 'hidden' });
  t.is(ok(await ann.get(`/tables/tables/${ids.table}/views`)).length, 2);
  await frame.getByRole('button', { name: 'View menu' }).click();
  await frame.getByRole('list', { name: 'Menu of view Pipeline' }).getByRole('button', { name: 'Delete the view' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await views.getByRole('button', { name: 'Pipeline' }).waitFor({ state: 'detached' });
  t.deepEqual(ok(await ann.get(`/tables/tables/${ids.table}/views`)).map((view: any) => view.name), ['Grid']);
  t.is(await views.getByRole('button', { name: 'Grid' }).getAttribute('aria-pressed'), 'true');

  // A personal view is marked as such; only its owner lists it.
  const adding = frame.getByRole('form', { name: 'Add a view' });
  await adding.getByLabel('View').selectOption('gallery');
  await adding.getByLabel('Only for me (personal)').check();
  await adding.getByRole('button', { name: 'Add the view' }).click();
  await views.getByRole('button', { name: 'Gallery (personal)' }).waitFor();
  await frame.getByText('Personal view', { exact: true }).waitFor();
  t.deepEqual(ok(await bob.get(`/tables/tables/${ids.table}/views`)).map((view: any) => view.name), ['Grid']);

  // The form link: the public page on the workspace's address, copied as the server answered it.
  await adding.getByLabel('View').selectOption('form');
  await adding.getByRole('button', { name: 'Add the view' }).click();
  await frame.getByRole('button', { name: 'Share the form' }).click();
  const link = frame.getByLabel(/Public link/);
  await link.waitFor();
  const url = await link.inputValue();
  t.regex(url, /^http:\/\/[^/]+\/public\/apps\/tables\/form\.html#[A-Za-z0-9_-]{32}$/);
  t.is(new URL(url).origin, web.origin);
  await frame.getByRole('button', { name: 'Copy the link' }).click();
  await page.getByText('Link copied').waitFor();
  t.is(await page.evaluate('navigator.clipboard.readText()'), url);
  await dismissToasts(page);
  await checkPage(t, page, frame, 'a form view with its copied link');
  const opened = await page.context().newPage();
  await opened.goto(url);
  await opened.getByRole('heading', { name: 'Form', level: 1 }).waitFor();
  await page.context().close();
});

test.serial("at 1280 px: a link's column names its inverse in the linked table", async (t) => {
  const teams = ok(await ann.post(`/tables/bases/${ids.base}/tables`, { name: 'Teams' }));
  const people = ok(await ann.post(`/tables/bases/${ids.base}/tables`, { name: 'People' }));
  ok(await ann.post(`/tables/tables/${teams.id}/fields`, { name: 'Members', type: 'link', options: { table_id: people.id } }));
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await frame.getByRole('link', { name: 'People' }).click();
  const grid = frame.getByRole('table', { name: 'Records' });
  await grid.getByRole('columnheader', { name: 'Teams Two-way link, shown as Members in the linked table' }).waitFor();
  await checkPage(t, page, frame, 'a two-way link column');
  await page.context().close();
});
