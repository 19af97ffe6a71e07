import test from 'ava';
import { ok } from '@wpk/testing';
import { startAttendanceWorld } from './helpers/world.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000abc';
const TOWER = { latitude: 48.8584, longitude: 2.2945, radius_m: 100 };
const RECORD = 'attendance.attendances.record';
const READ = 'attendance.attendances.read';
const MANAGE = 'attendance.attendances.manage';

const world = await startAttendanceWorld('attendance');
const alice = await world.member([RECORD, 'attendance.locations.read'], { name: 'Alice' });
const bob = await world.member([RECORD], { name: '=Bob@corp' });
const manager = await world.member([READ, MANAGE, 'attendance.attendances.export'], { name: 'Manager' });
test.after.always(() => world.close());

/** Row counts of the app's tables in the test workspace. */
const counts = async () =>
  (
    await world.platform.query<{ locations: number; attendances: number; breaks: number; corrections: number }>(
      'SELECT (SELECT count(*)::int FROM app_attendance.locations WHERE workspace_id = :id) AS locations, (SELECT count(*)::int FROM app_attendance.attendances WHERE workspace_id = :id) AS attendances, (SELECT count(*)::int FROM app_attendance.breaks WHERE workspace_id = :id) AS breaks, (SELECT count(*)::int FROM app_attendance.corrections WHERE workspace_id = :id) AS corrections',
      { id: world.workspace.id },
    )
  )[0];

let tower: any;
let annex: any;

test.serial('POST /attendance/locations creates a location with a geofence, indexes it and emits location.created once', async (t) => {
  world.takeEvents();
  const reply = await world.owner.post('/attendance/locations', { name: ' Tower ', address: 'Champ de Mars, Paris', geofence: TOWER, timezone: 'Europe/Paris' });
  t.is(reply.status, 200);
  tower = reply.body.data;
  t.deepEqual(reply.body.links, { self: `/attendance/locations/${tower.id}` });
  t.deepEqual({ ...tower, created_at: undefined, updated_at: undefined }, { id: tower.id, name: 'Tower', address: 'Champ de Mars, Paris', geofence: TOWER, timezone: 'Europe/Paris', source: 'attendance', settings_mrn: null, deleted_at: null, creator_id: world.owner.id, created_at: undefined, updated_at: undefined });
  t.deepEqual(world.takeEvents(), [{ action: 'core.attendance.location.created', payload: { location_id: tower.id, name: 'Tower', has_geofence: true, created_by: world.owner.id } }]);
  const indexed = world.platform.search.filter((change) => change.op === 'upsert' && change.document.id === tower.id);
  t.is(indexed.length, 1);
  annex = ok(await world.owner.post('/attendance/locations', { name: 'Annex' }));
  t.is(annex.geofence, null);
  t.is(annex.timezone, null);
  world.takeEvents();
  const found = await world.owner.get('/search?q=Tower&app=attendance');
  t.is(found.status, 200);
  t.deepEqual(found.body.data.map((hit: any) => [hit.type, hit.title, hit.url]), [['location', 'Tower', `/attendance/locations/${tower.id}`]]);
  // A full re-index writes every location's document again, as the writes did.
  const reindexed = await world.platform.runtime.reindexSearch({ app: 'attendance', workspaceId: world.workspaceId });
  t.deepEqual(reindexed.map((row) => [row.app, row.type, row.documents]), [['attendance', 'location', 2]]);
  t.deepEqual((await world.owner.get('/search?q=Tower&app=attendance')).body.data.map((hit: any) => hit.url), [`/attendance/locations/${tower.id}`]);
});

