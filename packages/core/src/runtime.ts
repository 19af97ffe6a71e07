import path from 'node:path';
import type { Server } from '@hapi/hapi';
import type { Logger } from 'pino';
import { closeIdlePrinter } from '@wpk/sdk';
import type { ApiKeyService } from './api-keys/index.js';
import { AppRegistry, type AppEntry, type AppHost } from './apps/index.js';
import type { BillingService, BillingWorker } from './billing/index.js';
import type { MessagesService } from './messages/index.js';
import type { OperatorService } from './operators/index.js';
import { systemClock } from './clock.js';
import { resolveConfig, type RuntimeConfig, type RuntimeConfigInput } from './config.js';
import type { RuntimeSeams } from './core-inputs.js';
import { Database, migrateUp, platformMigrations, type MigrationProgress, type MigrationSet } from './db/index.js';
import type { EventBus, EventBusOptions } from './events/index.js';
import type { IdentityService } from './identity/index.js';
import { createLogger } from './logger.js';
import type { Mailer } from './mail/index.js';
import type { OpenApiBuildOptions, OpenApiDocument } from './openapi/index.js';
import { registerCorePlugins } from './plugins.js';
import { reindexSearch, type ReindexedType, type ReindexOptions, type SearchIndex } from './search/index.js';
import { createHapiServer } from './server/index.js';
import type { StorageService } from './storage/index.js';
import type { WorkspaceService } from './tenancy/index.js';

export interface RuntimeOptions extends RuntimeConfigInput {
  /** A logger to use instead of one built from `logLevel`. */
  logger?: Logger;
  /** Apps to load besides those of the project's wpk.config file (`wpk start --app <dir>`, tests). */
  apps?: AppEntry[];
  /** Where wpk.config.* is looked up and relative app paths resolve (default: the working directory). */
  projectDir?: string;
  /** The config file to read; `false` reads none (default: look one up in projectDir). */
  configFile?: string | false;
  /** Strict mode: each app runs under its own database role (default: WPK_STRICT_APP_ROLES=1, or the config file). */
  strictAppRoles?: boolean;
  /** Event bus options (broker secret, in-process broker on/off, delivery tuning). */
  events?: EventBusOptions;
  /** Substitutes given before boot (the test harnesses: clock, mail sink, event and search capture); see RuntimeSeams. */
  seams?: RuntimeSeams;
  /** Hears each step of `create` start and end (`wpk start` and `wpk dev` show them: a first start takes many seconds). */
  onProgress?: (step: StartupProgress) => void;
}

/** A step of `Runtime.create`: loading the apps (`count` of them), opening the database, registering the platform's parts. */
export type StartupProgress = { step: 'apps' | 'database' | 'platform' } & ({ phase: 'started' } | { phase: 'done'; ms: number; count?: number });

/** Runs `work` as the step `step`, telling `onProgress` when it starts and ends. */
async function timed<T>(step: StartupProgress['step'], onProgress: RuntimeOptions['onProgress'], work: () => Promise<T>, count?: (result: T) => number): Promise<T> {
  const since = performance.now();
  onProgress?.({ step, phase: 'started' });
  const result = await work();
  onProgress?.({ step, phase: 'done', ms: Math.round(performance.now() - since), ...(count ? { count: count(result) } : {}) });
  return result;
}

/**
 * The project of a runtime: the config file given (option, then WPK_CONFIG) and its directory,
 * against which relative paths resolve; else the working directory and the config file found there.
 */
export function projectOf(options: Pick<RuntimeOptions, 'projectDir' | 'configFile'>): { configFile: string | false | undefined; projectDir: string } {
  const given = options.configFile ?? (process.env.WPK_CONFIG || undefined);
  const configFile = typeof given === 'string' ? path.resolve(options.projectDir ?? process.cwd(), given) : given;
  const projectDir = options.projectDir ?? (configFile ? path.dirname(configFile) : process.cwd());
  return { configFile, projectDir };
}

/**
 * One platform process: configuration, database, the hapi server with every core concern
 * registered on it as a plugin (the list and their dependencies: `plugins.ts`), and the services
 * they expose. `Runtime.create` opens the database but neither migrates nor listens; call
 * `migrate()` and `start()`.
 */
export class Runtime {
  private constructor(
    readonly config: RuntimeConfig,
    readonly logger: Logger,
    readonly server: Server,
    /** The runtime's clock (`RuntimeSeams.clock`, default the system's). */
    readonly clock: () => Date,
  ) {}

