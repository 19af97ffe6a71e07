import { ConflictError, type AppContext, type BaseContext, type EventContext } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';

/** What a route hands a service: the request's context, typed with the app's models and contract. */
export type MeetingsContext = AppContext<Models, AppTypes>;
/** What a subscription handler hands a service. */
export type MeetingsEventContext = EventContext<Models, AppTypes>;
/** The parts every context shares. */
export type MeetingsBaseContext = BaseContext<Models, AppTypes>;

/** Stages one of the app's events (typed by the generated contract). */
export function emit<A extends keyof AppTypes['emits'] & string>(ctx: MeetingsBaseContext, action: A, payload: AppTypes['emits'][A]): void {
  ctx.events.stage(action, payload);
}

/** Runs an insert a concurrent request may have beaten: a unique violation answers 409 with `message`. */
export async function conflictOnDuplicate<T>(insert: Promise<T>, message: string): Promise<T> {
  try {
    return await insert;
  } catch (error) {
    if ((error as { name?: unknown })?.name === 'SequelizeUniqueConstraintError') throw new ConflictError(message);
    throw error;
  }
}
