import { ForbiddenError, InvalidError } from '@wpk/sdk';
import type { CallerMember } from '../../access/index.js';
import { Member } from '../models/index.js';
import type { ActivityLog } from './activity.js';
import { accountEvent, type IdentityContext, type Stage } from './context.js';
import { avatarUrl, type MemberService, type PresentedMember } from './members.js';

/** Avatar uploads: at most 2 MiB. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type AvatarType = (typeof AVATAR_TYPES)[number];

const NAMES: Record<AvatarType, string> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/webp': 'WebP' };

/** True when the bytes start like the declared image type (the declared type alone is not trusted). */
export function looksLike(type: AvatarType, data: Buffer): boolean {
  if (type === 'image/png') return data.length > 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  if (type === 'image/jpeg') return data.length > 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff;
  return data.length > 12 && data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP';
}

/** Member avatars, kept in the avatar storage; without one, clients show the initials. */
export class AvatarService {
  constructor(
    private readonly context: IdentityContext,
    private readonly members: MemberService,
    private readonly activity: ActivityLog,
  ) {}

  private async editable(actor: CallerMember, memberId: string): Promise<Member> {
    const member = await this.members.find(actor.workspaceId, memberId);
    if (member.id !== actor.id && actor.platformRole === 'member') throw new ForbiddenError("Only admins can change another member's avatar");
    return member;
  }

  /** POST /avatars/{member_id}: the member themself, or an admin. */
  async upload(actor: CallerMember, memberId: string, type: AvatarType, data: Buffer, stage: Stage, ip: string | null): Promise<PresentedMember> {
    const member = await this.editable(actor, memberId);
    if (data.length === 0) throw new InvalidError('The avatar image is empty');
    if (!looksLike(type, data)) throw new InvalidError(`The body is not a ${NAMES[type]} image`);
    const key = `avatars/${member.id}`;
    await this.context.avatars.put(member.workspace_id, key, data, type);
    member.avatar_key = key;
    member.avatar_content_type = type;
    member.avatar_updated_at = new Date();
    await member.save();
    stage(accountEvent('core.account.member.avatar_updated', { member_id: member.id, avatar_url: avatarUrl(member) }));
    await this.activity.record({ workspaceId: actor.workspaceId, actor: { memberId: actor.id, email: actor.email }, action: 'member.avatar_updated', targetType: 'member', targetId: member.id, ip });
    return this.members.get(actor.workspaceId, member.id);
  }

  /** DELETE /avatars/{member_id}: back to initials. */
  async clear(actor: CallerMember, memberId: string, stage: Stage, ip: string | null): Promise<PresentedMember> {
    const member = await this.editable(actor, memberId);
    if (member.avatar_key) {
      await this.context.avatars.delete(member.workspace_id, member.avatar_key);
      member.avatar_key = null;
      member.avatar_content_type = null;
      member.avatar_updated_at = new Date();
      await member.save();
      stage(accountEvent('core.account.member.avatar_updated', { member_id: member.id, avatar_url: null }));
      await this.activity.record({ workspaceId: actor.workspaceId, actor: { memberId: actor.id, email: actor.email }, action: 'member.avatar_removed', targetType: 'member', targetId: member.id, ip });
    }
    return this.members.get(actor.workspaceId, member.id);
  }

  /** The stored image of a member of the workspace, or null. */
  async read(workspaceId: string, memberId: string): Promise<{ type: string; data: Buffer } | null> {
    const member = await this.members.find(workspaceId, memberId);
    if (!member.avatar_key || !member.avatar_content_type) return null;
    const data = await this.context.avatars.get(workspaceId, member.avatar_key);
    return data ? { type: member.avatar_content_type, data } : null;
  }
}
