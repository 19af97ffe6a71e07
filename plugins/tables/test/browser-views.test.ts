/**
 * The Tables front-end's calendar, gallery and form views in Chromium, through the real routes.
 * At 1280 px a member adds a calendar view by a date field and sees a record on its day (and
 * another on the next month's), opens a record from it, adds a gallery view and sees a card with
 * the visible fields, adds a form view, submits it (the record is read back through the API) and
 * makes the form's public link. At 375 px a visitor fills the public form page without signing in
 * (a refused value and a bad link shown with their status), the calendar reads as a list by day, and
 * a gallery follows its view's saved filter and hidden fields. Axe-clean, no CSP
 * violation, nothing wider than the window. The screenshots are the ones docs/apps/tables.md shows.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type TestMember } from '@wpk/testing';
import { accessibilityViolations, browseWorld, checkPage, cspViolations, dismissToasts, saveScreenshot, sidewaysOverflow, type WorldBrowser } from '@wpk/testing/browser';

const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));
const KEYS = ['tables.bases.read', 'tables.records.edit', 'tables.bases.create'];
const APP = fileURLToPath(new URL('..', import.meta.url));

// The calendar opens on the browser's month: the records fall on this month's 15th and next month's 3rd.
const now = new Date();
const pad = (value: number) => String(value).padStart(2, '0');
const iso = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
const thisMonth = new Date(now.getFullYear(), now.getMonth(), 15);
const nextMonth = new Date(now.getFullYear(), now.getMonth() + 1, 3);
// Records made through the forms fall months away, never in the two months the calendar shows.
const formDue = iso(new Date(now.getFullYear(), now.getMonth() + 4, 24));
const publicFormDue = iso(new Date(now.getFullYear(), now.getMonth() + 5, 5));
const monthTitle = (date: Date) => date.toLocaleDateString('en', { month: 'long', year: 'numeric' });
const dayLabel = (date: Date) => date.toLocaleDateString('en', { weekday: 'long', day: 'numeric', month: 'long' });

let web: WorldBrowser;
let ann: TestMember;
const ids: Record<string, string> = {};

test.before(async () => {
  const world = startWorld({ app: APP, subdomain: 'acme', listen: true, clock: new Date('2026-11-02T09:00:00.000Z') });
  web = await browseWorld(world, { link: 'Tables', slug: 'tables', ready: 'tables-bases' });
  ann = await web.world.member(KEYS, { name: 'Ann Maker' });
  ids.base = ok(await ann.post('/tables/bases', { name: 'Sales' })).id;
  const table = ok(await ann.post(`/tables/bases/${ids.base}/tables`, { name: 'Orders' }));
  ids.table = table.id;
  ids.name = table.primary_field_id;
  ids.due = ok(await ann.post(`/tables/tables/${ids.table}/fields`, { name: 'Due', type: 'date' })).id;
  ids.price = ok(await ann.post(`/tables/tables/${ids.table}/fields`, { name: 'Price', type: 'currency' })).id;
  const rows: Array<[string, string | null, string]> = [['Acme', iso(thisMonth), '12.50'], ['Globex', iso(nextMonth), '4.00'], ['Initech', null, '99.99']];
  ok(await ann.post(`/tables/tables/${ids.table}/records/bulk`, { records: rows.map(([name, due, price]) => ({ cells: { [ids.name]: name, [ids.due]: due, [ids.price]: price } })) }));
});

test.after.always(() => web?.close());

test.serial('at 1280 px: a calendar view places records on their days, a gallery shows cards, a form adds a record and gets its public link', async (t) => {
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await frame.getByRole('link', { name: 'Orders' }).click();
  const adding = frame.getByRole('form', { name: 'Add a view' });
  await adding.getByLabel('View').selectOption('calendar');
  await adding.getByLabel('Date field').selectOption({ label: 'Due' });
  await adding.getByRole('button', { name: 'Add the view' }).click();

  const month = frame.getByRole('table', { name: `Calendar by Due, ${monthTitle(thisMonth)}` });
  await month.getByRole('cell', { name: dayLabel(thisMonth) }).getByRole('link', { name: 'Acme' }).waitFor();
  t.is(await month.getByRole('link').count(), 1);
  // A record added meanwhile (the table's live channel) shows on its day.
  const later = new Date(thisMonth.getFullYear(), thisMonth.getMonth(), 20);
  ok(await ann.post(`/tables/tables/${ids.table}/records`, { cells: { [ids.name]: 'Soylent', [ids.due]: iso(later), [ids.price]: '1.00' } }));
  await month.getByRole('cell', { name: dayLabel(later) }).getByRole('link', { name: 'Soylent' }).waitFor();
  t.is(await month.getByRole('link').count(), 2);
  await dismissToasts(page);
  await checkPage(t, page, frame, 'the calendar view');
  await saveScreenshot(page, `${IMAGES}tables-calendar-1280.png`);

  await frame.getByRole('button', { name: 'Next month' }).click();
  const next = frame.getByRole('table', { name: `Calendar by Due, ${monthTitle(nextMonth)}` });
  await next.getByRole('cell', { name: dayLabel(nextMonth) }).getByRole('link', { name: 'Globex' }).click();
  await frame.getByRole('heading', { name: 'Globex', level: 1 }).waitFor();
  t.is(await frame.locator('dd').allTextContents().then((texts) => texts.join('|')), `Globex|${iso(nextMonth)}|4.00`);
  await checkPage(t, page, frame, 'a record');
  await frame.getByRole('link', { name: 'Back to the table' }).click();

  await adding.getByLabel('View').selectOption('gallery');
  await adding.getByRole('button', { name: 'Add the view' }).click();
  const card = frame.getByRole('list', { name: 'Gallery' }).getByRole('listitem', { name: 'Initech' });
  await card.getByRole('link', { name: 'Initech' }).waitFor();
  t.is(await card.locator('dl').innerText().then((text) => text.replace(/\s+/g, ' ').trim()), 'Name Initech Due — Price 99.99');
  t.is(await frame.getByRole('list', { name: 'Gallery' }).getByRole('listitem').count(), 4);
  await dismissToasts(page);
  await checkPage(t, page, frame, 'the gallery view');
  await saveScreenshot(page, `${IMAGES}tables-gallery-1280.png`);

  await adding.getByLabel('View').selectOption('form');
  await adding.getByRole('button', { name: 'Add the view' }).click();
  await frame.getByRole('heading', { name: 'Form', level: 2 }).waitFor();
  await frame.getByLabel('Name').fill('Hooli');
  await frame.getByLabel('Due').fill(formDue);
  await frame.getByLabel('Price').fill('a lot');
  await frame.getByRole('button', { name: 'Submit' }).click();
  await frame.getByText('Price takes an amount such as "12.50"', { exact: true }).waitFor();
  t.deepEqual(await frame.locator('wpk-schema-form [aria-invalid="true"]').evaluateAll((inputs) => inputs.map((input) => input.getAttribute('label'))), ['Price']);
  await frame.getByLabel('Price').fill('7.25');
  await frame.getByRole('button', { name: 'Submit' }).click();
  await page.getByText('Record added').waitFor();
  const made = ok(await ann.get(`/tables/tables/${ids.table}/records`)).find((row: { title: string }) => row.title === 'Hooli');
  t.deepEqual(made.cells, { [ids.name]: 'Hooli', [ids.due]: formDue, [ids.price]: '7.25' });

  await frame.getByRole('button', { name: 'Share the form' }).click();
  const link = frame.getByLabel(/Public link/);
  await link.waitFor();
  const url = await link.inputValue();
  t.regex(url, /^https?:\/\/[^/]+\/public\/apps\/tables\/form\.html#[A-Za-z0-9_-]{32}$/);
  t.is(new URL(url).origin, web.origin);
  ids.formUrl = url;
  const form = ok(await ann.get(`/tables/forms/${url.split('#')[1]}`));
  t.is(form.title, 'Form');
  t.deepEqual(form.fields.map((field: { name: string }) => field.name), ['Name', 'Due', 'Price']);
  await dismissToasts(page);
  await checkPage(t, page, frame, 'the form view');
  await saveScreenshot(page, `${IMAGES}tables-form-1280.png`);
  await page.context().close();
});

test.serial('at 375 px: a visitor fills the public form without signing in; a refused value and a bad link are shown with their status', async (t) => {
  const page = await web.newPage(375);
  await page.goto(ids.formUrl!);
  const form = page.getByRole('form', { name: 'Form' });
  await form.getByLabel('Name').fill('Umbrella');
  await form.getByLabel('Due').fill(publicFormDue);
  await form.getByLabel('Price').fill('lots');
  await form.getByRole('button', { name: 'Send' }).click();
  await form.getByRole('alert').getByText('Price takes an amount such as "12.50" (400)').waitFor();
  t.is(await form.getByLabel('Price').getAttribute('aria-invalid'), 'true');
  t.deepEqual(await accessibilityViolations(page), [], 'axe on a refused value');
  await form.getByLabel('Price').fill('3.10');
  await saveScreenshot(page, `${IMAGES}tables-public-form-375.png`);
  await form.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('status').getByText('Thank you: your answers were sent.').waitFor();
  t.deepEqual(await cspViolations(page), [], 'CSP on the public form');
  t.deepEqual(await accessibilityViolations(page), [], 'axe on the thanks');
  t.is(await sidewaysOverflow(page), 0);
  const made = ok(await ann.get(`/tables/tables/${ids.table}/records`)).find((row: { title: string }) => row.title === 'Umbrella');
  t.deepEqual(made.cells, { [ids.name]: 'Umbrella', [ids.due]: publicFormDue, [ids.price]: '3.10' });

  await page.goto(`${web.origin}/public/apps/tables/form.html#${'x'.repeat(32)}`);
  await page.getByRole('alert').getByText('This form is not available: Form not found (404)').waitFor();
  t.deepEqual(await accessibilityViolations(page), [], 'axe on a bad link');
  await page.context().close();
});

test.serial("at 375 px: the calendar reads as a list by day; a gallery follows its view's saved filter and hidden fields", async (t) => {
  const gallery = ok(await ann.get(`/tables/tables/${ids.table}/views`)).find((view: { type: string }) => view.type === 'gallery');
  ok(await ann.patch(`/tables/views/${gallery.id}`, { config: { filters: [{ field_id: ids.price, op: 'gte', value: '10' }], hidden_fields: [ids.due] } }));
  const { page, frame } = await web.openApp(375, { email: ann.email });
  await frame.getByRole('link', { name: 'Orders' }).click();
  await frame.getByRole('button', { name: 'Gallery' }).click();
  const cards = frame.getByRole('list', { name: 'Gallery' });
  await cards.getByRole('listitem', { name: 'Acme' }).getByRole('link', { name: 'Acme' }).waitFor();
  t.is(await cards.getByRole('link').allTextContents().then((names) => names.join('|')), 'Acme|Initech');
  t.is(await cards.getByRole('listitem', { name: 'Acme' }).locator('dl').innerText().then((text) => text.replace(/\s+/g, ' ').trim()), 'Name Acme Price 12.50');
  await checkPage(t, page, frame, 'the gallery at 375 px');

  await frame.getByRole('button', { name: 'Calendar by Due' }).click();
  const days = frame.getByRole('list', { name: `Calendar by Due, ${monthTitle(thisMonth)}, by day` });
  await days.getByRole('heading', { name: dayLabel(thisMonth) }).waitFor();
  t.is(await days.getByRole('link').allTextContents().then((names) => names.join('|')), 'Acme|Soylent');
  t.false(await frame.getByRole('table', { name: `Calendar by Due, ${monthTitle(thisMonth)}` }).isVisible());
  await dismissToasts(page);
  await checkPage(t, page, frame, 'the calendar at 375 px');
  await saveScreenshot(page, `${IMAGES}tables-calendar-375.png`);
  await page.context().close();
});

test.serial('past 100 records: the calendar reads every page of the month shown, the gallery loads more by its cursor', async (t) => {
  const stock = ok(await ann.post(`/tables/bases/${ids.base}/tables`, { name: 'Stock' }));
  const arrives = ok(await ann.post(`/tables/tables/${stock.id}/fields`, { name: 'Arrives', type: 'date' })).id;
  // 105 records this month, and one the month after that the calendar must not read.
  const records = Array.from({ length: 105 }, (_, index) => ({ cells: { [stock.primary_field_id]: `Item ${index + 1}`, [arrives]: iso(new Date(thisMonth.getFullYear(), thisMonth.getMonth(), (index % 28) + 1)) } }));
  ok(await ann.post(`/tables/tables/${stock.id}/records/bulk`, { records: [...records, { cells: { [stock.primary_field_id]: 'Later', [arrives]: iso(nextMonth) } }] }));
  ok(await ann.post(`/tables/tables/${stock.id}/views`, { name: 'Cards', type: 'gallery' }));
  ok(await ann.post(`/tables/tables/${stock.id}/views`, { name: 'Arrivals', type: 'calendar', config: { date_field_id: arrives } }));
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await frame.getByRole('link', { name: 'Stock' }).click();
  const views = frame.getByRole('navigation', { name: 'Views' });

  await views.getByRole('button', { name: 'Cards' }).click();
  const cards = frame.getByRole('list', { name: 'Cards' });
  await cards.getByRole('listitem', { name: 'Item 100', exact: true }).waitFor();
  t.is(await cards.getByRole('listitem').count(), 100);
  await frame.getByRole('button', { name: 'Load more' }).click();
  await cards.getByRole('listitem', { name: 'Later' }).waitFor();
  t.is(await cards.getByRole('listitem').count(), 106);
  t.is(await frame.getByRole('button', { name: 'Load more' }).count(), 0);

  await views.getByRole('button', { name: 'Arrivals' }).click();
  const month = frame.getByRole('table', { name: `Arrivals, ${monthTitle(thisMonth)}` });
  await month.getByRole('link', { name: 'Item 105', exact: true }).waitFor();
  t.is(await month.getByRole('link').count(), 105);
  await page.context().close();
});
