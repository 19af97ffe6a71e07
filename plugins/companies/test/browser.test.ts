/**
 * The Companies app's front-end in Chromium, through the real routes: a person signs in on the
 * workspace's sign-in page, opens Companies from the launcher (the shell hosts the app's sandboxed
 * frame), adds a company (the server's refusal of a bad domain shows on the Domain field, a domain
 * already taken above the form), edits it, changes its owner in the shell's member picker, searches
 * the list and follows "People at …" into the Contacts app; at 1280 px and at 375 px, axe-clean
 * (no serious or critical violation) in the shell and in the frame, no Content-Security-Policy
 * violation, nothing wider than the window. The screenshots are the ones docs/apps/companies.md shows.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type TestMember, type World } from '@wpk/testing';
import { appFrame, browseWorld, checkPage, saveScreenshot, type WorldBrowser } from '@wpk/testing/browser';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const CONTACTS_DIR = fileURLToPath(new URL('../../contacts', import.meta.url));
const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));

let web: WorldBrowser;
let world: World;
let origin: string;
let dana: TestMember;

test.before(async () => {
  web = await browseWorld(startWorld({ app: APP_DIR, subdomain: 'acme', apps: [CONTACTS_DIR], listen: true }), { link: 'Companies', slug: 'companies', ready: 'companies-list' });
  ({ world, origin } = web);
  await world.workspace.install('contacts');
  dana = await world.workspace.member({ name: 'Dana Scully', permissions: ['companies.companies.read'] });
  ok(await world.owner.request('POST', '/companies', { name: 'Globex', domain: 'globex.example', industry: 'Energy', size: '1001-5000', address: { city: 'Springfield', country: 'US' } }));
});

test.after.always(() => web?.close());

const companies = async () => ((await world.owner.request('GET', '/companies?per_page=100')).body.data as Array<Record<string, any>>).map((company) => [company.name, company.domain, company.industry, company.size, company.address.city, company.owner_id, company.revision]);

test.serial('at 1280 px: sign in, open Companies, add a company, edit it, change its owner, search, and see its people in Contacts', async (t) => {
  const { page, frame } = await web.openApp(1280);
  const table = frame.getByRole('table', { name: "The workspace's companies" });
  await table.getByRole('link', { name: 'Globex' }).waitFor();
  await checkPage(t, page, frame, 'the list');

  // A new company: a bad domain is refused on its field; a domain another company has, above the form.
  await frame.getByRole('link', { name: 'New company' }).click();
  await page.waitForURL(`${origin}/app/companies/new`);
  await frame.getByLabel('Name').fill('Initech');
  await frame.getByLabel('Domain').fill('not a domain');
  await frame.getByLabel('City').fill('Austin');
  await frame.getByRole('button', { name: 'Add company' }).click();
  const domain = frame.locator('wa-input[name="domain"]');
  await domain.getByText('domain must be a domain name such as example.com (got "not a domain")').waitFor();
  t.is(await domain.getAttribute('aria-invalid'), 'true');
  await checkPage(t, page, frame, 'the form with a refusal on a field');
  await frame.getByLabel('Domain').fill('https://www.Globex.example/about');
  await frame.getByRole('button', { name: 'Add company' }).click();
  const globex = (await world.owner.request('GET', '/companies?q=globex')).body.data[0];
  await frame.getByRole('alert').filter({ hasText: `Company ${globex.id} (Globex) already has the domain globex.example` }).waitFor();
  t.is((await world.owner.request('GET', '/companies')).body.data.length, 1);

  await frame.getByLabel('Domain').fill('https://www.Initech.example/');
  await frame.getByRole('button', { name: 'Add company' }).click();
  await page.waitForURL(/\/app\/companies\/companies\/[0-9a-f-]+$/);
  await frame.getByRole('heading', { name: 'Initech', exact: true, level: 1 }).waitFor();
  await frame.getByText('Owner of acme').waitFor();
  t.deepEqual(await companies(), [
    ['Globex', 'globex.example', 'Energy', '1001-5000', 'Springfield', world.owner.id, 1],
    ['Initech', 'initech.example', null, null, 'Austin', world.owner.id, 1],
  ]);

  // Edit: the industry and the size (an enum, a select).
  await frame.getByRole('button', { name: 'Edit' }).click();
  await frame.getByRole('heading', { name: 'Edit Initech' }).waitFor();
  await frame.getByLabel('Industry').fill('Software');
  await frame.locator('wa-select[name="size"]').click();
  await frame.getByRole('option', { name: '51-200' }).click();
  await frame.getByRole('button', { name: 'Save company' }).click();
  await frame.getByRole('heading', { name: 'Initech', exact: true, level: 1 }).waitFor();
  await frame.getByText('Software · 51-200 employees').waitFor();

  // The owner, chosen in the shell's member picker.
  await frame.getByRole('button', { name: 'Change the owner' }).click();
  await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('Dana');
  await page.getByRole('radio', { name: /Dana Scully/ }).check();
  await page.getByRole('button', { name: 'Choose' }).click();
  await frame.getByText('Dana Scully').waitFor();
  t.deepEqual(await companies(), [
    ['Globex', 'globex.example', 'Energy', '1001-5000', 'Springfield', world.owner.id, 1],
    ['Initech', 'initech.example', 'Software', '51-200', 'Austin', dana.id, 3],
  ]);
  await checkPage(t, page, frame, 'a company');

  // The list, searched.
  await frame.getByRole('link', { name: '← All companies' }).click();
  await table.getByRole('link', { name: 'Initech' }).waitFor();
  await checkPage(t, page, frame, 'the list of two');
  await saveScreenshot(page, `${IMAGES}companies-list-1280.png`);
  await frame.getByLabel('Search companies').fill('initech');
  await table.getByRole('link', { name: 'Globex' }).waitFor({ state: 'detached' });
  t.deepEqual(await table.locator('tbody tr td:first-child').allTextContents(), ['Initech']);

  // Its people live in the Contacts app: the link leaves for it, narrowed to the company.
  const initech = (await world.owner.request('GET', '/companies?q=initech')).body.data[0];
  ok(await world.owner.request('POST', '/contacts', { given_name: 'Peter', family_name: 'Gibbons', company_mrn: initech.mrn }));
  ok(await world.owner.request('POST', '/contacts', { given_name: 'Hank', family_name: 'Scorpio', company_mrn: globex.mrn }));
  await table.getByRole('link', { name: 'Initech' }).click();
  await frame.getByRole('link', { name: 'People at Initech' }).click();
  await page.waitForURL(`${origin}/app/contacts/?company_mrn=${encodeURIComponent(initech.mrn)}`);
  const contacts = await appFrame(page, 'contacts-list');
  const people = contacts.getByRole('table', { name: 'Contacts at this company' });
  await people.getByRole('link', { name: 'Peter Gibbons' }).waitFor();
  t.deepEqual(await people.locator('tbody tr td:first-child').allTextContents(), ['Peter Gibbons']);
  await page.context().close();
});

test.serial('at 375 px: the list and a company read on a phone; a company is deleted after the shell asks', async (t) => {
  const { page, frame } = await web.openApp(375);
  const table = frame.getByRole('table', { name: "The workspace's companies" });
  await table.getByRole('link', { name: 'Initech' }).waitFor();
  await checkPage(t, page, frame, 'the list at 375 px');
  await table.getByRole('link', { name: 'Initech' }).click();
  await frame.getByRole('heading', { name: 'Initech', exact: true, level: 1 }).waitFor();
  await frame.getByText('Dana Scully').waitFor();
  await checkPage(t, page, frame, 'a company at 375 px');
  await saveScreenshot(page, `${IMAGES}companies-company-375.png`);

  await frame.getByRole('button', { name: 'Delete' }).click();
  await page.getByText('The company goes for everyone in the workspace; contacts that name it lose their company.').waitFor();
  await page.getByRole('button', { name: 'Delete company' }).click();
  await page.waitForURL(`${origin}/app/companies/`);
  await table.getByRole('link', { name: 'Globex' }).waitFor();
  t.deepEqual(await table.locator('tbody tr td:first-child').allTextContents(), ['Globex']);
  t.deepEqual((await companies()).map(([name]) => name), ['Globex']);
  await page.context().close();
});
