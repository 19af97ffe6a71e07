/**
 * The Attendance app's front-end in Chromium, through the real routes: a person signs in on the
 * workspace's sign-in page, opens Attendance from the launcher (the shell hosts the app's sandboxed
 * frame), clocks in at a geofenced location with the browser's position (the shell asks before
 * sharing it; the browser context grants geolocation to the workspace's origin), takes a break, is
 * refused a clock-out far from the location and clocks out back inside it, reads the timesheet,
 * corrects the attendance as a manager (refusals on the fields they name) and adds a missed one;
 * at 1280 px and at 375 px, axe-clean (no serious or critical violation) in the shell and in the
 * frame, no Content-Security-Policy violation, nothing wider than the window. The screenshots are
 * the ones docs/apps/attendance.md shows.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type TestMember, type World } from '@wpk/testing';
import { browseWorld, checkPage, saveScreenshot, type Frame, type Page, type WorldBrowser } from '@wpk/testing/browser';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));
const AT_TOWER = { latitude: 48.8589, longitude: 2.2945, accuracy: 12 };
const FAR_AWAY = { latitude: 48.8738, longitude: 2.295, accuracy: 12 };

let web: WorldBrowser;
let world: World;
let origin: string;
let bob: TestMember;

test.before(async () => {
  web = await browseWorld(startWorld({ app: APP_DIR, subdomain: 'acme', listen: true }), { link: 'Attendance', slug: 'attendance', ready: 'attendance-clock' });
  ({ world, origin } = web);
  bob = await world.workspace.member({ name: 'Bob Builder', permissions: ['attendance.attendances.record'] });
  ok(await world.owner.request('POST', '/attendance/locations', { name: 'Tower', address: 'Champ de Mars, Paris', geofence: { latitude: 48.8584, longitude: 2.2945, radius_m: 100 }, timezone: 'UTC' }));
  ok(await world.owner.request('POST', '/attendance/locations', { name: 'Annex' }));
});

test.after.always(() => web?.close());

/** Signs in and opens Attendance from the launcher's tile, the browser allowed to tell the workspace where it is. */
function openAttendance(width: number): Promise<{ page: Page; frame: Frame }> {
  return web.openApp(width, {
    async prepare(context) {
      await context.grantPermissions(['geolocation'], { origin });
      await context.setGeolocation(AT_TOWER);
    },
  });
}

const status = async () => ok(await world.owner.request('GET', '/attendance/status'));
const pad = (value: number) => String(value).padStart(2, '0');
/** An instant as a datetime-local field takes it (this machine's zone, which is Chromium's). */
const localInput = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;

