import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import type { PlatformRole } from '../../access/index.js';

/** An account's membership of one workspace. */
export class Member extends Model<InferAttributes<Member>, InferCreationAttributes<Member>> {
  declare id: CreationOptional<string>;
  declare workspace_id: string;
  declare account_id: string;
  declare platform_role: PlatformRole;
  declare state: 'invited' | 'joined';
  declare deactivated_at: Date | null;
  declare invited_by: string | null;
  declare joined_at: Date | null;
  declare avatar_key: CreationOptional<string | null>;
  declare avatar_content_type: CreationOptional<string | null>;
  declare avatar_updated_at: CreationOptional<Date | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;
}

/** Binds Member to one connection (a fresh subclass per runtime). */
export function defineMember(sequelize: Sequelize): typeof Member {
  return class extends Member {}.init(
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      // The key is (workspace_id, id) (docs/scale-out.md): an instance's save and destroy address both.
      workspace_id: { type: DataTypes.UUID, allowNull: false, primaryKey: true },
      account_id: { type: DataTypes.UUID, allowNull: false },
      platform_role: { type: DataTypes.STRING(10), allowNull: false },
      state: { type: DataTypes.STRING(10), allowNull: false },
      deactivated_at: { type: DataTypes.DATE, allowNull: true },
      invited_by: { type: DataTypes.UUID, allowNull: true },
      joined_at: { type: DataTypes.DATE, allowNull: true },
      avatar_key: { type: DataTypes.TEXT, allowNull: true },
      avatar_content_type: { type: DataTypes.STRING(20), allowNull: true },
      avatar_updated_at: { type: DataTypes.DATE, allowNull: true },
      created_at: DataTypes.DATE,
      updated_at: DataTypes.DATE,
    },
    { sequelize, schema: 'platform', tableName: 'members', modelName: 'Member', underscored: true },
  );
}