test.serial('a location is refused with a clear 400 or 409 and nothing is written', async (t) => {
  const before = await counts();
  const cases: Array<[unknown, number, string, string?]> = [
    [{ name: 'x', geofence: { latitude: 91, longitude: 0, radius_m: 50 } }, 400, 'geofence.latitude must be less than or equal to 90', 'geofence.latitude'],
    [{ name: 'x', geofence: { latitude: 10, longitude: 0 } }, 400, 'geofence.radius_m is required', 'geofence.radius_m'],
    [{ name: 'x', geofence: { latitude: 10, longitude: 0, radius_m: 5 } }, 400, 'geofence.radius_m must be greater than or equal to 10', 'geofence.radius_m'],
    [{ name: 'x', timezone: 'Mars/Olympus' }, 400, 'timezone: Mars/Olympus is not an IANA time zone'],
    [{ name: '  ' }, 400, 'name is not allowed to be empty', 'name'],
    [{ name: 'tower' }, 409, 'A location named tower already exists'],
  ];
  for (const [body, status, error, field] of cases) {
    const reply = await world.owner.post('/attendance/locations', body);
    t.is(reply.status, status, JSON.stringify(body));
    t.deepEqual(reply.body, field === undefined ? { error } : { error, field }, JSON.stringify(body));
  }
  t.deepEqual(await counts(), before);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('GET /attendance/locations lists by name and filters by q; GET one; unknown ids are 404', async (t) => {
  const list = await world.owner.get('/attendance/locations');
  t.deepEqual(list.body.data.map((row: any) => row.name), ['Annex', 'Tower']);
  t.deepEqual(list.body.pagination, { page: 1, per_page: 25, total: 2, pages: 1 });
  t.deepEqual((await world.owner.get('/attendance/locations?q=champ')).body.data.map((row: any) => row.id), [tower.id]);
  t.deepEqual(ok(await world.owner.get(`/attendance/locations/${tower.id}`)), tower);
  const unknown = await world.owner.get(`/attendance/locations/${UNKNOWN}`);
  t.deepEqual([unknown.status, unknown.body], [404, { error: `Location ${UNKNOWN} not found` }]);
  const patched = await world.owner.patch(`/attendance/locations/${UNKNOWN}`, { name: 'y' });
  t.deepEqual([patched.status, patched.body], [404, { error: `Location ${UNKNOWN} not found` }]);
});

test.serial('PATCH /attendance/locations/{id} (UpdateLocation) changes the given fields, names them in location.updated, and can remove the fence', async (t) => {
  world.takeEvents();
  const renamed = ok(await world.owner.patch(`/attendance/locations/${annex.id}`, { name: 'Annex B', geofence: { latitude: 48.86, longitude: 2.29, radius_m: 250 } }));
  t.is(renamed.name, 'Annex B');
  t.deepEqual(renamed.geofence, { latitude: 48.86, longitude: 2.29, radius_m: 250 });
  t.deepEqual(world.takeEvents(), [{ action: 'core.attendance.location.updated', payload: { location_id: annex.id, name: 'Annex B', has_geofence: true, changed_fields: ['name', 'geofence'], updated_by: world.owner.id } }]);
  const unfenced = ok(await world.owner.patch(`/attendance/locations/${annex.id}`, { geofence: null, address: 'Rue X' }));
  t.is(unfenced.geofence, null);
  t.is(unfenced.address, 'Rue X');
  t.deepEqual(world.takeEvents(), [{ action: 'core.attendance.location.updated', payload: { location_id: annex.id, name: 'Annex B', has_geofence: false, changed_fields: ['address', 'geofence'], updated_by: world.owner.id } }]);
  const same = ok(await world.owner.patch(`/attendance/locations/${annex.id}`, { name: 'Annex B' }));
  t.is(same.name, 'Annex B');
  t.deepEqual(world.takeEvents(), [], 'a change to nothing emits nothing');
  const empty = await world.owner.patch(`/attendance/locations/${annex.id}`, {});
  t.deepEqual([empty.status, empty.body], [400, { error: 'Give at least one of name, address, geofence, timezone' }]);
  const taken = await world.owner.patch(`/attendance/locations/${annex.id}`, { name: 'TOWER' });
  t.deepEqual([taken.status, taken.body], [409, { error: 'A location named TOWER already exists' }]);
  const member = await world.member(['attendance.locations.read']);
  const refused = await member.patch(`/attendance/locations/${annex.id}`, { name: 'Mine' });
  t.deepEqual([refused.status, refused.body], [403, { error: 'Missing permission: attendance.locations.manage' }]);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('clocking in at a geofenced location: refused outside the fence, too imprecise, or without a position; accepted inside', async (t) => {
  world.at('2027-03-01T07:00:00.000Z');
  world.takeEvents();
  const before = await counts();
  const refusals: Array<[unknown, number, string]> = [
    [{ location_id: tower.id }, 400, 'latitude and longitude are required to clock in at Tower: it has a geofence'],
    [{ location_id: tower.id, latitude: 48.8604, longitude: 2.2945 }, 403, 'You are 222 m from Tower, outside its 100 m geofence: you cannot clock in here'],
    [{ location_id: tower.id, latitude: 48.8599, longitude: 2.2945, accuracy_m: 60 }, 403, 'You are 167 m from Tower, outside its 100 m geofence: you cannot clock in here'],
    [{ location_id: tower.id, latitude: 48.8584, longitude: 2.2945, accuracy_m: 150 }, 403, 'Your position is too imprecise to clock in at Tower: accuracy 150 m, at most 100 m is accepted'],
    [{ location_id: tower.id, latitude: 48.8584 }, 400, 'body contains [latitude] without its required peers [longitude]'],
    [{ location_id: UNKNOWN }, 400, `location_id: no location ${UNKNOWN} in this workspace`],
  ];
  for (const [body, status, error] of refusals) {
    const reply = await alice.post('/attendance/clock-ins', body);
    t.deepEqual([reply.status, reply.body], [status, { error }], JSON.stringify(body));
  }
  t.deepEqual(await counts(), before);
  t.deepEqual(world.takeEvents(), []);
  // 166.8 m away with an 80 m accuracy circle: the circle reaches the 100 m fence.
  const reply = await alice.post('/attendance/clock-ins', { location_id: tower.id, latitude: 48.8599, longitude: 2.2945, accuracy_m: 80 });
  t.is(reply.status, 200);
  const attendance = reply.body.data;
  t.like(attendance, {
    member_id: alice.id,
    member_name: 'Alice',
    location_id: tower.id,
    location_name: 'Tower',
    timezone: 'Europe/Paris',
    work_date: '2027-03-01',
    check_in_at: '2027-03-01T07:00:00.000Z',
    check_out_at: null,
    check_in_position: { latitude: 48.8599, longitude: 2.2945, accuracy_m: 80, distance_m: 166.8 },
    open: true,
    on_break: false,
    breaks: [],
    source: 'clock',
    corrected: false,
  });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.attendance.attendance.started', payload: { attendance_id: attendance.id, member_id: alice.id, location_id: tower.id, check_in_at: '2027-03-01T07:00:00.000Z', position: { latitude: 48.8599, longitude: 2.2945, accuracy_m: 80, distance_m: 166.8 } } },
  ]);
  const again = await alice.post('/attendance/clock-ins', {});
  t.deepEqual([again.status, again.body], [409, { error: 'You are already clocked in since 2027-03-01T07:00:00.000Z at Tower' }]);
  const state = ok(await alice.get('/attendance/status'));
  t.deepEqual([state.clocked_in, state.on_break, state.attendance.id], [true, false, attendance.id]);
});

let aliceDay1: any;

test.serial('breaks: one at a time inside the open attendance; clocking out is fenced too and ends an open break', async (t) => {
  const idle = await bob.post('/attendance/break-starts', {});
  t.deepEqual([idle.status, idle.body], [409, { error: 'You are not clocked in' }]);
  const noBreak = await alice.post('/attendance/break-ends', {});
  t.deepEqual([noBreak.status, noBreak.body], [409, { error: 'You are not on a break' }]);
  world.at('2027-03-01T11:00:00.000Z');
  world.takeEvents();
  const onBreak = ok(await alice.post('/attendance/break-starts'));
  t.is(onBreak.on_break, true);
  t.deepEqual(onBreak.breaks.map((row: any) => [row.start_at, row.end_at]), [['2027-03-01T11:00:00.000Z', null]]);
  const twice = await alice.post('/attendance/break-starts', {});
  t.deepEqual([twice.status, twice.body], [409, { error: 'You are already on a break since 2027-03-01T11:00:00.000Z' }]);
  world.at('2027-03-01T11:30:00.000Z');
  const back = ok(await alice.post('/attendance/break-ends', {}));
  t.is(back.on_break, false);
  t.deepEqual(back.breaks.map((row: any) => [row.start_at, row.end_at, row.seconds]), [['2027-03-01T11:00:00.000Z', '2027-03-01T11:30:00.000Z', 1800]]);
  world.at('2027-03-01T14:45:00.000Z');
  ok(await alice.post('/attendance/break-starts', {}));
  const events = world.takeEvents();
  t.deepEqual(events.map((event) => event.action), ['core.attendance.break.started', 'core.attendance.break.ended', 'core.attendance.break.started']);
  t.deepEqual(events[1].payload, { break_id: back.breaks[0].id, attendance_id: back.id, member_id: alice.id, start_at: '2027-03-01T11:00:00.000Z', end_at: '2027-03-01T11:30:00.000Z' });
  world.at('2027-03-01T15:00:00.000Z');
  const away = await alice.post('/attendance/clock-outs', { latitude: 48.87, longitude: 2.2945 });
  t.deepEqual([away.status, away.body], [403, { error: 'You are 1290 m from Tower, outside its 100 m geofence: you cannot clock out here' }]);
  t.deepEqual(world.takeEvents(), []);
  const out = ok(await alice.post('/attendance/clock-outs', { latitude: 48.8589, longitude: 2.2945 }));
  aliceDay1 = out;
  t.like(out, { check_out_at: '2027-03-01T15:00:00.000Z', check_out_position: { latitude: 48.8589, longitude: 2.2945, distance_m: 55.6 }, open: false, on_break: false, worked_seconds: 28800, break_seconds: 2700, net_seconds: 26100 });
  t.deepEqual(out.breaks.map((row: any) => [row.start_at, row.end_at]), [['2027-03-01T11:00:00.000Z', '2027-03-01T11:30:00.000Z'], ['2027-03-01T14:45:00.000Z', '2027-03-01T15:00:00.000Z']]);
  const closing = world.takeEvents();
  t.deepEqual(closing.map((event) => event.action), ['core.attendance.break.ended', 'core.attendance.attendance.ended']);
  t.deepEqual(closing[1].payload, { attendance_id: out.id, member_id: alice.id, location_id: tower.id, check_in_at: '2027-03-01T07:00:00.000Z', check_out_at: '2027-03-01T15:00:00.000Z', worked_seconds: 28800, break_seconds: 2700, position: { latitude: 48.8589, longitude: 2.2945, distance_m: 55.6 } });
  const again = await alice.post('/attendance/clock-outs', {});
  t.deepEqual([again.status, again.body], [409, { error: 'You are not clocked in' }]);
  t.deepEqual(ok(await alice.get('/attendance/status')), { member_id: alice.id, clocked_in: false, on_break: false, attendance: null });
});

test.serial("timesheets: per-day worked, break and net time; a day is the check-in's date in the location's zone, else the settings' zone", async (t) => {
  // 00:30 in Paris on 2 March (23:30 UTC on 1 March): it counts on 2 March.
  world.at('2027-03-01T23:30:00.000Z');
  const night = ok(await alice.post('/attendance/clock-ins', { location_id: tower.id, latitude: 48.8584, longitude: 2.2945 }));
  t.is(night.work_date, '2027-03-02');
  world.at('2027-03-02T02:30:00.000Z');
  ok(await alice.post('/attendance/clock-outs', { latitude: 48.8584, longitude: 2.2945 }));
  // No location: the settings' zone (UTC); past midnight it still counts whole on its first day.
  world.at('2027-03-02T23:00:00.000Z');
  const late = ok(await alice.post('/attendance/clock-ins', {}));
  t.deepEqual([late.timezone, late.work_date, late.location_id, late.check_in_position], ['UTC', '2027-03-02', null, null]);
  world.at('2027-03-03T00:30:00.000Z');
  ok(await alice.post('/attendance/clock-outs'));
  const sheet = await alice.get('/attendance/timesheets?from=2027-03-01&to=2027-03-04');
  t.is(sheet.status, 200);
  t.deepEqual(sheet.body.data, {
    member_id: alice.id,
    from: '2027-03-01',
    to: '2027-03-04',
    open: false,
    days: [
      { date: '2027-03-01', attendances: 1, worked_seconds: 28800, break_seconds: 2700, net_seconds: 26100 },
      { date: '2027-03-02', attendances: 2, worked_seconds: 16200, break_seconds: 0, net_seconds: 16200 },
      { date: '2027-03-03', attendances: 0, worked_seconds: 0, break_seconds: 0, net_seconds: 0 },
      { date: '2027-03-04', attendances: 0, worked_seconds: 0, break_seconds: 0, net_seconds: 0 },
    ],
    totals: { attendances: 3, worked_seconds: 45000, break_seconds: 2700, net_seconds: 42300 },
  });
  // The settings' zone moves the no-location attendances' days (new ones: stored days do not move).
  t.is((await world.owner.put('/apps/attendance/settings', { timezone: 'America/New_York', max_accuracy_m: 100, require_location: false })).status, 200);
  world.at('2027-03-04T03:00:00.000Z');
  const evening = ok(await alice.post('/attendance/clock-ins', {}));
  t.deepEqual([evening.timezone, evening.work_date], ['America/New_York', '2027-03-03']);
  // An open attendance counts up to now.
  world.at('2027-03-04T04:00:00.000Z');
  const open = ok(await alice.get('/attendance/timesheets?from=2027-03-03&to=2027-03-03'));
  t.deepEqual([open.open, open.days[0].worked_seconds], [true, 3600]);
  ok(await alice.post('/attendance/clock-outs'));
  for (const [query, error] of [
    ['from=2027-03-05&to=2027-03-01', 'from must not be after to'],
    ['from=2027-01-01&to=2027-06-01', 'The period may cover at most 92 days'],
    ['from=2027-02-30&to=2027-03-01', '"from" must be a real calendar date written YYYY-MM-DD'],
  ]) {
    const reply = await alice.get(`/attendance/timesheets?${query}`);
    t.is(reply.status, 400, query);
    if (!query.includes('02-30')) t.deepEqual(reply.body, { error }, query);
  }
  t.is((await world.owner.put('/apps/attendance/settings', { timezone: 'UTC', max_accuracy_m: 100, require_location: true })).status, 200);
  const bare = await bob.post('/attendance/clock-ins', {});
  t.deepEqual([bare.status, bare.body], [400, { error: 'location_id is required: this workspace clocks in at a location' }]);
  t.is((await world.owner.put('/apps/attendance/settings', { timezone: 'UTC', max_accuracy_m: 100, require_location: false })).status, 200);
});

test.serial("a member sees only their own attendances, timesheet and corrections; the read key shows everyone's", async (t) => {
  const own = await bob.get('/attendance/attendances');
  t.deepEqual([own.status, own.body.data], [200, []]);
  const other = await bob.get(`/attendance/attendances?member_id=${alice.id}`);
  t.deepEqual([other.status, other.body], [403, { error: "Missing permission: attendance.attendances.read (needed for another member's attendances)" }]);
  const sheet = await bob.get(`/attendance/timesheets?member_id=${alice.id}&from=2027-03-01&to=2027-03-01`);
  t.is(sheet.status, 403);
  const single = await bob.get(`/attendance/attendances/${aliceDay1.id}`);
  t.deepEqual([single.status, single.body], [404, { error: `Attendance ${aliceDay1.id} not found` }]);
  const everyone = await manager.get(`/attendance/attendances?member_id=${alice.id}&from=2027-03-01&to=2027-03-02`);
  t.deepEqual(everyone.body.data.map((row: any) => row.work_date), ['2027-03-02', '2027-03-02', '2027-03-01']);
  const theirs = ok(await manager.get(`/attendance/timesheets?member_id=${alice.id}&from=2027-03-01&to=2027-03-01`));
  t.is(theirs.totals.net_seconds, 26100);
  const nobody = await world.member(['attendance.locations.read']);
  const refused = await nobody.get('/attendance/attendances');
  t.deepEqual([refused.status, refused.body], [403, { error: 'Missing permission: attendance.attendances.record' }]);
});

test.serial('corrections: a manager fixes times with a reason; the audit trail keeps the times before and after, who and why, and the member sees it', async (t) => {
  world.takeEvents();
  const before = await counts();
  const refusals: Array<[unknown, number, string, string?]> = [
    [{ check_out_at: '2027-03-01T16:00:00.000Z' }, 400, 'reason is required', 'reason'],
    [{ check_out_at: '2027-03-01T06:00:00.000Z', reason: 'left late' }, 400, 'check_out_at must be after check_in_at'],
    [{ check_out_at: '2099-01-01T00:00:00.000Z', reason: 'left late' }, 400, 'check_out_at must not be in the future'],
    [{ check_in_at: '2027-03-01T07:00:00.000Z', reason: 'no change' }, 400, 'The correction changes nothing'],
    [{ check_out_at: '2027-03-02T00:00:00.000Z', reason: 'stayed' }, 409, `The corrected times overlap the member's attendance`],
    [{ check_in_at: '2027-03-01T12:00:00.000Z', reason: 'came late' }, 400, 'breaks[0] (2027-03-01T11:00:00.000Z) lies outside the attendance; give breaks that fit the corrected times'],
    [{ breaks: [{ start_at: '2027-03-01T10:00:00.000Z', end_at: '2027-03-01T11:00:00.000Z' }, { start_at: '2027-03-01T10:30:00.000Z', end_at: '2027-03-01T10:45:00.000Z' }], reason: 'breaks' }, 400, 'breaks[1] overlaps breaks[0]'],
  ];
  for (const [body, status, error, field] of refusals) {
    const reply = await manager.patch(`/attendance/attendances/${aliceDay1.id}`, body);
    t.is(reply.status, status, JSON.stringify(body));
    if (status === 409) t.true(String(reply.body.error).startsWith(error), reply.body.error);
    else t.deepEqual(reply.body, field === undefined ? { error } : { error, field }, JSON.stringify(body));
  }
  const member = await alice.patch(`/attendance/attendances/${aliceDay1.id}`, { check_out_at: '2027-03-01T16:00:00.000Z', reason: 'I stayed' });
  t.deepEqual([member.status, member.body], [403, { error: 'Missing permission: attendance.attendances.manage' }]);
  t.deepEqual(await counts(), before);
  t.deepEqual(world.takeEvents(), []);

  const fixed = ok(await manager.patch(`/attendance/attendances/${aliceDay1.id}`, { check_out_at: '2027-03-01T16:00:00.000Z', breaks: [{ start_at: '2027-03-01T11:00:00.000Z', end_at: '2027-03-01T12:00:00.000Z' }], reason: 'Forgot to clock out after the meeting' }));
  t.like(fixed, { check_in_at: '2027-03-01T07:00:00.000Z', check_out_at: '2027-03-01T16:00:00.000Z', worked_seconds: 32400, break_seconds: 3600, net_seconds: 28800, corrected: true });
  t.is(fixed.corrections.length, 1);
  const correction = fixed.corrections[0];
  t.deepEqual({ ...correction, created_at: undefined }, {
    id: correction.id,
    attendance_id: aliceDay1.id,
    member_id: alice.id,
    kind: 'edited',
    before: { check_in_at: '2027-03-01T07:00:00.000Z', check_out_at: '2027-03-01T15:00:00.000Z', location_id: tower.id, breaks: [{ start_at: '2027-03-01T11:00:00.000Z', end_at: '2027-03-01T11:30:00.000Z' }, { start_at: '2027-03-01T14:45:00.000Z', end_at: '2027-03-01T15:00:00.000Z' }] },
    after: { check_in_at: '2027-03-01T07:00:00.000Z', check_out_at: '2027-03-01T16:00:00.000Z', location_id: tower.id, breaks: [{ start_at: '2027-03-01T11:00:00.000Z', end_at: '2027-03-01T12:00:00.000Z' }] },
    changed_fields: ['check_out_at', 'breaks'],
    reason: 'Forgot to clock out after the meeting',
    corrected_by: manager.id,
    created_at: undefined,
  });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.attendance.attendance.corrected', payload: { correction_id: correction.id, attendance_id: aliceDay1.id, member_id: alice.id, kind: 'edited', changed_fields: ['check_out_at', 'breaks'], reason: 'Forgot to clock out after the meeting', corrected_by: manager.id } },
  ]);
  // The member sees the trail of their own attendance.
  const seen = ok(await alice.get(`/attendance/attendances/${aliceDay1.id}`));
  t.deepEqual(seen.corrections.map((row: any) => row.id), [correction.id]);
  t.deepEqual((await alice.get('/attendance/corrections')).body.data.map((row: any) => row.id), [correction.id]);
  t.deepEqual((await bob.get('/attendance/corrections')).body.data, []);
  t.is(ok(await alice.get('/attendance/timesheets?from=2027-03-01&to=2027-03-01')).totals.net_seconds, 28800);

  // A missed day, added by the manager for Bob.
  const added = ok(await manager.post('/attendance/attendances', { member_id: bob.id, check_in_at: '2027-03-02T08:00:00Z', check_out_at: '2027-03-02T12:00:00Z', location_id: annex.id, breaks: [{ start_at: '2027-03-02T10:00:00Z', end_at: '2027-03-02T10:15:00Z' }], reason: 'Badge reader was down' }));
  t.like(added, { member_id: bob.id, location_name: 'Annex B', source: 'manual', corrected: true, work_date: '2027-03-02', worked_seconds: 14400, break_seconds: 900, net_seconds: 13500 });
  t.deepEqual(added.corrections.map((row: any) => [row.kind, row.before, row.changed_fields, row.reason]), [['created', null, ['check_in_at', 'check_out_at', 'location_id', 'breaks'], 'Badge reader was down']]);
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload.kind, event.payload.member_id]), [['core.attendance.attendance.corrected', 'created', bob.id]]);
  const overlap = await manager.post('/attendance/attendances', { member_id: bob.id, check_in_at: '2027-03-02T11:00:00Z', check_out_at: '2027-03-02T13:00:00Z', reason: 'again' });
  t.deepEqual([overlap.status, overlap.body], [409, { error: `The corrected times overlap the member's attendance ${added.id} (2027-03-02T08:00:00.000Z – 2027-03-02T12:00:00.000Z)` }]);
  const trail = await manager.get(`/attendance/corrections?member_id=${bob.id}`);
  t.deepEqual(trail.body.data.map((row: any) => row.attendance_id), [added.id]);
});

