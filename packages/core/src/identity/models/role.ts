import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** Permissions of a custom role: app slug → permission keys (`{slug}.*` grants all of the app). */
export type RolePermissions = Record<string, string[]>;

/** A custom role of one workspace. */
export class Role extends Model<InferAttributes<Role>, InferCreationAttributes<Role>> {
  declare id: CreationOptional<string>;
  declare workspace_id: string;
  declare name: string;
  declare permissions: CreationOptional<RolePermissions>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;
}

/** A role held by a member. */
export class MemberRole extends Model<InferAttributes<MemberRole>, InferCreationAttributes<MemberRole>> {
  declare workspace_id: string;
  declare member_id: string;
  declare role_id: string;
  declare created_at: CreationOptional<Date>;
}

/** Binds Role and MemberRole to one connection (fresh subclasses per runtime). */
export function defineRoles(sequelize: Sequelize): { Role: typeof Role; MemberRole: typeof MemberRole } {
  const BoundRole = class extends Role {}.init(
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      workspace_id: { type: DataTypes.UUID, allowNull: false, primaryKey: true },
      name: { type: DataTypes.STRING(100), allowNull: false },
      permissions: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
      created_at: DataTypes.DATE,
      updated_at: DataTypes.DATE,
    },
    { sequelize, schema: 'platform', tableName: 'roles', modelName: 'Role', underscored: true },
  );
  const BoundMemberRole = class extends MemberRole {}.init(
    {
      workspace_id: { type: DataTypes.UUID, allowNull: false, primaryKey: true },
      member_id: { type: DataTypes.UUID, allowNull: false, primaryKey: true },
      role_id: { type: DataTypes.UUID, allowNull: false, primaryKey: true },
      created_at: DataTypes.DATE,
    },
    { sequelize, schema: 'platform', tableName: 'member_roles', modelName: 'MemberRole', underscored: true, updatedAt: false },
  );
  return { Role: BoundRole, MemberRole: BoundMemberRole };
}
