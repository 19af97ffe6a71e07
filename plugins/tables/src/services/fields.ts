/** Fields: their options by type, the cycle check of computed fields, and type changes that convert cells. */
import { ConflictError, InvalidError } from '@wpk/sdk';
import { compile, render, type CompiledFormula } from '../formula/formula.js';
import { orderFields } from '../formula/graph.js';
import type { AnyCtx, Ctx } from '../kit.js';
import { SOURCE_KINDS, type Field, type FieldType, type Table } from '../models/index.js';
import { requireField, requireTable } from './access.js';
import { convert, COMPUTED } from './cells.js';
import { addInverse, dependenciesOf, fieldsOf, LinkedRecords, recomputeTable, writeCells } from './records.js';

/** What a field's options may say. */
export interface FieldOptionsInput {
  choices?: Array<{ name: string; color?: string }>;
  decimals?: number;
  symbol?: string;
  table_id?: string;
  link_field_id?: string;
  field_id?: string;
  function?: string;
  expression?: string;
  source?: string;
}

/** A field as answered: a formula's expression with field names. */
export function presentField(field: Field, names: ReadonlyMap<string, string>, conversion: { converted: number; failed: Array<{ record_id: string; value: unknown }> } | null = null) {
  const { formula, ...rest } = field.options as { formula?: CompiledFormula } & Record<string, unknown>;
  const options = formula ? { ...rest, expression: render(formula, names), references: formula.references } : rest;
  return { id: field.id, table_id: field.table_id, name: field.name, type: field.type, options, position: field.position, revision: field.revision, conversion, created_at: field.created_at, updated_at: field.updated_at };
}

/** Field names by id (to show formulas). */
export function namesOf(fields: Field[]): Map<string, string> {
  return new Map(fields.map((field) => [field.id, field.name]));
}

/** A table's fields. */
export async function listFields(ctx: Ctx, tableId: string) {
  const { table } = await requireTable(ctx, tableId, 'viewer');
  return fieldsOf(ctx, table.id);
}

const ROLLUPS = ['sum', 'count', 'min', 'max', 'average', 'concat'];

/** The options a field of `type` keeps, checked against the table's other fields; 400 naming the option. */
async function checkOptions(ctx: Ctx, table: Table, fields: Field[], type: FieldType, input: FieldOptionsInput, selfId: string | null): Promise<Record<string, unknown>> {
  const bad = (option: string, message: string) => new InvalidError(`options.${option}: ${message}`, { field: `options.${option}` });
  switch (type) {
    case 'currency':
      return { decimals: input.decimals ?? 2, symbol: input.symbol ?? '' };
    case 'number':
      return input.decimals === undefined ? {} : { decimals: input.decimals };
    case 'single_select':
    case 'multiple_select': {
      const choices = input.choices ?? [];
      const names = choices.map((choice) => choice.name);
      const twice = names.find((name, index) => names.indexOf(name) !== index);
      if (twice) throw bad('choices', `${twice} is named twice`);
      return { choices: choices.map((choice) => ({ name: choice.name, color: choice.color ?? 'gray' })) };
    }
    case 'link': {
      if (!input.table_id) throw bad('table_id', 'a link names the table it links to');
      const target = await ctx.db.tables.findById(input.table_id);
      if (!target || target.base_id !== table.base_id) throw bad('table_id', `no table ${input.table_id} in this base`);
      return { table_id: target.id };
    }
    case 'lookup':
    case 'rollup': {
      const link = fields.find((field) => field.id === input.link_field_id && field.type === 'link');
      if (!link) throw bad('link_field_id', `no link field ${input.link_field_id ?? '(missing)'} in this table`);
      const target = input.field_id ? await ctx.db.fields.findById(input.field_id) : null;
      if (!target || target.table_id !== link.options.table_id) throw bad('field_id', `no field ${input.field_id ?? '(missing)'} in the linked table`);
      if (type === 'rollup' && !ROLLUPS.includes(input.function ?? '')) throw bad('function', `one of ${ROLLUPS.join(', ')}`);
      return { link_field_id: link.id, field_id: target.id, ...(type === 'rollup' ? { function: input.function } : {}) };
    }
    case 'mrn': {
      if (input.source === 'deal') throw bad('source', 'no app of this platform publishes deals yet');
      if (!input.source || !(SOURCE_KINDS as readonly string[]).includes(input.source)) throw bad('source', `one of ${SOURCE_KINDS.join(', ')}`);
      return { source: input.source };
    }
    case 'formula': {
      if (!input.expression) throw bad('expression', 'a formula needs an expression, such as {Price} * {Quantity}');
      const byName = new Map(fields.filter((field) => field.id !== selfId).map((field) => [field.name.toLowerCase(), field.id]));
      if (selfId) {
        const self = fields.find((field) => field.id === selfId);
        if (self) byName.set(self.name.toLowerCase(), self.id);
      }
      try {
        return { formula: compile(input.expression, byName) };
      } catch (error) {
        throw bad('expression', (error as Error).message);
      }
    }
    default:
      return {};
  }
}

