import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { subscription } from '../kit.js';
import type { Models } from '../models/index.js';
import { recordCallCreated, recordCallScheduled } from '../services/calls.js';

/** Subscription handlers by action: the meetings' calls (from the calls app). */
export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.calls.call.created': subscription('core.calls.call.created', async (event, ctx) => recordCallCreated(ctx, event.payload)),
  'core.calls.call.scheduled': subscription('core.calls.call.scheduled', async (event, ctx) => recordCallScheduled(ctx, event.payload)),
};
