import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, prepareWorld, startWorld, type TestMember, type World } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };
import app from '../src/index.js';

const dir = (name: string) => fileURLToPath(new URL(`../../${name}`, import.meta.url));
const UNKNOWN = '00000000-0000-4000-8000-000000000abc';
const ALL = manifest.permissions.map((permission) => permission.key);
const TAKING_PART = ['growth.reviews.read', 'growth.cycles.read', 'growth.goals.read', 'growth.one_on_ones.read', 'growth.one_on_ones.create', 'growth.feedback.create', 'growth.praises.create'];

let world: World;
let hr: TestMember;
/** The org: ceo ← lead ← report; ceo ← peer; outsider has no worker. */
let people: Record<'ceo' | 'lead' | 'report' | 'peer' | 'outsider', TestMember>;
let workers: Record<'ceo' | 'lead' | 'report' | 'peer', string>;

test.before(async () => {
  world = await startWorld({ app, subdomain: 'growth', apps: [dir('workers'), dir('tasks'), dir('ats')], firstParty: ['growth', 'workers', 'tasks', 'ats'] });
  await prepareWorld(world, async () => {
    await world.workspace.install('workers');
    hr = await world.member([...ALL, 'workers.workers.create', 'workers.workers.edit', 'workers.departments.create']);
    const [ceo, lead, report, peer, outsider] = await world.members(5, TAKING_PART);
    people = { ceo, lead, report, peer, outsider };
    const hire = async (member: TestMember, name: string, managerId: string | null) => ok(await hr.post('/workers', { name, work_email: `${name.toLowerCase()}@growth.test`, member_id: member.id, manager_id: managerId })).id as string;
    const ceoId = await hire(ceo, 'Ceo', null);
    const leadId = await hire(lead, 'Lead', ceoId);
    workers = { ceo: ceoId, lead: leadId, report: await hire(report, 'Report', leadId), peer: await hire(peer, 'Peer', ceoId) };
    await world.platform.deliverDue();
    world.takeEvents();
  });
});
test.after.always(() => world?.close());

/** Row counts of the app's tables in the test workspace. */
async function counts() {
  const tables = ['competencies', 'profiles', 'goals', 'key_results', 'check_ins', 'cycles', 'reviews', 'peer_nominations', 'one_on_ones', 'feedback_requests', 'praise'];
  const [row] = await world.query<Record<string, number>>(`SELECT ${tables.map((table) => `(SELECT count(*)::int FROM app_growth.${table} WHERE workspace_id = :id) AS ${table}`).join(', ')}`, { id: world.workspaceId });
  return row;
}

/** Sends one delivery with a given delivery id, as the broker does on a retry of the same delivery. */
async function deliverWithId(deliveryId: string, action: string, payload: Record<string, unknown>): Promise<number> {
  const { runtime } = world.platform;
  const growth = runtime.apps.list().find((candidate) => candidate.manifest.slug === 'growth')!;
  const handler = manifest.subscriptions.find((subscription) => subscription.action === action)!.handler;
  const request = runtime.events.deliveryRequest({ subscriber: growth.namespace, handler, workspaceId: world.workspaceId, action, payload, deliveryId });
  const response = await runtime.server.inject({ method: 'POST', url: request.path, headers: request.headers, payload: request.body, remoteAddress: '127.0.0.1' });
  return response.statusCode;
}

test.serial('the workers copy follows core.workers.* by revision: the manager tree, a stale delivery ignored, a deletion', async (t) => {
  const copy = async () => world.query<{ id: string; name: string; manager_id: string | null; member_id: string | null; revision: number }>('SELECT id, name, manager_id, member_id, revision FROM app_growth.people WHERE workspace_id = :id ORDER BY name', { id: world.workspaceId });
  t.deepEqual((await copy()).map((row) => [row.name, row.manager_id]), [['Ceo', null], ['Lead', workers.ceo], ['Peer', workers.ceo], ['Report', workers.lead]]);
  const temp = ok(await hr.post('/workers', { name: 'Temp', work_email: 'temp@growth.test', manager_id: workers.lead }));
  ok(await hr.patch(`/workers/${temp.id}`, { name: 'Temp Two' }));
  const events = world.platform.events.filter((event) => event.payload.worker_id === temp.id);
  await world.platform.deliverDue();
  t.is((await copy()).find((row) => row.id === temp.id)?.name, 'Temp Two');
  const hired = events.find((event) => event.action === 'core.workers.worker.hired')!;
  await world.deliver('core.workers.worker.hired', hired.payload);
  t.like((await copy()).find((row) => row.id === temp.id), { name: 'Temp Two', revision: 2 }, 'an older revision changes nothing');
  await world.deliver('core.workers.worker.deleted', { ...hired.payload, name: 'Temp Two', revision: 3 });
  t.is((await copy()).find((row) => row.id === temp.id), undefined);
  world.takeEvents();
});

