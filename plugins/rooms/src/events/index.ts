import { isUuid, type SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';
import { recordMemberRemoved } from '../services/members.js';

/** Subscription handlers by action: a member removed from the workspace leaves every room. */
export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.account.member.removed': async (event, ctx) => {
    const memberId: unknown = event.payload.member_id;
    if (typeof memberId !== 'string' || !isUuid(memberId)) return ctx.log.warn({ action: event.action }, 'member.removed without a usable member_id: ignored');
    await ctx.lock(`member:${memberId.toLowerCase()}`);
    await recordMemberRemoved(ctx, memberId.toLowerCase());
  },
};
