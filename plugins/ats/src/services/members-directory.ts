import type { AtsBaseContext } from './context.js';

/**
 * The app's copy of the workspace's members, fed by `system.workspace.member.added` and
 * `core.account.member.removed`. Only removals matter to the rules (a removed member cannot be
 * put on a panel, asked for a scorecard or named an approver); an upsert keeps concurrent
 * deliveries for one member in order, and a redelivery changes nothing.
 */
async function setState(ctx: AtsBaseContext, memberId: string, removal: { at: Date; by: string | null } | null): Promise<void> {
  const state = { removed_at: removal?.at ?? null, removed_by: removal?.by ?? null };
  const row = await ctx.db.memberDirectory.upsert({ member_id: memberId, ...state }, { conflictFields: ['member_id'], update: [] });
  if ((row.removed_at === null) !== (removal === null)) await ctx.db.memberDirectory.update(state, { where: { member_id: memberId } });
}

/** The member is (again) present. */
export async function recordMemberAdded(ctx: AtsBaseContext, memberId: string): Promise<void> {
  await setState(ctx, memberId, null);
}

/** The member left the workspace. */
export async function recordMemberRemoved(ctx: AtsBaseContext, memberId: string, removedBy: string | null): Promise<void> {
  await setState(ctx, memberId, { at: ctx.now(), by: removedBy });
}
