import { InvalidError, memberMrn, NotFoundError, type RichTextNode } from '@wpk/sdk';
import type { Ctx } from '../kit.js';
import type { Version } from '../models/index.js';
import { ensureLevel, requirePaper } from './access.js';
import { afterEdit, paperDocuments } from './documents.js';
import { stagePaperMentions } from './mentions.js';

/** A paper's versions, newest first: automatic ones (an edit after `auto_version_minutes`), named ones and restores. */
export async function listVersions(ctx: Ctx, paperId: string) {
  const { paper } = await requirePaper(ctx, paperId);
  return ctx.db.versions.findAll({ where: { paper_id: paper.id }, order: [['created_at', 'DESC'], ['id', 'ASC']], attributes: ['id', 'paper_id', 'kind', 'name', 'created_by', 'created_at', 'updated_at'] });
}

/** Names the paper's current state (edit). */
export async function createVersion(ctx: Ctx, paperId: string, input: { name: string }): Promise<Version> {
  const { paper, level } = await requirePaper(ctx, paperId);
  ensureLevel(ctx, level, 'edit', 'name a version of');
  await ctx.lock(`collab:paperDocuments:${paper.id}`);
  const snapshot = (await paperDocuments.snapshot(ctx, paper.id))!;
  return ctx.db.versions.create({ paper_id: paper.id, kind: 'named', name: input.name, content: snapshot.content, text: snapshot.text, created_by: ctx.member.id });
}

async function requireVersion(ctx: Ctx, paperId: string, versionId: string, field?: string): Promise<Version> {
  const version = await ctx.db.versions.findById(versionId);
  if (!version || version.paper_id !== paperId) {
    if (field) throw new InvalidError(`${field}: no version of this paper has the id ${versionId}`);
    throw new NotFoundError(`Version ${versionId} not found`);
  }
  return version;
}

/** One line of a diff. */
export interface DiffLine {
  op: 'equal' | 'insert' | 'delete';
  text: string;
}

/** The line diff from `a` to `b` (longest common subsequence of lines). */
export function diffLines(a: string, b: string): DiffLine[] {
  const x = a === '' ? [] : a.split('\n');
  const y = b === '' ? [] : b.split('\n');
  const n = x.length;
  const m = y.length;
  const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i -= 1) for (let j = m - 1; j >= 0; j -= 1) table[i][j] = x[i] === y[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] === y[j]) {
      out.push({ op: 'equal', text: x[i] });
      i += 1;
      j += 1;
    } else if (i < n && (j >= m || table[i + 1][j] >= table[i][j + 1])) {
      out.push({ op: 'delete', text: x[i] });
      i += 1;
    } else {
      out.push({ op: 'insert', text: y[j] });
      j += 1;
    }
  }
  return out;
}

/** The text diff from a version to another (`to`) or to the paper as it is now (`to` absent or `current`). */
export async function diffVersion(ctx: Ctx, paperId: string, versionId: string, to?: string) {
  const { paper } = await requirePaper(ctx, paperId);
  const from = await requireVersion(ctx, paper.id, versionId);
  const target = to && to !== 'current' ? await requireVersion(ctx, paper.id, to, 'to') : null;
  const text = target ? target.text : ((await paperDocuments.snapshot(ctx, paper.id))?.text ?? '');
  if (from.text.split('\n').length * text.split('\n').length > 25_000_000) throw new InvalidError('to: these versions are too long to compare line by line');
  const lines = diffLines(from.text, text);
  return {
    from: from.id,
    to: target ? target.id : 'current',
    lines,
    inserted: lines.filter((line) => line.op === 'insert').length,
    deleted: lines.filter((line) => line.op === 'delete').length,
  };
}

/**
 * Brings the paper's text back to a version (edit): one server edit of the live document (everyone
 * editing receives it), recorded as a `restore` version; `core.papers.paper.updated` at once.
 */
export async function restoreVersion(ctx: Ctx, paperId: string, versionId: string): Promise<Version> {
  const { paper, level } = await requirePaper(ctx, paperId, { lock: true });
  ensureLevel(ctx, level, 'edit', 'restore');
  const version = await requireVersion(ctx, paper.id, versionId);
  const result = await paperDocuments.replace(ctx, paper.id, version.content as RichTextNode, ctx.member.id);
  await ctx.db.papers.update({ edited_event_at: new Date() }, { where: { id: paper.id } });
  await afterEdit(ctx, { ...paper, edited_event_at: new Date() }, result.content as RichTextNode, result.text);
  ctx.events.stage('core.papers.paper.updated', { paper_id: paper.id, changed_fields: ['content'], updated_by: memberMrn(ctx.member.id) });
  await stagePaperMentions(ctx, paper, result);
  return ctx.db.versions.create({ paper_id: paper.id, kind: 'restore', name: version.name ? `Restored: ${version.name}`.slice(0, 200) : null, content: result.content, text: result.text, created_by: ctx.member.id });
}
