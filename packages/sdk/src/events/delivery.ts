import { InvalidError, UnauthorizedError } from '../errors.js';
import { ATTEMPT_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER, verifySignature } from './signature.js';

/** Request headers as Node gives them (lower-case names). */
export type DeliveryHeaders = Record<string, string | string[] | undefined>;

/** A delivery, parsed: the body `{action, metadata, payload}` plus what the headers say. */
export interface ParsedDelivery {
  /** The action, e.g. `core.tasks.task.created`. */
  action: string;
  /** The payload, validated by the broker against the action's schema. */
  payload: Record<string, unknown>;
  /** Free-form metadata; the platform adds `workspace_id`, `event_id`, `emitter` and `emitted_at`. */
  metadata: Record<string, unknown> & { workspace_id: string };
  /** The workspace the event belongs to (`metadata.workspace_id`). */
  workspaceId: string;
  /** The delivery id (`x-broker-event-id`): the same on every attempt of this delivery. */
  deliveryId: string;
  /** The attempt number (`x-broker-delivery-attempt`), 1 for the first. */
  attempt: number;
}

function header(headers: DeliveryHeaders, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Parses a delivery body (and its headers) without checking the signature. Throws InvalidError
 * naming what is wrong when the body is not `{action, metadata: {workspace_id}, payload}`.
 */
export function parseDelivery(body: string | Uint8Array, headers: DeliveryHeaders = {}): ParsedDelivery {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
  } catch {
    throw new InvalidError('delivery body is not JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new InvalidError('delivery body must be an object');
  const { action, metadata, payload } = parsed as Record<string, unknown>;
  if (typeof action !== 'string' || action === '') throw new InvalidError('delivery action must be a string');
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw new InvalidError('delivery payload must be an object');
  if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) throw new InvalidError('delivery metadata must be an object');
  const workspaceId = (metadata as Record<string, unknown>).workspace_id;
  if (typeof workspaceId !== 'string' || !UUID.test(workspaceId)) throw new InvalidError('delivery metadata.workspace_id must be a UUID');
  const attempt = Number(header(headers, ATTEMPT_HEADER) ?? 1);
  return {
    action,
    payload: payload as Record<string, unknown>,
    metadata: metadata as ParsedDelivery['metadata'],
    workspaceId,
    deliveryId: header(headers, EVENT_ID_HEADER) ?? '',
    attempt: Number.isInteger(attempt) && attempt > 0 ? attempt : 1,
  };
}

/**
 * Verifies the signature of a delivery (constant time) and parses it. Throws UnauthorizedError
 * (401) on a missing or wrong signature, InvalidError (400) on a malformed body.
 */
export function verifyDelivery(input: { body: string | Uint8Array; headers: DeliveryHeaders; secret: string }): ParsedDelivery {
  if (!verifySignature(input.body, header(input.headers, SIGNATURE_HEADER), input.secret)) {
    throw new UnauthorizedError('Invalid broker signature');
  }
  return parseDelivery(input.body, input.headers);
}

/**
 * Thrown by a subscription handler to ask the broker to try again later (the receiver answers
 * 503). Failures of the moment (a deadlock, a serialization failure, a unique violation from a
 * concurrent delivery, a lost connection...) are retried without it: see `isTransientError`.
 * Any other failure is permanent: the receiver answers 200 and logs it.
 */
export class RetryDeliveryError extends Error {
  constructor(message = 'Delivery should be retried') {
    super(message);
    this.name = 'RetryDeliveryError';
  }
}
