import { Column, type ColumnMap, type ColumnValue } from './columns.js';
import type { SqlFragment } from './sql.js';
import type { CountOptions, DestroyOptions, FindOptions, ModelAttributeColumnOptions, DataType, Order, UpdateOptions, WhereOptions, ModelIndexesOptions } from 'sequelize';

/** A column of a model: a Sequelize data type, or its full column options. */
export type ModelColumn = DataType | ModelAttributeColumnOptions;

/** Options of a model declaration. */
export interface ModelDeclarationOptions {
  /** Adds `created_at` / `updated_at` (default true). */
  timestamps?: boolean;
  /** Indexes Sequelize should know about (the migration creates them). */
  indexes?: ModelIndexesOptions[];
  /**
   * Relations to other models of the same app, by the name reads use in `include`:
   * `{ board: { belongsTo: 'boards', foreignKey: 'board_id' }, assignees: { hasMany: 'taskAssignees', foreignKey: 'task_id' } }`.
   * The related rows are read in the same workspace only.
   */
  relations?: Record<string, ModelRelation>;
}

/**
 * A relation between two models of one app. `belongsTo`: this model's `foreignKey` holds the
 * other's `id`. `hasMany` / `hasOne`: the other model's `foreignKey` holds this one's `id`.
 * The value is the other model's name in `ctx.db`.
 */
export type ModelRelation = { belongsTo: string; foreignKey: string } | { hasMany: string; foreignKey: string } | { hasOne: string; foreignKey: string };

/** A related model to read with the rows (`include: ['board']` or `{ relation: 'assignees', where: {...} }`). */
export interface IncludeRelation {
  /** The relation's name in the model's `relations`. */
  relation: string;
  /** A filter on the related rows (the workspace filter is always added). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Sequelize's where over any model's attributes
  where?: WhereOptions<any>;
  /** The related columns to read (default all). */
  attributes?: string[];
  /** True: only rows that have a matching related row (an inner join). Default false. */
  required?: boolean;
}

/**
 * A row lock taken by a read, held until the request's (or delivery's) transaction ends:
 * `'update'` is `SELECT … FOR UPDATE` (a concurrent writer or locker of the same rows waits),
 * `'share'` is `FOR SHARE` (concurrent sharers pass, writers wait).
 */
export type RowLock = 'update' | 'share';

/**
 * A model an app declares: its table in the app's own schema and its columns. The runtime binds
 * it to the app's schema, adds the `workspace_id` column and hands it over as `ctx.db[name]`,
 * scoped to the request's workspace. `A` is the shape of a row.
 */
export interface ModelDeclaration<A extends object = Record<string, unknown>> {
  /** Marks the object as a model declaration. */
  readonly kind: 'wpk.model';
  /** The table name inside the app's schema. */
  readonly table: string;
  /** The columns (without `workspace_id`, which every table has). */
  readonly columns: Record<string, ModelColumn>;
  /** Timestamps and indexes. */
  readonly options: ModelDeclarationOptions;
  /** Type-level only: the row shape. */
  readonly __row?: A;
}

/** The row type typed columns give: each column's value, plus `created_at` / `updated_at` unless `timestamps: false`. */
export type RowOfColumns<C extends ColumnMap, O extends ModelDeclarationOptions = ModelDeclarationOptions> = Simplify<
  { -readonly [K in keyof C]: ColumnValue<C[K]> } & (O extends { timestamps: false } ? unknown : { created_at: Date; updated_at: Date })
>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * Declares a model of the app from typed columns; the row type is inferred from them:
 * `defineModel('greetings', { id: column.uuid().primaryKey().defaultRandom(), text: column.string(200) })`
 * (see `column`). The older form, a Sequelize column map and the row type given,
 * `defineModel<Greeting>('greetings', { text: { type: DataTypes.STRING(200), allowNull: false } })`, still works.
 */
