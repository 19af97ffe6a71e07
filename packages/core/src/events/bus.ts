import type { Server } from '@hapi/hapi';
import { randomUUID } from 'node:crypto';
import { ATTEMPT_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER, signBody } from '@wpk/sdk';
import pg from 'pg';
import type { Logger } from 'pino';
import type { RuntimeConfig } from '../config.js';
import { currentTransaction, type Database } from '../db/index.js';
import type { WorkspaceService } from '../tenancy/index.js';
import { Broker } from './broker.js';
import { storeCatalog, writeSetting } from './catalog-store.js';
import { resolveBrokerTuning, type BrokerTuning } from './config.js';
import { localHandlerPath, type RetryPolicy } from './deliverer.js';
import { getDelivery, listDeliveries, replayDelivery, type DeliveryFilter, type DeliveryLogEntry } from './delivery-log.js';
import { ingressRoute, type EmissionGuard } from './routes/ingress.js';
import { RUNTIME_SLUG } from './names.js';
import { Outbox, type OutboxObserver } from './outbox.js';
import { PayloadSealer } from './payload.js';
import { DeliveryQueue } from './queue.js';
import { subscriptionRoutes, type MountSubscriptionsOptions, type SubscriptionHandler, type DefaultDeliveryContext } from './routes/receive.js';
import { EventRegistry } from './registry.js';
import type { SubscriberFilter } from './relay.js';
import { appSecret, resolveBrokerSecret, signingSecretFor } from './secrets.js';
import { recordEmbeddedUrl } from './standalone.js';
import type { StagedEvent } from './sink.js';
import type { Participant, ParticipantDeclaration, SubscriptionDeclaration } from './types.js';
import { WAKE_CHANNEL } from './wakeup.js';

/** Options of the event bus (`Runtime.create({ events: {...} })`). */
export interface EventBusOptions {
  /** The secret shared by platform and broker; default `BROKER_SECRET`, else generated into the data directory. */
  brokerSecret?: string;
  /** Run a broker inside this server process (default true; `WPK_BROKER=external` turns it off). */
  broker?: boolean;
  /** Base URL a standalone broker uses to reach this server's in-process participants (`WPK_SELF_URL`). */
  selfUrl?: string;
  /** Broker tuning (concurrency, timeouts, retry back-off, polling); see BrokerTuning. */
  tuning?: Partial<Omit<BrokerTuning, 'retry'>> & { retry?: Partial<RetryPolicy> };
  /**
   * Hear every event once it is committed to the outbox, whoever staged it (apps, the platform's
   * `system.*` and `core.account.*`, remote apps through the ingress), with its clear payload.
   * The test harness captures events this way.
   */
  observers?: OutboxObserver[];
}

export interface EventBusDeps {
  config: RuntimeConfig;
  db: Database;
  server: Server;
  workspaces: WorkspaceService;
  logger: Logger;
  options?: EventBusOptions;
  env?: NodeJS.ProcessEnv;
  /** Stamps `emitted_at` on events (default: the system clock). */
  clock?: () => Date;
  /** Narrows fan-out per workspace (the apps: a loaded app receives only where it is installed). */
  subscriberFilter?: SubscriberFilter;
  /** Decides whether a remote app may emit into a workspace through the ingress. */
  emissionGuard?: EmissionGuard;
}


/**
 * The event bus of one runtime (`runtime.events`): the registry of participants, the outbox sink
 * requests write staged events to, the ingress for remote emitters, the mounting of in-process
 * subscription handlers, and the in-process broker.
 */
export class EventBus {
  /** Every participant, its emitted actions (with schemas) and subscriptions. */
  readonly registry = EventRegistry.withRuntimeCatalog();
  /** The sink `runInRequestTransaction` writes staged events to (the transactional outbox). */
  readonly sink: Outbox;
  /** The secret shared by the platform and the broker (signs first-party deliveries). */
  readonly brokerSecret: string;
  readonly tuning: BrokerTuning;
  private readonly sealer: PayloadSealer;
  private broker: Broker | null = null;
  private subscriberFilter: SubscriberFilter | undefined;
  private emissionGuard: EmissionGuard | undefined;
  private serverUrl: string | undefined;
  private readonly mounted = new Set<string>();
  private readonly runsBroker: boolean;
  private readonly selfUrl: string | undefined;
  private pool: pg.Pool | null = null;

