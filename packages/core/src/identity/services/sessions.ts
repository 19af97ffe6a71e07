import { ForbiddenError, InvalidError, TooManyRequestsError, UnauthorizedError } from '@wpk/sdk';
import { Op, QueryTypes, fn, col, where } from 'sequelize';
import { SESSION_SOURCE, WORKSPACE_ACTIVE, sessionValid, type CallerMember, type PlatformRole } from '../../access/index.js';
import { credentialWorkspace, pruneCredentialHashes, recordCredentialHash } from '../../db/index.js';
import type { Account, IdentityModels, Member } from '../models/index.js';
import type { ActivityLog } from './activity.js';
import type { AdminAudit } from './admin-audit.js';
import { normalizeEmail, type IdentityContext } from './context.js';
import type { KnownDevice } from './known-devices.js';
import { confirmPassword } from './reauthentication.js';
import { THROTTLES } from './throttle.js';
import { randomToken, sha256 } from './tokens.js';
import type { TwoFactorService } from './two-factor.js';

/** The mail an account's owner gets when its lockout starts (no user-supplied text). */
export const LOCKOUT_MAIL = {
  subject: 'Sign-ins to your account are paused for unknown browsers',
  text: (publicUrl: string) =>
    [
      `Your account on ${publicUrl} had ${THROTTLES.signIn.limit} sign-ins with a wrong password within an hour.`,
      '',
      'For up to an hour, sign-ins from browsers that have not signed in to this account before are refused.',
      'Browsers where you have signed in before still sign in with your password.',
      '',
      'If these attempts were not yours, your password was not accepted; if you think someone may know it,',
      'sign in from one of your browsers and change it.',
    ].join('\n'),
} as const;

/** A session lasts 14 days from sign-in (its cookie too); there is no sliding renewal. */
export const SESSION_TTL_SECONDS = 14 * 24 * 3600;

/** A session just started: `token` goes into the cookie and is never stored. */
export interface StartedSession {
  token: string;
  sessionId: string;
  expiresAt: Date;
  elevatedUntil: Date | null;
}

/** What a valid session cookie stands for, read fresh from the database. */
export interface ResolvedSession {
  caller: CallerMember;
  sessionId: string;
  elevatedUntil: Date | null;
}

/** Proofs POST /elevations accepts (docs/decisions/0034-elevation.md). */
export interface ElevationProof {
  reason: string;
  /** A 6-digit TOTP code. */
  code?: string;
  /** A TOTP code or a recovery code. */
  totp?: string;
  /** The password; accepted only when 2FA is off. */
  password?: string;
}

/** Finds an account by email, case-insensitively. */
export async function findAccountByEmail(models: IdentityModels, email: string): Promise<Account | null> {
  return models.Account.findOne({ where: where(fn('lower', col('email')), normalizeEmail(email)) });
}

/** Server-side sessions: sign-in, the per-request check, sign-out, elevation. */
export class SessionService {
  constructor(
    private readonly context: IdentityContext,
    private readonly twoFactor: TwoFactorService,
    private readonly activity: ActivityLog,
    private readonly audit: AdminAudit,
  ) {}

  /** Starts a session for a joined member (a new random id every time). */
  async start(member: Member, account: Account, elevatedUntil: Date | null = null): Promise<StartedSession> {
    const token = randomToken();
    const expiresAt = new Date(this.context.clock().getTime() + SESSION_TTL_SECONDS * 1000);
    const tokenHash = sha256(token);
    const session = await this.context.models.Session.create({
      token_hash: tokenHash,
      workspace_id: member.workspace_id,
      member_id: member.id,
      account_id: account.id,
      security_stamp: account.security_stamp,
      elevated_until: elevatedUntil,
      expires_at: expiresAt,
    });
    await recordCredentialHash(this.context.sequelize, tokenHash, 'session', member.workspace_id, expiresAt);
    return { token, sessionId: session.id, expiresAt, elevatedUntil };
  }

