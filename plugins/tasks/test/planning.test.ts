import test from 'ava';
import { ok, tasksWorld } from './helpers/world.js';

const UNKNOWN = '00000000-0000-4000-8000-00000000eeee';

const world = await tasksWorld('planning');
const owner = world.owner;
const board = await ok(owner.request('POST', '/boards', { title: 'Planning' }));
test.after.always(() => world.close());

test.serial('topics: created, listed by name with q, renamed with previous_name, unique per board ignoring case', async (t) => {
  world.takeEvents();
  const design = await owner.request('POST', `/boards/${board.id}/topics`, { name: 'Design', color: '#ff8800' });
  t.is(design.status, 200);
  t.like(design.body.data, { board_id: board.id, name: 'Design', color: '#ff8800', creator_id: owner.id });
  await ok(owner.request('POST', `/boards/${board.id}/topics`, { name: 'Backend' }));
  await ok(owner.request('POST', `/boards/${board.id}/topics`, { name: 'Designers corner' }));
  t.deepEqual(world.takeEvents()[0], { action: 'core.tasks.topic.created', payload: { topic_id: design.body.data.id, board_id: board.id, name: 'Design', created_by: owner.id } });
  const all = await owner.request('GET', `/boards/${board.id}/topics`);
  t.deepEqual(all.body.data.map((topic: { name: string }) => topic.name), ['Backend', 'Design', 'Designers corner']);
  const some = await owner.request('GET', `/boards/${board.id}/topics?q=DESIGN`);
  t.deepEqual(some.body.data.map((topic: { name: string }) => topic.name), ['Design', 'Designers corner']);
  t.deepEqual(some.body.pagination, { page: 1, per_page: 25, total: 2, pages: 1 });

  const clash = await owner.request('POST', `/boards/${board.id}/topics`, { name: 'design' });
  t.is(clash.status, 409);
  t.deepEqual(clash.body, { error: `Board ${board.id} already has a topic named Design` });
  for (const [payload, error, field] of [
    [{}, 'name is required', 'name'],
    [{ name: 'x'.repeat(81) }, 'name length must be less than or equal to 80 characters long', 'name'],
    [{ name: 'ok', color: 'orange' }, 'color must be a colour in #rrggbb form', 'color'],
  ] as Array<[Record<string, unknown>, string, string]>) {
    t.deepEqual((await owner.request('POST', `/boards/${board.id}/topics`, payload)).body, { error, field });
  }
  t.deepEqual(world.takeEvents(), []);

  const renamed = await owner.request('PATCH', `/boards/${board.id}/topics/${design.body.data.id}`, { name: 'UX', color: '#ff8800' });
  t.like(renamed.body.data, { name: 'UX', color: '#ff8800' });
  t.deepEqual(world.takeEvents(), [{ action: 'core.tasks.topic.updated', payload: { topic_id: design.body.data.id, board_id: board.id, name: 'UX', previous_name: 'Design', fields: ['name'], updated_by: owner.id } }]);
  await ok(owner.request('PATCH', `/boards/${board.id}/topics/${design.body.data.id}`, { name: 'UX' }));
  t.deepEqual(world.takeEvents(), []);
  t.deepEqual((await owner.request('PATCH', `/boards/${board.id}/topics/${design.body.data.id}`, { name: 'backend' })).body, { error: `Board ${board.id} already has a topic named Backend` });
  t.deepEqual((await owner.request('PATCH', `/boards/${board.id}/topics/${UNKNOWN}`, { name: 'x' })).body, { error: `Topic ${UNKNOWN} not found on board ${board.id}` });
  t.deepEqual((await owner.request('GET', `/boards/${UNKNOWN}/topics`)).body, { error: `Board ${UNKNOWN} not found` });
});

