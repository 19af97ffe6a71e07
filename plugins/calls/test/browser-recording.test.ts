/**
 * Recording a call in Chromium (fake camera and microphone), through the real routes: the host
 * joins the call's page and sees Record (she holds calls.recordings.create); a member without the
 * key joins on a phone-sized window and has no Record button, but sees that she records. She
 * records a few seconds (the indicator counts), stops: the file (WebM) is uploaded through the
 * signed link and the recording completed, ready, with its length. An upload the storage refuses
 * shows the error and aborts the recording; the file is sent once. Recording again and leaving
 * saves that one too, its upload sent again after a first attempt cut off with a bare 400. The
 * call's page lists both with a Download link and deletes one after the shell's confirmation; the
 * host makes the other member host there and invites a third. Axe-clean at 1280 px and 375 px.
 */
import test from 'ava';
import { ok, type TestMember } from '@wpk/testing';
import { checkPage, dismissToasts, saveScreenshot, signIn, type Page, type WorldBrowser } from '@wpk/testing/browser';
import { IMAGES, browseCalls, callState } from './helpers/browser.js';
import { MEMBER_KEYS } from './helpers/world.js';

/** The first bytes of every WebM (Matroska) file: its EBML header's id. */
const WEBM_MAGIC = '1a45dfa3';

let web: WorldBrowser;
let ann: TestMember;
let bob: TestMember;

test.before(async () => {
  web = await browseCalls();
  ann = await web.world.member(MEMBER_KEYS, { name: 'Ann Host' });
  bob = await web.world.member(
    MEMBER_KEYS.filter((key) => key !== 'calls.recordings.create'),
    { name: 'Bob Guest' },
  );
});

test.after.always(() => web?.close());


/** The page's word on the last recording once it is saved or failed ("The recording …"): its text and role. */
async function recordingOutcome(page: Page): Promise<{ text: string; role: string | null }> {
  const note = page.locator('wpk-call').getByText(/^The recording (\(|could)/);
  await note.waitFor({ timeout: 20_000 });
  return { text: await note.innerText(), role: await note.getAttribute('role') };
}

/** m:ss as the page writes a length. */
const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/** Waits until the page's indicator ("● Recording m:ss") has counted at least `seconds`. */
async function recordFor(page: Page, seconds: number): Promise<void> {
  const indicator = page.locator('wpk-call').getByRole('status').getByText(/^● Recording \d+:\d\d$/);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const [minutes, rest] = (await indicator.innerText()).slice('● Recording '.length).split(':').map(Number);
    if (minutes! * 60 + rest! >= seconds) return;
    if (Date.now() > deadline) throw new Error(`the indicator stays at ${await indicator.innerText()}`);
    await page.waitForTimeout(100);
  }
}

/** A signed-in page at `width` px on the call's join page, joined. */
async function joined(member: TestMember, width: number, callId: string): Promise<Page> {
  const page = await web.newPage(width);
  await signIn(page, web.origin, member.email);
  await page.goto(`${web.origin}/public/apps/calls/join.html?call=${callId}`);
  await page.getByRole('button', { name: 'Join', exact: true }).click();
  await page.getByRole('button', { name: 'Leave' }).waitFor();
  return page;
}

