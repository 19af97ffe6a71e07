import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { subscription } from '../kit.js';
import type { Models } from '../models/index.js';
import { reviewStep, watchedChanged } from '../services/verification.js';

const read = <T>(event: { payload: object }): T => event.payload as unknown as T;

/** A page's review step, delivered when it is due. */
const onReview = subscription('core.wiki.review.scheduled', async (event, ctx) => reviewStep(ctx, read<{ page_id: string; step: 'due' | 'expire'; at: string }>(event)));

/** A leave type changed: pages watching it fall due. */
// A leave type's MRN names its searchable type (leave_type), so a chip of it resolves through
// search; watches written before with the resource `type` still fall due.
const onLeaveType = subscription('core.leaves.type.updated', async (event, ctx) => {
  const id = read<{ type_id: string }>(event).type_id;
  await watchedChanged(ctx, [`mrn:leaves:leave_type:${id}`, `mrn:leaves:type:${id}`], event.action);
});

/** Subscription handlers, by the action of app.json's subscriptions. */
export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.wiki.review.scheduled': onReview,
  'core.leaves.type.updated': onLeaveType,
};
