import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';
import { onMemberAdded } from './member-added.js';

/** Subscription handlers, by the actions of app.json's subscriptions. */
export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'system.workspace.member.added': onMemberAdded,
};