test.serial('the host records the call from its page: a ready WebM recording with its length; a member without calls.recordings.create has no Record button but sees the recording', async (t) => {
  const call = ok(await ann.post('/calls', { title: 'Recorded review', participant_mrns: [bob.mrn] }));
  const host = await joined(ann, 1280, call.id);
  const record = host.getByRole('button', { name: 'Record', exact: true });
  await record.waitFor();
  t.deepEqual(ok(await ann.get(`/calls/${call.id}/recordings`)), []);

  const guest = await joined(bob, 375, call.id);
  await guest.getByRole('status').getByText('In the call: 1 of 1 connected').waitFor();
  t.is(await guest.getByRole('button', { name: 'Record', exact: true }).count(), 0);
  t.is(await guest.getByRole('button', { name: 'Mute' }).count(), 1);

  const pressed = Date.now();
  await record.click();
  await host.getByRole('button', { name: 'Stop recording' }).waitFor();
  const recordingId = (await callState(host)).recording;
  t.truthy(recordingId);
  t.like(ok(await ann.get(`/calls/${call.id}/recordings`)), [{ id: recordingId, status: 'uploading', recorder_mrn: ann.mrn }]);
  await guest.getByRole('status').getByText('● Ann Host is recording this call').waitFor();
  // The indicator counts the seconds.
  await recordFor(host, 3);
  await checkPage(t, host, null, 'recording at 1280 px');
  await checkPage(t, guest, null, 'being recorded at 375 px');
  await saveScreenshot(host, `${IMAGES}calls-recording-1280.png`);
  await saveScreenshot(guest, `${IMAGES}calls-recorded-375.png`);

  await host.getByRole('button', { name: 'Stop recording' }).click();
  const stopped = Date.now();
  const saved = await recordingOutcome(host);
  t.is((await callState(host)).recording, null);
  await guest.getByText('is recording this call', { exact: false }).waitFor({ state: 'detached' });
  const [ready] = ok(await ann.get(`/calls/${call.id}/recordings`));
  // The page's note says why, when the upload or the completion failed.
  t.like(ready, { id: recordingId, status: 'ready', content_type: 'video/webm', recorder_mrn: ann.mrn }, `the page said: ${saved.text}`);
  t.true(ready.duration_seconds >= 3 && ready.duration_seconds <= (stopped - pressed) / 1000, `${ready.duration_seconds} s recorded in ${stopped - pressed} ms`);
  t.deepEqual(saved, { text: `The recording (${clock(ready.duration_seconds)}) is saved.`, role: 'status' });
  t.true(ready.size_bytes > 1000, String(ready.size_bytes));
  const file = await web.world.platform.follow(ready.download_url);
  t.is(file.status, 200);
  t.is(file.bytes.length, ready.size_bytes);
  t.is(file.bytes.subarray(0, 4).toString('hex'), WEBM_MAGIC);

  // An upload the storage refuses: the error shows, the recording is aborted (nothing half-uploaded stays).
  const refusal = 'The file is larger than 10 bytes, the most this link accepts';
  // A refusal is final: the file is sent once.
  let refused = 0;
  await host.route('**/storage/**', (route) => (route.request().method() === 'PUT' ? (refused++, route.fulfill({ status: 413, contentType: 'application/json', body: JSON.stringify({ error: refusal }) })) : route.fallback()));
  await record.click();
  await recordFor(host, 1);
  await host.getByRole('button', { name: 'Stop recording' }).click();
  t.deepEqual(await recordingOutcome(host), { text: `The recording could not be uploaded: ${refusal}`, role: 'alert' });
  t.is(refused, 1);
  t.deepEqual(ok(await ann.get(`/calls/${call.id}/recordings`)).map((row: any) => [row.status, row.download_url === null, row.size_bytes]), [['ready', false, ready.size_bytes], ['aborted', true, null]]);
  await host.unroute('**/storage/**');

  // Recording again, then leaving: the recording is stopped, uploaded and completed before the member leaves.
  // Its first upload is cut off with a bare 400 (no {"error"}: the connection's, not the platform's answer):
  // the page sends the file again, and that one is stored.
  // Two seconds: under CI's load a one-second recording once came back from the browser empty.
  const puts: number[] = [];
  await host.route('**/storage/**', (route) => {
    if (route.request().method() !== 'PUT') return route.fallback();
    puts.push(Date.now());
    return puts.length === 1 ? route.fulfill({ status: 400, body: '' }) : route.fallback();
  });
  await record.click();
  await recordFor(host, 2);
  await host.getByRole('button', { name: 'Leave' }).click();
  await host.getByRole('status').getByText('You left the call.').waitFor({ timeout: 20_000 });
  const left = await recordingOutcome(host);
  const both = ok(await ann.get(`/calls/${call.id}/recordings`));
  t.deepEqual(left, { text: `The recording (${clock(both[2].duration_seconds)}) is saved.`, role: 'status' });
  t.deepEqual(both.map((row: any) => row.status), ['ready', 'aborted', 'ready']);
  t.is(puts.length, 2);
  t.true(puts[1]! - puts[0]! >= 500, `sent again after ${puts[1]! - puts[0]!} ms`);
  await host.unroute('**/storage/**');
  t.true(both[2].duration_seconds >= 2, String(both[2].duration_seconds));
  t.true(both[2].size_bytes > 0, String(both[2].size_bytes));
  t.is((await web.world.platform.follow(both[2].download_url)).bytes.subarray(0, 4).toString('hex'), WEBM_MAGIC);
  t.deepEqual(ok(await ann.get(`/calls/${call.id}`)).participants.map((row: any) => [row.member_mrn, row.in_session]), [[ann.mrn, false], [bob.mrn, true]]);
  t.is((await callState(host)).error, null);
  await guest.context().close();
  await host.context().close();
});

