import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '@wpk/sdk';
import { Op } from 'sequelize';
import type { CallerMember } from '../../access/index.js';
import type { Account, Invitation, Member } from '../models/index.js';
import type { ActivityLog } from './activity.js';
import { accountEvent, normalizeEmail, systemEvent, type IdentityContext, type Stage } from './context.js';
import type { MemberService } from './members.js';
import { findAccountByEmail } from './sessions.js';
import { THROTTLES } from './throttle.js';
import { randomToken, sha256 } from './tokens.js';
import type { TwoFactorService } from './two-factor.js';

/** Invitation links live 7 days and work once. */
export const INVITATION_TTL_SECONDS = 7 * 24 * 3600;

const INVALID_LINK = 'This invitation link is invalid, expired or already used';

/** An acceptance that passed its checks, ready to be written. */
export interface CheckedAcceptance {
  invitation: Invitation;
  member: Member;
  account: Account;
  /** The new password's hash, for an account that had none. */
  passwordHash: string | null;
}

/** Invitations: POST /invitations mails a link; PUT /invitations/{token} joins. */
export class InvitationService {
  constructor(
    private readonly context: IdentityContext,
    private readonly members: MemberService,
    private readonly twoFactor: TwoFactorService,
    private readonly activity: ActivityLog,
  ) {}

  /**
   * Invites an email as `platformRole` (only the owner invites admins). A new person gets an
   * account without a password; someone already invited gets a fresh link (the old one dies).
   * Returns the member and the token to mail.
   */
  async invite(actor: CallerMember, input: { email: string; platformRole: 'admin' | 'member'; roleIds: string[] }, stage: Stage, ip: string | null): Promise<{ member: Member; account: Account; token: string; expiresAt: Date }> {
    if (input.platformRole === 'admin' && actor.platformRole !== 'owner') throw new ForbiddenError('Only the workspace owner can invite admins');
    const email = normalizeEmail(input.email);
    const roleIds = await this.members.checkRoleIds(actor.workspaceId, input.roleIds);
    let account = await findAccountByEmail(this.context.models, email);
    account ??= await this.context.models.Account.create({ email, name: email.split('@')[0], password_hash: null, email_verified_at: null, totp_secret: null, totp_pending_secret: null, totp_enabled_at: null, totp_last_step: null });
    let member = await this.context.models.Member.findOne({ where: { workspace_id: actor.workspaceId, account_id: account.id } });
    if (member && member.state === 'joined' && !member.deactivated_at) throw new ConflictError(`${email} is already a member of this workspace`, { field: 'email' });
    if (member?.platform_role === 'owner') throw new ConflictError(`${email} is the owner of this workspace`, { field: 'email' });
    if (member) {
      member.state = 'invited';
      member.platform_role = input.platformRole;
      member.deactivated_at = null;
      member.joined_at = null;
      member.invited_by = actor.id;
      await member.save();
      await this.context.models.Invitation.update({ used_at: new Date() }, { where: { workspace_id: actor.workspaceId, member_id: member.id, used_at: null } });
    } else {
      member = await this.context.models.Member.create({ workspace_id: actor.workspaceId, account_id: account.id, platform_role: input.platformRole, state: 'invited', deactivated_at: null, invited_by: actor.id, joined_at: null });
    }
    await this.members.replaceRoles(actor.workspaceId, member.id, roleIds);
    const token = randomToken();
    const expiresAt = new Date(Date.now() + INVITATION_TTL_SECONDS * 1000);
    await this.context.models.Invitation.create({ workspace_id: actor.workspaceId, member_id: member.id, token_hash: sha256(token), invited_by: actor.id, expires_at: expiresAt, used_at: null });
    stage(accountEvent('core.account.member.invited', { email, invited_by: actor.id, platform_role: input.platformRole }));
    await this.activity.record({ workspaceId: actor.workspaceId, actor: { memberId: actor.id, email: actor.email }, action: 'member.invited', targetType: 'member', targetId: member.id, details: { email, platform_role: input.platformRole }, ip });
    return { member, account, token, expiresAt };
  }

  /**
   * PUT /invitations/{token}, first half (outside any transaction, so failures count). For an
   * account that already has a password (a member of another workspace), that password (and its
   * TOTP code when 2FA is on) must be given; otherwise the password given becomes the credential.
   * Hashing is bounded per client address `ip`.
   */
  async check(workspaceId: string, token: string, password: string, totp: string | undefined, ip: string | null): Promise<CheckedAcceptance> {
    const invitation = await this.context.models.Invitation.findOne({ where: { token_hash: sha256(token), workspace_id: workspaceId, used_at: null, expires_at: { [Op.gt]: new Date() } } });
    const member = invitation ? await this.context.models.Member.findOne({ where: { workspace_id: workspaceId, id: invitation.member_id } }) : null;
    if (!invitation || !member || member.state !== 'invited' || member.deactivated_at) throw new NotFoundError(INVALID_LINK);
    const account = await this.context.models.Account.findByPk(member.account_id, { rejectOnEmpty: true });
    const stored = account.password_hash;
    this.context.passwords.admit({ ip });
    if (!stored) return { invitation, member, account, passwordHash: await this.context.passwords.hash(password, { ip }) };
    const matched = await this.context.throttle.attempt(THROTTLES.signIn, account.email, () => this.context.passwords.verify(password, stored, { ip }));
    if (!matched) throw new UnauthorizedError('This email already has an account: send its current password');
    const second = await this.twoFactor.check(account, totp, true);
    if (second === 'missing') throw new UnauthorizedError('Two-factor authentication is on: send the TOTP code from your authenticator app in totp');
    if (second === 'invalid') throw new UnauthorizedError('Invalid TOTP code');
    return { invitation, member, account, passwordHash: null };
  }

  /** PUT /invitations/{token}, second half (in the request's transaction): invited → joined. */
  async complete(checked: CheckedAcceptance, name: string | undefined, stage: Stage, ip: string | null): Promise<{ member: Member; account: Account }> {
    const [used] = await this.context.models.Invitation.update({ used_at: new Date() }, { where: { workspace_id: checked.invitation.workspace_id, id: checked.invitation.id, used_at: null } });
    if (used !== 1) throw new NotFoundError(INVALID_LINK);
    const account = await this.context.models.Account.findByPk(checked.account.id, { rejectOnEmpty: true });
    if (checked.passwordHash && !account.password_hash) {
      account.password_hash = checked.passwordHash;
      if (name?.trim()) account.name = name.trim();
    }
    account.email_verified_at ??= new Date();
    await account.save();
    const member = await this.context.models.Member.findOne({ where: { workspace_id: checked.member.workspace_id, id: checked.member.id }, rejectOnEmpty: true });
    if (member.state !== 'invited' || member.deactivated_at) throw new NotFoundError(INVALID_LINK);
    member.state = 'joined';
    member.joined_at = new Date();
    await member.save();
    stage(systemEvent('system.workspace.member.added', { member_id: member.id, role: member.platform_role }));
    await this.activity.record({ workspaceId: member.workspace_id, actor: { memberId: member.id, email: account.email }, action: 'member.joined', targetType: 'member', targetId: member.id, ip });
    return { member, account };
  }
}
