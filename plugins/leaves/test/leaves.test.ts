import test from 'ava';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { ok, startWorld, type TestMember, type World } from '@wpk/testing';
import app from '../src/index.js';

const OTHER_APPS = ['workers', 'settings'].map((slug) => fileURLToPath(new URL(`../../${slug}`, import.meta.url)));
const UNKNOWN = '00000000-0000-4000-8000-000000000abc';
const CALENDAR = '00000000-0000-4000-8000-0000000000c1';
const HR_KEYS = ['leaves.types.read', 'leaves.types.manage', 'leaves.allocations.manage', 'leaves.requests.create', 'leaves.requests.manage', 'leaves.absences.read'];
const STAFF_KEYS = ['leaves.types.read', 'leaves.requests.create', 'leaves.absences.read'];

let world: World;
let hr: TestMember;
let boss: TestMember;
let ann: TestMember;
let bob: TestMember;
const ids: Record<string, string> = {};
let revision = 10;

/** A worker as Workers' events describe them, delivered to Leaves. */
async function hireWorker(name: string, member: TestMember | null, managerId: string | null, action = 'core.workers.worker.hired', id = crypto.randomUUID()) {
  await world.deliver(action, {
    worker_id: id, mrn: `mrn:workers:worker:${id}`, name, work_email: `${name.toLowerCase().replace(/\s/g, '')}@example.test`, status: 'active', revision: ++revision,
    ...(member ? { member_id: member.id } : {}), ...(managerId ? { manager_id: managerId } : {}),
  });
  return id;
}

test.before(async () => {
  world = await startWorld({ app, subdomain: 'leaves', apps: OTHER_APPS, firstParty: ['leaves', 'workers', 'settings'], clock: new Date('2026-03-02T09:00:00.000Z') });
  hr = await world.member(HR_KEYS);
  [boss, ann, bob] = await world.members(3, STAFF_KEYS);
  await world.deliver('core.settings.calendar.created', { calendar_id: CALENDAR, name: 'France', working_days: [1, 2, 3, 4, 5], hours_per_day: 8, created_by: hr.id });
  await world.deliver('core.settings.holiday.created', { holiday_id: crypto.randomUUID(), calendar_id: CALENDAR, date: '2026-04-06', name: 'Easter Monday', source: 'manual', created_by: hr.id });
  ids.boss = await hireWorker('Grace Boss', boss, null);
  ids.ann = await hireWorker('Ann Staff', ann, ids.boss);
  ids.bob = await hireWorker('Bob Staff', bob, ids.boss);
  ids.paid = ok(await hr.post('/leaves/types', { name: 'Paid leave', unit: 'half_day' })).id;
  ids.hours = ok(await hr.post('/leaves/types', { name: 'Doctor', unit: 'hour', needs_allocation: false })).id;
  world.takeEvents();
});
test.after.always(() => world?.close());

const balance = async (member: TestMember, typeId = ids.paid) => (ok(await member.get('/leaves/balances')) as any[]).find((row) => row.type_id === typeId);

