/**
 * Records: cells by field id, each with its version. A write names the version of each cell it
 * read; a stale one is refused (409 with the current value), so nobody's edit is silently lost.
 * Computed cells (formula, lookup, rollup, autonumber) are recomputed in dependency order on every
 * write, and the records that link to a changed record recompute theirs.
 */
import { ConflictError, InvalidError, NotFoundError } from '@wpk/sdk';
import { Decimal } from 'decimal.js';
import { evaluate, type CompiledFormula } from '../formula/formula.js';
import { orderFields } from '../formula/graph.js';
import type { AnyCtx, Ctx } from '../kit.js';
import type { Base, Field, Table, TableRecord } from '../models/index.js';
import { requireRecord, requireTable } from './access.js';
import { COMPUTED, display, formulaInput, normalize } from './cells.js';
import { resolveMrn } from './mrn-cells.js';
import { resolveAttachments } from './attachments.js';

/** A record as answered. */
export function presentRecord(record: TableRecord, hidden: ReadonlySet<string> = new Set()) {
  const cells = Object.fromEntries(Object.entries(record.cells).filter(([id]) => !hidden.has(id)));
  const versions = Object.fromEntries(Object.entries(record.versions).filter(([id]) => !hidden.has(id)));
  return { id: record.id, table_id: record.table_id, number: record.number, title: record.title, cells, versions, revision: record.revision, created_by: record.created_by, updated_by: record.updated_by, created_at: record.created_at, updated_at: record.updated_at };
}

/**
 * A table's fields in their order. A link made before links were two-way (its options have no
 * `inverse_field_id`) gets its inverse here, the first time its table's fields are read (the lazy
 * upgrade of docs/decisions/0298-tables-two-way-links.md).
 */
export async function fieldsOf(ctx: AnyCtx, tableId: string): Promise<Field[]> {
  const read = () => ctx.db.fields.findAll({ where: { table_id: tableId }, order: [['position', 'ASC'], ['id', 'ASC']] });
  const fields = await read();
  const oneWay = fields.filter((field) => field.type === 'link' && !('inverse_field_id' in field.options));
  if (!oneWay.length) return fields;
  const table = await ctx.db.tables.findById(tableId);
  if (!table) return fields;
  for (const field of oneWay) {
    await ctx.lock(`link-inverse:${field.id}`);
    const current = await ctx.db.fields.findById(field.id);
    if (current && current.type === 'link' && !('inverse_field_id' in current.options)) await addInverse(ctx, table, current, null);
  }
  return read();
}

/**
 * Adds a link's inverse in the linked table (docs/decisions/0298-tables-two-way-links.md): a link
 * field named after the link's table (" 2", " 3", … when taken), each record of it holding the
 * records that link to it, in their number order. A self-link has none. Returns the inverse.
 * `by` null: the lazy upgrade of a one-way link, which stages no event.
 */
