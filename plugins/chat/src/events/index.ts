import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { memberRemoved } from '../kit.js';
import type { Models } from '../models/index.js';
import { recordMemberRemoved } from '../services/members.js';

/** Subscription handlers by action: a member removed from the workspace leaves every chat. */
export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.account.member.removed': memberRemoved((ctx, { memberId, removedBy }) => recordMemberRemoved(ctx, memberId, removedBy)),
};
