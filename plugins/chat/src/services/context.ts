import { ConflictError, type AppContext, type BaseContext, type EventContext } from '@wpk/sdk';
import type { AppTypes, Settings } from '../app.types.js';
import type { Models } from '../models/index.js';

/** What a route hands a service: the request's context, typed with the app's models and contract. */
export type ChatContext = AppContext<Models, AppTypes>;
/** What a subscription handler hands a service. */
export type ChatEventContext = EventContext<Models, AppTypes>;
/** The parts every context shares. */
export type ChatBaseContext = BaseContext<Models, AppTypes>;
export type ChatSettings = Settings;

/** Escapes `%`, `_` and `\` so user text matches literally inside an ILIKE pattern. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
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
