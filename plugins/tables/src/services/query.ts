/**
 * Listing records: filters, sorts and a group, as a request or a saved view says, and keyset
 * pages (the cursor holds the last row's sort values and id, so a page never repeats or skips
 * a row when others are added before it).
 */
import { InvalidError } from '@wpk/sdk';
import { Decimal } from 'decimal.js';
import type { Ctx } from '../kit.js';
import type { Field, TableRecord } from '../models/index.js';
import { requireTable, requireView } from './access.js';
import { display } from './cells.js';
import { fieldsOf, presentRecord } from './records.js';

export const OPERATORS = ['eq', 'neq', 'contains', 'not_contains', 'gt', 'gte', 'lt', 'lte', 'empty', 'not_empty'] as const;
export type Operator = (typeof OPERATORS)[number];
export interface Filter { field_id: string; op: Operator; value?: unknown }
export interface Sort { field_id: string; direction?: 'asc' | 'desc' }
export interface ViewConfig { filters?: Filter[]; sorts?: Sort[]; group_by?: string | null; hidden_fields?: string[] }

const NUMERIC = new Set(['number', 'currency', 'autonumber', 'rollup']);

/** Compares two cells of a field (empty last). */
function compare(field: Field, a: unknown, b: unknown): number {
  const emptyA = a === null || a === undefined || a === '';
  const emptyB = b === null || b === undefined || b === '';
  if (emptyA || emptyB) return emptyA === emptyB ? 0 : emptyA ? 1 : -1;
  if (NUMERIC.has(field.type) || (field.type === 'formula' && typeof a === 'number' && typeof b === 'number')) {
    try {
      return new Decimal(a as string | number).comparedTo(new Decimal(b as string | number));
    } catch {
      /* not numbers: compare as text */
    }
  }
  if (typeof a === 'boolean' || typeof b === 'boolean') return Number(a) - Number(b);
  const [x, y] = [display(a).toLowerCase(), display(b).toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
}

function matches(field: Field, filter: Filter, value: unknown): boolean {
  const empty = value === null || value === undefined || value === '' || (Array.isArray(value) && !value.length) || value === false;
  switch (filter.op) {
    case 'empty':
      return empty;
    case 'not_empty':
      return !empty;
    case 'contains':
    case 'not_contains': {
      const has = Array.isArray(value) ? value.some((item) => display(item).toLowerCase().includes(display(filter.value).toLowerCase())) : display(value).toLowerCase().includes(display(filter.value).toLowerCase());
      return filter.op === 'contains' ? has : !has;
    }
    case 'eq':
      return compare(field, value, filter.value) === 0 && !(value === null || value === undefined) === !(filter.value === null || filter.value === undefined);
    case 'neq':
      return !matches(field, { ...filter, op: 'eq' }, value);
    default: {
      if (value === null || value === undefined) return false;
      const order = compare(field, value, filter.value);
      return filter.op === 'gt' ? order > 0 : filter.op === 'gte' ? order >= 0 : filter.op === 'lt' ? order < 0 : order <= 0;
    }
  }
}

function parseJson<T>(text: string | undefined, name: string): T | undefined {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new InvalidError(`${name} is not JSON`, { field: name });
  }
}

/** Checks a view's or a request's filters, sorts, group and hidden fields against the table's fields. */
export function checkConfig(fields: Field[], config: ViewConfig, prefix = ''): void {
  const known = new Set(fields.map((field) => field.id));
  const need = (id: unknown, where: string) => {
    if (typeof id !== 'string' || !known.has(id)) throw new InvalidError(`${prefix}${where}: no field ${String(id)} in this table`, { field: `${prefix}${where}` });
  };
  (config.filters ?? []).forEach((filter, index) => {
    need(filter?.field_id, `filters[${index}].field_id`);
    if (!OPERATORS.includes(filter.op)) throw new InvalidError(`${prefix}filters[${index}].op: one of ${OPERATORS.join(', ')}`, { field: `${prefix}filters[${index}].op` });
  });
  (config.sorts ?? []).forEach((sort, index) => {
    need(sort?.field_id, `sorts[${index}].field_id`);
    if (sort.direction !== undefined && sort.direction !== 'asc' && sort.direction !== 'desc') throw new InvalidError(`${prefix}sorts[${index}].direction: asc or desc`, { field: `${prefix}sorts[${index}].direction` });
  });
  if (config.group_by) need(config.group_by, 'group_by');
  (config.hidden_fields ?? []).forEach((id, index) => need(id, `hidden_fields[${index}]`));
}

interface ListQuery { view_id?: string; filter?: string; sort?: string; group_by?: string; q?: string; after?: string; per_page?: number }

