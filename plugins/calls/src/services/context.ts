import type { AppContext, BaseContext, CheckContext, EventContext } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';

/** What a route hands a service: the request's context, typed with the app's models and contract. */
export type CallsContext = AppContext<Models, AppTypes>;
/** What a subscription handler hands a service. */
export type CallsEventContext = EventContext<Models, AppTypes>;
/** The parts every context shares. */
export type CallsBaseContext = BaseContext<Models, AppTypes>;
/** What the signaling socket's join rule gets. */
export type CallsCheckContext = CheckContext<Models>;
