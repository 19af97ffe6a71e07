import { appKit, type AppContext, type BaseContext, type EventContext } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Models } from './models/index.js';

/** The app's declaration helpers, typed once with its models and its contract (`wpk types` writes app.types.ts). */
export const { route, routeFamily, publicRoute, subscription } = appKit<Models, AppTypes>();

/** A route's context. */
export type Ctx = AppContext<Models, AppTypes>;

/** A subscription handler's context: no caller, the event's workspace. */
export type EventCtx = EventContext<Models, AppTypes>;

/** What every context has: db, events, search, settings, members. */
export type AnyCtx = BaseContext<Models, AppTypes>;
