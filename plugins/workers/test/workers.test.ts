import test from 'ava';
import { fileURLToPath } from 'node:url';
import { checkMatrixRows, ok, startWorld, type TestMember, type World } from '@wpk/testing';
import app from '../src/index.js';

const ATS_DIR = fileURLToPath(new URL('../../ats', import.meta.url));
const FILES_DIR = fileURLToPath(new URL('../../files', import.meta.url));
const LEAVES_DIR = fileURLToPath(new URL('../../leaves', import.meta.url));
const TASKS_DIR = fileURLToPath(new URL('../../tasks', import.meta.url));
const SETTINGS_DIR = fileURLToPath(new URL('../../settings', import.meta.url));
const UNKNOWN = '00000000-0000-4000-8000-000000000abc';
/** A Settings location, delivered to the app's copy before the tests. */
const HQ = '0c0c0c0c-0000-4000-8000-00000000a001';
const HQ_MRN = `mrn:settings:location:${HQ}`;
const location = (action: 'created' | 'updated' | 'deleted', id: string, name: string, revision: number) =>
  world.deliver(`core.settings.location.${action}`, { location_id: id, mrn: `mrn:settings:location:${id}`, name, timezone: 'Europe/London', address: { city: 'London' }, revision, ...(action === 'updated' ? { changed_fields: ['name'] } : {}), [`${action}_by`]: UNKNOWN });

let world: World;
let hr: TestMember;
let reader: TestMember;

test.before(async () => {
  world = await startWorld({ app, subdomain: 'workers', apps: [ATS_DIR, FILES_DIR, LEAVES_DIR, TASKS_DIR, SETTINGS_DIR], firstParty: ['workers', 'ats', 'files', 'leaves', 'tasks', 'settings'] });
  hr = await world.member(['workers.workers.read', 'workers.workers.create', 'workers.workers.edit', 'workers.workers.delete', 'workers.private_fields.read', 'workers.departments.create', 'workers.departments.delete', 'workers.contracts.read', 'workers.contracts.create', 'workers.contracts.edit', 'workers.contracts.delete', 'workers.checklists.read', 'workers.checklists.edit', 'workers.checklist_templates.read', 'workers.checklist_templates.create', 'workers.checklist_templates.edit', 'workers.checklist_templates.delete']);
  reader = await world.member(['workers.workers.read']);
  await location('created', HQ, 'Headquarters', 1);
});
test.after.always(() => world?.close());

/** Rows of the app's tables in the test workspace. */
const rows = async () => {
  const [counts] = await world.query<{ w: number; h: number; d: number }>(
    'SELECT (SELECT count(*)::int FROM app_workers.workers WHERE workspace_id = :id) AS w, (SELECT count(*)::int FROM app_workers.worker_history WHERE workspace_id = :id) AS h, (SELECT count(*)::int FROM app_workers.departments WHERE workspace_id = :id) AS d',
    { id: world.workspaceId },
  );
  return counts;
};
const today = () => world.platform.clock.now().toISOString().slice(0, 10);
const dayOffset = (days: number) => new Date(world.platform.clock.now().getTime() + days * 86_400_000).toISOString().slice(0, 10);
let serial = 0;
const hire = async (fields: Record<string, unknown> = {}) => ok(await hr.post('/workers', { name: `Worker ${++serial}`, work_email: `worker${serial}@example.test`, ...fields }));

test.serial('POST /workers adds a worker in onboarding, opens their history and emits worker.hired once; private fields only for holders of workers.private_fields.read', async (t) => {
  world.takeEvents();
  const department = ok(await hr.post('/workers/departments', { name: 'Engineering' }));
  world.takeEvents();
  const reply = await hr.post('/workers', {
    name: '  Ada Lovelace ', work_email: 'Ada@Example.test', title: 'Engineer', department_id: department.id, location_mrn: HQ_MRN,
    start_date: '2026-01-05', employment_type: 'part_time', birth_date: '1990-12-10', personal_email: 'ada@home.test', personal_phone: '+44 20 1234', salary_band: 'L4',
  });
  t.is(reply.status, 200);
  const ada = reply.body.data;
  t.deepEqual(reply.body.links, { self: `/workers/${ada.id}` });
  t.like(ada, {
    mrn: `mrn:workers:worker:${ada.id}`, name: 'Ada Lovelace', work_email: 'Ada@Example.test', title: 'Engineer', department_id: department.id, manager_id: null,
    location_mrn: HQ_MRN, location_name: 'Headquarters', start_date: '2026-01-05', employment_type: 'part_time', member_id: null, status: 'onboarding', revision: 1,
    birth_date: '1990-12-10', personal_email: 'ada@home.test', personal_phone: '+44 20 1234', salary_band: 'L4',
  });
  t.deepEqual(world.takeEvents(), [
    {
      action: 'core.workers.worker.hired',
      payload: { worker_id: ada.id, mrn: ada.mrn, name: 'Ada Lovelace', work_email: 'Ada@Example.test', department_id: department.id, title: 'Engineer', status: 'onboarding', employment_type: 'part_time', location_mrn: HQ_MRN, start_date: '2026-01-05', revision: 1, by: hr.mrn },
    },
  ]);
  const seen = ok(await reader.get(`/workers/${ada.id}`));
  for (const key of ['birth_date', 'personal_email', 'personal_phone', 'salary_band']) t.false(key in seen, `${key} is omitted for a reader without the key`);
  t.is(seen.name, 'Ada Lovelace');
  const history = ok(await reader.get(`/workers/${ada.id}/history`));
  t.deepEqual(history.map((row: any) => [row.effective_on, row.title, row.department_id, row.manager_id, row.in_effect]), [['2026-01-05', 'Engineer', department.id, null, true]]);
  const listed = await reader.get('/workers?q=lovelace');
  t.deepEqual(listed.body.data.map((w: any) => w.id), [ada.id]);
  t.is(listed.body.pagination.total, 1);
  t.false('salary_band' in listed.body.data[0]);
});