export async function addInverse(ctx: AnyCtx, table: Table, field: Field, by: string | null): Promise<Field | null> {
  const targetId = field.options.table_id as string;
  const target = targetId === table.id ? null : await ctx.db.tables.findById(targetId);
  if (!target) {
    // A self-link (or a link to a table that is gone) stays one-way: marked so, it is not upgraded again.
    field.options = { ...field.options, inverse_field_id: null };
    await ctx.db.fields.update({ options: field.options }, { where: { id: field.id } });
    return null;
  }
  await ctx.lock(`field-names:${target.id}`);
  const targetFields = await fieldsOf(ctx, target.id);
  const taken = new Set(targetFields.map((one) => one.name.toLowerCase()));
  const base = table.name.slice(0, 190);
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base} ${n}`;
  await ctx.lock(`field-name:${target.id}:${name.toLowerCase()}`);
  const inverse = await ctx.db.fields.create({ id: crypto.randomUUID(), table_id: target.id, name, type: 'link', options: { table_id: table.id, inverse_field_id: field.id }, position: Math.max(0, ...targetFields.map((one) => one.position)) + 1, revision: 1 });
  field.options = { ...field.options, inverse_field_id: inverse.id };
  await ctx.db.fields.update({ options: field.options }, { where: { id: field.id } });
  // The records that already link (a one-way link upgraded) fill the inverse cells.
  const byTarget = new Map<string, string[]>();
  for (const record of await ctx.db.records.findAll({ where: { table_id: table.id }, order: [['number', 'ASC']] })) {
    for (const id of linkIds(record.cells[field.id])) byTarget.set(id, [...(byTarget.get(id) ?? []), record.id]);
  }
  if (byTarget.size) {
    const fields = [...targetFields, inverse];
    const linked = new LinkedRecords(ctx);
    for (const row of await ctx.db.records.findAll({ where: { id: [...byTarget.keys()], table_id: target.id }, order: [['number', 'ASC']] })) {
      await writeCells(ctx, target, fields, row, { [inverse.id]: byTarget.get(row.id)! }, linked, null, false);
    }
  }
  if (by) ctx.events.stage('core.tables.field.created', { field_id: inverse.id, table_id: target.id, base_id: target.base_id, name: inverse.name, type: inverse.type, by });
  ctx.live.publish(`tables/${target.id}`, 'field.created', { id: inverse.id, name: inverse.name, type: inverse.type });
  return inverse;
}


/** What a computed field reads. */
export function dependenciesOf(field: Pick<Field, 'type' | 'options'>): string[] {
  if (field.type === 'formula') return (field.options.formula as CompiledFormula | undefined)?.references ?? [];
  if (field.type === 'lookup' || field.type === 'rollup') return [field.options.link_field_id as string];
  return [];
}

/** The computed fields of a table in the order they must be computed. */
export function computeOrder(fields: Field[]): Field[] {
  const computed = fields.filter((field) => COMPUTED.has(field.type));
  const ordering = orderFields(new Map(computed.map((field) => [field.id, dependenciesOf(field)])));
  if (!ordering.order) return computed;
  const byId = new Map(computed.map((field) => [field.id, field]));
  return ordering.order.map((id) => byId.get(id)!);
}

/** Reads linked records once per computation pass. */
export class LinkedRecords {
  private readonly cache = new Map<string, TableRecord | null>();
  constructor(private readonly ctx: AnyCtx) {}
  async many(ids: string[]): Promise<TableRecord[]> {
    const missing = ids.filter((id) => !this.cache.has(id));
    if (missing.length) {
      const rows = await this.ctx.db.records.findAll({ where: { id: missing } });
      for (const id of missing) this.cache.set(id, null);
      for (const row of rows) this.cache.set(row.id, row);
    }
    return ids.map((id) => this.cache.get(id)).filter((row): row is TableRecord => Boolean(row));
  }
}

/** The ids a link cell holds. */
export const linkIds = (value: unknown): string[] => (Array.isArray(value) ? (value as string[]) : []);

/**
 * The inverse cells a request's link writes change (docs/decisions/0298-tables-two-way-links.md):
 * noted as each record is written, then applied once per linked record at the end of the request,
 * so a record linked from several written records is written, versioned and announced once.
 */
export class InverseLinks {
  /** By linked record, by inverse field: the ids to add and to remove. */
  private readonly pending = new Map<string, Map<string, { add: string[]; remove: Set<string> }>>();

  /** Notes the links a record's write added and removed, for every two-way link field. */
  note(fields: Field[], recordId: string, before: Record<string, unknown>, after: Record<string, unknown>): void {
    for (const field of fields) {
      const inverseId = field.type === 'link' ? (field.options.inverse_field_id as string | undefined) : undefined;
      if (!inverseId) continue;
      const [was, now] = [linkIds(before[field.id]), linkIds(after[field.id])];
      for (const id of now) if (!was.includes(id)) this.entry(id, inverseId).add.push(recordId);
      for (const id of was) if (!now.includes(id)) this.entry(id, inverseId).remove.add(recordId);
    }
  }

  private entry(recordId: string, fieldId: string) {
    let byField = this.pending.get(recordId);
    if (!byField) this.pending.set(recordId, (byField = new Map()));
    let entry = byField.get(fieldId);
    if (!entry) byField.set(fieldId, (entry = { add: [], remove: new Set() }));
    return entry;
  }

  /** Writes each linked record's inverse cells once (versions, history, one record.updated event). */
  async apply(ctx: AnyCtx, actorId: string | null): Promise<void> {
    if (!this.pending.size) return;
    const rows = await ctx.db.records.findAll({ where: { id: [...this.pending.keys()] }, order: [['number', 'ASC']], lock: 'update' });
    const tables = new Map<string, { table: Table; fields: Field[] } | null>();
    const linked = new LinkedRecords(ctx);
    for (const row of rows) {
      if (!tables.has(row.table_id)) {
        const table = await ctx.db.tables.findById(row.table_id);
        tables.set(row.table_id, table ? { table, fields: await fieldsOf(ctx, table.id) } : null);
      }
      const target = tables.get(row.table_id);
      if (!target) continue;
      const written: Record<string, unknown> = {};
      for (const [fieldId, { add, remove }] of this.pending.get(row.id)!) {
        if (!target.fields.some((field) => field.id === fieldId)) continue;
        const ids = linkIds(row.cells[fieldId]).filter((id) => !remove.has(id));
        for (const id of add) if (!ids.includes(id)) ids.push(id);
        written[fieldId] = ids.length ? ids : null;
      }
      await writeCells(ctx, target.table, target.fields, row, written, linked, actorId, true);
    }
    this.pending.clear();
  }
}

function rollup(fn: string, values: unknown[]): unknown {
  const present = values.filter((value) => value !== null && value !== undefined && value !== '');
  if (fn === 'count') return present.length;
  if (fn === 'concat') return present.map((value) => display(value)).join(', ') || null;
  const numbers = present.map((value) => (typeof value === 'boolean' ? Number(value) : value)).filter((value) => typeof value === 'number' || (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)));
  if (!numbers.length) return fn === 'sum' ? 0 : null;
  const decimals = numbers.map((value) => new Decimal(value as string | number));
  if (fn === 'sum') return Decimal.sum(...decimals).toNumber();
  if (fn === 'min') return Decimal.min(...decimals).toNumber();
  if (fn === 'max') return Decimal.max(...decimals).toNumber();
  return Decimal.sum(...decimals).div(decimals.length).toNumber();
}

/** The record's cells with every computed cell recomputed in dependency order. */
export async function computeCells(fields: Field[], cells: Record<string, unknown>, number: number, linked: LinkedRecords): Promise<Record<string, unknown>> {
  const next = { ...cells };
  const byId = new Map(fields.map((field) => [field.id, field]));
  for (const field of computeOrder(fields)) {
    if (field.type === 'autonumber') next[field.id] = number;
    else if (field.type === 'formula') {
      const formula = field.options.formula as CompiledFormula;
      next[field.id] = evaluate(formula, formula.references.map((id) => formulaInput(byId.get(id), next[id])));
    } else {
      const ids = (next[field.options.link_field_id as string] as string[] | null) ?? [];
      const targets = await linked.many(ids);
      const values = targets.flatMap((target) => {
        const value = target.cells[field.options.field_id as string];
        return Array.isArray(value) ? value : [value];
      });
      next[field.id] = field.type === 'lookup' ? (values.filter((value) => value !== null && value !== undefined).length ? values.filter((value) => value !== null && value !== undefined) : null) : rollup(field.options.function as string, values);
    }
  }
  for (const id of Object.keys(next)) if (!byId.has(id)) delete next[id];
  return next;
}

/** The title a record shows: its primary field as text. */
export function titleOf(table: Table, cells: Record<string, unknown>): string {
  return (table.primary_field_id ? display(cells[table.primary_field_id]) : '').slice(0, 500);
}

function searchDocument(table: Table, record: { id: string; number: number; title: string }) {
  return { type: 'record', id: record.id, badge: `#${record.number}`, title: record.title || `${table.name} #${record.number}`, subtitle: table.name, url: `/app/tables/tables/${table.id}?record=${record.id}`, names: [record.title || `#${record.number}`], details: [table.name], filters: { table_id: table.id, base_id: table.base_id } };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Checks written cells: known fields, writable, values of their type; members of the workspace; links to records of the linked table. */