test.serial('state table: deleting a topic removes it and keeps its tasks, with no topic', async (t) => {
  const topic = await ok(owner.request('POST', `/boards/${board.id}/topics`, { name: 'Doomed topic' }));
  const keep = await ok(owner.request('POST', `/boards/${board.id}/topics`, { name: 'Kept topic' }));
  const a = await ok(owner.request('POST', '/tasks', { title: 'A', board_id: board.id, topic_id: topic.id }));
  const b = await ok(owner.request('POST', '/tasks', { title: 'B', board_id: board.id, topic_id: topic.id }));
  const c = await ok(owner.request('POST', '/tasks', { title: 'C', board_id: board.id, topic_id: keep.id }));
  world.takeEvents();
  const reply = await owner.request('DELETE', `/boards/${board.id}/topics/${topic.id}`);
  t.is(reply.status, 200);
  t.deepEqual(reply.body.data, { id: topic.id, deleted: true, task_ids: [a.id, b.id] });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.tasks.task.updated', payload: { task_id: a.id, changed_fields: ['topic_id'] } },
    { action: 'core.tasks.task.updated', payload: { task_id: b.id, changed_fields: ['topic_id'] } },
    { action: 'core.tasks.topic.deleted', payload: { topic_id: topic.id, board_id: board.id, name: 'Doomed topic', deleted_by: owner.id } },
  ]);
  for (const task of [a, b]) t.like(await ok(owner.request('GET', `/tasks/${task.id}`)), { id: task.id, topic_id: null, board_id: board.id });
  t.is((await ok(owner.request('GET', `/tasks/${c.id}`))).topic_id, keep.id);
  const again = await owner.request('DELETE', `/boards/${board.id}/topics/${topic.id}`);
  t.is(again.status, 404);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('board members: added with a role, re-roled, removed; the board keeps an owner', async (t) => {
  const member = await world.member(['tasks.boards.read']);
  const add = await owner.request('POST', `/boards/${board.id}/members`, { member_id: member.id, role: 'editor' });
  t.is(add.status, 200);
  t.like(add.body.data, { board_id: board.id, member_id: member.id, member_mrn: member.mrn, role: 'editor', added_by: owner.id });
  t.deepEqual((await owner.request('POST', `/boards/${board.id}/members`, { member_id: member.id, role: 'viewer' })).body, { error: `Member ${member.id} is already a member of board ${board.id}` });
  for (const [payload, error, field] of [
    [{ role: 'editor' }, 'member_id is required', 'member_id'],
    [{ member_id: member.id }, 'role is required', 'role'],
    [{ member_id: member.id, role: 'boss' }, 'role must be one of [owner, editor, viewer]', 'role'],
    [{ member_id: '', role: 'editor' }, 'member_id is not allowed to be empty', 'member_id'],
  ] as Array<[Record<string, unknown>, string, string]>) {
    t.deepEqual((await owner.request('POST', `/boards/${board.id}/members`, payload)).body, { error, field });
  }
  const list = await owner.request('GET', `/boards/${board.id}/members`);
  t.deepEqual(list.body.data.map((row: { member_id: string; role: string }) => [row.member_id, row.role]), [[owner.id, 'owner'], [member.id, 'editor']]);
  t.like(await ok(owner.request('PATCH', `/boards/${board.id}/members/${member.id}`, { role: 'owner' })), { role: 'owner' });
  t.like(await ok(owner.request('PATCH', `/boards/${board.id}/members/${owner.id}`, { role: 'viewer' })), { role: 'viewer' });
  const lastOwner = await owner.request('DELETE', `/boards/${board.id}/members/${member.id}`);
  t.is(lastOwner.status, 409);
  t.deepEqual(lastOwner.body, { error: `Board ${board.id} must keep at least one owner` });
  t.deepEqual((await owner.request('PATCH', `/boards/${board.id}/members/${member.id}`, { role: 'editor' })).body, { error: `Board ${board.id} must keep at least one owner` });
  t.like(await ok(owner.request('PATCH', `/boards/${board.id}/members/${owner.id}`, { role: 'owner' })), { role: 'owner' });
  t.deepEqual(await ok(owner.request('DELETE', `/boards/${board.id}/members/${member.id}`)), { board_id: board.id, member_id: member.id, removed: true });
  t.deepEqual((await owner.request('DELETE', `/boards/${board.id}/members/${member.id}`)).body, { error: `Member ${member.id} is not a member of board ${board.id}` });
  const reader = await world.member(['tasks.members.read']);
  t.is((await reader.request('GET', `/boards/${board.id}/members`)).status, 200);
  t.deepEqual((await reader.request('POST', `/boards/${board.id}/members`, { member_id: member.id, role: 'viewer' })).body, { error: 'Missing permission: tasks.members.manage' });
});

