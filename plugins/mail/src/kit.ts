import { appKit, type AppContext, type BaseContext, type EventContext } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Models } from './models/index.js';

/** The app's declaration helpers, typed once with its models and generated contract. */
export const { route, routeFamily, resource, subscription, memberRemoved } = appKit<Models, AppTypes>();

/** A route's context. */
export type MailContext = AppContext<Models, AppTypes>;
/** A subscription handler's context. */
export type MailEventContext = EventContext<Models, AppTypes>;
/** Any context (route, delivery, the listener's work). */
export type MailBaseContext = BaseContext<Models, AppTypes>;
