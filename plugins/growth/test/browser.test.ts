/**
 * The Growth app's front-end in Chromium, through the real routes: a person signs in, opens
 * Growth from the launcher, sees the goals with their progress, and runs a review cycle to
 * release: HR starts it and moves it step by step, the reviewed worker writes their self review
 * in their own browser, their manager writes the manager review in theirs, and once released the
 * worker reads their review whole with the weighted final score. Then praise is given and a key
 * result checked in; a competency is added. At 1280 px and at 375 px, axe-clean in the shell and
 * in the frame, no Content-Security-Policy violation, nothing wider than the window. The
 * screenshots are the ones docs/apps/growth.md shows.
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
  report = await world.member(['growth.reviews.read', 'growth.cycles.read', 'growth.goals.read', 'growth.goals.edit', 'growth.one_on_ones.read', 'growth.one_on_ones.create', 'growth.feedback.create', 'growth.praises.create'], { name: 'Rae Report' });
  const hired = (id: string, name: string, memberId: string, managerId?: string) => ({ worker_id: id, mrn: `mrn:workers:worker:${id}`, name, work_email: `${id.slice(-2)}@acme.test`, member_id: memberId, ...(managerId ? { manager_id: managerId } : {}), status: 'active', revision: 1 });
  await world.deliver('core.workers.worker.hired', hired(OWNER_WORKER, 'Olivia Owner', world.owner.id));
  await world.deliver('core.workers.worker.hired', hired(REPORT_WORKER, 'Rae Report', report.id, OWNER_WORKER));
  ok(await world.owner.post('/growth/goals', { title: 'Launch the mobile app', owner_type: 'company', key_results: [{ title: 'Stores live', target: 2, current: 1 }] }));
});

test.after.always(() => web?.close());

test.serial('at 1280 px: run a cycle to release: the worker writes the self review, the manager the manager review, the worker reads the released review', async (t) => {
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

  // The worker, in their own browser, writes the self review.
  const worker = await web.openApp(1280, { email: report.email });
  await worker.frame.getByRole('link', { name: 'Reviews' }).click();
  await worker.page.waitForURL(`${web.origin}/app/growth/reviews`);
  const own = worker.frame.getByRole('listitem', { name: 'Your review' });
  await own.getByLabel('Score (1 to 5)').fill('4');
  await own.getByLabel('Comment').fill('Shipped the app');
  await own.getByRole('button', { name: 'Save the self review' }).click();
  await own.getByText('4 · Shipped the app').waitFor();
  await checkPage(t, worker.page, worker.frame, 'the self review');
  await dismissToasts(worker.page);
  await saveScreenshot(worker.page, `${IMAGES}growth-self-review-1280.png`);
  await worker.page.context().close();

  await move('Peer review').click();
  await move('Manager review').click();
  await frame.getByText('Manager review', { exact: true }).waitFor();

  // The manager writes theirs on the Reviews screen.
  await frame.getByRole('link', { name: 'Reviews' }).click();
  await page.waitForURL(`${web.origin}/app/growth/reviews`);
  const theirs = frame.getByRole('listitem', { name: 'Review of Rae Report' });
  await theirs.getByText('4 · Shipped the app').waitFor();
  await theirs.getByLabel('Score (1 to 5)').fill('5');
  await theirs.getByLabel('Comment').fill('Outstanding');
  await theirs.getByRole('button', { name: 'Save the manager review' }).click();
  await theirs.getByText('5 · Outstanding').waitFor();
  await checkPage(t, page, frame, 'the manager review');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}growth-manager-review-1280.png`);

  await frame.getByRole('link', { name: 'Review cycles' }).click();
  await move('Calibration').click();
  await move('Released').click();
  await move('Closed').waitFor();
  await frame.getByRole('button', { name: 'H1 2026', exact: true }).click();
  const row = reviews.getByRole('row').filter({ hasText: 'Rae Report' });
  await row.waitFor();
  t.deepEqual(await row.getByRole('cell').allTextContents(), ['Rae Report', '4', '5', '4.71']);
  await checkPage(t, page, frame, 'a released cycle');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}growth-cycle-released-1280.png`);
  await page.context().close();

  // The worker reads their released review whole.
  const after = await web.openApp(1280, { email: report.email });
  await after.frame.getByRole('link', { name: 'Reviews' }).click();
  const released = after.frame.getByRole('listitem', { name: 'Your review' });
  await released.getByText('5 · Outstanding').waitFor();
  await released.getByText('4.71').waitFor();
  t.is(await released.getByRole('button', { name: /^Save/ }).count(), 0, 'nothing left to write');
  const cycle = (await web.world.owner.get('/growth/cycles')).body.data[0];
  const mine = ok(await report.get(`/growth/reviews?cycle_id=${cycle.id}`)).find((review: any) => review.worker_id === REPORT_WORKER);
  t.like(mine, { self_score: 4, self_comment: 'Shipped the app', manager_score: 5, manager_comment: 'Outstanding', final_score: 4.71, cycle_status: 'released' });
  await checkPage(t, after.page, after.frame, 'the released review');
  await saveScreenshot(after.page, `${IMAGES}growth-released-review-1280.png`);
  await after.page.context().close();
});

test.serial('at 1280 px: give praise, check in a key result, add a competency', async (t) => {
  const { page, frame } = await web.openApp(1280);
  await frame.getByRole('link', { name: 'Conversations' }).click();
  await page.waitForURL(`${web.origin}/app/growth/conversations`);
  web.world.takeEvents();
  await frame.locator('wa-select[name="receiver_id"]').click();
  await frame.getByRole('option', { name: 'Rae Report' }).click();
  await frame.getByLabel('Message').fill('Great launch');
  await frame.getByRole('button', { name: 'Give praise' }).click();
  await frame.getByRole('list', { name: 'Praise' }).getByText('Great launch').waitFor();
  const praised = ok(await report.get('/growth/praise'));
  t.deepEqual(praised.map((row: any) => [row.giver_id, row.receiver_id, row.message]), [[web.world.owner.id, report.id, 'Great launch']]);
  t.deepEqual(web.world.takeEvents().map((event) => [event.action, event.payload.message]), [['core.growth.praise.given', 'Great launch']]);
  await checkPage(t, page, frame, 'praise');

  // A 1:1 with the report: scheduled with its agenda and an action item, then the item ticked and the notes written.
  await frame.locator('wa-select[name="attendee_id"]').click();
  await frame.getByRole('option', { name: 'Rae Report' }).click();
  await frame.getByLabel('On', { exact: true }).fill('2026-12-01');
  await frame.getByLabel('Agenda, one item per line').fill('Career\nBlockers');
  await frame.getByLabel('Action items, one per line').fill('Read the ladder');
  await frame.getByRole('button', { name: 'Schedule 1:1' }).click();
  await frame.getByRole('list', { name: 'Agenda of 2026-12-01' }).getByText('Blockers').waitFor();
  await frame.getByRole('checkbox', { name: 'Read the ladder' }).check();
  await frame.getByLabel('Notes of 2026-12-01').fill('Wants to lead a project');
  await frame.getByRole('button', { name: 'Save the notes of 2026-12-01' }).click();
  await t.notThrowsAsync(async () => {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const [meeting] = ok(await report.get('/growth/one-on-ones'));
      if (meeting?.notes === 'Wants to lead a project' && meeting.action_items[0]?.done) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the notes and the tick did not reach the 1:1');
  });
  t.like(ok(await report.get('/growth/one-on-ones'))[0], { organizer_id: web.world.owner.id, attendee_id: report.id, scheduled_on: '2026-12-01', agenda: ['Career', 'Blockers'], notes: 'Wants to lead a project', action_items: [{ text: 'Read the ladder', done: true }] });
  await frame.getByRole('checkbox', { name: 'Read the ladder', checked: true }).waitFor();
  await checkPage(t, page, frame, 'a 1:1');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}growth-one-on-one-1280.png`);

  await frame.getByRole('link', { name: 'Check-ins' }).click();
  const goal = frame.getByRole('listitem', { name: 'Launch the mobile app' });
  await goal.getByText('Stores live: 1 of 2 (50%)').waitFor();
  await goal.getByLabel('New value of Stores live').fill('2');
  await goal.getByLabel('Note on Stores live').fill('Android is live');
  await goal.getByRole('button', { name: 'Check in Stores live' }).click();
  await goal.getByText('Stores live: 2 of 2 (100%)').waitFor();
  const [launched] = ok(await web.world.owner.get('/growth/goals'));
  t.like(launched, { title: 'Launch the mobile app', progress: 100 });
  await checkPage(t, page, frame, 'a check-in');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}growth-check-in-1280.png`);

  await frame.getByRole('link', { name: 'Competencies' }).click();
  await frame.getByLabel('Name').fill('Communication');
  await frame.getByLabel('Levels, lowest first, one per line').fill('Explains own work\nExplains to other teams');
  await frame.getByRole('button', { name: 'Add competency' }).click();
  await frame.getByRole('list', { name: 'Levels of Communication' }).getByText('Explains to other teams').waitFor();
  t.deepEqual((await web.world.owner.get('/growth/competencies')).body.data.map((row: any) => [row.name, row.levels.length]), [['Communication', 2]]);
  await checkPage(t, page, frame, 'the competencies');
  await page.context().close();
});

test.serial('at 375 px: the goals, the cycles and a released review read on a phone', async (t) => {
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

  const worker = await web.openApp(375, { email: report.email });
  await worker.frame.getByRole('link', { name: 'Reviews' }).click();
  await worker.frame.getByRole('listitem', { name: 'Your review' }).getByText('4.71').waitFor();
  await checkPage(t, worker.page, worker.frame, 'the released review at 375 px');
  await saveScreenshot(worker.page, `${IMAGES}growth-released-review-375.png`);
  await worker.frame.getByRole('link', { name: 'Conversations' }).click();
  await worker.frame.getByRole('list', { name: 'Praise' }).getByText('Great launch').waitFor();
  await checkPage(t, worker.page, worker.frame, 'conversations at 375 px');
  await worker.page.context().close();
});