test.serial('GET /attendance/exports answers an RFC 4180 CSV file, spreadsheet-safe, ordered by day and check-in', async (t) => {
  world.at('2027-03-05T09:00:00.000Z');
  // Bob clocks in at the Annex (no fence): his name starts with "=", which must not become a formula.
  ok(await bob.post('/attendance/clock-ins', { location_id: annex.id }));
  const reply = await manager.get('/attendance/exports?from=2027-03-01&to=2027-03-05');
  t.is(reply.status, 200);
  t.is(reply.headers['content-type'], 'text/csv; charset=utf-8');
  t.is(reply.headers['content-disposition'], `attachment; filename="attendance-2027-03-01-to-2027-03-05.csv"; filename*=UTF-8''attendance-2027-03-01-to-2027-03-05.csv`);
  const rows = ok(await manager.get(`/attendance/attendances?from=2027-03-01&to=2027-03-05&per_page=100`));
  const id = (date: string, member: string) => rows.filter((row: any) => row.work_date === date && row.member_id === member).map((row: any) => row.id);
  const [a1] = id('2027-03-01', alice.id);
  const [a2, a3] = id('2027-03-02', alice.id).reverse();
  const [a4] = id('2027-03-03', alice.id);
  const [b1] = id('2027-03-02', bob.id);
  const [b2] = id('2027-03-05', bob.id);
  const lines = String(reply.body).split('\r\n');
  t.is(lines.at(-1), '', 'the last record ends with CRLF');
  t.deepEqual(lines.slice(0, -1), [
    'attendance_id,member_id,member_name,location,work_date,timezone,check_in,check_out,worked_minutes,break_minutes,net_minutes,source,corrected',
    `${a1},${alice.id},Alice,Tower,2027-03-01,Europe/Paris,2027-03-01 08:00:00,2027-03-01 17:00:00,540,60,480,clock,true`,
    `${a2},${alice.id},Alice,Tower,2027-03-02,Europe/Paris,2027-03-02 00:30:00,2027-03-02 03:30:00,180,0,180,clock,false`,
    `${b1},${bob.id},'=Bob@corp,Annex B,2027-03-02,UTC,2027-03-02 08:00:00,2027-03-02 12:00:00,240,15,225,manual,true`,
    `${a3},${alice.id},Alice,,2027-03-02,UTC,2027-03-02 23:00:00,2027-03-03 00:30:00,90,0,90,clock,false`,
    `${a4},${alice.id},Alice,,2027-03-03,America/New_York,2027-03-03 22:00:00,2027-03-03 23:00:00,60,0,60,clock,false`,
    `${b2},${bob.id},'=Bob@corp,Annex B,2027-03-05,UTC,2027-03-05 09:00:00,,0,0,0,clock,false`,
  ]);
  const one = await manager.get(`/attendance/exports?from=2027-03-01&to=2027-03-05&member_id=${bob.id}`);
  t.is(String(one.body).split('\r\n').filter(Boolean).length, 3);
  const refused = await alice.get('/attendance/exports?from=2027-03-01&to=2027-03-05');
  t.deepEqual([refused.status, refused.body], [403, { error: 'Missing permission: attendance.attendances.export' }]);
  const long = await manager.get('/attendance/exports?from=2027-01-01&to=2028-01-02');
  t.deepEqual([long.status, long.body], [400, { error: 'The period may cover at most 366 days' }]);
});