test.serial('views: saved per member with every bound; another member neither sees nor deletes them', async (t) => {
  const schedule = await ok(owner.request('POST', '/schedules', { name: 'View week' }));
  const viewer = await world.member(['tasks.views.create', 'tasks.views.read', 'tasks.views.delete']);
  const saved = await viewer.request('POST', '/views', { board_id: board.id, name: 'My week', tab: 'timeline', schedule_id: schedule.id });
  t.is(saved.status, 200);
  t.like(saved.body.data, { board_id: board.id, owner_id: viewer.id, name: 'My week', tab: 'timeline', schedule_id: schedule.id });
  const ownView = await ok(owner.request('POST', '/views', { board_id: board.id, name: 'Owner view', tab: 'board' }));
  for (const [payload, error, field] of [
    [{ name: 'x', tab: 'y' }, 'board_id is required', 'board_id'],
    [{ board_id: board.id, tab: 'y' }, 'name is required', 'name'],
    [{ board_id: board.id, name: 'x' }, 'tab is required', 'tab'],
    [{ board_id: board.id, name: 'x'.repeat(81), tab: 'y' }, 'name length must be less than or equal to 80 characters long', 'name'],
    [{ board_id: board.id, name: 'x', tab: 'y'.repeat(41) }, 'tab length must be less than or equal to 40 characters long', 'tab'],
    [{ board_id: board.id, name: '', tab: 'y' }, 'name is not allowed to be empty', 'name'],
    [{ board_id: UNKNOWN, name: 'x', tab: 'y' }, `board_id ${UNKNOWN} is not a board of this workspace`],
    [{ board_id: board.id, name: 'x', tab: 'y', schedule_id: UNKNOWN }, `schedule_id ${UNKNOWN} is not a schedule of this workspace`],
  ] as Array<[Record<string, unknown>, string, string?]>) {
    const refused = await viewer.request('POST', '/views', payload);
    t.is(refused.status, 400);
    t.deepEqual(refused.body, field === undefined ? { error } : { error, field });
  }
  const mine = await viewer.request('GET', `/views?board_id=${board.id}`);
  t.deepEqual(mine.body.data.map((view: { id: string }) => view.id), [saved.body.data.id]);
  const notMine = await viewer.request('DELETE', `/views/${ownView.id}`);
  t.is(notMine.status, 404);
  t.deepEqual(notMine.body, { error: `View ${ownView.id} not found` });
  t.deepEqual(await ok(viewer.request('DELETE', `/views/${saved.body.data.id}`)), { id: saved.body.data.id, deleted: true });
  t.deepEqual((await viewer.request('GET', '/views')).body.data, []);
});

test.serial('schedules: created, listed by status, read, updated and completed, each with its event', async (t) => {
  world.takeEvents();
  const created = await owner.request('POST', '/schedules', { name: 'Week 49', start_date: '2026-11-30', end_date: '2026-12-06' });
  t.is(created.status, 200);
  const schedule = created.body.data;
  t.like(schedule, { name: 'Week 49', start_date: '2026-11-30', end_date: '2026-12-06', status: 'open', completed_at: null });
  t.deepEqual(world.takeEvents(), [{ action: 'core.tasks.schedule.created', payload: { schedule_id: schedule.id } }]);
  for (const [payload, error, field] of [
    [{}, 'name is required', 'name'],
    [{ name: 'x'.repeat(121) }, 'name length must be less than or equal to 120 characters long', 'name'],
    [{ name: 'x', start_date: '2026-12-06', end_date: '2026-11-30' }, 'end_date 2026-11-30 is before start_date 2026-12-06'],
    [{ name: 'x', end_date: '2026-02-29' }, 'end_date must be a real date in YYYY-MM-DD form', 'end_date'],
  ] as Array<[Record<string, unknown>, string, string?]>) {
    t.deepEqual((await owner.request('POST', '/schedules', payload)).body, field === undefined ? { error } : { error, field });
  }
  const read = await owner.request('GET', `/schedules/${schedule.id}`);
  t.deepEqual(read.body.links, { self: `/schedules/${schedule.id}`, tasks: `/tasks?schedule_id=${schedule.id}` });
  t.like(await ok(owner.request('PATCH', `/schedules/${schedule.id}`, { end_date: '2026-12-07' })), { end_date: '2026-12-07' });
  t.deepEqual((await owner.request('PATCH', `/schedules/${schedule.id}`, { start_date: '2026-12-08' })).body, { error: 'end_date 2026-12-07 is before start_date 2026-12-08' });
  await ok(owner.request('PATCH', `/schedules/${schedule.id}`, { name: 'Week 49' }));
  t.deepEqual(world.takeEvents(), [{ action: 'core.tasks.schedule.updated', payload: { schedule_id: schedule.id } }]);
  const done = await ok(owner.request('POST', `/schedules/${schedule.id}/completion`));
  t.like(done, { status: 'completed', completed_by: owner.id });
  t.deepEqual(world.takeEvents(), [{ action: 'core.tasks.schedule.completed', payload: { schedule_id: schedule.id } }]);
  t.deepEqual((await owner.request('POST', `/schedules/${schedule.id}/completion`)).body, { error: "Cannot complete a schedule in state completed: complete moves from open to completed" });
  const completed = await owner.request('GET', '/schedules?status=completed');
  t.deepEqual(completed.body.data.map((row: { id: string }) => row.id), [schedule.id]);
  const open = await owner.request('GET', '/schedules?status=open');
  t.false(open.body.data.some((row: { id: string }) => row.id === schedule.id));
  t.deepEqual((await owner.request('GET', `/schedules/${UNKNOWN}`)).body, { error: `Schedule ${UNKNOWN} not found` });
});

