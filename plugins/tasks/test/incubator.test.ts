import test from 'ava';
import { ok, tasksWorld } from './helpers/world.js';

const world = await tasksWorld('incubator');
const owner = world.owner;
test.after.always(() => world.close());

const ids = (rows: Array<{ id: string }>) => rows.map((row) => row.id);

test.serial('a task created without a board is in the incubator; one with a board lands in its first lane', async (t) => {
  const board = await ok(owner.request('POST', '/boards', { title: 'Home' }));
  const idea = await ok(owner.request('POST', '/tasks', { title: 'Idea' }));
  t.like(idea, { board_id: null, in_incubator: true, lane: null });
  const planned = await ok(owner.request('POST', '/tasks', { title: 'Planned', board_id: board.id }));
  t.like(planned, { board_id: board.id, in_incubator: false, lane: 'To do' });
  const incubator = await owner.request('GET', '/tasks?incubator=true');
  t.true(ids(incubator.body.data).includes(idea.id));
  t.false(ids(incubator.body.data).includes(planned.id));
  const onBoards = await owner.request('GET', '/tasks?incubator=false');
  t.true(ids(onBoards.body.data).includes(planned.id));
  t.false(ids(onBoards.body.data).includes(idea.id));
});

test.serial('state table: POST /boards/{board_id}/tasks with task_ids moves incubator tasks onto the board, one task.pulled each', async (t) => {
  const board = await ok(owner.request('POST', '/boards', { title: 'Pull here', lanes: ['Inbox', 'Doing'] }));
  const first = await ok(owner.request('POST', '/tasks', { title: 'First' }));
  const second = await ok(owner.request('POST', '/tasks', { title: 'Second' }));
  world.takeEvents();
  const reply = await owner.request('POST', `/boards/${board.id}/tasks`, { task_ids: [second.id, first.id, second.id] });
  t.is(reply.status, 200);
  t.deepEqual(ids(reply.body.data), [second.id, first.id]);
  for (const task of reply.body.data) t.like(task, { board_id: board.id, in_incubator: false, lane: 'Inbox' });
  t.deepEqual(world.takeEvents(), [second.id, first.id].map((id) => ({ action: 'core.tasks.task.pulled', payload: { task_id: id, pulled_by: owner.id } })));
});

test.serial('pulling is all-or-nothing: an unknown task is 404, a task already on a board 409, and nothing moves', async (t) => {
  const board = await ok(owner.request('POST', '/boards', { title: 'Strict' }));
  const elsewhere = await ok(owner.request('POST', '/boards', { title: 'Elsewhere' }));
  const free = await ok(owner.request('POST', '/tasks', { title: 'Free' }));
  const placed = await ok(owner.request('POST', '/tasks', { title: 'Placed', board_id: elsewhere.id }));
  world.takeEvents();
  const unknown = '00000000-0000-4000-8000-0000000000aa';
  const missing = await owner.request('POST', `/boards/${board.id}/tasks`, { task_ids: [free.id, unknown] });
  t.is(missing.status, 404);
  t.deepEqual(missing.body, { error: `Task ${unknown} not found` });
  const taken = await owner.request('POST', `/boards/${board.id}/tasks`, { task_ids: [free.id, placed.id] });
  t.is(taken.status, 409);
  t.deepEqual(taken.body, { error: `Task ${placed.id} is not in the incubator (it is on board ${elsewhere.id})` });
  t.true((await owner.request('GET', `/tasks/${free.id}`)).body.data.in_incubator);
  t.deepEqual(world.takeEvents(), []);
  const other = await world.otherWorkspace('incubator-other');
  const foreign = await ok(other.owner.request('POST', '/tasks', { title: 'Theirs' }));
  const cross = await owner.request('POST', `/boards/${board.id}/tasks`, { task_ids: [foreign.id] });
  t.is(cross.status, 404);
  t.deepEqual(cross.body, { error: `Task ${foreign.id} not found` });
});