test.serial('DELETE /attendance/locations/{id}: refused while someone is clocked in there; past attendances keep its name', async (t) => {
  world.takeEvents();
  const busy = await world.owner.delete(`/attendance/locations/${annex.id}`);
  t.deepEqual([busy.status, busy.body], [409, { error: '1 member is clocked in at Annex B: clock them out first' }]);
  t.deepEqual(world.takeEvents(), []);
  world.at('2027-03-05T10:00:00.000Z');
  ok(await bob.post('/attendance/clock-outs', {}));
  world.takeEvents();
  const deleted = await world.owner.delete(`/attendance/locations/${annex.id}`);
  t.deepEqual([deleted.status, deleted.body.data], [200, { id: annex.id, name: 'Annex B', deleted: true }]);
  t.deepEqual(world.takeEvents(), [{ action: 'core.attendance.location.deleted', payload: { location_id: annex.id, name: 'Annex B', deleted_by: world.owner.id } }]);
  t.true(world.platform.search.some((change) => change.op === 'remove' && change.id === annex.id));
  const kept = ok(await bob.get('/attendance/attendances'));
  t.deepEqual(kept.map((row: any) => [row.location_id, row.location_name]), [[null, 'Annex B'], [null, 'Annex B']]);
  const gone = await world.owner.get(`/attendance/locations/${annex.id}`);
  t.is(gone.status, 404);
});

