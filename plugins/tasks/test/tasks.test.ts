import test from 'ava';
import { ok, tasksWorld, type Caller } from './helpers/world.js';

const ids = (rows: Array<{ id: string }>) => rows.map((row) => row.id);
const UNKNOWN = '00000000-0000-4000-8000-00000000ffff';

const world = await tasksWorld('tasks');
const owner = world.owner;
const board = await ok(owner.request('POST', '/boards', { title: 'Product' }));
test.after.always(() => world.close());

test.serial('POST /tasks creates a task with every field, emits task.created then task.assigned per assignee', async (t) => {
  const schedule = await ok(owner.request('POST', '/schedules', { name: 'Week 1' }));
  const topic = await ok(owner.request('POST', `/boards/${board.id}/topics`, { name: 'Backend' }));
  const helper = await world.member(['tasks.tasks.read']);
  // Named with the greater id first: the answer keeps the order given, which sorting by id would not.
  const [first, second] = [helper, owner].sort((a, b) => b.id.localeCompare(a.id));
  world.takeEvents();
  const reply = await owner.request('POST', '/tasks', {
    title: 'Ship the API',
    description: 'All endpoints',
    board_id: board.id,
    lane: 'In progress',
    topic_id: topic.id,
    schedule_id: schedule.id,
    priority: 'high',
    start_date: '2026-11-23',
    due_date: '2026-11-27',
    assignee_ids: [first.id, second.id],
  });
  t.is(reply.status, 200);
  const task = reply.body.data;
  t.like(task, {
    title: 'Ship the API', description: 'All endpoints', board_id: board.id, in_incubator: false, lane: 'In progress', topic_id: topic.id, schedule_id: schedule.id,
    priority: 'high', start_date: '2026-11-23', due_date: '2026-11-27', blocked_by: null, completed: false, completed_at: null, creator_id: owner.id, creator_mrn: owner.mrn,
  });
  t.deepEqual(task.assignee_ids, [first.id, second.id]);
  t.deepEqual(task.assignee_mrns, [first.mrn, second.mrn]);
  t.deepEqual((await ok(owner.request('GET', `/tasks/${task.id}`))).assignee_ids, [first.id, second.id]);
  t.deepEqual(reply.body.links, { self: `/tasks/${task.id}`, comments: `/tasks/${task.id}/comments`, deliverables: `/tasks/${task.id}/deliverables` });
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload]), [
    ['core.tasks.task.created', { task_id: task.id, board_id: board.id, title: 'Ship the API', creator_mrn: owner.mrn }],
    ['core.tasks.task.assigned', { task_id: task.id, assignee_mrn: first.mrn, assigned_by: owner.id }],
    ['core.tasks.task.assigned', { task_id: task.id, assignee_mrn: second.mrn, assigned_by: owner.id }],
  ]);
});

