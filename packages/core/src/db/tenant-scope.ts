import { Op } from 'sequelize';
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
  update(values: Partial<Attributes<M>>, options: Omit<UpdateOptions<Attributes<M>>, 'returning'>): Promise<number>;
  destroy(options: DestroyOptions<Attributes<M>>): Promise<number>;
}

function scopeWhere<M extends Model>(where: WhereOptions<Attributes<M>> | undefined, workspaceId: string): WhereOptions<Attributes<M>> {
  const tenant = { workspace_id: workspaceId } as unknown as WhereOptions<Attributes<M>>;
  // Op.and keeps the tenant condition even when the caller's filter names workspace_id itself.
  return where ? ({ [Op.and]: [tenant, where] } as unknown as WhereOptions<Attributes<M>>) : tenant;
}

/** Binds a model to a workspace. The model's table must have a `workspace_id` column. */
export function scopeToWorkspace<M extends Model>(model: ModelStatic<M>, workspaceId: string): TenantScopedModel<M> {
  if (!model.getAttributes()['workspace_id' as keyof Attributes<M>]) {
    throw new Error(`Model ${model.name} has no workspace_id column and cannot be tenant-scoped`);
  }
  const scoped = <O extends { where?: WhereOptions<Attributes<M>> }>(options?: O): O => ({ ...(options ?? ({} as O)), where: scopeWhere(options?.where, workspaceId) });
  return {
    model,
    workspaceId,
    findAll: (options) => model.findAll(scoped(options)),
    findOne: (options) => model.findOne(scoped(options)),
    findById: (id, options) => model.findOne(scoped({ ...options, where: { ...(options?.where as object), id } as unknown as WhereOptions<Attributes<M>> })),
    findAndCountAll: (options) => model.findAndCountAll(scoped(options)),
    count: (options) => model.count(scoped(options)),
    create: (values) => model.create({ ...values, workspace_id: workspaceId } as unknown as CreationAttributes<M>),
    update: (values, options) => model.update(values, scoped(options) as UpdateOptions<Attributes<M>>).then(([count]) => count),
    destroy: (options) => model.destroy(scoped(options)),
  };
}
