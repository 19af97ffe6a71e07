/**
 * Listing records: filters, sorts and a group, as a request or a saved view says, and keyset
 * pages (the cursor holds the last row's sort values and number, so a page never repeats or skips
 * a row when others are added before it). All of it is evaluated in SQL by a typed expression per
 * field type over `cells -> field id` (the field id and every value bound as parameters):
 * numbers and decimals as exact numerics, text case-insensitively, checkboxes as booleans, lists
 * item by item (docs/decisions/0295-tables-listing-in-sql.md).
 */
import { InvalidError, joinSql, sql, type SqlFragment } from '@wpk/sdk';
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

const NUMERIC = new Set(['number', 'currency', 'autonumber', 'rollup', 'formula']);

/** A cell of the row being read. */
const cellOf = (field: Field): SqlFragment => sql`(cells -> ${field.id}::text)`;

/** A JSON value bound as a parameter (a cursor's value), read by the same expressions as a cell. */
const jsonValue = (value: unknown): SqlFragment => sql`(${JSON.stringify(value ?? null)}::jsonb)`;

/** An empty cell for ordering and comparing: absent, null or "". */
const blank = (cell: SqlFragment) => sql`(${cell} IS NULL OR ${cell} = 'null'::jsonb OR ${cell} = '""'::jsonb)`;

/** The text of a list item (cells.display of one item). */
const itemText = (item: SqlFragment) =>
  sql`CASE jsonb_typeof(${item}) WHEN 'object' THEN ${named(item)} WHEN 'array' THEN ${item}::text WHEN 'null' THEN '' ELSE ${item} #>> '{}' END`;

/** An object cell's text: its name (marked when deleted), else its JSON. */
function named(value: SqlFragment): SqlFragment {
  return sql`CASE WHEN jsonb_typeof(${value} -> 'name') = 'string' THEN (${value} ->> 'name') || CASE WHEN coalesce(${value} -> 'deleted', 'null'::jsonb) IN ('null'::jsonb, 'false'::jsonb, '0'::jsonb, '""'::jsonb) THEN '' ELSE ' (deleted)' END ELSE ${value}::text END`;
}

/** A cell as text, as cells.display writes it (lists joined by ", ", their objects by name). */
function text(cell: SqlFragment): SqlFragment {
  return sql`coalesce(CASE jsonb_typeof(${cell})
    WHEN 'array' THEN coalesce((SELECT string_agg(CASE WHEN jsonb_typeof(item.value) IN ('object', 'array') THEN coalesce(item.value ->> 'name', '') WHEN jsonb_typeof(item.value) = 'null' THEN '' ELSE item.value #>> '{}' END, ', ' ORDER BY item.at) FROM jsonb_array_elements(${cell}) WITH ORDINALITY AS item(value, at)), '')
    WHEN 'object' THEN ${named(cell)}
    WHEN 'null' THEN ''
    ELSE ${cell} #>> '{}' END, '')`;
}

/** The text compared: lower case, in code point order (as JavaScript compares strings). */
const folded = (cell: SqlFragment) => sql`(lower(${text(cell)}) COLLATE "C")`;

/** A cell as an exact numeric: a JSON number, or a decimal written as a string (currency); else null. */
const numeric = (cell: SqlFragment, numbersOnly: boolean) =>
  numbersOnly
    ? sql`CASE WHEN jsonb_typeof(${cell}) = 'number' THEN (${cell} #>> '{}')::numeric END`
    : sql`CASE WHEN jsonb_typeof(${cell}) = 'number' THEN (${cell} #>> '{}')::numeric WHEN jsonb_typeof(${cell}) = 'string' AND (${cell} #>> '{}') ~ '^-?[0-9]+([.][0-9]+)?$' THEN (${cell} #>> '{}')::numeric END`;

/** A checkbox as 1 or 0 (JavaScript's Number of a boolean). */
const flag = (cell: SqlFragment) => sql`(CASE WHEN ${cell} = 'true'::jsonb THEN 1 ELSE 0 END)`;

/**
 * The ordering keys of a field's cell, never null, each compared with the sort's direction except
 * the flags (always false first): an empty cell last; numbers (exact) before text in numeric fields.
 */
function orderingKeys(field: Field, cell: SqlFragment): Array<{ key: SqlFragment; flag: boolean }> {
  const keys = [{ key: blank(cell), flag: true }];
  if (field.type === 'checkbox') return [...keys, { key: flag(cell), flag: false }];
  if (NUMERIC.has(field.type)) {
    const number = numeric(cell, field.type === 'formula');
    keys.push({ key: sql`(${number} IS NULL)`, flag: true }, { key: sql`coalesce(${number}, 0)`, flag: false });
  }
  return [...keys, { key: folded(cell), flag: false }];
}

