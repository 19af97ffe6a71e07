import { checkCommentAnchor, commentsWithStatus, ForbiddenError, InvalidError, memberMrn, NotFoundError } from '@wpk/sdk';
import type { Ctx } from '../kit.js';
import type { Comment } from '../models/index.js';
import { ensureLevel, requirePaper } from './access.js';
import { stageCommentMentions } from './mentions.js';

/**
 * Comment threads on a paper: anchors and threads as the SDK's comments kit has them
 * (`checkCommentAnchor`, `commentsWithStatus`), the same for the wiki's pages.
 */
export async function listComments(ctx: Ctx, paperId: string, query: { status?: 'open' | 'resolved' }) {
  const { paper } = await requirePaper(ctx, paperId);
  const rows = await ctx.db.comments.findAll({ where: { paper_id: paper.id }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  return commentsWithStatus(rows, query.status);
}

export async function createComment(ctx: Ctx, paperId: string, input: { body: string; anchor?: { from: string; to: string }; quote?: string; thread_id?: string }): Promise<Comment> {
  const { paper, level } = await requirePaper(ctx, paperId);
  ensureLevel(ctx, level, 'comment', 'comment on');
  let threadId: string | null = null;
  if (input.thread_id) {
    const root = await ctx.db.comments.findById(input.thread_id);
    if (!root || root.paper_id !== paper.id || root.thread_id) throw new InvalidError(`thread_id: no thread of this paper starts with ${input.thread_id}`);
    if (input.anchor) throw new InvalidError('anchor: a reply takes its thread\'s anchor; leave it out');
    threadId = root.id;
  } else checkCommentAnchor(input.anchor);
  const comment = await ctx.db.comments.create({
    paper_id: paper.id,
    thread_id: threadId,
    body: input.body,
    anchor_from: input.anchor?.from ?? null,
    anchor_to: input.anchor?.to ?? null,
    quote: threadId ? '' : (input.quote ?? ''),
    author_id: ctx.member.id,
  });
  ctx.events.stage('core.papers.paper.commented', { paper_id: paper.id, comment_id: comment.id, thread_id: threadId ?? comment.id, author_mrn: memberMrn(ctx.member.id) });
  await stageCommentMentions(ctx, paper, comment, null);
  ctx.live.publish(`papers/${paper.id}`, 'comment.created', { id: comment.id, thread_id: threadId ?? comment.id });
  return comment;
}

async function requireComment(ctx: Ctx, commentId: string) {
  const comment = await ctx.db.comments.findById(commentId);
  if (!comment) throw new NotFoundError(`Comment ${commentId} not found`);
  try {
    const access = await requirePaper(ctx, comment.paper_id);
    return { comment, ...access };
  } catch {
    throw new NotFoundError(`Comment ${commentId} not found`);
  }
}

/** Edits one's comment's body, or resolves (`resolved: true`) or reopens its thread. */
export async function updateComment(ctx: Ctx, commentId: string, input: { body?: string; resolved?: boolean }): Promise<Comment> {
  const { comment, paper, level } = await requireComment(ctx, commentId);
  ensureLevel(ctx, level, 'comment', 'comment on');
  if (input.body !== undefined && input.body !== comment.body) {
    if (comment.author_id !== ctx.member.id) throw new ForbiddenError('Only its author may edit a comment');
    await ctx.db.comments.update({ body: input.body, edited_at: new Date() }, { where: { id: comment.id } });
    await stageCommentMentions(ctx, paper, { id: comment.id, body: input.body }, comment.body);
  }
  if (input.resolved !== undefined) {
    const rootId = comment.thread_id ?? comment.id;
    const root = (await ctx.db.comments.findById(rootId))!;
    if (input.resolved !== Boolean(root.resolved_at)) {
      await ctx.db.comments.update(input.resolved ? { resolved_at: new Date(), resolved_by: ctx.member.id } : { resolved_at: null, resolved_by: null }, { where: { id: rootId } });
    }
  }
  ctx.live.publish(`papers/${paper.id}`, 'comment.updated', { id: comment.id });
  return (await ctx.db.comments.findById(comment.id))!;
}

/** Deletes a comment (its author, or the paper's owner); a thread's first comment takes its replies along. */
export async function deleteComment(ctx: Ctx, commentId: string) {
  const { comment, paper, level } = await requireComment(ctx, commentId);
  if (comment.author_id !== ctx.member.id && level !== 'owner') throw new ForbiddenError('Only its author or the paper\'s owner may delete a comment');
  if (!comment.thread_id) await ctx.db.comments.destroy({ where: { thread_id: comment.id } });
  await ctx.db.comments.destroy({ where: { id: comment.id } });
  ctx.live.publish(`papers/${paper.id}`, 'comment.deleted', { id: comment.id });
  return { id: comment.id, deleted: true };
}
