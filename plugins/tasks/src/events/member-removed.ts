import type { SubscriptionHandler } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';
import { recordMemberRemoved } from '../services/members-directory.js';

/**
 * `core.account.member.removed` {member_id, removed_by}: the member left the workspace. Their
 * open tasks lose them as assignee and their board memberships go. Idempotent: a redelivery
 * finds nothing left to change. A malformed payload is logged and acknowledged (a retry would
 * not fix it).
 */
export const onMemberRemoved: SubscriptionHandler<Models, AppTypes, 'core.account.member.removed'> = async (event, ctx) => {
  // Typed by the platform catalog; still checked, since a replayed or hand-made delivery may not be.
  const { member_id: memberId, removed_by: removedBy }: { member_id: unknown; removed_by?: unknown } = event.payload;
  if (typeof memberId !== 'string' || !/^[0-9a-f-]{36}$/i.test(memberId)) {
    ctx.log.warn({ action: event.action, delivery: event.deliveryId }, 'member.removed without a usable member_id: ignored');
    return;
  }
  const { unassigned } = await recordMemberRemoved(ctx, memberId, typeof removedBy === 'string' && /^[0-9a-f-]{36}$/i.test(removedBy) ? removedBy : null);
  ctx.log.info({ member_id: memberId, unassigned: unassigned.length }, 'member removed: open tasks unassigned');
};