  constructor(private readonly deps: EventBusDeps) {
    const env = deps.env ?? process.env;
    const options = deps.options ?? {};
    this.brokerSecret = resolveBrokerSecret({ explicit: options.brokerSecret, env, dataDir: deps.config.dataDir, ephemeral: deps.config.inMemory && !deps.config.databaseUrl });
    this.tuning = resolveBrokerTuning(options.tuning, env);
    this.runsBroker = options.broker ?? !['external', 'off', 'false', '0'].includes((env.WPK_BROKER ?? '').toLowerCase());
    this.selfUrl = (options.selfUrl ?? env.WPK_SELF_URL)?.replace(/\/+$/, '') || undefined;
    this.sealer = new PayloadSealer(this.brokerSecret);
    this.subscriberFilter = deps.subscriberFilter;
    this.emissionGuard = deps.emissionGuard;
    this.sink = new Outbox({
      sequelize: deps.db.sequelize,
      fast: deps.db.fast,
      registry: this.registry,
      sealer: this.sealer,
      notify: () => !deps.db.isEmbedded,
      onCommitted: () => this.wake(),
      clock: deps.clock,
      observers: deps.options?.observers,
    });
    deps.server.route(
      ingressRoute({
        registry: this.registry,
        outbox: this.sink,
        sequelize: deps.db.sequelize,
        brokerSecret: this.brokerSecret,
        logger: deps.logger,
        guard: () => this.emissionGuard,
        onCommitted: () => this.wake(),
      }),
    );
  }

  /**
   * Registers an app on the bus (at start-up). Throws EventRegistrationError naming the field when
   * the slug, an emitted action (scope rules: `core.*` first-party only, `ext.{publisher}.{app}.*`
   * own namespace only, `system.*` never), its schema or redaction paths, or a subscription is wrong.
   */
  registerParticipant(declaration: ParticipantDeclaration): Participant {
    return this.registry.registerParticipant(declaration);
  }

  /** Throws an Error when `emitter` may not emit `action` (call it when a handler stages). */
  assertMayEmit(emitter: string, action: string): void {
    this.registry.assertMayEmit(emitter, action);
  }

  /**
   * Mounts the subscription handlers of an in-process participant on this server, at
   * `/_events/{slug}{handler}`; returns the mounted paths. See `subscriptionRoutes`.
   */
  mountSubscriptions<C = DefaultDeliveryContext>(options: MountSubscriptionsOptions<C>): string[] {
    const routes = subscriptionRoutes(this.receiverDeps(), options);
    for (const route of routes) {
      if (this.mounted.has(route.path)) throw new Error(`events: ${route.path} is already mounted`);
    }
    this.deps.server.route(routes);
    for (const route of routes) this.mounted.add(route.path);
    return routes.map((route) => route.path);
  }

  /** Subscriptions of the runtime itself (the audit trail): declared and mounted at once. */
  addRuntimeSubscriptions(subscriptions: Array<SubscriptionDeclaration & { run: SubscriptionHandler }>): void {
    this.registry.addRuntimeSubscriptions(subscriptions.map(({ action, handler, max_retries }) => ({ action, handler, max_retries })));
    const handlers = Object.fromEntries(subscriptions.map((subscription) => [subscription.action, subscription.run]));
    const routes = subscriptionRoutes(this.receiverDeps(), { app: RUNTIME_SLUG, handlers, partial: true });
    const fresh = routes.filter((route) => !this.mounted.has(route.path));
    this.deps.server.route(fresh);
    for (const route of fresh) this.mounted.add(route.path);
  }

  private receiverDeps() {
    return { registry: this.registry, sequelize: this.deps.db.sequelize, sink: this.sink, workspaces: this.deps.workspaces, brokerSecret: this.brokerSecret, logger: this.deps.logger };
  }

  /**
   * Emits events outside a request (CLI, background work). Inside a Sequelize transaction the
   * events join it and leave only if it commits; otherwise they are written at once. `emitter`
   * of each event must declare its action. Returns the event ids.
   */
  async publish(workspaceId: string | null, events: StagedEvent[]): Promise<string[]> {
    const rows = events.map((event) => this.sink.prepare(workspaceId, event));
    const transaction = currentTransaction();
    const ids = await this.sink.insert(rows);
    if (transaction) transaction.afterCommit(() => this.wake());
    else this.wake();
    return ids;
  }

