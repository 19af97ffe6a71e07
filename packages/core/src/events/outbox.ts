import { randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';
import { currentTransaction, statement, type FastQuery } from '../db/index.js';
import { removeNulls, type PayloadSealer } from './payload.js';
import type { EventRegistry } from './registry.js';
import type { EventSink, StagedEvent } from './sink.js';
import { WAKE_CHANNEL } from './wakeup.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface OutboxOptions {
  sequelize: Sequelize;
  /** The hot path to the same database (the outbox insert is a prepared statement). */
  fast: FastQuery;
  registry: EventRegistry;
  sealer: PayloadSealer;
  /** NOTIFY other processes on commit (real PostgreSQL). */
  notify: () => boolean;
  /** Called once a transaction that wrote events has committed (wakes the local broker). */
  onCommitted: () => void;
  /** Stamps `emitted_at` (default: the system clock). */
  clock?: () => Date;
  /** Hear each event once its transaction has committed (or at once, outside a transaction). */
  observers?: OutboxObserver[];
}

/** An event as written to the outbox, with its payload in clear (nulls removed, nothing sealed). */
export interface ObservedEvent {
  id: string;
  workspaceId: string;
  emitter: string;
  action: string;
  payload: Record<string, unknown>;
  metadata: Record<string, unknown>;
  dedupeKey: string | null;
  deliverAt: Date | null;
}

/** Hears committed outbox events (see `EventBusOptions.observers`), and the ids of events withdrawn before any delivery. */
export type OutboxObserver = (events: ObservedEvent[], withdrawn?: string[]) => void;

/** The outbox insert: $1 the rows as a JSON array. */
const INSERT_ROWS = `INSERT INTO platform.events (id, workspace_id, emitter, action, payload, metadata, dedupe_key, deliver_at)
  SELECT id, workspace_id, emitter, action, payload, metadata, dedupe_key, deliver_at
    FROM jsonb_to_recordset(CAST($1 AS jsonb)) AS x(id uuid, workspace_id uuid, emitter text, action text, payload jsonb, metadata jsonb, dedupe_key text, deliver_at timestamptz)`;
const INSERT = statement(INSERT_ROWS);
// The insert and the wake-up of other processes in one statement (a data-modifying WITH runs to
// completion whatever the outer SELECT reads; NOTIFY is delivered at commit).
const INSERT_AND_NOTIFY = statement(`WITH inserted AS (${INSERT_ROWS} RETURNING 1) SELECT pg_notify('${WAKE_CHANNEL}', 'outbox')`);

/** The clear payload of each prepared row (rows go to the database sealed). */
const clearPayloads = new WeakMap<OutboxRow, Record<string, unknown>>();

/**
 * An event row of `platform.events`. `Instant` is how `deliver_at` travels: ISO text on the way
 * in (the rows go to the database as JSON), a Date when pg reads it back.
 */
export interface OutboxRow<Instant extends string | Date = string> {
  id: string;
  workspace_id: string;
  emitter: string;
  action: string;
  payload: Record<string, unknown>;
  metadata: Record<string, unknown>;
  dedupe_key: string | null;
  deliver_at: Instant | null;
}

/**
 * The transactional outbox: the request's sink. `write` inserts the staged events into
 * `platform.events` with the request's own transaction (Sequelize joins it), so they exist
 * exactly when the handler's writes do; the broker takes them from there whenever it can, so an
 * unreachable broker loses nothing.
 */
export class Outbox implements EventSink {
  constructor(private readonly options: OutboxOptions) {}

  /** Checks and shapes one event for the outbox; throws on an event no emitter may send. */
  prepare(workspaceId: string | null, event: StagedEvent, now = (this.options.clock ?? (() => new Date()))()): OutboxRow {
    const { registry, sealer } = this.options;
    registry.assertMayEmit(event.emitter, event.action);
    const metadata = event.metadata && typeof event.metadata === 'object' && !Array.isArray(event.metadata) ? event.metadata : {};
    const workspace = workspaceId ?? (typeof metadata.workspace_id === 'string' ? metadata.workspace_id : null);
    if (!workspace || !UUID.test(workspace)) throw new Error(`event ${event.action} has no workspace: stage it in a workspace request or give metadata.workspace_id`);
    if (!event.payload || typeof event.payload !== 'object' || Array.isArray(event.payload)) throw new Error(`event ${event.action}: payload must be an object`);
    if (event.dedupeKey !== undefined && (typeof event.dedupeKey !== 'string' || event.dedupeKey.length === 0 || event.dedupeKey.length > 200)) {
      throw new Error(`event ${event.action}: dedupeKey must be a string of 1-200 characters`);
    }
    if (event.deliverAt !== undefined && (!(event.deliverAt instanceof Date) || Number.isNaN(event.deliverAt.getTime()))) {
      throw new Error(`event ${event.action}: deliverAt must be a valid Date`);
    }
    const id = randomUUID();
    const payload = removeNulls(event.payload);
    const redact = registry.action(event.action)?.redact ?? [];
    const row: OutboxRow = {
      id,
      workspace_id: workspace,
      emitter: event.emitter,
      action: event.action,
      payload: sealer.seal(payload, redact),
      // The platform's keys win over an emitter's own, so a subscriber can trust them.
      metadata: { ...metadata, workspace_id: workspace, event_id: id, emitter: event.emitter, emitted_at: now.toISOString() },
      dedupe_key: event.dedupeKey ?? null,
      deliver_at: event.deliverAt ? event.deliverAt.toISOString() : null,
    };
    clearPayloads.set(row, payload);
    return row;
  }

