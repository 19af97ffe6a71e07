import { memberMrn, Op } from '@wpk/sdk';
import type { TasksBaseContext } from '../kit.js';
import { emit } from './events.js';

/**
 * `core.account.member.removed`: unassigns the member from every open task of the workspace (one
 * `task.unassigned` each) and drops their board memberships. Who is a member is the platform's
 * to say (`ctx.members`); the app keeps no copy. Running it twice for one delivery changes
 * nothing the second time and emits nothing: the first run left no assignment to remove. Two
 * runs at once take turns on a lock per member, so only one finds the assignments.
 */
export async function memberRemoved(ctx: TasksBaseContext, memberId: string): Promise<{ unassigned: string[] }> {
  await ctx.lock(`member-removed:${memberId}`);
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
