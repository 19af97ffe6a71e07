import { appKit, type AppContext, type BaseContext, type EventContext } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Models } from './models/index.js';

/** The app's declaration helpers, typed once with its models and generated contract. */
export const { route, routeFamily, publicRoute, resource, check, subscription } = appKit<Models, AppTypes>();

/** A route's context. */
export type SlidesContext = AppContext<Models, AppTypes>;

/** A subscription handler's context: no caller, the event's workspace. */
export type SlidesEventContext = EventContext<Models, AppTypes>;

/** The parts every context shares (a route's, a delivery's). */
export type SlidesBaseContext = BaseContext<Models, AppTypes>;
