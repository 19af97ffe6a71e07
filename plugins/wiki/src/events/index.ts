import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { subscription } from '../kit.js';
import type { Models } from '../models/index.js';
import { reviewStep, watchedChanged } from '../services/verification.js';

const read = <T>(event: { payload: object }): T => event.payload as unknown as T;

/** A page's review step, delivered when it is due. */
const onReview = subscription('core.wiki.review.scheduled', async (event, ctx) => reviewStep(ctx, read<{ page_id: string; step: 'due' | 'expire'; at: string }>(event)));

/** A leave type changed: pages watching it fall due. */
const onLeaveType = subscription('core.leaves.type.updated', async (event, ctx) => watchedChanged(ctx, `mrn:leaves:type:${read<{ type_id: string }>(event).type_id}`, event.action));

/** Subscription handlers, by the action of app.json's subscriptions. */
export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.wiki.review.scheduled': onReview,
  'core.leaves.type.updated': onLeaveType,
};
