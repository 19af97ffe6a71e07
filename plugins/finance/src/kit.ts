import { appKit, type AppContext, type BaseContext, type EventContext } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Models } from './models/index.js';

/** The app's declaration helpers, typed once with its models and generated contract. */
export const { route, routeFamily, resource, subscription } = appKit<Models, AppTypes>();

/** What a route hands a service. */
export type FinanceContext = AppContext<Models, AppTypes>;

/** What a subscription handler hands a service. */
export type FinanceEventContext = EventContext<Models, AppTypes>;

/** The parts every context shares. */
export type FinanceBaseContext = BaseContext<Models, AppTypes>;

/** An action the app emits: what a state machine's move names as its event (`transition.event`). */
export type FinanceEvent = keyof AppTypes['emits'] & string;
