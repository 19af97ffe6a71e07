import { DataTypes, Op, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import type { IncludeRelation, ModelDeclaration, ModelRelation, ReadOptions, ScopedModel } from '@wpk/sdk';
import { scopeToWorkspace } from '../db/index.js';
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

const plain = (row: Model | null) => (row ? (row.get({ plain: true }) as Record<string, unknown>) : null);

/**
 * One model bound to a workspace, handing out plain rows. It wraps core's scopeToWorkspace (the
 * tenant filter on every operation) and keeps the Sequelize model out of reach: neither the
 * model class nor an instance (each carries a handle on the connection) leaves this object.
 */
export function scopedPlainModel(model: ModelStatic<Model>, workspaceId: string): ScopedModel<Record<string, unknown>> {
  const scoped = scopeToWorkspace(model, workspaceId);
  return Object.freeze({
    findAll: async (options) => (await scoped.findAll(readOptions(model, workspaceId, options) as never)).map((row) => plain(row)!),
    findOne: async (options) => plain(await scoped.findOne(readOptions(model, workspaceId, options) as never)),
    findById: async (id, options) => plain(await scoped.findById(String(id), readOptions(model, workspaceId, options) as never)),
    findAndCountAll: async (options) => {
      const read = readOptions(model, workspaceId, options);
      if (read?.include) {
        // Relations read with the rows (left joins) change neither which rows match nor how many.
        if ((read.include as Array<{ required: boolean }>).some((entry) => entry.required)) throw new TypeError(`${model.name}.findAndCountAll: an include cannot be required here; filter with where instead`);
        const { include: _include, order: _order, limit: _limit, offset: _offset, ...filter } = read;
        const [rows, count] = [await scoped.findAll(read as never), await scoped.count(filter as never)];
        return { rows: rows.map((row) => plain(row)!), count };
      }
      const { rows, count } = await scoped.findAndCountAll(read as never);
      return { rows: rows.map((row) => plain(row)!), count: typeof count === 'number' ? count : (count as unknown[]).length };
    },
    count: (options) => scoped.count(options),
    create: async (values) => plain(await scoped.create(values))!,
    upsert: async (values, options) => plain(await scoped.upsert(values, options as { conflictFields: string[]; update?: string[] }))!,
    update: (values, options) => scoped.update(values, options),
    destroy: (options) => scoped.destroy(options),
  } satisfies ScopedModel<Record<string, unknown>>);
}

/** `ctx.db` for one workspace: each model of the app, scoped, and nothing else. */
export function scopedDb(models: BoundModels, workspaceId: string): Record<string, ScopedModel<Record<string, unknown>>> {
  const db: Record<string, ScopedModel<Record<string, unknown>>> = {};
  for (const [name, model] of models) db[name] = scopedPlainModel(model, workspaceId);
  return Object.freeze(db);
}
