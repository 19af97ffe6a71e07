/** The page tree of a space: fractional order, moves of whole subtrees, links by id, versions. */
import { ConflictError, InvalidError, keyBetween, NotFoundError, richTextFromMarkdown, richTextToMarkdown, type SearchDocument } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import type { DocNode, Page, Space } from '../models/index.js';
import { atLeast, pagesOf, requirePage, requireSpace, ruleOf, sees, type Access, type MemberCtx } from './access.js';
import { asPageContent, createDocument, decodeUpdate, ensureDocument, liveSettings, normalContent, pageDocuments, replaceContent } from './documents.js';
import { checkDoc, linkedPages, plainText } from './markdown.js';
import { stageWikiMentions } from './mentions.js';

export const EMPTY_DOC: DocNode = { type: 'doc', content: [] };

/** A page as listed (no content). */
export function presentSummary(page: Page, extra: { depth?: number; parent_hidden?: boolean } = {}) {
  return {
    id: page.id,
    space_id: page.space_id,
    parent_id: page.parent_id,
    position: page.position,
    title: page.title,
    version: page.version,
    restricted_to: page.restricted_to,
    owner_id: page.owner_id,
    review_days: page.review_days,
    verification: page.verification,
    verified_at: page.verified_at,
    due_at: page.due_at,
    watches: page.watches,
    template: page.template,
    depth: extra.depth ?? 0,
    parent_hidden: extra.parent_hidden ?? false,
    created_by: page.created_by,
    updated_by: page.updated_by,
    created_at: page.created_at,
    updated_at: page.updated_at,
  };
}

/** A page as read: its content as the JSON document and as Markdown. */
export function presentPage(page: Page, extra: { depth?: number; parent_hidden?: boolean } = {}) {
  return { ...presentSummary(page, extra), content: page.content, markdown: richTextToMarkdown(page.content) };
}

/** The members who may find a page in search (null: everyone who may search pages). */
async function readersOf(ctx: AnyCtx, space: Space, page: Page, byId: Map<string, Page>): Promise<string[] | null> {
  const rule = ruleOf(page, byId);
  if (rule === null && space.default_role !== 'none') return null;
  const members = await ctx.db.spaceMembers.findAll({ where: { space_id: space.id } });
  const admins = [space.created_by, ...members.filter((row) => row.role === 'admin').map((row) => row.member_id)];
  const base = space.default_role === 'none' ? members.map((row) => row.member_id) : null;
  const allowed = rule === null ? base! : base === null ? rule : rule.filter((id) => base.includes(id));
  return [...new Set([...admins, ...allowed])].slice(0, 1000);
}

/** The search document of a page. */
export async function pageDocument(ctx: AnyCtx, space: Space, page: Page, byId: Map<string, Page>): Promise<SearchDocument> {
  return { type: 'page', id: page.id, title: page.title, subtitle: space.name, url: `/wiki/pages/${page.id}`, names: [page.title], details: [space.name, plainText(page.content).slice(0, 2000)], readers: await readersOf(ctx, space, page, byId) };
}

/** Keeps the page's search entry in step. */
async function reindex(ctx: AnyCtx, space: Space, page: Page, byId: Map<string, Page>) {
  ctx.search.upsert(await pageDocument(ctx, space, page, byId));
}

/** A page's links as they are in its content. */
async function syncLinks(ctx: AnyCtx, page: Page) {
  await ctx.db.pageLinks.destroy({ where: { from_page_id: page.id } });
  for (const target of linkedPages(page.content)) if (target !== page.id) await ctx.db.pageLinks.create({ from_page_id: page.id, to_page_id: target, space_id: page.space_id });
}

/** Children of a parent in order. */
const childrenOf = (byId: Map<string, Page>, parentId: string | null) => [...byId.values()].filter((page) => page.parent_id === parentId).sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1));

/**
 * The pages of a space the caller sees, depth first in order, each with its depth. A page whose
 * parent the caller does not see comes at the top level with `parent_hidden` (never dropped).
 */
export async function listPages(ctx: MemberCtx, spaceId: string) {
  const { space, role } = await requireSpace(ctx, spaceId, 'view');
  const byId = await pagesOf(ctx, space.id);
  return visibleTree(ctx.member.id, role, byId);
}