test.serial('competencies: create, list, rename, levels, delete; events once each; profiles reference levels that exist', async (t) => {
  const created = await hr.post('/growth/competencies', { name: ' Communication ', description: 'Says things clearly', levels: ['Explains own work', 'Explains to other teams', 'Sets how the company communicates'] });
  t.is(created.status, 200);
  const comm = created.body.data;
  t.deepEqual(comm.levels, [{ level: 1, descriptor: 'Explains own work' }, { level: 2, descriptor: 'Explains to other teams' }, { level: 3, descriptor: 'Sets how the company communicates' }]);
  t.like(comm, { mrn: `mrn:growth:competency:${comm.id}`, name: 'Communication', revision: 1 });
  t.deepEqual(world.takeEvents(), [{ action: 'core.growth.competency.created', payload: { competency_id: comm.id, mrn: comm.mrn, name: 'Communication', levels: comm.levels, revision: 1, by: hr.mrn } }]);
  const craft = ok(await hr.post('/growth/competencies', { name: 'Craft', levels: ['Learns', 'Does'] }));
  world.takeEvents();
  t.deepEqual((await hr.get('/growth/competencies')).body.data.map((row: any) => row.name), ['Communication', 'Craft']);
  t.deepEqual((await hr.get('/growth/competencies?q=clearly')).body.data.map((row: any) => row.name), ['Communication']);
  const profile = ok(await hr.post('/growth/profiles', { name: 'Senior engineer', expectations: [{ competency_id: comm.id, level: 3 }, { competency_id: craft.id, level: 2 }] }));
  t.deepEqual(profile.expectations, [{ competency_id: comm.id, level: 3 }, { competency_id: craft.id, level: 2 }]);
  t.deepEqual((await hr.get('/growth/profiles')).body.data.map((row: any) => row.name), ['Senior engineer']);
  const renamed = ok(await hr.patch(`/growth/competencies/${comm.id}`, { name: 'Clear communication' }));
  t.like(renamed, { name: 'Clear communication', revision: 2 });
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload.changed_fields, event.payload.revision]), [['core.growth.competency.updated', ['name'], 2]]);
  const before = await counts();
  const cases: Array<[string, string, unknown, number, string]> = [
    ['POST', '/growth/competencies', { levels: ['A'] }, 400, 'name is required'],
    ['POST', '/growth/competencies', { name: 'X', levels: [] }, 400, 'levels must contain at least 1 items'],
    ['POST', '/growth/competencies', { name: 'craft', levels: ['A'] }, 409, `Competency ${craft.id} is already named Craft`],
    ['PATCH', `/growth/competencies/${comm.id}`, { levels: ['Only one'] }, 409, `Profile ${profile.id} (Senior engineer) expects level 3 of this competency, which would have 1 levels`],
    ['PATCH', `/growth/competencies/${UNKNOWN}`, { name: 'Y' }, 404, `Competency ${UNKNOWN} not found`],
    ['DELETE', `/growth/competencies/${craft.id}`, undefined, 409, `Profile ${profile.id} (Senior engineer) expects this competency; take it out of the profile first`],
    ['POST', '/growth/profiles', { name: 'Lead', expectations: [{ competency_id: craft.id, level: 3 }] }, 400, 'expectations[0].level 3: Craft has 2 levels'],
    ['POST', '/growth/profiles', { name: 'Lead', expectations: [{ competency_id: UNKNOWN, level: 1 }] }, 400, `expectations[0].competency_id ${UNKNOWN} is not a competency of this workspace`],
    ['POST', '/growth/profiles', { name: 'Lead', expectations: [{ competency_id: craft.id, level: 1 }, { competency_id: craft.id, level: 2 }] }, 400, `expectations[1].competency_id ${craft.id} is named twice`],
  ];
  for (const [method, path, payload, status, error] of cases) {
    const reply = await hr.request(method, path, payload);
    t.deepEqual([reply.status, reply.body.error], [status, error], `${method} ${path} ${JSON.stringify(payload)}`);
  }
  t.deepEqual(await counts(), before);
  t.deepEqual(world.takeEvents(), []);
  const loose = ok(await hr.post('/growth/competencies', { name: 'Loose', levels: ['One'] }));
  world.takeEvents();
  t.deepEqual(ok(await hr.delete(`/growth/competencies/${loose.id}`)), { id: loose.id, mrn: loose.mrn, deleted: true });
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload.revision]), [['core.growth.competency.deleted', 2]]);
  t.is((await people.outsider.get('/growth/competencies')).status, 403);
});

