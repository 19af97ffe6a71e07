import pg from 'pg';
import type { Logger } from 'pino';
import { loadCatalog, readSetting } from './catalog-store.js';
import type { BrokerTuning } from './config.js';
import { Deliverer, type LocalDelivery } from './deliverer.js';
import { PayloadSealer } from './payload.js';
import { DeliveryQueue } from './queue.js';
import type { EventRegistry } from './registry.js';
import { Relay, type SubscriberFilter } from './relay.js';
import { Signal } from './signal.js';
import type { EventCatalog } from './types.js';
import { WakeListener } from './wakeup.js';

export interface BrokerOptions {
  databaseUrl: string;
  brokerSecret: string;
  logger: Logger;
  tuning: BrokerTuning;
  /** The live registry of this process; omitted for a standalone broker, which reads the stored catalog. */
  registry?: EventRegistry;
  /** In-process delivery to participants that run inside this server (set when the broker runs in the server). */
  local?: LocalDelivery;
  /** The server's base URL for in-process participants (`WPK_SELF_URL`); otherwise read from the stored settings. */
  selfUrl?: string;
  /** Given `true` when this process hosts the embedded database (no LISTEN; wake-ups are local). */
  hostsEmbeddedDatabase?: boolean;
  subscriberFilter?: SubscriberFilter;
}

/**
 * The broker: relays the outbox into the delivery queue and delivers. It runs inside the server
 * by default and as its own process with `wpk broker`; any number run side by side on one
 * database (rows and jobs are claimed with SKIP LOCKED). Wake-ups come from LISTEN/NOTIFY on
 * PostgreSQL, from the local outbox on the embedded database, and from a short poll as a floor.
 */
export class Broker {
  private pool: pg.Pool | null = null;
  private queue: DeliveryQueue | null = null;
  private relay: Relay | null = null;
  private deliverer: Deliverer | null = null;
  private listener: WakeListener | null = null;
  private readonly relaySignal = new Signal();
  private running = false;
  private relayLoop: Promise<void> | null = null;
  private timers: NodeJS.Timeout[] = [];
  private catalog: EventCatalog | null = null;
  private catalogReadAt = 0;
  private storedSelfUrl: string | undefined;
  private lastStats = { attempts: 0, delivered: 0, failed: 0 };
  /** True when the database is PGlite (embedded), which delivers NOTIFY to the wrong connection. */
  embedded = false;

  constructor(private readonly options: BrokerOptions) {}

  get isRunning(): boolean {
    return this.running;
  }