test.serial('bad input is a 4xx naming the field; nothing written, nothing emitted', async (t) => {
  await hire({ work_email: 'taken@example.test' });
  world.takeEvents();
  const before = await rows();
  const cases: Array<[unknown, number, string, string | undefined]> = [
    [{ work_email: 'x@example.test' }, 400, 'name is required', 'name'],
    [{ name: 'X' }, 400, 'work_email is required', 'work_email'],
    [{ name: 'X', work_email: 'not-an-email' }, 400, 'work_email must be a valid email', 'work_email'],
    [{ name: 'X', work_email: 'x@example.test', employment_type: 'slave' }, 400, 'employment_type must be one of [full_time, part_time, contractor, intern]', 'employment_type'],
    [{ name: 'X', work_email: 'x@example.test', location_mrn: 'mrn:companies:company:1' }, 400, 'location_mrn must be a settings location MRN: mrn:settings:location: and its id', 'location_mrn'],
    [{ name: 'X', work_email: 'x@example.test', start_date: '2026-02-30' }, 400, '', 'start_date'],
    [{ name: 'X', work_email: 'x@example.test', department_id: UNKNOWN }, 400, `department_id ${UNKNOWN} is not a department of this workspace`, 'department_id'],
    [{ name: 'X', work_email: 'x@example.test', manager_id: UNKNOWN }, 400, `manager_id ${UNKNOWN} is not a worker of this workspace`, 'manager_id'],
    [{ name: 'X', work_email: 'x@example.test', member_id: UNKNOWN }, 400, `member_id ${UNKNOWN} is not a member of this workspace`, undefined],
    [{ name: 'X', work_email: 'TAKEN@example.test' }, 409, '', 'work_email'],
  ];
  for (const [payload, status, error, field] of cases) {
    const reply = await hr.post('/workers', payload);
    t.is(reply.status, status, JSON.stringify(payload));
    if (error) t.is(reply.body.error, error);
    t.is(reply.body.field, field, JSON.stringify(reply.body));
  }
  const secret = await (await world.member(['workers.workers.create'])).post('/workers', { name: 'X', work_email: 'y@example.test', salary_band: 'L9' });
  t.deepEqual([secret.status, secret.body.error], [403, 'Missing permission: workers.private_fields.read (to set salary_band)']);
  t.deepEqual(await rows(), before);
  t.deepEqual(world.takeEvents(), []);
});