test.serial('one open attendance per member even when two clock-ins race', async (t) => {
  world.at('2027-03-06T08:00:00.000Z');
  const carol = await world.member([RECORD], { name: 'Carol' });
  const replies = await Promise.all([carol.post('/attendance/clock-ins', {}), carol.post('/attendance/clock-ins', {})]);
  t.deepEqual(replies.map((reply) => reply.status).sort(), [200, 409]);
  t.is(ok(await carol.get('/attendance/attendances?open=true')).length, 1);
});

test.serial('member_id names a member of this workspace: a random id or another workspace\'s member is a 400 naming the field; a removed member may still be named, a newcomer at once', async (t) => {
  const elsewhere = (await world.otherWorkspace('attendance-elsewhere')).owner;
  const day = { check_in_at: '2027-03-05T08:00:00Z', check_out_at: '2027-03-05T12:00:00Z', reason: 'Forgot the badge' };
  const before = await counts();
  world.takeEvents();
  for (const stranger of [UNKNOWN, elsewhere.id]) {
    const added = await manager.post('/attendance/attendances', { ...day, member_id: stranger });
    t.deepEqual([added.status, added.body], [400, { error: `member_id ${stranger} is not a member of this workspace` }]);
    for (const path of ['/attendance/attendances?', '/attendance/corrections?', '/attendance/timesheets?from=2027-03-01&to=2027-03-05&', '/attendance/exports?from=2027-03-01&to=2027-03-05&']) {
      const read = await manager.get(`${path}member_id=${stranger}`);
      t.deepEqual([read.status, read.body], [400, { error: `query parameter member_id ${stranger} is not a member of this workspace` }], path);
    }
  }
  t.deepEqual(await counts(), before);
  t.deepEqual(world.takeEvents(), []);

  // Dana joined a moment ago: her missed morning is added at once, under her directory name.
  const dana = await world.member([RECORD], { name: 'Dana' });
  const first = ok(await manager.post('/attendance/attendances', { ...day, member_id: dana.id }));
  t.like(first, { member_id: dana.id, member_name: 'Dana', source: 'manual', work_date: '2027-03-05' });
  // She leaves; her last afternoon can still be added before payroll closes, and her timesheet read.
  t.is((await world.owner.delete(`/members/${dana.id}`)).status, 200);
  const last = ok(await manager.post('/attendance/attendances', { member_id: dana.id, check_in_at: '2027-03-05T13:00:00Z', check_out_at: '2027-03-05T17:00:00Z', reason: 'Last afternoon' }));
  t.like(last, { member_id: dana.id, member_name: 'Dana' });
  t.is(ok(await manager.get(`/attendance/timesheets?member_id=${dana.id}&from=2027-03-05&to=2027-03-05`)).totals.worked_seconds, 8 * 3600);
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload.member_id]), [
    ['core.attendance.attendance.corrected', dana.id],
    ['core.attendance.attendance.corrected', dana.id],
  ]);
});

