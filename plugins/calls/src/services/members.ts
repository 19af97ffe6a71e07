import { InvalidError, isUuid, memberIdFromMrn } from '@wpk/sdk';
import type { CallsBaseContext } from './context.js';

/** The member id an MRN names, or a 400 naming the field. */
export function memberIdOf(mrn: unknown, field: string): string {
  const id = typeof mrn === 'string' ? memberIdFromMrn(mrn) : null;
  if (!id || !isUuid(id)) throw new InvalidError(`${field} must be a member MRN (mrn:account:member:{id})`);
  return id.toLowerCase();
}

/** Refuses members the app's copy knows as removed from the workspace (one it never heard of is assumed present). */
export async function assertMembersPresent(ctx: CallsBaseContext, memberIds: string[], field: string): Promise<void> {
  if (memberIds.length === 0) return;
  const gone = await ctx.db.memberDirectory.findAll({ where: { member_id: memberIds } });
  const removed = gone.find((row) => row.removed_at !== null);
  if (removed) throw new InvalidError(`${field}: mrn:account:member:${removed.member_id} is no longer a member of this workspace`);
}

/** Records that the member is (again) in the workspace, or left it. Idempotent. */
export async function recordMemberState(ctx: CallsBaseContext, memberId: string, removedAt: Date | null): Promise<void> {
  await ctx.db.memberDirectory.upsert({ member_id: memberId, removed_at: removedAt }, { conflictFields: ['member_id'] });
}