/** Refuses a computed field that would read itself, naming the path (`Total → Tax → Total`). */
function assertNoCycle(fields: Field[]): void {
  const computed = fields.filter((field) => COMPUTED.has(field.type));
  const ordering = orderFields(new Map(computed.map((field) => [field.id, dependenciesOf(field)])));
  if (ordering.cycle) {
    const names = new Map(fields.map((field) => [field.id, field.name]));
    throw new InvalidError(`options.expression: the formula would make a cycle: ${ordering.cycle.map((id) => names.get(id)).join(' → ')}`, { field: 'options.expression' });
  }
}

async function assertName(ctx: Ctx, fields: Field[], tableId: string, name: string, exceptId: string | null) {
  await ctx.lock(`field-name:${tableId}:${name.toLowerCase()}`);
  const clash = fields.find((field) => field.name.toLowerCase() === name.toLowerCase() && field.id !== exceptId);
  if (clash) throw new ConflictError(`Field ${clash.id} of this table is already named ${clash.name}`, { field: 'name' });
}

/** Adds a field; a computed one is computed for every record at once. */
export async function createField(ctx: Ctx, tableId: string, input: { name: string; type: FieldType; options?: FieldOptionsInput }) {
  const { table } = await requireTable(ctx, tableId, 'creator', 'update');
  const fields = await fieldsOf(ctx, table.id);
  await assertName(ctx, fields, table.id, input.name, null);
  const id = crypto.randomUUID();
  const options = await checkOptions(ctx, table, [...fields, { id, name: input.name, type: input.type } as Field], input.type, input.options ?? {}, id);
  const draft = { id, table_id: table.id, name: input.name, type: input.type, options, position: Math.max(0, ...fields.map((field) => field.position)) + 1, revision: 1 };
  assertNoCycle([...fields, draft as Field]);
  const field = await ctx.db.fields.create(draft);
  if (COMPUTED.has(field.type) || field.type === 'checkbox') await recomputeTable(ctx, table);
  if (field.type === 'checkbox') await fillCheckboxes(ctx, table, [...fields, field], field);
  ctx.events.stage('core.tables.field.created', { field_id: field.id, table_id: table.id, base_id: table.base_id, name: field.name, type: field.type, by: ctx.member.mrn });
  ctx.live.publish(`tables/${table.id}`, 'field.created', { id: field.id, name: field.name, type: field.type });
  if (field.type === 'link') await addInverse(ctx, table, field, ctx.member.mrn);
  return presentField(field, namesOf([...fields, field]));
}

async function fillCheckboxes(ctx: Ctx, table: Table, fields: Field[], field: Field) {
  const linked = new LinkedRecords(ctx);
  for (const record of await ctx.db.records.findAll({ where: { table_id: table.id } })) {
    if (record.cells[field.id] === undefined || record.cells[field.id] === null) await writeCells(ctx, table, fields, record, { [field.id]: false }, linked, null, false);
  }
}

/**
 * Renames a field, changes its options, or its type: every cell is converted, and the ones that
 * could not be are cleared and reported (`conversion.failed`, by record).
 */
