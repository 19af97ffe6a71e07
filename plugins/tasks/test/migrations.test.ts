import test from 'ava';
import { tasksWorld } from './helpers/world.js';

const world = await tasksWorld('migrations');
test.after.always(() => world.close());

const tables = () => world.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'app_tasks' AND table_name <> 'migrations' ORDER BY table_name");

test.serial('the migrations go down and up again over seeded rows, leaving a working app', async (t) => {
  const { owner } = world;
  const board = (await owner.request('POST', '/boards', { title: 'Seeded' })).body.data;
  const topic = (await owner.request('POST', `/boards/${board.id}/topics`, { name: 'Seed' })).body.data;
  const schedule = (await owner.request('POST', '/schedules', { name: 'Seed week' })).body.data;
  const task = (await owner.request('POST', '/tasks', { title: 'Seed task', board_id: board.id, topic_id: topic.id, schedule_id: schedule.id, assignee_ids: [owner.id] })).body.data;
  await owner.request('POST', `/tasks/${task.id}/comments`, { body: 'seed' });
  await owner.request('POST', `/tasks/${task.id}/deliverables`, { title: 'seed' });
  await owner.request('POST', '/views', { board_id: board.id, name: 'Seed view', tab: 'board' });
  const counts =
    "SELECT 'boards' AS name, count(*)::int AS n FROM app_tasks.boards UNION ALL SELECT 'tasks', count(*)::int FROM app_tasks.tasks UNION ALL SELECT 'views', count(*)::int FROM app_tasks.views";
  const before = await world.query<{ name: string; n: number }>(counts);
  t.deepEqual(before.map((row) => [row.name, row.n]), [['boards', 1], ['tasks', 1], ['views', 1]]);
  const current = ['board_members', 'boards', 'deliverables', 'member_releases', 'schedules', 'task_assignees', 'task_comments', 'task_key_counters', 'tasks', 'topics', 'views'];
  t.deepEqual((await tables()).map((row) => row.name), current);

  // Assignee positions: down drops the column; up gives every assignment place 0, ordered by when it was made.
  const positions = () => world.query<{ position: number }>('SELECT position FROM app_tasks.task_assignees');
  t.deepEqual(await positions(), [{ position: 0 }]);
  t.deepEqual(await world.migrateAppDown('0007-assignee-position'), ['0007-assignee-position']);
  t.deepEqual(await world.query("SELECT column_name FROM information_schema.columns WHERE table_schema = 'app_tasks' AND table_name = 'task_assignees' AND column_name = 'position'"), []);
  t.deepEqual(await world.migrateAppUp(), ['0007-assignee-position']);
  t.deepEqual(await positions(), [{ position: 0 }]);
  t.deepEqual((await owner.request('GET', `/tasks/${task.id}`)).body.data.assignee_ids, [owner.id]);

  // A task's source: down drops the column (and what it held), up adds it back empty.
  await world.query("UPDATE app_tasks.tasks SET source_mrn = 'mrn:crm:deal:0a1b2c3d-0000-4000-8000-000000000042'");
  const sources = () => world.query("SELECT column_name FROM information_schema.columns WHERE table_schema = 'app_tasks' AND table_name = 'tasks' AND column_name = 'source_mrn'");
  t.deepEqual(await world.migrateAppDown('0005-task-source'), ['0007-assignee-position', '0006-member-releases', '0005-task-source']);
  t.deepEqual(await sources(), []);
  t.deepEqual(await world.migrateAppUp(), ['0005-task-source', '0006-member-releases', '0007-assignee-position']);
  t.deepEqual(await world.query('SELECT source_mrn FROM app_tasks.tasks'), [{ source_mrn: null }]);

  // The private member directory: gone; down re-creates it empty, up drops it again.
  t.deepEqual(await world.migrateAppDown('0004-drop-member-directory'), ['0007-assignee-position', '0006-member-releases', '0005-task-source', '0004-drop-member-directory']);
  t.deepEqual(await world.query('SELECT member_id, removed_at, removed_by FROM app_tasks.member_directory'), []);
  t.deepEqual(await world.migrateAppUp(), ['0004-drop-member-directory', '0005-task-source', '0006-member-releases', '0007-assignee-position']);
  t.deepEqual((await tables()).map((row) => row.name), current);

  // Task keys: down drops them; up gives existing tasks keys in the order they were made, and the counter goes on from there.
  const later = (await owner.request('POST', '/tasks', { title: 'Later task' })).body.data;
  t.deepEqual([task.key, later.key], ['MIGRAT-1', 'MIGRAT-2']);
  t.deepEqual(await world.migrateAppDown('0003-task-keys'), ['0007-assignee-position', '0006-member-releases', '0005-task-source', '0004-drop-member-directory', '0003-task-keys']);
  t.deepEqual(await world.query("SELECT column_name FROM information_schema.columns WHERE table_schema = 'app_tasks' AND table_name = 'tasks' AND column_name IN ('key', 'number')"), []);
  t.deepEqual(await world.migrateAppUp(), ['0003-task-keys', '0004-drop-member-directory', '0005-task-source', '0006-member-releases', '0007-assignee-position']);
  t.deepEqual(await world.query<{ title: string; key: string; number: number }>('SELECT title, key, number FROM app_tasks.tasks ORDER BY number'), [
    { title: 'Seed task', key: 'MIGRAT-1', number: 1 },
    { title: 'Later task', key: 'MIGRAT-2', number: 2 },
  ]);
  t.is((await owner.request('POST', '/tasks', { title: 'After keys' })).body.data.key, 'MIGRAT-3');
  await owner.request('DELETE', `/tasks/${later.id}`);
  const afterKeys = (await owner.request('GET', '/tasks?q=After%20keys')).body.data[0];
  await owner.request('DELETE', `/tasks/${afterKeys.id}`);

  // The keys for distribution by workspace (docs/scale-out.md) go down and up over the seeded rows.
  const key = async () => (await world.query<{ def: string }>("SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'tasks_pkey' AND connamespace = 'app_tasks'::regnamespace"))[0].def;
  t.is(await key(), 'PRIMARY KEY (workspace_id, id)');
  t.deepEqual(await world.migrateAppDown('0002-distribution-keys'), ['0007-assignee-position', '0006-member-releases', '0005-task-source', '0004-drop-member-directory', '0003-task-keys', '0002-distribution-keys']);
  t.is(await key(), 'PRIMARY KEY (id)');
  t.deepEqual(await world.query(counts), before);
  t.deepEqual(await world.migrateAppUp(), ['0002-distribution-keys', '0003-task-keys', '0004-drop-member-directory', '0005-task-source', '0006-member-releases', '0007-assignee-position']);
  t.is(await key(), 'PRIMARY KEY (workspace_id, id)');
  t.deepEqual(await world.query(counts), before);
  const seededTask = await owner.request('GET', `/tasks/${task.id}`);
  t.is(seededTask.body.data.topic_id, topic.id);

  t.deepEqual(await world.migrateAppDown(), ['0007-assignee-position', '0006-member-releases', '0005-task-source', '0004-drop-member-directory', '0003-task-keys', '0002-distribution-keys', '0001-create-tasks-tables']);
  t.deepEqual(await tables(), []);
  t.deepEqual(await world.migrateAppUp(), ['0001-create-tasks-tables', '0002-distribution-keys', '0003-task-keys', '0004-drop-member-directory', '0005-task-source', '0006-member-releases', '0007-assignee-position']);
  t.deepEqual((await tables()).map((row) => row.name), current);

  const fresh = await owner.request('GET', '/boards');
  t.deepEqual(fresh.body.data, []);
  const again = await owner.request('POST', '/tasks', { title: 'After', board_id: null });
  t.is(again.status, 200);
});
