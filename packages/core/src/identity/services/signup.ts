import { ConflictError, InvalidError, UnauthorizedError } from '@wpk/sdk';
import { Op } from 'sequelize';
import type { Account, Member, Signup } from '../models/index.js';
import type { ActivityLog } from './activity.js';
import { normalizeEmail, systemEvent, type IdentityContext, type Stage } from './context.js';
import { findAccountByEmail } from './sessions.js';
import { THROTTLES } from './throttle.js';
import { normalizeCode, randomCode, sha256 } from './tokens.js';
import { validateSubdomain, Workspace } from '../../tenancy/index.js';

/** Sign-up codes: 10 Crockford base32 characters (50 bits), valid 24 hours, used once. */
export const SIGNUP_CODE_LENGTH = 10;
export const SIGNUP_TTL_SECONDS = 24 * 3600;

export interface SignupInput {
  email: string;
  name: string;
  workspaceName: string;
  subdomain: string;
}

/** A workspace with its owner, just created. */
export interface CreatedWorkspace {
  workspace: Workspace;
  member: Member;
  account: Account;
}

/** Sign-up: POST /signup mails a code; POST /verifications turns it into an account, a workspace and its owner. */
export class SignupService {
  constructor(
    private readonly context: IdentityContext,
    private readonly activity: ActivityLog,
  ) {}

  /**
   * Records a pending sign-up and returns the code to mail. The subdomain must be free now (it is
   * checked again at verification). At most 5 codes per email per hour, and at most
   * `SIGNUP_MAILS_PER_HOUR` for the whole server (a refusal of either counts against neither).
   */
  async start(input: SignupInput): Promise<{ code: string; signup: Signup }> {
    const subdomain = validateSubdomain(input.subdomain);
    const email = normalizeEmail(input.email);
    if (await this.context.workspaces.model.findOne({ where: { subdomain } })) throw new ConflictError(`subdomain "${subdomain}" is already taken`, { field: 'subdomain' });
    const perAddress = await this.context.throttle.count(THROTTLES.mail, email);
    try {
      await this.context.throttle.count({ ...THROTTLES.signupMails, limit: this.context.config.signupMailsPerHour }, 'all');
    } catch (error) {
      await this.context.throttle.forgive(perAddress);
      throw error;
    }
    const code = randomCode(SIGNUP_CODE_LENGTH);
    const signup = await this.context.models.Signup.create({
      email,
      name: input.name.trim(),
      workspace_name: input.workspaceName.trim(),
      subdomain,
      code_hash: sha256(normalizeCode(code)),
      expires_at: new Date(this.context.clock().getTime() + SIGNUP_TTL_SECONDS * 1000),
      used_at: null,
    });
    return { code, signup };
  }

  /**
   * POST /verifications, first half (outside any transaction, so wrong codes count per address):
   * finds the live sign-up for a code and checks the password of an existing account, or hashes
   * the new password (scrypt is slow: never inside a transaction).
   */
  async check(code: string, password: string, ip: string | null): Promise<{ signup: Signup; passwordHash: string }> {
    this.context.passwords.admit({ ip });
    const signup = await this.context.throttle.attempt(THROTTLES.verification, ip ?? 'unknown', async () =>
      (await this.context.models.Signup.findOne({ where: { code_hash: sha256(normalizeCode(code)), used_at: null, expires_at: { [Op.gt]: new Date() } } })) ?? false,
    );
    if (!signup) throw new InvalidError('Invalid or expired verification code');
    const stored = (await findAccountByEmail(this.context.models, signup.email))?.password_hash;
    if (stored) {
      const matched = await this.context.throttle.attempt(THROTTLES.signIn, signup.email, () => this.context.passwords.verify(password, stored, { ip }));
      if (!matched) throw new UnauthorizedError('An account with this email already exists: send its current password');
      return { signup, passwordHash: stored };
    }
    return { signup, passwordHash: await this.context.passwords.hash(password, { ip }) };
  }

  /**
   * POST /verifications, second half (in the request's transaction): uses the code up, verifies
   * the email, sets the password (new accounts), creates the workspace with the caller as owner.
   */
  async complete(signup: Signup, passwordHash: string, stage: Stage, ip: string | null): Promise<CreatedWorkspace> {
    const [used] = await this.context.models.Signup.update({ used_at: new Date() }, { where: { id: signup.id, used_at: null } });
    if (used !== 1) throw new InvalidError('Invalid or expired verification code');
    const created = await this.createWorkspaceWithOwner({ subdomain: signup.subdomain, name: signup.workspace_name, ownerEmail: signup.email, ownerName: signup.name, ownerPasswordHash: passwordHash, emailVerified: true }, stage);
    await this.activity.record({ workspaceId: created.workspace.id, actor: { memberId: created.member.id, email: created.account.email }, action: 'workspace.created', targetType: 'workspace', targetId: created.workspace.id, ip });
    return created;
  }

  /**
   * A workspace and its joined owner. A new account gets the password hashed beforehand (scrypt
   * is slow: never inside a transaction); an existing account keeps its password (the caller has
   * checked it).
   */
  async createWorkspaceWithOwner(
    input: { subdomain: string; name: string; ownerEmail: string; ownerPasswordHash: string; ownerName?: string; emailVerified?: boolean },
    stage: Stage,
  ): Promise<CreatedWorkspace> {
    const workspace = await this.context.workspaces.create({ subdomain: input.subdomain, name: input.name });
    const { account } = await this.ensureAccount(input.ownerEmail, input.ownerPasswordHash, input.ownerName, input.emailVerified ?? false);
    const member = await this.context.models.Member.create({ workspace_id: workspace.id, account_id: account.id, platform_role: 'owner', state: 'joined', deactivated_at: null, invited_by: null, joined_at: new Date() });
    stage(systemEvent('system.workspace.created', { name: workspace.name, owner_id: member.id }));
    stage(systemEvent('system.workspace.member.added', { member_id: member.id, role: 'owner' }));
    return { workspace, member, account };
  }

  /**
   * The account for an email: the existing one (its password untouched unless it has none), or a
   * new one with `passwordHash`. Returns whether it was created.
   */
  async ensureAccount(emailInput: string, passwordHash: string, name: string | undefined, emailVerified: boolean): Promise<{ account: Account; created: boolean }> {
    const email = normalizeEmail(emailInput);
    const existing = await findAccountByEmail(this.context.models, email);
    if (existing) {
      if (!existing.password_hash) {
        existing.password_hash = passwordHash;
        await existing.save();
      }
      return { account: existing, created: false };
    }
    const account = await this.context.models.Account.create({
      email,
      name: (name ?? '').trim() || email.split('@')[0],
      password_hash: passwordHash,
      email_verified_at: emailVerified ? new Date() : null,
      totp_secret: null,
      totp_pending_secret: null,
      totp_enabled_at: null,
      totp_last_step: null,
    });
    return { account, created: true };
  }
}
