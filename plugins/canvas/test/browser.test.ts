/**
 * Canvas's front-end in Chromium, through the real routes and the live socket: a member opens
 * Canvas from the launcher, makes a board, adds notes and shapes, connects two of them with the
 * keyboard, drags one, zooms, comments, votes, exports, renames and deletes a board, and on a phone
 * adds text and an image; two members on one board at once add,
 * move and type (into the same note too) through the toolbar, the surface and the text field, and
 * both pages end equal to each other and to the server's document, nothing lost; one's pointer
 * shows on the other's page with their name, and a page whose socket the server closed comes back
 * by itself with what changed meanwhile. At 1280 and 375 px, axe-clean in the shell and the
 * frame, no CSP violation, nothing wider than the window. The screenshots are docs/apps/canvas.md's.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type TestMember } from '@wpk/testing';
import { appFrame, browseWorld, checkPage, dismissToasts, saveScreenshot, type Frame, type WorldBrowser } from '@wpk/testing/browser';
import { ALL_KEYS, newBoard } from './helpers/world.js';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
let web: WorldBrowser;
/** Two members holding every key of the app but the managers' deletes. */
let ann: TestMember, bob: TestMember;

test.before(async () => {
  web = await browseWorld(startWorld({ app: APP_DIR, subdomain: 'acme', listen: true, memberKeys: ALL_KEYS }), { link: 'Canvas', slug: 'canvas', ready: 'canvas-boards' });
  ann = await web.world.member(undefined, { name: 'Ann Drawer' });
  bob = await web.world.member(undefined, { name: 'Bob Sketcher' });
});

/** A 1×1 PNG. */
const DOT_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));

test.after.always(() => web?.close());

type Replica = Record<string, Record<string, unknown>>;
/** The board's replica in the page, as plain JSON (the board screen's `replica`). */
const replicaOf = (frame: Frame): Promise<Replica> => frame.locator('canvas-board').evaluate((board: any) => board.replica.state());
const settledIn = (frame: Frame): Promise<boolean> => frame.locator('canvas-board').evaluate((board: any) => board.replica.settled());
const objectsOf = async (member: TestMember, boardId: string) => ok(await member.get(`/canvas/boards/${boardId}/objects?per_page=100`)) as Array<Record<string, any>>;

/** Opens the board named `name` from the boards list. */
async function openBoard(frame: Frame, name: string): Promise<void> {
  await frame.getByRole('list', { name: 'Boards' }).getByRole('link', { name }).click();
  await frame.getByRole('group', { name: /Board surface/ }).waitFor();
  await frame.getByRole('heading', { name }).waitFor();
}