/** One keyset page of a table's records, with the groups and the next cursor. */
export async function listRecords(ctx: Ctx, tableId: string, query: ListQuery) {
  const { table } = await requireTable(ctx, tableId, 'viewer');
  const fields = await fieldsOf(ctx, table.id);
  let config: ViewConfig = {};
  if (query.view_id) {
    const { view } = await requireView(ctx, query.view_id, 'viewer');
    if (view.table_id !== table.id) throw new InvalidError(`view_id: view ${view.id} is not a view of this table`, { field: 'view_id' });
    config = view.config as ViewConfig;
  }
  const filters = parseJson<Filter[]>(query.filter, 'filter');
  const sorts = parseJson<Sort[]>(query.sort, 'sort');
  if (filters !== undefined && !Array.isArray(filters)) throw new InvalidError('filter: a JSON list of {field_id, op, value}', { field: 'filter' });
  if (sorts !== undefined && !Array.isArray(sorts)) throw new InvalidError('sort: a JSON list of {field_id, direction}', { field: 'sort' });
  const request: ViewConfig = { filters: filters ?? [], sorts: sorts ?? [], group_by: query.group_by ?? null };
  checkConfig(fields, request);
  const effective: ViewConfig = { filters: [...(config.filters ?? []), ...request.filters!], sorts: request.sorts!.length ? request.sorts : config.sorts ?? [], group_by: request.group_by ?? config.group_by ?? null, hidden_fields: config.hidden_fields ?? [] };
  const byId = new Map(fields.map((field) => [field.id, field]));
  let rows = await ctx.db.records.findAll({ where: { table_id: table.id } });
  for (const filter of effective.filters!) {
    const field = byId.get(filter.field_id);
    if (field) rows = rows.filter((row) => matches(field, filter, row.cells[field.id]));
  }
  if (query.q) rows = rows.filter((row) => Object.values(row.cells).some((value) => display(value).toLowerCase().includes(query.q!.toLowerCase())));
  const keys: Array<{ field: Field; sign: number }> = [];
  if (effective.group_by && byId.get(effective.group_by)) keys.push({ field: byId.get(effective.group_by)!, sign: 1 });
  for (const sort of effective.sorts!) if (byId.get(sort.field_id)) keys.push({ field: byId.get(sort.field_id)!, sign: sort.direction === 'desc' ? -1 : 1 });
  const tuple = (row: TableRecord) => [...keys.map((key) => row.cells[key.field.id] ?? null), row.number];
  const order = (a: unknown[], b: unknown[]) => {
    for (const [index, key] of keys.entries()) {
      const result = compare(key.field, a[index], b[index]);
      if (result) return result * key.sign;
    }
    return (a[keys.length] as number) - (b[keys.length] as number);
  };
  rows.sort((a, b) => order(tuple(a), tuple(b)));
  const total = rows.length;
  const groups = effective.group_by && byId.get(effective.group_by) ? groupsOf(rows, byId.get(effective.group_by)!) : [];
  let start = 0;
  if (query.after) {
    let cursor: unknown[];
    try {
      cursor = JSON.parse(Buffer.from(query.after, 'base64url').toString('utf8')) as unknown[];
      if (!Array.isArray(cursor) || cursor.length !== keys.length + 1 || typeof cursor[keys.length] !== 'number') throw new Error('shape');
    } catch {
      throw new InvalidError('after: not a cursor of this listing (use next_cursor as answered, with the same filter and sort)', { field: 'after' });
    }
    start = rows.findIndex((row) => order(tuple(row), cursor) > 0);
    if (start === -1) start = rows.length;
  }
  const limit = ctx.page.limit;
  const page = rows.slice(start, start + limit);
  const last = page.at(-1);
  const next = last && start + limit < rows.length ? Buffer.from(JSON.stringify(tuple(last))).toString('base64url') : null;
  const hidden = new Set(effective.hidden_fields);
  return { rows: page.map((row) => presentRecord(row, hidden)), total, groups, next_cursor: next };
}

function groupsOf(rows: TableRecord[], field: Field) {
  const groups: Array<{ value: unknown; count: number }> = [];
  for (const row of rows) {
    const value = row.cells[field.id] ?? null;
    const last = groups.at(-1);
    if (last && JSON.stringify(last.value) === JSON.stringify(value)) last.count += 1;
    else groups.push({ value, count: 1 });
  }
  return groups;
}

/** Every record of a table in a view's order and filters (or the table's order), for exports. */
export async function listRecordsAll(ctx: Ctx, tableId: string, viewId?: string): Promise<{ fields: Field[]; rows: TableRecord[] }> {
  const fields = await fieldsOf(ctx, tableId);
  let config: ViewConfig = {};
  if (viewId) {
    const { view } = await requireView(ctx, viewId, 'viewer');
    if (view.table_id !== tableId) throw new InvalidError(`view_id: view ${view.id} is not a view of this table`, { field: 'view_id' });
    config = view.config as ViewConfig;
  }
  const byId = new Map(fields.map((field) => [field.id, field]));
  let rows = await ctx.db.records.findAll({ where: { table_id: tableId }, order: [['number', 'ASC']] });
  for (const filter of config.filters ?? []) {
    const field = byId.get(filter.field_id);
    if (field) rows = rows.filter((row) => matches(field, filter, row.cells[field.id]));
  }
  const keys = [...(config.group_by && byId.get(config.group_by) ? [{ field: byId.get(config.group_by)!, sign: 1 }] : []), ...(config.sorts ?? []).filter((sort) => byId.get(sort.field_id)).map((sort) => ({ field: byId.get(sort.field_id)!, sign: sort.direction === 'desc' ? -1 : 1 }))];
  rows.sort((a, b) => {
    for (const key of keys) {
      const result = compare(key.field, a.cells[key.field.id] ?? null, b.cells[key.field.id] ?? null);
      if (result) return result * key.sign;
    }
    return a.number - b.number;
  });
  const hidden = new Set(config.hidden_fields ?? []);
  return { fields: fields.filter((field) => !hidden.has(field.id)), rows };
}
