import test from 'ava';
import { startWorld, type Caller, type World } from './helpers/world.js';

let world: World;
let owner: Caller;

const ok = async (reply: Promise<{ status: number; body: any }>) => {
  const answer = await reply;
  if (answer.status !== 200) throw new Error(`${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data;
};

test.before(async () => {
  world = await startWorld('subscriber');
  owner = world.owner;
});

test.after.always(async () => {
  await world?.close();
});

/** What the app holds about a member, for before/after comparisons. */
const snapshot = async (memberId: string) => ({
  assignments: await world.query('SELECT task_id, member_id, assigned_by FROM app_tasks.task_assignees WHERE member_id = :memberId ORDER BY task_id', { memberId }),
  boards: await world.query('SELECT board_id, role FROM app_tasks.board_members WHERE member_id = :memberId ORDER BY board_id', { memberId }),
  directory: await world.query('SELECT member_id, removed_at, removed_by, updated_at FROM app_tasks.member_directory WHERE member_id = :memberId', { memberId }),
});

test.serial('core.account.member.removed unassigns the member from open tasks of that workspace only; the same delivery twice changes nothing the second time', async (t) => {
  const leaving = await world.member(['tasks.tasks.read']);
  const staying = await world.member(['tasks.tasks.read']);
  const board = await ok(owner.request('POST', '/boards', { title: 'Team' }));
  await ok(owner.request('POST', `/boards/${board.id}/members`, { member_id: leaving.id, role: 'editor' }));
  const open1 = await ok(owner.request('POST', '/tasks', { title: 'Open 1', assignee_ids: [leaving.id, staying.id] }));
  const open2 = await ok(owner.request('POST', '/tasks', { title: 'Open 2', board_id: board.id, assignee_ids: [leaving.id] }));
  const done = await ok(owner.request('POST', '/tasks', { title: 'Done', assignee_ids: [leaving.id] }));
  await ok(owner.request('POST', `/tasks/${done.id}/completion`));
  const elsewhere = await world.otherWorkspace('subscriber-other');
  const foreign = await ok(elsewhere.owner.request('POST', '/tasks', { title: 'Foreign', assignee_ids: [leaving.id] }));
  world.takeEvents();

  const removal = { member_id: leaving.id, removed_by: owner.id };
  await world.deliver('core.account.member.removed', removal);
  t.deepEqual(world.takeEvents(), [open1.id, open2.id].map((id) => ({ action: 'core.tasks.task.unassigned', payload: { task_id: id, assignee_mrn: leaving.mrn }, workspaceId: world.workspaceId })));
  t.deepEqual((await ok(owner.request('GET', `/tasks/${open1.id}`))).assignee_ids, [staying.id]);
  t.deepEqual((await ok(owner.request('GET', `/tasks/${open2.id}`))).assignee_ids, []);
  t.deepEqual((await ok(owner.request('GET', `/tasks/${done.id}`))).assignee_ids, [leaving.id], 'a completed task keeps who worked on it');
  t.deepEqual((await ok(elsewhere.owner.request('GET', `/tasks/${foreign.id}`))).assignee_ids, [leaving.id], 'another workspace is untouched');
  const members = await ok(owner.request('GET', `/boards/${board.id}/members`));
  t.deepEqual(members.map((row: { member_id: string }) => row.member_id), [owner.id]);

  const before = await snapshot(leaving.id);
  t.is(before.directory.length, 1);
  await world.deliver('core.account.member.removed', removal);
  t.deepEqual(world.takeEvents(), [], 'a redelivery emits nothing');
  t.deepEqual(await snapshot(leaving.id), before, 'a redelivery changes nothing');
});

test.serial('a member the app knows as removed cannot be assigned or added to a board; member.added brings them back', async (t) => {
  const member = await world.member(['tasks.tasks.read']);
  const task = await ok(owner.request('POST', '/tasks', { title: 'Later' }));
  const board = await ok(owner.request('POST', '/boards', { title: 'Later board' }));
  await world.deliver('core.account.member.removed', { member_id: member.id, removed_by: owner.id });
  world.takeEvents();
  const refused = await owner.request('POST', `/tasks/${task.id}/assignees`, { member_id: member.id });
  t.is(refused.status, 400);
  t.deepEqual(refused.body, { error: `member_id ${member.id} is no longer a member of this workspace` });
  t.deepEqual((await owner.request('POST', '/tasks', { title: 'x', assignee_ids: [member.id] })).body, { error: `assignee_ids ${member.id} is no longer a member of this workspace` });
  t.deepEqual((await owner.request('POST', `/boards/${board.id}/members`, { member_id: member.id, role: 'viewer' })).body, { error: `member_id ${member.id} is no longer a member of this workspace` });
  t.deepEqual(world.takeEvents(), []);

  await world.deliver('system.workspace.member.added', { member_id: member.id, role: 'member' });
  await world.deliver('system.workspace.member.added', { member_id: member.id, role: 'member' });
  t.is((await owner.request('POST', `/tasks/${task.id}/assignees`, { member_id: member.id })).status, 200);
});

test.serial('a payload the catalog refuses never reaches the handler: the broker rejects the event', async (t) => {
  world.takeEvents();
  const before = await world.query('SELECT count(*)::int AS n FROM app_tasks.member_directory');
  await t.throwsAsync(world.deliver('core.account.member.removed', { removed_by: owner.id }), { message: "core.account.member.removed: the broker would reject this event: payload must have required property 'member_id'" });
  await t.throwsAsync(world.deliver('core.account.member.removed', { member_id: 'not-an-id' }), { message: 'core.account.member.removed: the broker would reject this event: payload/member_id must match format "uuid"' });
  t.deepEqual(await world.query('SELECT count(*)::int AS n FROM app_tasks.member_directory'), before);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('end to end: removing a member through the platform emits core.account.member.removed, whose payload the handler takes as is', async (t) => {
  const leaving = await world.member(['tasks.tasks.read']);
  const task = await ok(owner.request('POST', '/tasks', { title: 'Handover', assignee_ids: [leaving.id] }));
  world.takeEvents();
  const removed = await owner.request('DELETE', `/members/${leaving.id}`);
  t.is(removed.status, 200);
  // The harness captures the platform's own events too.
  const event = world.platform.emitted('core.account.member.removed').find((candidate) => candidate.payload.member_id === leaving.id)!;
  t.like(event, { emitter: 'account', payload: { member_id: leaving.id, removed_by: owner.id }, workspaceId: world.workspaceId });
  world.takeEvents();
  await world.deliver('core.account.member.removed', event.payload, event.workspaceId!);
  t.deepEqual(world.takeEvents(), [{ action: 'core.tasks.task.unassigned', payload: { task_id: task.id, assignee_mrn: leaving.mrn }, workspaceId: world.workspaceId }]);
  t.deepEqual((await ok(owner.request('GET', `/tasks/${task.id}`))).assignee_ids, []);
});

test.serial('a workspace where the app is not installed skips the delivery', async (t) => {
  const bare = await world.platform.workspace('subscriber-bare');
  t.deepEqual(await world.platform.deliver(bare.id, 'core.account.member.removed', { member_id: owner.id, removed_by: owner.id }), { tasks: 'skipped' });
});

/** Waits until `count` sessions of this database wait for a lock (PostgreSQL only). */
async function sessionsWaitingOnLocks(count: number): Promise<void> {
  for (;;) {
    const [{ n }] = await world.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
    if (n >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test.serial('two deliveries of one removal at once (signed, through the handler route) both succeed: the member is removed once, each open task unassigned once', async (t) => {
  const leaving = await world.member(['tasks.tasks.read']);
  const open1 = await ok(owner.request('POST', '/tasks', { title: 'Race 1', assignee_ids: [leaving.id] }));
  const open2 = await ok(owner.request('POST', '/tasks', { title: 'Race 2', assignee_ids: [leaving.id, owner.id] }));
  world.takeEvents();
  const { sequelize } = world.platform.runtime.db;
  // On PostgreSQL the race is forced as it happened: a lock on the directory holds both
  // deliveries at their first write, after any look-up they make, until both are there. (The
  // embedded database runs one statement at a time: there the two simply run at once.)
  const gate = world.platform.runtime.db.isEmbedded ? null : await sequelize.transaction();
  if (gate) await sequelize.query('LOCK TABLE app_tasks.member_directory IN SHARE MODE', { transaction: gate });
  const removal = { member_id: leaving.id, removed_by: owner.id };
  // Each goes the broker's way: signed, POSTed to the app's handler route.
  const deliveries = [world.platform.deliver(world.workspaceId, 'core.account.member.removed', removal), world.platform.deliver(world.workspaceId, 'core.account.member.removed', removal)];
  if (gate) {
    await sessionsWaitingOnLocks(2);
    await gate.commit();
  }
  const answers = await Promise.all(deliveries);
  t.deepEqual(answers, [{ tasks: 'handled' }, { tasks: 'handled' }], 'neither delivery failed');

  const directory = await world.query<{ removed_by: string; removed: boolean }>('SELECT removed_by, removed_at IS NOT NULL AS removed FROM app_tasks.member_directory WHERE member_id = :id', { id: leaving.id });
  t.deepEqual(directory, [{ removed_by: owner.id, removed: true }]);
  t.deepEqual((await ok(owner.request('GET', `/tasks/${open1.id}`))).assignee_ids, []);
  t.deepEqual((await ok(owner.request('GET', `/tasks/${open2.id}`))).assignee_ids, [owner.id]);
  const unassigned = await world.query<{ task_id: string }>(
    "SELECT payload->>'task_id' AS task_id FROM platform.events WHERE action = 'core.tasks.task.unassigned' AND payload->>'assignee_mrn' = :mrn ORDER BY seq",
    { mrn: leaving.mrn },
  );
  t.deepEqual(unassigned.map((row) => row.task_id), [open1.id, open2.id], 'one task.unassigned per task, not one per delivery');
  const refused = await owner.request('POST', `/tasks/${open1.id}/assignees`, { member_id: leaving.id });
  t.deepEqual([refused.status, refused.body], [400, { error: `member_id ${leaving.id} is no longer a member of this workspace` }]);
});
