import { isUuid, memberMrn, NotFoundError, Op } from '@wpk/sdk';
import type { SearchDocument } from '@wpk/sdk';
import type { Board } from '../models/index.js';
import { emit, likePattern, type CanvasBaseContext, type CanvasContext } from './context.js';
import { loadDocument } from './documents.js';
import { publishToBoard } from './live.js';
import { readObjects } from './objects-model.js';
import { presentBoard } from './present.js';

/** The board, or 404 (`lock`: a row lock until the transaction ends). */
export async function requireBoard(ctx: CanvasBaseContext, boardId: string, lock?: 'update' | 'share'): Promise<Board> {
  const board = isUuid(boardId) ? await ctx.db.boards.findById(boardId, lock ? { lock } : undefined) : null;
  if (!board) throw new NotFoundError(`Board ${boardId} not found`);
  return board;
}

/** The search document of a board. */
export function boardDocument(board: Board): SearchDocument {
  return { type: 'board', id: board.id, title: board.name, subtitle: 'Board', url: `/canvas/boards/${board.id}`, names: [board.name], details: [board.description] };
}

/** Boards, most recently changed first; `q` matches the name or description. */
export async function listBoards(ctx: CanvasContext, query: { q?: string }) {
  const where = query.q ? { [Op.or]: [{ name: { [Op.iLike]: likePattern(query.q) } }, { description: { [Op.iLike]: likePattern(query.q) } }] } : {};
  return ctx.db.boards.findAndCountAll({ where, order: [['updated_at', 'DESC'], ['id', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset });
}

export async function createBoard(ctx: CanvasContext, input: { name: string; description?: string }): Promise<Board> {
  const board = await ctx.db.boards.create({ name: input.name, description: input.description ?? '', creator_id: ctx.member.id });
  ctx.search.upsert(boardDocument(board));
  emit(ctx, 'core.canvas.board.created', { board_id: board.id, name: board.name, creator_mrn: memberMrn(ctx.member.id) });
  return board;
}

/** UpdateBoard: name and description. A PATCH that changes nothing answers the board and emits nothing. */
export async function updateBoard(ctx: CanvasContext, boardId: string, input: { name?: string; description?: string }): Promise<Board> {
  const board = await requireBoard(ctx, boardId, 'update');
  const changes: Partial<Board> = {};
  if (input.name !== undefined && input.name !== board.name) changes.name = input.name;
  if (input.description !== undefined && input.description !== board.description) changes.description = input.description;
  const fields = Object.keys(changes) as Array<'name' | 'description'>;
  if (fields.length === 0) return board;
  await ctx.db.boards.update(changes, { where: { id: board.id } });
  const updated = await requireBoard(ctx, board.id);
  ctx.search.upsert(boardDocument(updated));
  emit(ctx, 'core.canvas.board.updated', { board_id: board.id, changed_fields: fields, updated_by: memberMrn(ctx.member.id) });
  publishToBoard(ctx, board.id, 'board.updated', presentBoard(updated));
  return updated;
}

/** Deletes a board with everything on it, its images and exports included. */
export async function deleteBoard(ctx: CanvasContext, boardId: string): Promise<{ id: string; deleted: true }> {
  const board = await requireBoard(ctx, boardId, 'update');
  const exported = await ctx.db.exports.findAll({ where: { board_id: board.id } });
  const { doc } = await loadDocument(ctx, board.id, true);
  const images = readObjects(doc).flatMap((object) => (object.file_key ? [object.file_key] : []));
  await ctx.db.boards.destroy({ where: { id: board.id } });
  for (const key of [...exported.map((row) => row.storage_key), ...images]) await ctx.storage.delete(key);
  ctx.search.remove('board', board.id);
  emit(ctx, 'core.canvas.board.deleted', { board_id: board.id, name: board.name, deleted_by: memberMrn(ctx.member.id) });
  publishToBoard(ctx, board.id, 'board.deleted', { id: board.id });
  return { id: board.id, deleted: true };
}
