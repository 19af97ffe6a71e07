import { isUuid, type SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';
import { recordCallCreated, recordCallScheduled } from '../services/calls.js';

/** Subscription handlers by action: the meetings' calls (from the calls app), and who left the workspace. */
export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.calls.call.created': async (event, ctx) => recordCallCreated(ctx, event.payload),
  'core.calls.call.scheduled': async (event, ctx) => recordCallScheduled(ctx, event.payload),
  'core.account.member.removed': async (event, ctx) => {
    const memberId: unknown = event.payload.member_id;
    if (typeof memberId !== 'string' || !isUuid(memberId)) return ctx.log.warn({ action: event.action }, 'member.removed without a usable member_id: ignored');
    await ctx.db.memberAddresses.upsert({ member_id: memberId.toLowerCase(), email: '', name: '', removed_at: new Date() }, { conflictFields: ['member_id'], update: ['removed_at'] });
  },
};