test.serial('POST /tasks: title is optional (Untitled task) and every bound and reference is checked, emitting nothing when refused', async (t) => {
  const untitled = await ok(owner.request('POST', '/tasks', {}));
  t.like(untitled, { title: 'Untitled task', description: '', priority: 'none', board_id: null });
  const foreignBoard = await ok((await world.otherWorkspace('tasks-foreign')).owner.request('POST', '/boards', { title: 'Theirs' }));
  const otherBoard = await ok(owner.request('POST', '/boards', { title: 'Other' }));
  const otherTopic = await ok(owner.request('POST', `/boards/${otherBoard.id}/topics`, { name: 'Elsewhere' }));
  const crowd: Caller[] = [];
  for (let index = 0; index < 11; index += 1) crowd.push(await world.member([]));
  world.takeEvents();
  const cases: Array<[Record<string, unknown>, number, string, string?]> = [
    [{ title: '' }, 400, 'title is not allowed to be empty', 'title'],
    [{ title: ' \t ' }, 400, 'title is not allowed to be empty', 'title'],
    [{ title: 'a\u0000b' }, 400, 'title must not contain NUL characters or unpaired surrogates', 'title'],
    [{ description: '\udc00' }, 400, 'description must not contain NUL characters or unpaired surrogates', 'description'],
    [{ title: 'x'.repeat(201) }, 400, 'title length must be less than or equal to 200 characters long', 'title'],
    [{ description: 'x'.repeat(10001) }, 400, 'description length must be less than or equal to 10000 characters long', 'description'],
    [{ priority: 'asap' }, 400, 'priority must be one of [none, low, medium, high, urgent]', 'priority'],
    [{ start_date: '2026-02-30' }, 400, 'start_date must be a real date in YYYY-MM-DD form', 'start_date'],
    [{ due_date: '27/11/2026' }, 400, 'due_date must be a real date in YYYY-MM-DD form', 'due_date'],
    [{ start_date: '2026-11-10', due_date: '2026-11-09' }, 400, 'due_date 2026-11-09 is before start_date 2026-11-10'],
    [{ board_id: 'nope' }, 404, 'Board nope not found'],
    [{ board_id: foreignBoard.id }, 404, `Board ${foreignBoard.id} not found`],
    [{ board_id: board.id, lane: 'Nowhere' }, 400, 'lane Nowhere is not a lane of board Product'],
    [{ lane: 'To do' }, 400, 'lane needs a board: a task in the incubator has no lane'],
    [{ topic_id: otherTopic.id }, 400, 'topic_id needs a board: a task in the incubator has no topic'],
    [{ board_id: board.id, topic_id: otherTopic.id }, 400, `topic_id ${otherTopic.id} is not a topic of board Product`],
    [{ schedule_id: UNKNOWN }, 400, `schedule_id ${UNKNOWN} is not a schedule of this workspace`],
    [{ blocked_by: UNKNOWN }, 400, `blocked_by ${UNKNOWN} is not a task of this workspace`],
    [{ assignee_ids: ['nope'] }, 400, 'assignee_ids[0] must be the id of a member of this workspace', 'assignee_ids[0]'],
    [{ assignee_ids: [owner.id, UNKNOWN] }, 400, `assignee_ids ${UNKNOWN} is not a member of this workspace`],
    [{ blocked_by: "x' OR '1'='1" }, 400, "blocked_by x' OR '1'='1 is not a task of this workspace"],
    [{ assignee_ids: crowd.map((member) => member.id) }, 400, 'assignee_ids must contain at most 10 members (settings: max_assignees)'],
  ];
  for (const [payload, status, error, field] of cases) {
    const reply = await owner.request('POST', '/tasks', payload);
    t.is(reply.status, status, JSON.stringify(payload).slice(0, 80));
    t.deepEqual(reply.body, field === undefined ? { error } : { error, field }, JSON.stringify(payload).slice(0, 80));
  }
  t.deepEqual(world.takeEvents(), []);
  t.is((await owner.request('POST', '/tasks', { title: 'x'.repeat(200), description: 'x'.repeat(10000), start_date: '2026-11-10', due_date: '2026-11-10' })).status, 200);
});

test.serial('GET /tasks/{id} answers the task; unknown, foreign and ids of any other shape are all 404', async (t) => {
  const task = await ok(owner.request('POST', '/tasks', { title: 'Readable', board_id: board.id }));
  const reply = await owner.request('GET', `/tasks/${task.id}`);
  t.is(reply.status, 200);
  t.deepEqual(reply.body.data, task);
  t.is(reply.body.links.board, `/boards/${board.id}`);
  const foreign = await ok((await world.otherWorkspace('tasks-read')).owner.request('POST', '/tasks', { title: 'Theirs' }));
  t.deepEqual((await owner.request('GET', `/tasks/${foreign.id}`)).body, { error: `Task ${foreign.id} not found` });
  t.is((await owner.request('GET', `/tasks/${UNKNOWN}`)).status, 404);
  const shapeless = await owner.request('GET', '/tasks/42');
  t.deepEqual([shapeless.status, shapeless.body], [404, { error: 'Task 42 not found' }]);
});

