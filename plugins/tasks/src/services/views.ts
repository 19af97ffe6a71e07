import { InvalidError, NotFoundError } from '@wpk/sdk';
import type { TasksContext } from '../kit.js';
import { presentView } from './present.js';

/** Saved views are personal: each member sees and deletes only their own. */

/** One page of the caller's saved views, optionally of one board, oldest first. */
export async function listViews(ctx: TasksContext, boardId?: string) {
  const { rows, count } = await ctx.db.views.findAndCountAll({
    where: { owner_id: ctx.member.id, ...(boardId ? { board_id: boardId } : {}) },
    order: [['created_at', 'ASC'], ['id', 'ASC']],
    offset: ctx.page.offset,
    limit: ctx.page.limit,
  });
  return { rows: rows.map(presentView), count };
}

/** Saves a view of a board (`board_id` and `schedule_id` must exist in the workspace). */
export async function createView(ctx: TasksContext, input: { board_id: string; name: string; tab: string; schedule_id?: string | null }) {
  const board = await ctx.db.boards.findById(input.board_id);
  if (!board) throw new InvalidError(`board_id ${input.board_id} is not a board of this workspace`);
  if (input.schedule_id && !(await ctx.db.schedules.findById(input.schedule_id))) throw new InvalidError(`schedule_id ${input.schedule_id} is not a schedule of this workspace`);
  const view = await ctx.db.views.create({ board_id: board.id, owner_id: ctx.member.id, name: input.name, tab: input.tab, schedule_id: input.schedule_id ?? null });
  return presentView(view);
}

/** Deletes one of the caller's views (another member's view is not found). */
export async function deleteView(ctx: TasksContext, viewId: string) {
  const removed = await ctx.db.views.destroy({ where: { id: viewId, owner_id: ctx.member.id } });
  if (removed === 0) throw new NotFoundError(`View ${viewId} not found`);
  return { id: viewId, deleted: true };
}
