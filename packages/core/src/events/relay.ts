import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Queryable } from './catalog-store.js';
import type { OutboxRow } from './outbox.js';
import { maskPayload, type PayloadSealer } from './payload.js';
import type { DeliveryJobData, DeliveryQueue } from './queue.js';
import { RUNTIME_SLUGS } from './names.js';
import { statement, type Statement } from '../db/index.js';
import type { EventCatalog } from './types.js';

/**
 * Narrows the subscribers of one event (for instance to the apps installed in its workspace).
 * Runs inside the relay's transaction: query through `client` only, never another connection.
 * The runtime itself (`system`) is always kept.
 */
export type SubscriberFilter = (input: { workspaceId: string; action: string; subscribers: string[]; client: Queryable }) => Promise<string[]>;

export interface RelayOptions {
  pool: pg.Pool;
  queue: DeliveryQueue;
  catalog: () => EventCatalog;
  sealer: PayloadSealer;
  logger: Logger;
  batchSize: number;
  /** Send NOTIFY so other processes wake (real PostgreSQL only). */
  notify: boolean;
  /**
   * Prepare the relay's statements by name on each connection (real PostgreSQL: they run for
   * every event, and planning them cost more than running them). Not on the embedded database,
   * whose connections share one session, where one name would collide with itself.
   */
  prepare?: boolean;
  subscriberFilter?: SubscriberFilter;
  /**
   * Brings `catalog()` up to date (a standalone broker re-reads the stored catalog), at most once
   * per interval: resolves true when it did, false when the last reading is still too recent.
   * Called, outside any transaction, after a batch met events the catalog does not name, and
   * before events left waiting for the catalog are looked at again.
   */
  reloadCatalog?: () => Promise<boolean>;
}

interface Outcome {
  id: string;
  status: 'accepted' | 'rejected' | 'duplicate';
  reason: string | null;
  deliveries: number;
}

/** What one relay pass did. */
export interface RelayResult {
  taken: number;
  deliveries: number;
  /** The earliest `deliver_at` still ahead among the deliveries queued, if any. */
  nextDue?: Date;
  /** Look again at once: events left waiting for the catalog may be relayed now. */
  again?: boolean;
  /** Look again at once: this pass left pending events it could have taken (a full batch, more workspaces). */
  more?: boolean;
}

/** The relay's statements (see Relay.query): each runs at least once per pass or per event. */
const PENDING_WORKSPACES = statement(`SELECT workspace_id FROM platform.events e
  WHERE status = 'pending'
  AND NOT EXISTS (SELECT 1 FROM unnest($2::text[], $3::text[]) AS w(emitter, action) WHERE w.emitter = e.emitter AND w.action = e.action)
  GROUP BY workspace_id ORDER BY min(seq) LIMIT $1`);
const TAKE_PENDING = statement(`SELECT id, seq, workspace_id, emitter, action, payload, metadata, dedupe_key, deliver_at
  FROM platform.events e
  WHERE workspace_id = $1 AND status = 'pending'
  AND NOT EXISTS (SELECT 1 FROM unnest($3::text[], $4::text[]) AS w(emitter, action) WHERE w.emitter = e.emitter AND w.action = e.action)
  ORDER BY seq LIMIT $2 FOR UPDATE SKIP LOCKED`);
const FIRST_PENDING = statement(`SELECT seq FROM platform.events e
  WHERE workspace_id = $1 AND status = 'pending'
  AND NOT EXISTS (SELECT 1 FROM unnest($2::text[], $3::text[]) AS w(emitter, action) WHERE w.emitter = e.emitter AND w.action = e.action)
  ORDER BY seq LIMIT 1`);
const CLAIM_DEDUPE = statement(`INSERT INTO platform.event_dedupe (workspace_id, action, dedupe_key, payload_hash, event_id)
  SELECT workspace_id, action, dedupe_key, payload_hash, event_id
  FROM jsonb_to_recordset($1::jsonb) AS x(workspace_id uuid, action text, dedupe_key text, payload_hash text, event_id uuid)
  ON CONFLICT DO NOTHING RETURNING event_id`);
