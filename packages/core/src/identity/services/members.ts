import { ConflictError, ForbiddenError, InvalidError, isUuid, NotFoundError } from '@wpk/sdk';
import { Op, QueryTypes } from 'sequelize';
import type { CallerMember, PlatformRole } from '../../access/index.js';
import type { Account, Member } from '../models/index.js';
import type { ActivityLog } from './activity.js';
import { accountEvent, systemEvent, type IdentityContext, type Stage } from './context.js';

/** A member as API answers show it. */
export interface PresentedMember {
  id: string;
  mrn: string;
  workspace_id: string;
  account_id: string;
  email: string;
  name: string;
  initials: string;
  avatar_url: string | null;
  platform_role: PlatformRole;
  state: 'invited' | 'joined';
  role_ids: string[];
  deactivated_at: string | null;
  joined_at: string | null;
  created_at: string;
}

/** Up to two initials of a display name (`Ada Lovelace` → `AL`), shown when there is no avatar. */
export function initialsOf(name: string, email: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length >= 2 ? [words[0], words[words.length - 1]] : words.length === 1 ? [words[0]] : [email];
  return letters.map((word) => Array.from(word)[0] ?? '').join('').toUpperCase();
}

export function avatarUrl(member: Member): string | null {
  if (!member.avatar_key || !member.avatar_updated_at) return null;
  return `/avatars/${member.id}?v=${member.avatar_updated_at.getTime()}`;
}

export function presentMember(member: Member, account: Account, roleIds: string[]): PresentedMember {
  return {
    id: member.id,
    mrn: `mrn:account:member:${member.id}`,
    workspace_id: member.workspace_id,
    account_id: account.id,
    email: account.email,
    name: account.name,
    initials: initialsOf(account.name, account.email),
    avatar_url: avatarUrl(member),
    platform_role: member.platform_role,
    state: member.state,
    role_ids: roleIds,
    deactivated_at: member.deactivated_at ? member.deactivated_at.toISOString() : null,
    joined_at: member.joined_at ? member.joined_at.toISOString() : null,
    created_at: member.created_at.toISOString(),
  };
}

/** Input of PATCH /members/{member_id}. */
export interface MemberChange {
  platformRole?: 'admin' | 'member';
  roleIds?: string[];
}

/** Members of a workspace: listing, role changes, deactivation. */
export class MemberService {
  constructor(
    private readonly context: IdentityContext,
    private readonly activity: ActivityLog,
  ) {}

  /**
   * The caller a member id stands for, when that member may act right now: joined, not
   * deactivated, in an active workspace. Read fresh from the database on every call (no cache).
   */
  async callerForMember(workspaceId: string, memberId: string): Promise<CallerMember | null> {
    const [row] = await this.context.sequelize.query<{ id: string; workspace_id: string; account_id: string; platform_role: PlatformRole; email: string; name: string }>(
      `SELECT m.id, m.workspace_id, m.account_id, m.platform_role, a.email, a.name
         FROM platform.members m
         JOIN platform.accounts a ON a.id = m.account_id
         JOIN platform.workspaces w ON w.id = m.workspace_id
        WHERE m.workspace_id = :workspaceId AND m.id = :memberId AND m.state = 'joined' AND m.deactivated_at IS NULL AND w.status = 'active'`,
      { type: QueryTypes.SELECT, replacements: { workspaceId, memberId } },
    );
    return row ? { id: row.id, workspaceId: row.workspace_id, accountId: row.account_id, platformRole: row.platform_role, email: row.email, name: row.name } : null;
  }

  async roleIdsOf(workspaceId: string, memberIds: string[]): Promise<Map<string, string[]>> {
    const map = new Map<string, string[]>(memberIds.map((id) => [id, []]));
    if (memberIds.length === 0) return map;
    const rows = await this.context.models.MemberRole.findAll({ where: { workspace_id: workspaceId, member_id: { [Op.in]: memberIds } }, order: [['created_at', 'ASC'], ['role_id', 'ASC']] });
    for (const row of rows) map.get(row.member_id)?.push(row.role_id);
    return map;
  }

  /** One member of the workspace, presented. */
  async get(workspaceId: string, memberId: string): Promise<PresentedMember> {
    const member = await this.find(workspaceId, memberId);
    const account = await this.context.models.Account.findByPk(member.account_id, { rejectOnEmpty: true });
    return presentMember(member, account, (await this.roleIdsOf(workspaceId, [member.id])).get(member.id) ?? []);
  }

  async find(workspaceId: string, memberId: string): Promise<Member> {
    const member = isUuid(memberId) ? await this.context.models.Member.findOne({ where: { id: memberId, workspace_id: workspaceId } }) : null;
    if (!member) throw new NotFoundError(`No member ${memberId} in this workspace`);
    return member;
  }