test.serial("the call's page lists its recordings with Download links, deletes one after the confirmation, and lets its host change roles", async (t) => {
  const [call] = ok(await ann.get('/calls')).filter((row: any) => row.title === 'Recorded review');
  const [first, aborted, second] = ok(await ann.get(`/calls/${call.id}/recordings`));
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await frame.getByRole('list', { name: 'My calls' }).getByRole('link', { name: 'Recorded review' }).click();
  const table = frame.getByRole('table', { name: 'Recordings' });
  await table.waitFor();
  t.is(await table.getByRole('row').count(), 4);
  t.deepEqual(await table.getByRole('row').nth(2).getByRole('cell').allTextContents().then((cells) => cells.slice(0, 3)), ['Ann Host', 'Aborted', '—']);
  const links = table.getByRole('link', { name: 'Download' });
  t.is(await links.count(), 2);
  const href = await links.first().getAttribute('href');
  // A signed link of its own (the page read the list), to the first recording's very bytes.
  t.true(href!.startsWith(`${web.origin}/storage/`), href!);
  t.deepEqual((await web.world.platform.follow(href!)).bytes, (await web.world.platform.follow(first.download_url)).bytes);
  await table.getByRole('row').nth(1).getByText('Ready').waitFor();
  await checkPage(t, page, frame, "the call's recordings at 1280 px");
  await dismissToasts(page);
  await table.scrollIntoViewIfNeeded();
  await saveScreenshot(page, `${IMAGES}calls-recordings-1280.png`);

  // Delete: the shell asks first; cancelling keeps it.
  await table.getByRole('row').nth(1).getByRole('button', { name: /^Delete the recording by Ann Host/ }).click();
  const dialog = page.locator('wpk-confirm-dialog');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await table.getByRole('row').nth(3).waitFor({ state: 'detached' });
  t.deepEqual(ok(await ann.get(`/calls/${call.id}/recordings`)).map((row: any) => row.id), [aborted.id, second.id]);

  // The host makes Bob a host too.
  const role = frame.getByRole('combobox', { name: 'Role of Bob Guest' });
  t.is(await role.inputValue(), 'participant');
  await role.selectOption('host');
  await page.getByText('Bob Guest is now a host').waitFor();
  t.deepEqual(ok(await ann.get(`/calls/${call.id}`)).participants.map((row: any) => [row.member_mrn, row.role]), [[ann.mrn, 'host'], [bob.mrn, 'host']]);

  // And invites Cyd, chosen in the shell's picker.
  const cyd = await web.world.member(MEMBER_KEYS, { name: 'Cyd Late' });
  await frame.getByRole('button', { name: 'Invite members' }).click();
  const picker = page.locator('wpk-member-picker-dialog');
  await picker.getByLabel(/Cyd Late/).check();
  await picker.getByRole('button', { name: 'Choose' }).click();
  await frame.getByRole('table', { name: 'Participants' }).getByRole('row', { name: /Cyd Late/ }).waitFor();
  t.deepEqual(ok(await ann.get(`/calls/${call.id}`)).participants.map((row: any) => [row.member_mrn, row.role]), [[ann.mrn, 'host'], [bob.mrn, 'host'], [cyd.mrn, 'participant']]);
  await page.context().close();

  // Bob, without calls.recordings.delete, is a host now: the API lets him delete it, the page offers it; on a phone, axe-clean.
  const phone = await web.openApp(375, { email: bob.email });
  await phone.frame.getByRole('list', { name: 'My calls' }).getByRole('link', { name: 'Recorded review' }).click();
  const mobile = phone.frame.getByRole('table', { name: 'Recordings' });
  await mobile.getByRole('link', { name: 'Download' }).waitFor();
  t.is(await mobile.getByRole('button', { name: /^Delete the recording/ }).count(), 2);
  await checkPage(t, phone.page, phone.frame, "the call's recordings at 375 px");
  await phone.page.context().close();
});
