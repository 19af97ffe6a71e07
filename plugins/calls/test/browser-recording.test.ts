/**
 * Recording a call in Chromium (fake camera and microphone), through the real routes: the host
 * joins the call's page and sees Record (she holds calls.recordings.create); a member without the
 * key joins on a phone-sized window and has no Record button, but sees that she records. She
 * records a few seconds (the indicator counts), stops: the file (WebM) is uploaded through the
 * signed link and the recording completed, ready, with its length. Recording again and leaving
 * saves that one too. The call's page lists both with a Download link and deletes one after the
 * shell's confirmation; the host makes the other member host there. Axe-clean at 1280 px and 375 px.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type TestMember } from '@wpk/testing';
import { browseWorld, checkPage, FAKE_MEDIA_ARGS, dismissToasts, saveScreenshot, signIn, type Page, type WorldBrowser } from '@wpk/testing/browser';
import { MEMBER_KEYS } from './helpers/world.js';

const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));
/** The first bytes of every WebM (Matroska) file: its EBML header's id. */
const WEBM_MAGIC = '1a45dfa3';

let web: WorldBrowser;
let ann: TestMember;
let bob: TestMember;

test.before(async () => {
  web = await browseWorld(startWorld({ app: fileURLToPath(new URL('..', import.meta.url)), subdomain: 'acme', listen: true, memberKeys: MEMBER_KEYS }), { link: 'Calls', exact: true, slug: 'calls', ready: 'calls-list' }, FAKE_MEDIA_ARGS);
  ann = await web.world.member(MEMBER_KEYS, { name: 'Ann Host' });
  bob = await web.world.member(
    MEMBER_KEYS.filter((key) => key !== 'calls.recordings.create'),
    { name: 'Bob Guest' },
  );
});

test.after.always(() => web?.close());

/** The call component's state on a join page (window.wpkCall). */
const callState = (page: Page) => page.evaluate(() => (globalThis as any).wpkCall as { phase: string; recording: string | null; error: string | null });

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

  await record.click();
  await host.getByRole('button', { name: 'Stop recording' }).waitFor();
  const recordingId = (await callState(host)).recording;
  t.truthy(recordingId);
  t.like(ok(await ann.get(`/calls/${call.id}/recordings`)), [{ id: recordingId, status: 'uploading', recorder_mrn: ann.mrn }]);
  await guest.getByRole('status').getByText('● Ann Host is recording this call').waitFor();
  // The indicator counts the seconds.
  await host.getByRole('status').getByText('● Recording 0:03').waitFor({ timeout: 10_000 });
  await checkPage(t, host, null, 'recording at 1280 px');
  await checkPage(t, guest, null, 'being recorded at 375 px');
  await saveScreenshot(host, `${IMAGES}calls-recording-1280.png`);
  await saveScreenshot(guest, `${IMAGES}calls-recorded-375.png`);

  await host.getByRole('button', { name: 'Stop recording' }).click();
  await host.getByRole('status').getByText(/^The recording \(0:0\d\) is saved\.$/).waitFor({ timeout: 20_000 });
  t.is((await callState(host)).recording, null);
  await guest.getByText('is recording this call', { exact: false }).waitFor({ state: 'detached' });
  const [ready] = ok(await ann.get(`/calls/${call.id}/recordings`));
  t.like(ready, { id: recordingId, status: 'ready', content_type: 'video/webm', recorder_mrn: ann.mrn });
  t.true(ready.duration_seconds >= 3 && ready.duration_seconds <= 9, String(ready.duration_seconds));
  t.true(ready.size_bytes > 1000, String(ready.size_bytes));
  const file = await web.world.platform.follow(ready.download_url);
  t.is(file.status, 200);
  t.is(file.bytes.length, ready.size_bytes);
  t.is(file.bytes.subarray(0, 4).toString('hex'), WEBM_MAGIC);

  // Recording again, then leaving: the recording is stopped, uploaded and completed before the member leaves.
  await record.click();
  await host.getByRole('status').getByText('● Recording 0:01').waitFor({ timeout: 10_000 });
  await host.getByRole('button', { name: 'Leave' }).click();
  await host.getByRole('status').getByText('You left the call.').waitFor({ timeout: 20_000 });
  await host.getByRole('status').getByText(/^The recording \(0:0\d\) is saved\.$/).waitFor();
  const both = ok(await ann.get(`/calls/${call.id}/recordings`));
  t.deepEqual(both.map((row: any) => row.status), ['ready', 'ready']);
  t.true(both[1].duration_seconds >= 1, String(both[1].duration_seconds));
  t.is((await web.world.platform.follow(both[1].download_url)).bytes.subarray(0, 4).toString('hex'), WEBM_MAGIC);
  t.deepEqual(ok(await ann.get(`/calls/${call.id}`)).participants.map((row: any) => [row.member_mrn, row.in_session]), [[ann.mrn, false], [bob.mrn, true]]);
  t.is((await callState(host)).error, null);
  await guest.context().close();
  await host.context().close();
});

test.serial("the call's page lists its recordings with Download links, deletes one after the confirmation, and lets its host change roles", async (t) => {
  const [call] = ok(await ann.get('/calls')).filter((row: any) => row.title === 'Recorded review');
  const [first, second] = ok(await ann.get(`/calls/${call.id}/recordings`));
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await frame.getByRole('list', { name: 'My calls' }).getByRole('link', { name: 'Recorded review' }).click();
  const table = frame.getByRole('table', { name: 'Recordings' });
  await table.waitFor();
  t.is(await table.getByRole('row').count(), 3);
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
  await table.getByRole('row').nth(2).waitFor({ state: 'detached' });
  t.deepEqual(ok(await ann.get(`/calls/${call.id}/recordings`)).map((row: any) => row.id), [second.id]);

  // The host makes Bob a host too.
  const role = frame.getByRole('combobox', { name: 'Role of Bob Guest' });
  t.is(await role.inputValue(), 'participant');
  await role.selectOption('host');
  await page.getByText('Bob Guest is now a host').waitFor();
  t.deepEqual(ok(await ann.get(`/calls/${call.id}`)).participants.map((row: any) => [row.member_mrn, row.role]), [[ann.mrn, 'host'], [bob.mrn, 'host']]);
  await page.context().close();

  // Bob, without calls.recordings.delete, is a host now: the API lets him delete it, the page offers it; on a phone, axe-clean.
  const phone = await web.openApp(375, { email: bob.email });
  await phone.frame.getByRole('list', { name: 'My calls' }).getByRole('link', { name: 'Recorded review' }).click();
  const mobile = phone.frame.getByRole('table', { name: 'Recordings' });
  await mobile.getByRole('link', { name: 'Download' }).waitFor();
  t.is(await mobile.getByRole('button', { name: /^Delete the recording/ }).count(), 1);
  await checkPage(t, phone.page, phone.frame, "the call's recordings at 375 px");
  await phone.page.context().close();
});