test.serial('goals: key results, alignment, check-ins and completion; progress is the mean of the key results', async (t) => {
  const company = await hr.post('/growth/goals', { title: 'Grow revenue', owner_type: 'company', period_start: '2026-01-01', period_end: '2026-03-31', key_results: [{ title: 'New customers', start: 0, target: 40, unit: 'customers' }] });
  t.is(company.status, 200);
  const parent = company.body.data;
  t.like(parent, { mrn: `mrn:growth:goal:${parent.id}`, owner_type: 'company', owner_id: null, status: 'active', progress: 0, revision: 1 });
  const mine = ok(await hr.post('/growth/goals', {
    title: 'Ship the onboarding flow', owner_type: 'member', owner_id: people.lead.id, parent_id: parent.id,
    key_results: [{ title: 'Screens shipped', start: 0, target: 4 }, { title: 'Drop-off', start: 50, target: 20, unit: '%' }],
  }));
  t.like(mine, { owner_id: people.lead.id, parent_id: parent.id, period_start: null, period_end: null, progress: 0 });
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload.goal_id, event.payload.progress]), [['core.growth.goal.created', parent.id, 0], ['core.growth.goal.created', mine.id, 0]]);
  const [screens, dropOff] = mine.key_results;
  ok(await hr.post(`/growth/goals/${mine.id}/check-ins`, { key_result_id: screens.id, value: 3, note: 'Three of four' }));
  const checked = ok(await hr.post(`/growth/goals/${mine.id}/check-ins`, { key_result_id: dropOff.id, value: 35 }));
  t.deepEqual(checked.key_results.map((kr: any) => [kr.current, kr.progress]), [[3, 75], [35, 50]]);
  t.is(checked.progress, 63);
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload.progress, event.payload.changed_fields]), [['core.growth.goal.updated', 38, ['key_results']], ['core.growth.goal.updated', 63, ['key_results']]]);
  const done = ok(await hr.patch(`/growth/goals/${mine.id}`, { status: 'completed' }));
  t.is(done.status, 'completed');
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.growth.goal.updated', 'core.growth.goal.completed']);
  t.deepEqual((await hr.get(`/growth/goals?parent_id=${parent.id}`)).body.data.map((goal: any) => goal.id), [mine.id]);
  const before = await counts();
  const cases: Array<[string, string, unknown, number, string]> = [
    ['POST', '/growth/goals', { title: 'X', owner_type: 'member' }, 400, 'owner_id is required for a member goal'],
    ['POST', '/growth/goals', { title: 'X', owner_type: 'member', owner_id: UNKNOWN }, 400, `owner_id ${UNKNOWN} is not a member of this workspace`],
    ['POST', '/growth/goals', { title: 'X', owner_type: 'department', owner_id: UNKNOWN }, 400, `owner_id ${UNKNOWN} is not a department of this workspace`],
    ['POST', '/growth/goals', { title: 'X', owner_type: 'company', owner_id: UNKNOWN }, 400, 'owner_id must be empty for a company goal'],
    ['POST', '/growth/goals', { title: 'X', owner_type: 'company', period_start: '2026-02-01' }, 400, 'period_start and period_end go together (both, or neither for a goal outside periods)'],
    ['POST', '/growth/goals', { title: 'X', owner_type: 'company', period_start: '2026-02-01', period_end: '2026-01-01' }, 400, 'period_end 2026-01-01 is before period_start 2026-02-01'],
    ['POST', '/growth/goals', { title: 'X', owner_type: 'company', parent_id: UNKNOWN }, 400, `parent_id ${UNKNOWN} is not a goal of this workspace`],
    ['POST', '/growth/goals', { title: 'X', owner_type: 'company', key_results: [{ title: 'K', target: 1, source: { action: 'core.tasks.task.completed', filter: 'completed_by = ' } }] }, 400, ''],
    ['POST', '/growth/goals', { title: 'X', owner_type: 'company', key_results: [{ title: 'K', target: 1, source: { action: 'core.tasks.task.completed', aggregate: 'sum' } }] }, 400, 'key_results[0].source.field names the payload field a sum adds up'],
    ['PATCH', `/growth/goals/${parent.id}`, { parent_id: mine.id }, 409, `Aligning goal ${parent.id} to ${mine.id} would make a loop: ${mine.id} is aligned below it`],
    ['POST', `/growth/goals/${parent.id}/check-ins`, { key_result_id: screens.id, value: 1 }, 400, `key_result_id ${screens.id} is not a key result of this goal`],
    ['POST', `/growth/goals/${mine.id}/check-ins`, { key_result_id: screens.id, value: 1 }, 409, `Goal ${mine.id} is completed: check-ins go to active goals`],
    ['DELETE', `/growth/goals/${parent.id}`, undefined, 409, `Goal ${parent.id} has 1 goal(s) aligned to it; align them elsewhere first`],
  ];
  for (const [method, path, payload, status, error] of cases) {
    const reply = await hr.request(method, path, payload);
    t.is(reply.status, status, `${method} ${path} ${JSON.stringify(payload)}`);
    if (error) t.is(reply.body.error, error);
    else t.regex(reply.body.error, /^key_results\[0\]\.source\.filter is not a JSONata expression/);
  }
  t.deepEqual(await counts(), before);
  t.deepEqual(world.takeEvents(), []);
  t.deepEqual(ok(await hr.delete(`/growth/goals/${mine.id}`)), { id: mine.id, mrn: mine.mrn, deleted: true });
  t.is((await hr.get(`/growth/goals/${mine.id}`)).status, 404);
});

