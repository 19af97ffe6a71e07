/**
 * The Tasks board is live, in Chromium with two members in two browser profiles: what one member
 * does on a board (adds a task, moves one) shows on the other's open board without a reload; and
 * when the live socket drops (the server closes every socket, as a restart does), the board comes
 * back on its own and catches up with what changed meanwhile (the socket resumes with `since`).
 */
import test from 'ava';
import { appFrame, browseWorld, cspViolations, signIn, type Frame, type Page, type WorldBrowser } from '@wpk/testing/browser';
import { ok } from '@wpk/testing';
import { tasksWorld, type Caller, type World } from './helpers/world.js';

let web: WorldBrowser;
let world: World;
let origin: string;
let colleague: Caller;

test.before(async () => {
  web = await browseWorld(tasksWorld('livecorp', { listen: true }));
  ({ world, origin } = web);
  colleague = await world.member(['tasks.boards.read', 'tasks.tasks.read', 'tasks.tasks.create', 'tasks.tasks.edit'], { name: 'Colleague' });
});

test.after.always(() => web?.close());

/** Signs `email` in, in a profile of its own, and opens the board's page. */
async function openBoard(email: string, boardId: string): Promise<{ page: Page; frame: Frame }> {
  const page = await web.newPage();
  await signIn(page, origin, email);
  await page.goto(`${origin}/app/tasks/boards/${boardId}`);
  const frame = await appFrame(page, 'tasks-board');
  await frame.getByRole('heading', { name: 'Launch', level: 1 }).waitFor();
  return { page, frame };
}

const laneOf = (frame: Frame, lane: string) => frame.locator('section', { has: frame.getByRole('heading', { name: new RegExp(`^${lane}`) }) });

test.serial("a colleague's new task and move show on the owner's open board without a reload, and again after the socket drops", async (t) => {
  const board = ok(await world.owner.request('POST', '/boards', { title: 'Launch' }));
  t.is((await world.owner.request('POST', `/boards/${board.id}/members`, { member_id: colleague.id, role: 'editor' })).status, 200);
  const first = ok(await world.owner.request('POST', '/tasks', { title: 'Write the launch post', board_id: board.id }));

  const owner = await openBoard(world.owner.email, board.id);
  const mate = await openBoard(colleague.email, board.id);
  await laneOf(owner.frame, 'To do').locator('article', { hasText: 'Write the launch post' }).waitFor();

  // The colleague adds a task in their browser: it appears on the owner's board.
  await mate.frame.getByLabel('New task').fill('Book the venue');
  await mate.frame.getByRole('button', { name: 'Add task' }).click();
  await mate.frame.locator('article', { hasText: 'Book the venue' }).waitFor();
  await laneOf(owner.frame, 'To do').locator('article', { hasText: 'Book the venue' }).waitFor({ timeout: 10_000 });

  // The colleague moves the first task on with the keyboard: it changes lanes on the owner's board.
  await mate.frame.locator('article[data-task]', { hasText: 'Write the launch post' }).focus();
  await mate.page.keyboard.press('Alt+ArrowRight');
  await mate.frame.getByRole('status').filter({ hasText: `${first.key} moved to In progress` }).waitFor({ state: 'attached' });
  await laneOf(owner.frame, 'In progress').locator('article', { hasText: 'Write the launch post' }).waitFor({ timeout: 10_000 });
  t.is(await laneOf(owner.frame, 'To do').locator('article', { hasText: 'Write the launch post' }).count(), 0);

  // Every live socket is closed by the server (as when it restarts); while they are down the
  // colleague adds another task. The owner's board reconnects by itself and shows it.
  const hub = world.platform.runtime.server.plugins.live.hub;
  t.true(hub.size >= 2, 'both boards hold a live socket');
  await hub.stop();
  t.is(hub.size, 0);
  t.is((await colleague.request('POST', '/tasks', { title: 'Order the banners', board_id: board.id })).status, 200);
  await laneOf(owner.frame, 'To do').locator('article', { hasText: 'Order the banners' }).waitFor({ timeout: 15_000 });
  t.true(hub.size >= 1, 'the board opened a new socket');

  // And it stays live on the new socket: the colleague's next move shows too.
  const banners = (ok(await colleague.request('GET', `/tasks?board_id=${board.id}&per_page=100`)) as Array<{ id: string; title: string }>).find((task) => task.title === 'Order the banners')!;
  t.is((await colleague.request('PATCH', `/tasks/${banners.id}`, { lane: 'Done' })).status, 200);
  await laneOf(owner.frame, 'Done').locator('article', { hasText: 'Order the banners' }).waitFor({ timeout: 10_000 });

  t.deepEqual(await cspViolations(owner.page), []);
  await owner.page.context().close();
  await mate.page.context().close();
});
