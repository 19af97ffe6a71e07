import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Queryable } from './catalog-store.js';
import { maskPayload } from './payload.js';
import type { DeliveryQueue } from './queue.js';
import type { EventCatalog } from './types.js';

/** One attempt of a delivery. */
export interface DeliveryAttempt {
  attempt: number;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  outcome: 'delivered' | 'failed';
}

/** A delivery as the log shows it (payload fields marked for redaction are masked). */
export interface DeliveryLogEntry {
  id: string;
  event_id: string;
  workspace_id: string;
  action: string;
  subscriber: string;
  handler: string;
  status: 'pending' | 'retrying' | 'delivered' | 'exhausted';
  attempts: number;
  max_retries: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  delivered_at: string | null;
  replay_of: string | null;
  payload: Record<string, unknown>;
  metadata: Record<string, unknown>;
  attempt_log?: DeliveryAttempt[];
}

/** Filters of `listDeliveries`. */
export interface DeliveryFilter {
  limit?: number;
  status?: DeliveryLogEntry['status'];
  workspaceId?: string;
  action?: string;
  subscriber?: string;
  eventId?: string;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** The most recent deliveries first, with their masked payloads. */
export async function listDeliveries(db: Queryable, catalog: EventCatalog, filter: DeliveryFilter = {}): Promise<DeliveryLogEntry[]> {
  const conditions: string[] = [];
  const values: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    values.push(value);
    conditions.push(sql.replace('?', `$${values.length}`));
  };
  if (filter.status) add('d.status = ?', filter.status);
  if (filter.workspaceId) add('d.workspace_id = ?', filter.workspaceId);
  if (filter.action) add('d.action = ?', filter.action);
  if (filter.subscriber) add('d.subscriber = ?', filter.subscriber);
  if (filter.eventId) add('d.event_id = ?', filter.eventId);
  values.push(Math.min(Math.max(1, Math.floor(filter.limit ?? 20)), 1000));
  const { rows } = await db.query(
    `SELECT d.*, e.payload, e.metadata FROM platform.event_deliveries d JOIN platform.events e ON e.workspace_id = d.workspace_id AND e.id = d.event_id
      ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''}
      ORDER BY d.created_at DESC, d.id LIMIT $${values.length}`,
    values,
  );
  return rows.map((row) => present(row, catalog));
}

/** One delivery with every attempt, or null. */
export async function getDelivery(db: Queryable, catalog: EventCatalog, id: string): Promise<DeliveryLogEntry | null> {
  // By id alone: an operator's look-up (`wpk events show`) that may name a delivery of any workspace.
  const { rows } = await db.query(
    `SELECT d.*, e.payload, e.metadata FROM platform.event_deliveries d JOIN platform.events e ON e.workspace_id = d.workspace_id AND e.id = d.event_id WHERE d.id = $1`,
    [id],
  );
  if (rows.length === 0) return null;
  const attempts = [...(rows[0].attempt_log as DeliveryAttempt[])].sort((a, b) => a.attempt - b.attempt);
  return { ...present(rows[0], catalog), attempt_log: attempts.map((attempt) => ({ ...attempt, started_at: iso(attempt.started_at)! })) };
}

function present(row: pg.QueryResultRow, catalog: EventCatalog): DeliveryLogEntry {
  const redact = catalog.action(row.action)?.redact ?? [];
  return {
    id: row.id,
    event_id: row.event_id,
    workspace_id: row.workspace_id,
    action: row.action,
    subscriber: row.subscriber,
    handler: row.handler,
    status: row.status,
    attempts: row.attempts,
    max_retries: row.max_retries,
    last_status: row.last_status,
    last_error: row.last_error,
    next_attempt_at: row.status === 'pending' || row.status === 'retrying' ? iso(row.next_attempt_at) : null,
    created_at: iso(row.created_at)!,
    delivered_at: iso(row.delivered_at),
    replay_of: row.replay_of,
    payload: maskPayload(maskSealed(row.payload) as Record<string, unknown>, redact),
    metadata: row.metadata,
  };
}

/** Sealed values never leave the database as ciphertext either. */
function maskSealed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSealed);
  if (value && typeof value === 'object') {
    if (typeof (value as { $sealed?: unknown }).$sealed === 'string' && Object.keys(value).length === 1) return '[REDACTED]';
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskSealed(item)]));
  }
  return value;
}

/**
 * Sends a delivery again, as a new delivery (new id, `replay_of` pointing at the original, fresh
 * attempts and retries) of the same event to the same subscriber. Returns the new id.
 */
export async function replayDelivery(client: Queryable, queue: DeliveryQueue, id: string): Promise<string> {
  // By id alone: an operator's command (`wpk events replay`) that may name a delivery of any workspace.
  const { rows } = await client.query(`SELECT * FROM platform.event_deliveries WHERE id = $1`, [id]);
  if (rows.length === 0) throw new Error(`No delivery ${id}`);
  const original = rows[0];
  const replay = randomUUID();
  await client.query(
    `INSERT INTO platform.event_deliveries (id, event_id, workspace_id, action, subscriber, handler, max_retries, next_attempt_at, replay_of)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now(), $8)`,
    [replay, original.event_id, original.workspace_id, original.action, original.subscriber, original.handler, original.max_retries, original.id],
  );
  await queue.insert(client, [{ data: { d: replay, e: original.event_id, w: original.workspace_id, a: 1 } }]);
  return replay;
}
