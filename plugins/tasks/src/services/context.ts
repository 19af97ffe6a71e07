import { ConflictError, type AppContext, type BaseContext, type EventContext } from '@wpk/sdk';
import type { AppTypes, Settings } from '../app.types.js';
import type { Models } from '../models/index.js';

/** What a route hands a service: the request's context, typed with the app's models and its generated contract (`wpk types`). */
export type TasksContext = AppContext<Models, AppTypes>;

/** What a subscription handler hands a service: no caller, the event's workspace. */
export type TasksEventContext = EventContext<Models, AppTypes>;

/** The parts every context shares (db, events, search, settings). */
export type TasksBaseContext = BaseContext<Models, AppTypes>;

/** The app's settings document, as the manifest's settings schema describes it (generated). */
export type TasksSettings = Settings;

/** The effective settings of the context's workspace (the runtime hands the saved document or the defaults). */
export function settingsOf(ctx: TasksBaseContext): TasksSettings {
  return ctx.settings;
}

/** Escapes `%`, `_` and `\` so user text matches literally inside an ILIKE pattern. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * Runs an insert whose uniqueness the service checked before: when a concurrent request inserted
 * the same row in between, the database's unique constraint refuses it and this answers 409 with
 * `message` instead of a fault. Any other error is rethrown as it is.
 */
export async function conflictOnDuplicate<T>(insert: Promise<T>, message: string): Promise<T> {
  try {
    return await insert;
  } catch (error) {
    // The SDK's models are Sequelize models; a unique violation surfaces as this error class.
    if ((error as { name?: unknown })?.name === 'SequelizeUniqueConstraintError') throw new ConflictError(message);
    throw error;
  }
}