export async function updateField(ctx: Ctx, fieldId: string, input: { name?: string; type?: FieldType; options?: FieldOptionsInput }) {
  const { field, table } = await requireField(ctx, fieldId, 'creator', 'update');
  const fields = await fieldsOf(ctx, table.id);
  const changed: Array<'name' | 'type' | 'options'> = [];
  const next: Field = { ...field };
  if (input.name !== undefined && input.name !== field.name) {
    await assertName(ctx, fields, table.id, input.name, field.id);
    next.name = input.name;
    changed.push('name');
  }
  const type = input.type ?? field.type;
  if (type !== field.type || input.options !== undefined) {
    const current = presentField(field, namesOf(fields)).options as FieldOptionsInput;
    const options = await checkOptions(ctx, table, fields.map((one) => (one.id === field.id ? next : one)), type, { ...(type === field.type ? current : {}), ...(input.options ?? {}) }, field.id);
    const inverseId = field.type === 'link' ? (field.options.inverse_field_id as string | undefined) : undefined;
    if (inverseId && type === 'link' && options.table_id !== field.options.table_id) throw new ConflictError(`${field.name} is a two-way link: it keeps its table (delete it and add a link to the other table)`, { field: 'options.table_id' });
    // A link keeps its inverse (or its one-way mark); one that changes table is upgraded when its fields are next read.
    if (type === 'link' && field.type === 'link' && 'inverse_field_id' in field.options && options.table_id === field.options.table_id) options.inverse_field_id = field.options.inverse_field_id;
    if (JSON.stringify(options) !== JSON.stringify(field.options)) changed.push('options');
    if (type !== field.type) changed.push('type');
    next.type = type;
    next.options = options;
  }
  if (!changed.length) return presentField(field, namesOf(fields));
  if (type !== field.type && table.primary_field_id === field.id && COMPUTED.has(type)) throw new ConflictError(`${field.name} is the table's primary field: it cannot become ${type}`);
  const all = fields.map((one) => (one.id === field.id ? next : one));
  assertNoCycle(all);
  if (type !== field.type) assertNotRead(all.filter((one) => one.id !== field.id), field, 'change the type of');
  const oldInverse = field.type === 'link' && type !== 'link' ? await inverseOf(ctx, field) : null;
  if (oldInverse) await assertRemovable(ctx, oldInverse.field);
  await ctx.db.fields.update({ name: next.name, type: next.type, options: next.options, revision: field.revision + 1 }, { where: { id: field.id } });
  next.revision = field.revision + 1;
  let conversion: { converted: number; failed: Array<{ record_id: string; value: unknown }> } | null = null;
  if (type !== field.type) conversion = await convertCells(ctx, table, all, field, next);
  else if (COMPUTED.has(type)) await recomputeTable(ctx, table);
  ctx.events.stage('core.tables.field.updated', { field_id: field.id, table_id: table.id, base_id: table.base_id, name: next.name, type: next.type, changed_fields: changed, by: ctx.member.mrn });
  ctx.live.publish(`tables/${table.id}`, 'field.updated', { id: field.id, name: next.name, type: next.type, changed_fields: changed });
  // A link that stops being one takes its inverse with it (as Airtable does); a field that becomes one gets its inverse.
  if (oldInverse) await removeField(ctx, oldInverse.table, oldInverse.field);
  if (type === 'link' && field.type !== 'link') await addInverse(ctx, table, next, ctx.member.mrn);
  return presentField({ ...next, updated_at: ctx.now() }, namesOf(all), conversion);
}

/** Refuses to remove or retype a field another computed field reads, naming it. */
function assertNotRead(fields: Field[], field: Field, what: string): void {
  const reader = fields.find((one) => dependenciesOf(one).includes(field.id));
  if (reader) throw new ConflictError(`Field ${reader.name} (${reader.id}) reads ${field.name}: ${what} it after changing or deleting ${reader.name}`);
}

