/**
 * The Calls app's front-end in Chromium (fake camera and microphone), through the real routes: a
 * member opens Calls from the launcher, is refused an untitled call, starts one with a member
 * chosen in the shell's picker and lands on its page; Join the call opens the same-origin call
 * page (`<wpk-call>`): a device preview, then Join. The invited member, on a phone-sized window,
 * finds the call in their list and joins it too; each page then plays the other's camera (a live
 * remote video track with frames: videoWidth > 0), and lists both people. Mute and Camera off
 * act on the local tracks; Leave takes the member out on the server and out of the other's page.
 * At 1280 px and 375 px: axe-clean, no CSP violation, nothing wider than the window. The
 * screenshots are the ones docs/apps/calls.md shows.
 */
import test from 'ava';
import { ok, type TestMember } from '@wpk/testing';
import { assertRemoteVideos, checkPage, dismissToasts, saveScreenshot, signIn, type Page, type WorldBrowser } from '@wpk/testing/browser';
import { IMAGES, browseCalls, callState } from './helpers/browser.js';
import { MEMBER_KEYS } from './helpers/world.js';

let web: WorldBrowser;
let ann: TestMember;
let bob: TestMember;

test.before(async () => {
  web = await browseCalls();
  ann = await web.world.member(MEMBER_KEYS, { name: 'Ann Host' });
  bob = await web.world.member(MEMBER_KEYS, { name: 'Bob Guest' });
});

test.after.always(() => web?.close());


/** The remote tiles' videos on a join page: class, live unmuted video tracks, frame width, label. */
const remoteVideos = (page: Page) =>
  page.evaluate(() =>
    [...(globalThis as any).document.querySelector('calls-join-page').shadowRoot.querySelector('wpk-call').shadowRoot.querySelectorAll('video.remote, video.remote-screen')].map((video: any) => ({
      kind: video.className as string,
      live: video.srcObject.getVideoTracks().filter((track: any) => track.readyState === 'live' && !track.muted).length as number,
      width: video.videoWidth as number,
      label: video.getAttribute('aria-label') as string,
    })),
  );

/**
 * Waits until the page's remote tiles satisfy `test` (on their kind, frame width and live unmuted
 * tracks). A remote track is muted while no frames arrive, which on a busy machine can outlast the
 * first frame: wait for what is then asserted, not for the frame alone.
 */
async function waitForRemote(page: Page, test: (videos: Array<{ kind: string; width: number; live: number }>) => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!test(await remoteVideos(page))) {
    if (Date.now() > deadline) throw new Error(`the remote videos stay ${JSON.stringify(await remoteVideos(page))}`);
    await page.waitForTimeout(100);
  }
}

/** The local media tracks' `enabled`, by kind. */
const localTracks = (page: Page) =>
  page.evaluate(() => {
    const root = (globalThis as any).document.querySelector('calls-join-page').shadowRoot.querySelector('wpk-call').shadowRoot;
    const stream = root.querySelector('video.local').srcObject;
    return { audio: stream.getAudioTracks().map((track: any) => track.enabled as boolean), video: stream.getVideoTracks().map((track: any) => track.enabled as boolean) };
  });

test.serial('join.html is the built front-end served on the workspace origin without the sandbox; the frame keeps it', async (t) => {
  const [page, frame, old] = await Promise.all(['join.html', '', 'call.html'].map((file) => web.world.workspace.anonymous.get(`/public/apps/calls/${file}`)));
  t.deepEqual([page.status, frame.status, old.status], [200, 200, 200]);
  t.is(page.body, frame.body);
  t.regex(page.body, /<script type="module" src="\.\/assets\/main\.[A-Z0-9]+\.js"><\/script>/);
  t.false(String(page.headers['content-security-policy']).includes('sandbox'));
  t.regex(String(frame.headers['content-security-policy']), /^sandbox allow-scripts /);
  t.is(page.headers['cache-control'], 'no-cache');
  // The reference client of the public folder is still served from it, unsandboxed too.
  t.regex(old.body, /<script type="module" src="\.\/call\.js"><\/script>/);
  t.false(String(old.headers['content-security-policy']).includes('sandbox'));
  // A page no manifest lists is not served from the build.
  t.is((await web.world.workspace.anonymous.get('/public/apps/calls/other.html')).status, 404);
});

