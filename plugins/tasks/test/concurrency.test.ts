import test from 'ava';
import { ok, tasksWorld } from './helpers/world.js';

// The app's check-then-write rules under concurrent requests. On PostgreSQL each race is forced:
// a gate (a SHARE lock on the table the rule writes) holds the requests at their first write, or
// at the app's own lock, until both are in; then the gate opens. Without the app's lock (ctx.lock
// or a row lock) both would have checked the old state and both would write, breaking the rule.
// The embedded database runs one transaction at a time: there the requests simply queue.

const world = await tasksWorld('races');
const owner = world.owner;
test.after.always(() => world.close());

/** Runs the requests of `race` while `table` is gated (PostgreSQL), opening the gate once `waiting` sessions wait on locks. */
async function gated<T>(table: string, race: () => Array<Promise<T>>): Promise<T[]> {
  const { db } = world.platform.runtime;
  if (db.isEmbedded) return Promise.all(race());
  const gate = await db.sequelize.transaction();
  await db.sequelize.query(`LOCK TABLE ${table} IN SHARE MODE`, { transaction: gate });
  const requests = race();
  try {
    for (;;) {
      const [{ n }] = await world.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
      if (n >= requests.length) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    await gate.commit();
  }
  return Promise.all(requests);
}

test.serial('max_assignees holds when members are assigned to one task at once', async (t) => {
  t.is((await owner.request('PUT', '/apps/tasks/settings', { default_lanes: ['To do', 'Done'], default_priority: 'none', max_assignees: 1 })).status, 200);
  const [first, second] = await Promise.all([world.member(['tasks.tasks.read']), world.member(['tasks.tasks.read'])]);
  const task = await ok(owner.request('POST', '/tasks', { title: 'One pair of hands' }));
  const answers = await gated('app_tasks.task_assignees', () => [first, second].map((member) => owner.request('POST', `/tasks/${task.id}/assignees`, { member_id: member.id })));
  t.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409]);
  t.deepEqual(answers.find((answer) => answer.status === 409)!.body, { error: `Task ${task.id} already has 1 assignees, the most allowed (settings: max_assignees)` });
  t.is((await world.query('SELECT member_id FROM app_tasks.task_assignees WHERE task_id = :id', { id: task.id })).length, 1);
  t.is((await owner.request('PUT', '/apps/tasks/settings', { default_lanes: ['To do', 'In progress', 'Done'], default_priority: 'none', max_assignees: 10 })).status, 200);
});

test.serial('a board keeps an owner when its two owners step down at once', async (t) => {
  const board = await ok(owner.request('POST', '/boards', { title: 'Two captains' }));
  const other = await world.member(['tasks.tasks.read']);
  await ok(owner.request('POST', `/boards/${board.id}/members`, { member_id: other.id, role: 'owner' }));
  const answers = await gated('app_tasks.board_members', () => [owner.id, other.id].map((memberId) => owner.request('PATCH', `/boards/${board.id}/members/${memberId}`, { role: 'editor' })));
  t.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409]);
  t.deepEqual(answers.find((answer) => answer.status === 409)!.body, { error: `Board ${board.id} must keep at least one owner` });
  const owners = await world.query("SELECT member_id FROM app_tasks.board_members WHERE board_id = :id AND role = 'owner'", { id: board.id });
  t.is(owners.length, 1);
});

test.serial('two tasks cannot block each other through concurrent changes', async (t) => {
  const [a, b] = [await ok(owner.request('POST', '/tasks', { title: 'A' })), await ok(owner.request('POST', '/tasks', { title: 'B' }))];
  const answers = await gated('app_tasks.tasks', () => [owner.request('PATCH', `/tasks/${a.id}`, { blocked_by: b.id }), owner.request('PATCH', `/tasks/${b.id}`, { blocked_by: a.id })]);
  t.deepEqual(answers.map((answer) => answer.status).sort(), [200, 400]);
  const refused = answers.find((answer) => answer.status === 400)!.body.error as string;
  t.true([`blocked_by ${a.id} would create a dependency cycle`, `blocked_by ${b.id} would create a dependency cycle`].includes(refused), refused);
  const edges = await world.query<{ id: string; blocked_by: string | null }>('SELECT id, blocked_by FROM app_tasks.tasks WHERE id IN (:ids) AND blocked_by IS NOT NULL', { ids: [a.id, b.id] });
  t.is(edges.length, 1);
});