  /**
   * The request the broker would send to deliver this event to `subscriber`'s handler, built
   * through the same steps: the outbox's checks and shaping (emitter, workspace, nulls removed,
   * redacted fields sealed), the relay's validation against the catalog's schema (throws naming
   * the problems, as the broker would reject the event), then the delivery body with sealed
   * fields opened, signed with the subscriber's secret. The test harness sends it to the mounted
   * handler (`path`) to deliver as production does. `emitter` defaults to the action's first
   * declared emitter.
   */
  deliveryRequest(input: { subscriber: string; handler: string; workspaceId: string; action: string; payload: Record<string, unknown>; metadata?: Record<string, unknown>; emitter?: string; attempt?: number; deliveryId?: string }): {
    path: string;
    headers: Record<string, string>;
    body: string;
  } {
    const entry = this.registry.action(input.action);
    if (!entry) throw new Error(`${input.action}: no participant on the event bus declares this action`);
    const emitter = input.emitter ?? [...entry.emitters][0];
    const row = this.sink.prepare(input.workspaceId, { emitter, action: input.action, payload: input.payload, metadata: input.metadata ?? {} });
    const clear = this.sealer.unseal(row.payload, entry.redact);
    if (!entry.validate(clear)) throw new Error(`${input.action}: the broker would reject this event: ${this.registry.errorsText(entry.validate.errors)}`);
    const participant = this.registry.participant(input.subscriber);
    if (!participant) throw new Error(`${input.subscriber} is not registered on the event bus`);
    const body = JSON.stringify({ action: row.action, metadata: row.metadata, payload: this.sealer.unsealAll(row.payload) });
    return {
      path: localHandlerPath(input.subscriber, input.handler),
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: signBody(body, signingSecretFor(this.brokerSecret, participant)),
        [EVENT_ID_HEADER]: input.deliveryId ?? randomUUID(),
        [ATTEMPT_HEADER]: String(input.attempt ?? 1),
      },
      body,
    };
  }

  /** Replaces the fan-out filter given at construction (tests). */
  setSubscriberFilter(filter: SubscriberFilter | undefined): void {
    this.subscriberFilter = filter;
  }

  /** Replaces the emission guard given at construction (tests). */
  setEmissionGuard(guard: EmissionGuard | undefined): void {
    this.emissionGuard = guard;
  }

  /** The secret of a third-party app: it signs that app's ingress calls and the deliveries it receives. */
  appSecret(slug: string): string {
    return appSecret(this.brokerSecret, slug);
  }

  /** The secret deliveries to `slug` are signed with. */
  signingSecret(slug: string): string {
    const participant = this.registry.participant(slug);
    if (!participant) throw new Error(`${slug} is not registered on the event bus`);
    return signingSecretFor(this.brokerSecret, participant);
  }

  /** Wakes the local broker (events were committed). */
  wake(): void {
    this.broker?.wake();
  }

  /** Called by `runtime.start()`: stores the catalog and this server's URL, and starts the in-process broker unless disabled. */
  async start(serverUrl?: string): Promise<void> {
    this.serverUrl = serverUrl;
    if (this.deps.db.isEmbedded && !this.deps.config.inMemory) recordEmbeddedUrl(this.deps.config.dataDir, this.deps.db.url);
    await this.syncCatalog();
    if (this.runsBroker) await this.startBroker();
  }

  /** Starts the in-process broker (also without a listening server: in-process handlers are reached by inject). */
  async startBroker(): Promise<void> {
    if (this.broker) return;
    await this.syncCatalog();
    // An action of an app that is not loaded is expected (apps are optional: contacts listens to
    // companies when it is there); one its loaded app does not emit is a mistake worth a warning.
    for (const subscription of this.registry.unknownSubscriptions()) {
      const emitter = emitterOf(subscription.action);
      if (this.registry.participant(emitter)) this.deps.logger.warn({ subscriber: subscription.subscriber, action: subscription.action }, 'subscription to an action its app does not emit');
      else this.deps.logger.debug({ subscriber: subscription.subscriber, action: subscription.action, app: emitter }, 'subscription to an app that is not loaded');
    }
    const server = this.deps.server;
    const broker = new Broker({
      databaseUrl: this.deps.db.url,
      brokerSecret: this.brokerSecret,
      logger: this.deps.logger,
      tuning: this.tuning,
      registry: this.registry,
      hostsEmbeddedDatabase: this.deps.db.isEmbedded,
      selfUrl: this.selfUrl ?? this.serverUrl,
      subscriberFilter: (input) => (this.subscriberFilter ? this.subscriberFilter(input) : Promise.resolve(input.subscribers)),
      local: async (path, headers, body, timeoutMs) => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(Object.assign(new Error(`timed out after ${timeoutMs} ms`), { code: 'ETIMEDOUT' })), timeoutMs);
        });
        try {
          const response = await Promise.race([server.inject({ method: 'POST', url: path, headers, payload: body, remoteAddress: '127.0.0.1' }), timeout]);
          return response.statusCode;
        } finally {
          clearTimeout(timer);
        }
      },
    });
    this.broker = broker;
    try {
      await broker.start();
    } catch (error) {
      this.broker = null;
      throw error;
    }
  }

  /** True while the in-process broker runs. */
  get brokerRunning(): boolean {
    return this.broker?.isRunning ?? false;
  }

  /** Stops the in-process broker (events keep accumulating in the outbox). */
  async stopBroker(): Promise<void> {
    const broker = this.broker;
    this.broker = null;
    await broker?.stop();
  }

  /** Writes the registry and this server's URL to the shared catalog tables (standalone brokers read them). */
  async syncCatalog(): Promise<void> {
    await this.withClient(async (client) => {
      await client.query('BEGIN');
      try {
        await storeCatalog(client, this.registry.declarations());
        const self = this.selfUrl ?? this.serverUrl;
        if (self) await writeSetting(client, 'self_url', self);
        if (!this.deps.db.isEmbedded) await client.query(`SELECT pg_notify('${WAKE_CHANNEL}', 'catalog')`);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    });
  }

  /**
   * Resolves once nothing is left to do: no event waits in the outbox and no delivery due within
   * `timeoutMs` is pending or retrying. Rejects after `timeoutMs` naming what is left. Tests use it.
   */
  async settled(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const left = await this.withClient(async (client) => {
        const { rows } = await client.query<{ events: number; deliveries: number }>(
          `SELECT (SELECT count(*)::int FROM platform.events WHERE status = 'pending') AS events,
                  (SELECT count(*)::int FROM platform.event_deliveries WHERE status IN ('pending', 'retrying') AND next_attempt_at <= now() + make_interval(secs => $1::double precision)) AS deliveries`,
          [Math.max(0, (deadline - Date.now()) / 1000)],
        );
        return rows[0];
      });
      if (left.events === 0 && left.deliveries === 0 && (this.broker?.busy ?? 0) === 0) return;
      if (Date.now() > deadline) throw new Error(`events not settled after ${timeoutMs} ms: ${left.events} in the outbox, ${left.deliveries} deliveries pending`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Recent deliveries, newest first (payload fields marked for redaction are masked). */
  listDeliveries(filter: DeliveryFilter = {}): Promise<DeliveryLogEntry[]> {
    return this.withClient((client) => listDeliveries(client, this.registry, filter));
  }

  /** One delivery with its attempts, or null. */
  getDelivery(id: string): Promise<DeliveryLogEntry | null> {
    return this.withClient((client) => getDelivery(client, this.registry, id));
  }

  /** Queues a delivery again as a new delivery (`replay_of` = the original); returns the new id. */
  async replayDelivery(id: string): Promise<string> {
    const pool = this.openPool({ max: 2, application_name: 'wpk-events-replay' });
    let queue: DeliveryQueue | null = null;
    try {
      queue = await DeliveryQueue.start({ pool, logger: this.deps.logger, expireInSeconds: this.tuning.claimSeconds, monitorIntervalSeconds: this.tuning.monitorIntervalSeconds, crashRetries: this.tuning.crashRetries, supervise: false });
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const replay = await replayDelivery(client, queue, id);
        if (!this.deps.db.isEmbedded) await client.query(`SELECT pg_notify('${WAKE_CHANNEL}', 'deliveries')`);
        await client.query('COMMIT');
        this.broker?.wake();
        return replay;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    } finally {
      await queue?.stop();
      await pool.end();
    }
  }

  /**
   * Runs `fn` on a connection of the bus's own small pool. Never call from inside a Sequelize
   * transaction: on the embedded database the query would wait for that transaction to end.
   */
  private async withClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    this.pool ??= this.openPool({ max: 2, application_name: 'wpk-events', idleTimeoutMillis: 5000 });
    const client = await this.pool.connect();
    try {
      return await fn(client);
    } finally {
      client.release();
    }
  }

  /**
   * A small pool of the bus's own. An idle connection the server ends (a restart, a failover, an
   * administrator's terminate) is an `error` on the pool: logged here, since without a listener
   * Node would end the process; the pool opens a new connection at the next use.
   */
  private openPool(options: pg.PoolConfig): pg.Pool {
    const pool = new pg.Pool({ connectionString: this.deps.db.url, ...options });
    pool.on('error', (error) => this.deps.logger.warn({ err: error }, 'event bus connection error'));
    return pool;
  }

  /** Stops the in-process broker and closes the bus's connections. */
  async stop(): Promise<void> {
    await this.stopBroker();
    const pool = this.pool;
    this.pool = null;
    await pool?.end().catch(() => {});
  }
}

/** The app an action belongs to by its name: `ext.acme.hello` for `ext.acme.hello.item.created`, `companies` for `core.companies.company.created`. */
function emitterOf(action: string): string {
  const parts = action.split('.');
  if (parts[0] === 'ext') return parts.slice(0, 3).join('.');
  return parts[0] === 'core' ? parts[1] : parts[0];
}
