import test from 'ava';
import { ok, tasksWorld, type Caller, type World } from './helpers/world.js';

let seen = 0;

/** The document of an upsert (undefined for a removal). */
const documentOf = (change: World['platform']['search'][number]) => (change.op === 'upsert' ? change.document : undefined);

/** Index changes the app asked for since the last call: `upsert type id title subtitle` or `remove type id`. */
const takeIndex = () => {
  const fresh = world.platform.search.slice(seen);
  seen = world.platform.search.length;
  return fresh.map((operation) => (operation.op === 'upsert' ? `upsert ${operation.document.type} ${operation.document.id} ${operation.document.title} | ${operation.document.subtitle}` : `remove ${operation.type} ${operation.id}`));
};

const world = await tasksWorld('searching');
const owner = world.owner;
test.after.always(() => world.close());

test.serial('boards are indexed by title with their description as detail; tasks by title, description, their key as badge and their board as subtitle', async (t) => {
  takeIndex();
  const board = await ok(owner.request('POST', '/boards', { title: 'Roadmap', description: 'What ships when' }));
  const task = await ok(owner.request('POST', '/tasks', { title: 'Pricing page', description: 'Three tiers', board_id: board.id }));
  const idea = await ok(owner.request('POST', '/tasks', { title: 'Dark mode' }));
  t.deepEqual(takeIndex(), [`upsert board ${board.id} Roadmap | Board`, `upsert task ${task.id} Pricing page | Roadmap`, `upsert task ${idea.id} Dark mode | Incubator`]);
  const documents = world.platform.search.slice(-3).map(documentOf);
  t.deepEqual(documents[0], { type: 'board', id: board.id, title: 'Roadmap', subtitle: 'Board', url: `/boards/${board.id}`, names: ['Roadmap'], details: ['What ships when'], filters: { is_template: false } });
  t.deepEqual(documents[1], { type: 'task', id: task.id, badge: task.key, title: 'Pricing page', subtitle: 'Roadmap', url: `/tasks/${task.id}`, names: ['Pricing page'], details: ['Three tiers'], filters: { board_id: board.id, completed: false } });
});

test.serial('every change of a task refreshes its document, in the same transaction: a refused request changes nothing', async (t) => {
  const board = await ok(owner.request('POST', '/boards', { title: 'Index board' }));
  const other = await ok(owner.request('POST', '/boards', { title: 'Other index board' }));
  const task = await ok(owner.request('POST', '/tasks', { title: 'Indexed', board_id: board.id }));
  takeIndex();
  await ok(owner.request('PATCH', `/tasks/${task.id}`, { title: 'Re-indexed' }));
  t.deepEqual(takeIndex(), [`upsert task ${task.id} Re-indexed | Index board`]);
  t.is((await owner.request('PATCH', `/tasks/${task.id}`, { title: 'Never', due_date: 'nope' })).status, 400);
  t.is((await owner.request('PATCH', `/tasks/${task.id}`, { title: 'Never', blocked_by: task.id })).status, 400);
  t.deepEqual(takeIndex(), []);
  await ok(owner.request('POST', `/tasks/${task.id}/completion`));
  t.deepEqual(takeIndex(), [`upsert task ${task.id} Re-indexed | Index board`]);
  t.is(documentOf(world.platform.search.at(-1)!)?.filters?.completed, true);
  await ok(owner.request('PUT', `/tasks/${task.id}/board`, { board_id: other.id }));
  t.deepEqual(takeIndex(), [`upsert task ${task.id} Re-indexed | Other index board`]);
  await ok(owner.request('DELETE', `/boards/${other.id}/tasks/${task.id}`));
  t.deepEqual(takeIndex(), [`upsert task ${task.id} Re-indexed | Incubator`]);
  await ok(owner.request('POST', `/boards/${board.id}/tasks`, { task_ids: [task.id] }));
  t.deepEqual(takeIndex(), [`upsert task ${task.id} Re-indexed | Index board`]);
  await ok(owner.request('DELETE', `/tasks/${task.id}`));
  t.deepEqual(takeIndex(), [`remove task ${task.id}`]);
});

