import type { AppContext, BaseContext, EventContext } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';

/** What a route hands a service. */
export type FinanceContext = AppContext<Models, AppTypes>;

/** What a subscription handler hands a service. */
export type FinanceEventContext = EventContext<Models, AppTypes>;

/** The parts every context shares. */
export type FinanceBaseContext = BaseContext<Models, AppTypes>;

/** Today (UTC) as `YYYY-MM-DD`. */
export const today = (): string => new Date().toISOString().slice(0, 10);
