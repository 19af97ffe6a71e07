import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok } from '@wpk/testing';
import { startAttendanceWorld } from './helpers/world.js';

const SETTINGS_DIR = fileURLToPath(new URL('../../settings', import.meta.url));
const BERLIN = '0c0c0c0c-0000-4000-8000-00000000b001';
const BY = '00000000-0000-4000-8000-000000000abc';
const FENCE = { latitude: 52.5170, longitude: 13.3889, radius_m: 200 };
const INSIDE = { latitude: 52.5171, longitude: 13.3889, accuracy_m: 10 };

const world = await startAttendanceWorld('attsettings', '2027-03-01T06:00:00.000Z', { apps: [SETTINGS_DIR], firstParty: ['attendance', 'settings'] });
const alice = await world.member(['attendance.attendances.record', 'attendance.locations.read'], { name: 'Alice' });
test.after.always(() => world.close());

/** A `core.settings.location.*` event about Berlin as Settings emits it. */
const berlin = (action: 'created' | 'updated' | 'deleted', name: string, revision: number) =>
  world.deliver(`core.settings.location.${action}`, {
    location_id: BERLIN, mrn: `mrn:settings:location:${BERLIN}`, name, timezone: 'Europe/Berlin', address: { street: 'Unter den Linden 1', postal_code: '10117', city: 'Berlin', country: 'DE' }, revision,
    ...(action === 'updated' ? { changed_fields: ['name'] } : {}), [`${action}_by`]: BY,
  });
const names = async (query = '') => ok(await alice.get(`/attendance/locations${query}`)).map((row: any) => [row.name, row.source]);
const rowCounts = async () =>
  (await world.platform.query<{ l: number; a: number }>('SELECT (SELECT count(*)::int FROM app_attendance.locations WHERE workspace_id = :id) AS l, (SELECT count(*)::int FROM app_attendance.attendances WHERE workspace_id = :id) AS a', { id: world.workspace.id }))[0];

let depot: any;

test.serial("attendance's locations follow Settings: a delivered location is listed with the app's geofence added; own locations made before keep working; creating one here is then refused", async (t) => {
  depot = ok(await world.owner.post('/attendance/locations', { name: 'Depot' }));
  t.is(depot.source, 'attendance', 'before any Settings location, the app keeps its own');

  await berlin('created', 'Berlin office', 1);
  t.deepEqual(await names(), [['Berlin office', 'settings'], ['Depot', 'attendance']]);
  const copy = ok(await alice.get(`/attendance/locations/${BERLIN}`));
  t.like(copy, { id: BERLIN, name: 'Berlin office', address: 'Unter den Linden 1, 10117 Berlin, DE', timezone: 'Europe/Berlin', geofence: null, source: 'settings', settings_mrn: `mrn:settings:location:${BERLIN}`, deleted_at: null, creator_id: null });

  world.takeEvents();
  const before = await rowCounts();
  const created = await world.owner.post('/attendance/locations', { name: 'Annex' });
  t.deepEqual([created.status, created.body.error], [409, 'This workspace keeps its locations in the Settings app: create the location there (POST /settings/locations), then set its geofence here (PATCH /attendance/locations/{id})']);
  const renamed = await world.owner.patch(`/attendance/locations/${BERLIN}`, { name: 'Elsewhere', geofence: FENCE });
  t.deepEqual([renamed.status, renamed.body.error, renamed.body.field], [409, `name: Berlin office follows the Settings app; change its name there (PATCH /settings/locations/${BERLIN}). Attendance sets its geofence only`, 'name']);
  const removed = await world.owner.delete(`/attendance/locations/${BERLIN}`);
  t.deepEqual([removed.status, removed.body.error], [409, `Berlin office follows the Settings app: delete it there (DELETE /settings/locations/${BERLIN}); its attendances stay`]);
  t.deepEqual(await rowCounts(), before);
  t.deepEqual(world.takeEvents(), []);

  const fenced = ok(await world.owner.patch(`/attendance/locations/${BERLIN}`, { geofence: FENCE }));
  t.deepEqual([fenced.name, fenced.geofence], ['Berlin office', FENCE]);
  t.deepEqual(world.takeEvents(), [{ action: 'core.attendance.location.updated', payload: { location_id: BERLIN, name: 'Berlin office', has_geofence: true, changed_fields: ['geofence'], updated_by: world.owner.id } }]);
  t.is(ok(await world.owner.patch(`/attendance/locations/${depot.id}`, { name: 'Old depot' })).name, 'Old depot', 'an own location is still the app\'s to edit');
});

test.serial('the highest revision wins: a rename follows, an older event delivered late changes nothing, the geofence stays; clock-ins at it work', async (t) => {
  await berlin('updated', 'Berlin HQ', 3);
  await berlin('updated', 'Berlin (old name)', 2);
  await berlin('created', 'Berlin office', 1);
  t.like(ok(await alice.get(`/attendance/locations/${BERLIN}`)), { name: 'Berlin HQ', geofence: FENCE });
  world.at('2027-03-01T08:00:00.000Z');
  const day = ok(await alice.post('/attendance/clock-ins', { location_id: BERLIN, ...INSIDE }));
  t.deepEqual([day.location_id, day.location_name, day.timezone, day.work_date], [BERLIN, 'Berlin HQ', 'Europe/Berlin', '2027-03-01']);
  world.at('2027-03-01T16:00:00.000Z');
  ok(await alice.post('/attendance/clock-outs', INSIDE));
});