test.serial('renaming a board re-indexes it and its tasks; archiving removes it, restoring brings it back; deleting removes it and its tasks', async (t) => {
  const board = await ok(owner.request('POST', '/boards', { title: 'Old name' }));
  const task = await ok(owner.request('POST', '/tasks', { title: 'Child', board_id: board.id }));
  takeIndex();
  await ok(owner.request('PUT', `/boards/${board.id}`, { title: 'New name' }));
  t.deepEqual(takeIndex(), [`upsert board ${board.id} New name | Board`, `upsert task ${task.id} Child | New name`]);
  await ok(owner.request('PUT', `/boards/${board.id}`, { deleted: true }));
  t.deepEqual(takeIndex(), [`remove board ${board.id}`]);
  await ok(owner.request('PUT', `/boards/${board.id}`, { deleted: false }));
  t.deepEqual(takeIndex(), [`upsert board ${board.id} New name | Board`]);
  t.is((await owner.request('DELETE', `/boards/${board.id}`, { confirm_key: 'Old name' })).status, 400);
  t.deepEqual(takeIndex(), []);
  await ok(owner.request('DELETE', `/boards/${board.id}`, { confirm_key: 'New name' }));
  t.deepEqual(takeIndex(), [`remove task ${task.id}`, `remove board ${board.id}`]);
});

test.serial('clearing a board removes the cleared tasks from the index', async (t) => {
  const board = await ok(owner.request('POST', '/boards', { title: 'Clear index' }));
  const task = await ok(owner.request('POST', '/tasks', { title: 'Unplanned', board_id: board.id }));
  takeIndex();
  await ok(owner.request('DELETE', `/boards/${board.id}/tasks?scheduled=false`));
  t.deepEqual(takeIndex(), [`remove task ${task.id}`]);
});

/** Result titles of a platform search as `type:title`, in rank order. */
const found = async (caller: Caller, query: string) => {
  const reply = await caller.request('GET', `/search?app=tasks&${query}`);
  if (reply.status !== 200) return { status: reply.status, body: reply.body };
  return reply.body.data.map((result: { type: string; title: string }) => `${result.type}:${result.title}`);
};

test.serial('the platform search finds boards and tasks, each type only for members holding one of its keys', async (t) => {
  const board = await ok(owner.request('POST', '/boards', { title: 'Zeppelin project', description: 'airships' }));
  await ok(owner.request('POST', '/tasks', { title: 'Zeppelin hangar', description: 'Build it', board_id: board.id }));
  await ok(owner.request('POST', '/tasks', { title: 'Mooring mast', description: 'for the zeppelin' }));
  const all = await found(owner, 'q=zeppelin');
  t.deepEqual([...all.slice(0, 2)].sort(), ['board:Zeppelin project', 'task:Zeppelin hangar'], 'name hits first (equal rank between the two)');
  t.is(all[2], 'task:Mooring mast', 'a detail hit ranks below name hits');
  t.deepEqual(await found(owner, 'q=zeppelin&types=board,task'), ['board:Zeppelin project', 'task:Zeppelin hangar', 'task:Mooring mast']);
  t.deepEqual(await found(owner, 'q=zeppelin&types=task'), ['task:Zeppelin hangar', 'task:Mooring mast']);
  t.deepEqual(await found(owner, 'q=zepelin&types=board,task'), ['board:Zeppelin project', 'task:Zeppelin hangar', 'task:Mooring mast'], 'one edit away still matches');

  const taskReader = await world.member(['tasks.tasks.read']);
  t.deepEqual(await found(taskReader, 'q=zeppelin'), ['task:Zeppelin hangar', 'task:Mooring mast']);
  const boardReader = await world.member(['tasks.boards.read']);
  t.deepEqual(await found(boardReader, 'q=zeppelin'), ['board:Zeppelin project']);
  const nothing = await world.member(['tasks.views.read']);
  t.deepEqual(await found(nothing, 'q=zeppelin'), []);
  const outsider = await world.outsider();
  t.deepEqual(await found(outsider, 'q=zeppelin'), { status: 403, body: { error: "You don't have access to this app" } });
});

