import { InvalidError, memberMrn, Op } from '@wpk/sdk';
import type { TasksBaseContext } from './context.js';
import { emit } from './events.js';

/** Refuses a member id the app's copy knows as removed from the workspace. */
export async function assertMemberPresent(ctx: TasksBaseContext, memberId: string, field = 'member_id'): Promise<void> {
  const known = await ctx.db.memberDirectory.findOne({ where: { member_id: memberId } });
  if (known?.removed_at) throw new InvalidError(`${field} ${memberId} is no longer a member of this workspace`);
}

/** `system.workspace.member.added`: the member is (again) present. Idempotent. */
export async function recordMemberAdded(ctx: TasksBaseContext, memberId: string): Promise<void> {
  const known = await ctx.db.memberDirectory.findOne({ where: { member_id: memberId } });
  if (!known) await ctx.db.memberDirectory.create({ member_id: memberId, removed_at: null, removed_by: null });
  else if (known.removed_at) await ctx.db.memberDirectory.update({ removed_at: null, removed_by: null }, { where: { member_id: memberId } });
}

/**
 * `core.account.member.removed`: remembers the member as removed, unassigns them from every open
 * task of the workspace (one `task.unassigned` each) and drops their board memberships. Running
 * it twice for one delivery changes nothing the second time and emits nothing.
 */
export async function recordMemberRemoved(ctx: TasksBaseContext, memberId: string, removedBy: string | null): Promise<{ unassigned: string[] }> {
  const known = await ctx.db.memberDirectory.findOne({ where: { member_id: memberId } });
  if (!known) await ctx.db.memberDirectory.create({ member_id: memberId, removed_at: new Date(), removed_by: removedBy });
  else if (!known.removed_at) await ctx.db.memberDirectory.update({ removed_at: new Date(), removed_by: removedBy }, { where: { member_id: memberId } });

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
