import test from 'ava';
import { tasksWorld } from './helpers/world.js';

const world = await tasksWorld('boards');
const owner = world.owner;
test.after.always(() => world.close());

const createBoard = async (payload: Record<string, unknown>) => {
  const reply = await owner.request('POST', '/boards', payload);
  if (reply.status !== 200) throw new Error(`POST /boards: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.data;
};

test.serial('POST /boards creates a board with the settings lanes, makes the creator its owner and emits board.created once', async (t) => {
  world.takeEvents();
  const reply = await owner.request('POST', '/boards', { title: 'Launch', description: 'Q1 launch', grid: { mode: 'dots', spacing: 16, snap: true, background: '#fafafa', default_sticky_color: 'yellow' } });
  t.is(reply.status, 200);
  const board = reply.body.data;
  t.like(board, { title: 'Launch', description: 'Q1 launch', is_template: false, template_id: null, lanes: ['To do', 'In progress', 'Done'], deleted: false, archived_at: null, creator_id: owner.id, creator_mrn: owner.mrn });
  t.deepEqual(board.grid, { mode: 'dots', spacing: 16, snap: true, background: '#fafafa', default_sticky_color: 'yellow' });
  t.is(reply.body.links.self, `/boards/${board.id}`);
  t.deepEqual(world.takeEvents(), [{ action: 'core.tasks.board.created', payload: { board_id: board.id, name: 'Launch', creator_mrn: owner.mrn } }]);
  const members = await owner.request('GET', `/boards/${board.id}/members`);
  t.deepEqual(members.body.data.map((member: { member_id: string; role: string }) => [member.member_id, member.role]), [[owner.id, 'owner']]);
});

test.serial('POST /boards enforces every bound of its payload, and a refused request emits nothing', async (t) => {
  world.takeEvents();
  const cases: Array<[Record<string, unknown>, string, string]> = [
    [{}, 'title is required', 'title'],
    [{ title: '' }, 'title is not allowed to be empty', 'title'],
    [{ title: 'x'.repeat(201) }, 'title length must be less than or equal to 200 characters long', 'title'],
    [{ title: 'ok', description: 'x'.repeat(2001) }, 'description length must be less than or equal to 2000 characters long', 'description'],
    [{ title: '   ' }, 'title is not allowed to be empty', 'title'],
    [{ title: 'ok\u0000' }, 'title must not contain NUL characters or unpaired surrogates', 'title'],
    [{ title: 'ok', lanes: ['A', 'B\ud800'] }, 'lanes[1] must not contain NUL characters or unpaired surrogates', 'lanes[1]'],
    [{ title: 'ok', is_template: 'maybe' }, 'is_template must be a boolean', 'is_template'],
    [{ title: 'ok', grid: { mode: 'hex' } }, 'grid.mode must be one of [none, dots, lines]', 'grid.mode'],
    [{ title: 'ok', grid: { spacing: 3 } }, 'grid.spacing must be greater than or equal to 4', 'grid.spacing'],
    [{ title: 'ok', grid: { snap: 'sometimes' } }, 'grid.snap must be a boolean', 'grid.snap'],
    [{ title: 'ok', grid: { background: 'x'.repeat(201) } }, 'grid.background length must be less than or equal to 200 characters long', 'grid.background'],
    [{ title: 'ok', grid: { default_sticky_color: 'x'.repeat(51) } }, 'grid.default_sticky_color length must be less than or equal to 50 characters long', 'grid.default_sticky_color'],
    [{ title: 'ok', lanes: [] }, 'lanes must contain at least 1 items', 'lanes'],
    [{ title: 'ok', lanes: ['A', 'A'] }, 'lanes[1] contains a duplicate value', 'lanes[1]'],
  ];
  for (const [payload, error, field] of cases) {
    const reply = await owner.request('POST', '/boards', payload);
    t.is(reply.status, 400, JSON.stringify(payload));
    t.deepEqual(reply.body, { error, field }, JSON.stringify(payload));
  }
  // Ids are strings: a template id of any shape that names no board is the same 404.
  const shapeless = await owner.request('POST', '/boards', { title: 'ok', template_id: 'nope' });
  t.deepEqual([shapeless.status, shapeless.body], [404, { error: 'Template board nope not found' }]);
  t.is((await owner.request('POST', '/boards', { title: 'x'.repeat(200), description: 'x'.repeat(2000) })).status, 200);
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.tasks.board.created']);
});

test.serial('a board made from a template takes its lanes, grid, description and topics; the template must be one', async (t) => {
  const template = await createBoard({ title: 'Sprint template', description: 'Two weeks', is_template: true, lanes: ['Ready', 'Doing', 'Review', 'Shipped'], grid: { mode: 'lines', spacing: 24 } });
  await owner.request('POST', `/boards/${template.id}/topics`, { name: 'Bugs', color: '#ff0000' });
  await owner.request('POST', `/boards/${template.id}/topics`, { name: 'Features' });
  const board = await createBoard({ title: 'Sprint 7', template_id: template.id });
  t.like(board, { template_id: template.id, is_template: false, description: 'Two weeks', lanes: ['Ready', 'Doing', 'Review', 'Shipped'], grid: { mode: 'lines', spacing: 24 } });
  const topics = await owner.request('GET', `/boards/${board.id}/topics`);
  t.deepEqual(topics.body.data.map((topic: { name: string; color: string | null }) => [topic.name, topic.color]), [['Bugs', '#ff0000'], ['Features', null]]);
  const own = await createBoard({ title: 'Sprint 8', template_id: template.id, description: 'Custom', lanes: ['One'] });
  t.like(own, { description: 'Custom', lanes: ['One'] });

  const plain = await createBoard({ title: 'Plain' });
  const notTemplate = await owner.request('POST', '/boards', { title: 'x', template_id: plain.id });
  t.is(notTemplate.status, 400);
  t.deepEqual(notTemplate.body, { error: `template_id ${plain.id} names a board that is not a template` });
  const missing = await owner.request('POST', '/boards', { title: 'x', template_id: '00000000-0000-4000-8000-000000000000' });
  t.is(missing.status, 404);
  t.deepEqual(missing.body, { error: 'Template board 00000000-0000-4000-8000-000000000000 not found' });
});

test.serial('GET /boards lists live boards oldest first in the collection envelope, filtered by q and is_template', async (t) => {
  const other = await world.otherWorkspace('boards-other');
  await other.owner.request('POST', '/boards', { title: 'Zebra elsewhere' });
  const zebra = await createBoard({ title: 'Zebra crossing' });
  const zoo = await createBoard({ title: 'Zebra 100%_done', is_template: true });
  const found = await owner.request('GET', '/boards?q=zebra');
  t.is(found.status, 200);
  t.deepEqual(found.body.data.map((board: { id: string }) => board.id), [zebra.id, zoo.id]);
  t.deepEqual(found.body.pagination, { page: 1, per_page: 25, total: 2, pages: 1 });
  t.is(found.body.links.self, '/boards?q=zebra&page=1&per_page=25');
  const literal = await owner.request('GET', `/boards?q=${encodeURIComponent('100%_')}`);
  t.deepEqual(literal.body.data.map((board: { id: string }) => board.id), [zoo.id]);
  const templates = await owner.request('GET', '/boards?q=zebra&is_template=true');
  t.deepEqual(templates.body.data.map((board: { id: string }) => board.id), [zoo.id]);
  const paged = await owner.request('GET', '/boards?q=zebra&per_page=1&page=2');
  t.deepEqual(paged.body.data.map((board: { id: string }) => board.id), [zoo.id]);
  t.deepEqual(paged.body.pagination, { page: 2, per_page: 1, total: 2, pages: 2 });
  t.is(paged.body.links.next, null);
  t.is(paged.body.links.prev, '/boards?q=zebra&page=1&per_page=1');
});

test.serial('GET /boards/{board_id} answers the single envelope; an unknown or foreign board, or an id of any other shape, is 404', async (t) => {
  const board = await createBoard({ title: 'Readable' });
  const reply = await owner.request('GET', `/boards/${board.id}`);
  t.is(reply.status, 200);
  t.like(reply.body.data, { id: board.id, title: 'Readable' });
  t.deepEqual(reply.body.links, { self: `/boards/${board.id}`, tasks: `/tasks?board_id=${board.id}`, topics: `/boards/${board.id}/topics`, members: `/boards/${board.id}/members` });
  const other = await world.otherWorkspace('boards-foreign');
  const foreign = (await other.owner.request('POST', '/boards', { title: 'Theirs' })).body.data;
  const hidden = await owner.request('GET', `/boards/${foreign.id}`);
  t.is(hidden.status, 404);
  t.deepEqual(hidden.body, { error: `Board ${foreign.id} not found` });
  const shapeless = await owner.request('GET', '/boards/not-a-uuid');
  t.is(shapeless.status, 404);
  t.deepEqual(shapeless.body, { error: 'Board not-a-uuid not found' });
});

test.serial('PUT /boards/{board_id} updates title, description, grid (merged) and lanes, emitting nothing', async (t) => {
  const board = await createBoard({ title: 'Editable', grid: { mode: 'dots', spacing: 8 } });
  world.takeEvents();
  const reply = await owner.request('PUT', `/boards/${board.id}`, { title: 'Edited', description: 'Now with text', grid: { snap: true }, lanes: ['To do', 'Doing', 'Done', 'Archive'] });
  t.is(reply.status, 200);
  t.like(reply.body.data, { title: 'Edited', description: 'Now with text', grid: { mode: 'dots', spacing: 8, snap: true }, lanes: ['To do', 'Doing', 'Done', 'Archive'] });
  t.deepEqual(world.takeEvents(), []);
  for (const [payload, error, field] of [
    [{ title: '' }, 'title is not allowed to be empty', 'title'],
    [{ title: 'x'.repeat(201) }, 'title length must be less than or equal to 200 characters long', 'title'],
    [{ description: 'x'.repeat(2001) }, 'description length must be less than or equal to 2000 characters long', 'description'],
    [{ deleted: 'soon' }, 'deleted must be a boolean', 'deleted'],
    [{ grid: { spacing: 1.5 } }, 'grid.spacing must be an integer', 'grid.spacing'],
  ] as Array<[Record<string, unknown>, string, string]>) {
    const refused = await owner.request('PUT', `/boards/${board.id}`, payload);
    t.is(refused.status, 400);
    t.deepEqual(refused.body, { error, field });
  }
});

test.serial('PUT /boards/{board_id} refuses to drop a lane that still holds tasks', async (t) => {
  const board = await createBoard({ title: 'Lanes', lanes: ['A', 'B'] });
  await owner.request('POST', '/tasks', { title: 'In B', board_id: board.id, lane: 'B' });
  const refused = await owner.request('PUT', `/boards/${board.id}`, { lanes: ['A'] });
  t.is(refused.status, 409);
  t.deepEqual(refused.body, { error: 'Lane B still holds 1 task; move them to another lane first' });
  t.is((await owner.request('PUT', `/boards/${board.id}`, { lanes: ['B', 'C'] })).status, 200);
});

test.serial('deleted: true archives (board.archived, off the list, no new tasks), deleted: false restores', async (t) => {
  const board = await createBoard({ title: 'Archivable' });
  world.takeEvents();
  const archived = await owner.request('PUT', `/boards/${board.id}`, { deleted: true });
  t.is(archived.status, 200);
  t.true(archived.body.data.deleted);
  t.deepEqual(world.takeEvents(), [{ action: 'core.tasks.board.archived', payload: { board_id: board.id } }]);
  t.is((await owner.request('PUT', `/boards/${board.id}`, { deleted: true })).status, 200);
  t.deepEqual(world.takeEvents(), [], 'archiving an archived board emits nothing');
  const live = await owner.request('GET', '/boards?q=Archivable');
  t.deepEqual(live.body.data, []);
  const gone = await owner.request('GET', '/boards?q=Archivable&deleted=true');
  t.deepEqual(gone.body.data.map((row: { id: string }) => row.id), [board.id]);
  const refused = await owner.request('POST', '/tasks', { title: 'Late', board_id: board.id });
  t.is(refused.status, 409);
  t.deepEqual(refused.body, { error: 'Board Archivable is archived; restore it first' });
  const restored = await owner.request('PUT', `/boards/${board.id}`, { deleted: false });
  t.false(restored.body.data.deleted);
  t.deepEqual(world.takeEvents(), []);
  t.is((await owner.request('POST', '/tasks', { title: 'Now', board_id: board.id })).status, 200);
});

test.serial('the deleted flag needs tasks.boards.delete besides tasks.boards.edit', async (t) => {
  const editor = await world.member(['tasks.boards.read', 'tasks.boards.edit']);
  const board = await createBoard({ title: 'Guarded' });
  const refused = await editor.request('PUT', `/boards/${board.id}`, { deleted: true, title: 'Renamed' });
  t.is(refused.status, 403);
  t.deepEqual(refused.body, { error: 'Missing permission: tasks.boards.delete' });
  t.is((await owner.request('GET', `/boards/${board.id}`)).body.data.title, 'Guarded', 'nothing of the refused request was kept');
  t.is((await editor.request('PUT', `/boards/${board.id}`, { title: 'Renamed' })).status, 200);
});

test.serial('DELETE /boards/{board_id} needs confirm_key equal to the title, and takes the tasks along', async (t) => {
  const board = await createBoard({ title: 'Doomed board' });
  const first = (await owner.request('POST', '/tasks', { title: 'One', board_id: board.id })).body.data;
  const second = (await owner.request('POST', '/tasks', { title: 'Two', board_id: board.id })).body.data;
  world.takeEvents();
  for (const [payload, status, error, field] of [
    [{}, 400, 'confirm_key is required', 'confirm_key'],
    [{ confirm_key: '' }, 400, 'confirm_key is not allowed to be empty', 'confirm_key'],
    [{ confirm_key: 'doomed board' }, 400, "confirm_key must equal the board's title"],
  ] as Array<[Record<string, unknown>, number, string, string?]>) {
    const refused = await owner.request('DELETE', `/boards/${board.id}`, payload);
    t.is(refused.status, status);
    t.deepEqual(refused.body, field === undefined ? { error } : { error, field });
  }
  t.deepEqual(world.takeEvents(), []);
  const deleted = await owner.request('DELETE', `/boards/${board.id}`, { confirm_key: 'Doomed board' });
  t.is(deleted.status, 200);
  t.deepEqual(deleted.body.data, { board_id: board.id, deleted_task_ids: [first.id, second.id] });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.tasks.task.bulk_deleted', payload: { task_ids: [first.id, second.id], deleted_by: owner.id } },
    { action: 'core.tasks.board.deleted', payload: { board_id: board.id, deleted_by: owner.id } },
  ]);
  t.is((await owner.request('GET', `/boards/${board.id}`)).status, 404);
  t.is((await owner.request('GET', `/tasks/${first.id}`)).status, 404);
  t.is((await owner.request('DELETE', `/boards/${board.id}`, { confirm_key: 'Doomed board' })).status, 404);
});

test.serial('PATCH /boards/{board_id}/columns renames a lane and every task in it, one task.updated each', async (t) => {
  const board = await createBoard({ title: 'Renames' });
  const inTodo = (await owner.request('POST', '/tasks', { title: 'A', board_id: board.id })).body.data;
  const inTodo2 = (await owner.request('POST', '/tasks', { title: 'B', board_id: board.id })).body.data;
  const inDone = (await owner.request('POST', '/tasks', { title: 'C', board_id: board.id, lane: 'Done' })).body.data;
  world.takeEvents();
  const reply = await owner.request('PATCH', `/boards/${board.id}/columns`, { old_name: 'To do', new_name: 'Backlog' });
  t.is(reply.status, 200);
  t.deepEqual(reply.body.data.lanes, ['Backlog', 'In progress', 'Done']);
  t.deepEqual(reply.body.data.renamed_task_ids, [inTodo.id, inTodo2.id]);
  t.deepEqual(world.takeEvents(), [inTodo.id, inTodo2.id].map((id) => ({ action: 'core.tasks.task.updated', payload: { task_id: id, changed_fields: ['lane'] } })));
  t.is((await owner.request('GET', `/tasks/${inTodo.id}`)).body.data.lane, 'Backlog');
  t.is((await owner.request('GET', `/tasks/${inDone.id}`)).body.data.lane, 'Done');
  for (const [payload, status, error, field] of [
    [{ new_name: 'x' }, 400, 'old_name is required', 'old_name'],
    [{ old_name: 'Backlog' }, 400, 'new_name is required', 'new_name'],
    [{ old_name: '', new_name: 'x' }, 400, 'old_name is not allowed to be empty', 'old_name'],
    [{ old_name: 'Backlog', new_name: 'x'.repeat(81) }, 400, 'new_name length must be less than or equal to 80 characters long', 'new_name'],
    [{ old_name: 'Nope', new_name: 'x' }, 404, 'Lane Nope not found on board Renames'],
    [{ old_name: 'Backlog', new_name: 'Done' }, 409, 'Lane Done already exists on board Renames'],
  ] as Array<[Record<string, unknown>, number, string, string?]>) {
    const refused = await owner.request('PATCH', `/boards/${board.id}/columns`, payload);
    t.is(refused.status, status);
    t.deepEqual(refused.body, field === undefined ? { error } : { error, field });
  }
  t.deepEqual(world.takeEvents(), []);
});

test.serial('a board view hears its changes live: each committed change is logged on tasks/boards/{id}, a refused one is not', async (t) => {
  const board = await createBoard({ title: 'Live board' });
  const created = await owner.request('POST', '/tasks', { title: 'Watch me', board_id: board.id });
  t.is(created.status, 200);
  const task = created.body.data;
  t.is((await owner.request('PATCH', `/tasks/${task.id}`, { due_date: '2027-02-30' })).status, 400);
  t.is((await owner.request('PATCH', `/tasks/${task.id}`, { due_date: '2027-02-01' })).status, 200);
  t.is((await owner.request('DELETE', `/tasks/${task.id}`)).status, 200);
  const logged = await world.query<{ id: string; type: string; task_id: string }>(
    "SELECT id::text, type, data->>'task_id' AS task_id FROM platform.live_events WHERE workspace_id = :workspace AND channel = :channel ORDER BY id",
    { workspace: world.workspaceId, channel: `tasks/boards/${board.id}` },
  );
  t.deepEqual(logged.map((row) => [row.id, row.type]), [
    ['1', 'board.created'],
    ['2', 'task.created'],
    ['3', 'task.updated'],
    ['4', 'task.deleted'],
  ]);
  t.deepEqual(logged.slice(1).map((row) => row.task_id), [task.id, task.id, task.id]);
});
