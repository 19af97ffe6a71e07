import { appKit, type AppContext, type BaseContext, type EventContext } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Models } from './models/index.js';

/** The app's declaration helpers, typed once with its models and generated contract. */
export const { route, routeFamily, resource, subscription } = appKit<Models, AppTypes>();

/** What a route hands a service: the request's context, typed with the app's models and contract. */
export type MeetingsContext = AppContext<Models, AppTypes>;
/** What a subscription handler hands a service. */
export type MeetingsEventContext = EventContext<Models, AppTypes>;
/** The parts every context shares. */
export type MeetingsBaseContext = BaseContext<Models, AppTypes>;
/** An action the app emits: what a state machine's move names as its event (`transition.event`). */
export type MeetingsEvent = keyof AppTypes['emits'] & string;