/** The visible pages of a tree, depth first, with depth and parent_hidden. */
export function visibleTree(memberId: string, role: Access, byId: Map<string, Page>) {
  const out: Array<ReturnType<typeof presentSummary>> = [];
  const walk = (parentId: string | null, depth: number, parentHidden: boolean) => {
    for (const page of childrenOf(byId, parentId)) {
      const visible = sees(memberId, role, page, byId);
      if (visible) out.push(presentSummary(page, { depth, parent_hidden: parentHidden }));
      walk(page.id, visible ? depth + 1 : 0, !visible);
    }
  };
  walk(null, 0, false);
  return out;
}

/** Content from the input: a JSON document or Markdown (never both), as the editing stack stores it. */
export function contentOf(input: { content?: DocNode; markdown?: string }): DocNode | undefined {
  if (input.content !== undefined && input.markdown !== undefined) throw new InvalidError('Give content or markdown, not both', { field: 'markdown' });
  if (input.markdown !== undefined) return normalContent(richTextFromMarkdown(input.markdown) as DocNode);
  return input.content === undefined ? undefined : normalContent(checkDoc(input.content));
}

/** Checks a restriction names members of the workspace, once each. */
async function checkRestriction(ctx: Ctx, list: string[] | null | undefined): Promise<string[] | null | undefined> {
  if (!list) return list;
  const ids = [...new Set(list.map((id) => id.toLowerCase()))];
  await ctx.members.require(ids, 'restricted_to');
  return ids;
}

/** The parent a page goes under: a page of the same space the caller sees, or null for the top. */
async function parentIn(ctx: Ctx, space: Space, role: Access, parentId: string | null | undefined, byId: Map<string, Page>): Promise<Page | null> {
  if (!parentId) return null;
  const parent = byId.get(parentId.toLowerCase());
  if (!parent || !sees(ctx.member.id, role, parent, byId)) throw new NotFoundError(`Parent page ${parentId} not found in space ${space.name}`);
  return parent;
}

export interface PageInput {
  title: string;
  parent_id?: string | null;
  content?: DocNode;
  markdown?: string;
  restricted_to?: string[] | null;
  owner_id?: string | null;
  review_days?: number | null;
  watches?: string[];
  template?: boolean;
  template_id?: string;
}

/**
 * The content of the template page `templateId` (docs/decisions/0310-wiki-page-templates.md): a page
 * marked a template, in any space, that the caller sees; else a 400 naming template_id.
 */
async function templateContent(ctx: Ctx, templateId: string): Promise<DocNode> {
  const refuse = () => new InvalidError(`template_id: no template page ${templateId} that you can see`, { field: 'template_id' });
  const found = await requirePage(ctx, templateId, 'view').catch((error: unknown) => {
    if (error instanceof NotFoundError) throw refuse();
    throw error;
  });
  if (!found.page.template) throw new InvalidError(`template_id: page ${found.page.title} (${templateId}) is not a template`, { field: 'template_id' });
  return found.page.content;
}

/** A new page, last among its siblings (editors); emits page.created. */
export async function createPage(ctx: Ctx, spaceId: string, input: PageInput) {
  const { space, role } = await requireSpace(ctx, spaceId, 'edit', 'update');
  const byId = await pagesOf(ctx, space.id);
  const parent = await parentIn(ctx, space, role, input.parent_id, byId);
  const given = contentOf(input);
  if (given !== undefined && input.template_id) throw new InvalidError('Give content, markdown or template_id, not two', { field: 'template_id' });
  const content = given ?? (input.template_id ? await templateContent(ctx, input.template_id) : EMPTY_DOC);
  const restricted = await checkRestriction(ctx, input.restricted_to);
  if (input.owner_id) await ctx.members.require([input.owner_id], 'owner_id');
  const last = childrenOf(byId, parent?.id ?? null).at(-1);
  const page = await ctx.db.pages.create({
    space_id: space.id,
    parent_id: parent?.id ?? null,
    position: keyBetween(last?.position ?? null, null),
    title: input.title,
    content,
    version: 1,
    restricted_to: restricted ?? null,
    owner_id: input.owner_id?.toLowerCase() ?? null,
    review_days: input.review_days ?? null,
    verification: 'unverified',
    verified_at: null,
    due_at: null,
    watches: [...new Set(input.watches ?? [])],
    template: input.template ?? false,
    created_by: ctx.member.id,
    updated_by: ctx.member.id,
  });
  byId.set(page.id, page);
  await createDocument(ctx, page.id, content);
  await ctx.db.pageVersions.create({ page_id: page.id, version: 1, title: page.title, content, created_by: ctx.member.id });
  await syncLinks(ctx, page);
  await reindex(ctx, space, page, byId);
  ctx.events.stage('core.wiki.page.created', { page_id: page.id, space_id: space.id, parent_id: page.parent_id, title: page.title, by: ctx.member.mrn });
  await stageWikiMentions(ctx, space, page, byId, null);
  return presentPage(page, { depth: depthOf(page, byId) });
}

