import { isUuid } from '@wpk/sdk';
import { subscription } from '../kit.js';
import { memberRemoved } from '../services/member-removal.js';

/**
 * `core.account.member.removed` {member_id, removed_by}: the member left the workspace. Their
 * open tasks lose them as assignee and their board memberships go. Idempotent: a redelivery
 * finds nothing left to change. A malformed payload is logged and acknowledged (a retry would
 * not fix it).
 */
export const onMemberRemoved = subscription('core.account.member.removed', async (event, ctx) => {
  // Typed by the platform catalog; still checked, since a replayed or hand-made delivery may not be.
  const memberId: unknown = event.payload.member_id;
  if (typeof memberId !== 'string' || !isUuid(memberId)) {
    ctx.log.warn({ action: event.action, delivery: event.deliveryId }, 'member.removed without a usable member_id: ignored');
    return;
  }
  const { unassigned } = await memberRemoved(ctx, memberId.toLowerCase());
  ctx.log.info({ member_id: memberId, unassigned: unassigned.length }, 'member removed: open tasks unassigned');
});