test.serial('GET /tasks filters by every query parameter and pages in the collection envelope', async (t) => {
  const list = await ok(owner.request('POST', '/boards', { title: 'Filters' }));
  const topic = await ok(owner.request('POST', `/boards/${list.id}/topics`, { name: 'Web' }));
  const schedule = await ok(owner.request('POST', '/schedules', { name: 'Filter week' }));
  const member = await world.member(['tasks.tasks.create', 'tasks.tasks.read']);
  const a = await ok(owner.request('POST', '/tasks', { title: 'Alpha report', board_id: list.id, priority: 'high', due_date: '2026-12-01', topic_id: topic.id }));
  const b = await ok(member.request('POST', '/tasks', { title: 'Beta', description: 'mentions the alpha', board_id: list.id, lane: 'Done', schedule_id: schedule.id, due_date: '2026-12-10' }));
  const c = await ok(owner.request('POST', '/tasks', { title: 'Gamma', board_id: list.id, assignee_ids: [member.id], blocked_by: a.id }));
  await ok(owner.request('POST', `/tasks/${c.id}/completion`));
  const query = async (q: string) => ids((await owner.request('GET', `/tasks?board_id=${list.id}&${q}`)).body.data);
  t.deepEqual(await query(''), [a.id, b.id, c.id]);
  t.deepEqual(await query('lane=Done'), [b.id]);
  t.deepEqual(await query(`assignee_id=${member.id}`), [c.id]);
  t.deepEqual(await query(`topic_id=${topic.id}`), [a.id]);
  t.deepEqual(await query(`schedule_id=${schedule.id}`), [b.id]);
  t.deepEqual(await query('priority=high'), [a.id]);
  t.deepEqual(await query('status=completed'), [c.id]);
  t.deepEqual(await query('status=open'), [a.id, b.id]);
  t.deepEqual(await query(`creator_id=${member.id}`), [b.id]);
  t.deepEqual(await query(`blocked_by=${a.id}`), [c.id]);
  t.deepEqual(await query('q=ALPHA'), [a.id, b.id]);
  t.deepEqual(await query('due_before=2026-12-05'), [a.id]);
  t.deepEqual(await query('due_after=2026-12-01'), [a.id, b.id]);
  const shapeless = await owner.request('GET', '/tasks?board_id=x');
  t.deepEqual([shapeless.status, ids(shapeless.body.data)], [200, []], 'an id of any shape filters: one naming nothing matches nothing');
  const page = await owner.request('GET', `/tasks?board_id=${list.id}&per_page=2&page=2`);
  t.deepEqual(ids(page.body.data), [c.id]);
  t.deepEqual(page.body.pagination, { page: 2, per_page: 2, total: 3, pages: 2 });
  t.is(page.body.links.first, `/tasks?board_id=${list.id}&page=1&per_page=2`);
  for (const [q, error, field] of [
    ['status=done', 'query parameter status must be one of [open, completed]', 'status'],
    ['due_before=2026-13-01', 'query parameter due_before must be a real date in YYYY-MM-DD form', 'due_before'],
    [`q=${'x'.repeat(201)}`, 'query parameter q length must be less than or equal to 200 characters long', 'q'],
  ]) {
    const refused = await owner.request('GET', `/tasks?${q}`);
    t.is(refused.status, 400);
    t.deepEqual(refused.body, { error, field });
  }
});

test.serial('PATCH /tasks/{id} emits task.updated naming only the fields that changed; nothing when none did', async (t) => {
  const task = await ok(owner.request('POST', '/tasks', { title: 'Patchable', board_id: board.id }));
  world.takeEvents();
  const reply = await owner.request('PATCH', `/tasks/${task.id}`, { title: 'Patched', lane: 'Done', priority: 'none', start_date: '2026-11-23' });
  t.is(reply.status, 200);
  t.like(reply.body.data, { title: 'Patched', lane: 'Done', priority: 'none', start_date: '2026-11-23' });
  t.deepEqual(world.takeEvents(), [{ action: 'core.tasks.task.updated', payload: { task_id: task.id, changed_fields: ['title', 'lane', 'start_date'] } }]);
  t.is((await owner.request('PATCH', `/tasks/${task.id}`, { title: 'Patched' })).status, 200);
  t.deepEqual(world.takeEvents(), []);
  const cleared = await ok(owner.request('PATCH', `/tasks/${task.id}`, { start_date: null, priority: 'high' }));
  t.like(cleared, { start_date: null, priority: 'high' });
  t.deepEqual(world.takeEvents()[0].payload.changed_fields, ['priority', 'start_date']);
  const laneless = await owner.request('PATCH', `/tasks/${task.id}`, { lane: null });
  t.is(laneless.status, 400);
  t.deepEqual(laneless.body, { error: 'lane cannot be null: a task on board Product is always in one of its lanes' });
  t.like(await ok(owner.request('POST', '/tasks', { title: 'Null lane', board_id: board.id, lane: null })), { lane: 'To do' });
  t.like(await ok(owner.request('PATCH', `/tasks/${(await ok(owner.request('POST', '/tasks', { title: 'Idea lane' }))).id}`, { lane: null, title: 'Idea lane 2' })), { lane: null, title: 'Idea lane 2' });
  world.takeEvents();
});

