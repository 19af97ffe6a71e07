import test from 'ava';
import { ok, tasksWorld } from './helpers/world.js';

const world = await tasksWorld('acme');
const owner = world.owner;
test.after.always(() => world.close());

test.serial('every task gets the next key of its workspace (ACME-1, ACME-2, …), kept through moves and never reused', async (t) => {
  const board = await ok(owner.request('POST', '/boards', { title: 'Keys' }));
  const other = await ok(owner.request('POST', '/boards', { title: 'Elsewhere' }));
  const first = await ok(owner.request('POST', '/tasks', { title: 'First', board_id: board.id }));
  const second = await ok(owner.request('POST', '/tasks', { title: 'Second' }));
  t.deepEqual([first.key, first.number, second.key, second.number], ['ACME-1', 1, 'ACME-2', 2]);
  // Moving, returning and renaming keep the key.
  await ok(owner.request('PUT', `/tasks/${first.id}/board`, { board_id: other.id }));
  await ok(owner.request('DELETE', `/boards/${other.id}/tasks/${first.id}`));
  await ok(owner.request('PATCH', `/tasks/${first.id}`, { title: 'First, renamed' }));
  t.is((await ok(owner.request('GET', `/tasks/${first.id}`))).key, 'ACME-1');
  // A deleted task's number is not handed out again.
  await ok(owner.request('DELETE', `/tasks/${second.id}`));
  t.is((await ok(owner.request('POST', '/tasks', { title: 'Third' }))).key, 'ACME-3');
  // A refused creation hands out no number.
  t.is((await owner.request('POST', '/tasks', { title: 'Bad', due_date: '2026-02-30' })).status, 400);
  t.is((await ok(owner.request('POST', '/tasks', { title: 'Fourth' }))).key, 'ACME-4');
});

test.serial('tasks made at the same moment get distinct numbers', async (t) => {
  const made = await Promise.all(Array.from({ length: 8 }, (_, index) => ok(owner.request('POST', '/tasks', { title: `Burst ${index}` }))));
  const numbers = made.map((task) => task.number).sort((a, b) => a - b);
  t.deepEqual(numbers, [5, 6, 7, 8, 9, 10, 11, 12]);
  t.deepEqual(new Set(made.map((task) => task.key)).size, 8);
});

test.serial("another workspace's keys start at 1 with its own prefix", async (t) => {
  const globex = await world.otherWorkspace('globex-2');
  t.is((await ok(globex.owner.request('POST', '/tasks', { title: 'Theirs' }))).key, 'GLOBEX-1');
});

test.serial('a partial key finds its task on the first row of GET /search, above titles holding the same digits', async (t) => {
  // Decoys: a title with the digits, and keys that share the prefix.
  const decoy = await ok(owner.request('POST', '/tasks', { title: 'Plan the 12 launch steps for ACME' }));
  t.is(decoy.key, 'ACME-13');
  const search = async (q: string) => (await ok(owner.request('GET', `/search?app=tasks&types=task&q=${encodeURIComponent(q)}`))) as Array<{ id: string; title: string }>;
  for (const q of ['ACME-12', 'acme-12', 'CME-12', '12']) {
    const hits = await search(q);
    t.is(hits[0]?.id, 'ACME-12', `${q}: ${hits.map((hit) => hit.id).join(', ')}`);
  }
  const four = await search('ACME-4');
  t.is(four[0].id, 'ACME-4');
  t.is(four[0].title, 'Fourth');
});
