/**
 * The Contacts app's front-end in Chromium, through the real routes: a person signs in on the
 * workspace's sign-in page, opens Contacts from the launcher (the shell hosts the app's sandboxed
 * frame), adds a contact (the server's refusal of a broken email shows on the Emails field), edits
 * it, imports a vCard file, finds a contact by search, and accepts one suggestion and dismisses
 * another; at 1280 px and at 375 px, axe-clean (no serious or critical violation) in the shell and
 * in the frame, no Content-Security-Policy violation, nothing wider than the window. The
 * screenshots are the ones docs/apps/contacts.md shows.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { startWorld, type TestMember, type World } from '@wpk/testing';
import { appFrame, browseWorld, checkPage, saveScreenshot, signIn, type WorldBrowser } from '@wpk/testing/browser';
import talk from './fixtures/talk/index.js';
import { COMPANIES_DIR } from './helpers/world.js';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));

let web: WorldBrowser;
let world: World;
let origin: string;
let bob: TestMember;
let carol: TestMember;

test.before(async () => {
  web = await browseWorld(startWorld({ app: APP_DIR, subdomain: 'acme', apps: [COMPANIES_DIR, talk], listen: true }), { link: 'Contacts', slug: 'contacts', ready: 'contacts-list' });
  ({ world, origin } = web);
  await world.workspace.install('companies');
  bob = await world.workspace.member({ name: 'Bob Builder', permissions: ['contacts.contacts.read'] });
  carol = await world.workspace.member({ name: 'Carol Danvers', permissions: ['contacts.contacts.read'] });
});

test.after.always(() => web?.close());

const contacts = async () => ((await world.owner.request('GET', '/contacts?per_page=100')).body.data as Array<Record<string, any>>).map((contact) => [contact.display_name, contact.job_title, contact.emails.map((email: { value: string }) => email.value), contact.tags, contact.source]);

test.serial('at 1280 px: sign in, open Contacts, add and edit a contact, import a vCard file, search, accept and dismiss suggestions', async (t) => {
  const { page, frame } = await web.openApp(1280);
  await frame.getByText('No contact yet: add one, or import a vCard file.').waitFor();
  await checkPage(t, page, frame, 'the empty address book');

  // A new contact; the server refuses the broken email, and says so on the Emails field.
  await frame.getByRole('link', { name: 'New contact' }).click();
  await page.waitForURL(`${origin}/app/contacts/new`);
  await frame.getByLabel('Given name').fill('Ada');
  await frame.getByLabel('Family name').fill('Lovelace');
  await frame.getByLabel('Emails').fill('ada-at-example');
  await frame.getByLabel('Job title').fill('Programmer');
  await frame.getByLabel('Tags').fill('VIP, Engines');
  await frame.getByRole('button', { name: 'Add contact' }).click();
  const emails = frame.locator('wa-input[name="emails"]');
  await emails.getByText('emails[0].value must be a valid email').waitFor();
  t.is(await emails.getAttribute('aria-invalid'), 'true');
  t.deepEqual(await contacts(), []);
  await checkPage(t, page, frame, 'the form with a refusal');

  await frame.getByLabel('Emails').fill('ada@example.org, ada@home.example');
  await frame.getByRole('button', { name: 'Add contact' }).click();
  await page.waitForURL(/\/app\/contacts\/contacts\/[0-9a-f-]+$/);
  await frame.getByRole('heading', { name: 'Ada Lovelace', level: 1 }).waitFor();
  t.deepEqual(await contacts(), [['Ada Lovelace', 'Programmer', ['ada@example.org', 'ada@home.example'], ['VIP', 'Engines'], 'manual']]);

  // Edit: only what changed is sent, the display name stays derived from the names.
  await frame.getByRole('button', { name: 'Edit' }).click();
  await frame.getByRole('heading', { name: 'Edit Ada Lovelace' }).waitFor();
  await frame.getByLabel('Job title').fill('Chief Programmer');
  await frame.getByLabel('Given name').fill('Augusta Ada');
  await frame.getByRole('button', { name: 'Save contact' }).click();
  await frame.getByRole('heading', { name: 'Augusta Ada Lovelace', level: 1 }).waitFor();
  t.deepEqual(await contacts(), [['Augusta Ada Lovelace', 'Chief Programmer', ['ada@example.org', 'ada@home.example'], ['VIP', 'Engines'], 'manual']]);
  await checkPage(t, page, frame, 'a contact');

  // Import: a .vcf file of two cards through the file input.
  await frame.getByRole('link', { name: 'Import' }).click();
  await frame.getByRole('heading', { name: 'Import contacts' }).waitFor();
  const vcard = ['BEGIN:VCARD', 'VERSION:4.0', 'FN:Grace Hopper', 'N:Hopper;Grace;;;', 'ORG:US Navy', 'EMAIL;TYPE=work:grace@navy.example', 'END:VCARD', 'BEGIN:VCARD', 'VERSION:3.0', 'FN:Alan Turing', 'N:Turing;Alan;;;', 'TITLE:Mathematician', 'END:VCARD', ''].join('\r\n');
  await frame.getByLabel('vCard file').setInputFiles({ name: 'people.vcf', mimeType: 'text/vcard', buffer: Buffer.from(vcard) });
  await frame.getByRole('button', { name: 'Import' }).click();
  await frame.getByRole('status').filter({ hasText: '2 contacts imported.' }).waitFor();
  t.deepEqual(await contacts(), [
    ['Alan Turing', 'Mathematician', [], [], 'import'],
    ['Augusta Ada Lovelace', 'Chief Programmer', ['ada@example.org', 'ada@home.example'], ['VIP', 'Engines'], 'manual'],
    ['Grace Hopper', null, ['grace@navy.example'], [], 'import'],
  ]);

  // The list, searched.
  await frame.getByRole('link', { name: 'See the address book' }).click();
  const table = frame.getByRole('table', { name: 'Everyone in the address book' });
  await table.getByRole('link', { name: 'Grace Hopper' }).waitFor();
  t.deepEqual(await table.locator('tbody tr td:first-child').allTextContents(), ['Alan Turing', 'Augusta Ada Lovelace', 'Grace Hopper']);
  await checkPage(t, page, frame, 'the address book');
  await saveScreenshot(page, `${IMAGES}contacts-list-1280.png`);
  await frame.getByLabel('Search contacts').fill('navy');
  await table.getByRole('link', { name: 'Alan Turing' }).waitFor({ state: 'detached' });
  t.deepEqual(await table.locator('tbody tr td:first-child').allTextContents(), ['Grace Hopper']);

  // Suggestions: a chat with Bob and Carol suggests both; Bob is accepted (a contact under his member name), Carol dismissed.
  await world.deliver('core.chat.chat.created', { chat_id: 'chat-1', type: 'group', name: 'Launch', creator_mrn: world.owner.mrn, participant_mrns: [world.owner.mrn, bob.mrn, carol.mrn] });
  await frame.getByRole('link', { name: 'Suggestions' }).click();
  const suggestions = frame.getByRole('table', { name: 'Your suggestions' });
  await suggestions.getByRole('row', { name: /Carol Danvers/ }).waitFor();
  t.deepEqual((await suggestions.locator('tbody tr td:first-child').allTextContents()).sort(), ['Bob Builder', 'Carol Danvers']);
  await checkPage(t, page, frame, 'suggestions');
  await suggestions.getByRole('row', { name: /Bob Builder/ }).getByRole('button', { name: 'Accept' }).click();
  await suggestions.getByRole('row', { name: /Bob Builder/ }).waitFor({ state: 'detached' });
  await suggestions.getByRole('row', { name: /Carol Danvers/ }).getByRole('button', { name: 'Dismiss' }).click();
  await frame.getByText('No suggestion right now.').waitFor();
  const bobContact = ((await world.owner.request('GET', '/contacts?q=bob')).body.data as Array<Record<string, unknown>>).map((contact) => [contact.display_name, contact.member_mrn, contact.source]);
  t.deepEqual(bobContact, [['Bob Builder', bob.mrn, 'suggestion']]);
  const dismissed = ((await world.owner.request('GET', '/contacts/suggestions?status=dismissed')).body.data as Array<Record<string, unknown>>).map((suggestion) => suggestion.member_mrn);
  t.deepEqual(dismissed, [carol.mrn]);
  await page.context().close();
});

test.serial('at 375 px: the address book and a contact read on a phone; a contact is deleted after the shell asks', async (t) => {
  const { page, frame } = await web.openApp(375);
  const table = frame.getByRole('table', { name: 'Everyone in the address book' });
  await table.getByRole('link', { name: 'Grace Hopper' }).waitFor();
  await checkPage(t, page, frame, 'the address book at 375 px');
  await table.getByRole('link', { name: 'Augusta Ada Lovelace' }).click();
  await frame.getByRole('heading', { name: 'Augusta Ada Lovelace', level: 1 }).waitFor();
  await frame.getByRole('link', { name: 'ada@example.org' }).waitFor();
  await checkPage(t, page, frame, 'a contact at 375 px');
  await saveScreenshot(page, `${IMAGES}contacts-contact-375.png`);

  // Deleting asks first, in the shell's dialog.
  await frame.getByRole('link', { name: '← All contacts' }).click();
  await table.getByRole('link', { name: 'Alan Turing' }).click();
  await frame.getByRole('heading', { name: 'Alan Turing', level: 1 }).waitFor();
  await frame.getByRole('button', { name: 'Delete' }).click();
  await page.getByText('The contact leaves the address book for everyone in the workspace.').waitFor();
  await page.getByRole('button', { name: 'Delete contact' }).click();
  await page.waitForURL(`${origin}/app/contacts/`);
  await table.getByRole('link', { name: 'Grace Hopper' }).waitFor();
  t.deepEqual(await table.locator('tbody tr td:first-child').allTextContents(), ['Augusta Ada Lovelace', 'Bob Builder', 'Grace Hopper']);
  t.deepEqual((await contacts()).map(([name]) => name), ['Augusta Ada Lovelace', 'Bob Builder', 'Grace Hopper']);
  await page.context().close();
});

test.serial("a contact's company is an MRN chip resolved through the shell's search: it names the company and its type and opens it in Companies; to a member who may not see companies it reads \"Restricted record\"", async (t) => {
  const company = (await world.owner.request('POST', '/companies', { name: 'Initrode' })).body.data;
  const contact = (await world.owner.request('POST', '/contacts', { given_name: 'Milton', family_name: 'Waddams', company_mrn: company.mrn })).body.data;

  const page = await web.newPage();
  await signIn(page, origin, world.owner.email);
  await page.goto(`${origin}/app/contacts/contacts/${contact.id}`);
  const frame = await appFrame(page, 'contacts-contact');
  const chip = frame.locator('wpk-mrn-chip').getByRole('link', { name: 'Company Initrode', exact: true });
  await chip.waitFor();
  t.is(await chip.getAttribute('href'), `/app/companies/companies/${company.id}`);
  await checkPage(t, page, frame, 'a contact with its company chip');
  await chip.click();
  await page.waitForURL(`${origin}/app/companies/companies/${company.id}`);
  const companies = await appFrame(page, 'companies-company');
  await companies.getByRole('heading', { name: 'Initrode', level: 1 }).waitFor();
  await page.context().close();

  // Bob reads contacts but not companies: the chip names no company, nor the kind of record.
  const bobPage = await web.newPage();
  await signIn(bobPage, origin, bob.email);
  await bobPage.goto(`${origin}/app/contacts/contacts/${contact.id}`);
  const bobFrame = await appFrame(bobPage, 'contacts-contact');
  const hidden = bobFrame.locator('wpk-mrn-chip');
  await hidden.locator('.wpk-record-restricted:not([aria-busy])').waitFor();
  t.is(await hidden.evaluate((chip) => chip.shadowRoot!.textContent!.trim()), 'Restricted record');
  t.is(await hidden.getByRole('link').count(), 0);
  t.is(await bobFrame.getByText('Initrode').count(), 0);
  await checkPage(t, bobPage, bobFrame, 'a contact whose company the member may not see');
  await bobPage.context().close();
});