test.serial('PATCH dates are YYYY-MM-DD calendar days and the due date is never before the start, against stored values too', async (t) => {
  const task = await ok(owner.request('POST', '/tasks', { title: 'Dated', start_date: '2026-11-10', due_date: '2026-11-20' }));
  world.takeEvents();
  for (const [payload, error, field] of [
    [{ due_date: '2026-11-09' }, 'due_date 2026-11-09 is before start_date 2026-11-10'],
    [{ start_date: '2026-11-21' }, 'due_date 2026-11-20 is before start_date 2026-11-21'],
    [{ start_date: '2026-11-05', due_date: '2026-11-04' }, 'due_date 2026-11-04 is before start_date 2026-11-05'],
    [{ due_date: '2026-11-31' }, 'due_date must be a real date in YYYY-MM-DD form', 'due_date'],
    [{ start_date: '2026-11-10T00:00:00Z' }, 'start_date must be a real date in YYYY-MM-DD form', 'start_date'],
  ] as Array<[Record<string, unknown>, string, string?]>) {
    const refused = await owner.request('PATCH', `/tasks/${task.id}`, payload);
    t.is(refused.status, 400);
    t.deepEqual(refused.body, field === undefined ? { error } : { error, field });
  }
  t.deepEqual(world.takeEvents(), []);
  const moved = await ok(owner.request('PATCH', `/tasks/${task.id}`, { start_date: '2026-11-25', due_date: '2026-11-25' }));
  t.like(moved, { start_date: '2026-11-25', due_date: '2026-11-25' });
  const open = await ok(owner.request('PATCH', `/tasks/${task.id}`, { start_date: null, due_date: '2026-01-01' }));
  t.like(open, { start_date: null, due_date: '2026-01-01' });
});

test.serial('blocked_by names another task of the workspace and never closes a dependency cycle', async (t) => {
  const a = await ok(owner.request('POST', '/tasks', { title: 'A' }));
  const b = await ok(owner.request('POST', '/tasks', { title: 'B' }));
  const c = await ok(owner.request('POST', '/tasks', { title: 'C' }));
  const foreign = await ok((await world.otherWorkspace('tasks-deps')).owner.request('POST', '/tasks', { title: 'Theirs' }));
  t.is((await ok(owner.request('PATCH', `/tasks/${b.id}`, { blocked_by: a.id }))).blocked_by, a.id);
  t.is((await ok(owner.request('PATCH', `/tasks/${c.id}`, { blocked_by: b.id }))).blocked_by, b.id);
  world.takeEvents();
  for (const [id, blocker, error] of [
    [a.id, c.id, `blocked_by ${c.id} would create a dependency cycle`],
    [a.id, b.id, `blocked_by ${b.id} would create a dependency cycle`],
    [a.id, a.id, 'blocked_by cannot be the task itself'],
    [a.id, foreign.id, `blocked_by ${foreign.id} is not a task of this workspace`],
    [a.id, 'x', 'blocked_by x is not a task of this workspace'],
  ]) {
    const refused = await owner.request('PATCH', `/tasks/${id}`, { blocked_by: blocker });
    t.is(refused.status, 400);
    t.deepEqual(refused.body, { error });
  }
  t.deepEqual(world.takeEvents(), []);
  t.is((await ok(owner.request('PATCH', `/tasks/${c.id}`, { blocked_by: a.id }))).blocked_by, a.id, 'a diamond is no cycle');
  t.is((await ok(owner.request('PATCH', `/tasks/${c.id}`, { blocked_by: null }))).blocked_by, null);
});

test.serial('PATCH checks lane and topic against the task board, and refuses them in the incubator', async (t) => {
  const onBoard = await ok(owner.request('POST', '/tasks', { title: 'On board', board_id: board.id }));
  const idea = await ok(owner.request('POST', '/tasks', { title: 'Idea' }));
  const topic = await ok(owner.request('POST', `/boards/${board.id}/topics`, { name: 'Patch topic' }));
  t.is((await ok(owner.request('PATCH', `/tasks/${onBoard.id}`, { topic_id: topic.id }))).topic_id, topic.id);
  t.deepEqual((await owner.request('PATCH', `/tasks/${onBoard.id}`, { lane: 'Nope' })).body, { error: 'lane Nope is not a lane of board Product' });
  t.deepEqual((await owner.request('PATCH', `/tasks/${idea.id}`, { lane: 'To do' })).body, { error: 'lane needs a board: a task in the incubator has no lane' });
  t.deepEqual((await owner.request('PATCH', `/tasks/${idea.id}`, { topic_id: topic.id })).body, { error: 'topic_id needs a board: a task in the incubator has no topic' });
  t.deepEqual((await owner.request('PATCH', `/tasks/${UNKNOWN}`, { title: 'x' })).body, { error: `Task ${UNKNOWN} not found` });
  const ignored = await ok(owner.request('PATCH', `/tasks/${idea.id}`, { board_id: board.id, title: 'Still an idea' }));
  t.like(ignored, { board_id: null, title: 'Still an idea' });
});

