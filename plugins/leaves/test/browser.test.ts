/**
 * The Leaves app's front-end in Chromium, through the real routes: a worker signs in, opens Leaves
 * from the launcher, sees their balance, asks for a week off (the server's refusal of a span with
 * no working day shows on its field), and their manager signs in and approves it from Approvals;
 * the balance and Who is out follow. At 1280 px and at 375 px, axe-clean (no serious or critical
 * violation) in the shell and in the frame, no Content-Security-Policy violation, nothing wider
 * than the window. The screenshots are the ones docs/apps/leaves.md shows.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type TestMember } from '@wpk/testing';
import { browseWorld, checkPage, dismissToasts, saveScreenshot, type WorldBrowser } from '@wpk/testing/browser';

const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));
const OTHER_APPS = ['workers', 'settings'].map((slug) => fileURLToPath(new URL(`../../${slug}`, import.meta.url)));
const STAFF_KEYS = ['leaves.types.read', 'leaves.requests.create', 'leaves.absences.read'];

let web: WorldBrowser;
let ann: TestMember;
let grace: TestMember;
const ids: Record<string, string> = {};

test.before(async () => {
  web = await browseWorld(startWorld({ app: fileURLToPath(new URL('..', import.meta.url)), subdomain: 'acme', listen: true, apps: OTHER_APPS, firstParty: ['leaves', 'workers', 'settings'], clock: new Date('2026-05-20T09:00:00.000Z') }), { link: 'Leaves', slug: 'leaves', ready: 'leaves-mine' });
  const { world } = web;
  grace = await world.member(STAFF_KEYS, { name: 'Grace Boss' });
  ann = await world.member(STAFF_KEYS, { name: 'Ann Staff' });
  const hire = async (name: string, member: TestMember, manager?: string) => {
    const id = crypto.randomUUID();
    await world.deliver('core.workers.worker.hired', { worker_id: id, mrn: `mrn:workers:worker:${id}`, name, work_email: member.email, member_id: member.id, status: 'active', revision: 1, ...(manager ? { manager_id: manager } : {}) });
    return id;
  };
  ids.grace = await hire('Grace Boss', grace);
  ids.ann = await hire('Ann Staff', ann, ids.grace);
  ids.type = ok(await world.owner.post('/leaves/types', { name: 'Paid leave', unit: 'half_day' })).id;
  ok(await world.owner.post('/leaves/allocations', { worker_id: ids.ann, type_id: ids.type, amount: 25 }));
});

test.after.always(() => web?.close());

test.serial('at 1280 px: a worker asks for a week off, their manager approves it, the balance and Who is out follow', async (t) => {
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  const balances = frame.getByRole('table', { name: 'My balances' });
  await balances.getByRole('cell', { name: '25 days' }).first().waitFor();
  await checkPage(t, page, frame, 'my time off');

  await frame.locator('wa-select[name="type_id"]').click();
  await frame.getByRole('option', { name: 'Paid leave' }).click();
  await frame.getByLabel('First day').fill('2026-06-06');
  await frame.getByLabel('Last day').fill('2026-06-07');
  await frame.getByRole('button', { name: 'Request time off' }).click();
  const first = frame.locator('wa-input[name="from_date"]');
  await first.getByText('2026-06-06 to 2026-06-07 covers no working time (weekends and public holidays count 0): the duration would be 0').waitFor();
  t.is(await first.getAttribute('aria-invalid'), 'true');
  await checkPage(t, page, frame, 'the form with a refusal on a field');

  await frame.getByLabel('First day').fill('2026-06-08');
  await frame.getByLabel('Last day').fill('2026-06-12');
  await frame.getByRole('button', { name: 'Request time off' }).click();
  const mine = frame.getByRole('list', { name: 'My requests' });
  await mine.getByText('Waiting for approval').waitFor();
  t.true((await mine.textContent())!.includes('2026-06-08 → 2026-06-12 · 5 days'));
  await balances.getByRole('cell', { name: '20 days' }).waitFor();
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}leaves-request-1280.png`);
  await page.context().close();

  const manager = await web.openApp(1280, { email: grace.email });
  await manager.frame.getByRole('link', { name: 'Approvals' }).click();
  await manager.page.waitForURL(`${web.origin}/app/leaves/approvals`);
  const waiting = manager.frame.getByRole('list', { name: 'Waiting for your decision' });
  await waiting.getByText('Ann Staff').waitFor();
  await checkPage(t, manager.page, manager.frame, 'approvals');
  await dismissToasts(manager.page);
  await saveScreenshot(manager.page, `${IMAGES}leaves-approvals-1280.png`);
  await waiting.getByRole('button', { name: 'Approve' }).click();
  await manager.frame.getByText('Nothing waits for your decision.').waitFor();
  const approved = ok(await ann.get('/leaves/requests'));
  t.deepEqual(approved.map((row: any) => [row.from_date, row.to_date, row.duration, row.status, row.decided_by]), [['2026-06-08', '2026-06-12', 5, 'approved', grace.id]]);
  t.like(ok(await ann.get('/leaves/balances'))[0], { balance: 20, pending: 0, available: 20 });

  await manager.frame.getByRole('link', { name: 'Who is out' }).click();
  await manager.frame.getByLabel('Month').fill('2026-06');
  await manager.frame.getByLabel('Month').dispatchEvent('change');
  await manager.frame.getByRole('table', { name: 'Who is out' }).getByRole('cell', { name: 'Ann Staff' }).waitFor();
  await checkPage(t, manager.page, manager.frame, 'who is out');
  await manager.page.context().close();
});

test.serial('at 375 px: my time off reads on a phone', async (t) => {
  const { page, frame } = await web.openApp(375, { email: ann.email });
  await frame.getByRole('list', { name: 'My requests' }).getByText('Approved').waitFor();
  await checkPage(t, page, frame, 'my time off at 375 px');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}leaves-mine-375.png`);
  await page.context().close();
});
