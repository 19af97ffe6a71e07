import type { SubscriptionHandler } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';
import { recordMemberAdded } from '../services/members-directory.js';

/** `system.workspace.member.added` {member_id, role}: the member is present again (idempotent). */
export const onMemberAdded: SubscriptionHandler<Models, AppTypes, 'system.workspace.member.added'> = async (event, ctx) => {
  const memberId: unknown = event.payload.member_id;
  if (typeof memberId !== 'string' || !/^[0-9a-f-]{36}$/i.test(memberId)) {
    ctx.log.warn({ action: event.action, delivery: event.deliveryId }, 'member.added without a usable member_id: ignored');
    return;
  }
  await recordMemberAdded(ctx, memberId);
};