/** `cell op value` as the field's type compares them; never null. */
function comparison(field: Field, cell: SqlFragment, op: 'eq' | 'gt' | 'gte' | 'lt' | 'lte', value: unknown): SqlFragment {
  const symbol = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' }[op];
  const compareWith = (left: SqlFragment, right: SqlFragment) => sql`${left} ${sql([symbol])} ${right}`;
  const nullish = (cell_: SqlFragment) => sql`(${cell_} IS NULL OR ${cell_} = 'null'::jsonb)`;
  if (value === null || value === undefined || value === '') {
    // An empty value: equal to an empty cell (eq null: only an absent or null one), before every other.
    if (op === 'eq') return value === '' ? sql`coalesce(${cell} = '""'::jsonb, false)` : nullish(cell);
    if (op === 'lt') return sql`NOT ${blank(cell)}`;
    if (op === 'lte') return sql`NOT ${nullish(cell)}`;
    return op === 'gte' ? sql`coalesce(${cell} = '""'::jsonb, false)` : sql`false`;
  }
  let typed: SqlFragment;
  if (field.type === 'checkbox' || typeof value === 'boolean') {
    const number = Number(value);
    typed = Number.isFinite(number) ? compareWith(flag(cell), sql`${number}::numeric`) : sql`false`;
  } else {
    let exact: string | null = null;
    if (NUMERIC.has(field.type) && (field.type !== 'formula' || typeof value === 'number')) {
      try {
        // NaN, infinities and exponents past a thousand digits compare as text, not as numerics.
        const decimal = new Decimal(value as string | number);
        exact = decimal.isFinite() && Math.abs(decimal.e) <= 1000 ? decimal.toFixed() : null;
      } catch {
        exact = null;
      }
    }
    const asText = compareWith(folded(cell), sql`${display(value).toLowerCase()}::text`);
    if (exact === null) typed = asText;
    else {
      const number = numeric(cell, field.type === 'formula');
      typed = sql`CASE WHEN ${number} IS NOT NULL THEN ${compareWith(number, sql`${exact}::numeric`)} ELSE ${asText} END`;
    }
  }
  // A nullish cell matches no comparison with a value; "" comes after every value.
  const after = op === 'gt' || op === 'gte' ? sql`true` : sql`false`;
  return sql`(CASE WHEN ${nullish(cell)} THEN false WHEN ${cell} = '""'::jsonb THEN ${after} ELSE coalesce(${typed}, false) END)`;
}

/** One filter as a condition (the cells.display text for contains; empty also counts [] and false). */
function condition(field: Field, filter: Filter): SqlFragment {
  const cell = cellOf(field);
  switch (filter.op) {
    case 'empty':
    case 'not_empty': {
      const empty = sql`(${cell} IS NULL OR ${cell} IN ('null'::jsonb, '""'::jsonb, '[]'::jsonb, 'false'::jsonb))`;
      return filter.op === 'empty' ? empty : sql`NOT ${empty}`;
    }
    case 'contains':
    case 'not_contains': {
      const needle = display(filter.value).toLowerCase();
      const has = sql`(CASE WHEN jsonb_typeof(${cell}) = 'array' THEN EXISTS (SELECT 1 FROM jsonb_array_elements(${cell}) AS item(value) WHERE strpos(lower(${itemText(sql`(item.value)`)}), ${needle}::text) > 0) ELSE strpos(lower(${text(cell)}), ${needle}::text) > 0 END)`;
      return filter.op === 'contains' ? has : sql`NOT ${has}`;
    }
    case 'neq':
      return sql`NOT ${comparison(field, cell, 'eq', filter.value)}`;
    default:
      return comparison(field, cell, filter.op, filter.value);
  }
}

/** A listing's ordering: each key's expressions with its direction, the record number last. */
interface Ordering { keys: Array<{ field: Field; sign: 1 | -1 }> }

function orderBy(ordering: Ordering): SqlFragment {
  const parts = ordering.keys.flatMap(({ field, sign }) => orderingKeys(field, cellOf(field)).map(({ key, flag: isFlag }) => sql`${key} ${sql([isFlag || sign === 1 ? 'ASC' : 'DESC'])}`));
  return joinSql([...parts, sql`number ASC`], ', ');
}

/** Rows after the cursor's tuple in the ordering: the keys compared one after the other. */
function afterCursor(ordering: Ordering, cursor: unknown[]): SqlFragment {
  const columns = ordering.keys.flatMap(({ field, sign }, index) => {
    const mine = orderingKeys(field, cellOf(field));
    const theirs = orderingKeys(field, jsonValue(cursor[index]));
    return mine.map(({ key, flag: isFlag }, at) => ({ mine: key, theirs: theirs[at]!.key, ascending: isFlag || sign === 1 }));
  });
  columns.push({ mine: sql`number`, theirs: sql`${cursor[ordering.keys.length] as number}::bigint`, ascending: true });
  const alternatives = columns.map((column, index) =>
    joinSql([...columns.slice(0, index).map((before) => sql`${before.mine} = ${before.theirs}`), sql`${column.mine} ${sql([column.ascending ? '>' : '<'])} ${column.theirs}`], ' AND '),
  );
  return sql`(${joinSql(alternatives.map((alternative) => sql`(${alternative})`), ' OR ')})`;
}

