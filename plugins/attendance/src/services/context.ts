import type { AppContext, EventContext } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';

/** What a route hands a service: the request's context, typed with the app's models and its generated contract. */
export type AttendanceContext = AppContext<Models, AppTypes>;

/** What a search re-index hands a service: no caller, the workspace's data. */
export type AttendanceEventContext = EventContext<Models, AppTypes>;

/** Escapes `%`, `_` and `\` so user text matches literally inside an ILIKE pattern. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
