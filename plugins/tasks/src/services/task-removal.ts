import { Op } from '@wpk/sdk';
import type { TasksBaseContext } from '../kit.js';
import { emit } from './events.js';

/**
 * Deletes tasks (their assignees, comments and deliverables go with them) and takes them out of
 * search. Tasks that survive but were blocked by one of them lose the dependency and emit
 * `task.updated` with `changed_fields: ["blocked_by"]`. Returns the ids deleted, in the order given.
 * The caller emits the deletion event itself (`task.deleted` or `task.bulk_deleted`).
 */
export async function deleteTasksOf(ctx: TasksBaseContext, taskIds: string[]): Promise<string[]> {
  if (taskIds.length === 0) return [];
  const doomed = new Set(taskIds);
  const dependents = await ctx.db.tasks.findAll({ where: { blocked_by: { [Op.in]: taskIds } }, attributes: ['id'], order: [['created_at', 'ASC'], ['id', 'ASC']] });
  const surviving = dependents.map((task) => task.id).filter((id) => !doomed.has(id));
  // Dependencies inside the deleted set go first so no row points at a deleted one mid-way.
  await ctx.db.tasks.update({ blocked_by: null }, { where: { blocked_by: { [Op.in]: taskIds } } });
  for (const id of surviving) emit(ctx, 'core.tasks.task.updated', { task_id: id, changed_fields: ['blocked_by'] });
  await ctx.db.taskAssignees.destroy({ where: { task_id: { [Op.in]: taskIds } } });
  await ctx.db.taskComments.destroy({ where: { task_id: { [Op.in]: taskIds } } });
  await ctx.db.deliverables.destroy({ where: { task_id: { [Op.in]: taskIds } } });
  await ctx.db.tasks.destroy({ where: { id: { [Op.in]: taskIds } } });
  for (const id of taskIds) ctx.search.remove('task', id);
  return taskIds;
}
