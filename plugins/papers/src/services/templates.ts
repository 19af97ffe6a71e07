/**
 * Templates with merge fields (docs/decisions/0301-papers-templates.md). A template is a paper
 * marked `is_template`; its merge fields are `{{name}}` (required) or `{{name?}}` (optional) in
 * its text, each within one text node (a field whose braces carry different marks is plain text).
 * A paper made from a template is a copy of its document with each field replaced by its value.
 */
import { InvalidError, NotFoundError, Op, type RichTextNode } from '@wpk/sdk';
import type { Ctx } from '../kit.js';
import type { Paper } from '../models/index.js';
import { levelOf, requirePaper, type Level } from './access.js';
import { paperDocuments } from './documents.js';
import { inlineImages } from './images.js';

/** A merge field in a text node: `{{name}}` or `{{name?}}`, the name a lower-case identifier. */
const FIELD = /\{\{\s*([a-z][a-z0-9_]{0,49})(\?)?\s*\}\}/g;

export interface MergeField {
  name: string;
  required: boolean;
}

/** The merge fields of a document, in the order they first appear; a field required anywhere is required. */
export function mergeFields(content: RichTextNode): MergeField[] {
  const found = new Map<string, MergeField>();
  const walk = (node: RichTextNode) => {
    if (node.type === 'text' && typeof node.text === 'string') {
      for (const match of node.text.matchAll(FIELD)) {
        const field = found.get(match[1]) ?? { name: match[1], required: false };
        if (!match[2]) field.required = true;
        found.set(match[1], field);
      }
    }
    for (const child of node.content ?? []) walk(child);
  };
  walk(content);
  return [...found.values()];
}

/** The document with every field replaced by its value (a missing optional one by nothing); text nodes left empty go. */
function fill(node: RichTextNode, values: Record<string, string>): RichTextNode | null {
  if (node.type === 'text') {
    const text = (node.text ?? '').replace(FIELD, (_whole, name: string) => values[name] ?? '');
    return text ? { ...node, text } : null;
  }
  if (!node.content) return node;
  const content = node.content.map((child) => fill(child, values)).filter((child): child is RichTextNode => child !== null);
  const out: RichTextNode = { ...node, content };
  if (content.length === 0) delete out.content;
  return out;
}

/** The templates the caller may open (their own and those shared with them), most recently changed first, each with its merge fields. */
export async function listTemplates(ctx: Ctx, query: { q?: string }) {
  const where: Record<string | symbol, unknown> = { status: 'active', is_template: true };
  if (query.q) where.title = { [Op.iLike]: `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` };
  const candidates = await ctx.db.papers.findAll({ where: where as never, order: [['updated_at', 'DESC'], ['id', 'ASC']], limit: 1000 });
  const open: Array<{ paper: Paper; level: Level }> = [];
  for (const paper of candidates) {
    const level = await levelOf(ctx, paper);
    if (level) open.push({ paper, level });
  }
  const page = open.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit);
  const rows = await Promise.all(page.map(async (row) => ({ ...row, fields: mergeFields(((await paperDocuments.snapshot(ctx, row.paper.id))?.content ?? { type: 'doc' }) as RichTextNode) })));
  return { rows, count: open.length };
}

/**
 * The document a new paper gets from a template the caller may open: its content with the merge
 * values filled in (its images as data URLs, so the copy holds them). A value for no field of the
 * template, or none for a required field: 400 naming it.
 */
export async function contentFromTemplate(ctx: Ctx, templateId: string, merge: Record<string, string>): Promise<{ template: Paper; content: RichTextNode }> {
  let template: Paper;
  try {
    ({ paper: template } = await requirePaper(ctx, templateId));
  } catch (error) {
    if (error instanceof NotFoundError) throw new InvalidError(`template_id: no template you may open has the id ${templateId}`);
    throw error;
  }
  if (!template.is_template) throw new InvalidError(`template_id: paper ${templateId} is not a template`);
  const stored = ((await paperDocuments.snapshot(ctx, template.id))?.content ?? { type: 'doc' }) as RichTextNode;
  const fields = mergeFields(stored);
  const names = new Set(fields.map((field) => field.name));
  for (const name of Object.keys(merge)) {
    if (!names.has(name)) throw new InvalidError(`merge.${name}: the template has no merge field ${name} (its fields: ${fields.map((field) => field.name).join(', ') || 'none'})`);
  }
  for (const field of fields) {
    if (field.required && !(merge[field.name] ?? '').trim()) throw new InvalidError(`merge.${field.name}: a value is required by the template`);
  }
  const filled = fill(await inlineImages(ctx, template.id, stored), merge) ?? { type: 'doc' };
  return { template, content: filled };
}