test.serial('ownership delete: the creator may, a holder of tasks.tasks.delete may, anyone else gets "Cannot delete this task"', async (t) => {
  const creator = await world.member(['tasks.tasks.create', 'tasks.tasks.read']);
  const deleter = await world.member(['tasks.tasks.read', 'tasks.tasks.delete']);
  const bystander = await world.member(['tasks.tasks.read', 'tasks.tasks.edit']);
  const mine = await ok(creator.request('POST', '/tasks', { title: 'Mine' }));
  const theirs = await ok(creator.request('POST', '/tasks', { title: 'Theirs' }));
  const third = await ok(creator.request('POST', '/tasks', { title: 'Third' }));
  world.takeEvents();

  const refused = await bystander.request('DELETE', `/tasks/${mine.id}`);
  t.is(refused.status, 403);
  t.deepEqual(refused.body, { error: 'Cannot delete this task' });
  t.deepEqual(world.takeEvents(), []);
  t.is((await owner.request('GET', `/tasks/${mine.id}`)).status, 200);

  const byCreator = await creator.request('DELETE', `/tasks/${mine.id}`);
  t.is(byCreator.status, 200);
  t.deepEqual(byCreator.body.data, { id: mine.id, deleted: true });
  t.deepEqual(world.takeEvents(), [{ action: 'core.tasks.task.deleted', payload: { task_id: mine.id, deleted_by: creator.id } }]);

  t.is((await deleter.request('DELETE', `/tasks/${theirs.id}`)).status, 200);
  t.deepEqual(world.takeEvents(), [{ action: 'core.tasks.task.deleted', payload: { task_id: theirs.id, deleted_by: deleter.id } }]);
  t.is((await owner.request('DELETE', `/tasks/${third.id}`)).status, 200, 'the owner holds every permission');

  t.deepEqual((await bystander.request('DELETE', `/tasks/${UNKNOWN}`)).body, { error: `Task ${UNKNOWN} not found` });
  t.deepEqual((await bystander.request('DELETE', '/tasks/not-a-uuid')).body, { error: 'Task not-a-uuid not found' });
  t.is((await creator.request('DELETE', `/tasks/${mine.id}`)).status, 404);
});

test.serial('deleting a task takes its comments, assignees and deliverables, and frees the tasks it blocked', async (t) => {
  const blocker = await ok(owner.request('POST', '/tasks', { title: 'Blocker', assignee_ids: [owner.id] }));
  const blocked = await ok(owner.request('POST', '/tasks', { title: 'Blocked', blocked_by: blocker.id }));
  await ok(owner.request('POST', `/tasks/${blocker.id}/comments`, { body: 'note' }));
  await ok(owner.request('POST', `/tasks/${blocker.id}/deliverables`, { title: 'Doc' }));
  world.takeEvents();
  t.is((await owner.request('DELETE', `/tasks/${blocker.id}`)).status, 200);
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload]), [
    ['core.tasks.task.updated', { task_id: blocked.id, changed_fields: ['blocked_by'] }],
    ['core.tasks.task.deleted', { task_id: blocker.id, deleted_by: owner.id }],
  ]);
  t.is((await ok(owner.request('GET', `/tasks/${blocked.id}`))).blocked_by, null);
  const leftovers = await world.query<{ n: number }>(
    'SELECT (SELECT count(*) FROM app_tasks.task_comments WHERE task_id = :id) + (SELECT count(*) FROM app_tasks.task_assignees WHERE task_id = :id) + (SELECT count(*) FROM app_tasks.deliverables WHERE task_id = :id) AS n',
    { id: blocker.id },
  );
  t.is(Number(leftovers[0].n), 0);
});