test.serial('task filters: the keys of the board, and each key options with counts and q', async (t) => {
  const filtersBoard = await ok(owner.request('POST', '/boards', { title: 'Filter board', lanes: ['Todo', 'Doing'] }));
  const topic = await ok(owner.request('POST', `/boards/${filtersBoard.id}/topics`, { name: 'Infra' }));
  const schedule = await ok(owner.request('POST', '/schedules', { name: 'Sprint 3' }));
  const member = await world.member(['tasks.tasks.read']);
  await ok(owner.request('POST', '/tasks', { title: 'a', board_id: filtersBoard.id, topic_id: topic.id, priority: 'high', assignee_ids: [member.id] }));
  const done = await ok(owner.request('POST', '/tasks', { title: 'b', board_id: filtersBoard.id, lane: 'Doing', schedule_id: schedule.id }));
  await ok(owner.request('POST', `/tasks/${done.id}/completion`));
  const filters = await owner.request('GET', `/boards/${filtersBoard.id}/task-filters`);
  t.deepEqual(filters.body.data.map((filter: { key: string }) => filter.key), ['lane', 'assignee_id', 'topic_id', 'schedule_id', 'priority', 'status', 'creator_id']);
  t.deepEqual(filters.body.pagination, { page: 1, per_page: 25, total: 7, pages: 1 });
  const options = async (key: string, q = '') => (await owner.request('GET', `/boards/${filtersBoard.id}/task-filters/${key}/options${q}`)).body.data;
  t.deepEqual(await options('lane'), [{ value: 'Doing', label: 'Doing', count: 1 }, { value: 'Todo', label: 'Todo', count: 1 }]);
  t.deepEqual(await options('lane', '?q=do'), [{ value: 'Doing', label: 'Doing', count: 1 }, { value: 'Todo', label: 'Todo', count: 1 }]);
  t.deepEqual(await options('lane', '?q=ing'), [{ value: 'Doing', label: 'Doing', count: 1 }]);
  t.deepEqual(await options('assignee_id'), [{ value: member.id, label: member.mrn, count: 1 }]);
  t.deepEqual(await options('topic_id'), [{ value: topic.id, label: 'Infra', count: 1 }]);
  t.deepEqual(await options('schedule_id'), [{ value: schedule.id, label: 'Sprint 3', count: 1 }]);
  t.deepEqual((await options('priority')).map((option: { value: string; count: number }) => [option.value, option.count]), [['high', 1], ['low', 0], ['medium', 0], ['none', 1], ['urgent', 0]]);
  t.deepEqual(await options('status'), [{ value: 'completed', label: 'Completed', count: 1 }, { value: 'open', label: 'Open', count: 1 }]);
  t.deepEqual(await options('creator_id'), [{ value: owner.id, label: owner.mrn, count: 2 }]);
  const unknown = await owner.request('GET', `/boards/${filtersBoard.id}/task-filters/color/options`);
  t.is(unknown.status, 404);
  t.deepEqual(unknown.body, { error: 'Unknown task filter color (filters: lane, assignee_id, topic_id, schedule_id, priority, status, creator_id)' });
  t.is((await owner.request('GET', `/boards/${UNKNOWN}/task-filters`)).status, 404);
});

test.serial('the app settings decide the lanes of a new board, the default priority and the most assignees', async (t) => {
  const saved = await owner.request('PUT', '/apps/tasks/settings', { default_lanes: ['Inbox', 'Out'], default_priority: 'low', max_assignees: 1 });
  t.is(saved.status, 200);
  const refused = await owner.request('PUT', '/apps/tasks/settings', { default_lanes: [], default_priority: 'low', max_assignees: 1 });
  t.is(refused.status, 400);
  const fresh = await ok(owner.request('POST', '/boards', { title: 'Configured' }));
  t.deepEqual(fresh.lanes, ['Inbox', 'Out']);
  const task = await ok(owner.request('POST', '/tasks', { title: 'Configured task', board_id: fresh.id, assignee_ids: [owner.id] }));
  t.like(task, { priority: 'low', lane: 'Inbox' });
  const second = await world.member(['tasks.tasks.read']);
  t.deepEqual((await owner.request('POST', `/tasks/${task.id}/assignees`, { member_id: second.id })).body, { error: `Task ${task.id} already has 1 assignees, the most allowed (settings: max_assignees)` });
  t.is((await owner.request('PUT', '/apps/tasks/settings', { default_lanes: ['To do', 'In progress', 'Done'], default_priority: 'none', max_assignees: 10 })).status, 200);
});
