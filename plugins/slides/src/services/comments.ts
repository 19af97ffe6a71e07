import { ForbiddenError, InvalidError, isUuid, memberMrn, NotFoundError } from '@wpk/sdk';
import type { SlidesContext } from '../kit.js';
import type { Comment } from '../models/index.js';
import { requireDeck } from './decks.js';

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

export function presentComment(comment: Comment) {
  return {
    id: comment.id,
    deck_id: comment.deck_id,
    slide_id: comment.slide_id,
    element_id: comment.element_id,
    body: comment.body,
    author_id: comment.author_id,
    author_mrn: memberMrn(comment.author_id),
    resolved: comment.resolved_at !== null,
    resolved_at: iso(comment.resolved_at),
    resolved_by: comment.resolved_by,
    created_at: iso(comment.created_at),
    updated_at: iso(comment.updated_at),
  };
}

/** A deck's comments, oldest first; `slide_id` and `resolved` filter. */
export async function listComments(ctx: SlidesContext, deckId: string, query: { slide_id?: string; resolved?: boolean }) {
  const deck = await requireDeck(ctx, deckId);
  const rows = await ctx.db.comments.findAll({ where: { deck_id: deck.id, ...(query.slide_id ? { slide_id: query.slide_id } : {}) }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  return rows.filter((row) => query.resolved === undefined || (row.resolved_at !== null) === query.resolved).map(presentComment);
}

/** Comments on a slide of the deck, or on one of its elements; both must exist in the deck as it is now. */
export async function createComment(ctx: SlidesContext, deckId: string, input: { slide_id: string; element_id?: string; body: string }) {
  const deck = await requireDeck(ctx, deckId);
  const slide = deck.slides.find((one) => one.id === input.slide_id);
  if (!slide) throw new InvalidError(`slide_id ${input.slide_id} is not a slide of deck ${deck.id}`, { field: 'slide_id' });
  if (input.element_id && !slide.elements.some((element) => element.id === input.element_id)) throw new InvalidError(`element_id ${input.element_id} is not an element of slide ${slide.id}`, { field: 'element_id' });
  const comment = await ctx.db.comments.create({ deck_id: deck.id, slide_id: slide.id, element_id: input.element_id ?? null, body: input.body, author_id: ctx.member.id });
  ctx.live.publish(`decks/${deck.id}`, 'comment.created', presentComment(comment));
  return comment;
}

async function requireComment(ctx: SlidesContext, commentId: string): Promise<Comment> {
  const comment = isUuid(commentId) ? await ctx.db.comments.findById(commentId, { lock: 'update' }) : null;
  if (!comment) throw new NotFoundError(`Comment ${commentId} not found`);
  return comment;
}

/** UpdateComment: its author edits the body; anyone who may comment resolves or reopens it. */
export async function updateComment(ctx: SlidesContext, commentId: string, input: { body?: string; resolved?: boolean }) {
  const comment = await requireComment(ctx, commentId);
  if (input.body !== undefined && input.body !== comment.body && comment.author_id !== ctx.member.id) throw new ForbiddenError('Only its author edits a comment');
  const changes: Partial<Comment> = {};
  if (input.body !== undefined && input.body !== comment.body) changes.body = input.body;
  if (input.resolved !== undefined && input.resolved !== (comment.resolved_at !== null)) Object.assign(changes, input.resolved ? { resolved_at: new Date(), resolved_by: ctx.member.id } : { resolved_at: null, resolved_by: null });
  if (Object.keys(changes).length === 0) return comment;
  await ctx.db.comments.update(changes, { where: { id: comment.id } });
  const updated = (await ctx.db.comments.findById(comment.id))!;
  ctx.live.publish(`decks/${comment.deck_id}`, 'comment.updated', presentComment(updated));
  return updated;
}

/** Deletes a comment (its author, or the deck's creator). */
export async function deleteComment(ctx: SlidesContext, commentId: string): Promise<{ id: string; deleted: true }> {
  const comment = await requireComment(ctx, commentId);
  const deck = await requireDeck(ctx, comment.deck_id);
  if (comment.author_id !== ctx.member.id && deck.creator_id !== ctx.member.id) throw new ForbiddenError("Only its author or the deck's creator deletes a comment");
  await ctx.db.comments.destroy({ where: { id: comment.id } });
  ctx.live.publish(`decks/${comment.deck_id}`, 'comment.deleted', { id: comment.id });
  return { id: comment.id, deleted: true };
}
