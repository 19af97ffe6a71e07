/**
 * Wiki pages on the SDK's editing stack (docs/decisions/0300-wiki-on-the-editing-stack.md): a
 * page's text is a Yjs `XmlFragment` (`default`) in `page_documents`, its updates in
 * `page_updates`, relayed on `wiki/pages/{page_id}` as `doc.updated` after commit. The stable
 * JSON snapshot stays on the page row too (`pages.content`, written with every change of the
 * text), so the tree, links, search, the site and export read the page alone.
 */
import { COLLAB_EDITOR_MARKS, COLLAB_EDITOR_NODES, decodeCollabUpdate, defineCollabDocuments, InvalidError, type CollabDocuments, type RichTextNode } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import type { DocNode, Models, Page } from '../models/index.js';
import { atLeast, requirePage } from './access.js';

/** The node types a page may hold: the collaborative editor's, images apart (the wiki keeps no uploads yet). */
export const PAGE_NODES = COLLAB_EDITOR_NODES.filter((type) => type !== 'image');

/** The editing stack's settings: optional (a document saved before them lacks them), so read with their defaults. */
export const liveSettings = (ctx: AnyCtx) => ({
  compactAfter: ctx.settings.compact_after_updates ?? 50,
  autoVersionMinutes: ctx.settings.auto_version_minutes ?? 10,
  updatedEventSeconds: ctx.settings.updated_event_seconds ?? 60,
});

export const pageDocuments: CollabDocuments<Models> = defineCollabDocuments<Models>({
  documents: 'pageDocuments',
  updates: 'pageUpdates',
  key: 'page_id',
  channel: (id) => `pages/${id}`,
  compactAfter: (ctx) => liveSettings(ctx as AnyCtx).compactAfter,
  richText: { field: 'default', nodes: PAGE_NODES, marks: COLLAB_EDITOR_MARKS },
  maxText: 500_000,
});

/** The snapshot's JSON as a page holds it: a document with no block keeps `content: []`. */
export const asPageContent = (content: unknown): DocNode => {
  const doc = content as DocNode;
  return doc.content ? doc : { ...doc, content: [] };
};

/** Content as the stack stores it (attrs sorted, empty attrs dropped), without storing anything. */
export function normalContent(content: DocNode): DocNode {
  return asPageContent(pageDocuments.normalize(content as RichTextNode).content);
}

/** An update's refusal named as the content's (a REST write of content, not a client's update). */
const asContentError = (error: unknown): never => {
  if (error instanceof InvalidError && error.message.startsWith('update: ')) throw new InvalidError(error.message.replace(/^update: /, 'content: '), { field: 'content' });
  throw error;
};

/**
 * The page's document, made from `pages.content` the first time it is asked for (pages written
 * before the stack; under the document's lock, so two first loads make it once).
 */
export async function ensureDocument(ctx: AnyCtx, page: Page): Promise<void> {
  if (await ctx.db.pageDocuments.count({ where: { page_id: page.id } })) return;
  await ctx.lock(`collab:pageDocuments:${page.id}`);
  if (await ctx.db.pageDocuments.count({ where: { page_id: page.id } })) return;
  await pageDocuments.create(ctx, page.id, page.content as RichTextNode).catch(asContentError);
}

/** A new page's document from its (normal) content. */
export async function createDocument(ctx: AnyCtx, pageId: string, content: DocNode): Promise<void> {
  await pageDocuments.create(ctx, pageId, content as RichTextNode).catch(asContentError);
}

/** Replaces the page's text with `content` as one server edit everyone editing it receives; answers the snapshot after. */
export async function replaceContent(ctx: Ctx, page: Page, content: DocNode): Promise<DocNode> {
  await ensureDocument(ctx, page);
  const result = await pageDocuments.replace(ctx, page.id, content as RichTextNode, ctx.member.id).catch(asContentError);
  return asPageContent(result.content);
}

/** A page's document for a client: the whole Yjs state (base64), the JSON snapshot, and whether the caller may edit it. */
export async function readDocument(ctx: Ctx, pageId: string) {
  const { page, role } = await requirePage(ctx, pageId, 'view');
  await ensureDocument(ctx, page);
  const state = await pageDocuments.state(ctx, page.id);
  const snapshot = await pageDocuments.snapshot(ctx, page.id);
  return { page_id: page.id, role, editable: atLeast(role, 'edit'), version: page.version, update: Buffer.from(state).toString('base64'), content: asPageContent(snapshot!.content), text: snapshot!.text };
}

/** Decodes a client's update (base64; a 400 naming update otherwise). */
export const decodeUpdate = decodeCollabUpdate;