test.serial('a location deleted in Settings stays as a tombstone: no longer listed, a 409 naming it at clock-in, its attendances kept; a late update does not revive it', async (t) => {
  await berlin('deleted', 'Berlin HQ', 4);
  await berlin('updated', 'Berlin revived', 3);
  t.deepEqual(await names(), [['Old depot', 'attendance']]);
  t.deepEqual(await names('?deleted=true'), [['Berlin HQ', 'settings']]);
  t.is(ok(await alice.get(`/attendance/locations/${BERLIN}`)).deleted_at, '2027-03-01T16:00:00.000Z');

  world.at('2027-03-02T08:00:00.000Z');
  world.takeEvents();
  const before = await rowCounts();
  const refused = await alice.post('/attendance/clock-ins', { location_id: BERLIN, ...INSIDE });
  t.deepEqual([refused.status, refused.body.error, refused.body.field], [409, 'location_id: Berlin HQ was deleted in the Settings app: it takes no clock-ins (its past attendances stay)', 'location_id']);
  const fence = await world.owner.patch(`/attendance/locations/${BERLIN}`, { geofence: null });
  t.deepEqual([fence.status, fence.body.error], [409, 'Berlin HQ was deleted in the Settings app: its geofence can no longer change']);
  t.deepEqual(await rowCounts(), before);
  t.deepEqual(world.takeEvents(), []);

  const history = ok(await alice.get('/attendance/attendances'));
  t.deepEqual(history.map((row: any) => [row.location_id, row.location_name]), [[BERLIN, 'Berlin HQ']]);
  const elsewhere = ok(await alice.post('/attendance/clock-ins', { location_id: depot.id }));
  t.is(elsewhere.location_name, 'Old depot', 'an own location made before Settings still takes clock-ins');
});

test.serial('a Settings location created through the Settings app reaches attendance by its event', async (t) => {
  await world.workspace.install('settings', { access_policy: 'roles' });
  world.takeEvents();
  const lisbon = ok(await world.owner.post('/settings/locations', { name: 'Lisbon', timezone: 'Europe/Lisbon', address: { city: 'Lisbon', country: 'PT' } }));
  const [event] = world.platform.takeEvents().filter((row) => row.action === 'core.settings.location.created');
  t.like(event.payload, { location_id: lisbon.id, revision: 1 });
  await world.deliver(event.action, event.payload);
  t.like(ok(await alice.get(`/attendance/locations/${lisbon.id}`)), { name: 'Lisbon', address: 'Lisbon, PT', timezone: 'Europe/Lisbon', source: 'settings' });
});

test.serial('installed after Settings has locations, attendance learns of them: Settings announces each live location at the install, through the real deliveries', async (t) => {
  const later = await world.platform.workspace('attlater');
  await later.install('settings', { access_policy: 'everyone' });
  const oslo = ok(await later.owner.post('/settings/locations', { name: 'Oslo', timezone: 'Europe/Oslo' }));
  ok(await later.owner.patch(`/settings/locations/${oslo.id}`, { name: 'Oslo office' }));
  const gone = ok(await later.owner.post('/settings/locations', { name: 'Gone', timezone: 'UTC' }));
  t.is((await later.owner.delete(`/settings/locations/${gone.id}`)).status, 200);
  // Attendance is not installed here yet: those events reach nobody.
  const unheard = await world.platform.deliverDue(later);
  const core = (delivered: typeof unheard) => delivered.filter(({ event }) => event.action.startsWith('core.'));
  t.deepEqual(core(unheard).map(({ event, outcomes }) => [event.action, outcomes.attendance ?? 'not subscribed']), [
    ['core.account.application.installed', 'not subscribed'],
    ['core.settings.location.created', 'skipped'],
    ['core.settings.location.updated', 'skipped'],
    ['core.settings.location.created', 'skipped'],
    ['core.settings.location.deleted', 'skipped'],
  ]);

  await later.install('attendance', { access_policy: 'everyone' });
  const installed = await world.platform.deliverDue(later);
  t.deepEqual(
    core(installed).map(({ event, outcomes }) => [event.action, event.payload.app_slug, outcomes.settings]),
    [['core.account.application.installed', 'attendance', 'handled']],
  );
  const announced = await world.platform.deliverDue(later);
  t.deepEqual(
    announced.map(({ event, outcomes }) => [event.action, event.payload, outcomes.attendance]),
    [['core.settings.location.announced', { location_id: oslo.id, mrn: `mrn:settings:location:${oslo.id}`, name: 'Oslo office', timezone: 'Europe/Oslo', address: {}, revision: 2, for_app: 'attendance' }, 'handled']],
  );
  const listed = ok(await later.owner.get('/attendance/locations'));
  t.deepEqual(listed.map((row: any) => [row.id, row.name, row.source]), [[oslo.id, 'Oslo office', 'settings']]);
  // Announced again (another install), the copy holds that revision already: nothing changes.
  await world.platform.deliver(later, 'core.settings.location.announced', { ...announced[0].event.payload, name: 'Stale name' });
  t.is(ok(await later.owner.get(`/attendance/locations/${oslo.id}`)).name, 'Oslo office');
});

test.serial('every table can be distributed by workspace', async (t) => {
  t.deepEqual(await world.platform.distributionProblems(), []);
});
