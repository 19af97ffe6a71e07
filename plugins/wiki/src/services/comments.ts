import { checkCommentAnchor, commentsWithStatus, ForbiddenError, InvalidError, isUuid, NotFoundError, presentCommentFields, type CommentAnchor } from '@wpk/sdk';
import type { Ctx } from '../kit.js';
import type { PageComment } from '../models/index.js';
import { atLeast, requirePage } from './access.js';
import { stageCommentMentions } from './mentions.js';

/**
 * Comment threads on a page (docs/decisions/0309-wiki-comments.md): anchors and threads as the
 * SDK's comments kit has them, the same as papers'. Members with the space's `comment` role or
 * above comment; anyone who sees the page reads the threads. Every change is published on the
 * page's channel (`wiki/pages/{page_id}`: comment.created, comment.updated, comment.deleted).
 */
export function presentComment(comment: PageComment) {
  return { id: comment.id, page_id: comment.page_id, ...presentCommentFields(comment) };
}

/** A page's comments, oldest first; `status` keeps those whose thread is open or resolved. */
export async function listComments(ctx: Ctx, pageId: string, query: { status?: 'open' | 'resolved' }) {
  const { page } = await requirePage(ctx, pageId, 'view');
  const rows = await ctx.db.pageComments.findAll({ where: { page_id: page.id }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  return commentsWithStatus(rows, query.status).map(presentComment);
}

/** Starts a thread (anchored to a range, or on the whole page) or replies to one (thread_id); emits comment.created. */
export async function createComment(ctx: Ctx, pageId: string, input: { body: string; anchor?: CommentAnchor; quote?: string; thread_id?: string }) {
  const { page, space, byId } = await requirePage(ctx, pageId, 'comment');
  let threadId: string | null = null;
  if (input.thread_id) {
    const root = await ctx.db.pageComments.findById(input.thread_id);
    if (!root || root.page_id !== page.id || root.thread_id) throw new InvalidError(`thread_id: no thread of this page starts with ${input.thread_id}`, { field: 'thread_id' });
    if (input.anchor) throw new InvalidError("anchor: a reply takes its thread's anchor; leave it out", { field: 'anchor' });
    if (input.quote) throw new InvalidError("quote: a reply takes its thread's quote; leave it out", { field: 'quote' });
    threadId = root.id;
  } else checkCommentAnchor(input.anchor);
  const comment = await ctx.db.pageComments.create({
    page_id: page.id,
    thread_id: threadId,
    body: input.body,
    anchor_from: threadId ? null : (input.anchor?.from ?? null),
    anchor_to: threadId ? null : (input.anchor?.to ?? null),
    quote: threadId ? '' : (input.quote ?? ''),
    author_id: ctx.member.id,
    edited_at: null,
    resolved_at: null,
    resolved_by: null,
  });
  ctx.events.stage('core.wiki.comment.created', { comment_id: comment.id, page_id: page.id, space_id: space.id, thread_id: threadId ?? comment.id, by: ctx.member.mrn });
  await stageCommentMentions(ctx, space, page, byId, comment, null);
  ctx.live.publish(`pages/${page.id}`, 'comment.created', { id: comment.id, thread_id: threadId ?? comment.id });
  return presentComment(comment);
}

/** The comment with its page, when the caller sees the page (else 404, as for a comment that does not exist). */
async function requireComment(ctx: Ctx, commentId: string) {
  const comment = isUuid(commentId) ? await ctx.db.pageComments.findById(commentId) : null;
  if (!comment) throw new NotFoundError(`Comment ${commentId} not found`);
  const access = await requirePage(ctx, comment.page_id, 'view').catch((error: unknown) => {
    if (error instanceof NotFoundError) throw new NotFoundError(`Comment ${commentId} not found`);
    throw error;
  });
  return { comment, ...access };
}

/** Edits one's comment's body (its author), or resolves (`resolved: true`) or reopens its thread (commenters); emits comment.updated. */
export async function updateComment(ctx: Ctx, commentId: string, input: { body?: string; resolved?: boolean }) {
  const { comment, page, space, byId } = await requireComment(ctx, commentId);
  await requirePage(ctx, page.id, 'comment');
  const changed: Array<'body' | 'resolved'> = [];
  const bodyChanges = input.body !== undefined && input.body !== comment.body;
  if (bodyChanges && comment.author_id !== ctx.member.id) throw new ForbiddenError('Only its author may edit a comment');
  const rootId = comment.thread_id ?? comment.id;
  const root = rootId === comment.id ? comment : (await ctx.db.pageComments.findById(rootId))!;
  const resolves = input.resolved !== undefined && input.resolved !== Boolean(root.resolved_at);
  if (bodyChanges) {
    await ctx.db.pageComments.update({ body: input.body!, edited_at: ctx.now() }, { where: { id: comment.id } });
    changed.push('body');
  }
  if (resolves) {
    await ctx.db.pageComments.update(input.resolved ? { resolved_at: ctx.now(), resolved_by: ctx.member.id } : { resolved_at: null, resolved_by: null }, { where: { id: rootId } });
    changed.push('resolved');
  }
  const updated = (await ctx.db.pageComments.findById(comment.id))!;
  if (changed.length === 0) return presentComment(updated);
  const resolved = Boolean((rootId === comment.id ? updated : await ctx.db.pageComments.findById(rootId))!.resolved_at);
  ctx.events.stage('core.wiki.comment.updated', { comment_id: comment.id, page_id: page.id, space_id: space.id, thread_id: rootId, changed_fields: changed, resolved, by: ctx.member.mrn });
  if (bodyChanges) await stageCommentMentions(ctx, space, page, byId, updated, comment.body);
  ctx.live.publish(`pages/${page.id}`, 'comment.updated', { id: comment.id, thread_id: rootId });
  return presentComment(updated);
}

/** Deletes a comment (its author or a space admin); a thread's first comment takes its replies along; emits comment.deleted. */
export async function deleteComment(ctx: Ctx, commentId: string) {
  const { comment, page, space, role } = await requireComment(ctx, commentId);
  if (comment.author_id !== ctx.member.id && !atLeast(role, 'admin')) throw new ForbiddenError("Only its author or the space's admins may delete a comment");
  const replies = comment.thread_id ? 0 : await ctx.db.pageComments.destroy({ where: { thread_id: comment.id } });
  await ctx.db.pageComments.destroy({ where: { id: comment.id } });
  ctx.events.stage('core.wiki.comment.deleted', { comment_id: comment.id, page_id: page.id, space_id: space.id, thread_id: comment.thread_id ?? comment.id, replies, by: ctx.member.mrn });
  ctx.live.publish(`pages/${page.id}`, 'comment.deleted', { id: comment.id, thread_id: comment.thread_id ?? comment.id });
  return { id: comment.id, deleted: true as const, replies };
}