test.serial('a break started and ended within one second is kept as a zero-length break, and a later correction still goes through', async (t) => {
  const carol = await world.member([RECORD], { name: 'Carol' });
  world.at('2027-03-10T08:00:00.000Z');
  const opened = ok(await carol.post('/attendance/clock-ins', {}));
  // A tap on "Start break" and, within the same second, on "End break": both are accepted.
  world.at('2027-03-10T10:00:00.400Z');
  ok(await carol.post('/attendance/break-starts', {}));
  world.at('2027-03-10T10:00:00.900Z');
  const back = ok(await carol.post('/attendance/break-ends', {}));
  t.like(back, { on_break: false, break_seconds: 0 });
  t.deepEqual(back.breaks.map((row: any) => [row.start_at, row.end_at, row.seconds]), [['2027-03-10T10:00:00.000Z', '2027-03-10T10:00:00.000Z', 0]]);
  world.at('2027-03-10T17:00:00.000Z');
  ok(await carol.post('/attendance/clock-outs', {}));
  world.at('2027-03-11T09:00:00.000Z');

  // The manager corrects the check-out without touching the breaks: the zero-length break does not stand in the way.
  const fixed = ok(await manager.patch(`/attendance/attendances/${opened.id}`, { check_out_at: '2027-03-10T17:30:00.000Z', reason: 'Stayed for the delivery' }));
  t.like(fixed, { check_out_at: '2027-03-10T17:30:00.000Z', worked_seconds: 34200, break_seconds: 0, net_seconds: 34200, corrected: true });
  t.deepEqual(fixed.breaks.map((row: any) => [row.start_at, row.end_at]), [['2027-03-10T10:00:00.000Z', '2027-03-10T10:00:00.000Z']]);
  t.deepEqual(fixed.corrections[0].changed_fields, ['check_out_at']);

  // Breaks given whole may hold a zero-length one too (a form sends back what it showed); one that ends before it starts is refused.
  const backwards = await manager.patch(`/attendance/attendances/${opened.id}`, { breaks: [{ start_at: '2027-03-10T12:00:00.000Z', end_at: '2027-03-10T11:59:59.000Z' }], reason: 'Lunch' });
  t.deepEqual([backwards.status, backwards.body], [400, { error: 'breaks[0]: end_at must not be before start_at' }]);
  const lunch = ok(await manager.patch(`/attendance/attendances/${opened.id}`, { breaks: [{ start_at: '2027-03-10T10:00:00.000Z', end_at: '2027-03-10T10:00:00.000Z' }, { start_at: '2027-03-10T12:00:00.000Z', end_at: '2027-03-10T12:30:00.000Z' }], reason: 'Lunch was not clocked' }));
  t.like(lunch, { break_seconds: 1800, net_seconds: 32400 });
  t.deepEqual(lunch.corrections.map((row: any) => row.changed_fields), [['check_out_at'], ['breaks']]);
});

test.serial('the authorization table holds for every route (permission matrix)', async (t) => {
  const rows = await world.workspace.permissionMatrix('attendance', { params: { id: tower.id, attendance_id: aliceDay1.id } });
  t.true(rows.length >= 17);
});

test.serial('every table can be distributed by workspace', async (t) => {
  t.deepEqual(await world.platform.distributionProblems(), []);
});
