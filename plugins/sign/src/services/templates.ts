import { InvalidError, NotFoundError, newId, type SearchDocument } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import type { FieldType, Template, TemplateField } from '../models/index.js';
import { readDocument, type DocumentInput } from './documents.js';

/** A template field as the API takes it. */
export interface TemplateFieldInput {
  role: string;
  type: FieldType;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  label?: string | null;
  merge_key?: string | null;
  required?: boolean;
}

export interface TemplateInput {
  name: string;
  description?: string;
  document?: DocumentInput;
  roles: string[];
  fields?: TemplateFieldInput[];
}

export function templateDocument(template: Template): SearchDocument {
  return { type: 'template', id: template.id, title: template.name, subtitle: `${template.roles.length} roles`, url: `/templates/${template.id}`, names: [template.name], details: [], filters: {} };
}

/** A template as answered. */
export function presentTemplate(template: Template) {
  return {
    id: template.id,
    name: template.name,
    description: template.description,
    document: { filename: template.document_filename, sha256: template.document_sha256, pages: template.page_count },
    roles: template.roles,
    fields: template.fields,
    merge_keys: [...new Set(template.fields.map((field) => field.merge_key).filter((key): key is string => Boolean(key)))],
    created_at: template.created_at,
    updated_at: template.updated_at,
  };
}

export async function requireTemplate(ctx: AnyCtx, templateId: string, lock?: 'update'): Promise<Template> {
  const template = await ctx.db.templates.findById(templateId, lock ? { lock } : {});
  if (!template) throw new NotFoundError(`Template ${templateId} not found`);
  return template;
}

function checkTemplateFields(fields: TemplateFieldInput[], roles: string[], pages: number): TemplateField[] {
  if (new Set(roles).size !== roles.length) throw new InvalidError('roles names a role twice', { field: 'roles' });
  return fields.map((field, index) => {
    if (!roles.includes(field.role)) throw new InvalidError(`fields[${index}].role ${field.role} is not one of roles (${roles.join(', ')})`, { field: `fields[${index}].role` });
    if (field.page > pages) throw new InvalidError(`fields[${index}].page ${field.page} is past the document's last page (${pages})`, { field: `fields[${index}].page` });
    if (field.x + field.width > 1 || field.y + field.height > 1) throw new InvalidError(`fields[${index}] does not fit on the page (x + width and y + height are at most 1)`, { field: `fields[${index}]` });
    if (field.merge_key && field.type !== 'text') throw new InvalidError(`fields[${index}].merge_key: only a text field is merged`, { field: `fields[${index}].merge_key` });
    return { id: newId(), role: field.role, type: field.type, page: field.page, x: field.x, y: field.y, width: field.width, height: field.height, label: field.label ?? null, merge_key: field.merge_key ?? null, required: field.required ?? field.type !== 'checkbox' };
  });
}

export async function createTemplate(ctx: Ctx, input: TemplateInput): Promise<Template> {
  const document = await readDocument(input.document!);
  const id = newId();
  const fields = checkTemplateFields(input.fields ?? [], input.roles, document.pages);
  const key = `templates/${id}/document.pdf`;
  const template = await ctx.db.templates.create({ id, name: input.name.trim(), description: input.description ?? '', document_key: key, document_filename: document.filename, document_sha256: document.sha256, page_count: document.pages, roles: input.roles, fields, created_by: ctx.member.id });
  await ctx.storage.put(key, document.bytes, { contentType: 'application/pdf' });
  ctx.search.upsert(templateDocument(template));
  return template;
}

export async function updateTemplate(ctx: Ctx, templateId: string, input: Partial<TemplateInput>): Promise<Template> {
  const template = await requireTemplate(ctx, templateId, 'update');
  const changes: Partial<Template> = {};
  if (input.name !== undefined) changes.name = input.name.trim();
  if (input.description !== undefined) changes.description = input.description;
  let pages = template.page_count;
  if (input.document) {
    const document = await readDocument(input.document);
    pages = document.pages;
    Object.assign(changes, { document_filename: document.filename, document_sha256: document.sha256, page_count: document.pages });
    await ctx.storage.put(template.document_key, document.bytes, { contentType: 'application/pdf' });
  }
  const roles = input.roles ?? template.roles;
  if (input.roles || input.fields || input.document) {
    changes.roles = roles;
    changes.fields = checkTemplateFields(input.fields ?? template.fields, roles, pages);
  }
  await ctx.db.templates.update(changes, { where: { id: template.id } });
  const row = (await ctx.db.templates.findById(template.id))!;
  ctx.search.upsert(templateDocument(row));
  return row;
}

export async function deleteTemplate(ctx: Ctx, templateId: string) {
  const template = await requireTemplate(ctx, templateId, 'update');
  await ctx.db.envelopes.update({ template_id: null }, { where: { template_id: template.id } });
  await ctx.db.templates.destroy({ where: { id: template.id } });
  await ctx.storage.delete(template.document_key);
  ctx.search.remove('template', template.id);
  return { id: template.id, deleted: true as const };
}
