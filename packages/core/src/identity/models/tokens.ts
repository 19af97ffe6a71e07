import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** What every token row has: a random id and when it was made (rows are never updated in place but to spend them). */
abstract class TokenRow<M extends Model> extends Model<InferAttributes<M>, InferCreationAttributes<M>> {
  declare id: CreationOptional<string>;
  declare created_at: CreationOptional<Date>;
}

/** A token that expires and is spent once (`used_at`). */
abstract class OneUseToken<M extends Model> extends TokenRow<M> {
  declare expires_at: Date;
  declare used_at: Date | null;
}

/** A server-side session. Only the SHA-256 of its id (the cookie value) is stored. */
export class Session extends TokenRow<Session> {
  declare token_hash: string;
  declare workspace_id: string;
  declare member_id: string;
  declare account_id: string;
  /** The account's stamp when the session began; a rotated stamp ends the session. */
  declare security_stamp: string;
  declare elevated_until: Date | null;
  declare expires_at: Date;
}

/** A sign-up waiting for its emailed code. */
export class Signup extends OneUseToken<Signup> {
  declare email: string;
  declare name: string;
  declare workspace_name: string;
  declare subdomain: string;
  declare code_hash: string;
}

/** An invitation link (token stored hashed) for an invited member. */
export class Invitation extends OneUseToken<Invitation> {
  declare workspace_id: string;
  declare member_id: string;
  declare token_hash: string;
  declare invited_by: string | null;
}

/** A password-reset link (token stored hashed): one hour, one use. */
export class PasswordReset extends OneUseToken<PasswordReset> {
  declare account_id: string;
  declare token_hash: string;
}

/** A 2FA recovery code (hashed), usable once; it does not expire. */
export class RecoveryCode extends TokenRow<RecoveryCode> {
  declare account_id: string;
  declare code_hash: string;
  declare used_at: Date | null;
}

// Every token table has a random UUID id, a created_at and no updated_at; the token itself is
// only ever stored as a SHA-256 (64 hex characters). Functions, not shared objects: Sequelize
// writes each column's name into its definition.
const id = () => ({ type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 });
const uuid = () => ({ type: DataTypes.UUID, allowNull: false });
// The tenant tables' keys are (workspace_id, id) (docs/scale-out.md).
const tenant = () => ({ type: DataTypes.UUID, allowNull: false, primaryKey: true });
const hash = () => ({ type: DataTypes.CHAR(64), allowNull: false });
const instant = () => ({ type: DataTypes.DATE, allowNull: false });
const instantOrNull = () => ({ type: DataTypes.DATE, allowNull: true });
const options = (sequelize: Sequelize, tableName: string, modelName: string) => ({ sequelize, schema: 'platform', tableName, modelName, underscored: true, updatedAt: false as const });

/** The token models, bound to one connection. */
export interface TokenModels {
  Session: typeof Session;
  Signup: typeof Signup;
  Invitation: typeof Invitation;
  PasswordReset: typeof PasswordReset;
  RecoveryCode: typeof RecoveryCode;
}

/** Binds the token tables' models (sessions, sign-ups, invitations, password resets, recovery codes) to one connection. */
export function defineTokens(sequelize: Sequelize): TokenModels {
  return {
    Session: class extends Session {}.init(
      { id: id(), token_hash: hash(), workspace_id: tenant(), member_id: uuid(), account_id: uuid(), security_stamp: uuid(), elevated_until: instantOrNull(), expires_at: instant(), created_at: DataTypes.DATE },
      options(sequelize, 'sessions', 'Session'),
    ),
    Signup: class extends Signup {}.init(
      {
        id: id(),
        email: { type: DataTypes.STRING(254), allowNull: false },
        name: { type: DataTypes.STRING(200), allowNull: false },
        workspace_name: { type: DataTypes.STRING(200), allowNull: false },
        subdomain: { type: DataTypes.STRING(63), allowNull: false },
        code_hash: hash(),
        expires_at: instant(),
        used_at: instantOrNull(),
        created_at: DataTypes.DATE,
      },
      options(sequelize, 'signups', 'Signup'),
    ),
    Invitation: class extends Invitation {}.init(
      { id: id(), workspace_id: tenant(), member_id: uuid(), token_hash: hash(), invited_by: { type: DataTypes.UUID, allowNull: true }, expires_at: instant(), used_at: instantOrNull(), created_at: DataTypes.DATE },
      options(sequelize, 'invitations', 'Invitation'),
    ),
    PasswordReset: class extends PasswordReset {}.init({ id: id(), account_id: uuid(), token_hash: hash(), expires_at: instant(), used_at: instantOrNull(), created_at: DataTypes.DATE }, options(sequelize, 'password_resets', 'PasswordReset')),
    RecoveryCode: class extends RecoveryCode {}.init({ id: id(), account_id: uuid(), code_hash: hash(), used_at: instantOrNull(), created_at: DataTypes.DATE }, options(sequelize, 'recovery_codes', 'RecoveryCode')),
  };
}