async function checkCells(ctx: AnyCtx, fields: Field[], cells: Record<string, unknown>, path: string): Promise<Record<string, unknown>> {
  const byId = new Map(fields.map((field) => [field.id, field]));
  const out: Record<string, unknown> = {};
  for (const [id, value] of Object.entries(cells)) {
    const field = byId.get(id);
    if (!field) throw new InvalidError(`${path}.${id}: no field ${id} in this table`, { field: `${path}.${id}` });
    try {
      out[id] = normalize(field, value);
    } catch (error) {
      throw new InvalidError(`${path}.${id}: ${(error as Error).message}`, { field: `${path}.${id}` });
    }
    if (field.type === 'member' && out[id]) await ctx.members.require([out[id] as string], `${path}.${id}`);
    if (field.type === 'mrn' && out[id]) out[id] = await resolveMrn(ctx, field, out[id] as string, `${path}.${id}`);
    if (field.type === 'attachment' && out[id]) out[id] = await resolveAttachments(ctx, field, out[id] as Array<{ key: string; name: string }>, `${path}.${id}`);
    if (field.type === 'link' && out[id]) {
      const ids = out[id] as string[];
      const found = (await ctx.db.records.findAll({ where: { id: ids, table_id: field.options.table_id as string }, attributes: ['id'] })).map((row) => row.id);
      const missing = ids.find((linked) => !found.includes(linked));
      if (missing) throw new InvalidError(`${path}.${id}: ${field.name} links to no record ${missing} of its table`, { field: `${path}.${id}` });
    }
  }
  return out;
}

