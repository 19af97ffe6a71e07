import { ConflictError, InvalidError } from '@wpk/sdk';
import { QueryTypes } from 'sequelize';
import type { Account } from '../models/index.js';
import type { ActivityLog } from './activity.js';
import type { IdentityContext } from './context.js';
import { THROTTLES } from './throttle.js';
import { normalizeCode, randomCode, sha256 } from './tokens.js';
import { newTotpSecret, totpUri, verifyTotp } from './totp.js';

/** How many recovery codes enabling 2FA hands out, and their length (Crockford base32). */
export const RECOVERY_CODE_COUNT = 10;
export const RECOVERY_CODE_LENGTH = 10;

/** Outcome of a second-factor check. */
export type SecondFactorResult = 'not-enabled' | 'missing' | 'invalid' | 'totp' | 'recovery-code';

const recoveryHash = (accountId: string, code: string) => sha256(`${accountId}:${normalizeCode(code)}`);

/** TOTP (RFC 6238 via otplib) and recovery codes. */
export class TwoFactorService {
  constructor(
    private readonly context: IdentityContext,
    private readonly activity: ActivityLog,
  ) {}

  /** POST /totps: starts (or restarts) enrollment; the secret and URI are shown this once. */
  async beginEnrollment(accountId: string, issuer: string): Promise<{ secret: string; otpauth_uri: string }> {
    const account = await this.context.models.Account.findByPk(accountId, { rejectOnEmpty: true });
    if (account.totp_secret) throw new ConflictError('Two-factor authentication is already on; turn it off (DELETE /totps) before enrolling again');
    const secret = newTotpSecret();
    account.totp_pending_secret = this.context.secrets.seal(secret);
    await account.save();
    return { secret, otpauth_uri: totpUri(secret, issuer, account.email) };
  }

  /**
   * PUT /totps, first half (outside any transaction, so a wrong code still counts): checks the
   * code against the pending secret. Returns the matched time step.
   */
  async checkEnrollmentCode(accountId: string, code: string): Promise<number> {
    const account = await this.context.models.Account.findByPk(accountId, { rejectOnEmpty: true });
    if (account.totp_secret) throw new ConflictError('Two-factor authentication is already on');
    if (!account.totp_pending_secret) throw new ConflictError('No enrollment in progress: start one with POST /totps');
    const pending = account.totp_pending_secret;
    const step = await this.context.throttle.attempt(THROTTLES.totp, account.id, async () => (await verifyTotp(this.context.secrets.open(pending), code, null, this.context.clock().getTime())) ?? false);
    if (step === false) throw new InvalidError('Invalid TOTP code');
    return step;
  }

  /** PUT /totps, second half: turns 2FA on and returns fresh recovery codes (shown this once). */
  async enable(accountId: string, step: number, workspaceId: string | null, actorMemberId: string | null, ip: string | null): Promise<string[]> {
    const account = await this.context.models.Account.findByPk(accountId, { rejectOnEmpty: true });
    if (!account.totp_pending_secret || account.totp_secret) throw new ConflictError('No enrollment in progress: start one with POST /totps');
    account.totp_secret = account.totp_pending_secret;
    account.totp_pending_secret = null;
    account.totp_enabled_at = new Date();
    account.totp_last_step = step;
    await account.save();
    const codes = await this.replaceRecoveryCodes(account.id);
    if (workspaceId) await this.activity.record({ workspaceId, actor: { memberId: actorMemberId, email: account.email }, action: 'two_factor.enabled', targetType: 'account', targetId: account.id, ip });
    return codes;
  }

  /** DELETE /totps (after the password was checked): turns 2FA off and drops the recovery codes. */
  async disable(accountId: string, workspaceId: string | null, actorMemberId: string | null, ip: string | null): Promise<void> {
    const account = await this.context.models.Account.findByPk(accountId, { rejectOnEmpty: true });
    if (!account.totp_secret) throw new ConflictError('Two-factor authentication is not on');
    account.totp_secret = null;
    account.totp_pending_secret = null;
    account.totp_enabled_at = null;
    account.totp_last_step = null;
    await account.save();
    await this.context.models.RecoveryCode.destroy({ where: { account_id: account.id } });
    if (workspaceId) await this.activity.record({ workspaceId, actor: { memberId: actorMemberId, email: account.email }, action: 'two_factor.disabled', targetType: 'account', targetId: account.id, ip });
  }

  private async replaceRecoveryCodes(accountId: string): Promise<string[]> {
    await this.context.models.RecoveryCode.destroy({ where: { account_id: accountId } });
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => randomCode(RECOVERY_CODE_LENGTH));
    for (const code of codes) await this.context.models.RecoveryCode.create({ account_id: accountId, code_hash: recoveryHash(accountId, code), used_at: null });
    return codes;
  }

  /**
   * Checks a second factor: a 6-digit TOTP code (±1 step, each step accepted once) or, when
   * `allowRecoveryCode`, an unused recovery code (then used up). Each value is counted against the
   * TOTP bound before it is checked (429 once reached, nothing checked); a right one is forgiven.
   * Run outside any transaction so failures are kept.
   */
  async check(account: Account, value: string | undefined, allowRecoveryCode: boolean): Promise<SecondFactorResult> {
    const secret = account.totp_secret;
    if (!secret) return 'not-enabled';
    if (!value) return 'missing';
    const result = await this.context.throttle.attempt(THROTTLES.totp, account.id, async (): Promise<'totp' | 'recovery-code' | false> => {
      if (/^\d{6}$/.test(value)) {
        const lastStep = account.totp_last_step === null ? null : Number(account.totp_last_step);
        const step = await verifyTotp(this.context.secrets.open(secret), value, lastStep, this.context.clock().getTime());
        return step !== null && (await this.consumeStep(account.id, step)) ? 'totp' : false;
      }
      if (!allowRecoveryCode || normalizeCode(value).length !== RECOVERY_CODE_LENGTH) return false;
      const used = await this.context.sequelize.query(
        'UPDATE platform.recovery_codes SET used_at = now() WHERE account_id = :accountId AND code_hash = :hash AND used_at IS NULL RETURNING id',
        { type: QueryTypes.SELECT, replacements: { accountId: account.id, hash: recoveryHash(account.id, value) } },
      );
      return used.length === 1 ? 'recovery-code' : false;
    });
    return result === false ? 'invalid' : result;
  }

  /** Records `step` as used; false when it (or a later step) was already used: a replay. */
  private async consumeStep(accountId: string, step: number): Promise<boolean> {
    const rows = await this.context.sequelize.query(
      'UPDATE platform.accounts SET totp_last_step = :step WHERE id = :accountId AND (totp_last_step IS NULL OR totp_last_step < :step) RETURNING id',
      { type: QueryTypes.SELECT, replacements: { accountId, step } },
    );
    return rows.length === 1;
  }

  /** How many unused recovery codes the account has left. */
  async recoveryCodesLeft(accountId: string): Promise<number> {
    return this.context.models.RecoveryCode.count({ where: { account_id: accountId, used_at: null } });
  }
}
