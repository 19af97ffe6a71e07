import { ConflictError, conflictOnDuplicate, NotFoundError } from '@wpk/sdk';
import type { BoardMember, BoardRole } from '../models/index.js';
import { requireBoard } from './boards.js';
import type { TasksContext } from '../kit.js';
import { presentBoardMember } from './present.js';

/**
 * Board members: who works on a board and as what (`owner`, `editor`, `viewer`). Roles record a
 * member's part on the board; what a member may do is decided by the app's permissions. A board
 * keeps at least one owner. The catalog has no event for these changes, so none is emitted.
 */

async function requireBoardMember(ctx: TasksContext, boardId: string, memberId: string): Promise<BoardMember> {
  const member = await ctx.db.boardMembers.findOne({ where: { board_id: boardId, member_id: memberId } });
  if (!member) throw new NotFoundError(`Member ${memberId} is not a member of board ${boardId}`);
  return member;
}

async function assertAnotherOwner(ctx: TasksContext, boardId: string, memberId: string): Promise<void> {
  // Changes of one board's owners take turns: two owners demoting (or removing) each other at
  // once would each count the other and leave the board with none.
  await ctx.lock(`board:${boardId}:owners`);
  const owners = await ctx.db.boardMembers.count({ where: { board_id: boardId, role: 'owner' } });
  const member = await requireBoardMember(ctx, boardId, memberId);
  if (member.role === 'owner' && owners <= 1) throw new ConflictError(`Board ${boardId} must keep at least one owner`);
}

/** One page of the board's members, in the order they joined. */
export async function listBoardMembers(ctx: TasksContext, boardId: string) {
  const board = await requireBoard(ctx, boardId);
  const { rows, count } = await ctx.db.boardMembers.findAndCountAll({ where: { board_id: board.id }, order: [['created_at', 'ASC'], ['member_id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
  return { rows: rows.map(presentBoardMember), count };
}

/** Adds a workspace member (the route checked they are one now) to the board with a role (409 when already there). */
export async function addBoardMember(ctx: TasksContext, boardId: string, given: { member_id: string; role: BoardRole }) {
  const board = await requireBoard(ctx, boardId);
  const input = { ...given, member_id: given.member_id.toLowerCase() };
  const existing = await ctx.db.boardMembers.findOne({ where: { board_id: board.id, member_id: input.member_id } });
  if (existing) throw new ConflictError(`Member ${input.member_id} is already a member of board ${board.id}`);
  const member = await conflictOnDuplicate(
    ctx.db.boardMembers.create({ board_id: board.id, member_id: input.member_id, role: input.role, added_by: ctx.member.id }),
    `Member ${input.member_id} is already a member of board ${board.id}`,
  );
  return presentBoardMember(member);
}

/** Changes a board member's role (the last owner stays an owner). */
export async function changeBoardMemberRole(ctx: TasksContext, boardId: string, memberId: string, role: BoardRole) {
  const board = await requireBoard(ctx, boardId);
  const member = await requireBoardMember(ctx, board.id, memberId);
  if (member.role === role) return presentBoardMember(member);
  await assertAnotherOwner(ctx, board.id, memberId);
  await ctx.db.boardMembers.update({ role }, { where: { board_id: board.id, member_id: memberId } });
  return presentBoardMember((await ctx.db.boardMembers.findOne({ where: { board_id: board.id, member_id: memberId } }))!);
}

/** Removes a member from the board (the last owner cannot be removed). */
export async function removeBoardMember(ctx: TasksContext, boardId: string, memberId: string) {
  const board = await requireBoard(ctx, boardId);
  await assertAnotherOwner(ctx, board.id, memberId);
  await ctx.db.boardMembers.destroy({ where: { board_id: board.id, member_id: memberId } });
  return { board_id: board.id, member_id: memberId, removed: true };
}
