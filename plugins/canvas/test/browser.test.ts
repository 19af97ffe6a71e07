/**
 * Two Chromium pages edit one board at once, through the real HTTP routes and the live socket, and
 * end with the same board as each other and as the server. The page is served on the workspace's
 * own origin (so the session cookie and the origin checks are the production ones); the platform
 * listens on a random port behind a TCP relay on the port PUBLIC_URL names.
 */
import test from 'ava';
import { build } from 'esbuild';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { freePort, type TestMember, type World } from '@wpk/testing';
import { launchChromium, type Browser, type Page } from '@wpk/testing/browser';

const SUBDOMAIN = 'canvasweb';

const port = await freePort();
process.env.PUBLIC_URL = `http://localhost:${port}`;
const { startCanvasWorld, newBoard } = await import('./helpers/world.js');

let world: World;
let browser: Browser;
let relay: net.Server;
let clientScript: string;
const origin = `http://${SUBDOMAIN}.localhost:${port}`;

test.before(async () => {
  world = await startCanvasWorld(SUBDOMAIN);
  const target = new URL(await world.platform.runtime.start());
  relay = net.createServer((socket) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve));
  const bundle = await build({ entryPoints: [fileURLToPath(new URL('./browser/board-client.ts', import.meta.url))], bundle: true, format: 'iife', write: false, target: 'chrome120', logLevel: 'silent' });
  clientScript = bundle.outputFiles[0].text;
  browser = await launchChromium(['--disable-features=LocalNetworkAccessChecks']);
});
test.after.always(async () => {
  await browser?.close();
  relay?.close();
  await world?.close();
});

/** A signed-in page of `member` with the board client loaded, following `boardId`. */
async function openBoard(member: TestMember, boardId: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.route(`${origin}/__canvas-test/**`, (route) =>
    route.request().url().endsWith('.js')
      ? route.fulfill({ status: 200, contentType: 'text/javascript', body: clientScript })
      : route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Board</title><script src="/__canvas-test/client.js"></script>' }),
  );
  await page.goto(`${origin}/__canvas-test/board.html`);
  const signedIn = await page.evaluate(
    async ({ email }) => (await fetch('/sessions', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-version': '2026-11-01' }, body: JSON.stringify({ email, password: 'harness-password-1' }) })).status,
    { email: member.email },
  );
  if (signedIn !== 200) throw new Error(`sign-in answered ${signedIn}`);
  await page.evaluate(async (id) => {
    const board = (window as any).startCanvas(id);
    (window as any).board = board;
    await board.ready;
  }, boardId);
  return page;
}

const state = (page: Page) => page.evaluate(() => (window as any).board.state());

async function settle(pages: Page[], boardId: string, member: TestMember): Promise<unknown> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const settled = await Promise.all(pages.map((page) => page.evaluate(() => (window as any).board.settled())));
    const states = await Promise.all(pages.map(state));
    const server = (await member.get(`/canvas/boards/${boardId}/document`)).body.data.object_count;
    if (settled.every(Boolean) && states.every((one) => JSON.stringify(one) === JSON.stringify(states[0])) && server === Object.keys(states[0]).length) return states[0];
    if (Date.now() > deadline) return states;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('two pages editing one board at once end with the same board, the server\'s', async (t) => {
  const ann = await world.member();
  const bob = await world.member();
  const boardId = await newBoard(ann, 'Live');
  await ann.post(`/canvas/boards/${boardId}/objects`, { id: 'shared', type: 'sticky', x: 0, y: 0, width: 200, height: 200, text: 'plan' });
  const [annPage, bobPage] = await Promise.all([openBoard(ann, boardId), openBoard(bob, boardId)]);
  t.deepEqual(Object.keys(await state(annPage)), ['shared']);

  // Both at once: each adds notes, types into the same note, moves it, and deletes one of its own notes.
  await Promise.all(
    [
      [annPage, 'a'],
      [bobPage, 'b'],
    ].map(([page, who]) =>
      (page as Page).evaluate(async (who) => {
        const board = (window as any).board;
        for (let index = 0; index < 12; index++) {
          board.addSticky(`${who}-${index}`, index * 130, who === 'a' ? 300 : 500, `${who}${index}`);
          if (index % 3 === 0) board.type('shared', who === 'a' ? 0 : 1_000, who === 'a' ? 'A' : 'B');
          board.move(`${who}-${Math.max(0, index - 1)}`, index * 130 + 5, who === 'a' ? 310 : 510);
          board.move('shared', who === 'a' ? index : -index, 0);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        board.remove(`${who}-11`);
      }, who as string),
    ),
  );
  const final = (await settle([annPage, bobPage], boardId, ann)) as Record<string, { text: string; x: number }>;
  const [annState, bobState] = await Promise.all([state(annPage), state(bobPage)]);
  t.deepEqual(annState, bobState, 'both pages hold the same board');
  t.is(Object.keys(annState).length, 23, 'shared + 11 notes of each page');
  t.is(final.shared.text.replace(/[AB]/g, ''), 'plan', 'no typed character was lost');
  t.is(final.shared.text.match(/A/g)?.length, 4);
  t.is(final.shared.text.match(/B/g)?.length, 4);
  t.true(final.shared.text.startsWith('AAAA'));
  t.true(final.shared.text.endsWith('BBBB'));
  t.true([11, -11].includes(final.shared.x), 'concurrent moves of one note: the last writer wins, everywhere');

  const server = (await ann.get(`/canvas/boards/${boardId}/objects?per_page=100`)).body.data as Array<{ id: string; text: string | null; x: number }>;
  t.deepEqual(server.map((object) => object.id).sort(), Object.keys(annState).sort(), 'the server holds the same objects');
  t.is(server.find((object) => object.id === 'shared')!.text, final.shared.text);
  t.deepEqual(await annPage.evaluate(() => (window as any).board.errors), []);
  t.deepEqual(await bobPage.evaluate(() => (window as any).board.errors), []);

  // Cursors: Ann's pointer reaches Bob's page.
  await annPage.evaluate(() => (window as any).board.moveCursor(42, 24));
  await bobPage.waitForFunction(() => (window as any).board.cursors().length > 0, undefined, { timeout: 5000 });
  t.like((await bobPage.evaluate(() => (window as any).board.cursors()))[0], { x: 42, y: 24, member_id: ann.id });
});
