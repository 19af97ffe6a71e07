/** Views: grid, kanban, calendar, gallery and form, with saved filters, sorts, group and hidden fields; shared or personal. */
import { InvalidError } from '@wpk/sdk';
import type { Ctx } from '../kit.js';
import type { View, ViewType } from '../models/index.js';
import { atLeast, requireTable, requireView } from './access.js';
import { fieldsOf } from './records.js';
import { checkConfig, type ViewConfig } from './query.js';

export type ViewSettings = ViewConfig & { kanban_field_id?: string; date_field_id?: string; cover_field_id?: string; form_fields?: string[] };
export interface ViewInput { name?: string; type?: ViewType; personal?: boolean; config?: ViewSettings }

/** A view as answered. */
export function presentView(view: View) {
  return { id: view.id, table_id: view.table_id, name: view.name, type: view.type, personal: view.owner_id !== null, owner_id: view.owner_id, config: view.config, revision: view.revision, created_by: view.created_by, created_at: view.created_at, updated_at: view.updated_at };
}

/** The table's shared views and the caller's personal ones. */
export async function listViews(ctx: Ctx, tableId: string) {
  const { table } = await requireTable(ctx, tableId, 'viewer');
  const all = await ctx.db.views.findAll({ where: { table_id: table.id }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  return all.filter((view) => view.owner_id === null || view.owner_id === ctx.member.id);
}

async function checkViewConfig(ctx: Ctx, tableId: string, type: ViewType, config: NonNullable<ViewInput['config']>) {
  const fields = await fieldsOf(ctx, tableId);
  checkConfig(fields, config, 'config.');
  const byId = new Map(fields.map((field) => [field.id, field]));
  const need = (key: 'kanban_field_id' | 'date_field_id', types: string[], what: string) => {
    const field = config[key] ? byId.get(config[key]) : undefined;
    if (!field || !types.includes(field.type)) throw new InvalidError(`config.${key}: a ${type} view names ${what} of this table`, { field: `config.${key}` });
  };
  if (type === 'kanban') need('kanban_field_id', ['single_select'], 'a single select field');
  if (type === 'calendar') need('date_field_id', ['date'], 'a date field');
  if (config.cover_field_id && byId.get(config.cover_field_id)?.type !== 'attachment') throw new InvalidError('config.cover_field_id: a gallery cover is an attachment field of this table', { field: 'config.cover_field_id' });
  (config.form_fields ?? []).forEach((id, index) => {
    if (!byId.has(id)) throw new InvalidError(`config.form_fields[${index}]: no field ${id} in this table`, { field: `config.form_fields[${index}]` });
  });
}

/** Adds a view: a shared one needs the creator role, a personal one the editor role. */
export async function createView(ctx: Ctx, tableId: string, input: ViewInput & { name: string; type: ViewType }) {
  const { table } = await requireTable(ctx, tableId, input.personal ? 'viewer' : 'creator');
  const config: ViewSettings = input.config ?? {};
  await checkViewConfig(ctx, table.id, input.type, config);
  return ctx.db.views.create({ table_id: table.id, name: input.name, type: input.type, config: config as Record<string, unknown>, owner_id: input.personal ? ctx.member.id : null, created_by: ctx.member.id, form_token_hash: null, revision: 1 });
}

/** Changes a view (a shared one: creators; a personal one: its owner). */
export async function updateView(ctx: Ctx, viewId: string, input: ViewInput) {
  const { view, role } = await requireView(ctx, viewId, 'viewer', 'update');
  if (view.owner_id === null && !atLeast(role, 'creator')) await requireView(ctx, viewId, 'creator');
  const type = input.type ?? view.type;
  const config = input.config ?? (view.config as NonNullable<ViewInput['config']>);
  if (input.type !== undefined || input.config !== undefined) await checkViewConfig(ctx, view.table_id, type, config);
  const changes = { name: input.name ?? view.name, type, config: config as Record<string, unknown>, revision: view.revision + 1 };
  await ctx.db.views.update(changes, { where: { id: view.id } });
  return { ...view, ...changes, updated_at: ctx.now() };
}

/** Deletes a view. */
export async function deleteView(ctx: Ctx, viewId: string) {
  const { view, role } = await requireView(ctx, viewId, 'viewer', 'update');
  if (view.owner_id === null && !atLeast(role, 'creator')) await requireView(ctx, viewId, 'creator');
  await ctx.db.views.destroy({ where: { id: view.id } });
  return { id: view.id, deleted: true as const };
}
