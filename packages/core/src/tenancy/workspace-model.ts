import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type CreationOptional, type Sequelize } from 'sequelize';

/** A tenant. Reached on `{subdomain}.{BASE_DOMAIN}`. */
export class Workspace extends Model<InferAttributes<Workspace>, InferCreationAttributes<Workspace>> {
  declare id: CreationOptional<string>;
  declare subdomain: string;
  declare name: string;
  declare plan: CreationOptional<string>;
  declare billing_interval: CreationOptional<'monthly' | 'annual'>;
  declare status: CreationOptional<'active' | 'suspended' | 'deleted'>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;
}

/** A workspace as a request carries it (`request.app.workspace`): the row's values, no model instance. */
export type WorkspaceRecord = Pick<Workspace, 'id' | 'subdomain' | 'name' | 'plan' | 'billing_interval' | 'status' | 'created_at' | 'updated_at'>;

/** Binds Workspace to one connection: a fresh subclass per runtime, so runtimes never share a binding. */
export function defineWorkspaceModel(sequelize: Sequelize): typeof Workspace {
  return class extends Workspace {}.init(
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      subdomain: { type: DataTypes.STRING(63), allowNull: false },
      name: { type: DataTypes.STRING(200), allowNull: false },
      plan: { type: DataTypes.STRING(40), allowNull: false, defaultValue: 'free' },
      billing_interval: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'monthly' },
      status: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'active' },
      created_at: DataTypes.DATE,
      updated_at: DataTypes.DATE,
    },
    { sequelize, schema: 'platform', tableName: 'workspaces', modelName: 'Workspace', underscored: true },
  );
}

/** A workspace as API answers show it. */
export interface PresentedWorkspace {
  id: string;
  subdomain: string;
  name: string;
  plan: string;
  billing_interval: 'monthly' | 'annual';
  status: 'active' | 'suspended' | 'deleted';
  created_at: string;
  updated_at: string;
}

/** The public face of a workspace in API answers. */
export function presentWorkspace(workspace: WorkspaceRecord): PresentedWorkspace {
  return {
    id: workspace.id,
    subdomain: workspace.subdomain,
    name: workspace.name,
    plan: workspace.plan,
    billing_interval: workspace.billing_interval,
    status: workspace.status,
    created_at: workspace.created_at.toISOString(),
    updated_at: workspace.updated_at.toISOString(),
  };
}
