import { appKit, type AppContext, type BaseContext } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Models } from './models/index.js';

/** The app's declaration helpers, typed once with its models and generated contract. */
export const { routeFamily, resource, subscription } = appKit<Models, AppTypes>();

/** What a route hands a service: the request's context. */
export type SettingsContext = AppContext<Models, AppTypes>;

/** The parts every context shares (a route's, a delivery's): db, events, search, settings, members. */
export type SettingsBaseContext = BaseContext<Models, AppTypes>;
