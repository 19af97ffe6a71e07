import { isUuid } from '@wpk/sdk';
import { check } from './kit.js';

/**
 * `task_creator`: the caller created the task in the path (`DELETE /tasks/{id}`). A check runs
 * before validation and before the handler: for an id that is not a uuid or names no task it
 * passes, so the request goes on to answer 400 or 404 instead of a misleading 403.
 */
export const taskCreator = check(async (request, ctx) => {
  const id = request.params.id;
  if (typeof id !== 'string' || !isUuid(id)) return true;
  const task = await ctx.db.tasks.findOne({ where: { id }, attributes: ['id', 'creator_id'] });
  return task === null || task.creator_id === ctx.member.id;
});

/** The named checks the authorization table uses. */
export const checks = { task_creator: taskCreator };
