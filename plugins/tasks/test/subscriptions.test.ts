import test from 'ava';
import { ok, tasksWorld } from './helpers/world.js';

const world = await tasksWorld('subscriber');
const owner = world.owner;
test.after.always(() => world.close());

/** What the app holds about a member, for before/after comparisons. */
const snapshot = async (memberId: string) => ({
  assignments: await world.query('SELECT task_id, member_id, assigned_by FROM app_tasks.task_assignees WHERE member_id = :memberId ORDER BY task_id', { memberId }),
  boards: await world.query('SELECT board_id, role FROM app_tasks.board_members WHERE member_id = :memberId ORDER BY board_id', { memberId }),
});

test.serial('core.account.member.removed unassigns the member from open tasks of that workspace only; said once by member.released; the same delivery twice changes nothing the second time', async (t) => {
  const leaving = await world.member(['tasks.tasks.read']);
  const staying = await world.member(['tasks.tasks.read']);
  const board = await ok(owner.request('POST', '/boards', { title: 'Team' }));
  await ok(owner.request('POST', `/boards/${board.id}/members`, { member_id: leaving.id, role: 'editor' }));
  const open1 = await ok(owner.request('POST', '/tasks', { title: 'Open 1', assignee_ids: [leaving.id, staying.id] }));
  const open2 = await ok(owner.request('POST', '/tasks', { title: 'Open 2', board_id: board.id, assignee_ids: [leaving.id] }));
  const done = await ok(owner.request('POST', '/tasks', { title: 'Done', assignee_ids: [leaving.id] }));
  await ok(owner.request('POST', `/tasks/${done.id}/completion`));
  const elsewhere = await world.otherWorkspace('subscriber-other');
  const foreign = await ok(elsewhere.owner.request('POST', '/tasks', { title: 'Foreign', assignee_ids: [elsewhere.owner.id] }));
  world.takeEvents();

  const removal = { member_id: leaving.id, removed_by: owner.id };
  await world.deliver('core.account.member.removed', removal);
  t.deepEqual(world.takeEvents(), [
    ...[open1.id, open2.id].map((id) => ({ action: 'core.tasks.task.unassigned', payload: { task_id: id, assignee_mrn: leaving.mrn } })),
    { action: 'core.tasks.member.released', payload: { member_mrn: leaving.mrn, unassigned: 2 } },
  ]);
  t.deepEqual((await ok(owner.request('GET', `/tasks/${open1.id}`))).assignee_ids, [staying.id]);
  t.deepEqual((await ok(owner.request('GET', `/tasks/${open2.id}`))).assignee_ids, []);
  t.deepEqual((await ok(owner.request('GET', `/tasks/${done.id}`))).assignee_ids, [leaving.id], 'a completed task keeps who worked on it');
  // A removal delivered for this workspace touches nothing elsewhere, even naming a member there.
  await world.deliver('core.account.member.removed', { member_id: elsewhere.owner.id, removed_by: owner.id });
  t.deepEqual(world.takeEvents(), []);
  t.deepEqual((await ok(elsewhere.owner.request('GET', `/tasks/${foreign.id}`))).assignee_ids, [elsewhere.owner.id], 'another workspace is untouched');
  const members = await ok(owner.request('GET', `/boards/${board.id}/members`));
  t.deepEqual(members.map((row: { member_id: string }) => row.member_id), [owner.id]);

  const before = await snapshot(leaving.id);
  await world.deliver('core.account.member.removed', removal);
  t.deepEqual(world.takeEvents(), [], 'a redelivery emits nothing');
  t.deepEqual(await snapshot(leaving.id), before, 'a redelivery changes nothing');
});

