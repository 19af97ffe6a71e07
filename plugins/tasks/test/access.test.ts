import test from 'ava';
import manifest from '../app.json' with { type: 'json' };
import { tasksWorld } from './helpers/world.js';

const DENIED = { error: "You don't have access to this app" };
const SOME_ID = '00000000-0000-4000-8000-000000000abc';

const world = await tasksWorld('access');
const owner = world.owner;
test.after.always(() => world.close());

/** The route pattern with every `{param}` filled with an id. */
const concrete = (path: string) => path.replace(/\{[a-z_]+\}/g, (match) => (match === '{key}' ? 'lane' : SOME_ID));

test('a member whose role may not open the app gets "You don\'t have access to this app" on every route, even holding tasks.*', async (t) => {
  const outsider = await world.outsider();
  for (const entry of manifest.authorization) {
    const reply = await outsider.request(entry.method, concrete(entry.path), entry.method === 'GET' || entry.method === 'DELETE' ? undefined : {});
    t.is(reply.status, 403, `${entry.method} ${entry.path}`);
    t.deepEqual(reply.body, DENIED, `${entry.method} ${entry.path}`);
  }
});

test('the permission matrix: on every route a member without its keys gets the exact 403 from layer 5, and one holding them passes', async (t) => {
  const rows = await world.workspace.permissionMatrix('tasks', { params: { key: 'lane' } });
  t.is(rows.length, manifest.authorization.length);
  t.deepEqual(rows.filter((row) => row.skipped || row.note).map((row) => [row.route, row.skipped ?? row.note]), [['DELETE /tasks/{id}', 'a named check can stand in for its keys: only the holder is proven']]);
  for (const row of rows.filter((candidate) => !candidate.note)) {
    t.deepEqual(row.without, { status: 403, body: { error: `Missing permission: ${row.keys[0]}` } }, row.route);
    t.not(row.with!.status, 403, row.route);
  }
});

test('each route answers a holder of exactly its chain (the table is the whole rule)', async (t) => {
  const board = (await owner.request('POST', '/boards', { title: 'Chains' })).body.data;
  const reader = await world.member(['tasks.boards.read']);
  t.is((await reader.request('GET', '/boards')).status, 200);
  t.is((await reader.request('GET', `/boards/${board.id}`)).status, 200);
  t.deepEqual((await reader.request('GET', '/tasks')).body, { error: 'Missing permission: tasks.tasks.read' });
  const wildcard = await world.member(['tasks.*']);
  t.is((await wildcard.request('POST', '/tasks', { title: 'Wild' })).status, 200);
  t.is((await wildcard.request('GET', '/schedules')).status, 200);
});

test('DELETE /tasks/{id} of a task nobody can see answers 404, not a misleading 403', async (t) => {
  const bare = await world.member([]);
  const reply = await bare.request('DELETE', `/tasks/${SOME_ID}`);
  t.is(reply.status, 404);
  t.deepEqual(reply.body, { error: `Task ${SOME_ID} not found` });
  const task = (await owner.request('POST', '/tasks', { title: 'Owned' })).body.data;
  t.deepEqual((await bare.request('DELETE', `/tasks/${task.id}`)).body, { error: 'Cannot delete this task' });
});

test('the owner passes every chain without any role', async (t) => {
  t.is((await owner.request('GET', '/tasks')).status, 200);
  t.is((await owner.request('GET', '/views')).status, 200);
});

test('API keys: a full-access key acts with its member\'s permissions; a scoped key with its scopes alone', async (t) => {
  const reader = await world.member(['tasks.tasks.read']);
  const full = await reader.apiKey();
  t.is((await full.get('/tasks')).status, 200);
  t.deepEqual((await full.post('/tasks', { title: 'x' })).body, { error: 'Missing permission: tasks.tasks.create' });

  const ownerScoped = await owner.apiKey({ scopes: ['tasks.tasks.read'] });
  t.is((await ownerScoped.get('/tasks')).status, 200);
  t.deepEqual((await ownerScoped.post('/tasks', { title: 'x' })).body, { error: 'Missing permission: tasks.tasks.create' }, 'a scoped key has no admin bypass');
  const elsewhere = await owner.apiKey({ scopes: [] });
  const refused = await elsewhere.get('/tasks');
  t.is(refused.status, 403);
  t.deepEqual(refused.body, DENIED);
});

test('the creator check works for an API key too: a scoped key of the creator deletes its own task, not another', async (t) => {
  const creator = await world.member(['tasks.tasks.create', 'tasks.tasks.read']);
  const own = (await creator.post('/tasks', { title: 'Keyed' })).body.data;
  const foreign = (await owner.post('/tasks', { title: 'Not yours' })).body.data;
  const key = await creator.apiKey({ scopes: ['tasks.tasks.read'] });
  t.deepEqual((await key.delete(`/tasks/${foreign.id}`)).body, { error: 'Cannot delete this task' });
  const deleted = await key.delete(`/tasks/${own.id}`);
  t.is(deleted.status, 200);
  t.deepEqual(deleted.body.data, { id: own.id, deleted: true });
});