  /** One page of the workspace's members, oldest first; `state` filters invited or joined. */
  async list(workspaceId: string, filter: { state?: 'invited' | 'joined' }, page: { limit: number; offset: number }): Promise<{ rows: PresentedMember[]; total: number }> {
    const where = { workspace_id: workspaceId, ...(filter.state ? { state: filter.state } : {}) };
    const { rows, count } = await this.context.models.Member.findAndCountAll({ where, order: [['created_at', 'ASC'], ['id', 'ASC']], limit: page.limit, offset: page.offset });
    const accounts = new Map((await this.context.models.Account.findAll({ where: { id: { [Op.in]: rows.map((row) => row.account_id) } } })).map((account) => [account.id, account]));
    const roles = await this.roleIdsOf(workspaceId, rows.map((row) => row.id));
    return { total: count, rows: rows.map((row) => presentMember(row, accounts.get(row.account_id)!, roles.get(row.id) ?? [])) };
  }

  /** Checks that every role id is a role of this workspace; returns them de-duplicated. */
  async checkRoleIds(workspaceId: string, roleIds: string[]): Promise<string[]> {
    const unique = [...new Set(roleIds)];
    for (const id of unique) if (!isUuid(id)) throw new InvalidError(`role_ids: ${id} is not a role of this workspace`, { field: 'role_ids' });
    if (unique.length === 0) return unique;
    const found = new Set((await this.context.models.Role.findAll({ where: { workspace_id: workspaceId, id: { [Op.in]: unique } }, attributes: ['id'] })).map((role) => role.id));
    const missing = unique.find((id) => !found.has(id));
    if (missing) throw new InvalidError(`role_ids: ${missing} is not a role of this workspace`, { field: 'role_ids' });
    return unique;
  }

  async replaceRoles(workspaceId: string, memberId: string, roleIds: string[]): Promise<void> {
    await this.context.models.MemberRole.destroy({ where: { workspace_id: workspaceId, member_id: memberId } });
    for (const roleId of roleIds) await this.context.models.MemberRole.create({ workspace_id: workspaceId, member_id: memberId, role_id: roleId });
  }

  /** PATCH /members/{member_id}: admins change roles; only the owner promotes or demotes admins. */
  async update(actor: CallerMember, memberId: string, change: MemberChange, stage: Stage, ip: string | null): Promise<PresentedMember> {
    const member = await this.find(actor.workspaceId, memberId);
    if (member.platform_role === 'owner' && change.platformRole !== undefined) {
      throw new ForbiddenError("The owner's platform role changes only through an ownership transfer (POST /workspaces/{id}/ownership)");
    }
    if (change.platformRole !== undefined && change.platformRole !== member.platform_role) {
      if (actor.platformRole !== 'owner' && (change.platformRole === 'admin' || member.platform_role === 'admin')) {
        throw new ForbiddenError('Only the workspace owner can promote or demote admins');
      }
      if (member.deactivated_at) throw new ConflictError('This member is deactivated; invite them again first');
      const from = member.platform_role;
      member.platform_role = change.platformRole;
      await member.save();
      stage(accountEvent('core.account.member.role_changed', { member_id: member.id, from_role: from, to_role: change.platformRole, changed_by: actor.id }));
      await this.activity.record({ workspaceId: actor.workspaceId, actor: { memberId: actor.id, email: actor.email }, action: 'member.role_changed', targetType: 'member', targetId: member.id, details: { from_role: from, to_role: change.platformRole }, ip });
    }
    if (change.roleIds !== undefined) {
      const roleIds = await this.checkRoleIds(actor.workspaceId, change.roleIds);
      await this.replaceRoles(actor.workspaceId, member.id, roleIds);
      await this.activity.record({ workspaceId: actor.workspaceId, actor: { memberId: actor.id, email: actor.email }, action: 'member.roles_changed', targetType: 'member', targetId: member.id, details: { role_ids: roleIds }, ip });
    }
    return this.get(actor.workspaceId, member.id);
  }

  /**
   * DELETE /members/{member_id}: deactivates the member. Their sessions end at once (and every
   * credential check reads `deactivated_at`, so their API keys stop on the next request too).
   */
  async deactivate(actor: CallerMember, memberId: string, stage: Stage, ip: string | null): Promise<PresentedMember> {
    const member = await this.find(actor.workspaceId, memberId);
    if (member.platform_role === 'owner') throw new ForbiddenError('The owner cannot be removed; transfer ownership first');
    if (member.id === actor.id) throw new ForbiddenError('You cannot remove yourself');
    if (member.platform_role === 'admin' && actor.platformRole !== 'owner') throw new ForbiddenError('Only the workspace owner can remove an admin');
    if (member.deactivated_at) throw new ConflictError('This member is already deactivated');
    member.deactivated_at = new Date();
    await member.save();
    await this.context.models.Session.destroy({ where: { workspace_id: actor.workspaceId, member_id: member.id } });
    stage(accountEvent('core.account.member.removed', { member_id: member.id, removed_by: actor.id }));
    stage(systemEvent('system.workspace.member.removed', { member_id: member.id, removed_by: actor.id }));
    await this.activity.record({ workspaceId: actor.workspaceId, actor: { memberId: actor.id, email: actor.email }, action: 'member.removed', targetType: 'member', targetId: member.id, ip });
    return this.get(actor.workspaceId, member.id);
  }
}
