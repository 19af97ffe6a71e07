import { InvalidError, isUuid } from '@wpk/sdk';
import { indexTree } from '../search.js';
import type { FilesBaseContext, FilesContext } from './context.js';

/**
 * Refuses a member the app's copy does not know as present: one it knows as removed (400 "no
 * longer a member"), and one it does not know at all (`unknown`: a 404 or 400 the caller words),
 * which is what a member of another workspace is. The copy knows a member from
 * `system.workspace.member.added` (members who join after the install) or from their own first
 * visit to the app (`noteCaller`).
 */
export async function assertMemberPresent(ctx: FilesBaseContext, memberId: string, unknown: () => Error, field = 'member_id', shown = memberId): Promise<void> {
  const known = isUuid(memberId) ? await ctx.db.memberDirectory.findOne({ where: { member_id: memberId } }) : null;
  if (!known) throw unknown();
  if (known.removed_at) throw new InvalidError(`${field} ${shown} is no longer a member of this workspace`);
}

/**
 * The caller is a member of this workspace (the platform authenticated them here): the copy
 * learns them when it did not know them yet, so members who joined before the app was installed
 * can be shared with once they have opened it. A known row (present or removed) is left alone.
 */
export async function noteCaller(ctx: FilesContext): Promise<void> {
  if (await ctx.db.memberDirectory.findOne({ where: { member_id: ctx.member.id } })) return;
  await ctx.db.memberDirectory.upsert({ member_id: ctx.member.id, removed_at: null, removed_by: null }, { conflictFields: ['member_id'], update: [] });
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
