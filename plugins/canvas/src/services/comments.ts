import { ForbiddenError, InvalidError, isUuid, memberMrn, NotFoundError, Op } from '@wpk/sdk';
import type { Comment } from '../models/index.js';
import { requireBoard } from './boards.js';
import type { CanvasContext } from '../kit.js';
import { loadDocument } from './documents.js';
import { publishToBoard } from './live.js';
import { OBJECTS_ROOT } from './objects-model.js';
import { presentComment } from './present.js';

/** The comment of the board, or 404. */
export async function requireComment(ctx: CanvasContext, boardId: string, commentId: string, lock = false): Promise<Comment> {
  const comment = isUuid(commentId) ? await ctx.db.comments.findOne({ where: { id: commentId, board_id: boardId }, ...(lock ? { lock: 'update' as const } : {}) }) : null;
  if (!comment) throw new NotFoundError(`Comment ${commentId} not found on board ${boardId}`);
  return comment;
}

/** A board's comments, oldest first; `object_id` and `resolved` filter. */
export async function listComments(ctx: CanvasContext, boardId: string, query: { object_id?: string; resolved?: boolean }) {
  const board = await requireBoard(ctx, boardId);
  const where: Record<string, unknown> = { board_id: board.id };
  if (query.object_id !== undefined) where.object_id = query.object_id;
  if (query.resolved !== undefined) where.resolved_at = query.resolved ? { [Op.ne]: null } : null;
  const { rows, count } = await ctx.db.comments.findAndCountAll({ where: where as never, order: [['created_at', 'ASC'], ['id', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset });
  return { rows: rows.map(presentComment), count };
}

/** Comments on an object that is on the board now. */
export async function createComment(ctx: CanvasContext, boardId: string, input: { object_id: string; body: string }): Promise<Comment> {
  const board = await requireBoard(ctx, boardId);
  const { doc } = await loadDocument(ctx, board.id);
  if (!doc.getMap(OBJECTS_ROOT).has(input.object_id)) throw new InvalidError(`object_id: no object ${input.object_id} on board ${board.id}`);
  const comment = await ctx.db.comments.create({ board_id: board.id, object_id: input.object_id, body: input.body, author_id: ctx.member.id });
  ctx.events.stage('core.canvas.comment.created', { board_id: board.id, comment_id: comment.id, object_id: comment.object_id, author_mrn: memberMrn(ctx.member.id) });
  publishToBoard(ctx, board.id, 'comment.created', presentComment(comment));
  return comment;
}

/**
 * UpdateComment: the author edits the body; anyone who may comment resolves or reopens. A PATCH
 * that changes nothing answers the comment and emits nothing.
 */
export async function updateComment(ctx: CanvasContext, boardId: string, commentId: string, input: { body?: string; resolved?: boolean }): Promise<Comment> {
  const board = await requireBoard(ctx, boardId);
  const comment = await requireComment(ctx, board.id, commentId, true);
  const changes: Partial<Comment> = {};
  const fields: Array<'body' | 'resolved'> = [];
  if (input.body !== undefined && input.body !== comment.body) {
    if (comment.author_id !== ctx.member.id) throw new ForbiddenError('Only its author may edit a comment');
    changes.body = input.body;
    changes.edited_at = new Date();
    fields.push('body');
  }
  if (input.resolved !== undefined && input.resolved !== (comment.resolved_at !== null)) {
    changes.resolved_at = input.resolved ? new Date() : null;
    changes.resolved_by = input.resolved ? ctx.member.id : null;
    fields.push('resolved');
  }
  if (fields.length === 0) return comment;
  await ctx.db.comments.update(changes, { where: { id: comment.id } });
  const updated = await requireComment(ctx, board.id, comment.id);
  ctx.events.stage('core.canvas.comment.updated', { board_id: board.id, comment_id: comment.id, changed_fields: fields, resolved: updated.resolved_at !== null, updated_by: memberMrn(ctx.member.id) });
  publishToBoard(ctx, board.id, 'comment.updated', presentComment(updated));
  return updated;
}

export async function deleteComment(ctx: CanvasContext, boardId: string, commentId: string): Promise<{ id: string; deleted: true }> {
  const board = await requireBoard(ctx, boardId);
  const comment = await requireComment(ctx, board.id, commentId, true);
  await ctx.db.comments.destroy({ where: { id: comment.id } });
  ctx.events.stage('core.canvas.comment.deleted', { board_id: board.id, comment_id: comment.id, deleted_by: memberMrn(ctx.member.id) });
  publishToBoard(ctx, board.id, 'comment.deleted', { id: comment.id, object_id: comment.object_id });
  return { id: comment.id, deleted: true };
}
