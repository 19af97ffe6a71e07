/**
 * The Files app's front-end in Chromium, through the real routes: a person signs in on the
 * workspace's sign-in page, opens Files from the launcher (the shell hosts the app's sandboxed
 * frame), makes a folder, uploads a file into it with progress (the bytes go from the sandboxed
 * frame to the upload link), follows the breadcrumbs, renames and moves an item, moves one to the
 * trash and restores it; previews a picture, uploads a new version and restores an older one,
 * shares a file with a member through the shell's member picker (who then finds it under Shared
 * with me, and is refused the admin's screen), and hands a leaver's files to a colleague on the
 * admin's offboarding screen; at 1280 px and at 375 px, axe-clean (no serious or critical violation) in
 * the shell and in the frame, no Content-Security-Policy violation, nothing wider than the window.
 * The screenshots are the ones docs/apps/files.md shows.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { startWorld, type World } from '@wpk/testing';
import { appFrame, browseWorld, checkPage, dismissToasts, saveScreenshot, type Frame, type WorldBrowser } from '@wpk/testing/browser';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));

let web: WorldBrowser;
let world: World;

test.before(async () => {
  web = await browseWorld(startWorld({ app: APP_DIR, subdomain: 'acme', listen: true }), { link: 'Files', exact: true, slug: 'files', ready: 'files-drive' });
  ({ world } = web);
});

test.after.always(() => web?.close());

/** A PNG of `size` × `size` pixels in one colour (a real picture for the preview). */
function png(size: number, [r, g, b]: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [r, g, b]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

/** The names in a folder (null: the root), as the API lists them. */
const names = async (folderId: string | null) => ((await world.owner.request('GET', `/files${folderId ? `?folder_id=${folderId}` : ''}`)).body.data as Array<{ name: string }>).map((item) => item.name);
const rows = (frame: Frame) => frame.locator('tbody th[scope="row"] a');

test.serial('at 1280 px: sign in, open Files, make a folder, upload into it, rename, move, trash and restore', async (t) => {
  const { page, frame } = await web.openApp(1280);
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

const FILES_KEYS = ['files.files.read', 'files.files.upload', 'files.files.edit', 'files.files.share'];

/** Uploads a file as `caller` through the API and its signed link; answers the completion's status. */
async function upload(caller: World['owner'], name: string, body: string): Promise<number> {
  const started = await caller.post('/uploads', { name, size_bytes: Buffer.byteLength(body) });
  await world.platform.follow(started.body.data.upload_url, { method: 'PUT', body: Buffer.from(body) });
  return (await caller.post(`/uploads/${started.body.data.id}/completion`)).status;
}

test.serial('at 1280 px: preview a picture, a new version and an old one restored, share with a member, and hand a leaver\'s files over', async (t) => {
  const dana = await world.member(FILES_KEYS, { name: 'Dana Scully' });
  const fox = await world.member(FILES_KEYS, { name: 'Fox Mulder' });
  t.is(await upload(fox, 'handbook.txt', 'Welcome aboard.\n'), 200);
  const { page, frame } = await web.openApp(1280);
  await frame.getByRole('link', { name: 'Reports/' }).click();
  await frame.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
  await frame.getByLabel('Upload to Reports').setInputFiles([{ name: 'chart.png', mimeType: 'image/png', buffer: png(96, [47, 128, 237]) }]);

  // The picture's page: its preview, fetched through the download link (no cookie in the frame).
  await frame.getByRole('link', { name: 'chart.png' }).click();
  const preview = frame.getByRole('img', { name: 'Preview of chart.png' });
  await preview.waitFor();
  t.is(await preview.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth), 96);
  await checkPage(t, page, frame, 'a picture');

  // Q3 report.txt: a new version, then version 1 back (the shell asks).
  await frame.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link', { name: 'Reports' }).click();
  await frame.getByRole('link', { name: 'Q3 report.txt' }).click();
  await frame.getByText('Version 1 (current)').waitFor();
  await frame.getByLabel('Upload a new version of Q3 report.txt').setInputFiles([{ name: 'q3-final.txt', mimeType: 'text/plain', buffer: Buffer.from('Third quarter: up 14.5 %.\n') }]);
  await frame.getByText('Version 2 (current)').waitFor();
  await frame.getByRole('button', { name: 'Restore version 1' }).click();
  await page.getByRole('button', { name: 'Restore version' }).click();
  await frame.getByText('Version 3 (current)').waitFor();
  const reports = (await world.owner.request('GET', '/files')).body.data.find((item: { name: string }) => item.name === 'Reports');
  const q3 = (await world.owner.request('GET', `/files?folder_id=${reports.id}`)).body.data.find((item: { name: string }) => item.name === 'Q3 report.txt');
  const versions = (await world.owner.request('GET', `/files/${q3.id}/versions`)).body.data as Array<{ number: number; size_bytes: number; current: boolean }>;
  t.deepEqual(versions.map((version) => [version.number, version.size_bytes, version.current]), [[3, 24, true], [2, 26, false], [1, 24, false]]);

  // Shared with Dana through the shell's member picker, then allowed to edit.
  await frame.getByRole('button', { name: 'Share with…' }).click();
  await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('Dana');
  await page.getByRole('checkbox', { name: /Dana Scully/ }).check();
  await page.getByRole('button', { name: 'Choose' }).click();
  await frame.getByLabel('What Dana Scully may do').waitFor();
  const shares = async () => ((await world.owner.request('GET', `/files/${q3.id}/shares`)).body.data as Array<{ member_id: string; role: string }>).map((share) => [share.member_id, share.role]);
  t.deepEqual(await shares(), [[dana.id, 'read']]);
  await frame.getByLabel('What Dana Scully may do').selectOption('edit');
  await page.getByText('Dana Scully can edit Q3 report.txt').waitFor();
  t.deepEqual(await shares(), [[dana.id, 'edit']]);
  await checkPage(t, page, frame, "a file's page");
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}files-file-1280.png`);

  // The admin's offboarding: Fox has left the workspace; his files go to Dana.
  t.is((await world.owner.delete(`/members/${fox.id}`)).status, 200);
  await frame.getByRole('link', { name: 'Offboarding' }).click();
  await frame.getByRole('heading', { name: 'Offboarding', level: 1 }).waitFor();
  await frame.getByRole('button', { name: 'Hand over files of Fox Mulder' }).click();
  await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('Dana');
  await page.getByRole('radio', { name: /Dana Scully/ }).check();
  await page.getByRole('button', { name: 'Choose' }).click();
  await page.getByRole('button', { name: 'Hand over files' }).click();
  await frame.getByText('Fox Mulder: 1 file and 0 folders handed to Dana Scully.').waitFor();
  t.deepEqual((await world.owner.request('GET', `/admin/file-members/mrn:account:member:${fox.id}/files`)).body.data, []);
  t.deepEqual(((await world.owner.request('GET', `/admin/file-members/mrn:account:member:${dana.id}/files`)).body.data as Array<{ name: string }>).map((item) => item.name), ['handbook.txt']);
  await checkPage(t, page, frame, 'offboarding');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}files-offboarding-1280.png`);
  await page.context().close();

  // Dana finds the file under Shared with me; the offboarding is not hers: no tab, and its path says why.
  const other = await web.openApp(1280, { email: dana.email });
  await other.frame.getByRole('link', { name: 'Shared with me' }).click();
  await other.frame.getByRole('table', { name: 'Shared with you, newest first' }).getByRole('link', { name: 'Q3 report.txt' }).waitFor();
  t.is(await other.frame.getByRole('link', { name: 'Offboarding' }).count(), 0);
  await checkPage(t, other.page, other.frame, 'shared with me');
  await other.frame.getByRole('link', { name: 'Q3 report.txt' }).click();
  await other.frame.getByRole('heading', { name: 'Q3 report.txt', level: 1 }).waitFor();
  await other.page.goto(world.platform.url('acme', '/app/files/admin'));
  const refused = await appFrame(other.page, 'files-offboarding');
  await refused.getByRole('alert').getByText('Only workspace owners and admins may do this').waitFor();
  await other.page.context().close();
});

test.serial('at 375 px: the drive and a folder read on a phone', async (t) => {
  const { page, frame } = await web.openApp(375);
  await frame.getByRole('link', { name: 'Reports/' }).waitFor();
  await checkPage(t, page, frame, 'the drive at 375 px');
  await frame.getByRole('link', { name: 'Reports/' }).click();
  await frame.getByRole('link', { name: 'Q3 report.txt' }).waitFor();
  await checkPage(t, page, frame, 'a folder at 375 px');
  await saveScreenshot(page, `${IMAGES}files-folder-375.png`);
  await frame.getByRole('link', { name: 'Q3 report.txt' }).click();
  await frame.getByText('Version 3 (current)').waitFor();
  await frame.getByLabel('What Dana Scully may do').waitFor();
  await checkPage(t, page, frame, "a file's page at 375 px");
  await frame.getByRole('link', { name: 'Offboarding' }).click();
  await frame.getByRole('button', { name: 'Hand over files of Dana Scully' }).waitFor();
  await checkPage(t, page, frame, 'offboarding at 375 px');
  await page.context().close();
});
