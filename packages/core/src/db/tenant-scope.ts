import { Op } from 'sequelize';
import { assertUuidValues, uuidColumns, uuidSafeWhere } from './uuid-columns.js';
import type { Attributes, CreationAttributes, FindOptions, Model, ModelStatic, WhereOptions, CountOptions, DestroyOptions, UpdateOptions } from 'sequelize';

/**
 * A model's operations bound to one workspace: every read, write and delete adds
 * `workspace_id = {workspaceId}`, so a caller cannot forget the tenant filter.
 */
export interface TenantScopedModel<M extends Model> {
  readonly model: ModelStatic<M>;
  readonly workspaceId: string;
  findAll(options?: FindOptions<Attributes<M>>): Promise<M[]>;
  findOne(options?: FindOptions<Attributes<M>>): Promise<M | null>;
  findById(id: string, options?: FindOptions<Attributes<M>>): Promise<M | null>;
  findAndCountAll(options?: FindOptions<Attributes<M>>): Promise<{ rows: M[]; count: number }>;
  count(options?: CountOptions<Attributes<M>>): Promise<number>;
  create(values: Omit<CreationAttributes<M>, 'workspace_id' | 'workspaceId'>): Promise<M>;
  /**
   * Inserts `values` in this workspace, or updates this workspace's row with the same
   * `conflictFields`: one `INSERT … ON CONFLICT (workspace_id, …conflictFields) DO UPDATE`.
   * See the SDK's `ScopedModel.upsert` for `update`. Returns the row as stored.
   */
  upsert(values: Omit<CreationAttributes<M>, 'workspace_id' | 'workspaceId'>, options: { conflictFields: string[]; update?: string[] }): Promise<M>;
  update(values: Partial<Attributes<M>>, options: Omit<UpdateOptions<Attributes<M>>, 'returning'>): Promise<number>;
  destroy(options: DestroyOptions<Attributes<M>>): Promise<number>;
  /** `options` with the tenant filter added and uuid-safe conditions, as every read above sends them. */
  scopedOptions<O extends { where?: WhereOptions<Attributes<M>> }>(options?: O): O;
}

function scopeWhere<M extends Model>(where: WhereOptions<Attributes<M>> | undefined, workspaceId: string): WhereOptions<Attributes<M>> {
  // M is generic: the compiler cannot know it has workspace_id (checked at scopeToWorkspace), so
  // the `as unknown as` of this file that name a column (here, findById, create) stay.
  const tenant = { workspace_id: workspaceId } as unknown as WhereOptions<Attributes<M>>;
  // Op.and keeps the tenant condition even when the caller's filter names workspace_id itself.
  return where ? { [Op.and]: [tenant, where] } : tenant;
}

/**
 * The upsert of a tenant-scoped model. `workspace_id` always leads the conflict target, so the
 * row a conflict updates is one of this workspace (PostgreSQL needs a unique index on exactly
 * those columns and says so with 42P10, reported here naming the columns).
 */
async function scopedUpsert<M extends Model>(
  model: ModelStatic<M>,
  workspaceId: string,
  values: Record<string, unknown>,
  options: { conflictFields: string[]; update?: string[] },
): Promise<M> {
  const where = `${model.name}.upsert`;
  const attributes = model.getAttributes() as Record<string, { field?: string }>;
  const conflictFields = options?.conflictFields;
  if (!Array.isArray(conflictFields) || conflictFields.length === 0) throw new TypeError(`${where}: conflictFields must name the columns that identify the row in the workspace`);
  for (const name of [...conflictFields, ...(options.update ?? [])]) {
    if (name === 'workspace_id') throw new TypeError(`${where}: workspace_id is always part of the key and is never updated; do not name it`);
    if (!attributes[name]) throw new TypeError(`${where}: ${name} is not a column of ${model.name}`);
  }
  for (const name of conflictFields) {
    if (values[name] === undefined) throw new TypeError(`${where}: values must give ${name} (a conflict field)`);
  }
  const row: Record<string, unknown> = { ...values, workspace_id: workspaceId };
  delete row.workspaceId;
  const given = Object.keys(row).filter((name) => name !== 'workspace_id');
  const update = options.update ?? given.filter((name) => !conflictFields.includes(name));
  let fields = update;
  if (update.length === 0) {
    // Keep the row as it is: "set the key to itself" still returns it and locks it, where
    // DO NOTHING would return nothing. updated_at is given in the insert so that Sequelize
    // does not add it to the update.
    fields = [conflictFields[0]];
    // Sequelize's own (untyped) record of the model's timestamp columns: the cast stays.
    const updatedAt = (model as unknown as { _timestampAttributes: { updatedAt?: string } })._timestampAttributes.updatedAt;
    if (updatedAt && row[updatedAt] === undefined) row[updatedAt] = new Date();
  }
  try {
    const [instance] = await model.upsert(row as CreationAttributes<M>, {
      conflictFields: ['workspace_id', ...conflictFields].map((name) => attributes[name].field ?? name) as Array<keyof Attributes<M>>,
      fields: fields as Array<keyof Attributes<M>>,
      returning: true,
    });
    return instance;
  } catch (error) {
    const code = (error as { parent?: { code?: string } }).parent?.code;
    if (code === '42P10') throw new Error(`${where}: the table needs a primary key or unique index on exactly (workspace_id, ${conflictFields.join(', ')})`, { cause: error });
    throw error;
  }
}

/** Binds a model to a workspace. The model's table must have a `workspace_id` column. */
export function scopeToWorkspace<M extends Model>(model: ModelStatic<M>, workspaceId: string): TenantScopedModel<M> {
  if (!model.getAttributes()['workspace_id' as keyof Attributes<M>]) {
    throw new Error(`Model ${model.name} has no workspace_id column and cannot be tenant-scoped`);
  }
  const uuids = uuidColumns(model);
  // Ids are strings: on a UUID column, a value that is no UUID matches nothing (never a 22P02).
  const scoped = <O extends { where?: WhereOptions<Attributes<M>> }>(options?: O): O => ({
    ...(options ?? ({} as O)),
    where: scopeWhere(options?.where === undefined ? undefined : uuidSafeWhere(options.where, uuids), workspaceId),
  });
  const checked = <V extends object>(values: V): V => {
    assertUuidValues(values, uuids);
    return values;
  };
  return {
    model,
    workspaceId,
    findAll: (options) => model.findAll(scoped(options)),
    findOne: (options) => model.findOne(scoped(options)),
    findById: (id, options) => model.findOne(scoped({ ...options, where: { ...(options?.where as object), id } as unknown as WhereOptions<Attributes<M>> })),
    findAndCountAll: (options) => model.findAndCountAll(scoped(options)),
    count: (options) => model.count(scoped(options)),
    create: (values) => model.create({ ...checked(values), workspace_id: workspaceId } as unknown as CreationAttributes<M>),
    upsert: (values, options) => scopedUpsert(model, workspaceId, checked(values) as Record<string, unknown>, options),
    update: (values, options) => model.update(checked(values), scoped(options) as UpdateOptions<Attributes<M>>).then(([count]) => count),
    destroy: (options) => model.destroy(scoped(options)),
    scopedOptions: scoped,
  };
}