export function defineModel<C extends ColumnMap, const O extends ModelDeclarationOptions = { timestamps?: true }>(table: string, columns: C, options?: O): ModelDeclaration<RowOfColumns<C, O>>;
export function defineModel<A extends object = Record<string, unknown>>(table: string, columns: Record<string, ModelColumn>, options?: ModelDeclarationOptions): ModelDeclaration<A>;
export function defineModel(table: string, columns: Record<string, ModelColumn | Column<unknown>>, options: ModelDeclarationOptions = {}): ModelDeclaration {
  if (!/^[a-z][a-z0-9_]*$/.test(table)) throw new TypeError(`defineModel: table "${table}" must be lowercase letters, digits and _`);
  if ('workspace_id' in columns) throw new TypeError(`defineModel(${table}): workspace_id is added by the runtime; do not declare it`);
  const resolved = Object.fromEntries(Object.entries(columns).map(([name, spec]) => [name, spec instanceof Column ? spec.options(name) : spec]));
  return { kind: 'wpk.model', table, columns: resolved, options };
}

/** The row shape a model declares, without the `workspace_id` every row also has (`RowOf` adds it): `type Chat = DeclaredRow<typeof chats>`. */
export type DeclaredRow<D> = D extends ModelDeclaration<infer A> ? A : never;

/** The models an app declares, by the name it uses in `ctx.db`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each model fixes its own attributes
export type ModelMap = Record<string, ModelDeclaration<any>>;

/** The row shape of a model declaration. */
export type RowOf<D> = D extends ModelDeclaration<infer A> ? A & { workspace_id: string } : never;

/**
 * The options of a read, as Sequelize takes them (the workspace filter is added for you), plus
 * `lock` (row locks until the transaction ends; not with `include`) and `include` (the model's
 * declared relations, one level deep, each read in this workspace only). `where` and `order` may
 * instead be `sql` fragments (see SqlFragment): such a read takes `where`, `order`, `limit`,
 * `offset` and `attributes` only.
 */
export type ReadOptions<A extends object> = Omit<FindOptions<A>, 'transaction' | 'lock' | 'raw' | 'include' | 'where' | 'order'> & {
  /** Which rows: a Sequelize where object, or an `sql` condition over the model's columns. */
  where?: WhereOptions<A> | SqlFragment;
  /** Their order: Sequelize's, or an `sql` ORDER BY list (`` sql`title ASC, id` ``). */
  order?: Order | SqlFragment;
  /** Lock the rows read until the transaction ends (see RowLock). */
  lock?: RowLock;
  /** Declared relations to read with each row (a relation's rows come under its name). */
  include?: Array<string | IncludeRelation>;
};

/**
 * One model of the app bound to the request's workspace: every read, write and delete adds
 * `workspace_id = {the request's workspace}`, so no query can forget the tenant. Rows come back
 * as plain objects (never Sequelize instances, which would carry a handle on the connection).
 * Every call joins the request's transaction on its own.
 */
