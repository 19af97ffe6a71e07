import { DataTypes, literal, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import type { ModelDeclaration, ScopedModel } from '@wpk/sdk';
import { scopeToWorkspace } from '../db/index.js';
import type { WorkGate } from '../server/index.js';
import type { LoadedApp } from './loader.js';

/** The app's models, defined on the runtime's Sequelize inside the app's own schema. */
export type BoundModels = ReadonlyMap<string, ModelStatic<Model>>;

/** Defines each declared model in the app's schema, with the `workspace_id` column added. */
export function bindModels(sequelize: Sequelize, app: LoadedApp): BoundModels {
  const bound = new Map<string, ModelStatic<Model>>();
  const models = (app.definition?.models ?? {}) as Record<string, ModelDeclaration>;
  for (const [name, declaration] of Object.entries(models)) {
    if (!declaration || declaration.kind !== 'wpk.model') throw new Error(`${app.file}: models.${name} must be declared with defineModel`);
    const timestamps = declaration.options.timestamps ?? true;
    const model = sequelize.define(
      `${app.schema}.${name}`,
      { ...declaration.columns, workspace_id: { type: DataTypes.UUID, allowNull: false } },
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
  return bound;
}

const plain = (row: Model | null) => (row ? (row.get({ plain: true }) as Record<string, unknown>) : null);

/** Statements run as they come (a delivery's work, which opened its transaction already). */
const direct: WorkGate = { read: (fn) => fn(), write: (fn) => fn() };

/** The alias of the window count a page read carries (`count(*) OVER ()`). */
const TOTAL = '__wpk_total';

/**
 * True when a plain read (`raw: true`, no instance built) gives what `instance.get({ plain: true })`
 * gives: no attribute has a getter of its own or is VIRTUAL.
 */
function readsPlain(model: ModelStatic<Model>): boolean {
  return Object.values(model.getAttributes()).every((attribute) => !attribute.get && !(attribute.type instanceof DataTypes.VIRTUAL));
}

type ReadOptions = { include?: unknown; group?: unknown; attributes?: unknown; distinct?: unknown; col?: unknown; where?: unknown; offset?: number };

/**
 * One model bound to a workspace, handing out plain rows. It wraps core's scopeToWorkspace (the
 * tenant filter on every operation) and keeps the Sequelize model out of reach: neither the
 * model class nor an instance (each carries a handle on the connection) leaves this object.
 * Reads build no instances (`raw: true`, unless a getter, VIRTUAL attribute or include needs
 * them), and `findAndCountAll` is one statement: the page with `count(*) OVER ()` (a count
 * follows only when the page is empty past the first). `gate` runs reads and writes in the
 * request's unit of work (a write opens its transaction; see LazyWork).
 */
export function scopedPlainModel(model: ModelStatic<Model>, workspaceId: string, gate: WorkGate = direct): ScopedModel<Record<string, unknown>> {
  const scoped = scopeToWorkspace(model, workspaceId);
  const plainReads = readsPlain(model);
  const raw = (options: ReadOptions | undefined) => plainReads && !options?.include && !options?.group && (options?.attributes === undefined || Array.isArray(options.attributes));
  const findAll = async (options: ReadOptions | undefined): Promise<Record<string, unknown>[]> =>
    raw(options) ? ((await scoped.findAll({ ...(options as object), raw: true })) as unknown as Record<string, unknown>[]) : (await scoped.findAll(options as never)).map((row) => plain(row)!);
  const findOne = async (options: ReadOptions | undefined) =>
    raw(options) ? (((await scoped.findOne({ ...(options as object), raw: true })) as unknown as Record<string, unknown> | null) ?? null) : plain(await scoped.findOne(options as never));
  return Object.freeze({
    findAll: (options) => gate.read(() => findAll(options as ReadOptions)),
    findOne: (options) => gate.read(() => findOne(options as ReadOptions)),
    findById: (id, options) => gate.read(async () => (raw(options as ReadOptions) ? (((await scoped.findById(String(id), { ...(options as object), raw: true })) as unknown as Record<string, unknown> | null) ?? null) : plain(await scoped.findById(String(id), options as never)))),
    findAndCountAll: (options) =>
      gate.read(async () => {
        const given = options as ReadOptions | undefined;
        if (!raw(given) || given?.distinct || given?.col) {
          const { rows, count } = await scoped.findAndCountAll(options as never);
          return { rows: rows.map((row) => plain(row)!), count: typeof count === 'number' ? count : (count as unknown[]).length };
        }
        const attributes = (given?.attributes as unknown[] | undefined) ?? Object.keys(model.getAttributes());
        const rows = (await scoped.findAll({ ...(options as object), attributes: [...attributes, [literal('count(*) OVER ()'), TOTAL]] as never, raw: true })) as unknown as Record<string, unknown>[];
        if (rows.length === 0) return { rows, count: given?.offset ? await scoped.count({ where: given.where } as never) : 0 };
        const count = Number(rows[0][TOTAL]);
        for (const row of rows) delete row[TOTAL];
        return { rows, count };
      }),
    count: (options) => gate.read(() => scoped.count(options as never)),
    create: (values) => gate.write(async () => plain(await scoped.create(values as never))!),
    upsert: (values, options) => gate.write(async () => plain(await scoped.upsert(values as never, options as { conflictFields: string[]; update?: string[] }))!),
    update: (values, options) => gate.write(() => scoped.update(values as never, options as never)),
    destroy: (options) => gate.write(() => scoped.destroy(options as never)),
  } satisfies ScopedModel<Record<string, unknown>>);
}

/** `ctx.db` for one workspace: each model of the app, scoped, and nothing else. */
export function scopedDb(models: BoundModels, workspaceId: string, gate: WorkGate = direct): Record<string, ScopedModel<Record<string, unknown>>> {
  const db: Record<string, ScopedModel<Record<string, unknown>>> = {};
  for (const [name, model] of models) db[name] = scopedPlainModel(model, workspaceId, gate);
  return Object.freeze(db);
}
