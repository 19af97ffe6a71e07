import { appKit, type AppContext, type BaseContext } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Models } from './models/index.js';

/** The app's declaration helpers, typed once with its models and generated contract. */
export const { route, routeFamily, resource, subscription, publicRoute } = appKit<Models, AppTypes>();

/** A route's context. */
export type Ctx = AppContext<Models, AppTypes>;

/** What every context has: db, events, search, settings, live. */
export type AnyCtx = BaseContext<Models, AppTypes>;
