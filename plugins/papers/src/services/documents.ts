import { COLLAB_EDITOR_MARKS, COLLAB_EDITOR_NODES, decodeCollabUpdate, defineCollabDocuments, type CollabDocuments, memberMrn, type RichTextNode } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import type { Models, Paper } from '../models/index.js';
import { ensureLevel, requirePaper } from './access.js';
import { imageProblem } from './images.js';
import { stagePaperMentions } from './mentions.js';
import { indexPaper } from './search-documents.js';

/** The node and mark types a paper may hold: the collaborative editor's (tiptap's starter kit, task lists, tables, images, mentions). */
export const PAPER_NODES = COLLAB_EDITOR_NODES;
export const PAPER_MARKS = COLLAB_EDITOR_MARKS;

/**
 * Papers' collaborative documents, on the SDK's editing stack: a paper's text is a Yjs
 * `XmlFragment` (`default`), the ProseMirror JSON and plain text beside it in `paper_documents`,
 * updates published on `papers/{paper_id}` as `doc.updated` after commit.
 */
export const paperDocuments: CollabDocuments<Models> = defineCollabDocuments<Models>({
  documents: 'paperDocuments',
  updates: 'paperUpdates',
  key: 'paper_id',
  channel: (id) => `papers/${id}`,
  compactAfter: (ctx) => (ctx as AnyCtx).settings.compact_after_updates,
  richText: { field: 'default', nodes: PAPER_NODES, marks: PAPER_MARKS },
  maxText: 500_000,
  // Images name the paper's own uploads (or are data URLs): nothing fetched from elsewhere.
  check: (doc, ctx, id): Promise<string | null> => imageProblem(ctx as AnyCtx, id, paperDocuments.contentOf(doc).content as RichTextNode),
});

/** A paper's document for a client: the whole Yjs state (base64) and the JSON snapshot. */
export async function readDocument(ctx: Ctx, paperId: string) {
  const { paper, level } = await requirePaper(ctx, paperId);
  const state = await paperDocuments.state(ctx, paper.id);
  const snapshot = await paperDocuments.snapshot(ctx, paper.id);
  return { paper_id: paper.id, level, update: Buffer.from(state).toString('base64'), content: snapshot?.content ?? null, text: snapshot?.text ?? '' };
}

/**
 * Applies a client's Yjs update (base64) to the paper's document: the caller must be able to edit
 * it; the update is checked (rich text of the paper's node and mark types), stored and relayed.
 */
export async function applyUpdate(ctx: Ctx, paperId: string, encoded: string) {
  const { paper, level } = await requirePaper(ctx, paperId);
  ensureLevel(ctx, level, 'edit', 'edit');
  const update = decodeUpdate(encoded);
  const result = await paperDocuments.apply(ctx, paper.id, { update }, ctx.member.id);
  if (result.content_changed) await afterEdit(ctx, paper, result.content as RichTextNode, result.text);
  await stagePaperMentions(ctx, paper, result);
  return { paper_id: paper.id, applied: result.changed, text_length: result.text.length };
}

/** A client's update (base64), decoded and checked (the SDK's `decodeCollabUpdate`). */
export const decodeUpdate = decodeCollabUpdate;

/**
 * What an edit of the text does beyond the document: the paper's edited time, an automatic version
 * when the last one is older than `auto_version_minutes`, the search index, and
 * `core.papers.paper.updated` at most once in `updated_event_seconds` (the first edit of a burst).
 */
export async function afterEdit(ctx: Ctx, paper: Paper, content: RichTextNode, text: string): Promise<void> {
  const now = new Date();
  const changes: Partial<Paper> = { edited_at: now, edited_by: ctx.member.id };
  const quiet = ctx.settings.updated_event_seconds * 1000;
  if (!paper.edited_event_at || now.getTime() - new Date(paper.edited_event_at).getTime() >= quiet) {
    changes.edited_event_at = now;
    ctx.events.stage('core.papers.paper.updated', { paper_id: paper.id, changed_fields: ['content'], updated_by: memberMrn(ctx.member.id) });
  }
  await ctx.db.papers.update(changes, { where: { id: paper.id } });
  const last = await ctx.db.versions.findOne({ where: { paper_id: paper.id }, order: [['created_at', 'DESC']], attributes: ['created_at'] });
  if (!last || now.getTime() - new Date(last.created_at).getTime() >= ctx.settings.auto_version_minutes * 60_000) {
    await ctx.db.versions.create({ paper_id: paper.id, kind: 'auto', name: null, content, text, created_by: ctx.member.id });
  }
  await indexPaper(ctx, { ...paper, ...changes }, text);
}
