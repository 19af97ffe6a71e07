import { NotFoundError } from '@wpk/sdk';
import { Op } from 'sequelize';
import type { Account, PasswordReset } from '../models/index.js';
import type { ActivityLog } from './activity.js';
import { normalizeEmail, type IdentityContext } from './context.js';
import { findAccountByEmail } from './sessions.js';
import { THROTTLES } from './throttle.js';
import { randomToken, sha256 } from './tokens.js';
import { randomUUID } from 'node:crypto';

/** Password-reset links live one hour and work once. */
export const PASSWORD_RESET_TTL_SECONDS = 3600;

const INVALID_LINK = 'This password-reset link is invalid, expired or already used';

/** Password resets through a mailed link. */
export class PasswordResetService {
  constructor(
    private readonly context: IdentityContext,
    private readonly activity: ActivityLog,
  ) {}

  /**
   * POST /password-resets: a token to mail when the email has an account (a member of
   * `workspaceId` when the request came on a workspace subdomain), else null. The caller answers
   * the same either way. At most 5 mails per address per hour; beyond that, silently none.
   */
  async request(emailInput: string, workspaceId: string | null): Promise<{ token: string; account: Account } | null> {
    const email = normalizeEmail(emailInput);
    const account = await findAccountByEmail(this.context.models, email);
    if (!account) return null;
    if (workspaceId && !(await this.context.models.Member.findOne({ where: { workspace_id: workspaceId, account_id: account.id, deactivated_at: null } }))) return null;
    if (!(await this.context.throttle.tryCount(THROTTLES.mail, email))) return null;
    const token = randomToken();
    await this.context.models.PasswordReset.create({ account_id: account.id, token_hash: sha256(token), expires_at: new Date(Date.now() + PASSWORD_RESET_TTL_SECONDS * 1000), used_at: null });
    return { token, account };
  }

  /** PUT /password-resets/{token}, first half: the live reset for a token (404 otherwise). */
  async check(token: string): Promise<PasswordReset> {
    const reset = await this.context.models.PasswordReset.findOne({ where: { token_hash: sha256(token), used_at: null, expires_at: { [Op.gt]: new Date() } } });
    if (!reset) throw new NotFoundError(INVALID_LINK);
    return reset;
  }

  /**
   * Second half (in the request's transaction): burns the link (and every other open link of the
   * account), sets the password and rotates the security stamp, which ends every session of the
   * account on every server process at its next request; the sessions are deleted as well.
   */
  async complete(reset: PasswordReset, passwordHash: string, workspaceId: string | null, ip: string | null): Promise<Account> {
    const [used] = await this.context.models.PasswordReset.update({ used_at: new Date() }, { where: { id: reset.id, used_at: null } });
    if (used !== 1) throw new NotFoundError(INVALID_LINK);
    await this.context.models.PasswordReset.update({ used_at: new Date() }, { where: { account_id: reset.account_id, used_at: null } });
    const account = await this.context.models.Account.findByPk(reset.account_id, { rejectOnEmpty: true });
    account.password_hash = passwordHash;
    account.security_stamp = randomUUID();
    account.email_verified_at ??= new Date();
    await account.save();
    await this.context.models.Session.destroy({ where: { account_id: account.id } });
    const member = workspaceId ? await this.context.models.Member.findOne({ where: { workspace_id: workspaceId, account_id: account.id } }) : null;
    if (member) await this.activity.record({ workspaceId: member.workspace_id, actor: { memberId: member.id, email: account.email }, action: 'password.reset', targetType: 'account', targetId: account.id, ip });
    return account;
  }
}
