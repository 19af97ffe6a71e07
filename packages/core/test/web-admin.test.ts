import test from 'ava';
import { QueryTypes } from 'sequelize';
import type { Page } from 'playwright-core';
import { NOTES_DIR, VAULT_DIR } from './helpers/apps.js';
import { nodeTotp } from './helpers/identity-totp.js';
import { checkPage, declareWebEnv, fillAndSubmit, openContexts } from './helpers/web.js';

let workspaceId: string;
const web = declareWebEnv(test, { apps: [{ dir: NOTES_DIR, firstParty: true }, { dir: VAULT_DIR }], configFile: false }, async (started, acmeId) => {
  workspaceId = acmeId;
  // 11 more members: with 5 a page, the member list has 3 pages.
  for (let index = 1; index <= 11; index += 1) {
    await started.env.runtime.identity.addMember({ workspaceId, email: `m${String(index).padStart(2, '0')}@acme.test`, password: 'member-password-1', platformRole: 'member', name: `Member ${String(index).padStart(2, '0')}` });
  }
});

async function signedIn(t: { title: string }, width: number, options: { javaScript?: boolean; email?: string; password?: string } = {}): Promise<Page> {
  const context = await web.browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: options.javaScript ?? true });
  openContexts.set(`${t.title} (${width}${options.javaScript === false ? ', no JS' : ''})`, context);
  const page = await context.newPage();
  await page.goto(web.url('acme', '/login'));
  await fillAndSubmit(page, { Email: options.email ?? 'owner@acme.test', Password: options.password ?? 'owner-password-1' }, 'Sign in');
  return page;
}

async function memberNames(page: Page): Promise<string[]> {
  return page.locator('#member-rows tbody tr td:first-child').allTextContents();
}

test.serial('apps: install, edit a role’s permission matrix and the app’s settings, errors beside the field (375 and 1280 px)', async (t) => {
  const page = await signedIn(t, 375);
  await page.goto(web.url('acme', '/admin/roles'));
  await fillAndSubmit(page, { Name: 'Editors', 'Permission keys (space separated, e.g. tasks.tasks.read)': 'notes.notes.read' }, 'Create role');
  t.is(page.url(), web.url('acme', '/admin/roles?done=role'));
  t.is(await page.locator('tbody tr td').nth(1).textContent(), 'notes.notes.read ');
  await page.goto(web.url('acme', '/admin/apps'));
  // What the app bills is shown before it is installed (its manifest's meters).
  t.is(await page.locator('#meters-notes').textContent(), "Bills metered usage (on the workspace's usage invoice): words One word of a note kept; exports One note exported");
  // And whether it calls the workspace's API as a member (its manifest's platform_requests): Vault does, Notes does not.
  t.is(await page.locator('[id="platform-requests-ext.acme.vault"]').textContent(), "Calls this workspace's API as the member it acts for: only within the permission keys it names for each call, and never beyond that member's own permissions.");
  t.is(await page.locator('[id="platform-requests-notes"]').count(), 0);
  await page.getByRole('button', { name: 'Install Notes' }).click();
  t.is(page.url(), web.url('acme', '/admin/apps?done=installed'));
  await checkPage(t, page, 'apps (375 px)');

  const matrix = page.getByRole('group', { name: 'Permissions of Editors in Notes' });
  t.true(await matrix.getByLabel('Read notes').isChecked());
  t.false(await matrix.getByLabel('Create notes').isChecked());
  await matrix.getByLabel('Create notes').check();
  await page.getByRole('button', { name: 'Save permissions of Editors' }).click();
  t.is(page.url(), web.url('acme', '/admin/apps?done=permissions#app-notes'));
  // Runs in the page; this package is compiled without the DOM's types, so the checkbox is typed by hand.
  t.deepEqual(await page.getByRole('group', { name: 'Permissions of Editors in Notes' }).locator('input:checked').evaluateAll((boxes) => boxes.map((box) => (box as unknown as { value: string }).value)), ['notes.notes.read', 'notes.notes.create']);
  const roles = await web.env.runtime.db.sequelize.query<{ permissions: Record<string, string[]> }>(`SELECT permissions FROM platform.roles WHERE workspace_id = '${workspaceId}'`, { type: QueryTypes.SELECT });
  t.deepEqual(roles[0].permissions, { notes: ['notes.notes.read', 'notes.notes.create'] });

  // Settings: the schema's fields, a refusal beside its field, then saved.
  t.is(await page.getByLabel('default title').inputValue(), 'Untitled');
  await page.getByLabel('max notes').fill('0');
  await page.getByRole('button', { name: 'Save settings of Notes' }).click();
  t.is(await page.locator('#se-notes-max_notes').textContent(), 'max_notes: must be >= 1');
  t.is(await page.getByLabel('max notes').inputValue(), '0');
  await checkPage(t, page, 'apps with a settings error (375 px)');
  await page.getByLabel('max notes').fill('7');
  await page.getByLabel('default title').fill('Memo');
  await page.getByRole('button', { name: 'Save settings of Notes' }).click();
  t.is(page.url(), web.url('acme', '/admin/apps?done=settings#app-notes'));
  t.is(await page.getByLabel('max notes').inputValue(), '7');
  t.is(await page.getByLabel('default title').inputValue(), 'Memo');

  const wide = await signedIn(t, 1280);
  await wide.goto(web.url('acme', '/admin/apps'));
  await checkPage(t, wide, 'apps (1280 px)');
});

