import type { Server } from '@hapi/hapi';
import type { Logger } from 'pino';
import { permissionDeniedEmitter, resolveRequestAccess } from './access/index.js';
import { installApiKeys, type ApiKeyService } from './api-keys/index.js';
import { AppRegistry, type AppEntry } from './apps/index.js';
import { resolveConfig, type RuntimeConfig, type RuntimeConfigInput } from './config.js';
import { Database, migrateUp, platformMigrations, type MigrationProgress, type MigrationSet } from './db/index.js';
import { installAuditTrail } from './audit/index.js';
import { EventBus, type EventBusOptions, type EventSink } from './events/index.js';
import { IdentityService, installIdentity } from './identity/index.js';
import { createLogger } from './logger.js';
import { createMailer, type Mailer } from './mail/index.js';
import { buildOpenApiDocument, openApiRoutes, type OpenApiBuildOptions, type OpenApiDocument } from './openapi/index.js';
import { healthRoutes } from './platform-routes/index.js';
import { registerSearchRoutes, scheduleDictionaryPruning, SearchIndex } from './search/index.js';
import { createServer } from './server/index.js';
import { WorkspaceService } from './tenancy/index.js';
import { installWeb } from './web/index.js';

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
}

/**
 * One platform process: configuration, database, the hapi server with every platform route,
 * and the services behind them. `Runtime.create` opens the database but neither migrates nor
 * listens; call `migrate()` and `start()`.
 */
export class Runtime {
  private constructor(
    readonly config: RuntimeConfig,
    readonly logger: Logger,
    readonly db: Database,
    readonly server: Server,
    readonly workspaces: WorkspaceService,
  ) {}

  /** Identity: accounts, members, roles, sessions, invitations, 2FA, elevation, audit (identity/). */
  identity!: IdentityService;
  /** Workspace API keys: management, and the authenticator behind `Bearer slk_...` (api-keys/). */
  apiKeys!: ApiKeyService;
  /** The apps of this runtime: registry, installations, the app guard (apps/, access/). */
  apps!: AppRegistry;
  /** The platform search index (search/): apps feed it through `ctx.search`; GET/POST /search read it. */
  search!: SearchIndex;
  private stopSearchMaintenance: () => void = () => {};
  /** Outgoing mail (SMTP_URL, or files under the data directory). */
  mail!: Mailer;
  /** Where staged events go once a request commits; a no-op until the event bus replaces it. */
  eventSink: EventSink = { write: async () => {}, afterCommit: () => {} };
  /** The event bus: registry, outbox sink, subscription mounting, in-process broker (events/). */
  events!: EventBus;

  static async create(options: RuntimeOptions = {}): Promise<Runtime> {
    const config = resolveConfig(options);
    const logger = options.logger ?? createLogger(config.logLevel);
    // Apps are loaded and validated before anything opens: a bad manifest stops start-up here.
    const apps = await AppRegistry.load({
      apps: options.apps,
      projectDir: options.projectDir,
      configFile: options.configFile,
      strictAppRoles: options.strictAppRoles ?? (process.env.WPK_STRICT_APP_ROLES ? process.env.WPK_STRICT_APP_ROLES === '1' : undefined),
    });
    const db = await Database.open({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, inMemory: config.inMemory, logger });
    try {
      const workspaces = new WorkspaceService(db.sequelize);
      const server = await createServer({ host: config.host, port: config.port, baseDomain: config.baseDomain, publicUrl: config.publicUrl, allowedHosts: config.allowedHosts, requestTimeoutMs: config.requestTimeoutMs, workspaces, resolveWorkspace: (request, subdomain) => resolveRequestAccess(db.fast, request, subdomain), logger });
      server.route(healthRoutes(db));
      const runtime = new Runtime(config, logger, db, server, workspaces);
      runtime.events = new EventBus({ config, db, server, workspaces, logger, options: options.events });
      runtime.eventSink = runtime.events.sink;
      installAuditTrail(runtime.events, db.sequelize);
      runtime.mail = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, logger });
      runtime.identity = await IdentityService.create({ sequelize: db.sequelize, config, logger, workspaces, mailer: runtime.mail, events: () => runtime.eventSink });
      installIdentity(server, runtime.identity, config);
      runtime.apiKeys = installApiKeys(server, db.sequelize, runtime.identity, apps);
      runtime.apps = apps;
      await apps.attach(server, { sequelize: db.sequelize, logger, workspaces, eventSink: () => runtime.eventSink, mailer: () => runtime.mail });
      apps.connectEventBus(runtime.events);
      apps.onAccessDenied(permissionDeniedEmitter(runtime.events, logger));
      runtime.search = new SearchIndex(db.sequelize);
      apps.useSearchIndexer(AppRegistry.searchIndexerOver(runtime.search));
      registerSearchRoutes(server, { index: runtime.search, access: apps.searchAccess() });
      await installWeb(server, { config, workspaces, apps, mailer: () => runtime.mail, throttle: runtime.identity.context.throttle });
      server.route(openApiRoutes(() => runtime.openApiDocument()));
      return runtime;
    } catch (error) {
      await db.close();
      throw error;
    }
  }

  /** The OpenAPI 3.1 document of every route on this server (`app`: only that app's, or `account` for the platform's). */
  openApiDocument(options: OpenApiBuildOptions = {}): OpenApiDocument {
    const apps = this.apps.list().map((app) => ({ namespace: app.namespace, name: app.manifest.name, version: app.manifest.version, description: app.manifest.description }));
    return buildOpenApiDocument({ routes: this.server.table(), apps, baseDomain: this.config.baseDomain }, options);
  }

  /** Every migration set this runtime owns: core's first, then each app's. */
  migrationSets(): MigrationSet[] {
    return [platformMigrations, ...(this.apps?.migrationSets() ?? [])];
  }

  /** Runs pending migrations of every set; returns what ran, per schema. `onProgress` hears each step as it runs. */
  async migrate(onProgress?: (step: MigrationProgress) => void): Promise<Record<string, string[]>> {
    const applied: Record<string, string[]> = {};
    for (const set of this.migrationSets()) applied[set.schema] = await migrateUp(this.db.sequelize, set, onProgress);
    await this.apps?.afterMigrate();
    return applied;
  }

  /** Starts listening; returns the base URL. */
  async start(): Promise<string> {
    await this.server.start();
    const { address, port } = this.server.info;
    const host = address && address.includes(':') ? `[${address}]` : address;
    const url = `http://${host}:${port}`;
    await this.events.start(url);
    this.stopSearchMaintenance = scheduleDictionaryPruning(this.search, { logger: this.logger });
    return url;
  }

  /** Stops listening (letting requests in flight finish) and closes the database. */
  async stop(): Promise<void> {
    try {
      await this.server.stop({ timeout: 5000 });
    } finally {
      this.mail?.close();
      this.stopSearchMaintenance();
      await this.events?.stop().catch((error) => this.logger.warn({ err: error }, 'stopping the event bus failed'));
      await this.db.close();
    }
  }
}
