import type { EmittedEvents } from '../app.types.js';
import type { FilesBaseContext } from '../kit.js';

export type FilesEventAction = keyof EmittedEvents;

/** Stages one event; it leaves only if the request answers 2xx. */
export function emit<A extends FilesEventAction>(ctx: FilesBaseContext, action: A, payload: EmittedEvents[A]): void {
  ctx.events.stage(action, payload);
}
