import http from 'node:http';
import https from 'node:https';
import type pg from 'pg';
import type { Logger } from 'pino';
import { ATTEMPT_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER, signBody } from '@wpk/sdk';
import type { PayloadSealer } from './payload.js';
import { DELIVERY_QUEUE, QUEUE_SCHEMA, type DeliveryJob, type DeliveryQueue } from './queue.js';
import { signingSecretFor } from './secrets.js';
import { Signal } from './signal.js';
import type { EventCatalog, Participant } from './types.js';

/** Growing back-off between attempts: `initialDelayMs × factor^(retry-1)`, capped at `maxDelayMs`. */
export interface RetryPolicy {
  initialDelayMs: number;
  factor: number;
  maxDelayMs: number;
}

/** The delay before retry number `retry` (1 for the first retry). */
export function retryDelayMs(policy: RetryPolicy, retry: number): number {
  return Math.min(policy.maxDelayMs, Math.round(policy.initialDelayMs * policy.factor ** Math.max(0, retry - 1)));
}

/** Delivers in-process (hapi inject) to a participant that runs inside this server. */
export type LocalDelivery = (path: string, headers: Record<string, string>, body: string, timeoutMs: number) => Promise<number>;

/** The route prefix under which this server mounts the handlers of its in-process participants. */
export function localHandlerPath(slug: string, handler: string): string {
  return `/_events/${slug}${handler}`;
}

export interface DelivererOptions {
  pool: pg.Pool;
  queue: DeliveryQueue;
  catalog: () => EventCatalog;
  sealer: PayloadSealer;
  brokerSecret: string;
  logger: Logger;
  /** Deliveries in flight at once in this process. */
  concurrency: number;
  timeoutMs: number;
  retry: RetryPolicy;
  /** Longest sleep while idle (the safety net under the wake-ups). */
  pollIntervalMs: number;
  notify: boolean;
  /** Set when this process hosts the server: in-process participants are reached by inject. */
  local?: LocalDelivery;
  /** The platform server's base URL, for in-process participants when `local` is not set. */
  selfUrl: () => string | undefined;
}

interface Target {
  job: DeliveryJob;
  deliveryId: string;
  eventId: string;
  attempt: number;
  workspaceId: string;
  action: string;
  subscriber: string;
  handler: string;
  maxRetries: number;
  body: string | null;
}

interface Result {
  target: Target;
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
  startedAt: Date;
  durationMs: number;
}

/**
 * Claims due attempts from the queue and POSTs them, signed, to each subscriber. 200 is success;
 * anything else (3xx, timeouts and connection errors included) schedules the next attempt with a
 * growing delay, until 1 + max_retries attempts were made. Outcomes are written in batches: the
 * delivery log (its outcome, the attempt appended to `attempt_log`), the next attempt's job and
 * the completion of this one, in one transaction.
 */
export class Deliverer {
  readonly wake = new Signal();
  private readonly slotFreed = new Signal();
  /** Each third-party subscriber's signing secret, derived once (an HMAC) rather than per delivery. */
  private readonly secrets = new Map<string, string>();
  private readonly agents = { http: new http.Agent({ keepAlive: true, maxSockets: 256 }), https: new https.Agent({ keepAlive: true, maxSockets: 256 }) };
  private inFlight = 0;
  private running = false;
  private loop: Promise<void> | null = null;
  private settling: Result[] = [];
  private settleTimer: NodeJS.Timeout | null = null;
  /** The settle pass in progress; one at a time per process, so outcomes batch up behind it. */
  private settleRun: Promise<void> | null = null;
  private readonly active = new Set<Promise<void>>();
  /** Attempts this process made, by outcome. */
  readonly stats = { attempts: 0, delivered: 0, failed: 0 };