test.serial('an event-fed key result moves once per delivery id: the same delivery twice moves it once; the filter picks the events', async (t) => {
  const goal = ok(await hr.post('/growth/goals', {
    title: 'Close the backlog', owner_type: 'member', owner_id: people.lead.id,
    key_results: [
      { title: "Lead's tasks done", target: 3, source: { action: 'core.tasks.task.completed', filter: `completed_by = "${people.lead.id}"`, aggregate: 'count' } },
      { title: 'Hires', target: 2, source: { action: 'core.ats.application.hired' } },
    ],
  }));
  world.takeEvents();
  const [tasks] = goal.key_results;
  const manual = await hr.post(`/growth/goals/${goal.id}/check-ins`, { key_result_id: tasks.id, value: 2 });
  t.deepEqual([manual.status, manual.body.error], [409, `Key result ${tasks.id} is fed by core.tasks.task.completed events; it takes no manual check-in`]);
  const completed = (by: TestMember) => ({ task_id: '11111111-1111-4111-8111-111111111111', completed_by: by.id });
  const delivery = '22222222-2222-4222-8222-222222222222';
  t.is(await deliverWithId(delivery, 'core.tasks.task.completed', completed(people.lead)), 200);
  t.is(await deliverWithId(delivery, 'core.tasks.task.completed', completed(people.lead)), 200);
  const current = async () => (ok(await hr.get(`/growth/goals/${goal.id}`)).key_results as any[]).map((kr) => kr.current);
  t.deepEqual(await current(), [1, 0], 'the same delivery twice moves it once');
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload.progress]), [['core.growth.goal.updated', 17]]);
  await world.deliver('core.tasks.task.completed', completed(people.peer));
  t.deepEqual(await current(), [1, 0], "another member's task does not pass the filter");
  t.deepEqual(world.takeEvents(), []);
  await world.deliver('core.tasks.task.completed', completed(people.lead));
  await world.deliver('core.ats.application.hired', { application_id: UNKNOWN, candidate_id: UNKNOWN, candidate_name: 'New Person', candidate_email: 'new@growth.test', job_id: UNKNOWN, job_title: 'Engineer' });
  t.deepEqual(await current(), [2, 1]);
  const checkIns = await world.query<{ n: number }>('SELECT count(*)::int AS n FROM app_growth.check_ins WHERE workspace_id = :id AND goal_id = :goal', { id: world.workspaceId, goal: goal.id });
  t.is(checkIns[0].n, 3);
  world.takeEvents();
});