test.serial('the pull payload takes exactly one of task_ids or schedule_id', async (t) => {
  const board = await ok(owner.request('POST', '/boards', { title: 'Payloads' }));
  const schedule = await ok(owner.request('POST', '/schedules', { name: 'S' }));
  const task = await ok(owner.request('POST', '/tasks', { title: 'T' }));
  for (const [payload, error, field] of [
    [{}, 'body must contain exactly one of task_ids or schedule_id'],
    [{ task_ids: [task.id], schedule_id: schedule.id }, 'body must contain exactly one of task_ids or schedule_id'],
    [{ task_ids: [] }, 'task_ids must contain at least 1 items', 'task_ids'],
    [{ task_ids: Array.from({ length: 501 }, () => task.id) }, 'task_ids must contain less than or equal to 500 items', 'task_ids'],
  ] as Array<[Record<string, unknown>, string, string?]>) {
    const reply = await owner.request('POST', `/boards/${board.id}/tasks`, payload);
    t.is(reply.status, 400, JSON.stringify(payload).slice(0, 80));
    t.deepEqual(reply.body, field === undefined ? { error } : { error, field });
  }
  // Ids are strings: one of any shape that names nothing is a 404, as an unknown uuid is.
  for (const [payload, error] of [
    [{ task_ids: [task.id, 'nope'] }, 'Task nope not found'],
    [{ schedule_id: 'nope' }, 'Schedule nope not found'],
  ] as Array<[Record<string, unknown>, string]>) {
    const reply = await owner.request('POST', `/boards/${board.id}/tasks`, payload);
    t.deepEqual([reply.status, reply.body], [404, { error }], JSON.stringify(payload));
  }
  const unknownBoard = await owner.request('POST', '/boards/00000000-0000-4000-8000-0000000000bb/tasks', { task_ids: [task.id] });
  t.is(unknownBoard.status, 404);
  t.deepEqual(unknownBoard.body, { error: 'Board 00000000-0000-4000-8000-0000000000bb not found' });
});

test.serial('with schedule_id every incubator task of that schedule is pulled, and only those', async (t) => {
  const board = await ok(owner.request('POST', '/boards', { title: 'Week board' }));
  const other = await ok(owner.request('POST', '/boards', { title: 'Other board' }));
  const week = await ok(owner.request('POST', '/schedules', { name: 'Week 48' }));
  const later = await ok(owner.request('POST', '/schedules', { name: 'Later' }));
  const a = await ok(owner.request('POST', '/tasks', { title: 'A', schedule_id: week.id }));
  const b = await ok(owner.request('POST', '/tasks', { title: 'B', schedule_id: week.id }));
  const onOther = await ok(owner.request('POST', '/tasks', { title: 'C', schedule_id: week.id, board_id: other.id }));
  const unplanned = await ok(owner.request('POST', '/tasks', { title: 'D' }));
  const elsewhen = await ok(owner.request('POST', '/tasks', { title: 'E', schedule_id: later.id }));
  world.takeEvents();
  const reply = await owner.request('POST', `/boards/${board.id}/tasks`, { schedule_id: week.id });
  t.is(reply.status, 200);
  t.deepEqual(ids(reply.body.data), [a.id, b.id]);
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload.task_id]), [['core.tasks.task.pulled', a.id], ['core.tasks.task.pulled', b.id]]);
  t.is((await owner.request('GET', `/tasks/${onOther.id}`)).body.data.board_id, other.id);
  t.true((await owner.request('GET', `/tasks/${unplanned.id}`)).body.data.in_incubator);
  t.true((await owner.request('GET', `/tasks/${elsewhen.id}`)).body.data.in_incubator);
  const again = await owner.request('POST', `/boards/${board.id}/tasks`, { schedule_id: week.id });
  t.deepEqual(again.body.data, []);
  t.deepEqual(world.takeEvents(), []);
  const missing = await owner.request('POST', `/boards/${board.id}/tasks`, { schedule_id: '00000000-0000-4000-8000-0000000000cc' });
  t.is(missing.status, 404);
  t.deepEqual(missing.body, { error: 'Schedule 00000000-0000-4000-8000-0000000000cc not found' });
});

test.serial('an archived board takes no pulled task', async (t) => {
  const board = await ok(owner.request('POST', '/boards', { title: 'Shelved' }));
  const task = await ok(owner.request('POST', '/tasks', { title: 'Waiting' }));
  await ok(owner.request('PUT', `/boards/${board.id}`, { deleted: true }));
  const reply = await owner.request('POST', `/boards/${board.id}/tasks`, { task_ids: [task.id] });
  t.is(reply.status, 409);
  t.deepEqual(reply.body, { error: 'Board Shelved is archived; restore it first' });
});

test.serial('state table: DELETE /boards/{board_id}/tasks/{task_id} returns a task to the incubator (lane and topic cleared, schedule kept)', async (t) => {
  const board = await ok(owner.request('POST', '/boards', { title: 'Return from' }));
  const topic = await ok(owner.request('POST', `/boards/${board.id}/topics`, { name: 'Ops' }));
  const schedule = await ok(owner.request('POST', '/schedules', { name: 'Sprint' }));
  const task = await ok(owner.request('POST', '/tasks', { title: 'Back', board_id: board.id, lane: 'Done', topic_id: topic.id, schedule_id: schedule.id }));
  world.takeEvents();
  const reply = await owner.request('DELETE', `/boards/${board.id}/tasks/${task.id}`);
  t.is(reply.status, 200);
  t.like(reply.body.data, { id: task.id, board_id: null, in_incubator: true, lane: null, topic_id: null, schedule_id: schedule.id });
  t.deepEqual(world.takeEvents(), [{ action: 'core.tasks.task.returned', payload: { task_id: task.id, returned_by: owner.id } }]);
  const again = await owner.request('DELETE', `/boards/${board.id}/tasks/${task.id}`);
  t.is(again.status, 409);
  t.deepEqual(again.body, { error: `Task ${task.id} is not on board Return from` });
  const unknown = await owner.request('DELETE', `/boards/${board.id}/tasks/00000000-0000-4000-8000-0000000000dd`);
  t.is(unknown.status, 404);
  t.deepEqual(unknown.body, { error: 'Task 00000000-0000-4000-8000-0000000000dd not found' });
  t.deepEqual(world.takeEvents(), []);
});

