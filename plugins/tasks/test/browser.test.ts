/**
 * The Tasks app's front-end in Chromium, through the real routes: a person signs in on the
 * workspace's sign-in page, opens Tasks from the launcher (the shell hosts the app's sandboxed
 * frame), makes a board, adds a task, drags it to another lane and moves it on with the keyboard,
 * and comments on it; at 1280 px and at 375 px, axe-clean (no serious or critical violation) in the
 * shell and in the frame, no Content-Security-Policy violation, nothing wider than the window.
 * The screenshots are the ones docs/apps/tasks.md shows.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { appFrame, browseWorld, checkPage, saveScreenshot, type WorldBrowser } from '@wpk/testing/browser';
import { tasksWorld, type World } from './helpers/world.js';

const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));

let web: WorldBrowser;
let world: World;
let origin: string;

test.before(async () => {
  web = await browseWorld(tasksWorld('acme', { listen: true }), { link: 'Tasks', slug: 'tasks', ready: 'tasks-boards' });
  ({ world, origin } = web);
});

test.after.always(() => web?.close());

const taskIn = async (key: string) => {
  const tasks = (await world.owner.request('GET', '/tasks?per_page=100')).body.data as Array<{ key: string; lane: string; id: string }>;
  return tasks.find((task) => task.key === key)!;
};

test.serial('at 1280 px: sign in, open Tasks, make a board, add a task, drag it and move it by keyboard, comment', async (t) => {
  const { page, frame } = await web.openApp(1280);
  await checkPage(t, page, frame, 'boards, empty');

  await frame.getByLabel('Title').fill('Launch');
  await frame.getByRole('button', { name: 'Create board' }).click();
  await page.waitForURL(/\/app\/tasks\/boards\/[0-9a-f-]+$/);
  await frame.getByRole('heading', { name: 'Launch', level: 1 }).waitFor();

  await frame.getByLabel('New task').fill('Write the launch post');
  await frame.getByRole('button', { name: 'Add task' }).click();
  const card = frame.locator('article', { hasText: 'Write the launch post' });
  await card.waitFor();
  t.is(await card.locator('.key').textContent(), 'ACME-1');
  t.is((await taskIn('ACME-1')).lane, 'To do');

  // Drag and drop onto the next lane.
  await card.dragTo(frame.locator('section', { has: frame.getByRole('heading', { name: /^In progress/ }) }));
  await frame.getByRole('status').filter({ hasText: 'ACME-1 moved to In progress' }).waitFor({ state: 'attached' });
  t.is((await taskIn('ACME-1')).lane, 'In progress');

  // The keyboard alternative: Alt+→ on the focused card.
  await frame.locator('article[data-task]', { hasText: 'ACME-1' }).focus();
  await page.keyboard.press('Alt+ArrowRight');
  await frame.getByRole('status').filter({ hasText: 'ACME-1 moved to Done' }).waitFor({ state: 'attached' });
  t.is((await taskIn('ACME-1')).lane, 'Done');
  await frame.getByLabel('New task').fill('Book the venue');
  await frame.getByRole('button', { name: 'Add task' }).click();
  await frame.locator('article', { hasText: 'Book the venue' }).waitFor();
  await checkPage(t, page, frame, 'a board');
  await saveScreenshot(page, `${IMAGES}tasks-board-1280.png`);

  // The shell's search finds the task by its key; the app opens it, and a comment goes on it.
  await page.keyboard.press('Control+k');
  await page.keyboard.type('ACME-1');
  const result = page.getByRole('option').first();
  await result.filter({ hasText: 'Write the launch post' }).waitFor();
  await result.click();
  await page.waitForURL(`${origin}/app/tasks/tasks/${(await taskIn('ACME-1')).id}`);
  const detail = await appFrame(page, 'tasks-task');
  await detail.getByRole('heading', { name: /ACME-1/ }).waitFor();
  await detail.getByLabel('Add a comment').fill('Draft is in the shared folder.');
  await detail.getByRole('button', { name: 'Comment' }).click();
  await detail.getByText('Draft is in the shared folder.').waitFor();
  const comments = (await world.owner.request('GET', `/tasks/${(await taskIn('ACME-1')).id}/comments`)).body.data;
  t.deepEqual(comments.map((comment: { body: string }) => comment.body), ['Draft is in the shared folder.']);
  await checkPage(t, page, detail, 'a task');
  await page.context().close();
});

test.serial('at 375 px: the board reads on a phone, and a task moves by keyboard', async (t) => {
  const { page, frame } = await web.openApp(375);
  await checkPage(t, page, frame, 'boards at 375 px');
  await frame.getByRole('link', { name: 'Launch' }).click();
  await frame.getByRole('heading', { name: 'Launch', level: 1 }).waitFor();
  await frame.locator('article', { hasText: 'Book the venue' }).focus();
  await page.keyboard.press('Alt+ArrowRight');
  await frame.getByRole('status').filter({ hasText: 'ACME-2 moved to In progress' }).waitFor({ state: 'attached' });
  t.is((await taskIn('ACME-2')).lane, 'In progress');
  await checkPage(t, page, frame, 'a board at 375 px');
  await saveScreenshot(page, `${IMAGES}tasks-board-375.png`);

  // Signed out elsewhere (the real DELETE /sessions with this browser's cookie): the app's token
  // dies with the session, and the next action sends the person to sign in, and back here after.
  const cookie = (await page.context().cookies()).find((entry) => entry.name === 'wpk_session')!;
  const signedOut = await world.platform.runtime.server.inject({ method: 'DELETE', url: '/sessions', headers: { host: new URL(origin).host, 'x-api-version': '2026-11-01', origin, cookie: `wpk_session=${cookie.value}` } });
  t.is(signedOut.statusCode, 200);
  const boardPath = new URL(page.url()).pathname;
  await frame.getByLabel('New task').fill('After signing out');
  await frame.getByRole('button', { name: 'Add task' }).click();
  // Two things may send the shell to sign in (the click's refused request and the live socket's),
  // the second navigation aborting the first (net::ERR_ABORTED in waitForURL): wait for where it lands.
  const signIn = `${origin}/login?next=${encodeURIComponent(boardPath)}`;
  for (let waited = 0; page.url() !== signIn && waited < 30_000; waited += 100) await page.waitForTimeout(100);
  t.is(page.url(), signIn);
  await page.waitForLoadState('load');
  t.is((await world.owner.request('GET', '/tasks?q=After%20signing%20out')).body.data.length, 0);
  await page.context().close();
});
