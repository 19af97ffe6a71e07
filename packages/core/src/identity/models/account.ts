import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** A person: one sign-in identity, member of any number of workspaces. */
export class Account extends Model<InferAttributes<Account>, InferCreationAttributes<Account>> {
  declare id: CreationOptional<string>;
  /** Stored lower-case; unique case-insensitively. */
  declare email: string;
  declare name: string;
  /** scrypt hash; null until the person sets a password (a fresh invitation). */
  declare password_hash: string | null;
  /** Rotated when every session of the account must end (password reset). */
  declare security_stamp: CreationOptional<string>;
  declare email_verified_at: Date | null;
  /** Encrypted TOTP secret; set while 2FA is on. */
  declare totp_secret: string | null;
  /** Encrypted secret of an enrollment not yet confirmed. */
  declare totp_pending_secret: string | null;
  declare totp_enabled_at: Date | null;
  /** The last TOTP time step accepted; a code of that step or earlier is refused (replay). */
  declare totp_last_step: string | number | null;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;
}

/** Binds Account to one connection: a fresh subclass per runtime, so runtimes never share a binding. */
export function defineAccount(sequelize: Sequelize): typeof Account {
  return class extends Account {}.init(
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      email: { type: DataTypes.STRING(254), allowNull: false },
      name: { type: DataTypes.STRING(200), allowNull: false },
      password_hash: { type: DataTypes.TEXT, allowNull: true },
      security_stamp: { type: DataTypes.UUID, allowNull: false, defaultValue: DataTypes.UUIDV4 },
      email_verified_at: { type: DataTypes.DATE, allowNull: true },
      totp_secret: { type: DataTypes.TEXT, allowNull: true },
      totp_pending_secret: { type: DataTypes.TEXT, allowNull: true },
      totp_enabled_at: { type: DataTypes.DATE, allowNull: true },
      totp_last_step: { type: DataTypes.BIGINT, allowNull: true },
      created_at: DataTypes.DATE,
      updated_at: DataTypes.DATE,
    },
    { sequelize, schema: 'platform', tableName: 'accounts', modelName: 'Account', underscored: true },
  );
}
