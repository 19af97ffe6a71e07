/**
 * The Files app's front-end in Chromium, through the real routes: a person signs in on the
 * workspace's sign-in page, opens Files from the launcher (the shell hosts the app's sandboxed
 * frame), makes a folder, uploads a file into it with progress (the bytes go from the sandboxed
 * frame to the upload link), follows the breadcrumbs, renames and moves an item, moves one to the
 * trash and restores it; at 1280 px and at 375 px, axe-clean (no serious or critical violation) in
 * the shell and in the frame, no Content-Security-Policy violation, nothing wider than the window.
 * The screenshots are the ones docs/apps/files.md shows.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { startWorld, type World } from '@wpk/testing';
import { browserContext, checkPage, launchChromium, openApp, saveScreenshot, type Browser, type Frame, type Page } from '@wpk/testing/browser';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));

let world: World;
let browser: Browser;
let origin: string;

test.before(async () => {
  world = await startWorld({ app: APP_DIR, subdomain: 'acme', listen: true });
  origin = world.platform.url('acme', '');
  browser = await launchChromium();
});

test.after.always(async () => {
  await browser?.close();
  await world?.close();
});

/** Signs in and opens Files from the launcher's tile: the shell at /app/files/ with the app's frame. */
async function openFiles(width: number): Promise<{ page: Page; frame: Frame }> {
  const context = await browserContext(browser, width);
  const page = await context.newPage();
  return openApp(page, { origin, email: world.owner.email, link: 'Files', exact: true, slug: 'files', ready: 'files-drive' });
}

/** The names in a folder (null: the root), as the API lists them. */
const names = async (folderId: string | null) => ((await world.owner.request('GET', `/files${folderId ? `?folder_id=${folderId}` : ''}`)).body.data as Array<{ name: string }>).map((item) => item.name);
const rows = (frame: Frame) => frame.locator('tbody th[scope="row"] a');

test.serial('at 1280 px: sign in, open Files, make a folder, upload into it, rename, move, trash and restore', async (t) => {
  const { page, frame } = await openFiles(1280);
  await frame.getByText('This folder is empty: upload files or make a folder.').waitFor();
  await checkPage(t, page, frame, 'an empty drive');

  // Two folders at the root; a taken name is refused in the server's words.
  for (const name of ['Reports', 'Archive']) {
    await frame.getByLabel('New folder').fill(name);
    await frame.getByRole('button', { name: 'Create folder' }).click();
    await frame.getByRole('link', { name: `${name}/` }).waitFor();
  }
  await frame.getByLabel('New folder').fill('reports');
  await frame.getByRole('button', { name: 'Create folder' }).click();
  await frame.locator('wa-input[label="New folder"]').getByText('A file or folder named reports already exists in this folder').waitFor();
  t.deepEqual(await names(null), ['Archive', 'Reports']);

  // Into Reports; upload two files with the progress list.
  await frame.getByRole('link', { name: 'Reports/' }).click();
  await frame.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
  await frame.getByLabel('Upload to Reports').setInputFiles([
    { name: 'q3.txt', mimeType: 'text/plain', buffer: Buffer.from('Third quarter: up 12 %.\n') },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Remember the venue.\n') },
  ]);
  await frame.getByRole('link', { name: 'q3.txt' }).waitFor();
  await frame.getByRole('link', { name: 'notes.txt' }).waitFor();
  const reports = (await world.owner.request('GET', '/files')).body.data.find((item: { name: string }) => item.name === 'Reports');
  t.deepEqual(await names(reports.id), ['notes.txt', 'q3.txt']);
  t.deepEqual(await rows(frame).allTextContents(), ['notes.txt', 'q3.txt']);

  // Rename q3.txt; move notes.txt up to My files.
  await frame.getByRole('button', { name: 'Rename q3.txt' }).click();
  await frame.getByLabel('New name of q3.txt').fill('Q3 report.txt');
  await frame.getByRole('button', { name: 'Save' }).click();
  await frame.getByRole('link', { name: 'Q3 report.txt' }).waitFor();
  await frame.getByLabel('Move notes.txt to').selectOption({ label: '↑ My files' });
  await frame.getByRole('link', { name: 'notes.txt' }).waitFor({ state: 'detached' });
  t.deepEqual(await names(reports.id), ['Q3 report.txt']);
  t.deepEqual(await names(null), ['Archive', 'Reports', 'notes.txt']);
  await checkPage(t, page, frame, 'a folder');
  await saveScreenshot(page, `${IMAGES}files-folder-1280.png`);

  // A file's page; the breadcrumbs go back up.
  await frame.getByRole('link', { name: 'Q3 report.txt' }).click();
  await frame.getByRole('heading', { name: 'Q3 report.txt', level: 1 }).waitFor();
  await frame.getByRole('link', { name: 'Download Q3 report.txt' }).waitFor();
  await frame.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link', { name: 'Reports' }).click();
  await frame.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
  await frame.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link', { name: 'My files' }).click();
  await frame.getByRole('heading', { name: 'My files', level: 1 }).waitFor();

  // The trash: notes.txt goes (the shell asks), and comes back.
  await frame.getByRole('button', { name: 'Trash notes.txt' }).click();
  await page.getByRole('button', { name: 'Move to trash' }).click();
  await frame.getByRole('link', { name: 'notes.txt' }).waitFor({ state: 'detached' });
  t.deepEqual(await names(null), ['Archive', 'Reports']);
  await frame.getByRole('link', { name: 'Trash', exact: true }).click();
  const trash = frame.getByRole('table', { name: 'Your trash, newest first' });
  await trash.getByRole('cell', { name: 'notes.txt' }).waitFor();
  await checkPage(t, page, frame, 'the trash');
  await trash.getByRole('button', { name: 'Restore' }).click();
  await frame.getByText('The trash is empty.').waitFor();
  t.deepEqual(await names(null), ['Archive', 'Reports', 'notes.txt']);
  await page.context().close();
});

test.serial('at 375 px: the drive and a folder read on a phone', async (t) => {
  const { page, frame } = await openFiles(375);
  await frame.getByRole('link', { name: 'Reports/' }).waitFor();
  await checkPage(t, page, frame, 'the drive at 375 px');
  await frame.getByRole('link', { name: 'Reports/' }).click();
  await frame.getByRole('link', { name: 'Q3 report.txt' }).waitFor();
  await checkPage(t, page, frame, 'a folder at 375 px');
  await saveScreenshot(page, `${IMAGES}files-folder-375.png`);
  await page.context().close();
});