test.serial('two members start and join one call from two browsers (1280 px and 375 px) and each receives the other\'s camera', async (t) => {
  // Ann starts the call in the app's frame.
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await frame.getByText('No call yet.', { exact: false }).waitFor();
  await checkPage(t, page, frame, 'no call yet');
  await frame.getByRole('navigation', { name: 'Calls' }).getByRole('link', { name: 'Start a call' }).click();
  const form = frame.getByRole('form', { name: 'Start a call' });
  await form.getByRole('button', { name: 'Start' }).click();
  // The server's refusal shows; nothing is made.
  await form.getByRole('alert').getByText('title', { exact: false }).waitFor();
  t.deepEqual(ok(await ann.get('/calls')), []);
  await form.getByLabel('Title').fill('Design review');
  await form.getByRole('button', { name: 'Add Members invited' }).click();
  const picker = page.locator('wpk-member-picker-dialog');
  await picker.getByLabel(/Bob Guest/).check();
  await picker.getByRole('button', { name: 'Choose' }).click();
  await form.getByRole('button', { name: 'Start' }).click();
  await page.waitForURL(/\/app\/calls\/calls\/[0-9a-f-]+$/);
  const participants = frame.getByRole('table', { name: 'Participants' });
  await participants.getByRole('row', { name: /Ann Host\s+Host/ }).waitFor();
  await participants.getByRole('row', { name: /Bob Guest\s+Participant/ }).waitFor();
  const [call] = ok(await ann.get('/calls'));
  t.like(call, { title: 'Design review', mode: 'video', status: 'waiting', type: 'instant' });
  t.deepEqual(call.participants.map((row: any) => [row.member_mrn, row.role]), [[ann.mrn, 'host'], [bob.mrn, 'participant']]);
  await checkPage(t, page, frame, 'the new call');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}calls-call-1280.png`);

  // Join the call: the same-origin page, a preview first, then Join.
  await frame.getByRole('button', { name: 'Join the call' }).click();
  await page.waitForURL(`${web.origin}/public/apps/calls/join.html?call=${call.id}`);
  await page.getByRole('heading', { name: 'Design review' }).waitFor();
  await page.getByRole('status').getByText('Check your camera and microphone, then join.').waitFor();
  await page.locator('video.local').waitFor();
  t.is((await callState(page)).phase, 'preview');
  t.is(ok(await ann.get(`/calls/${call.id}`)).status, 'waiting');
  await checkPage(t, page, null, 'the device preview');
  await page.getByRole('button', { name: 'Join', exact: true }).click();
  await page.getByRole('status').getByText('Waiting for others…').waitFor();
  t.is(ok(await ann.get(`/calls/${call.id}`)).status, 'active');

  // Bob, on a phone-sized window, finds it in his calls and joins.
  const phone = await web.newPage(375);
  await signIn(phone, web.origin, bob.email);
  await phone.goto(`${web.origin}/app/calls/`);
  const phoneFrame = phone.frameLocator('iframe').first();
  const list = phoneFrame.getByRole('list', { name: 'My calls' });
  await list.getByText('1 in the call now', { exact: false }).waitFor();
  const listFrame = phone.frames().find((candidate) => candidate !== phone.mainFrame()) ?? null;
  await checkPage(t, phone, listFrame, 'my calls at 375 px');
  await saveScreenshot(phone, `${IMAGES}calls-list-375.png`);
  await list.getByRole('link', { name: 'Design review' }).click();
  await phoneFrame.getByRole('button', { name: 'Join the call' }).click();
  await phone.waitForURL(`${web.origin}/public/apps/calls/join.html?call=${call.id}`);
  await phone.getByRole('button', { name: 'Join', exact: true }).click();

  // Each page plays the other's camera over a connected peer connection.
  await assertRemoteVideos(t, [page, phone], 'calls-join-page');
  for (const each of [page, phone]) {
    const state = await callState(each);
    t.is(state.phase, 'joined');
    t.deepEqual(Object.values(state.connections).length, 1);
  }
  await page.getByRole('status').getByText('In the call: 1 of 1 connected').waitFor();
  await phone.getByRole('status').getByText('In the call: 1 of 1 connected').waitFor();
  t.deepEqual(await page.getByRole('list', { name: 'In the call' }).getByRole('listitem').allTextContents(), ['You', 'Bob Guest']);
  t.deepEqual(await phone.getByRole('list', { name: 'In the call' }).getByRole('listitem').allTextContents(), ['You', 'Ann Host']);
  t.deepEqual(ok(await ann.get(`/calls/${call.id}`)).participants.map((row: any) => row.in_session), [true, true]);

  // Mute and camera off act on Ann's own tracks.
  t.deepEqual(await localTracks(page), { audio: [true], video: [true] });
  await page.getByRole('button', { name: 'Mute' }).click();
  await page.getByRole('button', { name: 'Camera off' }).click();
  t.deepEqual(await localTracks(page), { audio: [false], video: [false] });
  t.is(await page.getByRole('button', { name: 'Unmute' }).getAttribute('aria-pressed'), 'true');
  t.deepEqual(await page.getByRole('list', { name: 'In the call' }).getByRole('listitem').allTextContents(), ['You (muted)', 'Bob Guest']);
  await page.getByRole('button', { name: 'Unmute' }).click();
  await page.getByRole('button', { name: 'Camera on' }).click();
  t.deepEqual(await localTracks(page), { audio: [true], video: [true] });

  // Ann shares her screen: Bob's page receives a second live video track beside her camera.
  t.deepEqual((await remoteVideos(phone)).map((video) => video.kind), ['remote']);
  await page.getByRole('button', { name: 'Share screen' }).click();
  t.is(await page.getByRole('button', { name: 'Stop sharing' }).getAttribute('aria-pressed'), 'true');
  await page.locator('video.local-screen').waitFor();
  await waitForRemote(phone, (videos) => videos.some((video) => video.kind === 'remote-screen') && videos.every((video) => video.width > 0 && video.live === 1));
  const sharing = await remoteVideos(phone);
  t.deepEqual(sharing.map(({ kind, live, label }) => ({ kind, live, label })), [
    { kind: 'remote', live: 1, label: 'Video of Ann Host' },
    { kind: 'remote-screen', live: 1, label: 'Screen shared by Ann Host' },
  ]);
  t.true(sharing.every((video) => video.width > 0), JSON.stringify(sharing));
  await phone.getByText("Ann Host's screen").waitFor();
  t.is((await callState(phone)).error, null);
  await checkPage(t, phone, null, 'a shared screen at 375 px');
  await phone.locator('video.remote-screen').scrollIntoViewIfNeeded();
  await saveScreenshot(phone, `${IMAGES}calls-screen-375.png`);
  // Bob comes again (a reload) while Ann shares: her page offers the screen after answering his offer.
  await phone.reload();
  await phone.getByRole('button', { name: 'Join', exact: true }).click();
  await waitForRemote(phone, (videos) => videos.length === 2 && videos.every((video) => video.width > 0 && video.live === 1));
  t.deepEqual((await remoteVideos(phone)).map(({ kind, live }) => ({ kind, live })), [
    { kind: 'remote', live: 1 },
    { kind: 'remote-screen', live: 1 },
  ]);
  await page.getByRole('status').getByText('In the call: 1 of 1 connected').waitFor();
  // Stopping the share removes the track from Bob's page; the camera stays.
  await page.getByRole('button', { name: 'Stop sharing' }).click();
  await page.getByRole('button', { name: 'Share screen' }).waitFor();
  t.is(await page.locator('video.local-screen').count(), 0);
  await waitForRemote(phone, (videos) => !videos.some((video) => video.kind === 'remote-screen') && videos.every((video) => video.live === 1));
  t.deepEqual((await remoteVideos(phone)).map(({ kind, live }) => ({ kind, live })), [{ kind: 'remote', live: 1 }]);
  t.deepEqual(Object.values((await callState(page)).connections).length, 1);

  await checkPage(t, page, null, 'in the call at 1280 px');
  await checkPage(t, phone, null, 'in the call at 375 px');
  await saveScreenshot(page, `${IMAGES}calls-join-1280.png`);
  await saveScreenshot(phone, `${IMAGES}calls-join-375.png`);

  // Bob leaves: the server takes him out, Ann's page drops his video.
  await phone.getByRole('button', { name: 'Leave' }).click();
  await phone.getByRole('status').getByText('You left the call.').waitFor();
  t.is((await callState(phone)).phase, 'left');
  await page.getByRole('status').getByText('Waiting for others…').waitFor();
  t.is(await page.locator('video.remote').count(), 0);
  t.deepEqual(ok(await ann.get(`/calls/${call.id}`)).participants.map((row: any) => row.in_session), [true, false]);
  await page.getByRole('button', { name: 'Leave' }).click();
  await page.getByRole('status').getByText('You left the call.').waitFor();
  t.is(ok(await ann.get(`/calls/${call.id}`)).status, 'ended');
  await phone.context().close();
  await page.context().close();
});

test.serial('a member schedules a call for later from Start a call; a time in the past is refused', async (t) => {
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await frame.getByRole('navigation', { name: 'Calls' }).getByRole('link', { name: 'Start a call' }).click();
  const form = frame.getByRole('form', { name: 'Start a call' });
  await form.getByLabel('Title').fill('Quarterly planning');
  const before = ok(await ann.get('/calls')).length;
  // A time gone by: the server's refusal shows under the form, nothing is made.
  await form.getByLabel('When').fill('2020-01-06T09:30');
  await form.getByRole('button', { name: 'Start' }).click();
  await form.getByRole('alert').getByText('scheduled_at must be in the future', { exact: false }).waitFor();
  t.is(ok(await ann.get('/calls')).length, before);
  // Next year: scheduled, waiting, at that instant (the device's time).
  const local = `${new Date().getFullYear() + 1}-03-02T10:15`;
  await form.getByLabel('When').fill(local);
  await form.getByLabel('Kind').selectOption('audio');
  await form.getByRole('button', { name: 'Start' }).click();
  await page.waitForURL(/\/app\/calls\/calls\/[0-9a-f-]+$/);
  await frame.getByRole('heading', { name: 'Quarterly planning', level: 1 }).waitFor();
  await frame.getByText('Not started · Audio call', { exact: false }).waitFor();
  const expected = await page.evaluate((value) => new Date(value).toISOString(), local);
  const [call] = ok(await ann.get('/calls')).filter((row: any) => row.title === 'Quarterly planning');
  t.like(call, { type: 'scheduled', status: 'waiting', mode: 'audio', scheduled_at: expected });
  t.is(await frame.locator('wpk-date').count(), 1);
  await frame.getByRole('button', { name: 'Join the call' }).waitFor();
  await checkPage(t, page, frame, 'a scheduled call');
  await page.context().close();
});
