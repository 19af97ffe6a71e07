import type { AppContext, BaseContext, EventContext } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';

/** What a route hands a service: the request's context, typed with the app's models and its generated contract. */
export type ContactsContext = AppContext<Models, AppTypes>;

/** What a subscription handler hands a service: no caller, the event's workspace. */
export type ContactsEventContext = EventContext<Models, AppTypes>;

/** The parts every context shares (db, events, search, settings). */
export type ContactsBaseContext = BaseContext<Models, AppTypes>;

/** Escapes `%`, `_` and `\` so user text matches literally inside an ILIKE pattern. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id inside `mrn:{app}:{resource}:{uuid}`, lower case; null when `value` is no such MRN. */
export function idFromMrn(value: unknown, app: string, resource: string): string | null {
  if (typeof value !== 'string') return null;
  const prefix = `mrn:${app}:${resource}:`;
  if (!value.startsWith(prefix)) return null;
  const id = value.slice(prefix.length);
  return UUID.test(id) ? id.toLowerCase() : null;
}