test.serial('a key result counts the tasks completed on one board: core.tasks.task.completed carries board_id and a JSONata filter picks it', async (t) => {
  await world.workspace.install('tasks');
  const planner = await world.member(['tasks.*']);
  const board = ok(await planner.post('/boards', { title: 'Launch' }));
  const other = ok(await planner.post('/boards', { title: 'Elsewhere' }));
  const goal = ok(await hr.post('/growth/goals', {
    title: 'Ship the launch board', owner_type: 'company',
    key_results: [{ title: 'Launch tasks done', target: 2, source: { action: 'core.tasks.task.completed', filter: `board_id = "${board.id}"` } }],
  }));
  world.takeEvents();
  const complete = async (boardId: string | null) => {
    const task = ok(await planner.post('/tasks', { title: 'A task', ...(boardId ? { board_id: boardId } : {}) }));
    ok(await planner.post(`/tasks/${task.id}/completion`));
    return task.id as string;
  };
  const onBoard = await complete(board.id);
  await complete(other.id);
  await complete(null);
  const completed = world.platform.events.filter((event) => event.action === 'core.tasks.task.completed').slice(-3);
  t.deepEqual(completed.map((event) => event.payload.board_id), [board.id, other.id, undefined], 'the payload names the board (none in the incubator)');
  t.is(completed[0].payload.task_id, onBoard);
  await world.platform.deliverDue();
  const current = async () => (ok(await hr.get(`/growth/goals/${goal.id}`)).key_results as any[]).map((kr) => [kr.current, kr.progress]);
  t.deepEqual(await current(), [[1, 50]], 'only the task on the board counts');
  await complete(board.id);
  await world.platform.deliverDue();
  t.deepEqual(await current(), [[2, 100]]);
  world.takeEvents();
});

/** Moves a cycle one step as HR. */
const step = async (cycleId: string, status: string) => ok(await hr.patch(`/growth/cycles/${cycleId}`, { status }));
const reviewOf = async (cycleId: string, workerId: string) => ((await hr.get(`/growth/reviews?cycle_id=${cycleId}`)).body.data as any[]).find((review) => review.worker_id === workerId);

