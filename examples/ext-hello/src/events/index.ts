import type { SubscriptionHandler } from '@wpk/sdk';
import type { Models } from '../models/index.js';
import { onMemberAdded } from './member-added.js';

/** Subscription handlers, by the actions of app.json's subscriptions. */
export const subscriptions: Record<string, SubscriptionHandler<Models>> = {
  'system.workspace.member.added': onMemberAdded,
};
