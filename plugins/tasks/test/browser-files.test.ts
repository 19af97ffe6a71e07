/**
 * The kit's file picker in a real app page, through the shell's bridge: on a task's page the
 * person chooses files from the Files app in the shell's picker (`GET /search?app=files`, run by
 * the shell as the member), and they go on the task as deliverables linking to the files; a link
 * opens the file in Files. In Chromium at 1280 px, axe-clean, no CSP violation.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type World } from '@wpk/testing';
import { accessibilityViolations, appFrame, browseWorld, cspViolations, type WorldBrowser } from '@wpk/testing/browser';

const TASKS_DIR = fileURLToPath(new URL('..', import.meta.url));
const FILES_DIR = fileURLToPath(new URL('../../files', import.meta.url));

let web: WorldBrowser;
let world: World;
let origin: string;

test.before(async () => {
  web = await browseWorld(startWorld({ app: TASKS_DIR, apps: [FILES_DIR], subdomain: 'attach', listen: true, install: { access_policy: 'roles' } }));
  ({ world, origin } = web);
  await world.workspace.install('files');
});

test.after.always(() => web?.close());

/** Uploads a file as the owner through the API and its signed link; answers the file's id. */
async function upload(name: string, body: string): Promise<string> {
  const started = ok(await world.owner.post('/uploads', { name, size_bytes: Buffer.byteLength(body) }));
  await world.platform.follow(started.upload_url, { method: 'PUT', body: Buffer.from(body) });
  return ok(await world.owner.post(`/uploads/${started.id}/completion`)).id;
}

test.serial("a task's files are chosen in the shell's file picker and open in Files", async (t) => {
  const brief = await upload('launch-brief.txt', 'What we launch, and when.\n');
  await upload('budget.csv', 'item,amount\nvenue,1200\n');
  await upload('unrelated.txt', 'Not for this task.\n');
  const board = ok(await world.owner.post('/boards', { title: 'Launch' }));
  const task = ok(await world.owner.post('/tasks', { title: 'Write the launch post', board_id: board.id }));

  const page = await web.newPage();
  await page.goto(`${origin}/login`);
  await page.getByLabel('Email').fill(world.owner.email);
  await page.getByLabel('Password').fill('harness-password-1');
  await Promise.all([page.waitForURL(`${origin}/`), page.getByRole('button', { name: 'Sign in' }).click()]);
  await page.goto(`${origin}/app/tasks/tasks/${task.id}`);
  const frame = await appFrame(page, 'tasks-task');
  await frame.getByText('Nothing attached yet.').waitFor();

  // The app asks the shell; the shell's dialog lists the member's files, filtered as they type.
  await frame.getByRole('button', { name: 'Choose Attach from Files' }).click();
  await page.getByRole('dialog', { name: 'Attach from Files' }).waitFor();
  // The dialog's content is slotted into Web Awesome's dialog: it is found from the shell's picker element.
  const dialog = page.locator('wpk-file-picker-dialog');
  await dialog.getByLabel('unrelated.txt').waitFor();
  t.deepEqual(await accessibilityViolations(page), [], 'axe: the shell\'s file picker');
  await dialog.getByLabel('Search').fill('launch');
  await dialog.getByLabel('unrelated.txt').waitFor({ state: 'detached' });
  t.deepEqual(await dialog.getByRole('alert').allTextContents(), [], 'the search answered');
  await dialog.getByLabel('launch-brief.txt').check();
  await dialog.getByLabel('Search').fill('');
  await dialog.getByLabel('budget.csv').check();
  await dialog.getByRole('button', { name: 'Choose' }).click();

  await page.getByText('2 files attached').waitFor();
  await frame.getByRole('link', { name: 'launch-brief.txt' }).waitFor();
  await frame.getByRole('link', { name: 'budget.csv' }).waitFor();
  const deliverables = ok(await world.owner.get(`/tasks/${task.id}/deliverables`)) as Array<{ title: string; url: string }>;
  t.deepEqual(deliverables.map((deliverable) => deliverable.title).sort(), ['budget.csv', 'launch-brief.txt']);
  t.is(deliverables.find((deliverable) => deliverable.title === 'launch-brief.txt')!.url, `${origin}/app/files/files/${brief}`);
  t.deepEqual(await cspViolations(page), []);
  t.deepEqual(await accessibilityViolations(page), [], 'axe: a task with its files');

  // Chosen again, a file already on the task is not added twice.
  await frame.getByRole('button', { name: 'Choose Attach from Files' }).click();
  await dialog.getByLabel('launch-brief.txt').check();
  await dialog.getByRole('button', { name: 'Choose' }).click();
  await page.getByText('launch-brief.txt is already attached').waitFor();
  t.is((ok(await world.owner.get(`/tasks/${task.id}/deliverables`)) as unknown[]).length, 2);

  // A file's link leaves for Files, at the file.
  await frame.getByRole('link', { name: 'launch-brief.txt' }).click();
  await page.waitForURL(`${origin}/app/files/files/${brief}`);
  await appFrame(page, 'files-drive');
  await page.context().close();
});