test.serial("a worker's location is a Settings location of the app's copy: events create, rename (highest revision wins) and delete (a tombstone) it; an unknown or deleted one is a 400 naming location_mrn", async (t) => {
  const LISBON = '0c0c0c0c-0000-4000-8000-00000000a002';
  const lisbonMrn = `mrn:settings:location:${LISBON}`;
  await location('created', LISBON, 'Lisbon', 1);
  const names = async () => ok(await reader.get('/workers/locations')).map((row: any) => [row.mrn, row.name]);
  t.deepEqual(await names(), [[HQ_MRN, 'Headquarters'], [lisbonMrn, 'Lisbon']]);
  t.deepEqual(ok(await reader.get('/workers/locations?q=lis')), [{ id: LISBON, mrn: lisbonMrn, name: 'Lisbon', timezone: 'Europe/London' }]);

  const worker = await hire({ location_mrn: lisbonMrn.toUpperCase().replace('MRN:SETTINGS:LOCATION:', 'mrn:settings:location:') });
  t.deepEqual([worker.location_mrn, worker.location_name], [lisbonMrn, 'Lisbon']);
  const other = await hire({ location_mrn: HQ_MRN });

  await location('updated', LISBON, 'Lisbon Office', 3);
  await location('updated', LISBON, 'Lisbon (old name)', 2);
  t.deepEqual(await names(), [[HQ_MRN, 'Headquarters'], [lisbonMrn, 'Lisbon Office']], 'the older event, delivered late, changes nothing');
  t.is(ok(await reader.get(`/workers/${worker.id}`)).location_name, 'Lisbon Office', "the worker's answer follows the rename");
  t.deepEqual(ok(await reader.get(`/workers?location_mrn=${lisbonMrn}`)).map((row: any) => row.id), [worker.id]);

  // Announced after an install (Settings' location.announced): a copy that missed it learns it; one that holds the revision changes nothing.
  const PORTO = '0c0c0c0c-0000-4000-8000-00000000a003';
  await world.deliver('core.settings.location.announced', { location_id: PORTO, mrn: `mrn:settings:location:${PORTO}`, name: 'Porto', timezone: 'Europe/Lisbon', address: {}, revision: 5, for_app: 'workers' });
  await world.deliver('core.settings.location.announced', { location_id: LISBON, mrn: lisbonMrn, name: 'Lisbon (announced)', timezone: 'Europe/London', address: {}, revision: 3, for_app: 'workers' });
  t.deepEqual(await names(), [[HQ_MRN, 'Headquarters'], [lisbonMrn, 'Lisbon Office'], [`mrn:settings:location:${PORTO}`, 'Porto']]);

  await location('deleted', LISBON, 'Lisbon Office', 4);
  await location('updated', LISBON, 'Lisbon revived', 3);
  t.deepEqual(await names(), [[HQ_MRN, 'Headquarters'], [`mrn:settings:location:${PORTO}`, 'Porto']], 'a deleted location is no longer offered, and a late update does not revive it');
  t.like(ok(await reader.get(`/workers/${worker.id}`)), { location_mrn: lisbonMrn, location_name: 'Lisbon Office' }, 'a worker already there keeps it (their history)');

  world.takeEvents();
  const before = await rows();
  const ghost = `mrn:settings:location:${UNKNOWN}`;
  const refusals: Array<[string, string, Record<string, unknown>, string]> = [
    ['POST', '/workers', { name: 'X', work_email: 'x1@example.test', location_mrn: lisbonMrn }, `location_mrn: ${lisbonMrn} (Lisbon Office) was deleted in the Settings app`],
    ['POST', '/workers', { name: 'X', work_email: 'x2@example.test', location_mrn: ghost }, `location_mrn: ${ghost} is no location of the Settings app`],
    ['POST', '/workers', { name: 'X', work_email: 'x3@example.test', location_mrn: 'mrn:settings:location:hq' }, 'location_mrn: mrn:settings:location:hq is no location of the Settings app'],
    ['PATCH', `/workers/${other.id}`, { location_mrn: lisbonMrn }, `location_mrn: ${lisbonMrn} (Lisbon Office) was deleted in the Settings app`],
  ];
  for (const [method, path, payload, error] of refusals) {
    const reply = await hr.request(method, path, payload);
    t.deepEqual([reply.status, reply.body.error, reply.body.field], [400, error, 'location_mrn'], JSON.stringify(payload));
  }
  t.deepEqual(await rows(), before);
  t.deepEqual(world.takeEvents(), []);
  t.is(ok(await reader.get(`/workers/${other.id}`)).location_name, 'Headquarters');
  const cleared = ok(await hr.patch(`/workers/${other.id}`, { location_mrn: null }));
  t.deepEqual([cleared.location_mrn, cleared.location_name], [null, null]);
});

test.serial('the lifecycle moves onboarding → active → offboarding → terminated → onboarding, one event each; any other move is 409 naming both states', async (t) => {
  const worker = await hire();
  world.takeEvents();
  const path = `/workers/${worker.id}/status`;
  const skip = await hr.patch(path, { status: 'terminated' });
  t.deepEqual([skip.status, skip.body.error], [409, 'Cannot move a worker from onboarding to terminated: terminated is reached from offboarding']);
  t.deepEqual(world.takeEvents(), []);
  const steps: Array<[string, string]> = [['active', 'core.workers.worker.activated'], ['offboarding', 'core.workers.worker.offboarding_started'], ['terminated', 'core.workers.worker.terminated'], ['onboarding', 'core.workers.worker.rehired']];
  for (const [status, action] of steps) {
    const moved = ok(await hr.patch(path, { status }));
    t.is(moved.status, status);
    const events = world.takeEvents();
    t.deepEqual(events.map((e) => [e.action, e.payload.status, e.payload.worker_id]), [[action, status, worker.id]]);
  }
  const same = await hr.patch(path, { status: 'onboarding' });
  t.deepEqual([same.status, same.body.error], [409, 'The worker is already onboarding']);
  const bad = await hr.patch(path, { status: 'retired' });
  t.is(bad.status, 400);
  t.is(bad.body.field, 'status');
});