test.serial('at 1280 px: clock in at a geofenced location with the browser position, a break, a refused and an accepted clock-out, the timesheet, a correction and a missed attendance', async (t) => {
  const { page, frame } = await openAttendance(1280);
  const clock = frame.getByRole('region', { name: 'Your clock' });
  await clock.getByText('Not clocked in').waitFor();
  await frame.getByText('No attendance since yesterday.').waitFor();
  await checkPage(t, page, frame, 'the clock, clocked out');

  // Clock in at Tower: the shell asks before it shares the position, then the browser's goes with the request.
  await frame.getByLabel('Location').selectOption({ label: 'Tower (checks your position)' });
  await clock.getByRole('button', { name: 'Clock in' }).click();
  await page.getByText('Attendance asks where you are: to clock you in at Tower, which checks that you are within its geofence.', { exact: false }).waitFor();
  await page.getByRole('button', { name: 'Share my location' }).click();
  await clock.getByText('Clocked in', { exact: true }).waitFor();
  const opened = await status();
  t.like(opened, { clocked_in: true, on_break: false, attendance: { location_name: 'Tower', check_in_position: { latitude: 48.8589, longitude: 2.2945, accuracy_m: 12 } } });
  t.is(Math.round(opened.attendance.check_in_position.distance_m), 56);

  // A break.
  await clock.getByRole('button', { name: 'Start break' }).click();
  await clock.getByText('On a break', { exact: true }).waitFor();
  t.like(await status(), { clocked_in: true, on_break: true });
  // Ended at once (very likely within the second it started: a zero-length break, which is kept
  // and which the manager's correction below does not trip over).
  await clock.getByRole('button', { name: 'End break' }).click();
  await clock.getByText('Clocked in', { exact: true }).waitFor();
  const afterBreak = await status();
  t.is(afterBreak.attendance.breaks.length, 1);
  t.not(afterBreak.attendance.breaks[0].end_at, null);

  // Far from Tower the clock-out is refused, with the server's words; back inside it goes (no second question in this tab).
  await page.context().setGeolocation(FAR_AWAY);
  await clock.getByRole('button', { name: 'Clock out' }).click();
  await clock.getByRole('alert').filter({ hasText: /^You are \d+ m from Tower, outside its 100 m geofence: you cannot clock out here$/ }).waitFor();
  t.is(await clock.getByRole('alert').textContent(), 'You are 1713 m from Tower, outside its 100 m geofence: you cannot clock out here');
  t.like(await status(), { clocked_in: true });
  await page.context().setGeolocation(AT_TOWER);
  await clock.getByRole('button', { name: 'Clock out' }).click();
  await clock.getByText('Not clocked in').waitFor();
  const closed = ok(await world.owner.request('GET', `/attendance/attendances/${opened.attendance.id}`));
  t.like(closed, { open: false, location_name: 'Tower', check_out_position: { latitude: 48.8589, longitude: 2.2945, accuracy_m: 12 } });
  t.like(await status(), { clocked_in: false, attendance: null });
  await frame.getByRole('link', { name: /–/ }).first().waitFor();
  await checkPage(t, page, frame, 'the clock after a day');
  await saveScreenshot(page, `${IMAGES}attendance-clock-1280.png`);

  // The timesheet: this week, today's attendance counted.
  await frame.getByRole('link', { name: 'My timesheet', exact: true }).click();
  const sheet = frame.getByRole('table');
  await sheet.locator('tfoot').waitFor();
  t.deepEqual(await sheet.locator('tfoot td').allTextContents(), ['1', '0:00', '0:00', '0:00']);
  t.is(await sheet.locator('tbody tr').count(), 7);
  await checkPage(t, page, frame, 'the timesheet');

  // A manager's correction: refusals on the fields they name, then the check-in an hour earlier, into the audit trail.
  await frame.getByRole('link', { name: 'Attendances', exact: true }).click();
  const list = frame.getByRole('table', { name: 'Newest first; open one to correct it' });
  await list.getByRole('link').first().click();
  await frame.getByRole('heading', { name: /^Owner of acme, / }).waitFor();
  const checkIn = new Date(closed.check_in_at);
  await frame.getByLabel('Check-in').fill(localInput(new Date(checkIn.getTime() - 3_600_000)));
  await frame.getByRole('button', { name: 'Save correction' }).click();
  await frame.locator('wa-textarea[name="reason"]').getByText('reason is required').waitFor();
  await frame.getByLabel('Check-out').fill(localInput(new Date(checkIn.getTime() - 7_200_000)));
  await frame.getByLabel('Reason').fill('Forgot to clock in at the door');
  await frame.getByRole('button', { name: 'Save correction' }).click();
  await frame.locator('wa-input[name="check_out_at"]').getByText('check_out_at must be after check_in_at').waitFor();
  t.is(ok(await world.owner.request('GET', `/attendance/attendances/${closed.id}`)).corrections.length, 0);
  await checkPage(t, page, frame, 'a refused correction');

  await frame.getByLabel('Check-out').fill(localInput(new Date(closed.check_out_at)));
  await frame.getByRole('button', { name: 'Save correction' }).click();
  await frame.getByText('Forgot to clock in at the door').waitFor();
  const corrected = ok(await world.owner.request('GET', `/attendance/attendances/${closed.id}`));
  const expectedIn = new Date(localInput(new Date(checkIn.getTime() - 3_600_000))).toISOString();
  t.like(corrected, { corrected: true, check_in_at: expectedIn, check_out_at: closed.check_out_at });
  t.deepEqual(corrected.corrections.map((correction: any) => [correction.kind, correction.changed_fields, correction.reason, correction.corrected_by]), [['edited', ['check_in_at'], 'Forgot to clock in at the door', world.owner.id]]);

  // A missed attendance of Bob's, yesterday morning.
  await frame.getByRole('link', { name: '← All attendances' }).click();
  await frame.getByRole('heading', { name: 'Add a missed attendance' }).waitFor();
  await frame.getByRole('button', { name: 'Choose member' }).click();
  await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('Bob');
  await page.getByRole('radio', { name: /Bob Builder/ }).check();
  await page.getByRole('button', { name: 'Choose' }).click();
  await frame.getByText('Bob Builder', { exact: true }).waitFor();
  const yesterday = new Date(Date.now() - 86_400_000);
  const at = (hours: number) => new Date(yesterday.getFullYear(), yesterday.getMonth(), yesterday.getDate(), hours);
  await frame.getByLabel('Check-in').fill(localInput(at(9)));
  await frame.getByLabel('Check-out').fill(localInput(at(12)));
  await frame.getByLabel('Location').selectOption({ label: 'Annex' });
  await frame.getByLabel('Reason').fill('Badge reader was down');
  await frame.getByRole('button', { name: 'Add attendance' }).click();
  await list.getByRole('cell', { name: 'Bob Builder' }).waitFor();
  const bobs = ok(await world.owner.request('GET', `/attendance/attendances?member_id=${bob.id}`));
  t.deepEqual(bobs.map((row: any) => [row.member_name, row.check_in_at, row.check_out_at, row.location_name, row.source, row.net_seconds]), [['Bob Builder', at(9).toISOString(), at(12).toISOString(), 'Annex', 'manual', 3 * 3600]]);
  await checkPage(t, page, frame, 'the attendances');
  await saveScreenshot(page, `${IMAGES}attendance-attendances-1280.png`);
  await page.context().close();
});

test.serial('at 375 px: the clock and the timesheet read on a phone', async (t) => {
  const { page, frame } = await openAttendance(375);
  await frame.getByRole('region', { name: 'Your clock' }).getByText('Not clocked in').waitFor();
  await checkPage(t, page, frame, 'the clock at 375 px');
  await frame.getByRole('link', { name: 'See my timesheet' }).click();
  await frame.getByRole('table').locator('tfoot').waitFor();
  await checkPage(t, page, frame, 'the timesheet at 375 px');
  await saveScreenshot(page, `${IMAGES}attendance-timesheet-375.png`);
  await page.context().close();
});
