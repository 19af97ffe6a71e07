import { ConflictError, NotFoundError } from '@wpk/sdk';
import type { TasksContext } from '../kit.js';
import { emit } from './events.js';
import { presentComment, presentDeliverable } from './present.js';
import { requireTask } from './tasks.js';

/** One page of a task's comments, oldest first. */
export async function listComments(ctx: TasksContext, taskId: string) {
  const task = await requireTask(ctx, taskId);
  const { rows, count } = await ctx.db.taskComments.findAndCountAll({ where: { task_id: task.id }, order: [['created_at', 'ASC'], ['id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
  return { rows: rows.map(presentComment), count };
}

/** Adds the caller's comment to a task. Emits `task.commented`. */
export async function addComment(ctx: TasksContext, taskId: string, body: string) {
  const task = await requireTask(ctx, taskId);
  const comment = await ctx.db.taskComments.create({ task_id: task.id, author_id: ctx.member.id, body });
  emit(ctx, 'core.tasks.task.commented', { task_id: task.id, comment_id: comment.id, commenter_mrn: ctx.member.mrn }, task.board_id);
  return presentComment(comment);
}

/** One page of a task's deliverables, oldest first. */
export async function listDeliverables(ctx: TasksContext, taskId: string) {
  const task = await requireTask(ctx, taskId);
  const { rows, count } = await ctx.db.deliverables.findAndCountAll({ where: { task_id: task.id }, order: [['created_at', 'ASC'], ['id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
  return { rows: rows.map(presentDeliverable), count };
}

/** Adds a deliverable to a task (no event: the catalog announces only its delivery). */
export async function addDeliverable(ctx: TasksContext, taskId: string, input: { title: string; url?: string | null }) {
  const task = await requireTask(ctx, taskId);
  const deliverable = await ctx.db.deliverables.create({ task_id: task.id, title: input.title, url: input.url ?? null, creator_id: ctx.member.id, delivered_at: null, delivered_by: null });
  return presentDeliverable(deliverable);
}

/** Marks a deliverable delivered (409 when it already is). Emits `deliverable.delivered`. */
export async function deliver(ctx: TasksContext, taskId: string, deliverableId: string) {
  const task = await requireTask(ctx, taskId);
  const deliverable = await ctx.db.deliverables.findOne({ where: { id: deliverableId, task_id: task.id } });
  if (!deliverable) throw new NotFoundError(`Deliverable ${deliverableId} not found on task ${task.id}`);
  if (deliverable.delivered_at) throw new ConflictError(`Deliverable ${deliverable.id} is already delivered`);
  await ctx.db.deliverables.update({ delivered_at: new Date(), delivered_by: ctx.member.id }, { where: { id: deliverable.id } });
  emit(ctx, 'core.tasks.deliverable.delivered', { deliverable_id: deliverable.id });
  return presentDeliverable((await ctx.db.deliverables.findById(deliverable.id))!);
}
