import { factsOf, frozenCopy } from './facts.js';
import type { ContextInputs } from './inputs.js';

/** `ctx.settings`: the installation's settings, frozen (the manifest's defaults when it has none). */
export function settingsOf({ runtime, settings }: ContextInputs): Record<string, unknown> {
  return settings === null ? factsOf(runtime.app).defaults : (frozenCopy(settings) as Record<string, unknown>);
}

/** `ctx.now()`: the runtime's clock, a fresh Date each call. */
export function nowOf({ platform }: ContextInputs): () => Date {
  return () => new Date(platform.clock().getTime());
}