test.serial('title, department and manager are effective-dated: a past change applies now, a future one on its day (delayed change event)', async (t) => {
  const boss = await hire({ title: 'CTO' });
  const other = await hire({ title: 'VP' });
  const worker = await hire({ title: 'Junior', start_date: dayOffset(-30) });
  const sales = ok(await hr.post('/workers/departments', { name: `Sales ${serial}` }));
  world.takeEvents();
  const past = ok(await hr.patch(`/workers/${worker.id}`, { title: 'Engineer', manager_id: boss.id, effective_on: dayOffset(-10) }));
  t.like(past, { title: 'Engineer', manager_id: boss.id, revision: 2 });
  t.deepEqual(world.takeEvents().map((e) => [e.action, e.payload.changed_fields ?? e.payload.from_manager_id ?? null]), [
    ['core.workers.worker.updated', ['title', 'manager_id']],
    ['core.workers.worker.manager_changed', null],
  ]);
  const mark = world.mark();
  const future = ok(await hr.patch(`/workers/${worker.id}`, { title: 'Senior Engineer', department_id: sales.id, manager_id: other.id, effective_on: dayOffset(5) }));
  t.like(future, { title: 'Engineer', department_id: null, manager_id: boss.id, revision: 2 }, 'a future change leaves the current values');
  t.deepEqual(world.eventsSince(mark), [['core.workers.change.scheduled', { worker_id: worker.id, effective_on: dayOffset(5) }]]);
  const history = ok(await reader.get(`/workers/${worker.id}/history`));
  t.deepEqual(history.map((row: any) => [row.effective_on, row.title, row.department_id, row.manager_id, row.in_effect]), [
    [dayOffset(-30), 'Junior', null, null, false],
    [dayOffset(-10), 'Engineer', null, boss.id, true],
    [dayOffset(5), 'Senior Engineer', sales.id, other.id, false],
  ]);
  // Nothing happens before the day; on it the change takes effect, once.
  t.deepEqual((await world.platform.deliverDue(world.workspace)).filter(({ event }) => event.action === 'core.workers.change.scheduled'), []);
  world.platform.clock.advance({ days: 6 });
  const due = await world.platform.deliverDue(world.workspace);
  t.deepEqual(due.filter(({ event }) => event.action === 'core.workers.change.scheduled').map(({ outcomes }) => outcomes), [{ workers: 'handled' }]);
  const after = ok(await reader.get(`/workers/${worker.id}`));
  t.like(after, { title: 'Senior Engineer', department_id: sales.id, manager_id: other.id, revision: 3 });
  t.deepEqual(world.takeEvents().map((e) => e.action), ['core.workers.change.scheduled', 'core.workers.worker.updated', 'core.workers.worker.manager_changed', 'core.workers.worker.department_changed']);
  const bare = await hr.patch(`/workers/${worker.id}`, { name: 'Renamed', effective_on: today() });
  t.deepEqual([bare.status, bare.body.field], [400, 'effective_on']);
});

test.serial('reports (recursive) and the org chart; a manager cycle is 409 and changes nothing', async (t) => {
  const root = await hire({ name: 'Root Boss' });
  const a = await hire({ name: 'A Report', manager_id: root.id });
  await hire({ name: 'B Report', manager_id: root.id });
  const a1 = await hire({ name: 'A1 Deep', manager_id: a.id });
  const all = ok(await reader.get(`/workers/${root.id}/reports?depth=all`));
  t.deepEqual(all.reports.map((n: any) => [n.name, n.depth, n.manager_id]), [['A Report', 1, root.id], ['B Report', 1, root.id], ['A1 Deep', 2, a.id]]);
  t.is(all.depth, 'all');
  const direct = ok(await reader.get(`/workers/${root.id}/reports?depth=1`));
  t.deepEqual(direct.reports.map((n: any) => n.name), ['A Report', 'B Report']);
  const chart = ok(await reader.get(`/workers/org-chart?root_id=${root.id}`));
  t.deepEqual(chart.nodes.map((n: any) => [n.name, n.depth]), [['Root Boss', 0], ['A Report', 1], ['A1 Deep', 2], ['B Report', 1]]);
  world.takeEvents();
  const cycle = await hr.patch(`/workers/${root.id}`, { manager_id: a1.id });
  t.deepEqual([cycle.status, cycle.body.field], [409, 'manager_id']);
  t.is(cycle.body.error, `Making A1 Deep (${a1.id}) the manager of worker ${root.id} would make a cycle: A1 Deep reports to worker ${root.id}`);
  const self = await hr.patch(`/workers/${a.id}`, { manager_id: a.id });
  t.is(self.status, 409);
  t.deepEqual(world.takeEvents(), []);
  t.is(ok(await reader.get(`/workers/${root.id}`)).manager_id, null);
  const busy = await hr.delete(`/workers/${a.id}`);
  t.deepEqual([busy.status, busy.body.error], [409, `Worker ${a.id} manages 1 worker(s); give them another manager first`]);
  const gone = ok(await hr.delete(`/workers/${a1.id}`));
  t.deepEqual(gone, { id: a1.id, mrn: a1.mrn, deleted: true });
  t.deepEqual(world.takeEvents().map((e) => e.action), ['core.workers.worker.deleted']);
  t.is((await reader.get(`/workers/${a1.id}`)).status, 404);
});

