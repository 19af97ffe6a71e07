import { indexTree } from '../search.js';
import type { FilesBaseContext } from '../kit.js';

/**
 * `core.account.member.removed`: what was shared with the member is no longer (their own files
 * stay, for an admin to transfer). Who is a member is the platform's to say (`ctx.members`); the
 * app keeps no copy. Idempotent: a redelivery finds nothing.
 */
export async function memberRemoved(ctx: FilesBaseContext, memberId: string): Promise<number> {
  const shares = await ctx.db.shares.findAll({ where: { member_id: memberId } });
  if (shares.length === 0) return 0;
  await ctx.db.shares.destroy({ where: { member_id: memberId } });
  for (const share of shares) {
    const item = await ctx.db.items.findById(share.item_id);
    if (item && !item.trashed_at) await indexTree(ctx, item);
  }
  return shares.length;
}