const SETTLE = statement(`WITH fanned AS (
  INSERT INTO platform.event_deliveries (id, event_id, workspace_id, action, subscriber, handler, max_retries, next_attempt_at)
  SELECT id, event_id, workspace_id, action, subscriber, handler, max_retries, COALESCE(next_attempt_at, now())
  FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, event_id uuid, workspace_id uuid, action text, subscriber text, handler text, max_retries int, next_attempt_at timestamptz)
  ), settled AS (
  UPDATE platform.events e SET status = x.status, reason = x.reason, deliveries = x.deliveries, processed_at = now()
  FROM jsonb_to_recordset($2::jsonb) AS x(id uuid, status text, reason text, deliveries int)
  WHERE e.workspace_id = $5 AND e.id = ANY($4::uuid[]) AND e.id = x.id
  )
  SELECT CASE WHEN $3::boolean THEN pg_notify('wpk_events', 'deliveries') END AS notified`);

/** Workspaces one relay pass looks at (the oldest pending event first). */
const WORKSPACES_PER_PASS = 50;

/**
 * Moves events from the outbox to the delivery queue: validates each payload against its
 * action's schema (an invalid event is rejected and logged, never delivered), drops duplicates
 * (same dedupe key and same payload), and queues one delivery per subscription. Work goes by
 * workspace: one transaction per workspace's batch, every statement naming the workspace (so each
 * runs on one shard of a database distributed by workspace); rows are claimed with SKIP LOCKED so
 * any number of brokers relay side by side, and a workspace's events are relayed in order.
 *
 * An event whose action (or emitter) the catalog does not name yet is not rejected: this broker
 * may simply run with an older catalog than the server that wrote it. It stays pending, and
 * this relay passes over its (emitter, action) until the catalog is read again (on such a miss,
 * at most once per interval), so it blocks no later event of another action.
 */
export class Relay {
  /** (emitter, action) pairs this relay's catalog does not name, passed over until it is read again. */
  private readonly waiting = new Map<string, { emitter: string; action: string }>();
  /** Pairs already logged, so a long wait is logged once, not on every look. */
  private readonly announced = new Set<string>();
  private waitingAgainst: EventCatalog | null = null;

  constructor(private readonly options: RelayOptions) {}

  /** Events of these (emitter, action) pairs are left pending: the catalog does not name them yet. */
  get waitingFor(): Array<{ emitter: string; action: string }> {
    return [...this.waiting.values()];
  }

  /** Forgets the waiting pairs once the catalog was read again (their events are looked at anew); true when it did. */
  private async lookAgainAtWaiting(): Promise<boolean> {
    if (this.waiting.size === 0) return false;
    const reloaded = (await this.options.reloadCatalog?.()) ?? false;
    if (!reloaded && this.options.catalog() === this.waitingAgainst) return false;
    this.waiting.clear();
    return true;
  }

  /** Relays one batch. `again` asks for another pass at once (the catalog changed after a miss). */
  async runOnce(): Promise<RelayResult> {
    await this.lookAgainAtWaiting();
    const before = this.waiting.size;
    const result = await this.relayBatch();
    // A miss reads the catalog again here, after the batch's transaction: on the embedded
    // database a second connection would wait for that one to end.
    if (this.waiting.size > before && (await this.lookAgainAtWaiting())) return { ...result, again: true };
    return result;
  }

  /** `hot` with its values, by name where statements are prepared (`prepare`). */
  private query(hot: Statement, values: unknown[]): pg.QueryConfig {
    return this.options.prepare ? { name: hot.name, text: hot.text, values } : { text: hot.text, values };
  }

