import type { AppContext, BaseContext } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';

/** What a route hands a service: the request's context, typed with the app's models and its generated contract. */
export type CompaniesContext = AppContext<Models, AppTypes>;

/** The parts every context shares (db, events, search, settings). */
export type CompaniesBaseContext = BaseContext<Models, AppTypes>;

/** Escapes `%`, `_` and `\` so user text matches literally inside an ILIKE pattern. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
