import { ConflictError, InvalidError, memberMrn, NotFoundError, Op, type RichTextNode } from '@wpk/sdk';
import type { Ctx } from '../kit.js';
import type { Folder, Paper } from '../models/index.js';
import { ensureLevel, levelOf, requirePaper, type Level } from './access.js';
import { paperDocuments } from './documents.js';
import { departmentsOf } from './departments.js';
import { deleteImages } from './images.js';
import { indexPaper } from './search-documents.js';

/** The caller's own folder, or 404. */
export async function requireFolder(ctx: Ctx, folderId: string, field?: string): Promise<Folder> {
  const folder = await ctx.db.folders.findById(folderId);
  if (!folder || folder.owner_id !== ctx.member.id) {
    if (field) throw new InvalidError(`${field}: no folder of yours has the id ${folderId}`);
    throw new NotFoundError(`Folder ${folderId} not found`);
  }
  return folder;
}

/** The caller's folders, by name. */
export function listFolders(ctx: Ctx) {
  return ctx.db.folders.findAll({ where: { owner_id: ctx.member.id }, order: [['name', 'ASC'], ['id', 'ASC']] });
}

export async function createFolder(ctx: Ctx, input: { name: string; parent_id?: string | null }): Promise<Folder> {
  if (input.parent_id) await requireFolder(ctx, input.parent_id, 'parent_id');
  return ctx.db.folders.create({ name: input.name, parent_id: input.parent_id ?? null, owner_id: ctx.member.id });
}

/** Renames or moves a folder; a folder never moves into itself or below itself. */
export async function updateFolder(ctx: Ctx, folderId: string, input: { name?: string; parent_id?: string | null }): Promise<Folder> {
  await ctx.lock(`folders:${ctx.member.id}`);
  const folder = await requireFolder(ctx, folderId);
  if (input.parent_id) {
    await requireFolder(ctx, input.parent_id, 'parent_id');
    const below = await ctx.db.folders.descendants({ from: [folder.id], parent: 'parent_id' });
    if (input.parent_id === folder.id || below.some((row) => row.id === input.parent_id)) throw new InvalidError('parent_id: a folder cannot move into itself or a folder inside it');
  }
  const changes: Partial<Folder> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.parent_id !== undefined) changes.parent_id = input.parent_id;
  await ctx.db.folders.update(changes, { where: { id: folder.id } });
  return { ...folder, ...changes };
}

/** Deletes an empty folder (409 while it holds papers, trashed ones included, or folders). */
export async function deleteFolder(ctx: Ctx, folderId: string) {
  const folder = await requireFolder(ctx, folderId);
  const papers = await ctx.db.papers.count({ where: { folder_id: folder.id } });
  const folders = await ctx.db.folders.count({ where: { parent_id: folder.id } });
  if (papers + folders > 0) throw new ConflictError(`Folder ${folder.id} is not empty: it holds ${papers} paper(s) and ${folders} folder(s)`);
  await ctx.db.folders.destroy({ where: { id: folder.id } });
  return { id: folder.id, deleted: true };
}

/** The ids of the papers shared with the caller (directly, through their role or the `member` role everyone is named by, or a department they are in). */
async function sharedIds(ctx: Ctx): Promise<string[]> {
  const departments = [...(await departmentsOf(ctx, ctx.member.id))];
  const byDepartment = departments.length > 0 ? [{ principal_type: 'department', principal_id: { [Op.in]: departments } }] : [];
  const rows = await ctx.db.shares.findAll({
    where: { [Op.or]: [{ principal_type: 'member', principal_id: ctx.member.id }, { principal_type: 'role', principal_id: { [Op.in]: [...new Set(['member', ctx.member.platform_role])] } }, ...byDepartment] } as never,
    attributes: ['paper_id'],
  });
  return [...new Set(rows.map((row) => row.paper_id))];
}

/**
 * The papers the caller may open, most recently changed first: `mine` (owned), `shared` (shared
 * with them) or all; in a folder; `trashed` lists the caller's trash; `q` matches the title.
 */
