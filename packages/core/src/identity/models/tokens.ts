import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** A server-side session. Only the SHA-256 of its id (the cookie value) is stored. */
export class Session extends Model<InferAttributes<Session>, InferCreationAttributes<Session>> {
  declare id: CreationOptional<string>;
  declare token_hash: string;
  declare workspace_id: string;
  declare member_id: string;
  declare account_id: string;
  /** The account's stamp when the session began; a rotated stamp ends the session. */
  declare security_stamp: string;
  declare elevated_until: Date | null;
  declare expires_at: Date;
  declare created_at: CreationOptional<Date>;
}

/** A sign-up waiting for its emailed code. */
export class Signup extends Model<InferAttributes<Signup>, InferCreationAttributes<Signup>> {
  declare id: CreationOptional<string>;
  declare email: string;
  declare name: string;
  declare workspace_name: string;
  declare subdomain: string;
  declare code_hash: string;
  declare expires_at: Date;
  declare used_at: Date | null;
  declare created_at: CreationOptional<Date>;
}

/** An invitation link (token stored hashed) for an invited member. */
export class Invitation extends Model<InferAttributes<Invitation>, InferCreationAttributes<Invitation>> {
  declare id: CreationOptional<string>;
  declare workspace_id: string;
  declare member_id: string;
  declare token_hash: string;
  declare invited_by: string | null;
  declare expires_at: Date;
  declare used_at: Date | null;
  declare created_at: CreationOptional<Date>;
}

/** A password-reset link (token stored hashed): one hour, one use. */
export class PasswordReset extends Model<InferAttributes<PasswordReset>, InferCreationAttributes<PasswordReset>> {
  declare id: CreationOptional<string>;
  declare account_id: string;
  declare token_hash: string;
  declare expires_at: Date;
  declare used_at: Date | null;
  declare created_at: CreationOptional<Date>;
}

/** A 2FA recovery code (hashed), usable once. */
export class RecoveryCode extends Model<InferAttributes<RecoveryCode>, InferCreationAttributes<RecoveryCode>> {
  declare id: CreationOptional<string>;
  declare account_id: string;
  declare code_hash: string;
  declare used_at: Date | null;
  declare created_at: CreationOptional<Date>;
}

const id = { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 };
const options = (sequelize: Sequelize, tableName: string, modelName: string) => ({ sequelize, schema: 'platform', tableName, modelName, underscored: true, updatedAt: false as const });

export function defineTokens(sequelize: Sequelize): void {
  Session.init(
    {
      id,
      token_hash: { type: DataTypes.CHAR(64), allowNull: false },
      workspace_id: { type: DataTypes.UUID, allowNull: false },
      member_id: { type: DataTypes.UUID, allowNull: false },
      account_id: { type: DataTypes.UUID, allowNull: false },
      security_stamp: { type: DataTypes.UUID, allowNull: false },
      elevated_until: { type: DataTypes.DATE, allowNull: true },
      expires_at: { type: DataTypes.DATE, allowNull: false },
      created_at: DataTypes.DATE,
    },
    options(sequelize, 'sessions', 'Session'),
  );
  Signup.init(
    {
      id,
      email: { type: DataTypes.STRING(254), allowNull: false },
      name: { type: DataTypes.STRING(200), allowNull: false },
      workspace_name: { type: DataTypes.STRING(200), allowNull: false },
      subdomain: { type: DataTypes.STRING(63), allowNull: false },
      code_hash: { type: DataTypes.CHAR(64), allowNull: false },
      expires_at: { type: DataTypes.DATE, allowNull: false },
      used_at: { type: DataTypes.DATE, allowNull: true },
      created_at: DataTypes.DATE,
    },
    options(sequelize, 'signups', 'Signup'),
  );
  Invitation.init(
    {
      id,
      workspace_id: { type: DataTypes.UUID, allowNull: false },
      member_id: { type: DataTypes.UUID, allowNull: false },
      token_hash: { type: DataTypes.CHAR(64), allowNull: false },
      invited_by: { type: DataTypes.UUID, allowNull: true },
      expires_at: { type: DataTypes.DATE, allowNull: false },
      used_at: { type: DataTypes.DATE, allowNull: true },
      created_at: DataTypes.DATE,
    },
    options(sequelize, 'invitations', 'Invitation'),
  );
  PasswordReset.init(
    {
      id,
      account_id: { type: DataTypes.UUID, allowNull: false },
      token_hash: { type: DataTypes.CHAR(64), allowNull: false },
      expires_at: { type: DataTypes.DATE, allowNull: false },
      used_at: { type: DataTypes.DATE, allowNull: true },
      created_at: DataTypes.DATE,
    },
    options(sequelize, 'password_resets', 'PasswordReset'),
  );
  RecoveryCode.init(
    {
      id,
      account_id: { type: DataTypes.UUID, allowNull: false },
      code_hash: { type: DataTypes.CHAR(64), allowNull: false },
      used_at: { type: DataTypes.DATE, allowNull: true },
      created_at: DataTypes.DATE,
    },
    options(sequelize, 'recovery_codes', 'RecoveryCode'),
  );
}
