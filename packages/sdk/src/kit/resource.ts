import type { Order, WhereOptions } from 'sequelize';
import { Op } from 'sequelize';
import type { BaseContext, ContextMember, PageRequest, SearchDocument } from '../app/context.js';
import type { ModelMap, RowLock, RowOf, ScopedModel } from '../app/models.js';
import { NotFoundError } from '../errors.js';
import { isUuid } from '../input/ids.js';
import { likePattern } from './queries.js';

/** The context a resource works in: any context with the app's models (a request's, with its caller; a delivery's, without). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any of the app's contexts (request, subscription, service)
export type ResourceContext<M extends ModelMap> = BaseContext<M, any> & { member?: ContextMember | null };
type AnyContext<M extends ModelMap> = ResourceContext<M>;

/** An event a resource stages after a write: its action and payload. */
export type ResourceEvent = readonly [action: string, payload: Record<string, unknown>];

/** What `defineResource` takes. `A` is the row shape. */
export interface ResourceSpec<M extends ModelMap, K extends keyof M & string> {
  /** The model's name in `ctx.db`. */
  model: K;
  /** The record as a 404 names it: `Company` → "Company {id} not found". */
  label: string;
  /** The list order; end it with a unique column (`id`) so pages never overlap. */
  order: Array<[keyof RowOf<M[K]> & string, 'ASC' | 'DESC']>;
  /** The columns `q` matches (case-insensitive, anywhere in the value). */
  searchColumns?: Array<keyof RowOf<M[K]> & string>;
  /** The search index document of a row (null: not indexed); kept in step by create, patch and remove. */
  search?: { type: string; document(row: RowOf<M[K]>): SearchDocument | null };
  /** The events each write stages (with the request's transaction: only a 2xx answer sends them). */
  events?: {
    created?(row: RowOf<M[K]>, ctx: AnyContext<M>): ResourceEvent;
    updated?(row: RowOf<M[K]>, changed: string[], ctx: AnyContext<M>): ResourceEvent;
    deleted?(row: RowOf<M[K]>, ctx: AnyContext<M>): ResourceEvent;
  };
}

/** Options of `list`. */
export interface ListOptions<A> {
  /** Free text matched against the resource's `searchColumns`. */
  q?: string;
  /** Further conditions (the workspace's is always added). */
  where?: WhereOptions<A>;
  /** The page; default `ctx.page` of a request, else the first 25. */
  page?: Pick<PageRequest, 'offset' | 'limit'>;
}

/** A resource: the reads and writes every app repeats for its common records, in one place. */
export interface Resource<M extends ModelMap, K extends keyof M & string> {
  /** The row with this id in the context's workspace, or null (an id that is no UUID names nothing). */
  find(ctx: AnyContext<M>, id: string, options?: { lock?: RowLock }): Promise<RowOf<M[K]> | null>;
  /** The row with this id, or 404 `{label} {id} not found` (another workspace's id answers the same). */
  require(ctx: AnyContext<M>, id: string, options?: { lock?: RowLock }): Promise<RowOf<M[K]>>;
  /** One page of rows in the resource's order, matching `q` and `where`, and the total. */
  list(ctx: AnyContext<M> & { page?: PageRequest }, options?: ListOptions<RowOf<M[K]>>): Promise<{ rows: RowOf<M[K]>[]; count: number }>;
  /**
   * Every matching row, in the resource's order, read `batch` rows at a time by keyset (each batch
   * starts after the last row of the one before: no offset to skip, no row seen twice). For
   * re-indexing and exports; the order's columns must be NOT NULL.
   */
  walk(ctx: AnyContext<M>, options?: { where?: WhereOptions<RowOf<M[K]>>; batch?: number }): AsyncGenerator<RowOf<M[K]>>;
  /** Inserts a row, indexes it and stages its `created` event. */
  create(ctx: AnyContext<M>, values: Partial<RowOf<M[K]>>): Promise<RowOf<M[K]>>;
  /**
   * Applies `changes` to a row (given as read, locked, by the service; or by id, then read locked
   * here, 404 when none): the fields whose value differs are `changed`; when none does, nothing is
   * written or emitted. Otherwise it writes them with what `touch` adds (a revision, say), re-reads
   * the row, re-indexes it and stages its `updated` event with `changed`.
   */
  patch(ctx: AnyContext<M>, rowOrId: RowOf<M[K]> | string, changes: Partial<RowOf<M[K]>>, options?: { touch?(before: RowOf<M[K]>): Partial<RowOf<M[K]>> }): Promise<{ row: RowOf<M[K]>; changed: string[] }>;
  /** Deletes a row (given, or read locked by id: 404 when none), removes it from the index and stages its `deleted` event. Returns the row as it was. */
  remove(ctx: AnyContext<M>, rowOrId: RowOf<M[K]> | string): Promise<RowOf<M[K]>>;
}

const same = (a: unknown, b: unknown) => {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return JSON.stringify(a) === JSON.stringify(b);
};

/**
 * Declares the common resource of an app (a company, a contact, a location): get-or-404 in the
 * workspace, one page of a filtered list with `q`, a keyset walk, and create / patch / delete that
 * keep the search index in step and stage their events. Services keep their own rules and call
 * these for the plumbing:
 *
 * ```ts
 * export const companies = defineResource<Models, 'companies'>({ model: 'companies', label: 'Company',
 *   order: [['name', 'ASC'], ['id', 'ASC']], searchColumns: ['name', 'domain'],
 *   search: { type: 'company', document: companyDocument },
 *   events: { created: (row, ctx) => ['core.companies.company.created', { ... }] } });
 * ```
 */