  /**
   * One pass: finds the workspaces with pending events (the oldest first; the one statement of the
   * relay that spans tenants) and relays each workspace's events in its own transaction, every
   * statement of which names that workspace. On a database distributed by workspace each of them
   * runs on one shard; `ORDER BY seq … FOR UPDATE SKIP LOCKED` over all tenants would not.
   */
  private async relayBatch(): Promise<RelayResult> {
    const waiting = [...this.waiting.values()];
    const emitters = waiting.map((pair) => pair.emitter);
    const actions = waiting.map((pair) => pair.action);
    const { rows: workspaces } = await this.options.pool.query<{ workspace_id: string }>(this.query(PENDING_WORKSPACES, [WORKSPACES_PER_PASS, emitters, actions]));
    const total: RelayResult = { taken: 0, deliveries: 0 };
    let budget = this.options.batchSize;
    for (const { workspace_id: workspaceId } of workspaces) {
      if (budget <= 0) {
        total.more = true;
        break;
      }
      const result = await this.relayWorkspace(workspaceId, budget, emitters, actions);
      total.taken += result.taken;
      total.deliveries += result.deliveries;
      budget -= result.taken;
      if (result.full) total.more = true;
      if (result.nextDue && (!total.nextDue || result.nextDue < total.nextDue)) total.nextDue = result.nextDue;
    }
    if (workspaces.length === WORKSPACES_PER_PASS) total.more = true;
    // Nothing taken (every workspace held by another broker): wait for a wake-up, do not spin.
    if (total.taken === 0) total.more = false;
    return total;
  }

