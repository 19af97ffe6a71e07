import { InvalidError, isUuid } from '@wpk/sdk';
import { indexTree } from '../search.js';
import type { FilesBaseContext } from './context.js';

/** Refuses a member the app's copy knows as removed, and an id no member can have. */
export async function assertMemberPresent(ctx: FilesBaseContext, memberId: string, field = 'member_id', shown = memberId): Promise<void> {
  if (!isUuid(memberId)) throw new InvalidError(`${field} ${shown} is not a member of this workspace`);
  const known = await ctx.db.memberDirectory.findOne({ where: { member_id: memberId } });
  if (known?.removed_at) throw new InvalidError(`${field} ${shown} is no longer a member of this workspace`);
}

async function setState(ctx: FilesBaseContext, memberId: string, removal: { at: Date; by: string | null } | null): Promise<void> {
  const state = { removed_at: removal?.at ?? null, removed_by: removal?.by ?? null };
  const row = await ctx.db.memberDirectory.upsert({ member_id: memberId, ...state }, { conflictFields: ['member_id'], update: [] });
  if ((row.removed_at === null) !== (removal === null)) await ctx.db.memberDirectory.update(state, { where: { member_id: memberId } });
}

/** `system.workspace.member.added`: the member is (again) present. Idempotent. */
export async function recordMemberAdded(ctx: FilesBaseContext, memberId: string): Promise<void> {
  await setState(ctx, memberId, null);
}

/**
 * `core.account.member.removed`: remembers the member as removed and drops what was shared with
 * them (their own files stay, for an admin to transfer). Idempotent: a redelivery finds nothing.
 */
export async function recordMemberRemoved(ctx: FilesBaseContext, memberId: string, removedBy: string | null): Promise<number> {
  await setState(ctx, memberId, { at: new Date(), by: removedBy });
  const shares = await ctx.db.shares.findAll({ where: { member_id: memberId } });
  if (shares.length === 0) return 0;
  await ctx.db.shares.destroy({ where: { member_id: memberId } });
  for (const share of shares) {
    const item = await ctx.db.items.findById(share.item_id);
    if (item && !item.trashed_at) await indexTree(ctx, item);
  }
  return shares.length;
}