test.serial('types: create, read, update emits type.updated once, bad input is a 400 naming the field, a taken name a 409', async (t) => {
  const made = ok(await hr.post('/leaves/types', { name: 'Sick', unit: 'day', paid: true, needs_allocation: false, approval: 'manager_then_hr', carry_over_cap: 0 }));
  t.like(made, { name: 'Sick', unit: 'day', needs_allocation: false, approval: 'manager_then_hr', carry_over_cap: 0, default_allocation: 0, holidays_excluded: true, revision: 1 });
  t.deepEqual(world.takeEvents(), []);
  const changed = ok(await hr.patch(`/leaves/types/${made.id}`, { carry_over_cap: 5, name: 'Sick leave' }));
  t.like(changed, { name: 'Sick leave', carry_over_cap: 5, revision: 2 });
  t.deepEqual(world.takeEvents(), [{ action: 'core.leaves.type.updated', payload: { type_id: made.id, name: 'Sick leave', unit: 'day', changed_fields: ['name', 'carry_over_cap'], revision: 2, by: hr.mrn } }]);
  const bad = await hr.post('/leaves/types', { name: 'X', unit: 'week' });
  t.is(bad.status, 400);
  t.is(bad.body.field, 'unit');
  const taken = await hr.post('/leaves/types', { name: 'PAID LEAVE', unit: 'day' });
  t.is(taken.status, 409);
  t.is(taken.body.error, `Leave type ${ids.paid} is already named Paid leave`);
  t.is((await ann.post('/leaves/types', { name: 'Mine', unit: 'day' })).status, 403);
  t.deepEqual(ok(await ann.get('/leaves/types')).map((type: any) => type.name), ['Doctor', 'Paid leave', 'Sick leave']);
  t.is((await hr.delete(`/leaves/types/${made.id}`)).status, 200);
  t.is((await hr.get(`/leaves/types/${made.id}`)).status, 404);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('duration: working days only; a weekend and a holiday count 0; a half day on a holiday is refused as 0', async (t) => {
  ok(await hr.post('/leaves/allocations', { worker_id: ids.ann, type_id: ids.paid, amount: 20 }));
  world.takeEvents();
  // Friday 3 April to Tuesday 7 April 2026: Fri, (Sat, Sun), (Easter Monday), Tue = 2 days.
  const easter = ok(await ann.post('/leaves/requests', { type_id: ids.paid, from_date: '2026-04-03', to_date: '2026-04-07', status: 'draft' }));
  t.like(easter, { duration: 2, status: 'draft', worker_id: ids.ann, worker_name: 'Ann Staff', type_name: 'Paid leave' });
  const half = ok(await ann.post('/leaves/requests', { type_id: ids.paid, from_date: '2026-04-08', to_date: '2026-04-09', to_half: 'am', status: 'draft' }));
  t.is(half.duration, 1.5);
  const onHoliday = await ann.post('/leaves/requests', { type_id: ids.paid, from_date: '2026-04-06', from_half: 'pm' });
  t.is(onHoliday.status, 400);
  t.is(onHoliday.body.error, '2026-04-06 to 2026-04-06 covers no working time (weekends and public holidays count 0): the duration would be 0');
  const weekend = await ann.post('/leaves/requests', { type_id: ids.paid, from_date: '2026-04-04', to_date: '2026-04-05' });
  t.is(weekend.status, 400);
  const hours = ok(await ann.post('/leaves/requests', { type_id: ids.hours, from_date: '2026-04-10', hours: 2.5, from_half: 'am', to_half: 'am' }));
  t.like(hours, { duration: 2.5, status: 'submitted', approver_id: ids.boss });
  t.is((await ann.post('/leaves/requests', { type_id: ids.hours, from_date: '2026-04-10', to_date: '2026-04-11', hours: 2 })).body.field, 'to_date');
  t.is((await ann.post('/leaves/requests', { type_id: ids.paid, from_date: '2026-04-10', hours: 2 })).body.field, 'hours');
  t.is((await ann.post('/leaves/requests', { type_id: UNKNOWN, from_date: '2026-04-10' })).body.field, 'type_id');
  for (const id of [easter.id, half.id]) t.is((await ann.patch(`/leaves/requests/${id}`, { status: 'submitted' })).status, 200);
  t.like(await balance(ann), { balance: 20, pending: 3.5, available: 16.5 });
});

test.serial('no overlap: a full day and a half day on the same date cannot both be live; concurrent submissions: exactly one wins', async (t) => {
  const full = ok(await bob.post('/leaves/requests', { type_id: ids.hours, from_date: '2026-05-04', hours: 8 }));
  t.is(full.status, 'submitted');
  const clash = await bob.post('/leaves/requests', { type_id: ids.hours, from_date: '2026-05-04', hours: 4, from_half: 'pm', to_half: 'pm' });
  t.is(clash.status, 409);
  t.is(clash.body.error, `The afternoon of 2026-05-04 is already taken by request ${full.id}`);
  // Freed once withdrawn.
  t.is(ok(await bob.patch(`/leaves/requests/${full.id}`, { status: 'withdrawn' })).status, 'withdrawn');
  world.takeEvents();
  const racers = await Promise.all([
    bob.post('/leaves/requests', { type_id: ids.hours, from_date: '2026-05-05', hours: 8 }),
    bob.post('/leaves/requests', { type_id: ids.hours, from_date: '2026-05-05', hours: 4, from_half: 'pm', to_half: 'pm' }),
    bob.post('/leaves/requests', { type_id: ids.hours, from_date: '2026-05-05', hours: 4, from_half: 'am', to_half: 'pm' }),
  ]);
  t.deepEqual(racers.map((reply) => reply.status).sort(), [200, 409, 409]);
  const [slots] = await world.query<{ n: number }>("SELECT count(*)::int AS n FROM app_leaves.request_slots WHERE workspace_id = :id AND day = '2026-05-05'", { id: world.workspaceId });
  t.true(slots.n === 1 || slots.n === 2);
  t.is(world.takeEvents().filter((event) => event.action === 'core.leaves.request.submitted').length, 1);
  // The database refuses it even when the service's own check is passed by.
  const error = await world.query(`INSERT INTO app_leaves.request_slots (workspace_id, id, worker_id, day, half, request_id) SELECT workspace_id, gen_random_uuid(), worker_id, day, half, request_id FROM app_leaves.request_slots WHERE workspace_id = :id AND day = '2026-05-05' LIMIT 1`, { id: world.workspaceId }).then(() => null, (failure: Error) => failure);
  t.truthy(error);
  const winner = racers.find((reply) => reply.status === 200)!.body.data;
  t.is(ok(await bob.patch(`/leaves/requests/${winner.id}`, { status: 'withdrawn' })).status, 'withdrawn');
  world.takeEvents();
});

test.serial('request time off and approve it as the manager: the ledger takes it, the events say so once; refusal needs a reason; self-approval refused', async (t) => {
  const request = ok(await ann.post('/leaves/requests', { type_id: ids.paid, from_date: '2026-06-01', to_date: '2026-06-05', note: 'Holiday' }));
  t.like(request, { duration: 5, status: 'submitted', awaiting: 'manager', approver_id: ids.boss });
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.leaves.request.submitted']);
  t.is((await ann.patch(`/leaves/requests/${request.id}`, { status: 'approved' })).body.error, 'You cannot approve your own request');
  t.is((await bob.patch(`/leaves/requests/${request.id}`, { status: 'approved' })).status, 404);
  const refuse = await boss.patch(`/leaves/requests/${request.id}`, { status: 'refused' });
  t.deepEqual([refuse.status, refuse.body], [400, { error: 'reason is required to refuse a request', field: 'reason' }]);
  t.deepEqual(world.takeEvents(), []);
  const approved = ok(await boss.patch(`/leaves/requests/${request.id}`, { status: 'approved' }));
  t.like(approved, { status: 'approved', awaiting: null, decided_by: boss.id });
  const events = world.takeEvents();
  t.deepEqual(events.map((event) => event.action), ['core.leaves.request.approved']);
  t.like(events[0].payload, { request_id: request.id, worker_id: ids.ann, duration: 5, status: 'approved', by: boss.mrn });
  t.like(await balance(ann), { balance: 15, pending: 3.5 });
  const ledger = ok(await ann.get(`/leaves/ledger?type_id=${ids.paid}`));
  t.deepEqual(ledger.map((entry: any) => [entry.kind, entry.amount, entry.balance_after]), [['allocation', 20, 20], ['request', -5, 15]]);
  t.is((await boss.patch(`/leaves/requests/${request.id}`, { status: 'submitted' })).status, 409);
  // The approver cancels: the days come back.
  ok(await boss.patch(`/leaves/requests/${request.id}`, { status: 'cancelled', reason: 'Plans changed' }));
  t.like(await balance(ann), { balance: 20 });
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.leaves.request.cancelled']);
});

test.serial('a draft is deleted by its worker or by who drafted it; anyone else is refused; any other status is a 409; nothing else changes, no event', async (t) => {
  const requests = async () => (await world.query<{ n: number }>('SELECT count(*)::int AS n FROM app_leaves.requests WHERE workspace_id = :id', { id: world.workspaceId }))[0].n;
  const draft = ok(await ann.post('/leaves/requests', { type_id: ids.paid, from_date: '2026-07-06', to_date: '2026-07-07', status: 'draft' }));
  const forBob = ok(await hr.post('/leaves/requests', { worker_id: ids.bob, type_id: ids.hours, from_date: '2026-07-08', hours: 2, status: 'draft' }));
  const submitted = ok(await ann.post('/leaves/requests', { type_id: ids.paid, from_date: '2026-07-09' }));
  const approved = ok(await ann.post('/leaves/requests', { type_id: ids.paid, from_date: '2026-07-10' }));
  ok(await boss.patch(`/leaves/requests/${approved.id}`, { status: 'approved' }));
  world.takeEvents();
  const before = { requests: await requests(), balance: await balance(ann) };
  const refused: Array<[TestMember, string, number, string]> = [
    [boss, draft.id, 403, `Request ${draft.id} is worker ${ids.ann}'s draft: only they or who drafted it deletes it`],
    [bob, draft.id, 404, `Request ${draft.id} not found`],
    [ann, submitted.id, 409, `Request ${submitted.id} is submitted: only a draft is deleted (withdraw it)`],
    [ann, approved.id, 409, `Request ${approved.id} is approved: only a draft is deleted (cancel it)`],
    [ann, UNKNOWN, 404, `Request ${UNKNOWN} not found`],
  ];
  for (const [caller, id, status, error] of refused) {
    const reply = await caller.delete(`/leaves/requests/${id}`);
    t.deepEqual([reply.status, reply.body], [status, { error }], `${id} as ${caller.id}`);
  }
  t.deepEqual({ requests: await requests(), balance: await balance(ann) }, before);
  t.deepEqual(world.takeEvents(), []);
  t.deepEqual(ok(await ann.delete(`/leaves/requests/${draft.id}`)), { id: draft.id, deleted: true });
  t.deepEqual(ok(await hr.delete(`/leaves/requests/${forBob.id}`)), { id: forBob.id, deleted: true }, 'HR drafted it for Bob');
  t.is((await ann.get(`/leaves/requests/${draft.id}`)).status, 404);
  t.is((await ann.delete(`/leaves/requests/${draft.id}`)).status, 404, 'a second delete finds nothing');
  t.is(await requests(), before.requests - 2);
  t.deepEqual(world.takeEvents(), []);
  for (const id of [submitted.id]) ok(await ann.patch(`/leaves/requests/${id}`, { status: 'withdrawn' }));
  ok(await boss.patch(`/leaves/requests/${approved.id}`, { status: 'cancelled', reason: 'Tidy up' }));
  world.takeEvents();
});

test.serial("duration: a worker's contract names the calendar their days are counted on; without one (or once it is deleted) the workspace's counts", async (t) => {
  const fourDays = crypto.randomUUID();
  const contract = crypto.randomUUID();
  await world.deliver('core.settings.calendar.created', { calendar_id: fourDays, name: 'Four-day week', working_days: [1, 2, 3, 4], hours_per_day: 8, created_by: hr.id });
  const fields = { contract_id: contract, worker_id: ids.ann, worker_mrn: `mrn:workers:worker:${ids.ann}`, contract_type: 'permanent', starts_on: '2026-05-01', hours_per_week: 32, calendar_mrn: `mrn:settings:calendar:${fourDays}` };
  await world.deliver('core.workers.contract.created', { ...fields, revision: 1 });
  const thursdayFriday = async (from: string) => ok(await ann.post('/leaves/requests', { type_id: ids.paid, from_date: from, to_date: new Date(Date.parse(from) + 86_400_000).toISOString().slice(0, 10), status: 'draft' })).duration;
  t.is(await thursdayFriday('2026-05-07'), 1, 'Friday is no working day under the four-day contract');
  t.is(await thursdayFriday('2026-04-23'), 2, 'before the contract starts, the workspace calendar counts');
  await world.deliver('core.workers.contract.deleted', { ...fields, revision: 2 });
  await world.deliver('core.workers.contract.updated', { ...fields, changed_fields: ['hours_per_week'], revision: 1 });
  t.is(await thursdayFriday('2026-05-14'), 2, 'a deleted contract no longer counts, and a late lower revision does not bring it back');
  t.deepEqual(world.takeEvents(), []);
});

test.serial('a balance never goes below zero when the type does not allow it; manager_changed moves pending requests; terminated cancels future ones', async (t) => {
  const tooMuch = await bob.post('/leaves/requests', { type_id: ids.paid, from_date: '2026-07-01' });
  t.is(tooMuch.status, 409);
  t.is(tooMuch.body.error, 'This request needs 1 day(s) of Paid leave but the balance is 0');
  ok(await hr.post('/leaves/allocations', { worker_id: ids.bob, type_id: ids.paid, amount: 3 }));
  const pending = ok(await bob.post('/leaves/requests', { type_id: ids.paid, from_date: '2026-07-01' }));
  const approvedLater = ok(await bob.post('/leaves/requests', { type_id: ids.paid, from_date: '2026-07-06' }));
  ok(await boss.patch(`/leaves/requests/${approvedLater.id}`, { status: 'approved' }));
  const newBoss = await hireWorker('New Boss', null, null);
  await world.deliver('core.workers.worker.manager_changed', { worker_id: ids.bob, mrn: `mrn:workers:worker:${ids.bob}`, name: 'Bob Staff', work_email: 'bob@example.test', member_id: bob.id, manager_id: newBoss, status: 'active', revision: ++revision, from_manager_id: ids.boss });
  t.is(ok(await hr.get(`/leaves/requests/${pending.id}`)).approver_id, newBoss);
  world.takeEvents();
  await world.deliver('core.workers.worker.terminated', { worker_id: ids.bob, mrn: `mrn:workers:worker:${ids.bob}`, name: 'Bob Staff', work_email: 'bob@example.test', member_id: bob.id, manager_id: newBoss, status: 'terminated', revision: ++revision });
  const events = world.takeEvents();
  t.deepEqual(events.map((event) => [event.action, event.payload.request_id ?? null]), [['core.leaves.request.withdrawn', pending.id], ['core.leaves.request.cancelled', approvedLater.id], ['core.leaves.time_off.cleared', null]]);
  t.deepEqual(events[2].payload, { worker_id: ids.bob, worker_mrn: `mrn:workers:worker:${ids.bob}`, cancelled: 1, withdrawn: 1 });
  t.like(await balance(bob), { balance: 3, pending: 0 });
  await world.deliver('core.workers.worker.terminated', { worker_id: ids.bob, mrn: `mrn:workers:worker:${ids.bob}`, name: 'Bob Staff', work_email: 'bob@example.test', member_id: bob.id, manager_id: newBoss, status: 'terminated', revision });
  t.deepEqual(world.takeEvents(), [], 'a repeated delivery clears nothing and says nothing');
});

test.serial('who is out: calendar by range and department, CSV export', async (t) => {
  const out = ok(await ann.get('/leaves/calendar?from=2026-04-01&to=2026-04-30'));
  t.deepEqual(out, []);
  const listed = ok(await ann.get('/leaves/calendar?from=2026-04-01&to=2026-04-30&include_pending=true'));
  t.deepEqual(listed.map((row: any) => [row.worker_name, row.from_date, row.status]), [['Ann Staff', '2026-04-03', 'submitted'], ['Ann Staff', '2026-04-08', 'submitted'], ['Ann Staff', '2026-04-10', 'submitted']]);
  const csv = await ann.get('/leaves/requests/export?from=2026-04-01&to=2026-04-05&include_pending=true');
  t.is(csv.status, 200);
  t.is(csv.body, 'worker,type,from_date,from_half,to_date,to_half,duration,status\r\nAnn Staff,Paid leave,2026-04-03,am,2026-04-07,pm,2,submitted\r\n');
});

test.serial('iCal feeds: a link per worker or department shows approved time off to anyone holding it; only its hash is kept', async (t) => {
  const april = ok(await ann.get('/leaves/requests?status=submitted&from=2026-04-01&to=2026-04-05'))[0];
  ok(await boss.patch(`/leaves/requests/${april.id}`, { status: 'approved' }));
  const mine = ok(await ann.post('/leaves/feeds', { worker_id: ids.ann }));
  t.regex(mine.url, /^https?:\/\/.+\/leaves\/feeds\/[A-Za-z0-9_-]{32}$/);
  t.is((await bob.post('/leaves/feeds', { worker_id: ids.ann })).status, 403);
  const both = await ann.post('/leaves/feeds', { worker_id: ids.ann, department_id: UNKNOWN });
  t.deepEqual([both.status, both.body.error], [400, 'Give worker_id or department_id (one of them)']);
  const feed = await world.workspace.anonymous.get(mine.path);
  t.is(feed.status, 200);
  t.true(String(feed.headers['content-type']).startsWith('text/calendar'));
  const text = String(feed.body);
  t.true(text.includes('SUMMARY:Ann Staff: Paid leave'));
  t.true(text.includes('DTSTART;VALUE=DATE:20260403'));
  t.true(text.includes('DTEND;VALUE=DATE:20260408'));
  t.is(text.match(/BEGIN:VEVENT/g)?.length, 1, 'only approved requests');
  const token = mine.path.split('/').pop();
  const stored = await world.query<{ token_hash: string }>('SELECT token_hash FROM app_leaves.feeds WHERE workspace_id = :id', { id: world.workspaceId });
  t.false(stored.some((row) => row.token_hash.includes(token)));
  t.is((await world.workspace.anonymous.get(`/leaves/feeds/${'x'.repeat(32)}`)).status, 404);
});

test.serial('allocations: listed for the worker, HR and the manager; a withdrawal is a ledger entry taking back what is left', async (t) => {
  const erin = await hireWorker('Erin Alloc', null, ids.boss);
  const grant = ok(await hr.post('/leaves/allocations', { worker_id: erin, type_id: ids.paid, amount: 4, note: 'Welcome' }));
  t.like(grant, { kind: 'manual', amount: 4, granted: 4, period: null, note: 'Welcome' });
  t.deepEqual(ok(await boss.get(`/leaves/allocations?worker_id=${erin}`)).map((row: any) => row.id), [grant.id]);
  t.is((await ann.get(`/leaves/allocations?worker_id=${erin}`)).status, 403);
  t.is((await hr.post('/leaves/allocations', { worker_id: erin, type_id: ids.paid, amount: 1, cap: 3 })).body.field, 'cap');
  t.is((await hr.post('/leaves/allocations', { worker_id: UNKNOWN, type_id: ids.paid, amount: 1 })).body.field, 'worker_id');
  const request = ok(await hr.post('/leaves/requests', { worker_id: erin, type_id: ids.paid, from_date: '2026-09-01' }));
  ok(await hr.patch(`/leaves/requests/${request.id}`, { status: 'approved' }));
  const refused = await hr.delete(`/leaves/allocations/${grant.id}`);
  t.deepEqual([refused.status, refused.body.error], [409, `Withdrawing allocation ${grant.id} needs 4 day(s) of Paid leave but the balance is 3`]);
  ok(await hr.patch(`/leaves/requests/${request.id}`, { status: 'cancelled' }));
  t.like(ok(await hr.delete(`/leaves/allocations/${grant.id}`)), { id: grant.id, deleted: true, taken_back: 4 });
  t.deepEqual((ok(await hr.get(`/leaves/ledger?worker_id=${erin}&type_id=${ids.paid}`)) as any[]).map((entry) => [entry.kind, entry.amount, entry.balance_after]), [['allocation', 4, 4], ['request', -1, 3], ['cancellation', 1, 4], ['allocation', -4, 0]]);
  t.deepEqual(ok(await hr.get(`/leaves/allocations?worker_id=${erin}`)), []);
});

test.serial('manager then HR: the manager approves first, HR last; while the manager is away their manager decides; who is out by department', async (t) => {
  const department = crypto.randomUUID();
  await world.deliver('core.workers.department.created', { department_id: department, mrn: `mrn:workers:department:${department}`, name: 'Support', revision: 1 });
  const [top, mid, staff] = await world.members(3, STAFF_KEYS);
  const topId = await hireWorker('Tina Top', top, null);
  const midId = await hireWorker('Mia Middle', mid, topId);
  const staffId = crypto.randomUUID();
  await world.deliver('core.workers.worker.hired', { worker_id: staffId, mrn: `mrn:workers:worker:${staffId}`, name: 'Sam Support', work_email: 'sam@example.test', member_id: staff.id, manager_id: midId, department_id: department, status: 'active', revision: 3 });
  // An older revision of Sam changes nothing.
  await world.deliver('core.workers.worker.updated', { worker_id: staffId, mrn: `mrn:workers:worker:${staffId}`, name: 'Sam Old', work_email: 'sam@example.test', status: 'active', revision: 2, changed_fields: ['name'] });
  const special = ok(await hr.post('/leaves/types', { name: 'Sabbatical', unit: 'day', needs_allocation: false, approval: 'manager_then_hr' })).id;
  const ask = ok(await staff.post('/leaves/requests', { type_id: special, from_date: '2026-10-05', to_date: '2026-10-06' }));
  t.like(ask, { worker_name: 'Sam Support', approver_id: midId, awaiting: 'manager' });
  world.takeEvents();
  t.like(ok(await mid.patch(`/leaves/requests/${ask.id}`, { status: 'approved' })), { status: 'submitted', awaiting: 'hr' });
  t.deepEqual(world.takeEvents(), []);
  t.is((await mid.patch(`/leaves/requests/${ask.id}`, { status: 'approved' })).body.error, 'The manager approved it already; HR (leaves.requests.manage) approves it next');
  t.like(ok(await hr.patch(`/leaves/requests/${ask.id}`, { status: 'approved' })), { status: 'approved', awaiting: null });
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.leaves.request.approved']);
  // Mia is out today (2026-03-02): Sam's next request goes to Tina, Mia's manager.
  const away = ok(await mid.post('/leaves/requests', { type_id: special, from_date: '2026-03-02', to_date: '2026-03-03' }));
  ok(await top.patch(`/leaves/requests/${away.id}`, { status: 'approved' }));
  ok(await hr.patch(`/leaves/requests/${away.id}`, { status: 'approved' }));
  t.is(ok(await staff.post('/leaves/requests', { type_id: special, from_date: '2026-11-02' })).approver_id, topId);
  const out = ok(await top.get(`/leaves/calendar?from=2026-10-01&to=2026-10-31&department_id=${department}`));
  t.deepEqual(out.map((row: any) => [row.worker_name, row.type_name, row.from_date, row.to_date, row.duration, row.department_id]), [['Sam Support', 'Sabbatical', '2026-10-05', '2026-10-06', 2, department]]);
  t.deepEqual(ok(await top.get(`/leaves/calendar?from=2026-10-01&to=2026-10-31&department_id=${UNKNOWN}`)), []);
});

test.serial('property: over random allocations and their withdrawals, requests, approvals and cancellations the balance is the ledger sum and never negative', async (t) => {
  const type = ok(await hr.post('/leaves/types', { name: 'Property', unit: 'half_day' })).id;
  let round = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(fc.record({ op: fc.constantFrom('allocate', 'request', 'approve', 'cancel', 'revoke'), n: fc.integer({ min: 1, max: 6 }), pick: fc.nat() }), { minLength: 4, maxLength: 12 }), async (ops) => {
      round += 1;
      const worker = await hireWorker(`Prop ${round}`, null, ids.boss);
      const made: string[] = [];
      const grants: string[] = [];
      let day = 0;
      for (const step of ops) {
        if (step.op === 'allocate') grants.push(ok(await hr.post('/leaves/allocations', { worker_id: worker, type_id: type, amount: step.n / 2 })).id);
        if (step.op === 'revoke' && grants.length) await hr.delete(`/leaves/allocations/${grants[step.pick % grants.length]}`);
        if (step.op === 'request') {
          day += 7;
          const from = new Date(Date.parse('2027-01-04') + day * 86_400_000).toISOString().slice(0, 10);
          const reply = await hr.post('/leaves/requests', { worker_id: worker, type_id: type, from_date: from, to_date: from, to_half: step.n % 2 ? 'am' : 'pm' });
          if (reply.status === 200) made.push(reply.body.data.id);
        }
        if (step.op === 'approve' && made.length) await hr.patch(`/leaves/requests/${made[step.pick % made.length]}`, { status: 'approved' });
        if (step.op === 'cancel' && made.length) await hr.patch(`/leaves/requests/${made[step.pick % made.length]}`, { status: 'cancelled' });
      }
      const ledger = ok(await hr.get(`/leaves/ledger?worker_id=${worker}&type_id=${type}`)) as any[];
      const sum = ledger.reduce((total, entry) => total + Math.round(entry.amount * 100), 0) / 100;
      const row = (ok(await hr.get(`/leaves/balances?worker_id=${worker}`)) as any[]).find((one) => one.type_id === type);
      return row.balance === sum && ledger.every((entry) => entry.balance_after >= 0);
    }),
    { numRuns: 8, seed: 41 },
  );
  t.pass();
});