/** Publishes a record's change to the table's live channel (after the commit). */
function publish(ctx: AnyCtx, type: 'record.created' | 'record.updated' | 'record.deleted', record: TableRecord, changed?: string[]) {
  ctx.live.publish(`tables/${record.table_id}`, type, type === 'record.deleted' ? { id: record.id, table_id: record.table_id } : { ...presentRecord(record), ...(changed ? { changed_field_ids: changed } : {}) });
}

/** Creates records (one, or up to 1,000 at once): every one is checked before any is written. */
export async function createRecords(ctx: Ctx, tableId: string, inputs: Array<{ cells?: Record<string, unknown> }>, bulk: boolean): Promise<TableRecord[]> {
  const { table } = await requireTable(ctx, tableId, 'editor', 'update');
  return insertRecords(ctx, table, inputs, bulk ? 'records' : null, ctx.member.id);
}

/** Inserts checked records into a locked table (routes and public forms). */
export async function insertRecords(ctx: AnyCtx, table: Table, inputs: Array<{ cells?: Record<string, unknown> }>, path: string | null, actorId: string | null): Promise<TableRecord[]> {
  const fields = await fieldsOf(ctx, table.id);
  const checked = [];
  for (const [index, input] of inputs.entries()) checked.push(await checkCells(ctx, fields, input.cells ?? {}, path ? `${path}[${index}].cells` : 'cells'));
  const linked = new LinkedRecords(ctx);
  const made: TableRecord[] = [];
  const inverse = new InverseLinks();
  let number = table.next_number;
  for (const cells of checked) {
    const full = await computeCells(fields, withDefaults(fields, cells), number, linked);
    const versions = Object.fromEntries(Object.keys(full).filter((id) => full[id] !== null).map((id) => [id, 1]));
    const record = await ctx.db.records.create({ table_id: table.id, number, cells: full, versions, title: titleOf(table, full), created_by: actorId, updated_by: actorId, revision: 1 });
    number += 1;
    inverse.note(fields, record.id, {}, full);
    const changes = Object.fromEntries(fields.filter((field) => full[field.id] !== null && full[field.id] !== undefined).map((field) => [field.id, { from: null, to: full[field.id] }]));
    await ctx.db.history.create({ record_id: record.id, kind: 'created', changes, actor_id: actorId });
    ctx.search.upsert(searchDocument(table, record));
    ctx.events.stage('core.tables.record.created', { record_id: record.id, table_id: table.id, base_id: table.base_id, number: record.number, field_ids: Object.keys(changes), ...(actorId ? { by: `mrn:account:member:${actorId}` } : {}) });
    publish(ctx, 'record.created', record);
    made.push(record);
  }
  await ctx.db.tables.update({ next_number: number }, { where: { id: table.id } });
  table.next_number = number;
  await inverse.apply(ctx, actorId);
  return made;
}

/** A checkbox is false until set. */
function withDefaults(fields: Field[], cells: Record<string, unknown>): Record<string, unknown> {
  const out = { ...cells };
  for (const field of fields) if (field.type === 'checkbox' && out[field.id] === undefined) out[field.id] = false;
  return out;
}