  async start(): Promise<void> {
    if (this.running) return;
    const { options } = this;
    const { tuning, logger } = options;
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: tuning.poolMax ?? 6, application_name: 'wpk-broker' });
    pool.on('error', (error) => logger.warn({ err: error }, 'event broker connection error'));
    this.pool = pool;
    try {
      const { rows } = await pool.query<{ version: string }>('SELECT version() AS version');
      this.embedded = /PGlite/i.test(rows[0]?.version ?? '');
      const pollIntervalMs = tuning.pollIntervalMs > 0 ? tuning.pollIntervalMs : this.embedded && !options.hostsEmbeddedDatabase ? 100 : 1000;
      const notify = !this.embedded;
      this.queue = await DeliveryQueue.start({ pool, logger, expireInSeconds: tuning.claimSeconds, monitorIntervalSeconds: tuning.monitorIntervalSeconds, crashRetries: tuning.crashRetries });
      await this.refreshCatalog();
      const sealer = new PayloadSealer(options.brokerSecret);
      const catalog = () => this.catalog!;
      this.relay = new Relay({
        pool,
        queue: this.queue,
        catalog,
        sealer,
        logger,
        batchSize: tuning.relayBatchSize,
        notify,
        prepare: !this.embedded,
        subscriberFilter: options.subscriberFilter,
        reloadCatalog: () => this.recheckCatalog(),
      });
      this.deliverer = new Deliverer({
        pool,
        queue: this.queue,
        catalog,
        sealer,
        brokerSecret: options.brokerSecret,
        logger,
        concurrency: tuning.concurrency,
        timeoutMs: tuning.deliveryTimeoutMs,
        retry: tuning.retry,
        pollIntervalMs,
        notify,
        local: options.local,
        selfUrl: () => options.selfUrl ?? this.storedSelfUrl,
      });
      if (!this.embedded) {
        this.listener = new WakeListener(options.databaseUrl, (payload) => this.onWake(payload), logger);
        await this.listener.start().catch((error) => {
          logger.warn({ err: error }, 'event wake-up listener unavailable; polling only');
          this.listener = null;
        });
      }
      this.running = true;
      this.relayLoop = this.runRelay(pollIntervalMs);
      this.deliverer.start();
      if (!options.registry) this.timers.push(setInterval(() => void this.refreshCatalog().catch((error) => logger.warn({ err: error }, 'reloading the event catalog failed')), tuning.catalogRefreshMs));
      this.timers.push(setInterval(() => void this.purge().catch((error) => logger.warn({ err: error }, 'event log purge failed')), 3600_000));
      for (const timer of this.timers) timer.unref();
      logger.info({ embedded: this.embedded, standalone: !options.registry, poll_ms: pollIntervalMs }, 'event broker started');
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /** Looks at the outbox now (called after a request committed events). */
  wake(): void {
    this.relaySignal.notify();
  }

  private onWake(payload: string): void {
    // A new catalog may name actions whose events wait in the outbox: look at them again.
    if (payload === 'catalog' && !this.options.registry) void this.refreshCatalog().then(() => this.relaySignal.notify(), () => {});
    if (payload === 'outbox' || payload === 'reconnected') this.relaySignal.notify();
    if (payload === 'deliveries' || payload === 'reconnected') this.deliverer?.recheck();
  }

  private async refreshCatalog(): Promise<void> {
    const pool = this.pool!;
    this.catalog = this.options.registry ?? (await loadCatalog(pool));
    this.storedSelfUrl = await readSetting(pool, 'self_url');
    this.catalogReadAt = Date.now();
  }

  /**
   * The relay met events its catalog does not name (or looks again at those): reads the catalog
   * again unless it was read less than `catalogRecheckMs` ago. A broker in a server holds the
   * live registry, so only the interval applies. Resolves true when it read.
   */
  private async recheckCatalog(): Promise<boolean> {
    if (Date.now() - this.catalogReadAt < this.options.tuning.catalogRecheckMs) return false;
    await this.refreshCatalog();
    return true;
  }

  private async runRelay(pollIntervalMs: number): Promise<void> {
    const { logger, tuning } = this.options;
    while (this.running) {
      try {
        const result = await this.relay!.runOnce();
        if (result.nextDue) this.deliverer?.scheduled(result.nextDue);
        if (result.deliveries > 0) this.deliverer?.wake.notify();
        if (result.taken >= tuning.relayBatchSize || result.more || result.again) continue;
      } catch (error) {
        if (!this.running) break;
        logger.warn({ err: error }, 'event relay failed; retrying shortly');
      }
      await this.relaySignal.wait(pollIntervalMs);
    }
  }

  /**
   * Deletes settled events (and their deliveries and dedupe keys) older than the retention: finds
   * the workspaces that have some (a maintenance statement that spans tenants), then deletes
   * workspace by workspace, in bounded batches, with statements that name the workspace.
   */
  async purge(): Promise<number> {
    const pool = this.pool!;
    const days = Math.ceil(this.options.tuning.retentionDays);
    const { rows: workspaces } = await pool.query<{ workspace_id: string }>(
      `SELECT DISTINCT workspace_id FROM platform.events WHERE created_at < now() - make_interval(days => $1::int) AND status <> 'pending'`,
      [days],
    );
    let purged = 0;
    for (const { workspace_id: workspaceId } of workspaces) {
      for (;;) {
        const { rowCount } = await pool.query(
          `DELETE FROM platform.events e WHERE e.workspace_id = $2 AND e.id IN (
             SELECT id FROM platform.events o
              WHERE o.workspace_id = $2 AND o.created_at < now() - make_interval(days => $1::int) AND o.status <> 'pending'
                AND NOT EXISTS (SELECT 1 FROM platform.event_deliveries d WHERE d.workspace_id = o.workspace_id AND d.event_id = o.id AND d.status IN ('pending', 'retrying'))
              LIMIT 5000)`,
          [days, workspaceId],
        );
        purged += rowCount ?? 0;
        if ((rowCount ?? 0) < 5000) break;
      }
    }
    return purged;
  }

  /** Attempts this process made, by outcome. */
  get stats(): { attempts: number; delivered: number; failed: number } {
    return { ...(this.deliverer?.stats ?? this.lastStats) };
  }

  /** Deliveries this process holds in memory (claimed, or waiting to be written). */
  get busy(): number {
    return this.deliverer?.busy ?? 0;
  }

  async stop(): Promise<void> {
    this.running = false;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.relaySignal.notify();
    await this.relayLoop?.catch(() => {});
    await this.deliverer?.stop().catch((error) => this.options.logger.warn({ err: error }, 'stopping event delivery failed'));
    if (this.deliverer) this.lastStats = { ...this.deliverer.stats };
    await this.listener?.stop();
    await this.queue?.stop().catch(() => {});
    await this.pool?.end().catch(() => {});
    this.relayLoop = null;
    this.deliverer = null;
    this.listener = null;
    this.queue = null;
    this.pool = null;
  }
}