test.serial('DELETE /boards/{board_id}/tasks?scheduled=false deletes the unplanned tasks only; scheduled=true the planned ones', async (t) => {
  const board = await ok(owner.request('POST', '/boards', { title: 'Cleanup' }));
  const schedule = await ok(owner.request('POST', '/schedules', { name: 'Planned' }));
  const loose1 = await ok(owner.request('POST', '/tasks', { title: 'Loose 1', board_id: board.id }));
  const loose2 = await ok(owner.request('POST', '/tasks', { title: 'Loose 2', board_id: board.id }));
  const planned = await ok(owner.request('POST', '/tasks', { title: 'Planned', board_id: board.id, schedule_id: schedule.id }));
  const incubated = await ok(owner.request('POST', '/tasks', { title: 'Incubated' }));
  const survivor = await ok(owner.request('PATCH', `/tasks/${planned.id}`, { blocked_by: loose1.id }));
  t.is(survivor.blocked_by, loose1.id);
  world.takeEvents();
  const reply = await owner.request('DELETE', `/boards/${board.id}/tasks?scheduled=false`);
  t.is(reply.status, 200);
  t.deepEqual(reply.body.data, { board_id: board.id, scheduled: false, deleted_task_ids: [loose1.id, loose2.id] });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.tasks.task.updated', payload: { task_id: planned.id, changed_fields: ['blocked_by'] } },
    { action: 'core.tasks.task.bulk_deleted', payload: { task_ids: [loose1.id, loose2.id], deleted_by: owner.id } },
    { action: 'core.tasks.board.cleared', payload: { board_id: board.id } },
  ]);
  t.deepEqual(ids((await owner.request('GET', `/tasks?board_id=${board.id}`)).body.data), [planned.id]);
  t.is((await owner.request('GET', `/tasks/${planned.id}`)).body.data.blocked_by, null);
  t.is((await owner.request('GET', `/tasks/${incubated.id}`)).status, 200);

  const empty = await owner.request('DELETE', `/boards/${board.id}/tasks?scheduled=false`);
  t.deepEqual(empty.body.data.deleted_task_ids, []);
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.tasks.board.cleared']);

  const plannedGone = await owner.request('DELETE', `/boards/${board.id}/tasks?scheduled=true`);
  t.deepEqual(plannedGone.body.data.deleted_task_ids, [planned.id]);
  world.takeEvents();
  for (const query of ['', '?scheduled=maybe']) {
    const refused = await owner.request('DELETE', `/boards/${board.id}/tasks${query}`);
    t.is(refused.status, 400);
    t.deepEqual(refused.body, { error: query ? 'query parameter scheduled must be a boolean' : 'query parameter scheduled is required', field: 'scheduled' });
  }
});

test.serial('clearing needs tasks.boards.manage and tasks.tasks.delete; pulling and returning need tasks.boards.manage', async (t) => {
  const board = await ok(owner.request('POST', '/boards', { title: 'Permissions' }));
  const task = await ok(owner.request('POST', '/tasks', { title: 'P' }));
  const manager = await world.member(['tasks.boards.manage']);
  const deleter = await world.member(['tasks.tasks.delete']);
  const refused = await manager.request('DELETE', `/boards/${board.id}/tasks?scheduled=false`);
  t.is(refused.status, 403);
  t.deepEqual(refused.body, { error: 'Missing permission: tasks.tasks.delete' });
  t.deepEqual((await deleter.request('DELETE', `/boards/${board.id}/tasks?scheduled=false`)).body, { error: 'Missing permission: tasks.boards.manage' });
  t.deepEqual((await deleter.request('POST', `/boards/${board.id}/tasks`, { task_ids: [task.id] })).body, { error: 'Missing permission: tasks.boards.manage' });
  t.is((await manager.request('POST', `/boards/${board.id}/tasks`, { task_ids: [task.id] })).status, 200);
  t.is((await manager.request('DELETE', `/boards/${board.id}/tasks/${task.id}`)).status, 200);
});
