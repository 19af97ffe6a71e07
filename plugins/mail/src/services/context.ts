import { ConflictError, type AppContext, type BaseContext } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';

/** A route's context. */
export type MailContext = AppContext<Models, AppTypes>;

/** Any context (route, delivery, the listener's work). */
export type MailBaseContext = BaseContext<Models, AppTypes>;

/** Runs an insert; a concurrent duplicate caught by a unique index answers 409 with `message`. */
export async function conflictOnDuplicate<T>(insert: Promise<T>, message: string): Promise<T> {
  try {
    return await insert;
  } catch (error) {
    if ((error as { name?: unknown })?.name === 'SequelizeUniqueConstraintError') throw new ConflictError(message);
    throw error;
  }
}

/** Escapes `%`, `_` and `\` for a literal ILIKE match. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
