import type { StageOptions } from '@wpk/sdk';
import type { StagedEvent } from './sink.js';

/** What a handler asks to emit, and who it is. */
export interface StageRequest {
  emitter: string;
  action: string;
  payload: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  options?: StageOptions;
  /** The workspace of the request or delivery; stamped into the metadata. */
  workspaceId: string;
}

/**
 * Stages one event on a unit of work (a request's or a delivery's): the one place that does it for
 * app contexts and for the bus's own subscription handlers. Refuses at once an action the emitter
 * may not send (`mayEmit` gives the reason), a payload that is not an object, or one that breaks
 * the action's schema (`checkPayload`, throwing EventPayloadError for apps); stamps the
 * workspace into the metadata; the work writes the event to the outbox only if it commits.
 */
export function stageEvent(work: { stage(event: StagedEvent): void }, request: StageRequest, mayEmit: (action: string) => string | null, checkPayload?: (action: string, payload: Record<string, unknown>) => void): void {
  const { emitter, action, payload, options = {} } = request;
  const problem = mayEmit(action);
  if (problem) throw new Error(problem);
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw new TypeError(`${action}: the payload must be an object`);
  // Checked at the call site, as the broker will check it (nulls removed first): the stack trace
  // points at the handler that staged it.
  checkPayload?.(action, payload);
  const event: StagedEvent = { emitter, action, payload, metadata: { ...request.metadata, workspace_id: request.workspaceId } };
  if (options.dedupeKey !== undefined) event.dedupeKey = options.dedupeKey;
  if (options.deliverAt !== undefined) event.deliverAt = options.deliverAt;
  work.stage(event);
}

/**
 * Stages the withdrawal of the emitter's not-yet-delivered events of `action` with `dedupeKey`
 * on a unit of work: it runs with the work's transaction, after the events staged before it.
 */
export function withdrawEvents(work: { stage(event: StagedEvent): void }, request: { emitter: string; action: string; dedupeKey: string; workspaceId: string }, mayEmit: (action: string) => string | null): void {
  const problem = mayEmit(request.action);
  if (problem) throw new Error(problem);
  if (typeof request.dedupeKey !== 'string' || request.dedupeKey.length === 0 || request.dedupeKey.length > 200) throw new TypeError(`${request.action}: withdraw takes a dedupe key of 1-200 characters`);
  work.stage({ emitter: request.emitter, action: request.action, payload: {}, metadata: { workspace_id: request.workspaceId }, dedupeKey: request.dedupeKey, withdraw: true });
}