  /**
   * The per-request check (no cache): the session exists and has not expired, the account's
   * security stamp is unchanged, the member is joined and not deactivated, the workspace is active.
   */
  async resolve(token: string): Promise<ResolvedSession | null> {
    if (token.length < 20 || token.length > 200) return null;
    // The session's workspace comes from the coordinator's credential directory; the session is
    // then judged within it, so no statement reads sessions across workspaces (docs/scale-out.md).
    const hash = sha256(token);
    const owner = await credentialWorkspace(this.context.sequelize, hash);
    if (!owner || owner.kind !== 'session') return null;
    const [row] = await this.context.sequelize.query<{
      session_id: string;
      elevated_until: Date | null;
      member_id: string;
      workspace_id: string;
      account_id: string;
      platform_role: PlatformRole;
      email: string;
      name: string;
    }>(
      `SELECT s.id AS session_id, s.elevated_until, m.id AS member_id, m.workspace_id, m.account_id, m.platform_role, a.email, a.name
         FROM ${SESSION_SOURCE}
         JOIN platform.workspaces w ON w.id = s.workspace_id
        WHERE s.workspace_id = :workspace AND s.token_hash = :hash AND ${sessionValid(':now')} AND ${WORKSPACE_ACTIVE}`,
      { type: QueryTypes.SELECT, replacements: { hash, workspace: owner.workspaceId, now: this.context.clock() } },
    );
    if (!row) return null;
    return {
      sessionId: row.session_id,
      elevatedUntil: row.elevated_until ? new Date(row.elevated_until) : null,
      caller: { id: row.member_id, workspaceId: row.workspace_id, accountId: row.account_id, platformRole: row.platform_role, email: row.email, name: row.name },
    };
  }

  /**
   * POST /sessions. A wrong password, an unknown email, a member of another workspace and an
   * invited (not joined) or deactivated member all get the same 401, after the same scrypt work.
   * Failures are counted before the password is checked, so concurrent attempts cannot overshoot
   * a bound: at most 100 per account per hour from browsers that are not a known device of it
   * (then 429 for them: the account's lockout, of which its owner is mailed once), and at most 10
   * per known-device cookie (a valid `device` for this account: it skips the account's lockout,
   * so the owner still signs in while the account is attacked).
   */
  async signIn(input: { workspaceId: string; email: string; password: string; totp?: string; ip: string | null; device?: KnownDevice | null }): Promise<{ session: StartedSession; member: Member; account: Account }> {
    const email = normalizeEmail(input.email);
    // Refused before any other work when the password checks are saturated for this client.
    this.context.passwords.admit({ ip: input.ip, ...(input.device ? { knownDevice: input.device.accountId } : {}) });
    const account = await findAccountByEmail(this.context.models, email);
    // A device cookie counts only for the account it names (a cookie of one's own account opens nothing else).
    const device = input.device && account && input.device.accountId === account.id ? input.device : null;
    const rule = device ? THROTTLES.deviceSignIn : THROTTLES.signIn;
    const counted = await this.context.throttle.count(rule, device ? `${device.accountId}:${device.nonce}` : email);
    let found: { account: Account; member: Member } | false;
    try {
      const member = account ? await this.context.models.Member.findOne({ where: { workspace_id: input.workspaceId, account_id: account.id } }) : null;
      const passwordMatches = await this.context.passwords.verify(input.password, account?.password_hash ?? null, { ip: input.ip, ...(device ? { knownDevice: device.accountId } : {}) });
      found = account && member && member.state === 'joined' && !member.deactivated_at && passwordMatches ? { account, member } : false;
    } catch (error) {
      // Refused by the hashing limiter: nothing was evaluated, so nothing stays counted.
      if (error instanceof TooManyRequestsError) await this.context.throttle.forgive(counted);
      throw error;
    }
    if (!found) {
      this.context.passwords.recordFailure(input.ip);
      if (!device && account && counted.live >= rule.limit) await this.warnOfLockout(account);
      throw new UnauthorizedError('Invalid email or password');
    }
    await this.context.throttle.forgive(counted);
    const { member } = found;
    const second = await this.twoFactor.check(account!, input.totp, true);
    if (second === 'missing') throw new UnauthorizedError('Two-factor authentication is on: send the TOTP code from your authenticator app in totp');
    if (second === 'invalid') throw new UnauthorizedError('Invalid TOTP code');
    const session = await this.start(member, account!);
    await this.activity.record({ workspaceId: member.workspace_id, actor: { memberId: member.id, email: account!.email }, action: 'session.created', targetType: 'session', targetId: session.sessionId, details: { second_factor: second }, ip: input.ip });
    return { session, member, account: account! };
  }