test.serial('assigning and unassigning: once each, bounded by max_assignees, with their events', async (t) => {
  const task = await ok(owner.request('POST', '/tasks', { title: 'Team work' }));
  const member = await world.member(['tasks.tasks.read']);
  world.takeEvents();
  const assigned = await owner.request('POST', `/tasks/${task.id}/assignees`, { member_id: member.id });
  t.is(assigned.status, 200);
  t.deepEqual(assigned.body.data.assignee_ids, [member.id]);
  t.deepEqual(world.takeEvents(), [{ action: 'core.tasks.task.assigned', payload: { task_id: task.id, assignee_mrn: member.mrn, assigned_by: owner.id } }]);
  const twice = await owner.request('POST', `/tasks/${task.id}/assignees`, { member_id: member.id });
  t.is(twice.status, 409);
  t.deepEqual(twice.body, { error: `Member ${member.id} is already assigned to task ${task.id}` });
  t.deepEqual((await owner.request('POST', `/tasks/${task.id}/assignees`, {})).body, { error: 'member_id is required', field: 'member_id' });
  t.deepEqual((await owner.request('POST', `/tasks/${task.id}/assignees`, { member_id: '' })).body, { error: 'member_id is not allowed to be empty', field: 'member_id' });
  const unassigned = await owner.request('DELETE', `/tasks/${task.id}/assignees/${member.id}`);
  t.deepEqual(unassigned.body.data.assignee_ids, []);
  t.deepEqual(world.takeEvents(), [{ action: 'core.tasks.task.unassigned', payload: { task_id: task.id, assignee_mrn: member.mrn } }]);
  const notThere = await owner.request('DELETE', `/tasks/${task.id}/assignees/${member.id}`);
  t.is(notThere.status, 404);
  t.deepEqual(notThere.body, { error: `Member ${member.id} is not assigned to task ${task.id}` });

  const crowd: Caller[] = [];
  for (let index = 0; index < 10; index += 1) crowd.push(await world.member([]));
  const full = await ok(owner.request('POST', '/tasks', { title: 'Crowded', assignee_ids: crowd.map((crowded) => crowded.id) }));
  const eleventh = await owner.request('POST', `/tasks/${full.id}/assignees`, { member_id: member.id });
  t.is(eleventh.status, 409);
  t.deepEqual(eleventh.body, { error: `Task ${full.id} already has 10 assignees, the most allowed (settings: max_assignees)` });
  const noAssign = await world.member(['tasks.tasks.read', 'tasks.tasks.edit']);
  t.deepEqual((await noAssign.request('POST', `/tasks/${task.id}/assignees`, { member_id: member.id })).body, { error: 'Missing permission: tasks.tasks.assign' });
});

test.serial('completing and reopening: each once, 409 the second time', async (t) => {
  const task = await ok(owner.request('POST', '/tasks', { title: 'Finish me' }));
  world.takeEvents();
  const done = await owner.request('POST', `/tasks/${task.id}/completion`);
  t.is(done.status, 200);
  t.like(done.body.data, { completed: true, completed_by: owner.id });
  t.truthy(done.body.data.completed_at);
  t.deepEqual(world.takeEvents(), [{ action: 'core.tasks.task.completed', payload: { task_id: task.id, completed_by: owner.id, title: 'Finish me' } }]);
  t.deepEqual((await owner.request('POST', `/tasks/${task.id}/completion`)).body, { error: "Cannot complete a task in state completed: complete moves from open to completed" });
  const reopened = await owner.request('DELETE', `/tasks/${task.id}/completion`);
  t.like(reopened.body.data, { completed: false, completed_at: null, completed_by: null });
  t.deepEqual(world.takeEvents(), [{ action: 'core.tasks.task.updated', payload: { task_id: task.id, changed_fields: ['completed'] } }]);
  const again = await owner.request('DELETE', `/tasks/${task.id}/completion`);
  t.is(again.status, 409);
  t.deepEqual(again.body, { error: "Cannot reopen a task in state open: reopen moves from completed to open" });
  const onBoard = await ok(owner.request('POST', '/tasks', { title: 'Finish me on a board', board_id: board.id }));
  world.takeEvents();
  await ok(owner.request('POST', `/tasks/${onBoard.id}/completion`));
  t.deepEqual(world.takeEvents(), [{ action: 'core.tasks.task.completed', payload: { task_id: onBoard.id, board_id: board.id, completed_by: owner.id, title: 'Finish me on a board' } }], 'a task on a board names its board (a key result can filter by it)');
});

