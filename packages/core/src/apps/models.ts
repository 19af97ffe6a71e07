import { DataTypes, literal, Op, QueryTypes, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import { compileSql, isSqlFragment, isUuid, type CountByOptions, type DescendantsOptions, type IncludeRelation, type ModelDeclaration, type ModelRelation, type ReadOptions, type ScopedModel, type SqlFragment } from '@wpk/sdk';
import { assertUuidValues, FastQuery, scopeToWorkspace, uuidColumns } from '../db/index.js';
import { numberColumnsOf, PreparedCreates, PreparedReads, readsAsNumber, TOTAL_COLUMN, withNumbers } from './prepared-reads.js';
import type { WorkGate } from '../server/index.js';
import type { LoadedApp } from './loader.js';

/** The app's models, defined on the runtime's Sequelize inside the app's own schema. */
export type BoundModels = ReadonlyMap<string, ModelStatic<Model>>;

/**
 * Defines each declared model in the app's schema, with the `workspace_id` column added as part
 * of its primary key: every tenant table's key is `(workspace_id, …the declared key)`
 * (docs/scale-out.md), so an instance's own writes address its row by both.
 */
export function bindModels(sequelize: Sequelize, app: LoadedApp): BoundModels {
  const bound = new Map<string, ModelStatic<Model>>();
  const models = (app.definition?.models ?? {}) as Record<string, ModelDeclaration>;
  for (const [name, declaration] of Object.entries(models)) {
    if (!declaration || declaration.kind !== 'wpk.model') throw new Error(`${app.file}: models.${name} must be declared with defineModel`);
    const timestamps = declaration.options.timestamps ?? true;
    const model = sequelize.define(
      `${app.schema}.${name}`,
      { ...declaration.columns, workspace_id: { type: DataTypes.UUID, allowNull: false, primaryKey: true } },
      {
        schema: app.schema,
        tableName: declaration.table,
        underscored: true,
        timestamps,
        ...(timestamps ? { createdAt: 'created_at', updatedAt: 'updated_at' } : {}),
        indexes: declaration.options.indexes,
      },
    );
    bound.set(name, model);
  }
  for (const [name, declaration] of Object.entries(models)) bindRelations(app, bound, name, declaration.options.relations ?? {});
  return bound;
}

/** Declares a model's relations on Sequelize (no foreign-key constraints: the migrations own the schema). */
function bindRelations(app: LoadedApp, bound: Map<string, ModelStatic<Model>>, name: string, relations: Record<string, ModelRelation>): void {
  const source = bound.get(name)!;
  for (const [alias, relation] of Object.entries(relations)) {
    const where = `${app.file}: models.${name}.relations.${alias}`;
    const kind = 'belongsTo' in relation ? 'belongsTo' : 'hasMany' in relation ? 'hasMany' : 'hasOne' in relation ? 'hasOne' : null;
    if (!kind) throw new Error(`${where} must be { belongsTo | hasMany | hasOne: model, foreignKey: column }`);
    const targetName = (relation as Record<string, string>)[kind];
    const target = bound.get(targetName);
    if (!target) throw new Error(`${where}: ${targetName} is not a model of ${app.namespace}`);
    if (alias in source.getAttributes()) throw new Error(`${where}: ${alias} is already a column of ${name}`);
    const holder = kind === 'belongsTo' ? source : target;
    if (!holder.getAttributes()[relation.foreignKey]) throw new Error(`${where}: ${relation.foreignKey} is not a column of ${kind === 'belongsTo' ? name : targetName}`);
    if (kind === 'belongsTo') source.belongsTo(target, { as: alias, foreignKey: relation.foreignKey, constraints: false });
    else if (kind === 'hasMany') source.hasMany(target, { as: alias, foreignKey: relation.foreignKey, constraints: false });
    else source.hasOne(target, { as: alias, foreignKey: relation.foreignKey, constraints: false });
  }
}

/**
 * A read's options as Sequelize takes them: `lock` becomes FOR UPDATE / FOR SHARE, each
 * `include` names a declared relation and reads it in this workspace only.
 */
function readOptions(model: ModelStatic<Model>, workspaceId: string, options: ReadOptions<Record<string, unknown>> | undefined): Record<string, unknown> | undefined {
  if (!options || (options.lock === undefined && options.include === undefined)) return options as Record<string, unknown> | undefined;
  const { lock, include, ...rest } = options;
  const out: Record<string, unknown> = { ...rest };
  if (lock !== undefined) {
    if (lock !== 'update' && lock !== 'share') throw new TypeError(`${model.name}: lock must be 'update' or 'share'`);
    if (include && include.length > 0) throw new TypeError(`${model.name}: lock a read without include (lock the related rows with a read of their own)`);
    out.lock = lock === 'share' ? 'SHARE' : true;
  }
  if (include !== undefined) {
    out.include = include.map((entry) => {
      const wanted: IncludeRelation = typeof entry === 'string' ? { relation: entry } : entry;
      const association = model.associations[wanted?.relation];
      if (!association) throw new TypeError(`${model.name}: ${String(wanted?.relation)} is not a declared relation (defineModel options.relations)`);
      const tenant = { workspace_id: workspaceId };
      return {
        association: wanted.relation,
        where: wanted.where ? { [Op.and]: [tenant, wanted.where] } : tenant,
        required: wanted.required ?? false,
        ...(wanted.attributes ? { attributes: wanted.attributes } : {}),
      };
    });
  }
  return out;
}

const plainOf = (row: Model | null) => (row ? (row.get({ plain: true }) as Record<string, unknown>) : null);

/** Statements run as they come (a delivery's work, which opened its transaction already). */
const direct: WorkGate = { read: (fn) => fn(), write: (fn) => fn() };

const TOTAL = TOTAL_COLUMN;
const preparedReads = new WeakMap<ModelStatic<Model>, PreparedReads | null>();

const preparedCreates = new WeakMap<ModelStatic<Model>, PreparedCreates | null>();

/** The model's prepared creates (one per model for the process). */
function createsOf(model: ModelStatic<Model>): PreparedCreates | null {
  let prepared = preparedCreates.get(model);
  if (prepared === undefined) {
    const fast = FastQuery.of(model.sequelize!);
    prepared = fast ? new PreparedCreates(model, fast) : null;
    preparedCreates.set(model, prepared);
  }
  return prepared;
}

/** The model's prepared reads (one per model for the process, so each shape compiles once). */
function preparedOf(model: ModelStatic<Model>): PreparedReads | null {
  let prepared = preparedReads.get(model);
  if (prepared === undefined) {
    const fast = FastQuery.of(model.sequelize!);
    prepared = fast ? new PreparedReads(model, fast) : null;
    preparedReads.set(model, prepared);
  }
  return prepared;
}

/**
 * True when a plain read (`raw: true`, no instance built) gives what `instance.get({ plain: true })`
 * gives: no attribute has a getter of its own or is VIRTUAL.
 */
function readsPlain(model: ModelStatic<Model>): boolean {
  let plain = readsPlainOf.get(model);
  if (plain === undefined) {
    plain = Object.values(model.getAttributes()).every((attribute) => (!attribute.get || readsAsNumber(attribute)) && !(attribute.type instanceof DataTypes.VIRTUAL));
    readsPlainOf.set(model, plain);
  }
  return plain;
}

const readsPlainOf = new WeakMap<ModelStatic<Model>, boolean>();


/** A read whose where or order is an `sql` fragment. */
type SqlRead = { where?: unknown; order?: unknown; limit?: number; offset?: number; attributes?: unknown; [option: string]: unknown };
const SQL_READ_OPTIONS = new Set(['where', 'order', 'limit', 'offset', 'attributes']);

function refuseSql(model: ModelStatic<Model>, method: string, options: { where?: unknown; order?: unknown } | undefined): void {
  if (isSqlFragment(options?.where) || isSqlFragment(options?.order)) throw new TypeError(`${model.name}.${method}: sql fragments are taken by findAll and count only`);
}

type PlainReadOptions = { include?: unknown; group?: unknown; attributes?: unknown; distinct?: unknown; col?: unknown; where?: unknown; offset?: number; limit?: number; lock?: unknown };

/**
 * One model bound to a workspace, handing out plain rows. It wraps core's scopeToWorkspace (the
 * tenant filter on every operation) and keeps the Sequelize model out of reach: neither the
 * model class nor an instance (each carries a handle on the connection) leaves this object.
 * Reads build no instances (`raw: true`, unless a getter, VIRTUAL attribute or include needs
 * them), and `findAndCountAll` is one statement: the page with the count beside each row (a
 * scalar subquery when prepared, `count(*) OVER ()` otherwise; a count follows only when the
 * page is empty past the first). `gate` runs reads and writes in the
 * request's unit of work (a write opens its transaction; see LazyWork).
 */
export function scopedPlainModel(model: ModelStatic<Model>, workspaceId: string, gate: WorkGate = direct): ScopedModel<Record<string, unknown>> {
  const plain = plainModelOf(model, workspaceId);
  // A locking read (FOR UPDATE / FOR SHARE) holds its locks only inside the transaction: it opens it.
  const through = <T>(read: PlainReadOptions | undefined, fn: () => Promise<T>): Promise<T> => (read?.lock !== undefined ? gate.write(fn) : gate.read(fn));
  return Object.freeze({
    findAll: (options) => {
      if (isSqlFragment(options?.where) || isSqlFragment(options?.order)) return gate.read(() => plain.findBySql(options as SqlRead));
      const read = readOptions(model, workspaceId, options) as PlainReadOptions | undefined;
      return through(read, () => plain.findAll(read));
    },
    findOne: (options) => {
      refuseSql(model, 'findOne', options);
      const read = readOptions(model, workspaceId, options) as PlainReadOptions | undefined;
      return through(read, () => plain.findOne(read));
    },
    findById: (id, options) => {
      refuseSql(model, 'findById', options);
      const read = readOptions(model, workspaceId, options) as PlainReadOptions | undefined;
      return through(read, () => plain.findById(id, read));
    },
    findAndCountAll: (options) => {
      refuseSql(model, 'findAndCountAll', options);
      const read = readOptions(model, workspaceId, options) as PlainReadOptions | undefined;
      return through(read, () => plain.findAndCountAll(read));
    },
    count: (options) => gate.read(() => (isSqlFragment(options?.where) ? plain.countBySql(options as SqlRead) : plain.scoped.count(options as never))),
    create: (values) => gate.write(() => plain.create(values)),
    upsert: (values, options) => gate.write(async () => plainOf(await plain.scoped.upsert(values as never, options as { conflictFields: string[]; update?: string[] }))!),
    update: (values, options) => gate.write(() => plain.update(values, options)),
    destroy: (options) => gate.write(() => plain.scoped.destroy(options as never)),
    countBy: (options) => gate.read(() => plain.countBy(options)),
    descendants: (options) => gate.read(() => plain.descendants(options)),
  } satisfies ScopedModel<Record<string, unknown>>);
}

/** What a model bound to one workspace does, whatever the request: built once per model and workspace. */
class PlainModel {
  readonly scoped: ReturnType<typeof scopeToWorkspace<Model>>;
  private readonly uuids: ReadonlySet<string>;
  private readonly plainReads: boolean;
  private readonly prepared: PreparedReads | null;
  /** BIGINT columns read as numbers: plain reads convert them (their getter is not run). */
  private readonly numbers: string[];

  constructor(
    private readonly model: ModelStatic<Model>,
    private readonly workspaceId: string,
  ) {
    this.scoped = scopeToWorkspace(model, workspaceId);
    this.uuids = uuidColumns(model);
    this.plainReads = readsPlain(model);
    this.prepared = this.plainReads ? preparedOf(model) : null;
    this.numbers = numberColumnsOf(model);
  }

  private raw(options: PlainReadOptions | undefined): boolean {
    return this.plainReads && !options?.include && !options?.group && (options?.attributes === undefined || Array.isArray(options.attributes));
  }

  /** The rows of a plain read as a prepared statement, or null when its shape is not one (then Sequelize). */
  private preparedRows(options: PlainReadOptions | undefined, withTotal = false): Promise<Record<string, unknown>[] | null> {
    return this.prepared ? this.prepared.rows(this.scoped.scopedOptions({ ...(options as object) }) as Record<string, unknown>, withTotal) : Promise.resolve(null);
  }

  async findAll(options: PlainReadOptions | undefined): Promise<Record<string, unknown>[]> {
    if (!this.raw(options)) return (await this.scoped.findAll(options as never)).map((row) => plainOf(row)!);
    return withNumbers((await this.preparedRows(options)) ?? ((await this.scoped.findAll({ ...(options as object), raw: true })) as unknown as Record<string, unknown>[]), this.numbers);
  }

  async findOne(options: PlainReadOptions | undefined): Promise<Record<string, unknown> | null> {
    if (!this.raw(options)) return plainOf(await this.scoped.findOne(options as never));
    const rows = await this.preparedRows({ ...(options as object), limit: 1 });
    const row = rows ? (rows[0] ?? null) : (((await this.scoped.findOne({ ...(options as object), raw: true })) as unknown as Record<string, unknown> | null) ?? null);
    return withNumbers([row], this.numbers)[0];
  }

  async findById(id: unknown, read: PlainReadOptions | undefined): Promise<Record<string, unknown> | null> {
    if (!this.raw(read)) return plainOf(await this.scoped.findById(String(id), read as never));
    return this.findOne({ ...read, where: { ...(read?.where as object), id: String(id) } });
  }

  async findAndCountAll(read: PlainReadOptions | undefined): Promise<{ rows: Record<string, unknown>[]; count: number }> {
    const { model, scoped } = this;
    if (read?.include) {
      // Relations read with the rows (left joins) change neither which rows match nor how many.
      if ((read.include as Array<{ required: boolean }>).some((entry) => entry.required)) throw new TypeError(`${model.name}.findAndCountAll: an include cannot be required here; filter with where instead`);
      const { include: _include, order: _order, limit: _limit, offset: _offset, ...filter } = read as Record<string, unknown>;
      const [rows, count] = [await scoped.findAll(read as never), await scoped.count(filter as never)];
      return { rows: rows.map((row) => plainOf(row)!), count };
    }
    if (!this.raw(read) || read?.distinct || read?.col) {
      const { rows, count } = await scoped.findAndCountAll(read as never);
      return { rows: rows.map((row) => plainOf(row)!), count: typeof count === 'number' ? count : (count as unknown[]).length };
    }
    const attributes = (read?.attributes as unknown[] | undefined) ?? Object.keys(model.getAttributes());
    const rows =
      (await this.preparedRows(read, true)) ??
      ((await scoped.findAll({ ...(read as object), attributes: [...attributes, [literal('count(*) OVER ()'), TOTAL]] as never, raw: true })) as unknown as Record<string, unknown>[]);
    if (rows.length === 0) return { rows, count: read?.offset ? await scoped.count({ where: read.where } as never) : 0 };
    const count = Number(rows[0][TOTAL]);
    // A copy without the total, not `delete`: a deleted property turns the row into a slow
    // dictionary for every later read and for JSON.stringify.
    return { rows: withNumbers(rows.map(({ [TOTAL]: _total, ...row }) => row), this.numbers), count };
  }

  /** See the SDK's `ScopedModel.descendants`: one recursive query, the workspace named in both of its halves. */
  async descendants(options: DescendantsOptions<Record<string, unknown>>): Promise<Array<{ id: string; depth: number }>> {
    const { model } = this;
    const attributes = model.getAttributes() as Record<string, { field?: string }>;
    const parent = options?.parent;
    if (typeof parent !== 'string' || !attributes[parent] || parent === 'workspace_id') throw new TypeError(`${model.name}.descendants: parent must name a column of the model`);
    if (!attributes.id) throw new TypeError(`${model.name}.descendants: the model needs an id column`);
    const depth = options.depth;
    if (depth !== undefined && (!Number.isInteger(depth) || depth < 1)) throw new TypeError(`${model.name}.descendants: depth must be a whole number of at least 1`);
    const from = (options.from ?? []).filter((id) => typeof id === 'string' && (!this.uuids.has('id') || isUuid(id)));
    if (from.length === 0) return [];
    const sequelize = model.sequelize!;
    const table = sequelize.getQueryInterface().quoteIdentifiers(`${model.getTableName().toString().replace(/"/g, '')}`);
    const column = sequelize.getQueryInterface().quoteIdentifier(attributes[parent].field ?? parent);
    const rows = await sequelize.query<{ id: string; depth: number }>(
      `WITH RECURSIVE tree (id, depth, path) AS (
         SELECT child.id, 1, ARRAY[child.id] FROM ${table} child
          WHERE child.workspace_id = :workspace AND child.${column} IN (:from)
         UNION ALL
         SELECT child.id, tree.depth + 1, tree.path || child.id FROM ${table} child JOIN tree ON child.${column} = tree.id
          WHERE child.workspace_id = :workspace AND NOT child.id = ANY(tree.path)${depth === undefined ? '' : ' AND tree.depth < :depth'}
       )
       SELECT id, min(depth)::int AS depth FROM tree GROUP BY id ORDER BY min(depth), id`,
      { replacements: { workspace: this.workspaceId, from, depth: depth ?? null }, type: QueryTypes.SELECT },
    );
    return rows.map((row) => ({ id: String(row.id), depth: Number(row.depth) }));
  }

  /**
   * A read whose condition or order is an `sql` fragment (see the SDK's SqlFragment): the fragment
   * reads the rows of a subquery that keeps this workspace's only (`workspace_id = $1`, bound here),
   * so no condition in it (an OR either) reaches another workspace's row; its values are bound
   * parameters after that one.
   */
  async findBySql(read: SqlRead): Promise<Record<string, unknown>[]> {
    const { model } = this;
    const where = `${model.name}.findAll`;
    for (const key of Object.keys(read)) if (read[key] !== undefined && !SQL_READ_OPTIONS.has(key)) throw new TypeError(`${where}: a read with sql fragments takes ${[...SQL_READ_OPTIONS].join(', ')} only, not ${key}`);
    if ((read.where !== undefined && !isSqlFragment(read.where)) || (read.order !== undefined && !isSqlFragment(read.order))) throw new TypeError(`${where}: with an sql fragment, where and order are both sql fragments (or absent)`);
    const attributes = model.getAttributes() as Record<string, { field?: string }>;
    const queryInterface = model.sequelize!.getQueryInterface();
    if (read.attributes !== undefined && (!Array.isArray(read.attributes) || read.attributes.some((name) => typeof name !== 'string' || !attributes[name]))) throw new TypeError(`${where}: attributes must name columns of the model`);
    // Each column under its attribute's name, as Sequelize's reads answer them.
    const columns = ((read.attributes as string[] | undefined) ?? Object.keys(attributes)).map((name) => `"row".${queryInterface.quoteIdentifier(attributes[name].field ?? name)} AS ${queryInterface.quoteIdentifier(name)}`).join(', ');
    const bounds = (['limit', 'offset'] as const).map((name) => {
      const value = read[name];
      if (value !== undefined && (!Number.isInteger(value) || value < 0)) throw new TypeError(`${where}: ${name} must be a whole number of at least 0`);
      return value === undefined ? '' : ` ${name.toUpperCase()} ${value}`;
    });
    const { text, values } = this.scopedSql(read.where as SqlFragment | undefined, read.order as SqlFragment | undefined);
    return model.sequelize!.query<Record<string, unknown>>(`SELECT ${columns} ${text}${bounds.join('')}`, { bind: values, type: QueryTypes.SELECT });
  }

  /** How many rows of this workspace an `sql` condition holds (see findBySql). */
  async countBySql(read: SqlRead): Promise<number> {
    for (const key of Object.keys(read)) if (read[key] !== undefined && key !== 'where') throw new TypeError(`${this.model.name}.count: a count with an sql fragment takes where only, not ${key}`);
    const { text, values } = this.scopedSql(read.where as SqlFragment, undefined);
    const [row] = await this.model.sequelize!.query<{ count: number }>(`SELECT count(*)::int AS count ${text}`, { bind: values, type: QueryTypes.SELECT });
    return Number(row!.count);
  }

  /**
   * A grouped count (`ScopedModel.countBy`): `by` evaluated over this workspace's rows that `where`
   * keeps (see findBySql), one `{ key, count }` per distinct value, ordered by `order` over them.
   */
  async countBy(read: CountByOptions): Promise<Array<{ key: unknown; count: number }>> {
    const where = `${this.model.name}.countBy`;
    if (!read || typeof read !== 'object') throw new TypeError(`${where}: takes { where?, by, order? }`);
    for (const key of Object.keys(read)) if ((read as unknown as Record<string, unknown>)[key] !== undefined && !['where', 'by', 'order'].includes(key)) throw new TypeError(`${where}: takes where, by and order only, not ${key}`);
    if (!isSqlFragment(read.by)) throw new TypeError(`${where}: by must be an sql fragment`);
    for (const name of ['where', 'order'] as const) if (read[name] !== undefined && !isSqlFragment(read[name])) throw new TypeError(`${where}: ${name} must be an sql fragment (or absent)`);
    const scoped = this.scopedSql(read.where, undefined);
    const by = compileSql(read.by, scoped.values.length + 1);
    const values = [...scoped.values, ...by.values];
    let text = `SELECT "key", count(*)::int AS "count" FROM (SELECT (${by.text}) AS "key" ${scoped.text}) AS "grouped" GROUP BY "key"`;
    if (read.order) {
      const order = compileSql(read.order, values.length + 1);
      if (order.text.trim()) {
        text += ` ORDER BY ${order.text}`;
        values.push(...order.values);
      }
    }
    const rows = await this.model.sequelize!.query<{ key: unknown; count: number }>(text, { bind: values, type: QueryTypes.SELECT });
    return rows.map((row) => ({ key: row.key, count: Number(row.count) }));
  }

  /** `FROM (this workspace's rows) AS "row" WHERE … ORDER BY …`, with the workspace as $1 and the fragments' values after it. */
  private scopedSql(whereFragment: SqlFragment | undefined, orderFragment: SqlFragment | undefined): { text: string; values: unknown[] } {
    const table = this.model.sequelize!.getQueryInterface().quoteIdentifiers(`${this.model.getTableName().toString().replace(/"/g, '')}`);
    const values: unknown[] = [this.workspaceId];
    let text = `FROM (SELECT * FROM ${table} WHERE "workspace_id" = $1) AS "row"`;
    for (const [keyword, fragment] of [['WHERE', whereFragment], ['ORDER BY', orderFragment]] as const) {
      if (!fragment) continue;
      const compiled = compileSql(fragment, values.length + 1);
      if (!compiled.text.trim()) continue;
      text += keyword === 'WHERE' ? ` WHERE (${compiled.text})` : ` ORDER BY ${compiled.text}`;
      values.push(...compiled.values);
    }
    return { text, values };
  }

  async create(values: unknown): Promise<Record<string, unknown>> {
    const creates = createsOf(this.model);
    if (creates && values && typeof values === 'object') {
      assertUuidValues(values as Record<string, unknown>, this.uuids);
      const created = await creates.create({ ...(values as Record<string, unknown>), workspace_id: this.workspaceId });
      if (created) return created;
    }
    return plainOf(await this.scoped.create(values as never))!;
  }

  /** `update` as one prepared statement where its values and condition allow (PreparedReads.update), else through Sequelize. */
  async update(values: unknown, options: unknown): Promise<number> {
    const creates = createsOf(this.model);
    if (creates && values && typeof values === 'object' && options && typeof options === 'object') {
      assertUuidValues(values as Record<string, unknown>, this.uuids);
      const set = creates.setOf(values as Record<string, unknown>);
      const reads = set && preparedOf(this.model);
      if (set && reads) {
        const changed = await reads.update(set, this.scoped.scopedOptions({ ...(options as object) }) as Record<string, unknown>);
        if (changed !== null) return changed;
      }
    }
    return this.scoped.update(values as never, options as never);
  }
}

const plainModels = new WeakMap<ModelStatic<Model>, Map<string, PlainModel>>();
/** Workspaces kept per model; past it the cache starts over (a process serving very many workspaces rebuilds them as they come). */
const WORKSPACES_KEPT = 1000;

function plainModelOf(model: ModelStatic<Model>, workspaceId: string): PlainModel {
  let byWorkspace = plainModels.get(model);
  if (!byWorkspace) {
    byWorkspace = new Map();
    plainModels.set(model, byWorkspace);
  }
  let plain = byWorkspace.get(workspaceId);
  if (!plain) {
    if (byWorkspace.size >= WORKSPACES_KEPT) byWorkspace.clear();
    plain = new PlainModel(model, workspaceId);
    byWorkspace.set(workspaceId, plain);
  }
  return plain;
}

/** What one `ctx.db` is bound to, and the scoped models its handler has named so far. */
interface ScopedDbState {
  workspaceId: string;
  gate: WorkGate;
  made: Record<string, ScopedModel<Record<string, unknown>> | undefined>;
}
const SCOPED_DB_STATE = Symbol('wpk.scopedDb');
const scopedDbDescriptors = new WeakMap<BoundModels, PropertyDescriptorMap>();

/**
 * The accessors of every `ctx.db` of one app, made once: each getter reads the request's state
 * from the object it is called on. (A fresh getter per request and model would give every
 * `ctx.db` a shape of its own, which V8 builds anew each time.)
 */
function scopedDbDescriptorsOf(models: BoundModels): PropertyDescriptorMap {
  let descriptors = scopedDbDescriptors.get(models);
  if (!descriptors) {
    descriptors = {};
    for (const [name, model] of models) {
      descriptors[name] = {
        enumerable: true,
        get(this: { [SCOPED_DB_STATE]: ScopedDbState }) {
          const state = this[SCOPED_DB_STATE];
          return (state.made[name] ??= scopedPlainModel(model, state.workspaceId, state.gate));
        },
      };
    }
    scopedDbDescriptors.set(models, descriptors);
  }
  return descriptors;
}

/**
 * `ctx.db` for one workspace: each model of the app, scoped, and nothing else. A model is bound
 * to the workspace when the handler first names it: a request of an app with twenty models
 * builds the one or two it uses.
 */
export function scopedDb(models: BoundModels, workspaceId: string, gate: WorkGate = direct): Record<string, ScopedModel<Record<string, unknown>>> {
  const state: ScopedDbState = { workspaceId, gate, made: {} };
  const db = Object.defineProperty({}, SCOPED_DB_STATE, { value: state });
  Object.defineProperties(db, scopedDbDescriptorsOf(models));
  return Object.freeze(db) as Record<string, ScopedModel<Record<string, unknown>>>;
}
