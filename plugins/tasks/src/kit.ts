import { appKit, type AppContext, type BaseContext, type EventContext } from '@wpk/sdk';
import type { AppTypes, Settings } from './app.types.js';
import type { Models } from './models/index.js';

/** The app's declaration helpers, typed once with its models and generated contract. */
export const { route, routeFamily, check, resource, subscription, memberRemoved } = appKit<Models, AppTypes>();

/** What a route hands a service: the request's context, typed with the app's models and its generated contract (`wpk types`). */
export type TasksContext = AppContext<Models, AppTypes>;
/** What a subscription handler hands a service: no caller, the event's workspace. */
export type TasksEventContext = EventContext<Models, AppTypes>;
/** The parts every context shares (db, events, search, settings, members). */
export type TasksBaseContext = BaseContext<Models, AppTypes>;
/** The app's settings document, as the manifest's settings schema describes it (generated). */
export type TasksSettings = Settings;