async function convertCells(ctx: Ctx, table: Table, fields: Field[], before: Field, after: Field) {
  const added: string[] = [];
  const choices = new Set(((after.options.choices as Array<{ name: string }>) ?? []).map((choice) => choice.name));
  const addChoice = (name: string) => {
    if (name && !choices.has(name)) {
      choices.add(name);
      added.push(name);
    }
  };
  const records = await ctx.db.records.findAll({ where: { table_id: table.id }, order: [['number', 'ASC']] });
  const failed: Array<{ record_id: string; value: unknown }> = [];
  const converted = new Map<string, unknown>();
  for (const record of records) {
    const result = convert(record.cells[before.id], after, addChoice);
    if ('failed' in result) {
      failed.push({ record_id: record.id, value: record.cells[before.id] });
      converted.set(record.id, null);
    } else converted.set(record.id, result.value);
  }
  if (added.length) {
    after.options = { ...after.options, choices: [...((after.options.choices as unknown[]) ?? []), ...added.map((name) => ({ name, color: 'gray' }))] };
    await ctx.db.fields.update({ options: after.options }, { where: { id: after.id } });
  }
  const linked = new LinkedRecords(ctx);
  const current = fields.map((one) => (one.id === after.id ? after : one));
  for (const record of records) {
    await writeCells(ctx, table, current, record, { [after.id]: converted.get(record.id) }, linked, null, false);
  }
  return { converted: records.length - failed.length, failed };
}

/** Deletes a field nothing reads (not the primary one); its cells go with it, and a two-way link's inverse with it. */
export async function deleteField(ctx: Ctx, fieldId: string) {
  const { field, table } = await requireField(ctx, fieldId, 'creator', 'update');
  await assertRemovable(ctx, field);
  const inverse = await inverseOf(ctx, field);
  if (inverse) await assertRemovable(ctx, inverse.field);
  await removeField(ctx, table, field);
  if (inverse) await removeField(ctx, inverse.table, inverse.field);
  return { id: field.id, deleted: true as const };
}

/** Refuses to delete the primary field or a field a computed field reads (in its table, or a lookup of another). */
async function assertRemovable(ctx: AnyCtx, field: Field): Promise<void> {
  const table = await ctx.db.tables.findById(field.table_id);
  if (table?.primary_field_id === field.id) throw new ConflictError(`${field.name} is the table's primary field: name another primary field first`);
  const fields = await fieldsOf(ctx, field.table_id);
  assertNotRead(fields.filter((one) => one.id !== field.id), field, 'delete');
  const readers = (await ctx.db.fields.findAll({ where: { type: ['lookup', 'rollup'] } })).find((one) => one.options.field_id === field.id);
  if (readers) throw new ConflictError(`Field ${readers.name} (${readers.id}) of another table reads ${field.name}: delete it first`);
}

/** Deletes a field and its cells; field.deleted, live. */
async function removeField(ctx: Ctx, table: Table, field: Field): Promise<void> {
  const fields = await fieldsOf(ctx, table.id);
  await ctx.db.fields.destroy({ where: { id: field.id } });
  const rest = fields.filter((one) => one.id !== field.id);
  const linked = new LinkedRecords(ctx);
  for (const record of await ctx.db.records.findAll({ where: { table_id: table.id } })) {
    if (record.cells[field.id] !== undefined) await writeCells(ctx, table, rest, record, {}, linked, null, false);
  }
  ctx.events.stage('core.tables.field.deleted', { field_id: field.id, table_id: table.id, base_id: table.base_id, name: field.name, type: field.type, by: ctx.member.mrn });
  ctx.live.publish(`tables/${table.id}`, 'field.deleted', { id: field.id });
}

/** A two-way link's inverse field and its table, if it still has one. */
async function inverseOf(ctx: AnyCtx, field: Field): Promise<{ field: Field; table: Table } | null> {
  const inverseId = field.type === 'link' ? (field.options.inverse_field_id as string | undefined) : undefined;
  const inverse = inverseId ? await ctx.db.fields.findById(inverseId) : null;
  const table = inverse ? await ctx.db.tables.findById(inverse.table_id) : null;
  return inverse && table && inverse.type === 'link' ? { field: inverse, table } : null;
}