test.serial("installed after Workers has records, leaves learns of them: Workers announces each department, worker and contract at the install (no default allocation: they are not new hires)", async (t) => {
  const later = await world.platform.workspace('leaveslater');
  await later.install('workers', { access_policy: 'everyone' });
  const sales = ok(await later.owner.post('/workers/departments', { name: 'Sales' }));
  const eve = ok(await later.owner.post('/workers', { name: 'Eve Early', work_email: 'eve@leaveslater.test', department_id: sales.id }));
  ok(await later.owner.patch(`/workers/${eve.id}`, { title: 'Account manager' }));
  const contract = ok(await later.owner.post(`/workers/${eve.id}/contracts`, { contract_type: 'permanent', starts_on: '2026-01-01', hours_per_week: 40 }));
  await world.platform.deliverDue(later);
  await later.install('leaves', { access_policy: 'everyone' });
  ok(await later.owner.post('/leaves/types', { name: 'Paid leave', unit: 'day', default_allocation: 25 }));
  const announce = await world.platform.deliverDue(later);
  t.deepEqual(announce.filter(({ event }) => event.action === 'core.account.application.installed').map(({ event, outcomes }) => [event.payload.app_slug, outcomes.workers]), [['leaves', 'handled']]);
  const announced = await world.platform.deliverDue(later);
  t.deepEqual(
    announced.map(({ event, outcomes }) => [event.action, event.payload.revision, event.payload.for_app, outcomes.leaves]),
    [
      ['core.workers.department.announced', sales.revision, 'leaves', 'handled'],
      ['core.workers.worker.announced', eve.revision + 1, 'leaves', 'handled'],
      ['core.workers.contract.announced', contract.revision, 'leaves', 'handled'],
    ],
  );
  const copies = await world.platform.query<{ kind: string; id: string; name: string | null; revision: number }>(
    `SELECT 'department' AS kind, id, name, revision FROM app_leaves.departments WHERE workspace_id = :ws
     UNION ALL SELECT 'worker', id, name, revision FROM app_leaves.workers WHERE workspace_id = :ws
     UNION ALL SELECT 'contract', id, NULL, revision FROM app_leaves.contracts WHERE workspace_id = :ws ORDER BY kind`,
    { ws: later.id },
  );
  t.deepEqual(copies, [
    { kind: 'contract', id: contract.id, name: null, revision: contract.revision },
    { kind: 'department', id: sales.id, name: 'Sales', revision: sales.revision },
    { kind: 'worker', id: eve.id, name: 'Eve Early', revision: eve.revision + 1 },
  ]);
  const [{ grants }] = await world.platform.query<{ grants: number }>('SELECT count(*)::int AS grants FROM app_leaves.ledger_entries WHERE workspace_id = :ws', { ws: later.id });
  t.is(grants, 0, 'an announced worker is no new hire: no default allocation');
});

