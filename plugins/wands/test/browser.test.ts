/**
 * The Wands app's front-end in Chromium, through the real routes: a member opens Wands from the
 * launcher, makes a wand that tells them to follow up when a deal is won and posts a kick-off task
 * as them (a refused filter shows on its field first), a deal is won in the CRM, and they watch the
 * run and its per-step log; the task is in Tasks with them as its creator. At
 * 1280 px and at 375 px, axe-clean (no serious or critical violation) in the shell and in the
 * frame, no Content-Security-Policy violation, nothing wider than the window. The screenshots are
 * the ones docs/apps/wands.md shows.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type TestMember } from '@wpk/testing';
import { browseWorld, checkPage, dismissToasts, saveScreenshot, type WorldBrowser } from '@wpk/testing/browser';

const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));
const OTHER_APPS = ['crm', 'tasks'].map((slug) => fileURLToPath(new URL(`../../${slug}`, import.meta.url)));
const KEYS = ['wands.wands.read', 'wands.wands.manage', 'tasks.tasks.create'];

let web: WorldBrowser;
let ann: TestMember;

test.before(async () => {
  web = await browseWorld(startWorld({ app: fileURLToPath(new URL('..', import.meta.url)), subdomain: 'acme', listen: true, apps: OTHER_APPS, firstParty: ['wands', 'crm', 'tasks'], clock: new Date('2026-05-20T09:00:00.000Z') }), { link: 'Wands', slug: 'wands', ready: 'wands-list' });
  await web.world.workspace.install('tasks', { access_policy: 'everyone' });
  ann = await web.world.member(KEYS, { name: 'Ann Sales' });
});

test.after.always(() => web?.close());

test.serial('at 1280 px: a member makes a wand for won deals and watches its run', async (t) => {
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await frame.getByText('No wand yet.').waitFor();
  await checkPage(t, page, frame, 'no wand yet');

  await frame.getByLabel('Name').fill('Follow up won deals');
  await frame.locator('wa-select[name="action"]').click();
  await frame.getByRole('option', { name: 'A deal is won' }).click();
  await frame.getByLabel('Only if (JSONata)').fill('$number(payload.amount) >=');
  await frame.getByLabel('Notify me with the subject').fill('Deal won: follow up');
  await frame.getByLabel('Message (JSONata)').fill('"Post the kick-off task for " & trigger.payload.title');
  await frame.getByLabel('Also add a task titled (JSONata)').fill('"Kick-off for " & trigger.payload.title');
  await frame.getByRole('button', { name: 'Make and activate' }).click();
  const filter = frame.locator('wa-textarea[name="filter"]');
  await filter.getByText('is not a valid JSONata expression', { exact: false }).waitFor();
  t.is(await filter.getAttribute('aria-invalid'), 'true');
  await checkPage(t, page, frame, 'the form with a refusal on a field');

  await frame.getByLabel('Only if (JSONata)').fill('$number(payload.amount) >= 1000');
  await frame.getByRole('button', { name: 'Make and activate' }).click();
  const wands = frame.getByRole('list', { name: 'My wands' });
  await wands.getByText('Active · version 1').waitFor();
  const [wand] = ok(await ann.get('/wands'));
  t.like(wand, { name: 'Follow up won deals', status: 'active', version: 1, scopes: ['tasks.tasks.create'] });
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}wands-make-1280.png`);

  const deal = crypto.randomUUID();
  await web.world.deliver('core.crm.deal.won', { deal_id: deal, deal_mrn: `mrn:crm:deal:${deal}`, title: 'Acme renewal', pipeline_id: crypto.randomUUID(), stage_id: crypto.randomUUID(), amount: '4800.00', currency: 'EUR', lines: [] });
  await wands.getByRole('link', { name: 'Follow up won deals' }).click();
  const runs = frame.getByRole('list', { name: 'Runs' });
  await runs.getByText('Completed', { exact: true }).waitFor();
  t.true((await runs.textContent())!.includes('Post the kick-off task for Acme renewal'));
  t.true((await runs.textContent())!.includes('Kick-off for Acme renewal'));
  t.deepEqual(await web.world.query("SELECT title, creator_id::text AS creator_id FROM app_tasks.tasks"), [{ title: 'Kick-off for Acme renewal', creator_id: ann.id }]);
  await checkPage(t, page, frame, 'a wand and its run');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}wands-run-1280.png`);
  await page.context().close();
});

test.serial('at 375 px: a wand and its run read on a phone', async (t) => {
  const { page, frame } = await web.openApp(375, { email: ann.email });
  await frame.getByRole('list', { name: 'My wands' }).getByRole('link', { name: 'Follow up won deals' }).click();
  await frame.getByRole('list', { name: 'Runs' }).getByText('Completed', { exact: true }).waitFor();
  await checkPage(t, page, frame, 'a run at 375 px');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}wands-run-375.png`);
  await page.context().close();
});