test.serial('members: a member who joins with a worker\'s work e-mail is linked; a removed member is unlinked', async (t) => {
  const worker = await hire({ work_email: 'Grace.Hopper@Example.test' });
  world.takeEvents();
  const grace = await world.member([], { email: 'grace.hopper@example.test', name: 'Grace Hopper' } as never);
  await world.deliver('system.workspace.member.added', { member_id: grace.id, role: 'member' });
  t.is(ok(await reader.get(`/workers/${worker.id}`)).member_id, grace.id);
  t.deepEqual(world.takeEvents().map((e) => [e.action, e.payload.member_id, e.payload.changed_fields]), [['core.workers.worker.updated', grace.id, ['member_id']]]);
  await world.deliver('system.workspace.member.added', { member_id: grace.id, role: 'member' });
  t.deepEqual(world.takeEvents(), [], 'a repeated delivery changes nothing');
  await world.deliver('core.account.member.removed', { member_id: grace.id });
  t.is(ok(await reader.get(`/workers/${worker.id}`)).member_id, null);
  t.deepEqual(world.takeEvents().map((e) => e.payload.changed_fields), [['member_id']]);
});

test.serial('a hire in recruiting drafts a worker in onboarding, once per application', async (t) => {
  world.takeEvents();
  const payload = { application_id: '6f1c2c3e-0000-4000-8000-000000000001', candidate_id: '6f1c2c3e-0000-4000-8000-000000000002', candidate_name: 'Linus T', candidate_email: 'linus@example.test', job_id: '6f1c2c3e-0000-4000-8000-000000000003', job_title: 'Kernel Engineer' };
  await world.deliver('core.ats.application.hired', payload);
  await world.deliver('core.ats.application.hired', payload);
  const found = ok(await reader.get('/workers?q=linus@example.test'));
  t.is(found.length, 1);
  t.like(found[0], { name: 'Linus T', work_email: 'linus@example.test', title: 'Kernel Engineer', status: 'onboarding', employment_type: 'full_time', application_id: payload.application_id });
  t.deepEqual(world.takeEvents().map((e) => [e.action, e.payload.application_id, e.payload.by ?? null]), [['core.workers.worker.hired', payload.application_id, null]]);
});

const contractRows = async () => (await world.query<{ n: number }>('SELECT count(*)::int AS n FROM app_workers.contracts WHERE workspace_id = :id', { id: world.workspaceId }))[0].n;

test.serial("contracts: added, listed first to start first, changed and deleted, one event each with the whole contract", async (t) => {
  const worker = await hire();
  world.takeEvents();
  const path = `/workers/${worker.id}/contracts`;
  const later = ok(await hr.post(path, { contract_type: 'permanent', starts_on: '2027-01-01', hours_per_week: 40, calendar_mrn: 'mrn:settings:calendar:cal-1' }));
  const first = ok(await hr.post(path, { contract_type: 'fixed_term', starts_on: '2026-01-01', ends_on: '2026-12-31', hours_per_week: 37.5 }));
  t.like(first, { worker_id: worker.id, worker_mrn: `mrn:workers:worker:${worker.id}`, contract_type: 'fixed_term', starts_on: '2026-01-01', ends_on: '2026-12-31', hours_per_week: 37.5, calendar_mrn: null, revision: 1 });
  const base = { worker_id: worker.id, worker_mrn: `mrn:workers:worker:${worker.id}`, by: hr.mrn };
  t.deepEqual(world.takeEvents(), [
    { action: 'core.workers.contract.created', payload: { ...base, contract_id: later.id, contract_type: 'permanent', starts_on: '2027-01-01', hours_per_week: 40, calendar_mrn: 'mrn:settings:calendar:cal-1', revision: 1 } },
    { action: 'core.workers.contract.created', payload: { ...base, contract_id: first.id, contract_type: 'fixed_term', starts_on: '2026-01-01', ends_on: '2026-12-31', hours_per_week: 37.5, revision: 1 } },
  ]);
  const listed = await hr.get(path);
  t.deepEqual(listed.body.data.map((row: any) => row.id), [first.id, later.id]);
  t.is(listed.body.pagination.total, 2);

  const same = ok(await hr.patch(`${path}/${later.id}`, { hours_per_week: 40.0 }));
  t.is(same.revision, 1);
  t.deepEqual(world.takeEvents(), [], 'an unchanged contract emits nothing');
  const changed = ok(await hr.patch(`${path}/${later.id}`, { hours_per_week: 32, calendar_mrn: null }));
  t.like(changed, { hours_per_week: 32, calendar_mrn: null, revision: 2 });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.workers.contract.updated', payload: { ...base, contract_id: later.id, contract_type: 'permanent', starts_on: '2027-01-01', hours_per_week: 32, revision: 2, changed_fields: ['hours_per_week', 'calendar_mrn'] } },
  ]);

  const gone = await hr.delete(`${path}/${first.id}`);
  t.deepEqual([gone.status, gone.body.data], [200, { id: first.id, worker_id: worker.id, deleted: true }]);
  t.deepEqual(world.takeEvents().map((e) => [e.action, e.payload.contract_id, e.payload.revision]), [['core.workers.contract.deleted', first.id, 2]]);
  t.deepEqual(ok(await hr.get(path)).map((row: any) => row.id), [later.id]);
});