test.serial('a task made for another app\'s record: source_mrn in the answer, on task.created and task.completed; a malformed one is refused', async (t) => {
  const deal = 'mrn:crm:deal:0a1b2c3d-0000-4000-8000-000000000042';
  world.takeEvents();
  const task = await ok(owner.request('POST', '/tasks', { title: 'Call the buyer', source_mrn: ` ${deal} ` }));
  t.is(task.source_mrn, deal);
  t.is((await ok(owner.request('GET', `/tasks/${task.id}`))).source_mrn, deal);
  await ok(owner.request('POST', `/tasks/${task.id}/completion`));
  t.deepEqual(world.takeEvents(), [
    { action: 'core.tasks.task.created', payload: { task_id: task.id, title: 'Call the buyer', creator_mrn: owner.mrn, source_mrn: deal } },
    { action: 'core.tasks.task.completed', payload: { task_id: task.id, completed_by: owner.id, title: 'Call the buyer', source_mrn: deal } },
  ]);
  const bad = await owner.request('POST', '/tasks', { title: 'Nowhere', source_mrn: 'crm:deal:42' });
  t.is(bad.status, 400);
  t.deepEqual(bad.body, { error: 'source_mrn must be an MRN (mrn:<app>:<resource>:<id>)', field: 'source_mrn' });
  t.deepEqual(world.takeEvents(), []);
});

test.serial('PUT /tasks/{id}/board moves a task between boards (topic cleared) and emits task.moved', async (t) => {
  const from = await ok(owner.request('POST', '/boards', { title: 'From' }));
  const to = await ok(owner.request('POST', '/boards', { title: 'To', lanes: ['Intake', 'Work'] }));
  const topic = await ok(owner.request('POST', `/boards/${from.id}/topics`, { name: 'Move topic' }));
  const task = await ok(owner.request('POST', '/tasks', { title: 'Mover', board_id: from.id, topic_id: topic.id }));
  world.takeEvents();
  const moved = await owner.request('PUT', `/tasks/${task.id}/board`, { board_id: to.id, lane: 'Work' });
  t.is(moved.status, 200);
  t.like(moved.body.data, { board_id: to.id, lane: 'Work', topic_id: null });
  t.deepEqual(world.takeEvents(), [{ action: 'core.tasks.task.moved', payload: { task_id: task.id, from_board: from.id, to_board: to.id } }]);
  t.like(await ok(owner.request('PUT', `/tasks/${task.id}/board`, { board_id: from.id })), { board_id: from.id, lane: 'To do' });
  world.takeEvents();
  const idea = await ok(owner.request('POST', '/tasks', { title: 'Loose' }));
  for (const [id, payload, status, error, field] of [
    [task.id, { board_id: from.id }, 409, `Task ${task.id} is already on board ${from.id}`],
    [idea.id, { board_id: to.id }, 409, `Task ${idea.id} is in the incubator; pull it onto a board with POST /boards/{board_id}/tasks`],
    [task.id, { board_id: to.id, lane: 'Nope' }, 400, 'lane Nope is not a lane of board To'],
    [task.id, { board_id: UNKNOWN }, 404, `Board ${UNKNOWN} not found`],
    [task.id, {}, 400, 'board_id is required', 'board_id'],
  ] as Array<[string, Record<string, unknown>, number, string, string?]>) {
    const refused = await owner.request('PUT', `/tasks/${id}/board`, payload);
    t.is(refused.status, status);
    t.deepEqual(refused.body, field === undefined ? { error } : { error, field });
  }
  t.deepEqual(world.takeEvents().filter((event) => event.action !== 'core.tasks.task.created'), []);
});

