import type { AppTypes } from '../app.types.js';
import type { ChatBaseContext } from './context.js';

/** Stages one of the app's events (typed by the generated contract). */
export function emit<A extends keyof AppTypes['emits'] & string>(ctx: ChatBaseContext, action: A, payload: AppTypes['emits'][A]): void {
  ctx.events.stage(action, payload);
}

/** The first 200 characters of a text, on one line (event previews). */
export function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= 200 ? flat : `${flat.slice(0, 199)}…`;
}
