import { DataTypes, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import type { ModelDeclaration, ScopedModel } from '@wpk/sdk';
import { scopeToWorkspace } from '../db/index.js';
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

/**
 * One model bound to a workspace, handing out plain rows. It wraps core's scopeToWorkspace (the
 * tenant filter on every operation) and keeps the Sequelize model out of reach: neither the
 * model class nor an instance (each carries a handle on the connection) leaves this object.
 */
export function scopedPlainModel(model: ModelStatic<Model>, workspaceId: string): ScopedModel<Record<string, unknown>> {
  const scoped = scopeToWorkspace(model, workspaceId);
  return Object.freeze({
    findAll: async (options) => (await scoped.findAll(options)).map((row) => plain(row)!),
    findOne: async (options) => plain(await scoped.findOne(options)),
    findById: async (id, options) => plain(await scoped.findById(String(id), options)),
    findAndCountAll: async (options) => {
      const { rows, count } = await scoped.findAndCountAll(options);
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