  async write(workspaceId: string | null, events: StagedEvent[], last = false): Promise<void> {
    // In staging order: a withdrawal reaches the events written before it, not those after.
    let batch: StagedEvent[] = [];
    for (const event of events) {
      if (!event.withdraw) {
        batch.push(event);
        continue;
      }
      await this.insert(batch.map((staged) => this.prepare(workspaceId, staged)));
      batch = [];
      await this.withdraw(workspaceId, event);
    }
    await this.insert(batch.map((event) => this.prepare(workspaceId, event)), last);
  }

  /**
   * Takes back the emitter's events of the action with the dedupe key that no subscriber has
   * received: still pending in the outbox, or relayed with every delivery still waiting for its
   * first attempt (a delayed event before its instant). They are deleted with their deliveries
   * and dedupe keys (so the same payload may be staged again); a queued job of theirs finds no
   * delivery and ends. Returns the ids withdrawn.
   */
  async withdraw(workspaceId: string | null, event: StagedEvent): Promise<string[]> {
    this.options.registry.assertMayEmit(event.emitter, event.action);
    const workspace = workspaceId ?? (typeof event.metadata?.workspace_id === 'string' ? event.metadata.workspace_id : null);
    if (!workspace || !UUID.test(workspace)) throw new Error(`withdrawing ${event.action}: no workspace`);
    if (typeof event.dedupeKey !== 'string' || event.dedupeKey.length === 0 || event.dedupeKey.length > 200) throw new Error(`withdrawing ${event.action}: dedupeKey must be a string of 1-200 characters`);
    const rows = (await this.options.sequelize.query(
      `DELETE FROM platform.events e
        WHERE e.workspace_id = :workspace AND e.emitter = :emitter AND e.action = :action AND e.dedupe_key = :key
          AND (e.status = 'pending' OR (e.status = 'accepted' AND NOT EXISTS (
                SELECT 1 FROM platform.event_deliveries d
                 WHERE d.workspace_id = e.workspace_id AND d.event_id = e.id AND (d.status <> 'pending' OR d.attempts > 0))))
        RETURNING e.id`,
      { replacements: { workspace, emitter: event.emitter, action: event.action, key: event.dedupeKey }, type: QueryTypes.SELECT },
    )) as Array<{ id: string }>;
    const ids = rows.map((row) => row.id);
    if (ids.length > 0) this.tell([], ids);
    return ids;
  }

  /**
   * Inserts prepared rows (joining the caller's transaction, if any); returns their ids. `last`:
   * the insert ends the transaction, and its COMMIT may go with it (see `EventSink.write`).
   */
  async insert(rows: OutboxRow[], last = false): Promise<string[]> {
    if (rows.length === 0) return [];
    // One prepared statement, in the ambient transaction when there is one (as Sequelize would join it).
    const insert = this.options.notify() ? INSERT_AND_NOTIFY : INSERT;
    const values = [JSON.stringify(rows)];
    await (last ? this.options.fast.rowsThenCommit(insert, values) : this.options.fast.rows(insert, values));
    this.observe(rows);
    return rows.map((row) => row.id);
  }

  private observe(rows: OutboxRow[]): void {
    const observers = this.options.observers ?? [];
    if (observers.length === 0) return;
    const events: ObservedEvent[] = rows.map((row) => ({
      id: row.id,
      workspaceId: row.workspace_id,
      emitter: row.emitter,
      action: row.action,
      payload: structuredClone(clearPayloads.get(row) ?? row.payload),
      metadata: row.metadata,
      dedupeKey: row.dedupe_key,
      deliverAt: row.deliver_at ? new Date(row.deliver_at) : null,
    }));
    this.tell(events);
  }

  /** Tells the observers once the transaction committed (at once outside one). */
  private tell(events: ObservedEvent[], withdrawn?: string[]): void {
    const observers = this.options.observers ?? [];
    if (observers.length === 0) return;
    const tell = () => {
      for (const observer of observers) observer(events, withdrawn);
    };
    const transaction = currentTransaction();
    if (transaction) transaction.afterCommit(tell);
    else tell();
  }

  afterCommit(): void {
    this.options.onCommitted();
  }
}
