import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { subscription } from '../kit.js';
import type { Models } from '../models/index.js';
import { announceLocations } from '../services/locations.js';

/** `core.account.application.installed` {app_slug}: every live location is announced, for the copies of the app just installed. */
const onInstalled = subscription('core.account.application.installed', async (event, ctx) => {
  await announceLocations(ctx, event.payload.app_slug);
});

export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.account.application.installed': onInstalled,
};