const depthOf = (page: Page, byId: Map<string, Page>) => {
  let depth = 0;
  for (let at = page.parent_id ? byId.get(page.parent_id) : undefined; at; at = at.parent_id ? byId.get(at.parent_id) : undefined) depth += 1;
  return depth;
};

/** True when the page's parent exists but the caller does not see it. */
const parentHidden = (memberId: string, role: Access, page: Page, byId: Map<string, Page>) => {
  const parent = page.parent_id ? byId.get(page.parent_id) : undefined;
  return Boolean(parent) && !sees(memberId, role, parent!, byId);
};

/** A page the caller sees, with its content. */
export async function readPage(ctx: Ctx, pageId: string) {
  const { page, role, byId } = await requirePage(ctx, pageId, 'view');
  return presentPage(page, { depth: depthOf(page, byId), parent_hidden: parentHidden(ctx.member.id, role, page, byId) });
}

export interface PagePatch extends Partial<PageInput> {
  version?: number;
}

/**
 * Changes a page (editors). A change of title or content names the version it read: a stale one
 * is a 409 naming the current version; each such change is a new version. Emits page.updated.
 */
export async function updatePage(ctx: Ctx, pageId: string, input: PagePatch) {
  const { page, space, role, byId } = await requirePage(ctx, pageId, 'edit', 'update');
  const content = contentOf(input);
  const writesText = content !== undefined || (input.title !== undefined && input.title !== page.title);
  if (writesText && input.version === undefined) throw new InvalidError('version is required to change the title or content: the version you read', { field: 'version' });
  if (writesText && input.version !== page.version) throw new ConflictError(`Page ${page.title} changed since you read it: you read version ${input.version}, it is now version ${page.version}`, { field: 'version' });
  const changes: Partial<Page> = {};
  if (input.title !== undefined && input.title !== page.title) changes.title = input.title;
  if (content !== undefined && JSON.stringify(content) !== JSON.stringify(page.content)) changes.content = content;
  if (input.restricted_to !== undefined && JSON.stringify(input.restricted_to) !== JSON.stringify(page.restricted_to)) {
    if (!atLeast(role, 'admin') && input.restricted_to !== null && !input.restricted_to.map((id) => id.toLowerCase()).includes(ctx.member.id)) throw new InvalidError('restricted_to must name you: you would lose the page (only the space admins may)', { field: 'restricted_to' });
    changes.restricted_to = (await checkRestriction(ctx, input.restricted_to)) ?? null;
  }
  if (input.owner_id !== undefined && input.owner_id?.toLowerCase() !== page.owner_id) {
    if (input.owner_id) await ctx.members.require([input.owner_id], 'owner_id');
    changes.owner_id = input.owner_id?.toLowerCase() ?? null;
  }
  if (input.review_days !== undefined && input.review_days !== page.review_days) changes.review_days = input.review_days;
  if (input.template !== undefined && input.template !== page.template) changes.template = input.template;
  if (input.watches !== undefined) {
    const watches = [...new Set(input.watches)];
    if (JSON.stringify(watches) !== JSON.stringify(page.watches)) changes.watches = watches;
  }
  const fields = Object.keys(changes);
  if (!fields.length) return presentPage(page, { depth: depthOf(page, byId), parent_hidden: parentHidden(ctx.member.id, role, page, byId) });
  // The text changes as one server edit of the live document: whoever is editing the page receives it.
  if (changes.content !== undefined) changes.content = await replaceContent(ctx, page, changes.content);
  const textChanged = changes.title !== undefined || changes.content !== undefined;
  const version = textChanged ? page.version + 1 : page.version;
  await ctx.db.pages.update({ ...changes, version, updated_by: ctx.member.id }, { where: { id: page.id } });
  const updated: Page = { ...page, ...changes, version, updated_by: ctx.member.id, updated_at: ctx.now() };
  byId.set(updated.id, updated);
  if (textChanged) await ctx.db.pageVersions.create({ page_id: page.id, version, title: updated.title, content: updated.content, created_by: ctx.member.id });
  if (changes.content !== undefined) await syncLinks(ctx, updated);
  if (changes.restricted_to !== undefined) for (const below of subtreeOf(updated.id, byId)) await reindex(ctx, space, below, byId);
  else await reindex(ctx, space, updated, byId);
  ctx.events.stage('core.wiki.page.updated', { page_id: page.id, space_id: space.id, version, changed_fields: fields.sort(), by: ctx.member.mrn });
  if (changes.content !== undefined) await stageWikiMentions(ctx, space, updated, byId, page.content);
  return presentPage(updated, { depth: depthOf(updated, byId), parent_hidden: parentHidden(ctx.member.id, role, updated, byId) });
}