  /** The database (db/). */
  get db(): Database {
    return this.server.plugins.db.database;
  }
  /** Workspaces (tenancy/). */
  get workspaces(): WorkspaceService {
    return this.server.plugins.tenancy.workspaces;
  }
  /** Identity: accounts, members, roles, sessions, invitations, 2FA, elevation, audit (identity/). */
  get identity(): IdentityService {
    return this.server.plugins.identity.identity;
  }
  /** Workspace API keys: management, and the authenticator behind `Bearer slk_...` (api-keys/). */
  get apiKeys(): ApiKeyService {
    return this.server.plugins['api-keys'].keys;
  }
  /** The apps of this runtime: registry, installations, dispatch, strict roles (apps/). */
  get apps(): AppHost {
    return this.server.plugins.apps.host;
  }
  /** The platform search index (search/): apps feed it through `ctx.search`; GET/POST /search read it. */
  get search(): SearchIndex {
    return this.server.plugins.search.index;
  }
  /** Outgoing mail (SMTP_URL, files under the data directory, or the `mailer` seam). */
  get mail(): Mailer {
    return this.server.plugins.mail.mailer;
  }
  /** The event bus: registry, outbox sink, subscription mounting, in-process broker (events/). */
  get events(): EventBus {
    return this.server.plugins.events.bus;
  }
  /** Billing (billing/): plans, invoices, payment methods, coupons, the billing loop's worker (`runtime.billingWorker`). */
  get billing(): BillingService {
    return this.server.plugins.billing.billing;
  }
  /** The billing loop on the durable queue (started with the server); `runDue()` runs the firings due now. */
  get billingWorker(): BillingWorker {
    return this.server.plugins.billing.worker;
  }
  /** Operators (operators/): their credentials (`wpk operator add`) and preview apps. */
  get operators(): OperatorService {
    return this.server.plugins.operators.operators;
  }
  /** The platform's messages to workspaces (messages/): billing notices, release notes. */
  get messages(): MessagesService {
    return this.server.plugins.messages.messages;
  }
  /** File storage (storage/): `ctx.storage`, avatars, the signed links at /storage/{token}. */
  get storage(): StorageService {
    return this.server.plugins.storage.service;
  }

  static async create(options: RuntimeOptions = {}): Promise<Runtime> {
    const { configFile, projectDir } = projectOf(options);
    const config = resolveConfig(options, process.env, projectDir);
    const logger = options.logger ?? createLogger(config.logLevel);
    // Apps are loaded and validated before anything opens: a bad manifest stops start-up here.
    const { onProgress } = options;
    const apps = await timed(
      'apps',
      onProgress,
      () =>
        AppRegistry.load({
          apps: options.apps,
          projectDir,
          configFile,
          strictAppRoles: options.strictAppRoles ?? (process.env.WPK_STRICT_APP_ROLES ? process.env.WPK_STRICT_APP_ROLES === '1' : undefined),
        }),
      (registry) => registry.list().length,
    );
    const database = await timed('database', onProgress, () => Database.open({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, inMemory: config.inMemory, logger }));
    try {
      const server = createHapiServer({ host: config.host, port: config.port, requestTimeoutMs: config.requestTimeoutMs });
      const seams = { ...options.seams, clock: options.seams?.clock ?? systemClock };
      await timed('platform', onProgress, () => registerCorePlugins(server, { config, logger, seams, database, apps, events: options.events }));
      return new Runtime(config, logger, server, seams.clock);
    } catch (error) {
      await database.close();
      throw error;
    }
  }

  /**
   * The migration sets a runtime created with `options` owns (`migrationSets()`), without opening
   * a database: the apps are loaded and validated as `create` loads them.
   */
  static async migrationSetsOf(options: Pick<RuntimeOptions, 'apps' | 'projectDir' | 'configFile'> = {}): Promise<MigrationSet[]> {
    const { configFile, projectDir } = projectOf(options);
    const registry = await AppRegistry.load({ apps: options.apps, projectDir, configFile });
    return [platformMigrations, ...registry.migrationSets()];
  }

  /** The OpenAPI 3.1 document of every route on this server (`app`: only that app's, or `account` for the platform's). */
  openApiDocument(options: OpenApiBuildOptions = {}): OpenApiDocument {
    return this.server.plugins.openapi.document(options);
  }

  /** Every migration set this runtime owns: core's first, then each app's. */
  migrationSets(): MigrationSet[] {
    return [platformMigrations, ...this.apps.migrationSets()];
  }

  /** Runs pending migrations of every set; returns what ran, per schema. `onProgress` hears each step as it runs. */
  async migrate(onProgress?: (step: MigrationProgress) => void): Promise<Record<string, string[]>> {
    const applied: Record<string, string[]> = {};
    for (const set of this.migrationSets()) applied[set.schema] = await migrateUp(this.db.sequelize, set, onProgress);
    await this.apps.afterMigrate();
    return applied;
  }

  /** Rebuilds the search index from the apps' `reindex` hooks (`wpk search reindex`); see search/reindex.ts. */
  async reindexSearch(options: ReindexOptions = {}): Promise<ReindexedType[]> {
    return reindexSearch({ index: this.search, apps: this.apps, workspaces: this.workspaces }, options);
  }

  /** Starts listening; returns the base URL. */
  async start(): Promise<string> {
    await this.server.start();
    const { address, port } = this.server.info;
    const host = address && address.includes(':') ? `[${address}]` : address;
    const url = `http://${host}:${port}`;
    await this.events.start(url);
    await this.apps.startServices();
    return url;
  }

  /** Stops listening (letting requests in flight finish) and closes the database. */
  async stop(): Promise<void> {
    try {
      await this.apps.stopServices();
      await this.server.stop({ timeout: 5000 });
    } finally {
      this.mail.close();
      await this.events.stop().catch((error) => this.logger.warn({ err: error }, 'stopping the event bus failed'));
      await this.db.close();
      // The SDK's shared PDF printer (Papers, Slides): its browser's pipe would hold the process open.
      await closeIdlePrinter();
    }
  }
}
