import { InvalidError, NotFoundError } from '@wpk/sdk';
import { resource, type WorkersContext } from '../kit.js';
import { CONFIRMATIONS, type Checklist, type ChecklistItem, type ChecklistKind, type ChecklistTemplate, type TemplateItem } from '../models/index.js';
import { settle } from './checklist-runs.js';
import { requireWorker } from './workers.js';

/** What a create or an update of a template may set. */
export interface TemplateInput {
  kind?: ChecklistKind;
  name?: string;
  department_id?: string | null;
  items?: TemplateItem[];
}

/** Checklist templates: reads and writes (no event: what they open is what other apps see). */
export const templates = resource({ model: 'checklistTemplates', label: 'Checklist template', order: [['kind', 'ASC'], ['name', 'ASC'], ['id', 'ASC']], searchColumns: ['name'] });

/** A template as answered. */
export function presentTemplate(template: ChecklistTemplate) {
  return { id: template.id, kind: template.kind, name: template.name, department_id: template.department_id, items: template.items, revision: template.revision, created_at: template.created_at, updated_at: template.updated_at };
}

/** Refuses a department that is none of the workspace's, and an item whose confirmation belongs to the other kind of checklist. */
async function assertTemplate(ctx: WorkersContext, kind: ChecklistKind, input: TemplateInput): Promise<void> {
  if (input.department_id && !(await ctx.db.departments.findById(input.department_id))) throw new InvalidError(`department_id ${input.department_id} is not a department of this workspace`, { field: 'department_id' });
  for (const [index, item] of (input.items ?? []).entries()) {
    if (item.confirmed_by && CONFIRMATIONS[item.confirmed_by] !== kind) {
      const field = `items[${index}].confirmed_by`;
      throw new InvalidError(`${field} ${item.confirmed_by} confirms an item of an ${CONFIRMATIONS[item.confirmed_by]} checklist, not of an ${kind} one`, { field });
    }
  }
}

const cleanItems = (items: TemplateItem[]) => items.map((item) => (item.confirmed_by ? { label: item.label.trim(), confirmed_by: item.confirmed_by } : { label: item.label.trim() }));

/** Lists the templates (of one kind). */
export function listTemplates(ctx: WorkersContext, filters: { q?: string; kind?: ChecklistKind }) {
  return templates.list(ctx, { q: filters.q, where: filters.kind ? { kind: filters.kind } : {} });
}

/** Adds a template; workers hired (or moved to offboarding) from now on get a checklist from it. */
export async function createTemplate(ctx: WorkersContext, input: TemplateInput & { kind: ChecklistKind; name: string; items: TemplateItem[] }): Promise<ChecklistTemplate> {
  await assertTemplate(ctx, input.kind, input);
  return templates.create(ctx, { kind: input.kind, name: input.name.trim(), department_id: input.department_id ?? null, items: cleanItems(input.items), revision: 1 });
}

/** Changes a template; checklists already opened from it stay as they are. */
export async function updateTemplate(ctx: WorkersContext, templateId: string, input: TemplateInput): Promise<ChecklistTemplate> {
  const template = await templates.require(ctx, templateId, { lock: 'update' });
  const kind = input.kind ?? template.kind;
  await assertTemplate(ctx, kind, { ...input, items: input.items ?? template.items });
  const changes: Partial<ChecklistTemplate> = {};
  if (input.kind !== undefined) changes.kind = input.kind;
  if (input.name !== undefined) changes.name = input.name.trim();
  if (input.department_id !== undefined) changes.department_id = input.department_id;
  if (input.items !== undefined) changes.items = cleanItems(input.items);
  const { row } = await templates.patch(ctx, template, changes, { touch: (before) => ({ revision: before.revision + 1 }) });
  return row;
}

/** Deletes a template; checklists opened from it stay. */
export async function deleteTemplate(ctx: WorkersContext, templateId: string) {
  const template = await templates.remove(ctx, templateId);
  return { id: template.id, deleted: true as const };
}

/** A checklist as answered: its items in order, and the labels of those still missing. */
export function presentChecklist(checklist: Checklist, items: ChecklistItem[]) {
  return {
    id: checklist.id,
    worker_id: checklist.worker_id,
    kind: checklist.kind,
    name: checklist.name,
    template_id: checklist.template_id,
    completed_at: checklist.completed_at,
    created_at: checklist.created_at,
    items: items.map((item) => ({ id: item.id, label: item.label, confirmed_by: item.confirmed_by, done: item.done_at !== null, done_at: item.done_at, done_by: item.done_by, done_via: item.done_via })),
    missing: items.filter((item) => item.done_at === null).map((item) => item.label),
  };
}

/** The worker's checklists, oldest first, each with its items. */
export async function listChecklists(ctx: WorkersContext, workerId: string) {
  const worker = await requireWorker(ctx, workerId);
  const rows = await ctx.db.checklists.findAll({ where: { worker_id: worker.id }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  const items = rows.length ? await ctx.db.checklistItems.findAll({ where: { checklist_id: rows.map((row) => row.id) }, order: [['position', 'ASC']] }) : [];
  const page = rows.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit);
  return { rows: page.map((row) => presentChecklist(row, items.filter((item) => item.checklist_id === row.id))), count: rows.length };
}

/** Ticks (or unticks) an item by hand. Emits `checklist.completed` when it was the last one open. */
export async function tickItem(ctx: WorkersContext, workerId: string, checklistId: string, itemId: string, done: boolean) {
  const worker = await requireWorker(ctx, workerId);
  const checklist = await ctx.db.checklists.findOne({ where: { id: checklistId, worker_id: worker.id }, lock: 'update' });
  if (!checklist) throw new NotFoundError(`Checklist ${checklistId} not found`);
  const item = await ctx.db.checklistItems.findOne({ where: { id: itemId, checklist_id: checklist.id } });
  if (!item) throw new NotFoundError(`Checklist item ${itemId} not found`);
  if ((item.done_at !== null) !== done) {
    await ctx.db.checklistItems.update(done ? { done_at: ctx.now(), done_by: ctx.member.id, done_via: null } : { done_at: null, done_by: null, done_via: null }, { where: { id: item.id } });
  }
  const settled = await settle(ctx, checklist);
  const items = await ctx.db.checklistItems.findAll({ where: { checklist_id: checklist.id }, order: [['position', 'ASC']] });
  return presentChecklist(settled, items);
}