test.serial('API keys: a scoped key from the scope picker (account.* and the installed app’s keys)', async (t) => {
  const page = await signedIn(t, 1280);
  await page.goto(web.url('acme', '/admin/api-keys'));
  await checkPage(t, page, 'api keys with the scope picker');
  t.deepEqual(await page.locator('fieldset.scopes legend').allTextContents(), ['Scopes: Account', 'Scopes: Notes']);
  await page.getByLabel('Only the scopes ticked below').check();
  await page.getByLabel('Read the member directory and avatars account.members.read').check();
  await page.getByLabel('Read notes notes.notes.read').check();
  await page.getByRole('button', { name: 'Create key' }).click();
  t.is(await page.locator('#e-name').textContent(), 'name is not allowed to be empty');
  // The choices survive the refusal.
  t.true(await page.getByLabel('Only the scopes ticked below').isChecked());
  t.true(await page.getByLabel('Read notes notes.notes.read').isChecked());
  await fillAndSubmit(page, { Name: 'Reader' }, 'Create key');
  t.regex((await page.locator('#new-secret').textContent()) ?? '', /^slk_/);
  const [key] = await web.env.runtime.db.sequelize.query<{ full_access: boolean; scopes: string[] }>(`SELECT full_access, scopes FROM platform.api_keys WHERE name = 'Reader'`, { type: QueryTypes.SELECT });
  t.deepEqual(key, { full_access: false, scopes: ['account.members.read', 'notes.notes.read'] });
});

