import { ConflictError, ForbiddenError, InvalidError, memberMrn, NotFoundError, type RichTextNode } from '@wpk/sdk';
import * as Y from 'yjs';
import type { Ctx } from '../kit.js';
import type { Suggestion } from '../models/index.js';
import { ensureLevel, requirePaper } from './access.js';
import { afterEdit, decodeUpdate, paperDocuments } from './documents.js';
import { stagePaperMentions } from './mentions.js';

/**
 * Suggestion mode. A member with the level `edit` who holds `papers.papers.suggest` but not
 * `papers.papers.edit` may not change a paper (its updates are refused, 403) but may suggest: a
 * Yjs update made on their own fork of the document, checked like any update and kept apart; the
 * paper's owner (or anyone who may edit it) accepts it — merged into the live document, as Yjs
 * merges any concurrent edit — or rejects it.
 */
export async function createSuggestion(ctx: Ctx, paperId: string, input: { update: string; note?: string }): Promise<Suggestion> {
  const { paper, level } = await requirePaper(ctx, paperId);
  if (level === 'view' || level === 'comment') throw new ForbiddenError(`You may not suggest changes to this paper (it is shared with you to ${level})`);
  if (!ctx.permissions.has('papers.papers.suggest') && !ctx.permissions.has('papers.papers.edit')) throw new ForbiddenError('You may not suggest changes to this paper: papers.papers.suggest is needed');
  const update = decodeUpdate(input.update);
  const { doc } = await paperDocuments.load(ctx, paper.id);
  const before = paperDocuments.contentOf(doc);
  try {
    Y.applyUpdate(doc, update);
  } catch {
    throw new InvalidError('update: not a Yjs update (it could not be decoded)');
  }
  const after = paperDocuments.contentOf(doc);
  if (JSON.stringify(after.content) === JSON.stringify(before.content)) throw new InvalidError('update: it changes nothing in the paper');
  const roots = [...doc.share.keys()].filter((name) => name !== 'default');
  if (roots.length > 0) throw new InvalidError(`update: this document's roots are default; the update writes ${roots.map((name) => JSON.stringify(name.slice(0, 60))).join(', ')}`);
  const suggestion = await ctx.db.suggestions.create({ paper_id: paper.id, data: Buffer.from(update), note: input.note ?? '', text: after.text, author_id: ctx.member.id, status: 'open' });
  ctx.live.publish(`papers/${paper.id}`, 'suggestion.created', { id: suggestion.id, author_id: ctx.member.id });
  return suggestion;
}

export async function listSuggestions(ctx: Ctx, paperId: string, query: { status?: 'open' | 'accepted' | 'rejected' }) {
  const { paper } = await requirePaper(ctx, paperId);
  return ctx.db.suggestions.findAll({ where: { paper_id: paper.id, ...(query.status ? { status: query.status } : {}) }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
}

/** Accepts (merged into the document, as the deciding member's edit) or rejects an open suggestion; the deciding member may edit the paper. */
export async function decideSuggestion(ctx: Ctx, suggestionId: string, accept: boolean): Promise<Suggestion> {
  const found = await ctx.db.suggestions.findById(suggestionId, { lock: 'update' });
  if (!found) throw new NotFoundError(`Suggestion ${suggestionId} not found`);
  let access;
  try {
    access = await requirePaper(ctx, found.paper_id, { lock: true });
  } catch {
    throw new NotFoundError(`Suggestion ${suggestionId} not found`);
  }
  ensureLevel(ctx, access.level, 'edit', accept ? 'accept suggestions to' : 'reject suggestions to');
  if (found.status !== 'open') throw new ConflictError(`Suggestion ${found.id} was already ${found.status}`);
  if (accept) {
    const result = await paperDocuments.apply(ctx, found.paper_id, { update: new Uint8Array(found.data) }, ctx.member.id);
    if (result.content_changed) await afterEdit(ctx, access.paper, result.content as RichTextNode, result.text);
    await stagePaperMentions(ctx, access.paper, result);
  }
  await ctx.db.suggestions.update({ status: accept ? 'accepted' : 'rejected', decided_by: ctx.member.id, decided_at: new Date() }, { where: { id: found.id } });
  ctx.live.publish(`papers/${found.paper_id}`, 'suggestion.decided', { id: found.id, status: accept ? 'accepted' : 'rejected', by: memberMrn(ctx.member.id) });
  return (await ctx.db.suggestions.findById(found.id))!;
}