export interface ScopedModel<A extends object> {
  /** Rows matching `options.where` in this workspace. */
  findAll(options?: ReadOptions<A>): Promise<A[]>;
  /** The first matching row, or null. */
  findOne(options?: ReadOptions<A>): Promise<A | null>;
  /** The row with this `id` in this workspace, or null. */
  findById(id: string | number, options?: ReadOptions<A>): Promise<A | null>;
  /** One page of rows and the total count. */
  findAndCountAll(options?: ReadOptions<A>): Promise<{ rows: A[]; count: number }>;
  /** The number of matching rows. */
  count(options?: Omit<CountOptions<A>, 'transaction' | 'where'> & { where?: WhereOptions<A> | SqlFragment }): Promise<number>;
  /**
   * How many rows of this workspace each value of an expression holds, in one grouped count:
   * `` countBy({ where: sql`status <> ${'done'}::text`, by: sql`cells -> ${fieldId}::text` }) ``
   * answers `[{ key, count }]`, one entry per distinct `by` value among the rows `where` keeps
   * (null, absent or SQL NULL alike, is a key of its own). `order` (an `sql` ORDER BY list over
   * the columns `"key"` and `"count"`) orders the entries; without it their order is unspecified.
   * The workspace is bound by the platform as in a read with fragments (see SqlFragment).
   */
  countBy(options: CountByOptions): Promise<Array<{ key: unknown; count: number }>>;
  /** Inserts a row in this workspace and returns it. */
  create(values: Partial<Omit<A, 'workspace_id'>>): Promise<A>;
  /**
   * Inserts a row in this workspace or, when this workspace already has a row with the same
   * `conflictFields`, updates that row instead: one statement (`INSERT … ON CONFLICT
   * (workspace_id, …conflictFields) DO UPDATE … RETURNING *`), so two concurrent calls for one
   * key never fail with a unique violation; the second waits for the first and updates. The
   * table needs a primary key or unique index on exactly `workspace_id` plus `conflictFields`
   * (`workspace_id` is always part of the key: a row of another workspace is never touched).
   * `update` names the columns a conflict overwrites: by default every column given except the
   * conflict fields (and `updated_at` is refreshed); `[]` keeps the existing row exactly as it
   * is (still locking it until the transaction ends). Returns the row as stored.
   */
  upsert(values: Partial<Omit<A, 'workspace_id'>>, options: UpsertOptions<A>): Promise<A>;
  /** Updates the matching rows of this workspace; returns how many changed. */
  update(values: Partial<Omit<A, 'workspace_id'>>, options: { where: WhereOptions<A> }): Promise<number>;
  /** Deletes the matching rows of this workspace; returns how many went. */
  destroy(options: Omit<DestroyOptions<A>, 'transaction'> & { where: WhereOptions<A> }): Promise<number>;
  /**
   * The rows below `from` in the tree the column `parent` draws (a manager, a parent folder), in
   * one recursive query (`WITH RECURSIVE`) in this workspace: each row's `id` and `depth` (1: a
   * child of one of `from`), nearest first. `depth` bounds how far down (default: all the way).
   * A row met twice on one path (a cycle in the data) ends that path.
   */
  descendants(options: DescendantsOptions<A>): Promise<Array<{ id: string; depth: number }>>;
}

/** Options of `ScopedModel.countBy`. */
export interface CountByOptions {
  /** Which rows are counted (default: every row of the workspace). */
  where?: SqlFragment;
  /** The value the rows are grouped by, an expression over the model's columns. */
  by: SqlFragment;
  /** The entries' order, over `"key"` and `"count"` (`` sql`"count" DESC, "key"` ``). */
  order?: SqlFragment;
}

/** Options of `ScopedModel.descendants`. */
export interface DescendantsOptions<A extends object> {
  /** The ids whose children, grandchildren, … are wanted. */
  from: string[];
  /** The column holding a row's parent id. */
  parent: Exclude<keyof A, 'workspace_id'> & string;
  /** How many levels down (1: the children only); absent: every level. */
  depth?: number;
}

/** Options of `ScopedModel.upsert`. */
export interface UpsertOptions<A extends object> {
  /** The columns that identify the row within the workspace (`['member_id']`); never `workspace_id`, which is always added. */
  conflictFields: Array<Exclude<keyof A, 'workspace_id'> & string>;
  /** The columns a conflict overwrites (default: every given column except the conflict fields; `[]`: none). */
  update?: Array<Exclude<keyof A, 'workspace_id'> & string>;
}

/** `ctx.db`: each declared model, bound to the app's schema and the request's workspace. */
export type AppDb<M extends ModelMap> = { readonly [K in keyof M]: ScopedModel<RowOf<M[K]>> };

/** Update options accepted by ScopedModel.update (re-exported for typing services). */
export type ScopedUpdateOptions<A extends object> = Omit<UpdateOptions<A>, 'returning' | 'transaction'>;
