import { memberMrn, Op } from '@wpk/sdk';
import type { TasksBaseContext } from '../kit.js';
import { emit } from './events.js';

/**
 * `core.account.member.removed`: unassigns the member from every open task of the workspace (one
 * `task.unassigned` each), drops their board memberships, and says so with `member.released`
 * (Workers ticks the offboarding items waiting for it). Who is a member is the platform's
 * to say (`ctx.members`); the app keeps no copy of them, only which removed members it released.
 * Running it twice for one delivery changes nothing the second time and emits nothing: the first
 * run left no assignment to remove and recorded the release. Two runs at once take turns on a lock
 * per member, so only one finds the assignments.
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
  // Said once per member of this workspace (a redelivery finds the release); again only when a
  // member who came back and left again had open tasks once more.
  const released = await ctx.db.memberReleases.findOne({ where: { member_id: memberId } });
  if ((!released || taskIds.length) && (await ctx.members.get(memberId))) {
    if (released) await ctx.db.memberReleases.update({ unassigned: released.unassigned + taskIds.length }, { where: { id: released.id } });
    else await ctx.db.memberReleases.create({ member_id: memberId, unassigned: taskIds.length });
    emit(ctx, 'core.tasks.member.released', { member_mrn: memberMrn(memberId), unassigned: taskIds.length });
  }
  return { unassigned: taskIds };
}