test.serial('a review cycle runs draft → … → released → closed; each part is written in its step; the final score is weighted; release emits review.released per review', async (t) => {
  const bad = await hr.post('/growth/cycles', { name: 'H1', weights: { self: 20, peer: 30, manager: 40 } });
  t.deepEqual([bad.status, bad.body], [400, { error: 'weights must sum to 100 (self 20 + peer 30 + manager 40 = 90)', field: 'weights' }]);
  const byDefault = ok(await hr.post('/growth/cycles', { name: 'Defaults' }));
  t.deepEqual(byDefault.weights, { self: 20, peer: 30, manager: 50 });
  const cycle = ok(await hr.post('/growth/cycles', { name: 'H1 2026', weights: { self: 10, peer: 30, manager: 60 } }));
  t.is(cycle.status, 'draft');
  const skip = await hr.patch(`/growth/cycles/${cycle.id}`, { status: 'released' });
  t.deepEqual([skip.status, skip.body.error], [409, 'Cannot move a cycle from draft to released: released is reached from calibration']);
  await step(cycle.id, 'self_review');
  t.deepEqual(((await hr.get(`/growth/reviews?cycle_id=${cycle.id}`)).body.data as any[]).map((review) => review.worker_name), ['Ceo', 'Lead', 'Peer', 'Report']);
  const review = await reviewOf(cycle.id, workers.report);
  t.is(review.manager_id, workers.lead);
  const early = await people.lead.put(`/growth/reviews/${review.id}`, { score: 5 });
  t.deepEqual([early.status, early.body.error], [409, 'The cycle is in self_review: the manager review is written in manager_review']);
  ok(await people.report.put(`/growth/reviews/${review.id}`, { score: 4, comment: 'Shipped the flow' }));
  const nominated = ok(await people.report.post(`/growth/reviews/${review.id}/peers`, { peer_id: workers.peer }));
  t.deepEqual(nominated.peers.map((peer: any) => [peer.peer_id, peer.peer_name, peer.status]), [[workers.peer, 'Peer', 'proposed']]);
  const notTheirs = await people.report.patch(`/growth/reviews/${review.id}/peers/${nominated.peers[0].id}`, { status: 'approved' });
  t.deepEqual([notTheirs.status, notTheirs.body.error], [403, "Only the reviewed worker's manager approves peer nominations"]);
  ok(await people.lead.patch(`/growth/reviews/${review.id}/peers/${nominated.peers[0].id}`, { status: 'approved' }));
  t.is((await people.peer.get(`/growth/reviews/${review.id}`)).status, 404, 'a peer reaches the review only in peer review');
  const peerLists = async () => ((await people.peer.get(`/growth/reviews?cycle_id=${cycle.id}`)).body.data as any[]).map((row) => row.worker_name);
  t.deepEqual(await peerLists(), ['Peer'], 'before peer review a peer lists only their own');
  await step(cycle.id, 'peer_review');
  t.deepEqual(await peerLists(), ['Peer', 'Report'], 'in peer review the approved peer lists the review they write');
  const asPeer = ok(await people.peer.put(`/growth/reviews/${review.id}`, { score: 3, comment: 'Helpful' }));
  t.like(asPeer, { self_score: null, self_comment: '', manager_score: null });
  t.deepEqual(asPeer.peers.map((peer: any) => [peer.peer_id, peer.score]), [[workers.peer, 3]]);
  await step(cycle.id, 'manager_review');
  t.deepEqual(await peerLists(), ['Peer'], 'and no longer after it');
  ok(await people.lead.put(`/growth/reviews/${review.id}`, { score: 5, comment: 'Excellent' }));
  await step(cycle.id, 'calibration');
  world.takeEvents();
  await step(cycle.id, 'released');
  const released = await reviewOf(cycle.id, workers.report);
  t.is(released.final_score, 4.3, '(4×10 + 3×30 + 5×60) / 100');
  t.deepEqual(
    world.takeEvents().filter((event) => event.payload.worker_id === workers.report),
    [{ action: 'core.growth.review.released', payload: { review_id: review.id, cycle_id: cycle.id, worker_id: workers.report, worker_mrn: `mrn:workers:worker:${workers.report}`, final_score: 4.3, by: hr.mrn } }],
  );
  const late = await hr.patch(`/growth/cycles/${cycle.id}`, { weights: { self: 50, peer: 0, manager: 50 } });
  t.deepEqual([late.status, late.body.error], [409, 'The weights of a released cycle are final']);
  t.is((await step(cycle.id, 'closed')).status, 'closed');
});

