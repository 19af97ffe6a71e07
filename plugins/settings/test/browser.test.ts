/**
 * The Settings app's front-end in Chromium, through the real routes: the owner signs in, opens
 * Settings from the launcher (the shell hosts the app's sandboxed frame), sets the organisation's
 * base currency (a code that is no ISO 4217 currency is refused on its field), adds a working
 * calendar and imports the public holidays of a region into it (a second import adds nothing),
 * adds a location on a phone, explains a member's access, and exports and imports the
 * configuration (a stale plan refused, a fresh one applied); at 1280 px and at 375 px, axe-clean (no serious or critical
 * violation) in the shell and in the frame, no Content-Security-Policy violation, nothing wider
 * than the window. The screenshots are the ones docs/apps/settings.md shows.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { startWorld } from '@wpk/testing';
import { browseWorld, checkPage, dismissToasts, saveScreenshot, type Frame, type Page, type WorldBrowser } from '@wpk/testing/browser';

/** The docs page's pictures. */
const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));
let web: WorldBrowser;

test.before(async () => {
  const started = startWorld({ app: fileURLToPath(new URL('..', import.meta.url)), subdomain: 'acme', listen: true });
  web = await browseWorld(started, { link: 'Settings', exact: true, slug: 'settings', ready: 'settings-organization' });
});

test.after.always(() => web?.close());

const owner = () => web.world.owner;
const organization = async () => (await owner().request('GET', '/settings/organization')).body.data;

test.serial('at 1280 px: set the base currency, add a calendar and import the public holidays of a region', async (t) => {
  const { page, frame } = await web.openApp(1280);
  await frame.getByRole('heading', { name: 'Organisation', level: 1 }).waitFor();
  await frame.getByRole('link', { name: 'Members and invitations' }).waitFor();
  await checkPage(t, page, frame, 'the organisation');

  // A currency that is not one is refused on its field, and nothing changes.
  await frame.getByLabel('Base currency').fill('XYZ');
  await frame.getByRole('button', { name: 'Save organisation' }).click();
  const currency = frame.locator('wa-input[name="base_currency"]');
  await currency.getByText('base_currency: XYZ is not an ISO 4217 currency code (such as EUR or USD)').waitFor();
  t.is(await currency.getAttribute('aria-invalid'), 'true');
  t.like(await organization(), { base_currency: 'USD', revision: 0 });

  await frame.getByLabel('Base currency').fill('EUR');
  await frame.getByRole('button', { name: 'Save organisation' }).click();
  await page.getByText('Organisation saved').waitFor();
  t.like(await organization(), { base_currency: 'EUR', revision: 1 });
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}settings-organization-1280.png`);

  // A calendar, then the public holidays of Bavaria in 2026.
  await frame.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Calendars' }).click();
  await page.waitForURL(`${web.origin}/app/settings/calendars`);
  await frame.getByLabel('Name').fill('Bavaria office');
  await frame.getByLabel('Holiday region').fill('DE-BY');
  await frame.getByRole('button', { name: 'Add calendar' }).click();
  await page.waitForURL(/\/app\/settings\/calendars\/[0-9a-f-]+$/);
  await frame.getByRole('heading', { name: 'Bavaria office', level: 1 }).waitFor();
  await frame.getByText("No holiday yet: import a region's public holidays or add one.").waitFor();
  await frame.getByLabel('Year').fill('2026');
  await frame.getByRole('button', { name: 'Import holidays' }).click();
  await page.getByText('12 holidays of DE-BY in 2026 imported, 0 already there').waitFor();
  const holidays = frame.getByRole('table', { name: 'Holidays of Bavaria office' });
  await holidays.getByText('Tag der Deutschen Einheit').waitFor();
  t.is(await holidays.locator('tbody tr').count(), 12);
  await checkPage(t, page, frame, 'a calendar with its holidays');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}settings-calendar-1280.png`);

  await frame.getByRole('button', { name: 'Import holidays' }).click();
  await page.getByText('0 holidays of DE-BY in 2026 imported, 12 already there').waitFor();
  const calendar = (await owner().request('GET', '/settings/calendars')).body.data[0];
  t.like(calendar, { name: 'Bavaria office', region: 'DE-BY', working_days: [1, 2, 3, 4, 5], hours_per_day: 8 });
  t.is((await owner().request('GET', `/settings/calendars/${calendar.id}/holidays?per_page=100`)).body.pagination.total, 12);
  await page.context().close();
});

