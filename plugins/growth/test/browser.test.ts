/**
 * The Growth app's front-end in Chromium, through the real routes: a person signs in, opens
 * Growth from the launcher, sees the goals with their progress, starts a review cycle and moves
 * it step by step to release while the reviewed worker and their manager write their parts, and
 * reads the weighted final score; adds a competency with its levels; at 1280 px and at 375 px,
 * axe-clean in the shell and in the frame, no Content-Security-Policy violation, nothing wider
 * than the window. The screenshots are the ones docs/apps/growth.md shows.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type TestMember } from '@wpk/testing';
import { browseWorld, checkPage, dismissToasts, saveScreenshot, type WorldBrowser } from '@wpk/testing/browser';

const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));
const OWNER_WORKER = '0d7c2a1e-5b1f-4c55-9d7e-1a2b3c4d5e01';
const REPORT_WORKER = '0d7c2a1e-5b1f-4c55-9d7e-1a2b3c4d5e02';

let web: WorldBrowser;
let report: TestMember;

test.before(async () => {
  web = await browseWorld(startWorld({ app: fileURLToPath(new URL('..', import.meta.url)), apps: [fileURLToPath(new URL('../../workers', import.meta.url))], subdomain: 'acme', listen: true }), { link: 'Growth', slug: 'growth', ready: 'growth-goals' });
  const { world } = web;
  report = await world.member(['growth.reviews.read']);
  const hired = (id: string, name: string, memberId: string, managerId?: string) => ({ worker_id: id, mrn: `mrn:workers:worker:${id}`, name, work_email: `${id.slice(-2)}@acme.test`, member_id: memberId, ...(managerId ? { manager_id: managerId } : {}), status: 'active', revision: 1 });
  await world.deliver('core.workers.worker.hired', hired(OWNER_WORKER, 'Olivia Owner', world.owner.id));
  await world.deliver('core.workers.worker.hired', hired(REPORT_WORKER, 'Rae Report', report.id, OWNER_WORKER));
  ok(await world.owner.post('/growth/goals', { title: 'Launch the mobile app', owner_type: 'company', key_results: [{ title: 'Stores live', target: 2, current: 1 }] }));
});

test.after.always(() => web?.close());

test.serial('at 1280 px: run a review cycle to release and read the final score; add a competency', async (t) => {
  const { page, frame } = await web.openApp(1280);
  const goals = frame.getByRole('table', { name: "The workspace's goals" });
  await goals.getByText('Launch the mobile app').waitFor();
  await goals.getByText('50%').waitFor();
  await checkPage(t, page, frame, 'the goals');

  await frame.getByRole('link', { name: 'Review cycles' }).click();
  await page.waitForURL(`${web.origin}/app/growth/cycles`);
  await frame.getByLabel('Name').fill('H1 2026');
  await frame.getByRole('button', { name: 'Start cycle' }).click();
  const move = (to: string) => frame.getByRole('button', { name: `Move H1 2026 to ${to}` });
  await move('Self review').click();
  const reviews = frame.getByRole('table', { name: 'Reviews' });
  await reviews.getByText('Rae Report').waitFor();
  const cycle = (await web.world.owner.get('/growth/cycles')).body.data[0];
  const theirs = (await web.world.owner.get(`/growth/reviews?cycle_id=${cycle.id}`)).body.data.find((review: any) => review.worker_id === REPORT_WORKER);
  ok(await report.put(`/growth/reviews/${theirs.id}`, { score: 4, comment: 'Shipped the app' }));
  await move('Peer review').click();
  await move('Manager review').click();
  await frame.getByText('Manager review', { exact: true }).waitFor();
  ok(await web.world.owner.put(`/growth/reviews/${theirs.id}`, { score: 5, comment: 'Outstanding' }));
  await move('Calibration').click();
  await move('Released').click();
  await move('Closed').waitFor();
  const row = reviews.getByRole('row').filter({ hasText: 'Rae Report' });
  t.deepEqual(await row.getByRole('cell').allTextContents(), ['Rae Report', '4', '5', '4.71']);
  t.is((await web.world.owner.get(`/growth/reviews/${theirs.id}`)).body.data.final_score, 4.71);
  await checkPage(t, page, frame, 'a released cycle');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}growth-cycle-released-1280.png`);

  await frame.getByRole('link', { name: 'Competencies' }).click();
  await frame.getByLabel('Name').fill('Communication');
  await frame.getByLabel('Levels, lowest first, one per line').fill('Explains own work\nExplains to other teams');
  await frame.getByRole('button', { name: 'Add competency' }).click();
  await frame.getByRole('list', { name: 'Levels of Communication' }).getByText('Explains to other teams').waitFor();
  t.deepEqual((await web.world.owner.get('/growth/competencies')).body.data.map((row: any) => [row.name, row.levels.length]), [['Communication', 2]]);
  await checkPage(t, page, frame, 'the competencies');
  await page.context().close();
});

test.serial('at 375 px: the goals and the cycles read on a phone', async (t) => {
  const { page, frame } = await web.openApp(375);
  await frame.getByRole('table', { name: "The workspace's goals" }).getByText('Launch the mobile app').waitFor();
  await checkPage(t, page, frame, 'the goals at 375 px');
  await frame.getByRole('link', { name: 'Review cycles' }).click();
  await frame.getByRole('button', { name: 'H1 2026', exact: true }).click();
  await frame.getByRole('table', { name: 'Reviews' }).getByText('Rae Report').waitFor();
  await checkPage(t, page, frame, 'the cycles at 375 px');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}growth-cycles-375.png`);
  await page.context().close();
});