  /**
   * Relays up to `limit` pending events of one workspace, in `seq` order, in one transaction.
   * Events stay ordered within a workspace: when another broker holds an earlier pending event of
   * this workspace, this one leaves the workspace alone for this pass (it would otherwise relay
   * later events before that broker commits earlier ones).
   */
  private async relayWorkspace(workspaceId: string, limit: number, emitters: string[], actions: string[]): Promise<RelayResult & { full: boolean }> {
    const { pool, queue, sealer, logger } = this.options;
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      // The broker's own writes skip the wait for the WAL flush: after a database crash the last
      // few of them may be lost, which only means a relay or a delivery happens again (at least
      // once); the events themselves were committed durably by the requests that staged them.
      await client.query('BEGIN; SET LOCAL synchronous_commit TO off');
      const { rows } = await client.query<OutboxRow<Date> & { seq: string }>(this.query(TAKE_PENDING, [workspaceId, limit, emitters, actions]));
      if (rows.length > 0) {
        // Rows another broker holds were skipped: if one of them comes before ours, that broker
        // relays this workspace now; leave it (a plain read waits for no lock).
        const { rows: first } = await client.query<{ seq: string }>(this.query(FIRST_PENDING, [workspaceId, emitters, actions]));
        if (first.length > 0 && BigInt(first[0].seq) < BigInt(rows[0].seq)) rows.length = 0;
      }
      if (rows.length === 0) {
        await client.query('COMMIT');
        return { taken: 0, deliveries: 0, full: false };
      }
      const catalog = this.options.catalog();
      const outcomes: Outcome[] = [];
      const valid: Array<{ row: OutboxRow<Date>; hash: string | null }> = [];
      for (const row of rows) {
        const entry = catalog.action(row.action);
        const reject = (reason: string) => {
          outcomes.push({ id: row.id, status: 'rejected', reason, deliveries: 0 });
          logger.warn({ event_id: row.id, action: row.action, emitter: row.emitter, workspace_id: row.workspace_id, reason, payload: maskPayload(row.payload, entry?.redact ?? []) }, 'event rejected');
        };
        if (!entry || !entry.emitters.has(row.emitter)) {
          // Written by a server whose catalog is newer than this broker's: leave it pending.
          const key = `${row.emitter} ${row.action}`;
          this.waiting.set(key, { emitter: row.emitter, action: row.action });
          if (!this.announced.has(key)) {
            this.announced.add(key);
            logger.warn({ event_id: row.id, action: row.action, emitter: row.emitter }, 'event left pending: the event catalog does not name its action (for this emitter) yet');
          }
          continue;
        }
        let payload: Record<string, unknown>;
        try {
          payload = sealer.unseal(row.payload, entry.redact);
        } catch {
          reject('a sealed payload field cannot be read (was BROKER_SECRET changed?)');
          continue;
        }
        if (!entry.validate(payload)) {
          reject(catalog.errorsText(entry.validate.errors));
          continue;
        }
        valid.push({ row, hash: row.dedupe_key ? sealer.hash(payload) : null });
      }
      this.waitingAgainst = catalog;

      // Deduplication: the first event to claim (workspace, action, key, payload) wins; a later one
      // with the same key and the same payload is a duplicate. Another payload is another event.
      const keyed = valid.filter((item) => item.hash !== null);
      const winners = new Set<string>();
      if (keyed.length > 0) {
        const { rows: inserted } = await client.query<{ event_id: string }>(this.query(CLAIM_DEDUPE, [JSON.stringify(keyed.map(({ row, hash }) => ({ workspace_id: row.workspace_id, action: row.action, dedupe_key: row.dedupe_key, payload_hash: hash, event_id: row.id })))]));
        for (const { event_id } of inserted) winners.add(event_id);
      }

      const deliveries: Array<Record<string, unknown>> = [];
      const jobs: Array<{ data: DeliveryJobData; startAfter?: Date }> = [];
      const filterCache = new Map<string, string[]>();
      for (const { row, hash } of valid) {
        if (hash !== null && !winners.has(row.id)) {
          outcomes.push({ id: row.id, status: 'duplicate', reason: `duplicate of an earlier event with dedupe key ${row.dedupe_key}`, deliveries: 0 });
          logger.info({ event_id: row.id, action: row.action, dedupe_key: row.dedupe_key }, 'duplicate event dropped');
          continue;
        }
        let subscriptions = catalog.subscriptionsFor(row.action);
        if (this.options.subscriberFilter && subscriptions.length > 0) {
          const cacheKey = `${row.workspace_id} ${row.action}`;
          let allowed = filterCache.get(cacheKey);
          if (!allowed) {
            const candidates = [...new Set(subscriptions.map((subscription) => subscription.subscriber))];
            allowed = await this.options.subscriberFilter({ workspaceId: row.workspace_id, action: row.action, subscribers: candidates, client });
            filterCache.set(cacheKey, allowed);
          }
          const keep = new Set(allowed);
          subscriptions = subscriptions.filter((subscription) => RUNTIME_SLUGS.has(subscription.subscriber) || keep.has(subscription.subscriber));
        }
        const due = row.deliver_at ?? undefined;
        for (const subscription of subscriptions) {
          const id = randomUUID();
          deliveries.push({
            id,
            event_id: row.id,
            workspace_id: row.workspace_id,
            action: row.action,
            subscriber: subscription.subscriber,
            handler: subscription.handler,
            max_retries: subscription.maxRetries,
            next_attempt_at: (due ?? new Date()).toISOString(),
          });
          jobs.push({ data: { d: id, e: row.id, w: row.workspace_id, a: 1 }, startAfter: due });
        }
        outcomes.push({ id: row.id, status: 'accepted', reason: null, deliveries: subscriptions.length });
      }

      if (jobs.length > 0) await queue.insert(client, jobs);
      // One statement: the deliveries, the outcome of each event, and the wake-up of other brokers.
      await client.query(this.query(SETTLE, [JSON.stringify(deliveries), JSON.stringify(outcomes), deliveries.length > 0 && this.options.notify, outcomes.map((outcome) => outcome.id), workspaceId]));
      await client.query('COMMIT');
      const ahead = jobs.map((job) => job.startAfter?.getTime() ?? 0).filter((at) => at > Date.now());
      return { taken: rows.length, deliveries: deliveries.length, nextDue: ahead.length > 0 ? new Date(Math.min(...ahead)) : undefined, full: rows.length >= limit };
    } catch (error) {
      broken = error as Error;
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release(broken);
    }
  }
}
