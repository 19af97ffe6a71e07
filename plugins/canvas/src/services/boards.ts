import { memberMrn } from '@wpk/sdk';
import { resource, type CanvasBaseContext, type CanvasContext } from '../kit.js';
import type { Board } from '../models/index.js';
import { loadDocument } from './documents.js';
import { publishToBoard } from './live.js';
import { readObjects } from './objects-model.js';
import { boardDocument, presentBoard } from './present.js';

/** Boards of the workspace: get-or-404, the list (most recently changed first, `q` over name and description), the index and the events of every write. */
export const boards = resource({
  model: 'boards',
  label: 'Board',
  order: [['updated_at', 'DESC'], ['id', 'ASC']],
  searchColumns: ['name', 'description'],
  search: { type: 'board', document: boardDocument },
  events: {
    created: (board) => ['core.canvas.board.created', { board_id: board.id, name: board.name, creator_mrn: memberMrn(board.creator_id) }],
    updated: (board, changed, ctx) => ['core.canvas.board.updated', { board_id: board.id, changed_fields: changed, updated_by: memberMrn(ctx.member!.id) }],
    deleted: (board, ctx) => ['core.canvas.board.deleted', { board_id: board.id, name: board.name, deleted_by: memberMrn(ctx.member!.id) }],
  },
});

/** The board, or 404 (`lock`: a row lock until the transaction ends). */
export function requireBoard(ctx: CanvasBaseContext, boardId: string, lock?: 'update' | 'share') {
  return boards.require(ctx, boardId, lock ? { lock } : {});
}

/** Boards, most recently changed first; `q` matches the name or description. */
export function listBoards(ctx: CanvasContext, query: { q?: string }) {
  return boards.list(ctx, { q: query.q });
}

export function createBoard(ctx: CanvasContext, input: { name: string; description?: string }): Promise<Board> {
  return boards.create(ctx, { name: input.name, description: input.description ?? '', creator_id: ctx.member.id });
}

/** UpdateBoard: name and description. A PATCH that changes nothing answers the board and emits nothing. */
export async function updateBoard(ctx: CanvasContext, boardId: string, input: { name?: string; description?: string }): Promise<Board> {
  const { row, changed } = await boards.patch(ctx, await requireBoard(ctx, boardId, 'update'), { name: input.name, description: input.description });
  if (changed.length > 0) publishToBoard(ctx, row.id, 'board.updated', presentBoard(row));
  return row;
}

/** Deletes a board with everything on it, its images and exports included. */
export async function deleteBoard(ctx: CanvasContext, boardId: string): Promise<{ id: string; deleted: true }> {
  const board = await requireBoard(ctx, boardId, 'update');
  const exported = await ctx.db.exports.findAll({ where: { board_id: board.id } });
  const { doc } = await loadDocument(ctx, board.id, true);
  const images = readObjects(doc).flatMap((object) => (object.file_key ? [object.file_key] : []));
  await boards.remove(ctx, board);
  for (const key of [...exported.map((row) => row.storage_key), ...images]) await ctx.storage.delete(key);
  publishToBoard(ctx, board.id, 'board.deleted', { id: board.id });
  return { id: board.id, deleted: true };
}
