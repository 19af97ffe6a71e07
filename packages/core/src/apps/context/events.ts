import type { StageOptions } from '@wpk/sdk';
import { stageEvent, withdrawEvents } from '../../events/index.js';
import { checkerOf, factsOf } from './facts.js';
import type { ContextInputs } from './inputs.js';

/** `ctx.events`: stages (or withdraws) the app's declared events in the work; they are written with it. */
export function eventsOf({ runtime, workspace, work }: ContextInputs) {
  const { app } = runtime;
  const { declaredEvents } = factsOf(app);
  return Object.freeze({
    stage(action: string, payload: Record<string, unknown>, metadata: Record<string, unknown> = {}, options: StageOptions = {}) {
      stageEvent(work, { emitter: app.namespace, action, payload, metadata, options, workspaceId: workspace.id }, (name) =>
        declaredEvents.has(name) ? null : `${app.namespace} may not emit ${name}: its manifest does not declare it`,
        (name, body) => checkerOf(app).check(name, body),
      );
    },
    withdraw(action: string, dedupeKey: string) {
      withdrawEvents(work, { emitter: app.namespace, action, dedupeKey, workspaceId: workspace.id }, (name) =>
        declaredEvents.has(name) ? null : `${app.namespace} may not withdraw ${name}: its manifest does not declare it`,
      );
    },
  });
}
