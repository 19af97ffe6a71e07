import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';

/** The app receives no events yet (MRN fields, fed by other apps' events, are not built). */
export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {};