test.serial('the search follows the records: archived boards and deleted tasks are not found, renamed ones by their new name', async (t) => {
  const board = await ok(owner.request('POST', '/boards', { title: 'Quokka board' }));
  const task = await ok(owner.request('POST', '/tasks', { title: 'Quokka census', board_id: board.id }));
  await ok(owner.request('PUT', `/boards/${board.id}`, { deleted: true }));
  t.deepEqual(await found(owner, 'q=quokka'), ['task:Quokka census']);
  await ok(owner.request('PATCH', `/tasks/${task.id}`, { title: 'Wombat census' }));
  t.deepEqual(await found(owner, 'q=quokka'), []);
  t.deepEqual(await found(owner, 'q=wombat'), ['task:Wombat census']);
  await ok(owner.request('DELETE', `/tasks/${task.id}`));
  t.deepEqual(await found(owner, 'q=wombat'), []);
  const other = await world.otherWorkspace('searching-other');
  await ok(other.owner.request('POST', '/tasks', { title: 'Platypus survey' }));
  t.deepEqual(await found(owner, 'q=platypus'), [], 'another workspace is never searched');
  t.deepEqual(await found(other.owner, 'q=platypus'), ['task:Platypus survey']);
});

test.serial('the reindex hooks rebuild an emptied index of one workspace: live boards and every task, nothing of another workspace', async (t) => {
  const board = await ok(owner.request('POST', '/boards', { title: 'Narwhal board' }));
  await ok(owner.request('POST', '/tasks', { title: 'Narwhal count', board_id: board.id }));
  const archived = await ok(owner.request('POST', '/boards', { title: 'Narwhal archive' }));
  await ok(owner.request('PUT', `/boards/${archived.id}`, { deleted: true }));
  const other = await world.otherWorkspace('searching-reindex');
  await ok(other.owner.request('POST', '/tasks', { title: 'Narwhal elsewhere' }));
  const before = await found(owner, 'q=narwhal');
  t.deepEqual([...before].sort(), ['board:Narwhal board', 'task:Narwhal count']);

  const counts = async (workspaceId: string) =>
    (await world.query<{ type: string; n: number }>("SELECT type, count(*)::int AS n FROM platform.search_records WHERE app = 'tasks' AND workspace_id = :workspaceId GROUP BY type ORDER BY type", { workspaceId }))
      .map((row) => `${row.type}: ${row.n}`);
  const expected = await counts(world.workspaceId);
  await world.query("DELETE FROM platform.search_records WHERE app = 'tasks' AND workspace_id = :workspaceId", { workspaceId: world.workspaceId });
  t.deepEqual(await found(owner, 'q=narwhal'), []);

  const progress: string[] = [];
  const rebuilt = await world.platform.runtime.reindexSearch({ app: 'tasks', workspaceId: world.workspaceId, onProgress: (step) => progress.push(`${step.phase} ${step.type}`) });
  t.deepEqual(rebuilt.map((step) => `${step.type}: ${step.documents}`), expected, 'as many documents as the services had indexed');
  t.deepEqual(progress, ['started board', 'finished board', 'started task', 'finished task']);
  t.deepEqual(await counts(world.workspaceId), expected);
  t.deepEqual(await found(owner, 'q=narwhal'), before, 'the same results, in the same order');
  t.deepEqual(await found(other.owner, 'q=narwhal'), ['task:Narwhal elsewhere'], 'the other workspace was left as it was');
});