test.serial("contracts: a worker's contracts never overlap; bad dates and fields are 4xx naming the field, writing and emitting nothing", async (t) => {
  const worker = await hire();
  const path = `/workers/${worker.id}/contracts`;
  const open = ok(await hr.post(path, { contract_type: 'permanent', starts_on: '2026-07-01', hours_per_week: 40 }));
  const before = ok(await hr.post(path, { contract_type: 'fixed_term', starts_on: '2026-01-01', ends_on: '2026-06-30', hours_per_week: 20 }));
  world.takeEvents();
  const count = await contractRows();
  const cases: Array<[string, string, unknown, number, string, string]> = [
    ['POST', path, { contract_type: 'fixed_term', starts_on: '2025-01-01', hours_per_week: 20 }, 400, 'ends_on is required for a fixed_term contract', 'ends_on'],
    ['POST', path, { contract_type: 'internship', starts_on: '2025-03-01', ends_on: '2025-02-01', hours_per_week: 20 }, 400, 'ends_on 2025-02-01 is before starts_on 2025-03-01', 'ends_on'],
    ['POST', path, { contract_type: 'freelance', starts_on: '2027-03-01', hours_per_week: 10 }, 409, `The contract overlaps contract ${open.id} (2026-07-01 to open-ended); a worker's contracts cannot overlap`, 'starts_on'],
    ['POST', path, { contract_type: 'internship', starts_on: '2025-12-01', ends_on: '2026-01-01', hours_per_week: 10 }, 409, `The contract overlaps contract ${before.id} (2026-01-01 to 2026-06-30); a worker's contracts cannot overlap`, 'starts_on'],
    ['PATCH', `${path}/${before.id}`, { ends_on: '2026-07-01' }, 409, `The contract overlaps contract ${open.id} (2026-07-01 to open-ended); a worker's contracts cannot overlap`, 'starts_on'],
    ['PATCH', `${path}/${before.id}`, { contract_type: 'fixed_term', ends_on: null }, 400, 'ends_on is required for a fixed_term contract', 'ends_on'],
    ['POST', path, { contract_type: 'permanent', starts_on: '2020-01-01', ends_on: '2020-12-31', hours_per_week: 0 }, 400, 'hours_per_week must be greater than 0', 'hours_per_week'],
    ['POST', path, { contract_type: 'permanent', starts_on: '2020-01-01', ends_on: '2020-12-31', hours_per_week: 169 }, 400, 'hours_per_week must be less than or equal to 168', 'hours_per_week'],
    ['POST', path, { contract_type: 'casual', starts_on: '2020-01-01', hours_per_week: 10 }, 400, 'contract_type must be one of [permanent, fixed_term, freelance, internship]', 'contract_type'],
    ['POST', path, { contract_type: 'permanent', starts_on: '2020-01-01', ends_on: '2020-12-31', hours_per_week: 10, calendar_mrn: 'mrn:settings:location:x' }, 400, 'calendar_mrn must be a settings calendar MRN: mrn:settings:calendar: and its id', 'calendar_mrn'],
    ['POST', path, { contract_type: 'permanent', hours_per_week: 10 }, 400, 'starts_on is required', 'starts_on'],
  ];
  for (const [method, url, payload, status, error, field] of cases) {
    const reply = method === 'POST' ? await hr.post(url, payload) : await hr.patch(url, payload);
    t.deepEqual([reply.status, reply.body.error, reply.body.field], [status, error, field], `${method} ${JSON.stringify(payload)}`);
  }
  // Back to back is no overlap: the first ends the day before the next begins.
  const next = await hr.post(`/workers/${(await hire()).id}/contracts`, { contract_type: 'permanent', starts_on: '2026-07-01', hours_per_week: 40 });
  t.is(next.status, 200, 'another worker may have a contract on the same days');
  world.takeEvents();
  t.is(await contractRows(), count + 1);
  t.deepEqual(ok(await hr.get(path)).map((row: any) => row.id), [before.id, open.id]);
  t.deepEqual(world.takeEvents(), []);
});

test.serial("contracts: another worker's contract, an unknown one and a missing key answer alike", async (t) => {
  const owner = await hire();
  const other = await hire();
  const contract = ok(await hr.post(`/workers/${owner.id}/contracts`, { contract_type: 'permanent', starts_on: '2026-01-01', hours_per_week: 40 }));
  world.takeEvents();
  const wrongWorker = await hr.patch(`/workers/${other.id}/contracts/${contract.id}`, { hours_per_week: 10 });
  t.deepEqual([wrongWorker.status, wrongWorker.body.error], [404, `Contract ${contract.id} not found`]);
  const unknown = await hr.delete(`/workers/${owner.id}/contracts/${UNKNOWN}`);
  t.deepEqual([unknown.status, unknown.body.error], [404, `Contract ${UNKNOWN} not found`]);
  const noWorker = await hr.get(`/workers/${UNKNOWN}/contracts`);
  t.deepEqual([noWorker.status, noWorker.body.error], [404, `Worker ${UNKNOWN} not found`]);
  const denied = await reader.get(`/workers/${owner.id}/contracts`);
  t.deepEqual([denied.status, denied.body.error], [403, 'Missing permission: workers.contracts.read']);
  t.like(ok(await hr.get(`/workers/${owner.id}/contracts`))[0], { id: contract.id, hours_per_week: 40, revision: 1 });
  t.deepEqual(world.takeEvents(), []);
});

