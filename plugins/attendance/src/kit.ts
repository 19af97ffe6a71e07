import { appKit, type AppContext } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Models } from './models/index.js';

/** The app's declaration helpers, typed once with its models and generated contract. */
export const { route, routeFamily, resource } = appKit<Models, AppTypes>();

/** What a route hands a service: the request's context. */
export type AttendanceContext = AppContext<Models, AppTypes>;