test.serial('review visibility, enforced in the queries: each role against each review, before and after release', async (t) => {
  const cycle = ok(await hr.post('/growth/cycles', { name: 'Matrix' }));
  await step(cycle.id, 'self_review');
  const reviews = { ceo: await reviewOf(cycle.id, workers.ceo), lead: await reviewOf(cycle.id, workers.lead), report: await reviewOf(cycle.id, workers.report), peer: await reviewOf(cycle.id, workers.peer) };
  for (const [subject, review] of Object.entries(reviews)) ok(await people[subject as keyof typeof reviews].put(`/growth/reviews/${review.id}`, { score: 3 }));
  await step(cycle.id, 'peer_review');
  await step(cycle.id, 'manager_review');
  ok(await people.lead.put(`/growth/reviews/${reviews.report.id}`, { score: 4 }));
  ok(await people.ceo.put(`/growth/reviews/${reviews.lead.id}`, { score: 5 }));
  ok(await people.ceo.put(`/growth/reviews/${reviews.peer.id}`, { score: 2 }));
  /** What each caller sees of each review: 404, `own` (the self part only) or `whole`. */
  const seen = async () => {
    const table: Record<string, Record<string, string>> = {};
    const callers: Record<string, TestMember> = { hr, ...people };
    for (const [name, caller] of Object.entries(callers)) {
      table[name] = {};
      const listed = new Set(((await caller.get(`/growth/reviews?cycle_id=${cycle.id}`)).body.data as any[]).map((review) => review.id));
      for (const [subject, review] of Object.entries(reviews)) {
        const reply = await caller.get(`/growth/reviews/${review.id}`);
        const verdict = reply.status === 404 ? '404' : reply.body.data.final_score === null ? 'own' : 'whole';
        t.is(listed.has(review.id), reply.status === 200, `${name} lists ${subject}'s review exactly when they may read it`);
        table[name][subject] = verdict;
      }
    }
    return table;
  };
  const during = await seen();
  t.deepEqual(during, {
    hr: { ceo: 'whole', lead: 'whole', report: 'whole', peer: 'whole' },
    ceo: { ceo: 'own', lead: 'whole', report: 'whole', peer: 'whole' },
    lead: { ceo: '404', lead: 'own', report: 'whole', peer: '404' },
    report: { ceo: '404', lead: '404', report: 'own', peer: '404' },
    peer: { ceo: '404', lead: '404', report: '404', peer: 'own' },
    outsider: { ceo: '404', lead: '404', report: '404', peer: '404' },
  });
  const ownDuring = ok(await people.report.get(`/growth/reviews/${reviews.report.id}`));
  t.like(ownDuring, { self_score: 3, manager_score: null, final_score: null });
  await step(cycle.id, 'calibration');
  await step(cycle.id, 'released');
  const after = await seen();
  t.deepEqual(after.report, { ceo: '404', lead: '404', report: 'whole', peer: '404' });
  t.deepEqual(after.lead, { ceo: '404', lead: 'whole', report: 'whole', peer: '404' });
  t.deepEqual(after.outsider, { ceo: '404', lead: '404', report: '404', peer: '404' });
  t.like(ok(await people.report.get(`/growth/reviews/${reviews.report.id}`)), { self_score: 3, manager_score: 4, final_score: 3.71 });
  world.takeEvents();
});

