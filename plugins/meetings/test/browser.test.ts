/**
 * The Meetings app's front-end in Chromium, through the real routes: an organizer opens Meetings
 * from the launcher, schedules a meeting with a member chosen in the shell's member picker and a
 * guest by address, and lands on its page; the invited member finds it among their upcoming
 * meetings and answers Going; the organizer sees the answer and invites one more member. At 1280
 * px and at 375 px, axe-clean (no serious or critical violation) in the shell and in the frame, no
 * Content-Security-Policy violation, nothing wider than the window. The screenshots are the ones
 * docs/apps/meetings.md shows.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type TestMember } from '@wpk/testing';
import { browseWorld, checkPage, dismissToasts, saveScreenshot, type Page, type WorldBrowser } from '@wpk/testing/browser';

const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));
const KEYS = ['meetings.meetings.create', 'meetings.meetings.read'];

let web: WorldBrowser;
let ann: TestMember;
let bob: TestMember;
let cid: TestMember;

test.before(async () => {
  web = await browseWorld(startWorld({ app: fileURLToPath(new URL('..', import.meta.url)), subdomain: 'acme', listen: true }), { link: 'Meetings', slug: 'meetings', ready: 'meetings-list' });
  ann = await web.world.member(KEYS, { name: 'Ann Organizer' });
  bob = await web.world.member(KEYS, { name: 'Bob Invited' });
  cid = await web.world.member(KEYS, { name: 'Cid Later' });
});

test.after.always(() => web?.close());

/** Chooses members in the shell's member picker the button opens. */
async function pick(page: Page, open: () => Promise<void>, names: string[]): Promise<void> {
  await open();
  const picker = page.locator('wpk-member-picker-dialog');
  for (const name of names) await picker.getByLabel(new RegExp(name)).check();
  await picker.getByRole('button', { name: 'Choose' }).click();
}

test.serial('at 1280 px: schedule a meeting with a member and a guest, the member answers Going, the organizer invites one more', async (t) => {
  const { page, frame } = await web.openApp(1280, { email: ann.email });
  await frame.getByText('No meeting ahead.', { exact: false }).waitFor();
  await checkPage(t, page, frame, 'no meeting yet');
  await frame.getByRole('navigation', { name: 'Meetings' }).getByRole('link', { name: 'Schedule' }).click();
  const form = frame.getByRole('form', { name: 'Schedule a meeting' });
  await form.getByLabel('Title').fill('Quarterly review');
  await form.getByLabel('Starts').fill('2030-03-04T10:00');
  await form.getByLabel('Ends').fill('2030-03-04T09:00');
  await form.getByLabel('Where').fill('Room 4');
  await form.getByLabel('Agenda').fill('Numbers and plans');
  await pick(page, () => form.getByRole('button', { name: 'Add Members invited' }).click(), ['Bob Invited']);
  await form.getByLabel("Guests' e-mail addresses (one per line)").fill('gail@guest.example');
  await form.getByRole('button', { name: 'Schedule' }).click();
  // The server's refusal shows; nothing is scheduled.
  await form.getByRole('alert').getByText('ends_at must be after starts_at', { exact: false }).waitFor();
  t.deepEqual(ok(await ann.get('/meetings')), []);
  await form.getByLabel('Ends').fill('2030-03-04T11:00');
  await form.getByRole('button', { name: 'Schedule' }).click();
  await page.waitForURL(/\/app\/meetings\/meetings\/[0-9a-f-]+$/);
  const attendees = frame.getByRole('table', { name: 'Attendees' });
  await attendees.getByRole('row', { name: /Bob Invited\s+Not answered/ }).waitFor();
  await attendees.getByRole('row', { name: /gail@guest\.example \(guest\)\s+Not answered/ }).waitFor();
  const [meeting] = ok(await ann.get('/meetings'));
  t.like(meeting, { title: 'Quarterly review', location: 'Room 4', description: 'Numbers and plans', starts_at: '2030-03-04T10:00:00.000Z', ends_at: '2030-03-04T11:00:00.000Z', organizer_mrn: ann.mrn });
  t.deepEqual(meeting.attendees.map((attendee: any) => [attendee.member_mrn, attendee.email, attendee.status]), [[bob.mrn, null, 'needs_action'], [null, 'gail@guest.example', 'needs_action']]);
  await checkPage(t, page, frame, 'the new meeting');
  await page.context().close();

  // Bob finds it among his upcoming meetings and answers.
  const invited = await web.openApp(1280, { email: bob.email });
  const upcoming = invited.frame.getByRole('list', { name: 'Upcoming meetings' });
  await upcoming.getByText('Not answered', { exact: false }).waitFor();
  await upcoming.getByRole('link', { name: 'Quarterly review' }).click();
  await invited.frame.getByRole('group', { name: 'Your answer' }).getByRole('button', { name: 'Going', exact: true }).click();
  await invited.frame.getByRole('table', { name: 'Attendees' }).getByRole('row', { name: /Bob Invited\s+Going/ }).waitFor();
  t.is(ok(await bob.get(`/meetings/${meeting.id}`)).attendees[0].status, 'accepted');
  await checkPage(t, invited.page, invited.frame, "the invited member's answer");
  await dismissToasts(invited.page);
  await saveScreenshot(invited.page, `${IMAGES}meetings-meeting-1280.png`);
  await invited.page.context().close();

  // Ann sees the answer and invites Cid.
  const again = await web.openApp(1280, { email: ann.email });
  await again.frame.getByRole('list', { name: 'Upcoming meetings' }).getByRole('link', { name: 'Quarterly review' }).click();
  await again.frame.getByRole('table', { name: 'Attendees' }).getByRole('row', { name: /Bob Invited\s+Going/ }).waitFor();
  await pick(again.page, () => again.frame.getByRole('button', { name: 'Add Members to invite' }).click(), ['Cid Later']);
  await again.frame.getByRole('button', { name: 'Send invitations' }).click();
  await again.frame.getByRole('table', { name: 'Attendees' }).getByRole('row', { name: /Cid Later\s+Not answered/ }).waitFor();
  t.deepEqual(ok(await ann.get(`/meetings/${meeting.id}`)).attendees.map((attendee: any) => attendee.member_mrn ?? attendee.email), [bob.mrn, 'gail@guest.example', cid.mrn]);
  await dismissToasts(again.page);
  await saveScreenshot(again.page, `${IMAGES}meetings-organizer-1280.png`);
  await again.page.context().close();
});

test.serial('at 375 px: the upcoming meetings and a meeting read on a phone', async (t) => {
  const { page, frame } = await web.openApp(375, { email: bob.email });
  const upcoming = frame.getByRole('list', { name: 'Upcoming meetings' });
  await upcoming.getByText('Going', { exact: false }).waitFor();
  await checkPage(t, page, frame, 'the upcoming meetings at 375 px');
  await saveScreenshot(page, `${IMAGES}meetings-list-375.png`);
  await upcoming.getByRole('link', { name: 'Quarterly review' }).click();
  await frame.getByRole('table', { name: 'Attendees' }).waitFor();
  await checkPage(t, page, frame, 'a meeting at 375 px');
  await page.context().close();
});