/** One record's change: the cells and the version of each the caller read. */
export interface RecordChange {
  cells: Record<string, unknown>;
  versions: Record<string, number>;
}

/** Updates one record's cells; each names the version it read (a stale one is a 409 with the current value). */
export async function updateRecord(ctx: Ctx, recordId: string, change: RecordChange): Promise<TableRecord> {
  const { record, table } = await requireRecord(ctx, recordId, 'editor', 'update');
  const fields = await fieldsOf(ctx, table.id);
  const inverse = new InverseLinks();
  const updated = await applyChange(ctx, table, fields, record, change, '', new LinkedRecords(ctx), inverse);
  await inverse.apply(ctx, ctx.member.id);
  return updated;
}

/** Updates up to 1,000 records of a table in one request: all or none. */
export async function updateRecords(ctx: Ctx, tableId: string, changes: Array<RecordChange & { id: string }>): Promise<TableRecord[]> {
  const { table } = await requireTable(ctx, tableId, 'editor');
  const fields = await fieldsOf(ctx, table.id);
  const linked = new LinkedRecords(ctx);
  const ids = changes.map((change) => change.id.toLowerCase());
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate) throw new InvalidError(`records: record ${duplicate} is named twice`, { field: 'records' });
  const rows = await ctx.db.records.findAll({ where: { id: ids, table_id: table.id }, lock: 'update' });
  const out = [];
  const inverse = new InverseLinks();
  for (const [index, change] of changes.entries()) {
    const record = rows.find((row) => row.id === ids[index]);
    if (!record) throw new NotFoundError(`records[${index}].id: record ${change.id} not found in table ${table.name}`);
    out.push(await applyChange(ctx, table, fields, record, change, `records[${index}].`, linked, inverse));
  }
  await inverse.apply(ctx, ctx.member.id);
  return out;
}

async function applyChange(ctx: Ctx, table: Table, fields: Field[], record: TableRecord, change: RecordChange, prefix: string, linked: LinkedRecords, inverse: InverseLinks): Promise<TableRecord> {
  const written = await checkCells(ctx, fields, change.cells, `${prefix}cells`);
  const byId = new Map(fields.map((field) => [field.id, field]));
  for (const id of Object.keys(written)) {
    const read = change.versions[id];
    if (read === undefined) throw new InvalidError(`${prefix}versions.${id}: the version of the cell you read is required`, { field: `${prefix}versions.${id}` });
    const current = record.versions[id] ?? 0;
    if (read !== current) {
      throw new ConflictError(`Cell ${byId.get(id)!.name} of record #${record.number} changed since you read it (you read version ${read}; it is now version ${current}, value ${JSON.stringify(record.cells[id] ?? null)})`, { field: `${prefix}cells.${id}` });
    }
  }
  return writeCells(ctx, table, fields, record, written, linked, ctx.member.id, true, inverse);
}

/** Writes cells and the computed ones that follow: versions, history, title, search, event, live. */
export async function writeCells(ctx: AnyCtx, table: Table, fields: Field[], record: TableRecord, written: Record<string, unknown>, linked: LinkedRecords, actorId: string | null, withEvent: boolean, inverse?: InverseLinks): Promise<TableRecord> {
  const next = await computeCells(fields, { ...record.cells, ...written }, record.number, linked);
  inverse?.note(fields, record.id, record.cells, next);
  const position = new Map(fields.map((field, index) => [field.id, index]));
  const changed = Object.keys({ ...record.cells, ...next }).filter((id) => !same(record.cells[id], next[id])).sort((a, b) => (position.get(a) ?? -1) - (position.get(b) ?? -1));
  if (!changed.length) return record;
  const versions = { ...record.versions };
  for (const id of changed) versions[id] = (versions[id] ?? 0) + 1;
  const title = titleOf(table, next);
  const updated = { ...record, cells: next, versions, title, revision: record.revision + 1, updated_by: actorId ?? record.updated_by, updated_at: ctx.now() };
  await ctx.db.records.update({ cells: next, versions, title, revision: updated.revision, updated_by: updated.updated_by }, { where: { id: record.id } });
  await ctx.db.history.create({ record_id: record.id, kind: 'updated', changes: Object.fromEntries(changed.map((id) => [id, { from: record.cells[id] ?? null, to: next[id] ?? null }])), actor_id: actorId });
  if (title !== record.title) ctx.search.upsert(searchDocument(table, updated));
  if (withEvent) ctx.events.stage('core.tables.record.updated', { record_id: record.id, table_id: table.id, base_id: table.base_id, changed_field_ids: changed, ...(actorId ? { by: `mrn:account:member:${actorId}` } : {}) });
  publish(ctx, 'record.updated', updated, changed);
  await refreshLinkers(ctx, table, [record.id]);
  return updated;
}