test.serial('two-factor screen: set up with the key and a code (recovery codes once), then turn off with the password', async (t) => {
  const page = await signedIn(t, 375, { email: 'm01@acme.test', password: 'member-password-1' });
  await page.goto(web.url('acme', '/account/two-factor'));
  await checkPage(t, page, 'two-factor off');
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  const secret = (await page.locator('#totp-secret').textContent()) ?? '';
  t.regex(secret, /^[A-Z2-7]{16,}$/);
  t.regex((await page.getByRole('link', { name: 'Open in your authenticator app' }).getAttribute('href')) ?? '', /^otpauth:\/\/totp\//);
  await checkPage(t, page, 'two-factor set-up');
  await fillAndSubmit(page, { 'Code from the app': '000000' }, 'Turn on');
  t.is(await page.locator('#e-code').textContent(), 'Invalid TOTP code');
  t.is(await page.locator('#totp-secret').textContent(), secret, 'the key is shown again');
  await fillAndSubmit(page, { 'Code from the app': nodeTotp(secret) }, 'Turn on');
  t.is(await page.locator('#recovery-codes li').count(), 10);
  await checkPage(t, page, 'two-factor recovery codes');
  await page.goto(web.url('acme', '/account/two-factor'));
  t.is(await page.locator('#recovery-codes').count(), 0, 'the recovery codes are not shown again');
  await fillAndSubmit(page, { Password: 'wrong-password' }, 'Turn off');
  t.is(await page.locator('#e-password').textContent(), 'Invalid password');
  await checkPage(t, page, 'two-factor turn-off error');
  await fillAndSubmit(page, { Password: 'member-password-1' }, 'Turn off');
  t.is(page.url(), web.url('acme', '/account/two-factor?done=two-factor-off'));
  t.is(await page.getByRole('status').textContent(), 'Two-factor authentication is off.');
});

test.serial('members: filter and pages swap the list fragment in place with JavaScript, and work as plain links without it', async (t) => {
  const page = await signedIn(t, 1280);
  await page.goto(web.url('acme', '/admin/members?per_page=5'));
  t.deepEqual(await memberNames(page), ['Olive Owner', 'Member 01', 'Member 02', 'Member 03', 'Member 04']);
  // Mark the document: a full navigation would lose the mark, a partial swap keeps it.
  await page.evaluate('document.body.dataset.mark = "kept"');
  const swapped = page.waitForResponse((response) => response.url().includes('/partials/members?'));
  await page.getByRole('link', { name: 'Next page' }).click();
  t.is((await swapped).status(), 200);
  await page.waitForFunction('document.querySelector("#member-rows nav span").textContent.startsWith("Page 2")');
  t.deepEqual(await memberNames(page), ['Member 05', 'Member 06', 'Member 07', 'Member 08', 'Member 09']);
  t.is(await page.evaluate<string>('document.body.dataset.mark'), 'kept', 'no full page load');
  t.is(page.url(), web.url('acme', '/admin/members?per_page=5&page=2'), 'the address bar shows the full page');
  await checkPage(t, page, 'members page 2 (swapped)');
  await page.getByLabel('Show').selectOption('invited');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForFunction('document.querySelector("#member-rows nav span").textContent === "Page 1 of 1 (0 members)"');
  t.is(await page.evaluate<string>('document.body.dataset.mark'), 'kept');
  t.is(page.url(), web.url('acme', '/admin/members?state=invited&per_page=5'));
  // The same address loaded afresh gives the same list.
  await page.reload();
  t.is(await page.locator('#member-rows nav span').textContent(), 'Page 1 of 1 (0 members)');

  const plain = await signedIn(t, 375, { javaScript: false });
  await plain.goto(web.url('acme', '/admin/members?per_page=5'));
  await plain.getByRole('link', { name: 'Next page' }).click();
  t.is(plain.url(), web.url('acme', '/admin/members?per_page=5&page=2'));
  t.deepEqual(await memberNames(plain), ['Member 05', 'Member 06', 'Member 07', 'Member 08', 'Member 09']);
  await plain.getByLabel('Show').selectOption('joined');
  await plain.getByRole('button', { name: 'Filter' }).click();
  t.is(plain.url(), web.url('acme', '/admin/members?state=joined&per_page=5'));
  t.is(await plain.locator('#member-rows nav span').textContent(), 'Page 1 of 3 (12 members)');
  // axe runs as a script, so the 375 px check is made on the JavaScript profile.
  await page.setViewportSize({ width: 375, height: 900 });
  await page.goto(web.url('acme', '/admin/members?state=joined&per_page=5'));
  await checkPage(t, page, 'members filtered (375 px)');
});

test.serial('launcher: a member asks for access to an installed app they cannot open', async (t) => {
  const page = await signedIn(t, 375, { email: 'm02@acme.test', password: 'member-password-1' });
  t.is(page.url(), web.url('acme', '/'));
  t.deepEqual(await page.locator('ul.tiles li').allTextContents(), []);
  await checkPage(t, page, 'launcher with a request form (375 px)');
  await page.getByLabel('Note for the admins (optional)').fill('For the weekly notes');
  await page.getByRole('button', { name: 'Ask for access to Notes' }).click();
  t.is(page.url(), web.url('acme', '/?done=access-requested'));
  t.is(await page.getByRole('status').textContent(), 'Your request for access went to the owners and admins.');
  const [request] = await web.env.runtime.db.sequelize.query<{ kind: string; message: string }>("SELECT kind, message FROM platform.app_requests WHERE kind = 'access'", { type: QueryTypes.SELECT });
  t.deepEqual(request, { kind: 'access', message: 'For the weekly notes' });

  // The owner's bell: the request opens the Apps screen at Notes (its link is a page, not an API route).
  const owner = await signedIn(t, 1280);
  await owner.getByRole('button', { name: /^Notifications/ }).click();
  await owner.getByRole('button', { name: /Member 02 asks for access to Notes/ }).click();
  await owner.waitForURL(web.url('acme', '/admin/apps#app-notes'));
  t.is(await owner.getByRole('heading', { name: 'Notes (notes 1.0.0)' }).count(), 1);
});
