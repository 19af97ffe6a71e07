import { appKit, type AppContext, type BaseContext, type CheckContext, type EventContext } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Models } from './models/index.js';

/** The app's declaration helpers, typed once with its models and generated contract. */
export const { route, routeFamily, resource, subscription, memberRemoved } = appKit<Models, AppTypes>();

/** What a route hands a service: the request's context, typed with the app's models and contract. */
export type CallsContext = AppContext<Models, AppTypes>;
/** What a subscription handler hands a service. */
export type CallsEventContext = EventContext<Models, AppTypes>;
/** The parts every context shares. */
export type CallsBaseContext = BaseContext<Models, AppTypes>;
/** What the signaling socket's join rule gets. */
export type CallsCheckContext = CheckContext<Models>;
/** An action the app emits: what a state machine's move names as its event (`transition.event`). */
export type CallsEvent = keyof AppTypes['emits'] & string;