/** The page and every page below it. */
export function subtreeOf(pageId: string, byId: Map<string, Page>): Page[] {
  const out: Page[] = [];
  const walk = (id: string) => {
    const page = byId.get(id);
    if (!page) return;
    out.push(page);
    for (const child of childrenOf(byId, id)) walk(child.id);
  };
  walk(pageId);
  return out;
}

/** Deletes a page with its subtree (editors; a page with a subtree the caller partly cannot see: admins only). */
export async function deletePage(ctx: Ctx, pageId: string) {
  const { page, space, role, byId } = await requirePage(ctx, pageId, 'edit', 'update');
  const subtree = subtreeOf(page.id, byId);
  const hidden = subtree.filter((below) => !sees(ctx.member.id, role, below, byId));
  if (hidden.length) throw new ConflictError(`Page ${page.title} has ${hidden.length} page(s) below it you cannot see: only a space admin may delete it`);
  for (const below of subtree) ctx.search.remove('page', below.id);
  if (space.published && space.published_page_id && subtree.some((below) => below.id === space.published_page_id)) await ctx.db.spaces.update({ published: false, published_page_id: null, published_at: null }, { where: { id: space.id } });
  await ctx.db.pages.destroy({ where: { id: page.id } });
  return { id: page.id, deleted: true as const, pages: subtree.length };
}

/**
 * Moves a page, with its subtree, under another parent of its space (null: the top) and between
 * two siblings (after_id, before_id; neither: last). Under itself or its own subtree is refused
 * naming the page it would go under. Emits page.moved.
 */
export async function movePage(ctx: Ctx, pageId: string, input: { parent_id?: string | null; after_id?: string | null; before_id?: string | null }) {
  const { page, space, role, byId } = await requirePage(ctx, pageId, 'edit', 'update');
  const parentId = input.parent_id === undefined ? page.parent_id : input.parent_id;
  const parent = await parentIn(ctx, space, role, parentId, byId);
  if (parent) {
    for (let at: Page | undefined = parent; at; at = at.parent_id ? byId.get(at.parent_id) : undefined) {
      if (at.id === page.id) throw new ConflictError(parent.id === page.id ? `Page ${page.title} cannot move under itself` : `Page ${page.title} cannot move under ${parent.title} (${parent.id}): it is below ${page.title}, the move would make a cycle`, { field: 'parent_id' });
    }
  }
  const siblings = childrenOf(byId, parent?.id ?? null).filter((sibling) => sibling.id !== page.id);
  const find = (id: string, field: string) => {
    const at = siblings.findIndex((sibling) => sibling.id === id.toLowerCase());
    if (at < 0) throw new InvalidError(`${field}: page ${id} is not a sibling under ${parent ? parent.title : 'the top of the space'}`, { field });
    return at;
  };
  let index = siblings.length;
  if (input.after_id && input.before_id) throw new InvalidError('Give after_id or before_id, not both', { field: 'before_id' });
  if (input.after_id) index = find(input.after_id, 'after_id') + 1;
  else if (input.before_id) index = find(input.before_id, 'before_id');
  const position = keyBetween(siblings[index - 1]?.position ?? null, siblings[index]?.position ?? null);
  await ctx.db.pages.update({ parent_id: parent?.id ?? null, position, updated_by: ctx.member.id }, { where: { id: page.id } });
  const moved: Page = { ...page, parent_id: parent?.id ?? null, position, updated_by: ctx.member.id, updated_at: ctx.now() };
  byId.set(moved.id, moved);
  for (const below of subtreeOf(moved.id, byId)) await reindex(ctx, space, below, byId);
  ctx.events.stage('core.wiki.page.moved', { page_id: page.id, space_id: space.id, from_parent_id: page.parent_id, parent_id: moved.parent_id, position, pages: subtreeOf(moved.id, byId).length, by: ctx.member.mrn });
  return presentPage(moved, { depth: depthOf(moved, byId), parent_hidden: parentHidden(ctx.member.id, role, moved, byId) });
}

