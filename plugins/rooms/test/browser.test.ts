/**
 * The Rooms app's front-end in Chromium (fake camera and microphone), through the real routes: the
 * owner of a room opens Rooms from the launcher, finds the room with its members, opens it and
 * joins its session on the same-origin page (`join.html`, the kit's `<wpk-call>`); a member, on a
 * phone-sized window, sees someone in the session and joins too; each page plays the other's
 * camera (a live remote track with frames) and the room's page lists both as in the session.
 * Leaving takes the member out on the server. The owner edits the room on its page: renames it
 * (a taken name is refused, the server's words shown), adds a member chosen in the shell's picker,
 * removes one, and is refused removing the last owner; a plain member sees none of those controls.
 * At 1280 px and 375 px: axe-clean, no CSP violation,
 * nothing wider than the window. The screenshots are the ones docs/apps/rooms.md shows.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type TestMember } from '@wpk/testing';
import { assertRemoteVideos, browseWorld, checkPage, dismissToasts, FAKE_MEDIA_ARGS, saveScreenshot, signIn, type WorldBrowser } from '@wpk/testing/browser';
import { ALL_KEYS } from './helpers/world.js';

const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));

let web: WorldBrowser;
let ann: TestMember;
let bob: TestMember;
let cat: TestMember;

test.before(async () => {
  web = await browseWorld(startWorld({ app: fileURLToPath(new URL('..', import.meta.url)), subdomain: 'acme', listen: true, memberKeys: ALL_KEYS }), { link: 'Rooms', exact: true, slug: 'rooms', ready: 'rooms-list' }, FAKE_MEDIA_ARGS);
  ann = await web.world.member(ALL_KEYS, { name: 'Ann Owner' });
  bob = await web.world.member(ALL_KEYS, { name: 'Bob Member' });
  cat = await web.world.member(ALL_KEYS, { name: 'Cat Newcomer' });
});

test.after.always(() => web?.close());

test.serial('the owner and a member join a room\'s session from two browsers (1280 px and 375 px) and each receives the other\'s camera', async (t) => {
  const room = ok(await ann.post('/rooms', { name: 'Studio', description: 'Weekly demos', members: [{ member_mrn: bob.mrn }] }));
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  const list = frame.getByRole('list', { name: 'Rooms' });
  await list.getByText('2 members · Nobody in the session', { exact: false }).waitFor();
  await checkPage(t, page, frame, 'the rooms');
  await list.getByRole('link', { name: 'Studio' }).click();
  await page.waitForURL(`${web.origin}/app/rooms/rooms/${room.id}`);
  const members = frame.getByRole('table', { name: 'Members' });
  await members.getByRole('row', { name: /Ann Owner\s+Owner\s+—/ }).waitFor();
  await members.getByRole('row', { name: /Bob Member\s+Member\s+—/ }).waitFor();
  await checkPage(t, page, frame, 'the room');
  await saveScreenshot(page, `${IMAGES}rooms-room-1280.png`);
  await frame.getByRole('button', { name: 'Join the session' }).click();
  await page.waitForURL(`${web.origin}/public/apps/rooms/join.html?room=${room.id}`);
  await page.getByRole('heading', { name: 'Studio' }).waitFor();
  await page.getByRole('button', { name: 'Join', exact: true }).click();
  await page.getByRole('status').getByText('Waiting for others…').waitFor();
  t.deepEqual(ok(await ann.get(`/rooms/${room.id}`)).present_mrns, [ann.mrn]);

  // Bob, on a phone-sized window, sees someone in the session and joins.
  const phone = await web.newPage(375);
  await signIn(phone, web.origin, bob.email);
  await phone.goto(`${web.origin}/app/rooms/`);
  const phoneFrame = phone.frameLocator('iframe').first();
  const rooms = phoneFrame.getByRole('list', { name: 'Rooms' });
  await rooms.getByText('1 in the session now', { exact: false }).waitFor();
  await checkPage(t, phone, phone.frames().find((candidate) => candidate !== phone.mainFrame()) ?? null, 'the rooms at 375 px');
  await saveScreenshot(phone, `${IMAGES}rooms-list-375.png`);
  await rooms.getByRole('link', { name: 'Studio' }).click();
  await phoneFrame.getByRole('table', { name: 'Members' }).getByRole('row', { name: /Ann Owner\s+Owner\s+In the session/ }).waitFor();
  await phoneFrame.getByRole('button', { name: 'Join the session' }).click();
  await phone.waitForURL(`${web.origin}/public/apps/rooms/join.html?room=${room.id}`);
  await phone.getByRole('button', { name: 'Join', exact: true }).click();

  await assertRemoteVideos(t, [page, phone], 'rooms-join-page');
  t.deepEqual(await page.getByRole('list', { name: 'In the call' }).getByRole('listitem').allTextContents(), ['You', 'Bob Member']);
  t.deepEqual(await phone.getByRole('list', { name: 'In the call' }).getByRole('listitem').allTextContents(), ['You', 'Ann Owner']);
  t.deepEqual(ok(await ann.get(`/rooms/${room.id}`)).present_mrns.sort(), [ann.mrn, bob.mrn].sort());
  await checkPage(t, page, null, 'in the session at 1280 px');
  await checkPage(t, phone, null, 'in the session at 375 px');
  await saveScreenshot(page, `${IMAGES}rooms-join-1280.png`);

  await phone.getByRole('button', { name: 'Leave' }).click();
  await phone.getByRole('status').getByText('You left the call.').waitFor();
  await page.getByRole('status').getByText('Waiting for others…').waitFor();
  t.deepEqual(ok(await ann.get(`/rooms/${room.id}`)).present_mrns, [ann.mrn]);
  await phone.context().close();
  await page.context().close();
});

test.serial('the owner renames the room, adds and removes members on its page, and sees what the server refuses', async (t) => {
  const room = ok(await ann.post('/rooms', { name: 'Workshop', members: [{ member_mrn: bob.mrn }] }));
  ok(await ann.post('/rooms', { name: 'Library' }));
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await frame.getByRole('list', { name: 'Rooms' }).getByRole('link', { name: 'Workshop' }).click();
  await page.waitForURL(`${web.origin}/app/rooms/rooms/${room.id}`);
  const members = frame.getByRole('table', { name: 'Members' });
  await members.getByRole('row', { name: /Bob Member\s+Member/ }).waitFor();
  const form = frame.getByRole('form', { name: 'Edit the room' });

  // A taken name: the server's refusal shows, nothing changes.
  await form.getByLabel('Name').fill('Library');
  await form.getByRole('button', { name: 'Save' }).click();
  await frame.getByRole('alert').getByText('name: a room named Library already exists').waitFor();
  t.is(ok(await ann.get(`/rooms/${room.id}`)).name, 'Workshop');
  await checkPage(t, page, frame, 'a refused rename');
  // A free one: saved, the heading follows.
  await form.getByLabel('Name').fill('Workshop B');
  await form.getByLabel('Description').fill('Fridays at four');
  await form.getByRole('button', { name: 'Save' }).click();
  await frame.getByRole('heading', { name: 'Workshop B', level: 1 }).waitFor();
  t.like(ok(await ann.get(`/rooms/${room.id}`)), { name: 'Workshop B', description: 'Fridays at four' });
  t.is(await frame.getByRole('alert').count(), 0);

  // Add Cat through the shell's member picker.
  await frame.getByRole('button', { name: 'Add Members to add' }).click();
  const picker = page.locator('wpk-member-picker-dialog');
  await picker.getByLabel(/Cat Newcomer/).check();
  await picker.getByRole('button', { name: 'Choose' }).click();
  await frame.getByRole('button', { name: 'Add to the room' }).click();
  await members.getByRole('row', { name: /Cat Newcomer\s+Member/ }).waitFor();
  t.deepEqual(ok(await ann.get(`/rooms/${room.id}/members`)).map((row: any) => row.member_mrn), [ann.mrn, bob.mrn, cat.mrn]);
  await checkPage(t, page, frame, 'the room being edited');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}rooms-edit-1280.png`);

  // Remove Bob; the last owner cannot be removed: the server's refusal shows.
  await members.getByRole('button', { name: 'Remove Bob Member' }).click();
  await members.getByRole('row', { name: /Bob Member/ }).waitFor({ state: 'detached' });
  t.deepEqual(ok(await ann.get(`/rooms/${room.id}/members`)).map((row: any) => row.member_mrn), [ann.mrn, cat.mrn]);
  await members.getByRole('button', { name: 'Remove Ann Owner' }).click();
  await frame.getByRole('alert').getByText('The last owner cannot leave the room', { exact: false }).waitFor();
  t.deepEqual(ok(await ann.get(`/rooms/${room.id}/members`)).map((row: any) => row.member_mrn), [ann.mrn, cat.mrn]);
  await page.context().close();

  // Cat, a plain member on a phone-sized window, sees the room without the controls.
  const phone = await web.newPage(375);
  await signIn(phone, web.origin, cat.email);
  await phone.goto(`${web.origin}/app/rooms/rooms/${room.id}`);
  const phoneFrame = phone.frameLocator('iframe').first();
  await phoneFrame.getByRole('heading', { name: 'Workshop B', level: 1 }).waitFor();
  await phoneFrame.getByText('Fridays at four').waitFor();
  t.is(await phoneFrame.getByRole('form', { name: 'Edit the room' }).count(), 0);
  t.is(await phoneFrame.getByRole('button', { name: /^Remove/ }).count(), 0);
  await checkPage(t, phone, phone.frames().find((candidate) => candidate !== phone.mainFrame()) ?? null, 'the room as a member at 375 px');
  await phone.context().close();
});
