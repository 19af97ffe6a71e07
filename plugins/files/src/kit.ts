import { appKit, type AppContext, type BaseContext, type EventContext } from '@wpk/sdk';
import type { AppTypes, Settings } from './app.types.js';
import type { Models } from './models/index.js';

/** The app's declaration helpers, typed once with its models and generated contract. */
export const { route, routeFamily, check, resource, subscription, memberRemoved } = appKit<Models, AppTypes>();

/** What a route hands a service: the request's context, typed with the app's models and contract. */
export type FilesContext = AppContext<Models, AppTypes>;
/** What a subscription handler hands a service. */
export type FilesEventContext = EventContext<Models, AppTypes>;
/** The parts every context shares. */
export type FilesBaseContext = BaseContext<Models, AppTypes>;
export type FilesSettings = Settings;
