/**
 * The Mail app's administration screen in Chromium, through the real routes and a real DNS server
 * on loopback. The owner adds a domain: its records to publish are listed, Check DNS finds them
 * missing, then (published) verifies it; a bad domain name is refused in the API's words. The owner
 * creates a mailbox assigned to a member through the shell's member picker, and a group. A member
 * without the administration keys has no Administration link, and `/admin` shows the API's refusal.
 * At 1280 px and 375 px, axe-clean, no CSP violation, nothing wider than the window.
 */
import test from 'ava';
import { ok, type TestMember } from '@wpk/testing';
import { appFrame, checkPage, dismissToasts, saveScreenshot, type Page, type WorldBrowser } from '@wpk/testing/browser';
import { IMAGES, KEYS, browseMail } from './helpers/browser.js';
import type { World } from './helpers/world.js';

let web: WorldBrowser<World>;
let cleo: TestMember;

test.before(async () => {
  web = await browseMail();
  cleo = await web.world.member(KEYS, { name: 'Cleo Member' });
});

test.after.always(() => web?.close());

/** Opens the Administration screen from the app's navigation. */
async function openAdmin(width: number, email: string) {
  const opened = await web.openApp(width, { email });
  await opened.frame.getByRole('navigation', { name: 'Mail', exact: true }).getByRole('link', { name: 'Administration' }).click();
  await opened.frame.getByRole('heading', { name: 'Mail administration' }).waitFor();
  return opened;
}

/** Chooses a member in the shell's member picker. */
async function pick(page: Page, name: string): Promise<void> {
  const picker = page.locator('wpk-member-picker-dialog');
  await picker.getByLabel(new RegExp(name)).check();
  await picker.getByRole('button', { name: 'Choose' }).click();
}

test.serial('at 1280 px: the owner adds a domain, checks its DNS before and after publishing, creates a mailbox for a member and a group', async (t) => {
  const { page, frame } = await openAdmin(1280, web.world.owner.email);
  await frame.getByText('No domain yet.').waitFor();
  await checkPage(t, page, frame, 'the administration, empty');

  const addDomain = frame.getByRole('form', { name: 'Add a domain' });
  await addDomain.getByLabel('Domain name').fill('not a domain');
  await addDomain.getByRole('button', { name: 'Add domain' }).click();
  await addDomain.getByRole('alert').waitFor();
  // The API's own words (asked again here: the same 400).
  const refusal = await web.world.owner.post('/mail/domains', { name: 'not a domain' });
  t.is(refusal.status, 400);
  t.is(await addDomain.getByRole('alert').innerText(), (refusal.body as { error: string }).error);
  t.deepEqual(ok(await web.world.owner.get('/mail/domains')), []);
  await addDomain.getByLabel('Domain name').fill('beta.test');
  await addDomain.getByRole('button', { name: 'Add domain' }).click();
  const records = frame.getByRole('table', { name: 'DNS records of beta.test' });
  await records.waitFor();
  const [domain] = ok(await web.world.owner.get('/mail/domains'));
  t.like(domain, { name: 'beta.test', verified: false });
  t.is(await records.getByRole('row').count(), domain.dns_records.length + 1);
  t.true((await records.innerText()).includes(domain.dns_records[0].value));

  // Nothing published yet: the check finds the records missing, and the domain stays unverified.
  await frame.getByRole('button', { name: /^Check DNS\W+beta\.test$/ }).click();
  await records.getByText('missing').first().waitFor();
  t.false(ok(await web.world.owner.get(`/mail/domains/${domain.id}`)).verified);
  await checkPage(t, page, frame, 'a domain with its records to publish');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}mail-admin-1280.png`);

  web.world.dns.publish(domain.dns_records);
  await frame.getByRole('button', { name: /^Check DNS\W+beta\.test$/ }).click();
  await frame.getByText('Verified', { exact: true }).waitFor();
  t.is(await records.count(), 0);
  t.true(ok(await web.world.owner.get(`/mail/domains/${domain.id}`)).verified);

  const newMailbox = frame.getByRole('form', { name: 'New mailbox' });
  await newMailbox.getByLabel('Address before the @').fill('cleo');
  await newMailbox.getByLabel('Display name').fill('Cleo');
  await newMailbox.getByRole('button', { name: /Assigned to/ }).click();
  await pick(page, 'Cleo Member');
  await newMailbox.getByRole('button', { name: 'Create mailbox' }).click();
  const mailboxes = frame.getByRole('table', { name: 'Mailboxes' });
  await mailboxes.getByRole('row').filter({ hasText: 'cleo@beta.test' }).getByText('Cleo Member').waitFor();
  t.like(ok(await web.world.owner.get('/mail/mailboxes'))[0], { address: 'cleo@beta.test', display_name: 'Cleo', member_id: cleo.id });

  const newGroup = frame.getByRole('form', { name: 'New group' });
  await newGroup.getByLabel('Address before the @').fill('team');
  await newGroup.getByLabel('Name').fill('The team');
  await newGroup.getByRole('button', { name: 'Create group' }).click();
  await frame.getByRole('table', { name: 'Groups' }).getByRole('row').filter({ hasText: 'team@beta.test' }).getByText('Its members').waitFor();
  t.like(ok(await web.world.owner.get('/mail/groups'))[0], { address: 'team@beta.test', name: 'The team', who_can_post: 'members' });
  await checkPage(t, page, frame, 'the administration with a verified domain, a mailbox and a group');
  await page.context().close();
});

test.serial('at 1280 px: a member without the administration keys has no Administration link, and the screen shows the API\'s refusal', async (t) => {
  const { page, frame } = await web.openApp(1280, { email: cleo.email });
  const nav = frame.getByRole('navigation', { name: 'Mail', exact: true });
  await nav.getByRole('link', { name: 'Settings' }).waitFor();
  t.is(await nav.getByRole('link', { name: 'Administration' }).count(), 0);
  const refused = await cleo.get('/mail/domains');
  t.is(refused.status, 403);
  t.deepEqual(refused.body, { error: 'Missing permission: mail.domains.read' });
  t.is((await cleo.post('/mail/domains', { name: 'gamma.test' })).status, 403);
  t.false(ok(await web.world.owner.get('/mail/domains')).some((domain: { name: string }) => domain.name === 'gamma.test'));

  await page.goto(`${web.origin}/app/mail/admin`);
  const admin = await appFrame(page, 'mail-admin');
  // The screen's three reads go out together: whichever is refused first is the one it quotes.
  await admin.getByRole('alert').getByText(/^Missing permission: mail\.(domains|mailboxes|groups)\.read$/).waitFor();
  t.is(await admin.getByRole('form', { name: 'Add a domain' }).count(), 0);
  await checkPage(t, page, admin, 'the refused administration');
  await page.context().close();
});

test.serial('at 375 px: the owner\'s administration on a phone', async (t) => {
  const { page, frame } = await openAdmin(375, web.world.owner.email);
  await frame.getByRole('table', { name: 'Mailboxes' }).waitFor();
  await checkPage(t, page, frame, 'the administration at 375 px');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}mail-admin-375.png`);
  await page.context().close();
});
