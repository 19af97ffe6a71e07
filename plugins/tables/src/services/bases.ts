/** Bases and their tables. */
import { ConflictError, NotFoundError } from '@wpk/sdk';
import type { Ctx } from '../kit.js';
import type { Base, Role, Table } from '../models/index.js';
import { roleOn, requireBase, requireTable, type Access } from './access.js';

/** A base as answered, with the caller's role. */
export function presentBase(base: Base, role: Access) {
  return { id: base.id, name: base.name, default_role: base.default_role, role, created_by: base.created_by, revision: base.revision, created_at: base.created_at, updated_at: base.updated_at };
}

/** A table as answered. */
export function presentTable(table: Table) {
  return { id: table.id, base_id: table.base_id, name: table.name, primary_field_id: table.primary_field_id, revision: table.revision, created_at: table.created_at, updated_at: table.updated_at };
}

/** The bases the caller has a role on, by name. */
export async function listBases(ctx: Ctx) {
  const all = await ctx.db.bases.findAll({ order: [['name', 'ASC'], ['id', 'ASC']] });
  const visible = [];
  for (const base of all) {
    const role = await roleOn(ctx, base);
    if (role !== 'none') visible.push(presentBase(base, role));
  }
  return visible;
}

/** A new base; its maker is its creator. */
export async function createBase(ctx: Ctx, input: { name: string; default_role?: Access }) {
  const base = await ctx.db.bases.create({ name: input.name, default_role: input.default_role ?? 'editor', created_by: ctx.member.id, revision: 1 });
  return presentBase(base, 'creator');
}

/** Renames a base or changes its default role (creators). */
export async function updateBase(ctx: Ctx, baseId: string, input: { name?: string; default_role?: Access }) {
  const { base, role } = await requireBase(ctx, baseId, 'creator', 'update');
  const changes: Partial<Base> = {};
  if (input.name !== undefined && input.name !== base.name) changes.name = input.name;
  if (input.default_role !== undefined && input.default_role !== base.default_role) changes.default_role = input.default_role;
  if (!Object.keys(changes).length) return presentBase(base, role);
  await ctx.db.bases.update({ ...changes, revision: base.revision + 1 }, { where: { id: base.id } });
  return presentBase({ ...base, ...changes, revision: base.revision + 1, updated_at: ctx.now() }, role);
}

/** Deletes a base with its tables and records (their search entries too). */
export async function deleteBase(ctx: Ctx, baseId: string) {
  const { base } = await requireBase(ctx, baseId, 'creator', 'update');
  const tables = await ctx.db.tables.findAll({ where: { base_id: base.id } });
  for (const table of tables) await forgetRecords(ctx, table.id);
  await ctx.db.bases.destroy({ where: { id: base.id } });
  return { id: base.id, deleted: true as const };
}

/** Removes a table's records from the search index. */
async function forgetRecords(ctx: Ctx, tableId: string) {
  const records = await ctx.db.records.findAll({ where: { table_id: tableId }, attributes: ['id'] });
  for (const record of records) ctx.search.remove('record', record.id);
}

/** A base's tables, oldest first. */
export async function listTables(ctx: Ctx, baseId: string) {
  const { base } = await requireBase(ctx, baseId, 'viewer');
  return ctx.db.tables.findAll({ where: { base_id: base.id }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
}

async function assertTableName(ctx: Ctx, baseId: string, name: string, exceptId: string | null) {
  await ctx.lock(`table-name:${baseId}:${name.toLowerCase()}`);
  const clash = (await ctx.db.tables.findAll({ where: { base_id: baseId } })).find((table) => table.name.toLowerCase() === name.toLowerCase() && table.id !== exceptId);
  if (clash) throw new ConflictError(`Table ${clash.id} of this base is already named ${clash.name}`, { field: 'name' });
}

/** A new table with its primary field (text, "Name" unless named) and a grid view. */
export async function createTable(ctx: Ctx, baseId: string, input: { name: string; primary_field_name?: string }) {
  const { base } = await requireBase(ctx, baseId, 'creator');
  await assertTableName(ctx, base.id, input.name, null);
  const table = await ctx.db.tables.create({ base_id: base.id, name: input.name, primary_field_id: null, next_number: 1, revision: 1 });
  const field = await ctx.db.fields.create({ table_id: table.id, name: input.primary_field_name ?? 'Name', type: 'text', options: {}, position: 1, revision: 1 });
  await ctx.db.tables.update({ primary_field_id: field.id }, { where: { id: table.id } });
  await ctx.db.views.create({ table_id: table.id, name: 'Grid', type: 'grid', config: {}, owner_id: null, created_by: ctx.member.id, form_token_hash: null, revision: 1 });
  ctx.events.stage('core.tables.field.created', { field_id: field.id, table_id: table.id, base_id: base.id, name: field.name, type: field.type, by: ctx.member.mrn });
  return { ...table, primary_field_id: field.id };
}

/** Renames a table or names another primary field. */
export async function updateTable(ctx: Ctx, tableId: string, input: { name?: string; primary_field_id?: string }) {
  const { table } = await requireTable(ctx, tableId, 'creator', 'update');
  const changes: Partial<Table> = {};
  if (input.name !== undefined && input.name !== table.name) {
    await assertTableName(ctx, table.base_id, input.name, table.id);
    changes.name = input.name;
  }
  if (input.primary_field_id !== undefined && input.primary_field_id !== table.primary_field_id) {
    const field = await ctx.db.fields.findById(input.primary_field_id);
    if (!field || field.table_id !== table.id) throw new NotFoundError(`Field ${input.primary_field_id} not found in table ${table.name}`);
    changes.primary_field_id = field.id;
  }
  if (!Object.keys(changes).length) return table;
  await ctx.db.tables.update({ ...changes, revision: table.revision + 1 }, { where: { id: table.id } });
  const updated = { ...table, ...changes, revision: table.revision + 1, updated_at: ctx.now() };
  if (changes.primary_field_id || changes.name) {
    const { retitleTable } = await import('./records.js');
    await retitleTable(ctx, updated);
  }
  return updated;
}

/** Deletes a table and its records; a link of another table to it is refused first (409 naming it). */
export async function deleteTable(ctx: Ctx, tableId: string) {
  const { table } = await requireTable(ctx, tableId, 'creator', 'update');
  const links = (await ctx.db.fields.findAll({ where: { type: 'link' } })).filter((field) => field.options.table_id === table.id && field.table_id !== table.id);
  if (links.length) throw new ConflictError(`Table ${table.name} is linked from field ${links[0]!.name} (${links[0]!.id}): delete that field first`);
  await forgetRecords(ctx, table.id);
  await ctx.db.tables.destroy({ where: { id: table.id } });
  return { id: table.id, deleted: true as const };
}

export type { Role };