export function defineResource<M extends ModelMap, K extends keyof M & string>(spec: ResourceSpec<M, K>): Resource<M, K> {
  type A = RowOf<M[K]>;
  const modelOf = (ctx: AnyContext<M>) => ctx.db[spec.model] as unknown as ScopedModel<A>;
  const last = spec.order[spec.order.length - 1];
  if (!last) throw new TypeError(`defineResource(${spec.model}): order needs at least one column, ending with a unique one`);
  const order = spec.order as unknown as Order;

  const index = (ctx: AnyContext<M>, row: A) => {
    if (!spec.search) return;
    const document = spec.search.document(row);
    if (document) ctx.search.upsert(document);
    else ctx.search.remove(spec.search.type, String((row as { id?: unknown }).id));
  };
  const stage = (ctx: AnyContext<M>, event: ResourceEvent | undefined) => {
    if (event) (ctx.events.stage as (action: string, payload: Record<string, unknown>) => void)(event[0], event[1]);
  };
  const where = (options: ListOptions<A> = {}): WhereOptions<A> => {
    const conditions: Array<WhereOptions<A>> = [];
    if (options.where) conditions.push(options.where);
    if (options.q && spec.searchColumns?.length) {
      const pattern = likePattern(options.q);
      conditions.push({ [Op.or]: spec.searchColumns.map((column) => ({ [column]: { [Op.iLike]: pattern } })) } as WhereOptions<A>);
    }
    return (conditions.length === 1 ? conditions[0] : { [Op.and]: conditions }) as WhereOptions<A>;
  };

  const resource: Resource<M, K> = {
    async find(ctx, id, options = {}) {
      if (!isUuid(id)) return null;
      return modelOf(ctx).findById(id, options.lock ? { lock: options.lock } : {});
    },
    async require(ctx, id, options = {}) {
      const row = await resource.find(ctx, id, options);
      if (!row) throw new NotFoundError(`${spec.label} ${id} not found`);
      return row;
    },
    async list(ctx, options = {}) {
      const page = options.page ?? ctx.page ?? { offset: 0, limit: 25 };
      return modelOf(ctx).findAndCountAll({ where: where(options), order, offset: page.offset, limit: page.limit });
    },
    async *walk(ctx, options = {}) {
      const batch = Math.max(1, Math.min(options.batch ?? 500, 5000));
      let after: A | null = null;
      for (;;) {
        const conditions: Array<WhereOptions<A>> = [];
        if (options.where) conditions.push(options.where);
        if (after) conditions.push(keysetAfter(spec.order, after));
        const rows: A[] = await modelOf(ctx).findAll({ where: { [Op.and]: conditions } as WhereOptions<A>, order, limit: batch });
        yield* rows;
        if (rows.length < batch) return;
        after = rows[rows.length - 1];
      }
    },
    async create(ctx, values) {
      const row = await modelOf(ctx).create(values as Partial<Omit<A, 'workspace_id'>>);
      index(ctx, row);
      stage(ctx, spec.events?.created?.(row, ctx));
      return row;
    },
    async patch(ctx, rowOrId, changes, options = {}) {
      const before = typeof rowOrId === 'string' ? await resource.require(ctx, rowOrId, { lock: 'update' }) : rowOrId;
      const id = String((before as { id?: unknown }).id);
      const changed = Object.keys(changes).filter((field) => (changes as Record<string, unknown>)[field] !== undefined && !same((before as Record<string, unknown>)[field], (changes as Record<string, unknown>)[field]));
      if (changed.length === 0) return { row: before, changed };
      const values = { ...Object.fromEntries(changed.map((field) => [field, (changes as Record<string, unknown>)[field]])), ...(options.touch?.(before) ?? {}) };
      await modelOf(ctx).update(values as Partial<Omit<A, 'workspace_id'>>, { where: { id } as unknown as WhereOptions<A> });
      const row = (await modelOf(ctx).findById(id))!;
      index(ctx, row);
      stage(ctx, spec.events?.updated?.(row, changed, ctx));
      return { row, changed };
    },
    async remove(ctx, rowOrId) {
      const row = typeof rowOrId === 'string' ? await resource.require(ctx, rowOrId, { lock: 'update' }) : rowOrId;
      const id = String((row as { id?: unknown }).id);
      await modelOf(ctx).destroy({ where: { id } as unknown as WhereOptions<A> });
      if (spec.search) ctx.search.remove(spec.search.type, id);
      stage(ctx, spec.events?.deleted?.(row, ctx));
      return row;
    },
  };
  return Object.freeze(resource);
}

/**
 * The rows after `row` in `order` (a row-value comparison spelled out, so it works for mixed
 * directions): `(a > x) OR (a = x AND b > y) OR …`. The order's columns must be NOT NULL.
 */
function keysetAfter<A extends object>(order: Array<[string, 'ASC' | 'DESC']>, row: A): WhereOptions<A> {
  const value = (column: string) => (row as Record<string, unknown>)[column];
  const branches = order.map(([column, direction], position) => {
    const equal = Object.fromEntries(order.slice(0, position).map(([earlier]) => [earlier, value(earlier)]));
    const current = value(column);
    // A keyset needs values to compare with: NULLs sort apart from every value and would be skipped.
    if (current === null || current === undefined) throw new TypeError(`walk: the order column ${column} is null in a row; order a walk by NOT NULL columns only`);
    return { ...equal, [column]: { [direction === 'ASC' ? Op.gt : Op.lt]: current } };
  });
  return { [Op.or]: branches } as WhereOptions<A>;
}
