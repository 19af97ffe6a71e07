import { InvalidError, isUuid, memberIdFromMrn, memberMrn } from '@wpk/sdk';
import type { RoomsBaseContext } from './context.js';

/** The member id an MRN names, or a 400 naming the field. */
export function memberIdOf(mrn: unknown, field: string): string {
  const id = typeof mrn === 'string' ? memberIdFromMrn(mrn) : null;
  if (!id || !isUuid(id)) throw new InvalidError(`${field} must be a member MRN (mrn:account:member:{id})`);
  return id.toLowerCase();
}

/** Refuses a member the app's copy knows as removed from the workspace (one it never heard of is assumed present). */
export async function assertMemberPresent(ctx: RoomsBaseContext, memberId: string, field: string): Promise<void> {
  const known = await ctx.db.memberDirectory.findOne({ where: { member_id: memberId } });
  if (known?.removed_at) throw new InvalidError(`${field} ${memberMrn(memberId)} is no longer a member of this workspace`);
}

/** Records the member as present in (or removed from) the workspace; idempotent. */
export async function setDirectoryState(ctx: RoomsBaseContext, memberId: string, removedAt: Date | null): Promise<void> {
  const row = await ctx.db.memberDirectory.upsert({ member_id: memberId, removed_at: removedAt }, { conflictFields: ['member_id'], update: [] });
  if ((row.removed_at === null) !== (removedAt === null)) await ctx.db.memberDirectory.update({ removed_at: removedAt }, { where: { member_id: memberId } });
}
