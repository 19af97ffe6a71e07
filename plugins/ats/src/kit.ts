import { appKit, type AppContext, type BaseContext, type EventContext, type PublicContext } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Models } from './models/index.js';

/** The app's declaration helpers, typed once with its models and generated contract. */
export const { route, publicRoute, check, resource, subscription } = appKit<Models, AppTypes>();

/** What a route hands a service: the request's context, typed with the app's models and contract. */
export type AtsContext = AppContext<Models, AppTypes>;
/** What a subscription handler hands a service. */
export type AtsEventContext = EventContext<Models, AppTypes>;
/** What a public route (the careers page, the self-schedule link) hands a service: no caller. */
export type AtsPublicContext = PublicContext<Models, AppTypes>;
/** A route's context, with or without a caller (services shared by the API and the public pages). */
export type AtsRequestContext = AtsContext | AtsPublicContext;
/** The parts every context shares (db, events, search, settings, storage, members). */
export type AtsBaseContext = BaseContext<Models, AppTypes>;
/** An action the app emits: what a state machine's move names as its event (`transition.event`). */
export type AtsEvent = keyof AppTypes['emits'] & string;
