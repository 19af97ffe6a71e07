import { isUuid } from '@wpk/sdk';
import { check } from './kit.js';

/**
 * `board_creator`: the caller created the board in the path. A check runs before validation: for
 * an id that is no uuid or names no board it passes, so the request goes on to its 400 or 404.
 */
export const boardCreator = check(async (request, ctx) => {
  const id = request.params.board_id;
  if (!isUuid(id)) return true;
  const board = await ctx.db.boards.findOne({ where: { id }, attributes: ['id', 'creator_id'] });
  return board === null || board.creator_id === ctx.member.id;
});

/** `comment_author`: the caller wrote the comment in the path (unknown ids pass on to 404). */
export const commentAuthor = check(async (request, ctx) => {
  const { board_id: boardId, comment_id: commentId } = request.params;
  if (!isUuid(boardId) || !isUuid(commentId)) return true;
  const comment = await ctx.db.comments.findOne({ where: { id: commentId, board_id: boardId }, attributes: ['id', 'author_id'] });
  return comment === null || comment.author_id === ctx.member.id;
});

/** The named checks the authorization table uses. */
export const checks = { board_creator: boardCreator, comment_author: commentAuthor };
