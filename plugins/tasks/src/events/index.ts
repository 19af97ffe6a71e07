import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';
import { onMemberRemoved } from './member-removed.js';

/** Subscription handlers by action; each action is declared in app.json's subscriptions. */
export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.account.member.removed': onMemberRemoved,
};