/** Waits until both pages sent everything and hold the same document as the server. */
async function converge(frames: Frame[], member: TestMember, boardId: string): Promise<Replica[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const settled = await Promise.all(frames.map(settledIn));
    const states = await Promise.all(frames.map(replicaOf));
    const server = ok(await member.get(`/canvas/boards/${boardId}/document`)).object_count;
    if ((settled.every(Boolean) && states.every((one) => JSON.stringify(one) === JSON.stringify(states[0])) && server === Object.keys(states[0]).length) || Date.now() > deadline) return states;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test.serial('at 1280 px: make a board, add notes and shapes, connect two with the keyboard, drag, zoom, comment, vote, export, rename and delete', async (t) => {
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await frame.getByText('No board yet', { exact: false }).waitFor();
  await checkPage(t, page, frame, 'no board yet');
  const create = frame.getByRole('form', { name: 'New board' });
  await create.getByLabel('Name of a new board').fill('Retro');
  await create.getByRole('button', { name: 'Create board' }).click();
  await page.waitForURL(/\/app\/canvas\/boards\/[0-9a-f-]+$/);
  await frame.getByRole('heading', { name: 'Retro' }).waitFor();
  const [board] = ok(await ann.get('/canvas/boards')) as Array<{ id: string; name: string }>;
  t.is(board.name, 'Retro');

  const tools = frame.getByRole('toolbar', { name: 'Board tools' });
  await tools.getByRole('button', { name: 'Add sticky note' }).click();
  await frame.getByLabel('Text', { exact: true }).fill('Ship the whiteboard');
  await tools.getByRole('button', { name: 'Add rectangle' }).click();
  await frame.getByLabel('Text', { exact: true }).fill('Plan');
  await tools.getByRole('button', { name: 'Add ellipse' }).click();
  await frame.getByLabel('Text', { exact: true }).fill('Done');
  // Connect the rectangle to the ellipse with the keyboard: focus, Enter, "Connect to…", focus the other, Enter.
  const rectangle = frame.getByRole('button', { name: 'Rectangle: Plan' });
  await rectangle.focus();
  await page.keyboard.press('Enter');
  await frame.getByRole('button', { name: 'Connect to…' }).click();
  await frame.getByRole('button', { name: 'Ellipse: Done' }).focus();
  await page.keyboard.press('Enter');
  await frame.getByRole('button', { name: 'Connector from Rectangle: Plan to Ellipse: Done' }).waitFor();
  // The ellipse moves away with the keys; the connector's stored end follows it.
  await frame.getByRole('button', { name: 'Ellipse: Done', exact: true }).focus();
  for (const key of ['Shift+ArrowRight', 'Shift+ArrowRight', 'Shift+ArrowRight', 'Shift+ArrowRight', 'Shift+ArrowDown', 'Shift+ArrowDown']) await page.keyboard.press(key);
  // The note moves with the arrow keys, then by dragging.
  const note = frame.getByRole('button', { name: 'Sticky note: Ship the whiteboard' });
  const noteOf = async () => Object.values(await replicaOf(frame)).find((object) => object.text === 'Ship the whiteboard') as { x: number; y: number };
  const start = await noteOf();
  await note.focus();
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('ArrowDown');
  t.like(await noteOf(), { x: start.x + 50, y: start.y + 10 });
  const box = (await note.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + 20);
  await page.mouse.down();
  await page.mouse.move(box.x + 120, box.y + 60, { steps: 5 });
  await page.mouse.up();
  await frame.getByRole('toolbar', { name: 'Board tools' }).getByRole('button', { name: 'Zoom in' }).click();
  await frame.getByRole('status', { name: 'Zoom' }).getByText('125%').waitFor();
  await converge([frame], ann, board.id);

  const objects = await objectsOf(ann, board.id);
  const byText = (text: string) => objects.find((object) => object.text === text)!;
  t.deepEqual(objects.map((object) => [object.type, object.shape, object.text]).sort(), [
    ['connector', null, null],
    ['shape', 'ellipse', 'Done'],
    ['shape', 'rectangle', 'Plan'],
    ['sticky', null, 'Ship the whiteboard'],
  ].sort());
  const ellipse = byText('Done');
  t.like(objects.find((object) => object.type === 'connector'), { from_id: byText('Plan').id, to_id: ellipse.id, arrow: 'end', end_x: ellipse.x + 90, end_y: ellipse.y + 60 });
  const sticky = byText('Ship the whiteboard');
  // 50 right and 10 down by the keys, then 100 right and 40 down by the mouse (at 100 %).
  t.like(sticky, { x: start.x + 150, y: start.y + 50 });
  await checkPage(t, page, frame, 'a board with notes, shapes and a connector');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}canvas-board-1280.png`);

  // A comment on the selected note.
  await note.focus();
  const comments = frame.getByRole('form', { name: 'Add a comment' });
  await comments.getByLabel('New comment').fill('Needs a date');
  await comments.getByRole('button', { name: 'Comment' }).click();
  await frame.getByRole('list', { name: 'Comments on the object' }).getByText('Needs a date').waitFor();
  t.like(ok(await ann.get(`/canvas/boards/${board.id}/comments`))[0], { object_id: sticky.id, body: 'Needs a date', resolved: false });

  // A vote: start a session, vote for the selected note, close it; then a PNG export.
  const voting = frame.getByRole('region', { name: 'Voting' });
  await voting.getByLabel('Question').fill('What first?');
  await voting.getByLabel('Votes per member').fill('2');
  await voting.getByRole('button', { name: 'Start voting' }).click();
  await voting.getByText('What first? is open: 2 of 2 votes left.').waitFor();
  await voting.getByRole('button', { name: 'Vote for Sticky note: Ship the whiteboard' }).click();
  await voting.getByText('1 of 2 votes left').waitFor();
  await voting.getByRole('button', { name: 'Close voting' }).click();
  await voting.getByRole('list', { name: 'Voting results' }).getByText('Sticky note: Ship the whiteboard: 1').waitFor();
  const [session] = ok(await ann.get(`/canvas/boards/${board.id}/vote-sessions`));
  t.like(session, { title: 'What first?', status: 'closed', votes_per_member: 2, total_votes: 1, results: [{ object_id: sticky.id, votes: 1 }] });
  const exports = frame.getByRole('region', { name: 'Exports' });
  await exports.getByRole('button', { name: 'Export PNG' }).click();
  await exports.getByRole('link', { name: 'Download PNG' }).waitFor();
  t.like(ok(await ann.get(`/canvas/boards/${board.id}/exports/png`)), { target: 'png', content_type: 'image/png', object_count: 4 });
  await checkPage(t, page, frame, 'a board after a vote and an export');

  // Back on the list: rename the board, then make and delete another.
  await frame.getByRole('link', { name: 'All boards' }).click();
  const list = frame.getByRole('list', { name: 'Boards' });
  await list.getByRole('button', { name: 'Rename Retro' }).click();
  await frame.getByRole('form', { name: 'Rename Retro' }).getByLabel('New name').fill('Retro 12');
  await frame.getByRole('form', { name: 'Rename Retro' }).getByRole('button', { name: 'Save' }).click();
  await list.getByRole('link', { name: 'Retro 12' }).waitFor();
  t.is(ok(await ann.get(`/canvas/boards/${board.id}`)).name, 'Retro 12');
  const scratch = await newBoard(ann, 'Scratch');
  // The list reads the boards again when it is shown again: into a board and back. (A whole-page
  // reload here failed now and then in CI, once as a timeout and once as
  // net::ERR_HTTP_RESPONSE_CODE_FAILURE, cause not found; what is tested here is the delete.)
  await list.getByRole('link', { name: 'Retro 12' }).click();
  await frame.getByRole('link', { name: 'All boards' }).click();
  const reloaded = await appFrame(page, 'canvas-boards');
  await reloaded.getByRole('list', { name: 'Boards' }).getByRole('button', { name: 'Delete Scratch' }).click();
  await page.getByText('"Scratch" and everything on it', { exact: false }).waitFor();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await reloaded.getByRole('list', { name: 'Boards' }).getByRole('link', { name: 'Scratch' }).waitFor({ state: 'detached' });
  t.is((await ann.get(`/canvas/boards/${scratch}`)).status, 404);
  await page.context().close();
});

test.serial('two members editing one board at once through the whiteboard end with the same board as each other and the server', async (t) => {
  const boardId = await newBoard(ann, 'Live');
  await ann.post(`/canvas/boards/${boardId}/objects`, { id: 'shared', type: 'sticky', x: 0, y: 0, width: 200, height: 200, text: 'plan' });
  const opened = await Promise.all([web.openApp(1280, { email: ann.email }), web.openApp(1280, { email: bob.email })]);
  await Promise.all(opened.map(({ frame }) => openBoard(frame, 'Live')));
  t.deepEqual(Object.keys(await replicaOf(opened[0].frame)), ['shared']);

  // Both at once: each adds notes and names them, moves each with the keyboard, types into the
  // shared note (Ann at its start, Bob at its end) and moves it, then deletes its last note.
  const ROUNDS = 6;
  await Promise.all(
    opened.map(async ({ page, frame }, index) => {
      const who = index === 0 ? 'a' : 'b';
      const field = frame.getByLabel('Text', { exact: true });
      const selected = frame.locator('g.object[aria-pressed="true"]');
      for (let round = 0; round < ROUNDS; round++) {
        await frame.getByRole('toolbar', { name: 'Board tools' }).getByRole('button', { name: 'Add sticky note' }).click();
        await field.click();
        await page.keyboard.type(`${who}${round}`);
        await selected.focus();
        await page.keyboard.press(index === 0 ? 'ArrowRight' : 'ArrowDown');
        if (round % 2 === 0) {
          await frame.locator('g.object[data-id="shared"]').focus();
          await page.keyboard.press('Enter');
          await field.focus();
          await page.keyboard.press(index === 0 ? 'Control+Home' : 'Control+End');
          await page.keyboard.type(index === 0 ? 'A' : 'B');
          await frame.locator('g.object[data-id="shared"]').focus();
          await page.keyboard.press(index === 0 ? 'ArrowRight' : 'ArrowLeft');
        }
      }
      await frame.getByRole('button', { name: `Sticky note: ${who}${ROUNDS - 1}` }).focus();
      await page.keyboard.press('Delete');
    }),
  );
  const [annState, bobState] = await converge(
    opened.map(({ frame }) => frame),
    ann,
    boardId,
  );
  t.deepEqual(annState, bobState, 'both pages hold the same board');
  t.is(Object.keys(annState).length, 1 + 2 * (ROUNDS - 1), 'the shared note and each page\'s notes but the deleted one');
  const texts = Object.values(annState).map((object) => object.text as string).sort();
  t.deepEqual(texts.filter((text) => /^[ab]\d$/.test(text)), ['a0', 'a1', 'a2', 'a3', 'a4', 'b0', 'b1', 'b2', 'b3', 'b4']);
  const shared = annState.shared as { text: string; x: number };
  t.is(shared.text, 'AAAplanBBB', 'no typed character was lost');
  const server = await objectsOf(ann, boardId);
  t.deepEqual(server.map((object) => object.id).sort(), Object.keys(annState).sort(), 'the server holds the same objects');
  t.like(server.find((object) => object.id === 'shared'), { text: 'AAAplanBBB', x: shared.x }, 'concurrent moves of one note: the last writer wins, everywhere');
  t.deepEqual(ok(await ann.get(`/canvas/boards/${boardId}/document`)).object_count, Object.keys(annState).length);
  for (const { frame } of opened) {
    t.is(await frame.locator('g.object').count(), Object.keys(annState).length, 'each page draws every object');
    t.deepEqual(await frame.locator('canvas-board').evaluate((board: any) => board.replica.errors), [], 'no change was refused or lost on the way');
  }

  // Ann's pointer shows on Bob's page where it stopped (the last of a quick move is sent too), with her name.
  const [annPage, bobPage] = opened;
  const surface = (await annPage.frame.getByRole('group', { name: /Board surface/ }).boundingBox())!;
  await annPage.page.mouse.move(surface.x + 300, surface.y + 200);
  await annPage.page.mouse.move(surface.x + 320, surface.y + 210, { steps: 3 });
  const annCursor = bobPage.frame.locator(`g.cursor[data-member="${ann.id}"]`);
  await annCursor.waitFor();
  // Ann's page is neither panned nor zoomed: the board point is the surface point less the first pan.
  t.deepEqual(await annPage.frame.locator('canvas-board').evaluate((board: any) => [board.pan, board.zoom]), [[40, 40], 1]);
  await bobPage.frame.locator(`g.cursor[data-member="${ann.id}"][transform^="translate(280 170) "]`).waitFor({ timeout: 5_000 });
  await annCursor.getByText('Ann Drawer').waitFor();
  await checkPage(t, bobPage.page, bobPage.frame, 'a board with another member\'s cursor');
  await saveScreenshot(bobPage.page, `${IMAGES}canvas-live-1280.png`);

  // The server closes every live socket (as a restart does); meanwhile Bob adds and names a note
  // (sent over HTTP). Ann's page comes back by itself, shows it, and stays live.
  const hub = web.world.platform.runtime.server.plugins.live.hub;
  await hub.stop();
  t.is(hub.size, 0);
  await bobPage.frame.getByRole('toolbar', { name: 'Board tools' }).getByRole('button', { name: 'Add sticky note' }).click();
  await bobPage.frame.getByLabel('Text', { exact: true }).fill('after the restart');
  await annPage.frame.getByRole('button', { name: 'Sticky note: after the restart' }).waitFor({ timeout: 15_000 });
  await bobPage.frame.getByLabel('Text', { exact: true }).fill('after the restart, live');
  await annPage.frame.getByRole('button', { name: 'Sticky note: after the restart, live' }).waitFor({ timeout: 10_000 });
  const [annAfter, bobAfter] = await converge(
    opened.map(({ frame }) => frame),
    ann,
    boardId,
  );
  t.deepEqual(annAfter, bobAfter);
  t.is(Object.keys(annAfter).length, Object.keys(annState).length + 1);
  // A rename reaches the open board.
  ok(await ann.request('PATCH', `/canvas/boards/${boardId}`, { name: 'Live board' }));
  await bobPage.frame.getByRole('heading', { name: 'Live board' }).waitFor({ timeout: 10_000 });
  await Promise.all(opened.map(({ page }) => page.context().close()));
});

test.serial("a member without canvas.votes.manage is offered no voting session to start (the app token's keys), and the API would refuse it", async (t) => {
  const vic = await web.world.member(ALL_KEYS.filter((key) => key !== 'canvas.votes.manage'), { name: 'Vic Voter' });
  const boardId = await newBoard(vic, 'No chair');
  const { page, frame } = await web.openApp(1280, { email: vic.email });
  await openBoard(frame, 'No chair');
  const voting = frame.getByRole('region', { name: 'Voting' });
  await voting.getByText('No vote on this board yet.').waitFor();
  t.is(await voting.getByRole('form', { name: 'Start voting' }).count(), 0);
  t.is((await vic.post(`/canvas/boards/${boardId}/vote-sessions`, { title: 'Mine?', votes_per_member: 1 })).status, 403);
  await checkPage(t, page, frame, 'a board of a member who may not start a vote');
  await page.context().close();
});

test.serial('at 375 px: the boards and a board read and work on a phone', async (t) => {
  const { page, frame } = await web.openApp(375, { email: bob.email });
  await frame.getByRole('list', { name: 'Boards' }).getByRole('link', { name: 'Live' }).waitFor();
  await checkPage(t, page, frame, 'the boards at 375 px');
  await openBoard(frame, 'Live');
  await frame.getByRole('toolbar', { name: 'Board tools' }).getByRole('button', { name: 'Add text' }).click();
  await frame.getByLabel('Text', { exact: true }).fill('On the go');
  await frame.getByRole('button', { name: 'Text: On the go' }).waitFor();
  // An image: uploaded through its signed link, then an object with its file key, drawn from a blob.
  await frame.getByLabel('Add an image (PNG, JPEG, GIF or WebP)').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: Buffer.from(DOT_PNG, 'base64') });
  await frame.getByRole('button', { name: 'Image: dot.png' }).locator('image[href^="blob:"]').waitFor();
  const image = (await objectsOf(bob, ok(await bob.get('/canvas/boards?q=Live'))[0].id)).find((object) => object.type === 'image')!;
  t.like(image, { alt: 'dot.png', width: 240, height: 240 });
  t.regex(image.file_key, /^boards\/[0-9a-f-]+\/images\/[0-9a-f-]+$/);
  await checkPage(t, page, frame, 'a board at 375 px');
  await dismissToasts(page);
  await frame.evaluate(() => window.scrollTo(0, 0));
  await saveScreenshot(page, `${IMAGES}canvas-board-375.png`);
  await page.context().close();
});