/** The pages the caller sees that link to a page, by title. */
export async function backlinks(ctx: Ctx, pageId: string) {
  const { page } = await requirePage(ctx, pageId, 'view');
  const links = await ctx.db.pageLinks.findAll({ where: { to_page_id: page.id } });
  const out = [];
  for (const link of links) {
    const from = await requirePage(ctx, link.from_page_id, 'view').catch(() => null);
    if (from) out.push(presentSummary(from.page, { depth: depthOf(from.page, from.byId), parent_hidden: parentHidden(ctx.member.id, from.role, from.page, from.byId) }));
  }
  return out.sort((a, b) => a.title.localeCompare(b.title) || a.id.localeCompare(b.id));
}

/** Links of the space's pages (those the caller sees) to pages that no longer exist. */
export async function brokenLinks(ctx: Ctx, spaceId: string) {
  const { space, role } = await requireSpace(ctx, spaceId, 'view');
  const byId = await pagesOf(ctx, space.id);
  const links = await ctx.db.pageLinks.findAll({ where: { space_id: space.id }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  const targets = [...new Set(links.map((link) => link.to_page_id))];
  const existing = new Set(targets.length ? (await ctx.db.pages.findAll({ where: { id: targets }, attributes: ['id'] })).map((row) => row.id) : []);
  return links
    .filter((link) => !existing.has(link.to_page_id) && sees(ctx.member.id, role, byId.get(link.from_page_id)!, byId))
    .map((link) => ({ page_id: link.from_page_id, title: byId.get(link.from_page_id)!.title, target_page_id: link.to_page_id }))
    .sort((a, b) => a.title.localeCompare(b.title) || a.target_page_id.localeCompare(b.target_page_id));
}

/** A page's versions, newest first. */
export async function listVersions(ctx: Ctx, pageId: string) {
  const { page } = await requirePage(ctx, pageId, 'view');
  const rows = await ctx.db.pageVersions.findAll({ where: { page_id: page.id }, order: [['version', 'DESC']] });
  return rows.map((row) => ({ page_id: row.page_id, version: row.version, title: row.title, created_by: row.created_by, created_at: row.created_at }));
}

/** A stored version of the page; its current version is always one (live edits store a row only every auto_version_minutes). */
async function versionOf(ctx: Ctx, page: Page, version: number): Promise<{ version: number; title: string; content: DocNode }> {
  if (version === page.version) return { version: page.version, title: page.title, content: page.content };
  const row = await ctx.db.pageVersions.findOne({ where: { page_id: page.id, version } });
  if (!row) throw new NotFoundError(`Version ${version} of page ${page.title} not found`);
  return row;
}

/** The Markdown lines of one version against another (`to`, the current one unless given): kept, added, removed. */
export async function diffVersions(ctx: Ctx, pageId: string, version: number, to?: number) {
  const { page } = await requirePage(ctx, pageId, 'view');
  const from = await versionOf(ctx, page, version);
  const target = await versionOf(ctx, page, to ?? page.version);
  return { page_id: page.id, from: from.version, to: target.version, title: from.title === target.title ? null : { from: from.title, to: target.title }, lines: lineDiff(linesOf(from.content), linesOf(target.content)) };
}

const linesOf = (doc: DocNode) => {
  const text = richTextToMarkdown(doc).replace(/\n$/, '');
  return text ? text.split('\n') : [];
};

/** A line diff by the longest common subsequence. */
export function lineDiff(a: string[], b: string[]): Array<{ op: 'keep' | 'add' | 'remove'; text: string }> {
  // Past 4 million line pairs the table would not fit: the common head and tail are kept, the rest replaced.
  if (a.length * b.length > 4_000_000) {
    let head = 0;
    while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
    let tail = 0;
    while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail += 1;
    return [
      ...a.slice(0, head).map((text) => ({ op: 'keep' as const, text })),
      ...a.slice(head, a.length - tail).map((text) => ({ op: 'remove' as const, text })),
      ...b.slice(head, b.length - tail).map((text) => ({ op: 'add' as const, text })),
      ...a.slice(a.length - tail).map((text) => ({ op: 'keep' as const, text })),
    ];
  }
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1) for (let j = b.length - 1; j >= 0; j -= 1) table[i]![j] = a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  const out: Array<{ op: 'keep' | 'add' | 'remove'; text: string }> = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ op: 'keep', text: a[i]! });
      i += 1;
      j += 1;
    }
    else if (j < b.length && (i === a.length || table[i]![j + 1]! > table[i + 1]![j]!)) out.push({ op: 'add', text: b[j++]! });
    else out.push({ op: 'remove', text: a[i++]! });
  }
  return out;
}

