import { ConnectionError, TimeoutError } from 'sequelize';
import { RetryDeliveryError } from './delivery.js';

/**
 * PostgreSQL SQLSTATE codes that describe a moment, not the data: the same work may succeed if
 * it runs again. 23505 is here because, in a handler, a unique violation is another delivery
 * racing this one for the same row (a handler that keys its rows sees no other kind).
 */
const TRANSIENT_SQLSTATES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '23505', // unique_violation: a concurrent insert of the same key
  '55P03', // lock_not_available (lock_timeout, NOWAIT)
  '57014', // query_canceled (statement_timeout)
  '57P01', // admin_shutdown: the server went away under the connection
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovering)
  '53300', // too_many_connections
]);

/** Node socket errors of a connection that broke or could not be made. */
const TRANSIENT_NODE_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** Messages of the pg driver when the connection dies without a code. */
const LOST_CONNECTION = /^(Connection terminated|Client has encountered a connection error|terminating connection)/;

function codeOf(error: object): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** The error and what it wraps: Sequelize's `parent`/`original`, and the standard `cause`. */
function* chain(error: unknown): Generator<object> {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    yield current;
    const next = current as { parent?: unknown; original?: unknown; cause?: unknown };
    current = next.parent ?? next.original ?? next.cause;
  }
}

/**
 * The one classification of a subscription handler's failure. True (transient: the delivery is
 * answered 503 and the broker retries it later) for:
 * - `RetryDeliveryError`, thrown by the handler to ask for a retry;
 * - a serialization failure (40001), a deadlock (40P01), a unique violation (23505: in a handler,
 *   another delivery inserting the same row), a lock not available (55P03), a query cancelled by
 *   a timeout (57014), a server shutting down or refusing connections (57P01, 57P02, 57P03, 53300);
 * - a lost or refused connection: any SQLSTATE of class 08, a Sequelize ConnectionError or
 *   TimeoutError, a socket error (ECONNRESET, ECONNREFUSED, EPIPE, ETIMEDOUT, ...), or the pg
 *   driver's "Connection terminated".
 * Wrapped errors count (Sequelize's `parent`/`original`, `cause`). Anything else is permanent:
 * the delivery is answered 200 and the failure logged (a retry would fail the same way).
 */
export function isTransientError(error: unknown): boolean {
  for (const link of chain(error)) {
    if (link instanceof RetryDeliveryError || link instanceof ConnectionError || link instanceof TimeoutError) return true;
    const code = codeOf(link);
    if (code && (TRANSIENT_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || TRANSIENT_NODE_CODES.has(code))) return true;
    if (link instanceof Error && LOST_CONNECTION.test(link.message)) return true;
  }
  return false;
}

/**
 * What the platform does with a subscription handler's failure: `transient` (answered 503, the
 * broker retries the delivery later) or `permanent` (answered 200 and logged; a retry would
 * fail the same way).
 */
export type HandlerErrorKind = 'transient' | 'permanent';

/** Classifies a handler's failure as the platform does (see `isTransientError`). */
export function classifyHandlerError(error: unknown): HandlerErrorKind {
  return isTransientError(error) ? 'transient' : 'permanent';
}