  constructor(private readonly options: DelivererOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake.notify();
    this.slotFreed.notify();
    await this.loop;
    await Promise.allSettled([...this.active]);
    await this.flush();
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** Deliveries claimed by this process and not yet settled. */
  get busy(): number {
    return this.inFlight + this.settling.length;
  }

  private async run(): Promise<void> {
    const { logger } = this.options;
    while (this.running) {
      try {
        const free = this.options.concurrency - this.inFlight;
        // Fetch in batches: with work in flight, wait until a quarter of the slots are free.
        if (free <= 0 || (this.inFlight > 0 && free < Math.max(1, this.options.concurrency / 4))) {
          await this.slotFreed.wait(free <= 0 ? this.options.pollIntervalMs : 5);
          continue;
        }
        const jobs = await this.options.queue.fetch(Math.min(free, 100));
        if (jobs.length > 0) {
          const targets = await this.load(jobs);
          for (const target of targets) this.launch(target);
          if (jobs.length === Math.min(free, 100)) continue;
        }
        await this.wake.wait(await this.idleDelay());
      } catch (error) {
        if (!this.running) break;
        logger.warn({ err: error }, 'event delivery loop failed; retrying shortly');
        await this.wake.wait(Math.min(this.options.pollIntervalMs, 1000));
      }
    }
  }

  /**
   * Something is scheduled for `at` (a delayed event, a retry): sleep no longer than that. Work
   * scheduled by other processes is learnt from the database, re-read after a NOTIFY or a poll.
   */
  scheduled(at: Date): void {
    this.nextDue = Math.min(this.nextDue, at.getTime());
    this.wake.notify();
  }

  /** Re-read the next scheduled attempt from the database at the next idle moment. */
  recheck(): void {
    this.nextDueReadAt = 0;
    this.wake.notify();
  }

  private nextDue = Infinity;
  private nextDueReadAt = 0;

  /**
   * How long to sleep: until the earliest attempt no process has claimed yet (pg-boss's own
   * `created`/`retry` jobs, so a job that became due between our fetch and this look is seen),
   * but never longer than the poll interval.
   */
  private async idleDelay(): Promise<number> {
    const now = Date.now();
    if (now - this.nextDueReadAt >= Math.min(250, this.options.pollIntervalMs) || this.nextDue <= now) {
      const { rows } = await this.options.pool.query<{ due_in: string | null }>(
        `SELECT EXTRACT(EPOCH FROM (min(start_after) - now())) * 1000 AS due_in
           FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND state IN ('created', 'retry')`,
        [DELIVERY_QUEUE],
      );
      const dueIn = rows[0]?.due_in === null || rows[0]?.due_in === undefined ? Infinity : Number(rows[0].due_in);
      this.nextDueReadAt = now;
      // Due already: look again at once (a short pause, in case it is claimable only later).
      if (dueIn <= 0) {
        this.nextDue = Infinity;
        this.nextDueReadAt = 0;
        return 5;
      }
      this.nextDue = now + dueIn;
    }
    return Math.max(1, Math.min(this.options.pollIntervalMs, Math.ceil(this.nextDue - Date.now()) + 2));
  }

  private async load(jobs: DeliveryJob[]): Promise<Target[]> {
    const workspaceOf = await this.workspacesOf(jobs);
    const { rows } = await this.options.pool.query<{
      id: string;
      status: string;
      workspace_id: string;
      action: string;
      subscriber: string;
      handler: string;
      max_retries: number;
      payload: Record<string, unknown>;
      metadata: Record<string, unknown>;
    }>(
      // Rows by (workspace, id), joined on the workspace too: on a database distributed by
      // workspace the join stays on each shard and only the batch's workspaces are read.
      `SELECT d.id, d.status, d.workspace_id, d.action, d.subscriber, d.handler, d.max_retries, e.payload, e.metadata
         FROM platform.event_deliveries d JOIN platform.events e ON e.workspace_id = d.workspace_id AND e.id = d.event_id
        WHERE d.workspace_id = ANY($1::uuid[]) AND d.id = ANY($2::uuid[])`,
      [[...new Set(workspaceOf.values())], jobs.map((job) => job.data.d)],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    const stale: DeliveryJob[] = [];
    const targets: Target[] = [];
    for (const job of jobs) {
      const row = byId.get(job.data.d);
      // Gone (workspace deleted, log purged) or already settled by an earlier run: nothing to send.
      if (!row || row.status === 'delivered' || row.status === 'exhausted') {
        stale.push(job);
        continue;
      }
      let body: string | null;
      try {
        body = JSON.stringify({ action: row.action, metadata: row.metadata, payload: this.options.sealer.unsealAll(row.payload) });
      } catch {
        body = null;
      }
      targets.push({
        job,
        deliveryId: row.id,
        eventId: job.data.e,
        attempt: job.data.a + job.retryCount,
        workspaceId: row.workspace_id,
        action: row.action,
        subscriber: row.subscriber,
        handler: row.handler,
        maxRetries: row.max_retries,
        body,
      });
    }
    if (stale.length > 0) await this.completeOnly(stale);
    return targets;
  }

  /**
   * The workspace of each job's delivery: carried by the job (`w`); a job queued before it was
   * carried is looked up by delivery id (the only statement here that reads across workspaces).
   */
  private async workspacesOf(jobs: DeliveryJob[]): Promise<Map<string, string>> {
    const byDelivery = new Map<string, string>();
    const unknown: string[] = [];
    for (const job of jobs) {
      if (job.data.w) byDelivery.set(job.data.d, job.data.w);
      else unknown.push(job.data.d);
    }
    if (unknown.length > 0) {
      const { rows } = await this.options.pool.query<{ id: string; workspace_id: string }>(`SELECT id, workspace_id FROM platform.event_deliveries WHERE id = ANY($1::uuid[])`, [unknown]);
      for (const row of rows) byDelivery.set(row.id, row.workspace_id);
    }
    return byDelivery;
  }

  private launch(target: Target): void {
    this.inFlight++;
    const task = this.attempt(target)
      .then((result) => this.settle(result))
      .catch((error) => this.options.logger.error({ err: error, delivery_id: target.deliveryId }, 'event delivery crashed'))
      .finally(() => {
        this.inFlight--;
        this.active.delete(task);
        this.slotFreed.notify();
      });
    this.active.add(task);
  }

  private async attempt(target: Target): Promise<Result> {
    const startedAt = new Date();
    const started = performance.now();
    const done = (statusCode: number | null, error: string | null): Result => ({
      target,
      delivered: statusCode === 200,
      statusCode,
      error: statusCode === 200 ? null : error ?? `answered ${statusCode}`,
      startedAt,
      durationMs: Math.round(performance.now() - started),
    });
    const participant = this.options.catalog().participant(target.subscriber);
    if (!participant) return done(null, `subscriber ${target.subscriber} is not registered`);
    if (target.body === null) return done(null, 'a sealed payload field cannot be read (was BROKER_SECRET changed?)');
    const headers = {
      'content-type': 'application/json',
      [SIGNATURE_HEADER]: signBody(target.body, this.secretOf(participant)),
      [EVENT_ID_HEADER]: target.deliveryId,
      [ATTEMPT_HEADER]: String(target.attempt),
    };
    try {
      const statusCode = await this.post(participant, target.handler, headers, target.body);
      return done(statusCode, null);
    } catch (error) {
      const err = error as Error & { code?: string };
      return done(null, err.code === 'ETIMEDOUT' ? `timed out after ${this.options.timeoutMs} ms` : `${err.code ?? 'error'}: ${err.message}`);
    }
  }

  private async post(participant: Participant, handler: string, headers: Record<string, string>, body: string): Promise<number> {
    if (participant.address) return this.send(`${participant.address}${handler}`, headers, body);
    const path = localHandlerPath(participant.slug, handler);
    if (this.options.local) return this.options.local(path, headers, body, this.options.timeoutMs);
    const self = this.options.selfUrl();
    if (!self) throw Object.assign(new Error('no address is known for the platform server (set WPK_SELF_URL)'), { code: 'ENOADDRESS' });
    return this.send(`${self}${path}`, headers, body);
  }

  private secretOf(participant: Participant): string {
    let secret = this.secrets.get(participant.slug);
    if (secret === undefined) {
      secret = signingSecretFor(this.options.brokerSecret, participant);
      this.secrets.set(participant.slug, secret);
    }
    return secret;
  }

  /**
   * One POST on a kept-alive connection (node:http, no client library: a library's per-request
   * options and hooks were most of a delivery's cost); resolves with the status code once the
   * answer's body is read and dropped (redirects are not followed). The whole exchange must end
   * within the timeout, or it fails as `ETIMEDOUT`.
   */
  private send(url: string, headers: Record<string, string>, body: string): Promise<number> {
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    return new Promise<number>((resolve, reject) => {
      const request = (secure ? https : http).request(
        {
          method: 'POST',
          protocol: target.protocol,
          hostname: target.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: target.port,
          path: `${target.pathname}${target.search}`,
          agent: secure ? this.agents.https : this.agents.http,
          headers: { ...headers, 'user-agent': 'wpk-broker', 'content-length': String(Buffer.byteLength(body)) },
        },
        (response) => {
          response.on('error', reject);
          response.on('end', () => resolve(response.statusCode ?? 0));
          response.resume();
        },
      );
      const timer = setTimeout(() => request.destroy(Object.assign(new Error(`timed out after ${this.options.timeoutMs} ms`), { code: 'ETIMEDOUT' })), this.options.timeoutMs);
      request.on('close', () => clearTimeout(timer));
      request.on('error', reject);
      request.end(body);
    });
  }

  private settle(result: Result): Promise<void> {
    this.stats.attempts++;
    if (result.delivered) this.stats.delivered++;
    else this.stats.failed++;
    this.settling.push(result);
    // Outcomes gather for a few milliseconds (or while the previous pass writes), then go together.
    if (!this.settleRun && !this.settleTimer) this.settleTimer = setTimeout(() => void this.flush(), 2);
    return Promise.resolve();
  }

  /**
   * Writes every pending outcome. One pass at a time: outcomes that arrive meanwhile are written
   * by the next pass, in one transaction however many there are (up to 500).
   */
  flush(): Promise<void> {
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = null;
    if (this.settleRun) return this.settleRun;
    if (this.settling.length === 0) return Promise.resolve();
    this.settleRun = (async () => {
      while (this.settling.length > 0) {
        const batch = this.settling.splice(0, 500);
        try {
          await this.write(batch);
        } catch (error) {
          this.options.logger.error({ err: error, deliveries: batch.length }, 'writing delivery outcomes failed; the attempts will be taken over when their claim expires');
        }
      }
    })().finally(() => {
      this.settleRun = null;
    });
    return this.settleRun;
  }

  private async write(batch: Result[]): Promise<void> {
    const { pool, queue, retry, logger } = this.options;
    const updates: Array<Record<string, unknown>> = [];
    const retries: Array<{ data: DeliveryJob['data']; startAfter: Date }> = [];
    for (const result of batch) {
      const { target } = result;
      let status: 'delivered' | 'retrying' | 'exhausted';
      let next: Date | null = null;
      if (result.delivered) status = 'delivered';
      else if (target.attempt < 1 + target.maxRetries) {
        status = 'retrying';
        next = new Date(Date.now() + retryDelayMs(retry, target.attempt));
        retries.push({ data: { d: target.deliveryId, e: target.eventId, w: target.workspaceId, a: target.attempt + 1 }, startAfter: next });
      } else status = 'exhausted';
      updates.push({
        workspace_id: target.workspaceId,
        id: target.deliveryId,
        status,
        attempts: target.attempt,
        last_status: result.statusCode,
        last_error: result.error,
        next_attempt_at: next?.toISOString() ?? null,
        entry: {
          attempt: target.attempt,
          started_at: result.startedAt.toISOString(),
          duration_ms: result.durationMs,
          status_code: result.statusCode,
          error: result.error,
          outcome: result.delivered ? 'delivered' : 'failed',
        },
      });
      if (!result.delivered) {
        const line = { delivery_id: target.deliveryId, action: target.action, subscriber: target.subscriber, attempt: target.attempt, status_code: result.statusCode, error: result.error };
        if (status === 'exhausted') logger.warn(line, 'event delivery exhausted its retries');
        else logger.info(line, 'event delivery failed; will retry');
      }
    }
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      // The broker's own writes skip the wait for the WAL flush: after a database crash the last
      // few of them may be lost, which only means a relay or a delivery happens again (at least
      // once); the events themselves were committed durably by the requests that staged them.
      await client.query('BEGIN; SET LOCAL synchronous_commit TO off');
      // One statement per workspace of the batch (each names its workspace, so it runs on one
      // shard of a distributed database): the delivery log (outcome and the attempt appended) and
      // the wake-up of other brokers. `id = ANY` lets the planner use the key whatever the batch size.
      const byWorkspace = new Map<string, Array<Record<string, unknown>>>();
      for (const update of updates) {
        const key = update.workspace_id as string;
        const group = byWorkspace.get(key);
        if (group) group.push(update);
        else byWorkspace.set(key, [update]);
      }
      let last = byWorkspace.size;
      for (const [workspaceId, group] of byWorkspace) {
        last--;
        await client.query(
          `WITH updated AS (
             UPDATE platform.event_deliveries d
                SET status = x.status, attempts = GREATEST(d.attempts, x.attempts), last_status = x.last_status, last_error = x.last_error,
                    next_attempt_at = COALESCE(x.next_attempt_at, d.next_attempt_at), updated_at = now(),
                    delivered_at = CASE WHEN x.status = 'delivered' THEN now() ELSE d.delivered_at END,
                    attempt_log = d.attempt_log || jsonb_build_array(x.entry)
               FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, status text, attempts int, last_status int, last_error text, next_attempt_at timestamptz, entry jsonb)
              WHERE d.workspace_id = $4 AND d.id = ANY($2::uuid[]) AND d.id = x.id AND d.status NOT IN ('delivered', 'exhausted')
             RETURNING d.id
           )
           SELECT CASE WHEN $3::boolean THEN pg_notify('wpk_events', 'deliveries') END AS notified`,
          [JSON.stringify(group), group.map((update) => update.id), last === 0 && retries.length > 0 && this.options.notify, workspaceId],
        );
      }
      await queue.insert(client, retries);
      await queue.complete(
        client,
        batch.map((result) => result.target.job),
      );
      await client.query('COMMIT');
    } catch (error) {
      broken = error as Error;
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release(broken);
    }
    for (const retry of retries) this.nextDue = Math.min(this.nextDue, retry.startAfter.getTime());
    if (retries.length > 0) this.wake.notify();
  }

  private async completeOnly(jobs: DeliveryJob[]): Promise<void> {
    const client = await this.options.pool.connect();
    try {
      await this.options.queue.complete(client, jobs);
    } finally {
      client.release();
    }
  }
}