/**
 * Applies a client's Yjs update (base64) to the page's live document (editors): checked, stored,
 * relayed on `wiki/pages/{page_id}` as `doc.updated`. When it changes the text, the page takes a
 * new version (the JSON snapshot on the page, links, search, mentions); a stored version every
 * `auto_version_minutes` and `core.wiki.page.updated` at most once in `updated_event_seconds`.
 */
export async function applyPageUpdate(ctx: Ctx, pageId: string, encoded: string) {
  const update = decodeUpdate(encoded);
  // The page's row lock first, then the document's (as a REST write takes them): writers take turns.
  const { page, space, byId } = await requirePage(ctx, pageId, 'edit', 'update');
  await ensureDocument(ctx, page);
  const result = await pageDocuments.apply(ctx, page.id, { update }, ctx.member.id);
  if (!result.content_changed) return { page_id: page.id, applied: result.changed, version: page.version, text_length: result.text.length };
  const now = ctx.now();
  const version = page.version + 1;
  const content = asPageContent(result.content);
  const announce = !page.edited_event_at || now.getTime() - new Date(page.edited_event_at).getTime() >= liveSettings(ctx).updatedEventSeconds * 1000;
  const changes: Partial<Page> = { content, version, updated_by: ctx.member.id, ...(announce ? { edited_event_at: now } : {}) };
  await ctx.db.pages.update(changes, { where: { id: page.id } });
  const updated: Page = { ...page, ...changes, updated_at: now };
  byId.set(updated.id, updated);
  const last = await ctx.db.pageVersions.findOne({ where: { page_id: page.id }, order: [['version', 'DESC']], attributes: ['created_at'] });
  if (!last || now.getTime() - new Date(last.created_at).getTime() >= liveSettings(ctx).autoVersionMinutes * 60_000) {
    await ctx.db.pageVersions.create({ page_id: page.id, version, title: page.title, content, created_by: ctx.member.id });
  }
  await syncLinks(ctx, updated);
  await reindex(ctx, space, updated, byId);
  if (announce) ctx.events.stage('core.wiki.page.updated', { page_id: page.id, space_id: space.id, version, changed_fields: ['content'], by: ctx.member.mrn });
  await stageWikiMentions(ctx, space, updated, byId, asPageContent(result.content_before));
  return { page_id: page.id, applied: true, version, text_length: result.text.length };
}

/** Restores an old version as a new one (editors), naming the version read; emits page.updated. */
export async function restoreVersion(ctx: Ctx, pageId: string, version: number, read: number) {
  const { page } = await requirePage(ctx, pageId, 'edit');
  const row = await versionOf(ctx, page, version);
  return updatePage(ctx, pageId, { version: read, title: row.title, content: row.content });
}