  /**
   * The failure that started the account's lockout: its owner is told, once a day at most, in a
   * fixed text (nothing a stranger typed, no name; the link from configuration).
   */
  private async warnOfLockout(account: Account): Promise<void> {
    if ((await this.context.throttle.tryCount(THROTTLES.lockoutMail, account.id)) === null) return;
    try {
      await this.context.mailer.send({ to: account.email, subject: LOCKOUT_MAIL.subject, text: LOCKOUT_MAIL.text(this.context.config.publicUrl) });
    } catch (error) {
      this.context.logger.error({ err: error }, 'lockout mail failed');
    }
  }

  /** DELETE /sessions: the session row is gone, so the cookie is worthless everywhere at once. */
  async end(caller: CallerMember, sessionId: string, ip: string | null): Promise<void> {
    await this.context.models.Session.destroy({ where: { workspace_id: caller.workspaceId, id: sessionId } });
    await this.activity.record({ workspaceId: caller.workspaceId, actor: { memberId: caller.id, email: caller.email }, action: 'session.ended', targetType: 'session', targetId: sessionId, ip });
  }

  /** Ends every session of an account (password reset: the stamp rotates too). */
  async endAllForAccount(accountId: string): Promise<void> {
    await this.context.models.Session.destroy({ where: { account_id: accountId } });
  }

  async endAllForWorkspace(workspaceId: string): Promise<void> {
    await this.context.models.Session.destroy({ where: { workspace_id: workspaceId } });
  }

  /**
   * POST /elevations, first half (outside any transaction, so failures count): checks the proof.
   * With 2FA on: a TOTP code (`code` or `totp`) or a recovery code (`totp`); with 2FA off: the
   * password. A mailed code is never accepted (none is ever sent for this).
   */
  async checkElevationProof(caller: CallerMember, proof: ElevationProof, ip: string | null): Promise<'totp' | 'recovery-code' | 'password'> {
    if (caller.platformRole !== 'owner' && caller.platformRole !== 'admin') throw new ForbiddenError('Only workspace owners and admins can enter admin mode');
    const account = await this.context.models.Account.findByPk(caller.accountId, { rejectOnEmpty: true });
    if (account.totp_secret) {
      const value = proof.code ?? proof.totp;
      if (!value) throw new InvalidError('Two-factor authentication is on: send a TOTP code (code or totp) or a recovery code (totp)');
      const result = await this.twoFactor.check(account, value, proof.code === undefined);
      if (result === 'invalid') throw new ForbiddenError('Invalid TOTP or recovery code');
      return result === 'recovery-code' ? 'recovery-code' : 'totp';
    }
    if (proof.password === undefined) {
      if (proof.code !== undefined || proof.totp !== undefined) throw new InvalidError('Two-factor authentication is off for this account: send your password (password)');
      throw new InvalidError('password is required (two-factor authentication is off for this account)', { field: 'password' });
    }
    if (!(await confirmPassword(this.context, account, proof.password, ip))) throw new ForbiddenError('Invalid password');
    return 'password';
  }

  /** POST /elevations, second half: replaces the session by a new, elevated one (new id) and records it. */
  async elevate(caller: CallerMember, sessionId: string, reason: string, proofKind: string, ip: string | null): Promise<StartedSession> {
    const member = await this.context.models.Member.findOne({ where: { workspace_id: caller.workspaceId, id: caller.id }, rejectOnEmpty: true });
    const account = await this.context.models.Account.findByPk(caller.accountId, { rejectOnEmpty: true });
    const until = new Date(this.context.clock().getTime() + this.context.config.elevationMinutes * 60_000);
    await this.context.models.Session.destroy({ where: { workspace_id: caller.workspaceId, id: sessionId } });
    const session = await this.start(member, account, until);
    await this.audit.recordElevation(caller.workspaceId, caller.id, reason, until);
    await this.activity.record({ workspaceId: caller.workspaceId, actor: { memberId: caller.id, email: caller.email }, action: 'elevation.started', targetType: 'session', targetId: session.sessionId, details: { reason, proof: proofKind, until: until.toISOString() }, ip });
    return session;
  }

  /** Drops sessions that expired more than a day ago. */
  async prune(): Promise<void> {
    await this.context.models.Session.destroy({ where: { expires_at: { [Op.lt]: new Date(this.context.clock().getTime() - 86_400_000) } } });
    await pruneCredentialHashes(this.context.sequelize);
  }
}
