import test from 'ava';
import { freePort, type TestMember, type World } from '@wpk/testing';
import { launchChromium, type Browser, type BrowserContext } from '@wpk/testing/browser';
import { callsWorld } from './helpers/world.js';

/**
 * The proof in a real browser: two Chromium profiles with fake camera and microphone open the
 * app's call page (public/call.html) signed in as two members, join one call through our server
 * (POST /calls/{id}/sessions, the signaling socket) and reach a connected RTCPeerConnection over
 * host candidates (no STUN needed on one machine).
 */
let world: World;
let browser: Browser;
let origin: string;
let ann: TestMember;
let bob: TestMember;

test.before(async () => {
  const port = await freePort();
  world = await callsWorld('webrtc', { port, fromDirectory: true });
  await world.platform.runtime.start();
  origin = `http://webrtc.localhost:${port}`;
  ann = await world.member();
  bob = await world.member();
  browser = await launchChromium(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream']);
});
test.after.always(async () => {
  await browser?.close();
  await world?.close();
});

/** A browser profile signed in as the member (the session cookie of their real sign-in, on the workspace's host). */
async function signedIn(member: TestMember): Promise<BrowserContext> {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  await context.addCookies(member.cookie.split('; ').map((pair) => ({ name: pair.slice(0, pair.indexOf('=')), value: pair.slice(pair.indexOf('=') + 1), url: origin })));
  return context;
}

test('two members join one call from two browsers and their peer connection connects', async (t) => {
  const call = (await ann.post('/calls', { title: 'Browser call', participant_mrns: [bob.mrn] })).body.data;
  const pages = await Promise.all([ann, bob].map(async (member) => (await signedIn(member)).newPage()));
  await pages[0].goto(`${origin}/public/apps/calls/call.html?call=${call.id}`);
  await pages[0].waitForFunction(() => (globalThis as any).wpkCall?.phase === 'joined', null, { timeout: 10_000 });
  await pages[1].goto(`${origin}/public/apps/calls/call.html?call=${call.id}`);
  const connected = () =>
    Promise.all(
      pages.map((page) =>
        page.waitForFunction(() => {
          const state = (globalThis as any).wpkCall;
          if (state?.error) throw new Error(state.error);
          return Object.values(state?.connections ?? {}).some((value) => value === 'connected' || value === 'completed');
        }, null, { timeout: 20_000, polling: 100 }),
      ),
    );
  await connected();
  const states = await Promise.all(pages.map((page) => page.evaluate(() => Object.values((globalThis as any).wpkCall.connections))));
  t.is(states.length, 2);
  for (const values of states) t.true(values.length === 1 && ['connected', 'completed'].includes(values[0] as string), JSON.stringify(values));
  const served = (await ann.get(`/calls/${call.id}`)).body.data;
  t.deepEqual(served.participants.map((row: any) => row.in_session), [true, true]);
  t.is(served.status, 'active');
  // One leaves with the page's button: the other sees the peer go.
  await pages[1].click('#leave');
  await pages[0].waitForFunction(() => Object.keys((globalThis as any).wpkCall.connections).length === 0, null, { timeout: 10_000 });
  t.pass();
});
