import type { AppContext, BaseContext } from '@wpk/sdk';
import type { AppTypes, Settings } from '../app.types.js';
import type { Models } from '../models/index.js';

/** What a route hands a service: the request's context, typed with the app's models and contract. */
export type CanvasContext = AppContext<Models, AppTypes>;
/** The parts every context shares. */
export type CanvasBaseContext = BaseContext<Models, AppTypes>;
export type CanvasSettings = Settings;

/** Stages one of the app's events (typed by the generated contract). */
export function emit<A extends keyof AppTypes['emits'] & string>(ctx: CanvasBaseContext, action: A, payload: AppTypes['emits'][A]): void {
  ctx.events.stage(action, payload);
}

/** Escapes `%`, `_` and `\` so user text matches literally inside an ILIKE pattern. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
