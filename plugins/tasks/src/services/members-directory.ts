import { InvalidError, isUuid, memberMrn, Op } from '@wpk/sdk';
import type { TasksBaseContext } from './context.js';
import { emit } from './events.js';

/** Refuses a member id the app's copy knows as removed from the workspace, and one no member can have. */
export async function assertMemberPresent(ctx: TasksBaseContext, memberId: string, field = 'member_id'): Promise<void> {
  // Member ids are the platform's UUIDs: any other string names no member.
  if (!isUuid(memberId)) throw new InvalidError(`${field} ${memberId} is not a member of this workspace`);
  const known = await ctx.db.memberDirectory.findOne({ where: { member_id: memberId } });
  if (known?.removed_at) throw new InvalidError(`${field} ${memberId} is no longer a member of this workspace`);
}

/**
 * Sets the member's row of the directory to present (`removal` null) or removed, safe under
 * concurrent deliveries for one member: the upsert inserts the row or, when it exists, returns
 * it locked until the delivery commits, so a second delivery for the member waits here and then
 * sees the first one's outcome (a look-up-then-insert let both insert, and one failed). Changes
 * an existing row only when its state differs, so a redelivery leaves it as it is.
 */
async function setDirectoryState(ctx: TasksBaseContext, memberId: string, removal: { at: Date; by: string | null } | null): Promise<void> {
  const state = { removed_at: removal?.at ?? null, removed_by: removal?.by ?? null };
  const row = await ctx.db.memberDirectory.upsert({ member_id: memberId, ...state }, { conflictFields: ['member_id'], update: [] });
  if ((row.removed_at === null) !== (removal === null)) await ctx.db.memberDirectory.update(state, { where: { member_id: memberId } });
}

/** `system.workspace.member.added`: the member is (again) present. Idempotent. */
export async function recordMemberAdded(ctx: TasksBaseContext, memberId: string): Promise<void> {
  await setDirectoryState(ctx, memberId, null);
}

/**
 * `core.account.member.removed`: remembers the member as removed, unassigns them from every open
 * task of the workspace (one `task.unassigned` each) and drops their board memberships. Running
 * it twice for one delivery changes nothing the second time and emits nothing, also when the two
 * run at once (the directory row orders them).
 */
export async function recordMemberRemoved(ctx: TasksBaseContext, memberId: string, removedBy: string | null): Promise<{ unassigned: string[] }> {
  await setDirectoryState(ctx, memberId, { at: new Date(), by: removedBy });

  const assignments = await ctx.db.taskAssignees.findAll({ where: { member_id: memberId } });
  const openTasks = assignments.length
    ? await ctx.db.tasks.findAll({ where: { id: { [Op.in]: assignments.map((row) => row.task_id) }, completed_at: null }, order: [['created_at', 'ASC'], ['id', 'ASC']] })
    : [];
  const taskIds = openTasks.map((task) => task.id);
  if (taskIds.length) {
    await ctx.db.taskAssignees.destroy({ where: { member_id: memberId, task_id: { [Op.in]: taskIds } } });
    for (const taskId of taskIds) emit(ctx, 'core.tasks.task.unassigned', { task_id: taskId, assignee_mrn: memberMrn(memberId) });
  }
  await ctx.db.boardMembers.destroy({ where: { member_id: memberId } });
  return { unassigned: taskIds };
}