test.serial('checklists: templates open a worker\'s onboarding and offboarding checklists; items tick by hand or by their confirming event, once; completion is emitted once per completion', async (t) => {
  const engineering = ok(await hr.post('/workers/departments', { name: `Checklist dept ${++serial}` }));
  const refusals: Array<[unknown, string, string]> = [
    [{ kind: 'onboarding', name: 'X', items: [{ label: 'Laptop' }, { label: 'Gone', confirmed_by: 'access_removed' }] }, 'items[1].confirmed_by access_removed confirms an item of an offboarding checklist, not of an onboarding one', 'items[1].confirmed_by'],
    [{ kind: 'onboarding', name: 'X', department_id: UNKNOWN, items: [{ label: 'Laptop' }] }, `department_id ${UNKNOWN} is not a department of this workspace`, 'department_id'],
    [{ kind: 'onboarding', name: 'X', items: [] }, 'items must contain at least 1 items', 'items'],
    [{ kind: 'onboarding', name: '  ', items: [{ label: 'Laptop' }] }, 'name is not allowed to be empty', 'name'],
  ];
  for (const [payload, error, field] of refusals) {
    const reply = await hr.post('/workers/checklist-templates', payload);
    t.deepEqual([reply.status, reply.body.error, reply.body.field], [400, error, field], JSON.stringify(payload));
  }
  const everyone = ok(await hr.post('/workers/checklist-templates', { kind: 'onboarding', name: 'A. Welcome', items: [{ label: ' Laptop ' }, { label: 'Account', confirmed_by: 'member_linked' }] }));
  t.deepEqual(everyone.items, [{ label: 'Laptop' }, { label: 'Account', confirmed_by: 'member_linked' }]);
  const engineers = ok(await hr.post('/workers/checklist-templates', { kind: 'onboarding', name: 'B. Engineering', department_id: engineering.id, items: [{ label: 'Repository access' }] }));
  const leaving = ok(await hr.post('/workers/checklist-templates', { kind: 'offboarding', name: 'Leaving', items: [{ label: 'Files handed over', confirmed_by: 'files_transferred' }, { label: 'Access removed', confirmed_by: 'access_removed' }, { label: 'Time off cleared', confirmed_by: 'time_off_cancelled' }, { label: 'Tasks unassigned', confirmed_by: 'tasks_unassigned' }] }));
  const gone = await hr.delete(`/workers/departments/${engineering.id}`);
  t.deepEqual([gone.status, gone.body.error], [409, `Department ${engineering.id} (${engineering.name}) has 1 checklist template(s); change or delete them first`]);
  t.deepEqual(ok(await hr.get('/workers/checklist-templates?kind=onboarding')).map((row: any) => row.name), ['A. Welcome', 'B. Engineering']);
  world.takeEvents();

  const worker = await hire({ department_id: engineering.id });
  const outsider = await hire();
  const lists = ok(await hr.get(`/workers/${worker.id}/checklists`));
  t.deepEqual(lists.map((list: any) => [list.kind, list.name, list.template_id, list.missing, list.completed_at]), [
    ['onboarding', 'A. Welcome', everyone.id, ['Laptop', 'Account'], null],
    ['onboarding', 'B. Engineering', engineers.id, ['Repository access'], null],
  ]);
  t.deepEqual(ok(await hr.get(`/workers/${outsider.id}/checklists`)).map((list: any) => list.name), ['A. Welcome'], 'a department\'s template is for its workers only');
  t.deepEqual(world.takeEvents().map((e) => e.action), ['core.workers.worker.hired', 'core.workers.worker.hired']);

  const welcome = lists[0];
  const item = (list: any, label: string) => list.items.find((row: any) => row.label === label);
  const ticked = ok(await hr.patch(`/workers/${worker.id}/checklists/${welcome.id}/items/${item(welcome, 'Laptop').id}`, { done: true }));
  t.like(item(ticked, 'Laptop'), { done: true, done_by: hr.id, done_via: null });
  t.deepEqual(ticked.missing, ['Account']);
  t.deepEqual(world.takeEvents(), []);

  const member = await world.member([], { email: `checklist${serial}@example.test`, name: 'New Starter' } as never);
  ok(await hr.patch(`/workers/${worker.id}`, { member_id: member.id }));
  const linked = ok(await hr.get(`/workers/${worker.id}/checklists`))[0];
  t.like(item(linked, 'Account'), { done: true, done_by: null, done_via: 'member linked' });
  t.deepEqual(linked.missing, []);
  t.truthy(linked.completed_at);
  const completed = { action: 'core.workers.checklist.completed', payload: { checklist_id: welcome.id, worker_id: worker.id, worker_mrn: `mrn:workers:worker:${worker.id}`, kind: 'onboarding', name: 'A. Welcome', by: hr.mrn } };
  t.deepEqual(world.takeEvents().filter((e) => e.action === 'core.workers.checklist.completed'), [completed]);

  const reopened = ok(await hr.patch(`/workers/${worker.id}/checklists/${welcome.id}/items/${item(welcome, 'Laptop').id}`, { done: false }));
  t.deepEqual([reopened.completed_at, reopened.missing], [null, ['Laptop']]);
  ok(await hr.patch(`/workers/${worker.id}/checklists/${welcome.id}/items/${item(welcome, 'Laptop').id}`, { done: true }));
  ok(await hr.patch(`/workers/${worker.id}/checklists/${welcome.id}/items/${item(welcome, 'Laptop').id}`, { done: true }));
  t.deepEqual(world.takeEvents(), [completed], 'completed again after a reopening; a second tick of a done item changes nothing');

  const wrong = await hr.patch(`/workers/${outsider.id}/checklists/${welcome.id}/items/${item(welcome, 'Laptop').id}`, { done: true });
  t.deepEqual([wrong.status, wrong.body.error], [404, `Checklist ${welcome.id} not found`]);
  const unknownItem = await hr.patch(`/workers/${worker.id}/checklists/${welcome.id}/items/${UNKNOWN}`, { done: true });
  t.deepEqual([unknownItem.status, unknownItem.body.error], [404, `Checklist item ${UNKNOWN} not found`]);

  ok(await hr.patch(`/workers/${worker.id}/status`, { status: 'active' }));
  ok(await hr.patch(`/workers/${worker.id}/status`, { status: 'offboarding' }));
  world.takeEvents();
  const offboarding = ok(await hr.get(`/workers/${worker.id}/checklists`))[2];
  t.deepEqual([offboarding.kind, offboarding.name, offboarding.template_id, offboarding.missing], ['offboarding', 'Leaving', leaving.id, ['Files handed over', 'Access removed', 'Time off cleared', 'Tasks unassigned']]);
  const transfer = { transfer_id: UNKNOWN, from_mrn: `mrn:account:member:${member.id}`, to_mrn: hr.mrn, folders: 1, files: 2, renamed: [], transferred_by: hr.mrn };
  await world.deliver('core.files.transfer.completed', transfer);
  await world.deliver('core.files.transfer.completed', transfer);
  await world.deliver('core.account.member.removed', { member_id: member.id });
  t.deepEqual(ok(await hr.get(`/workers/${worker.id}/checklists`))[2].missing, ['Time off cleared', 'Tasks unassigned']);
  t.deepEqual(world.takeEvents().filter((e) => e.action === 'core.workers.checklist.completed'), []);
  await world.deliver('core.leaves.time_off.cleared', { worker_id: worker.id, worker_mrn: `mrn:workers:worker:${worker.id}`, cancelled: 0, withdrawn: 0 });
  // Tasks' release names the member, who left already: the worker remembers them as their former member.
  t.is(ok(await hr.get(`/workers/${worker.id}`)).member_id, null);
  await world.deliver('core.tasks.member.released', { member_mrn: `mrn:account:member:${member.id}`, unassigned: 3 });
  await world.deliver('core.tasks.member.released', { member_mrn: `mrn:account:member:${UNKNOWN}`, unassigned: 0 });
  const done = ok(await hr.get(`/workers/${worker.id}/checklists`))[2];
  t.deepEqual(done.items.map((row: any) => [row.label, row.done, row.done_via]), [['Files handed over', true, 'core.files.transfer.completed'], ['Access removed', true, 'core.account.member.removed'], ['Time off cleared', true, 'core.leaves.time_off.cleared'], ['Tasks unassigned', true, 'core.tasks.member.released']]);
  t.deepEqual(world.takeEvents().filter((e) => e.action === 'core.workers.checklist.completed').map((e) => [e.payload.checklist_id, e.payload.kind, e.payload.by ?? null]), [[offboarding.id, 'offboarding', null]]);

  const denied = await reader.get(`/workers/${worker.id}/checklists`);
  t.deepEqual([denied.status, denied.body.error], [403, 'Missing permission: workers.checklists.read']);
  for (const template of [everyone, engineers, leaving]) t.deepEqual(ok(await hr.delete(`/workers/checklist-templates/${template.id}`)), { id: template.id, deleted: true });
  t.is(ok(await hr.get(`/workers/${worker.id}/checklists`)).length, 3, 'checklists stay when their templates go');
});

test.serial('search: a worker is indexed by name and work e-mail, and the reindex gives every worker', async (t) => {
  const worker = await hire({ name: 'Searchable Person', title: 'Analyst' });
  const doc = world.platform.search.filter((change: any) => change.document?.id === worker.id).pop() as any;
  t.like(doc.document, { type: 'worker', title: 'Searchable Person', names: ['Searchable Person', worker.work_email], details: ['Analyst'] });
  await world.platform.runtime.reindexSearch({ app: 'workers', workspaceId: world.workspaceId });
  t.pass();
});

test.serial('every route refuses a member without its key (layer 5) and lets a holder through', async (t) => {
  checkMatrixRows(t, await world.workspace.permissionMatrix('workers'));
});

test('every table can be distributed by workspace', async (t) => {
  t.deepEqual(await world.platform.distributionProblems(), []);
});