test.serial('comments: body 1-5000 (trimmed), listed oldest first, task.commented once each', async (t) => {
  const task = await ok(owner.request('POST', '/tasks', { title: 'Discuss' }));
  const commenter = await world.member(['tasks.tasks.read', 'tasks.tasks.comment']);
  world.takeEvents();
  const first = await commenter.request('POST', `/tasks/${task.id}/comments`, { body: '  First!  ' });
  t.is(first.status, 200);
  t.like(first.body.data, { task_id: task.id, author_id: commenter.id, author_mrn: commenter.mrn, body: 'First!' });
  await ok(owner.request('POST', `/tasks/${task.id}/comments`, { body: 'Second' }));
  const events = world.takeEvents();
  t.deepEqual(events[0], { action: 'core.tasks.task.commented', payload: { task_id: task.id, comment_id: first.body.data.id, commenter_mrn: commenter.mrn } });
  t.is(events.length, 2);
  const list = await owner.request('GET', `/tasks/${task.id}/comments`);
  t.deepEqual(list.body.data.map((comment: { body: string }) => comment.body), ['First!', 'Second']);
  t.is(list.body.pagination.total, 2);
  for (const [payload, error, field] of [
    [{}, 'body is required', 'body'],
    [{ body: '   ' }, 'body is not allowed to be empty', 'body'],
    [{ body: 'x'.repeat(5001) }, 'body length must be less than or equal to 5000 characters long', 'body'],
  ] as Array<[Record<string, unknown>, string, string]>) {
    t.deepEqual((await owner.request('POST', `/tasks/${task.id}/comments`, payload)).body, { error, field });
  }
  t.deepEqual((await owner.request('POST', `/tasks/${UNKNOWN}/comments`, { body: 'x' })).body, { error: `Task ${UNKNOWN} not found` });
  const reader = await world.member(['tasks.tasks.read']);
  t.deepEqual((await reader.request('POST', `/tasks/${task.id}/comments`, { body: 'x' })).body, { error: 'Missing permission: tasks.tasks.comment' });
  t.deepEqual(world.takeEvents(), []);
});

test.serial('deliverables: added, listed, delivered once with deliverable.delivered', async (t) => {
  const task = await ok(owner.request('POST', '/tasks', { title: 'Produce' }));
  world.takeEvents();
  const added = await ok(owner.request('POST', `/tasks/${task.id}/deliverables`, { title: 'Launch post', url: 'https://example.com/post' }));
  t.like(added, { task_id: task.id, title: 'Launch post', url: 'https://example.com/post', delivered: false, delivered_at: null });
  t.deepEqual(world.takeEvents(), []);
  const delivered = await owner.request('POST', `/tasks/${task.id}/deliverables/${added.id}/delivery`);
  t.like(delivered.body.data, { delivered: true, delivered_by: owner.id });
  t.deepEqual(world.takeEvents(), [{ action: 'core.tasks.deliverable.delivered', payload: { deliverable_id: added.id } }]);
  t.deepEqual((await owner.request('POST', `/tasks/${task.id}/deliverables/${added.id}/delivery`)).body, { error: `Deliverable ${added.id} is already delivered` });
  const other = await ok(owner.request('POST', '/tasks', { title: 'Other' }));
  t.deepEqual((await owner.request('POST', `/tasks/${other.id}/deliverables/${added.id}/delivery`)).body, { error: `Deliverable ${added.id} not found on task ${other.id}` });
  const list = await owner.request('GET', `/tasks/${task.id}/deliverables`);
  t.deepEqual(list.body.data.map((row: { id: string }) => row.id), [added.id]);
  for (const [payload, error, field] of [
    [{}, 'title is required', 'title'],
    [{ title: 'x'.repeat(201) }, 'title length must be less than or equal to 200 characters long', 'title'],
    [{ title: 'ok', url: 'ftp://example.com/x' }, 'url must be a valid uri with a scheme matching the http|https pattern', 'url'],
    [{ title: 'ok', url: `https://example.com/${'x'.repeat(2000)}` }, 'url length must be less than or equal to 2000 characters long', 'url'],
  ] as Array<[Record<string, unknown>, string, string]>) {
    t.deepEqual((await owner.request('POST', `/tasks/${task.id}/deliverables`, payload)).body, { error, field });
  }
});

test.serial('two concurrent assignments of one member: one wins, the other is 409, one event', async (t) => {
  const task = await ok(owner.request('POST', '/tasks', { title: 'Race' }));
  const member = await world.member(['tasks.tasks.read']);
  world.takeEvents();
  const replies = await Promise.all([1, 2, 3].map(() => owner.request('POST', `/tasks/${task.id}/assignees`, { member_id: member.id })));
  t.deepEqual(replies.map((reply) => reply.status).sort(), [200, 409, 409]);
  for (const reply of replies.filter((answer) => answer.status === 409)) t.deepEqual(reply.body, { error: `Member ${member.id} is already assigned to task ${task.id}` });
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.tasks.task.assigned']);
  t.deepEqual((await ok(owner.request('GET', `/tasks/${task.id}`))).assignee_ids, [member.id]);
});