test.serial('1:1s, feedback requests and praise: the caller’s own; praise emits praise.given once; bad input refused', async (t) => {
  const meeting = ok(await people.lead.post('/growth/one-on-ones', { attendee_id: people.report.id, scheduled_on: '2026-12-01', agenda: ['Career', 'Blockers'], action_items: [{ text: 'Read the ladder' }] }));
  t.like(meeting, { organizer_id: people.lead.id, attendee_id: people.report.id, scheduled_on: '2026-12-01', agenda: ['Career', 'Blockers'], action_items: [{ text: 'Read the ladder', done: false }] });
  t.deepEqual((await people.report.get('/growth/one-on-ones')).body.data.map((row: any) => row.id), [meeting.id]);
  t.deepEqual((await people.peer.get('/growth/one-on-ones')).body.data, []);
  const noted = ok(await people.report.patch(`/growth/one-on-ones/${meeting.id}`, { notes: ' Wants to lead a project ', action_items: [{ text: 'Read the ladder', done: true }, { text: 'Pick a project' }] }));
  t.like(noted, { notes: 'Wants to lead a project', agenda: ['Career', 'Blockers'], scheduled_on: '2026-12-01', action_items: [{ text: 'Read the ladder', done: true }, { text: 'Pick a project', done: false }] }, 'the attendee writes notes and ticks an item');
  t.like(ok(await people.lead.patch(`/growth/one-on-ones/${meeting.id}`, { scheduled_on: '2026-12-02' })), { scheduled_on: '2026-12-02', notes: 'Wants to lead a project' });
  const notTheirs = await people.peer.patch(`/growth/one-on-ones/${meeting.id}`, { notes: 'Mine now' });
  t.deepEqual([notTheirs.status, notTheirs.body], [404, { error: `1:1 ${meeting.id} not found` }]);
  const empty = await people.lead.patch(`/growth/one-on-ones/${meeting.id}`, {});
  t.deepEqual([empty.status, empty.body.error], [400, 'body must have at least 1 key']);
  t.like(ok(await people.lead.get('/growth/one-on-ones'))[0], { id: meeting.id, notes: 'Wants to lead a project', scheduled_on: '2026-12-02' }, 'nothing written by the refused ones');
  const asked = ok(await people.report.post('/growth/feedback-requests', { responder_id: people.peer.id, question: 'How did the demo land?' }));
  t.like(asked, { requester_id: people.report.id, responder_id: people.peer.id, about_id: people.report.id, due_on: null });
  world.takeEvents();
  const praised = ok(await people.peer.post('/growth/praise', { receiver_id: people.report.id, message: 'Great demo' }));
  t.deepEqual(world.takeEvents(), [{ action: 'core.growth.praise.given', payload: { praise_id: praised.id, giver_mrn: people.peer.mrn, receiver_mrn: people.report.mrn, message: 'Great demo' } }]);
  const ids = async (member: TestMember, path: string) => ((await member.get(path)).body.data as any[]).map((row) => row.id);
  t.deepEqual([await ids(people.report, '/growth/praise'), await ids(people.peer, '/growth/praise'), await ids(people.lead, '/growth/praise')], [[praised.id], [praised.id], []], 'praise: the receiver and the giver');
  t.deepEqual([await ids(people.report, '/growth/feedback-requests'), await ids(people.peer, '/growth/feedback-requests'), await ids(people.lead, '/growth/feedback-requests')], [[asked.id], [asked.id], []], 'feedback requests: who asked and who is asked');
  t.deepEqual(((await people.report.get('/growth/people')).body.data as any[]).map((row) => [row.name, row.member_id]), [['Ceo', people.ceo.id], ['Lead', people.lead.id], ['Peer', people.peer.id], ['Report', people.report.id]]);
  t.deepEqual(((await people.report.get(`/growth/people?member_id=${people.lead.id}`)).body.data as any[]).map((row) => [row.id, row.manager_id]), [[workers.lead, workers.ceo]]);
  t.deepEqual(((await people.report.get('/growth/people?q=EP')).body.data as any[]).map((row) => row.name), ['Report']);
  t.deepEqual(await ids(people.outsider, '/growth/praise'), []);
  const before = await counts();
  const cases: Array<[TestMember, string, unknown, number, string]> = [
    [people.peer, '/growth/praise', { receiver_id: people.peer.id, message: 'Me' }, 400, 'receiver_id is you: praise goes to someone else'],
    [people.peer, '/growth/praise', { receiver_id: people.report.id, message: 'X', competency_id: UNKNOWN }, 400, `competency_id ${UNKNOWN} is not a competency of this workspace`],
    [people.peer, '/growth/praise', { receiver_id: UNKNOWN, message: 'X' }, 400, `receiver_id ${UNKNOWN} is not a member of this workspace`],
    [people.lead, '/growth/one-on-ones', { attendee_id: people.lead.id, scheduled_on: '2026-12-01' }, 400, 'attendee_id is you: a 1:1 is with someone else'],
    [people.lead, '/growth/one-on-ones', { attendee_id: people.report.id }, 400, 'scheduled_on is required'],
    [people.report, '/growth/feedback-requests', { responder_id: people.report.id, question: 'Q' }, 400, 'responder_id is you: ask someone else'],
  ];
  for (const [caller, path, payload, status, error] of cases) {
    const reply = await caller.post(path, payload);
    t.deepEqual([reply.status, reply.body.error], [status, error], `${path} ${JSON.stringify(payload)}`);
  }
  t.deepEqual(await counts(), before);
  t.deepEqual(world.takeEvents(), []);
});