/** The condition of a listing: its table, its filters, and a text search over every cell. */
function listingWhere(tableId: string, filters: Filter[], byId: Map<string, Field>, q?: string): SqlFragment[] {
  const parts = [sql`table_id = ${tableId}::uuid`];
  for (const filter of filters) {
    const field = byId.get(filter.field_id);
    if (field) parts.push(condition(field, filter));
  }
  if (q) parts.push(sql`EXISTS (SELECT 1 FROM jsonb_each(cells) AS cell(id, value) WHERE strpos(lower(${text(sql`(cell.value)`)}), ${q.toLowerCase()}::text) > 0)`);
  return parts;
}

/** The sort keys of a listing: the group first, then the sorts, each of a field that still exists. */
function orderingOf(config: ViewConfig, byId: Map<string, Field>): Ordering {
  const keys: Ordering['keys'] = [];
  if (config.group_by && byId.get(config.group_by)) keys.push({ field: byId.get(config.group_by)!, sign: 1 });
  for (const sort of config.sorts ?? []) if (byId.get(sort.field_id)) keys.push({ field: byId.get(sort.field_id)!, sign: sort.direction === 'desc' ? -1 : 1 });
  return { keys };
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
  let config: ViewConfig & { kanban_field_id?: string; date_field_id?: string; cover_field_id?: string } = {};
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
  const ordering = orderingOf(effective, byId);
  const where = listingWhere(table.id, effective.filters!, byId, query.q);
  const order = orderBy(ordering);
  const parts = [...where];
  if (query.after) {
    let cursor: unknown[];
    try {
      cursor = JSON.parse(Buffer.from(query.after, 'base64url').toString('utf8')) as unknown[];
      if (!Array.isArray(cursor) || cursor.length !== ordering.keys.length + 1 || !Number.isSafeInteger(cursor[ordering.keys.length])) throw new Error('shape');
    } catch {
      throw new InvalidError('after: not a cursor of this listing (use next_cursor as answered, with the same filter and sort)', { field: 'after' });
    }
    parts.push(afterCursor(ordering, cursor));
  }
  const limit = ctx.page.limit;
  const read = await ctx.db.records.findAll({ where: joinSql(parts, ' AND '), order, limit: limit + 1 });
  const total = await ctx.db.records.count({ where: joinSql(where, ' AND ') });
  const page = read.slice(0, limit);
  const last = page.at(-1);
  const next = last && read.length > limit ? Buffer.from(JSON.stringify([...ordering.keys.map((key) => last.cells[key.field.id] ?? null), last.number])).toString('base64url') : null;
  // The groups of every record the filters keep (not only this page's), in the listing's group order.
  const groups = effective.group_by && byId.get(effective.group_by) ? await groupsOf(ctx, where, byId.get(effective.group_by)!) : [];
  // Hiding is for the cells a view shows: the fields it is laid out by (a kanban's columns, a calendar's
  // days, a gallery's covers) stay in its listing, or every card of a kanban hiding its select would
  // land under "No value" with no version to move it by.
  const layout = [config.kanban_field_id, config.date_field_id, config.cover_field_id];
  const hidden = new Set(effective.hidden_fields!.filter((id) => !layout.includes(id)));
  return { rows: page.map((row) => presentRecord(row, hidden)), total, groups, next_cursor: next };
}

/**
 * The groups of a listing: each distinct cell of the group field among the records `where` keeps,
 * with its count, in one grouped count, ordered as the listing orders the group field (ascending,
 * empty last); values that order alike (text differing by case) by their JSON.
 */
async function groupsOf(ctx: Ctx, where: SqlFragment[], field: Field): Promise<Array<{ value: unknown; count: number }>> {
  const key = sql`("key")`;
  const order = joinSql([...orderingKeys(field, key).map(({ key: column }) => sql`${column} ASC`), sql`("key")::text COLLATE "C" ASC`], ', ');
  const groups = await ctx.db.records.countBy({ where: joinSql(where, ' AND '), by: sql`coalesce(${cellOf(field)}, 'null'::jsonb)`, order });
  return groups.map((group) => ({ value: group.key ?? null, count: group.count }));
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
  const rows = await ctx.db.records.findAll({ where: joinSql(listingWhere(tableId, config.filters ?? [], byId), ' AND '), order: orderBy(orderingOf(config, byId)) });
  const hidden = new Set(config.hidden_fields ?? []);
  return { fields: fields.filter((field) => !hidden.has(field.id)), rows };
}