test.serial('assignees and board members are checked against the platform: one removed a moment ago is refused at once, a newcomer accepted at once, a stranger refused (400 naming the field), with no event', async (t) => {
  const task = await ok(owner.request('POST', '/tasks', { title: 'Later' }));
  const board = await ok(owner.request('POST', '/boards', { title: 'Later board' }));
  const member = await world.member(['tasks.tasks.read']);
  t.is((await owner.request('DELETE', `/members/${member.id}`)).status, 200);
  world.takeEvents();
  // No delivery of core.account.member.removed yet: the app asks the platform, which knows.
  const refused = await owner.request('POST', `/tasks/${task.id}/assignees`, { member_id: member.id });
  t.deepEqual([refused.status, refused.body], [400, { error: `member_id ${member.id} is no longer a member of this workspace` }]);
  t.deepEqual((await owner.request('POST', '/tasks', { title: 'x', assignee_ids: [member.id] })).body, { error: `assignee_ids ${member.id} is no longer a member of this workspace` });
  t.deepEqual((await owner.request('POST', `/boards/${board.id}/members`, { member_id: member.id, role: 'viewer' })).body, { error: `member_id ${member.id} is no longer a member of this workspace` });

  const stranger = '7d0c8a52-3f0e-4c55-9d1e-0b6f4c1e2a90';
  const elsewhere = (await world.otherWorkspace('subscriber-strangers')).owner;
  for (const [id, who] of [[stranger, 'a random id'], [elsewhere.id, "another workspace's member"]]) {
    const assign = await owner.request('POST', `/tasks/${task.id}/assignees`, { member_id: id });
    t.deepEqual([assign.status, assign.body], [400, { error: `member_id ${id} is not a member of this workspace` }], who);
    const create = await owner.request('POST', '/tasks', { title: 'x', assignee_ids: [owner.id, id] });
    t.deepEqual([create.status, create.body], [400, { error: `assignee_ids ${id} is not a member of this workspace` }], who);
    const join = await owner.request('POST', `/boards/${board.id}/members`, { member_id: id, role: 'viewer' });
    t.deepEqual([join.status, join.body], [400, { error: `member_id ${id} is not a member of this workspace` }], who);
    const filter = await owner.request('GET', `/tasks?assignee_id=${id}`);
    t.deepEqual([filter.status, filter.body], [400, { error: `query parameter assignee_id ${id} is not a member of this workspace` }], who);
  }
  t.deepEqual((await ok(owner.request('GET', `/tasks/${task.id}`))).assignee_ids, []);
  t.deepEqual((await ok(owner.request('GET', `/boards/${board.id}/members`))).map((row: { member_id: string }) => row.member_id), [owner.id]);
  t.deepEqual(world.takeEvents(), [], 'a refused request emits nothing');

  // A removed member's tasks stay findable by them; a member who joined a moment ago is accepted at once.
  t.is((await owner.request('GET', `/tasks?assignee_id=${member.id}`)).status, 200);
  const newcomer = await world.member(['tasks.tasks.read']);
  const assigned = await ok(owner.request('POST', `/tasks/${task.id}/assignees`, { member_id: newcomer.id }));
  t.deepEqual(assigned.assignee_ids, [newcomer.id]);
  t.is((await owner.request('POST', `/boards/${board.id}/members`, { member_id: newcomer.id, role: 'viewer' })).status, 200);
});

test.serial('a payload the catalog refuses never reaches the handler: the broker rejects the event', async (t) => {
  world.takeEvents();
  const before = await world.query('SELECT task_id, member_id FROM app_tasks.task_assignees ORDER BY task_id, member_id');
  await t.throwsAsync(world.deliver('core.account.member.removed', { removed_by: owner.id }), { message: "core.account.member.removed: the broker would reject this event: payload must have required property 'member_id'" });
  await t.throwsAsync(world.deliver('core.account.member.removed', { member_id: 'not-an-id' }), { message: 'core.account.member.removed: the broker would reject this event: payload/member_id must match format "uuid"' });
  t.deepEqual(await world.query('SELECT task_id, member_id FROM app_tasks.task_assignees ORDER BY task_id, member_id'), before);
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
  t.like(event, { emitter: 'account', payload: { member_id: leaving.id, removed_by: owner.id } });
  world.takeEvents();
  await world.deliver('core.account.member.removed', event.payload, { workspaceId: event.workspaceId! });
  // A member removed a moment ago is still one the platform knows (a former member): released once.
  t.deepEqual(world.takeEvents(), [
    { action: 'core.tasks.task.unassigned', payload: { task_id: task.id, assignee_mrn: leaving.mrn } },
    { action: 'core.tasks.member.released', payload: { member_mrn: leaving.mrn, unassigned: 1 } },
  ]);
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

test.serial('two deliveries of one removal at once (signed, through the handler route) both succeed: each open task is unassigned once', async (t) => {
  const leaving = await world.member(['tasks.tasks.read']);
  const open1 = await ok(owner.request('POST', '/tasks', { title: 'Race 1', assignee_ids: [leaving.id] }));
  const open2 = await ok(owner.request('POST', '/tasks', { title: 'Race 2', assignee_ids: [leaving.id, owner.id] }));
  t.is((await owner.request('DELETE', `/members/${leaving.id}`)).status, 200);
  world.takeEvents();
  const { sequelize } = world.platform.runtime.db;
  // On PostgreSQL the race is forced: a lock on the assignments holds the first delivery at its
  // first write, after its look-up, while the second waits for the member's turn, until both are
  // there. (The embedded database runs one statement at a time: there the two simply run at once.)
  const gate = world.platform.runtime.db.isEmbedded ? null : await sequelize.transaction();
  if (gate) await sequelize.query('LOCK TABLE app_tasks.task_assignees IN SHARE MODE', { transaction: gate });
  const removal = { member_id: leaving.id, removed_by: owner.id };
  // Each goes the broker's way: signed, POSTed to the app's handler route.
  const deliveries = [world.platform.deliver(world.workspaceId, 'core.account.member.removed', removal), world.platform.deliver(world.workspaceId, 'core.account.member.removed', removal)];
  if (gate) {
    await sessionsWaitingOnLocks(2);
    await gate.commit();
  }
  const answers = await Promise.all(deliveries);
  t.deepEqual(answers, [{ tasks: 'handled' }, { tasks: 'handled' }], 'neither delivery failed');

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
