import type { SubscriptionHandler } from '@wpk/sdk';
import type { Models } from '../models/index.js';
import { recordMemberAdded } from '../services/members-directory.js';

/** `system.workspace.member.added` {member_id, role}: the member is present again (idempotent). */
export const onMemberAdded: SubscriptionHandler<Models> = async (event, ctx) => {
  const memberId = (event.payload as { member_id?: unknown }).member_id;
  if (typeof memberId !== 'string' || !/^[0-9a-f-]{36}$/i.test(memberId)) {
    ctx.log.warn({ action: event.action, delivery: event.deliveryId }, 'member.added without a usable member_id: ignored');
    return;
  }
  await recordMemberAdded(ctx, memberId);
};