test.serial('at 375 px: add a location on a phone', async (t) => {
  const { page, frame } = await web.openApp(375);
  await frame.getByRole('heading', { name: 'Organisation', level: 1 }).waitFor();
  await checkPage(t, page, frame, 'the organisation at 375 px');
  await frame.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Locations' }).click();
  await page.waitForURL(`${web.origin}/app/settings/locations`);
  await frame.getByLabel('Name').fill('Munich office');
  await frame.getByLabel('Time zone').fill('Europe/Berlin');
  await frame.getByLabel('City').fill('München');
  await frame.getByLabel('Country').fill('DE');
  await frame.getByRole('button', { name: 'Add location' }).click();
  const table = frame.getByRole('table', { name: "The workspace's locations" });
  await table.getByRole('link', { name: 'Munich office' }).waitFor();
  await checkPage(t, page, frame, 'the locations at 375 px');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}settings-locations-375.png`);
  t.like((await owner().request('GET', '/settings/locations')).body.data[0], { name: 'Munich office', timezone: 'Europe/Berlin', address: { city: 'München', country: 'DE' } });
  await page.context().close();
});

/** Explains a member's access on the "Explain access" screen: the member from the shell's picker, the action typed. */
async function explainOnScreen(page: Page, frame: Frame, name: string, action: string) {
  await frame.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Explain access' }).click();
  await page.waitForURL(`${web.origin}/app/settings/explain`);
  await frame.getByRole('heading', { name: 'Explain access', level: 1 }).waitFor();
  await frame.getByRole('button', { name: 'Add Member' }).click();
  await page.getByRole('searchbox', { name: 'Search', exact: true }).fill(name.split(' ')[0]);
  await page.getByRole('radio', { name: new RegExp(name) }).check();
  // By keyboard: at 375 px the shell's picker dialog is wider than the window and its Choose button is off-screen (a shell issue, reported).
  await page.getByRole('button', { name: 'Choose' }).focus();
  await page.keyboard.press('Enter');
  await frame.getByText(name, { exact: true }).waitFor();
  await frame.getByLabel('Action').fill(action);
  await frame.getByRole('button', { name: 'Explain' }).click();
}

test.serial('explain access: the five layers of a member and an action, the deciding one marked, at 1280 and 375 px', async (t) => {
  const reader = await web.world.member(['settings.locations.read'], { name: 'Rita Reader' });
  const { page, frame } = await web.openApp(1280);
  await frame.getByRole('heading', { name: 'Organisation', level: 1 }).waitFor();
  await explainOnScreen(page, frame, 'Rita Reader', 'POST /settings/locations');
  await frame.getByText('Refused at layer 5, App permissions: Rita Reader may not do POST /settings/locations.').waitFor();
  const layers = frame.getByRole('list', { name: 'The five access layers' }).getByRole('listitem');
  t.is(await layers.count(), 5);
  t.regex(await layers.nth(4).innerText(), /5\. App permissions\s+Refuses\s+Decides\s+lacks settings\.locations\.create; holds settings\.locations\.read via role /);
  t.is(await frame.locator('li[aria-current="true"]').count(), 1);
  // The screen says what a real request by that member gets.
  t.is((await reader.request('POST', '/settings/locations', { name: 'Lyon', timezone: 'Europe/Paris' })).status, 403);
  await checkPage(t, page, frame, 'the permission explainer');
  await frame.locator('li[aria-current="true"]').scrollIntoViewIfNeeded();
  await saveScreenshot(page, `${IMAGES}settings-explain-1280.png`);

  // An action that names nothing is refused on its field.
  await frame.getByLabel('Action').fill('settings.locations.fly');
  await frame.getByRole('button', { name: 'Explain' }).click();
  await frame.getByText(/^action must be a declared permission key/).waitFor();
  await page.context().close();

  const phone = await web.openApp(375);
  await phone.frame.getByRole('heading', { name: 'Organisation', level: 1 }).waitFor();
  await explainOnScreen(phone.page, phone.frame, 'Rita Reader', 'GET /settings/locations');
  await phone.frame.getByText('Allowed: Rita Reader may do GET /settings/locations.').waitFor();
  t.is(await phone.frame.locator('li[aria-current="true"]').count(), 0);
  t.is((await reader.request('GET', '/settings/locations')).status, 200);
  await checkPage(t, phone.page, phone.frame, 'the permission explainer at 375 px');
  await phone.page.context().close();
});

test.serial('export / import: download the document, edit it, see the plan, a stale plan refused, then apply, at 1280 px', async (t) => {
  const { page, frame } = await web.openApp(1280);
  await frame.getByRole('heading', { name: 'Organisation', level: 1 }).waitFor();
  await frame.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Export / import' }).click();
  await page.waitForURL(`${web.origin}/app/settings/configuration`);
  await frame.getByRole('heading', { name: 'Export / import', level: 1 }).waitFor();

  // The download is the document GET /settings/export answers, as the text box shows it.
  const exported = (await owner().request('GET', '/settings/export')).body.data;
  const [download] = await Promise.all([page.waitForEvent('download'), frame.getByRole('button', { name: 'Download the document' }).click()]);
  t.is(download.suggestedFilename(), 'acme-settings.json');
  const fs = await import('node:fs/promises');
  t.deepEqual(JSON.parse(await fs.readFile((await download.path())!, 'utf8')), exported);
  const box = frame.getByRole('textbox', { name: 'Document' });
  t.deepEqual(JSON.parse(await box.inputValue()), exported);

  // An invalid document: every problem by its path, nothing changed.
  const edited = structuredClone(exported);
  edited.organization.legal_name = 'Acme Holding GmbH';
  edited.locations['Lyon office'] = { timezone: 'Mars/Olympus', address: { city: 'Lyon' } };
  await box.fill(JSON.stringify(edited, null, 2));
  await frame.getByRole('button', { name: 'Plan the import' }).click();
  await frame.getByRole('alert').getByText('locations.Lyon office.timezone: Mars/Olympus is not an IANA time zone (such as Europe/Paris or UTC)').waitFor();

  // A valid one: its plan, part by part.
  edited.locations['Lyon office'].timezone = 'Europe/Paris';
  await box.fill(JSON.stringify(edited, null, 2));
  await frame.getByRole('button', { name: 'Plan the import' }).click();
  await frame.getByRole('heading', { name: 'Plan: 2 changes', level: 2 }).waitFor();
  t.is(await frame.getByRole('region', { name: 'Organisation' }).getByRole('listitem').innerText(), 'update organization (legal_name)');
  t.is(await frame.getByRole('region', { name: 'Locations' }).getByRole('listitem').innerText(), 'create locations.Lyon office');
  await checkPage(t, page, frame, 'an import plan');
  await saveScreenshot(page, `${IMAGES}settings-import-plan-1280.png`);

  // Someone changes the organisation meanwhile: the plan is stale, and nothing changes.
  t.is((await owner().request('PUT', '/settings/organization', { fiscal_year_start_month: 4 })).status, 200);
  await frame.getByRole('button', { name: 'Apply the plan' }).click();
  await frame.getByRole('alert').getByText('The plan is stale: organization changed since it was made; make a new plan').waitFor();
  t.is((await owner().request('GET', '/settings/locations?q=Lyon')).body.data.length, 0);

  // A new plan of the document as it is now applies.
  edited.organization.fiscal_year_start_month = 4;
  await box.fill(JSON.stringify(edited, null, 2));
  await frame.getByRole('button', { name: 'Plan the import' }).click();
  await frame.getByRole('heading', { name: 'Plan: 2 changes', level: 2 }).waitFor();
  await frame.getByRole('button', { name: 'Apply the plan' }).click();
  await page.getByText('Import applied: 2 changes').waitFor();
  await frame.getByRole('heading', { name: 'Applied: 2 changes', level: 2 }).waitFor();
  t.like((await owner().request('GET', '/settings/organization')).body.data, { legal_name: 'Acme Holding GmbH', fiscal_year_start_month: 4 });
  t.like((await owner().request('GET', '/settings/locations?q=Lyon')).body.data[0], { name: 'Lyon office', timezone: 'Europe/Paris', address: { city: 'Lyon' } });
  await checkPage(t, page, frame, 'an applied import');
  await page.context().close();
});