export async function listPapers(ctx: Ctx, query: { q?: string; folder_id?: string; scope?: 'all' | 'mine' | 'shared'; status?: 'active' | 'trashed' }) {
  const status = query.status ?? 'active';
  const where: Record<string | symbol, unknown> = { status, is_template: false };
  const manage = ctx.permissions.has('papers.papers.manage');
  const scope = query.scope ?? 'all';
  if (status === 'trashed' || scope === 'mine') where.owner_id = ctx.member.id;
  else if (scope === 'shared') where.id = { [Op.in]: await sharedIds(ctx) };
  else if (!manage) where[Op.or] = [{ owner_id: ctx.member.id }, { id: { [Op.in]: await sharedIds(ctx) } }];
  if (query.folder_id) where.folder_id = query.folder_id;
  if (query.q) where.title = { [Op.iLike]: `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` };
  const { rows, count } = await ctx.db.papers.findAndCountAll({ where: where as never, order: [['updated_at', 'DESC'], ['id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
  const levels: Level[] = await Promise.all(rows.map(async (paper) => (await levelOf(ctx, paper)) ?? 'view'));
  return { rows: rows.map((paper, index) => ({ paper, level: levels[index] })), count };
}

export async function createPaper(ctx: Ctx, input: { title: string; folder_id?: string | null; content?: RichTextNode; template?: boolean }): Promise<Paper> {
  if (input.folder_id) await requireFolder(ctx, input.folder_id, 'folder_id');
  const paper = await ctx.db.papers.create({ title: input.title, folder_id: input.folder_id ?? null, owner_id: ctx.member.id, status: 'active', is_template: input.template ?? false });
  const snapshot = await paperDocuments.create(ctx, paper.id, input.content);
  await ctx.db.versions.create({ paper_id: paper.id, kind: 'auto', name: null, content: snapshot.content, text: snapshot.text, created_by: ctx.member.id });
  ctx.events.stage('core.papers.paper.created', { paper_id: paper.id, title: paper.title, folder_id: paper.folder_id, owner_mrn: memberMrn(ctx.member.id) });
  await indexPaper(ctx, paper, snapshot.text);
  return paper;
}

/** Renames a paper (edit), moves it to another of its owner's folders or makes it a template or a paper again (owner). A PATCH that changes nothing emits nothing. */
export async function updatePaper(ctx: Ctx, paperId: string, input: { title?: string; folder_id?: string | null; template?: boolean }) {
  const { paper, level } = await requirePaper(ctx, paperId, { lock: true });
  const changes: Partial<Paper> = {};
  if (input.title !== undefined && input.title !== paper.title) {
    ensureLevel(ctx, level, 'edit', 'rename');
    changes.title = input.title;
  }
  if (input.folder_id !== undefined && input.folder_id !== paper.folder_id) {
    ensureLevel(ctx, level, 'owner', 'move');
    if (input.folder_id) {
      const folder = await ctx.db.folders.findById(input.folder_id);
      if (!folder || folder.owner_id !== paper.owner_id) throw new InvalidError(`folder_id: no folder of the paper's owner has the id ${input.folder_id}`);
    }
    changes.folder_id = input.folder_id;
  }
  if (input.template !== undefined && input.template !== paper.is_template) {
    ensureLevel(ctx, level, 'owner', 'make a template of');
    changes.is_template = input.template;
  }
  const changed = Object.keys(changes).map((key) => (key === 'is_template' ? 'template' : key)) as Array<'title' | 'folder_id' | 'template'>;
  if (changed.length === 0) return { paper, level };
  await ctx.db.papers.update(changes, { where: { id: paper.id } });
  const row = (await ctx.db.papers.findById(paper.id))!;
  ctx.events.stage('core.papers.paper.updated', { paper_id: paper.id, changed_fields: changed, updated_by: memberMrn(ctx.member.id) });
  ctx.live.publish(`papers/${paper.id}`, 'paper.updated', { id: paper.id, title: row.title, folder_id: row.folder_id });
  if (changes.title) await indexPaper(ctx, row);
  return { paper: row, level };
}

/** Moves a paper to the trash (its owner, or papers.papers.manage). */
export async function trashPaper(ctx: Ctx, paperId: string) {
  const { paper, level } = await requirePaper(ctx, paperId, { lock: true });
  ensureLevel(ctx, level, 'owner', 'delete');
  await ctx.db.papers.update({ status: 'trashed', trashed_at: new Date() }, { where: { id: paper.id } });
  ctx.events.stage('core.papers.paper.deleted', { paper_id: paper.id, title: paper.title, permanent: false, deleted_by: memberMrn(ctx.member.id) });
  ctx.search.remove('paper', paper.id);
  ctx.live.publish(`papers/${paper.id}`, 'paper.deleted', { id: paper.id, permanent: false });
  const row = (await ctx.db.papers.findById(paper.id))!;
  return { paper: row, level };
}

/** Brings a trashed paper back (its owner). */
export async function restorePaper(ctx: Ctx, paperId: string) {
  const { paper, level } = await requirePaper(ctx, paperId, { lock: true, trashed: true });
  ensureLevel(ctx, level, 'owner', 'restore');
  if (paper.status !== 'trashed') throw new ConflictError(`Paper ${paper.id} is not in the trash`);
  await ctx.db.papers.update({ status: 'active', trashed_at: null }, { where: { id: paper.id } });
  const row = (await ctx.db.papers.findById(paper.id))!;
  ctx.events.stage('core.papers.paper.updated', { paper_id: paper.id, changed_fields: ['status'], updated_by: memberMrn(ctx.member.id) });
  await indexPaper(ctx, row);
  return { paper: row, level };
}

/** Deletes a trashed paper for good, with its document, shares, links, comments and versions. */
export async function purgePaper(ctx: Ctx, paperId: string) {
  const { paper, level } = await requirePaper(ctx, paperId, { lock: true, trashed: true });
  ensureLevel(ctx, level, 'owner', 'purge');
  if (paper.status !== 'trashed') throw new ConflictError(`Paper ${paper.id} must be in the trash before it is purged (DELETE /papers/${paper.id} first)`);
  await ctx.lock(`collab:paperDocuments:${paper.id}`);
  await deleteImages(ctx, paper);
  await ctx.db.papers.destroy({ where: { id: paper.id } });
  ctx.events.stage('core.papers.paper.deleted', { paper_id: paper.id, title: paper.title, permanent: true, deleted_by: memberMrn(ctx.member.id) });
  ctx.live.publish(`papers/${paper.id}`, 'paper.deleted', { id: paper.id, permanent: true });
  return { id: paper.id, deleted: true };
}