test.serial('a hire gets each type\'s default allocation, once', async (t) => {
  ok(await hr.patch(`/leaves/types/${ids.hours}`, { default_allocation: 16 }));
  const dora = await hireWorker('Dora Hire', null, ids.boss);
  t.like((ok(await hr.get(`/leaves/balances?worker_id=${dora}`)) as any[]).find((row) => row.type_id === ids.hours), { balance: 16 });
  t.is((await ann.get(`/leaves/balances?worker_id=${dora}`)).status, 403);
  await world.deliver('core.workers.worker.updated', { worker_id: dora, mrn: `mrn:workers:worker:${dora}`, name: 'Dora Hire', work_email: 'dora@example.test', status: 'active', revision: 1, changed_fields: ['name'] });
  t.deepEqual((ok(await hr.get(`/leaves/ledger?worker_id=${dora}`)) as any[]).map((entry) => [entry.kind, entry.amount]), [['allocation', 16]]);
});

test.serial('accrual plans grant each period once on the delayed events, prorated and capped; expiry takes back what is left', async (t) => {
  const carl = await hireWorker('Carl New', null, ids.boss);
  const mark = world.mark(); // taking events would take the delayed ones before they are delivered
  const plan = ok(await hr.post('/leaves/allocations', { worker_id: carl, type_id: ids.paid, amount: 2, period: 'monthly', cap: 5, starts_on: '2026-03-16', expires_on: '2026-12-31' }));
  // March: 16..31 of 31 days of 2 days = 1.03.
  t.like(plan, { kind: 'accrual', amount: 2, period: 'monthly', cap: 5, granted: 1.03 });
  t.deepEqual(world.eventsSince(mark).map(([action]) => action), ['core.leaves.accrual.scheduled', 'core.leaves.expiry.scheduled', 'core.leaves.carry_over.scheduled', 'core.leaves.allocation.granted']);
  // Moving the clock by months ends every session: the ledger is read from the database from here on.
  const ledgerOf = async () =>
    (await world.query<{ kind: string; amount: number; occurred_on: string }>('SELECT kind, amount, occurred_on::text FROM app_leaves.ledger_entries WHERE workspace_id = :id AND worker_id = :carl AND type_id = :type ORDER BY created_at, id', { id: world.workspaceId, carl, type: ids.paid })).map((entry) => [entry.kind, entry.amount / 100, entry.occurred_on]);
  world.platform.clock.set(new Date('2026-04-01T00:00:01.000Z'));
  await world.platform.deliverDue(world.workspace);
  await world.platform.deliverDue(world.workspace);
  t.deepEqual(await ledgerOf(), [['accrual', 1.03, '2026-03-16'], ['accrual', 2, '2026-04-01']]);
  world.platform.clock.set(new Date('2026-06-01T00:00:01.000Z'));
  await world.platform.deliverDue(world.workspace);
  await world.platform.deliverDue(world.workspace);
  await world.platform.deliverDue(world.workspace);
  t.deepEqual(await ledgerOf(), [['accrual', 1.03, '2026-03-16'], ['accrual', 2, '2026-04-01'], ['accrual', 1.97, '2026-05-01']]);
  world.platform.clock.set(new Date('2026-12-31T00:00:01.000Z'));
  await world.platform.deliverDue(world.workspace);
  t.deepEqual((await ledgerOf()).at(-1), ['expiry', -5, '2026-12-31']);
  t.is((await ledgerOf()).reduce((sum, entry) => sum + Math.round((entry[1] as number) * 100), 0), 0);
});