/**
 * Recomputes the records that link to the given records of `table` and read them through a
 * lookup or a rollup (one level: a chain of lookups across three tables refreshes on its own next write).
 */
async function refreshLinkers(ctx: AnyCtx, table: Table, recordIds: string[], removed = false): Promise<void> {
  const links = (await ctx.db.fields.findAll({ where: { type: 'link' } })).filter((field) => field.options.table_id === table.id);
  for (const link of links) {
    const fields = await fieldsOf(ctx, link.table_id);
    const readers = fields.some((field) => (field.type === 'lookup' || field.type === 'rollup') && field.options.link_field_id === link.id);
    if (!readers && !removed) continue;
    const linkerTable = await ctx.db.tables.findById(link.table_id);
    if (!linkerTable) continue;
    const rows = (await ctx.db.records.findAll({ where: { table_id: link.table_id } })).filter((row) => ((row.cells[link.id] as string[] | null) ?? []).some((id) => recordIds.includes(id)));
    const linked = new LinkedRecords(ctx);
    for (const row of rows) {
      const written: Record<string, unknown> = removed ? { [link.id]: ((row.cells[link.id] as string[]) ?? []).filter((id) => !recordIds.includes(id)) } : {};
      if (removed && !(written[link.id] as string[]).length) written[link.id] = null;
      const next = await computeCells(fields, { ...row.cells, ...written }, row.number, linked);
      const changed = Object.keys({ ...row.cells, ...next }).filter((id) => !same(row.cells[id], next[id]));
      if (!changed.length) continue;
      const versions = { ...row.versions };
      for (const id of changed) versions[id] = (versions[id] ?? 0) + 1;
      const title = titleOf(linkerTable, next);
      await ctx.db.records.update({ cells: next, versions, title, revision: row.revision + 1 }, { where: { id: row.id } });
      publish(ctx, 'record.updated', { ...row, cells: next, versions, title, revision: row.revision + 1 }, changed);
    }
  }
}

/** Deletes a record; the links to it are removed from the records that held them. */
export async function deleteRecord(ctx: Ctx, recordId: string) {
  const { record, table } = await requireRecord(ctx, recordId, 'editor', 'update');
  await ctx.db.records.destroy({ where: { id: record.id } });
  ctx.search.remove('record', record.id);
  ctx.events.stage('core.tables.record.deleted', { record_id: record.id, table_id: table.id, base_id: table.base_id, by: ctx.member.mrn });
  publish(ctx, 'record.deleted', record);
  await refreshLinkers(ctx, table, [record.id], true);
  return { id: record.id, deleted: true as const };
}

/** Recomputes every record of a table (a computed field was added or changed). */
export async function recomputeTable(ctx: AnyCtx, table: Table): Promise<void> {
  const fields = await fieldsOf(ctx, table.id);
  const linked = new LinkedRecords(ctx);
  for (const record of await ctx.db.records.findAll({ where: { table_id: table.id }, order: [['number', 'ASC']] })) {
    await writeCells(ctx, table, fields, record, {}, linked, null, false);
  }
}

/** Titles every record again (the primary field changed). */
export async function retitleTable(ctx: AnyCtx, table: Table): Promise<void> {
  for (const record of await ctx.db.records.findAll({ where: { table_id: table.id } })) {
    const title = titleOf(table, record.cells);
    if (title !== record.title) await ctx.db.records.update({ title }, { where: { id: record.id } });
    ctx.search.upsert(searchDocument(table, { ...record, title }));
  }
}

export { searchDocument };
export type { Base };
