import type { Request, Server } from '@hapi/hapi';
import { type AppMigration, type ChainStep, type DeliveredEvent, type SearchableType, type SearchDocument } from '@wpk/sdk';
import { routeKey } from '@wpk/sdk/tooling';
import type { Logger } from 'pino';
import type { Sequelize } from 'sequelize';
import { appGuard, credentialsOf, defaultPermissionSourceFactory, isInstalled, type AccessDenial, type PermissionSourceFactory } from '../access/index.js';
import type { Migration, MigrationSet } from '../db/index.js';
import type { EventSink } from '../events/index.js';
import type { Mailer } from '../mail/index.js';
import type { StorageService } from '../storage/index.js';
import type { Workspace, WorkspaceService } from '../tenancy/index.js';
import { appEndpoints, unknownApp } from './http.js';
import { InstallationService } from './installations.js';
import { loadApps, type AppEntry, type LoadedApp } from './loader.js';
import { bindModels } from './models.js';
import { NotificationService } from './notifications.js';
import { AppPipeline, type AppRuntime, type SearchIndexer, type Work } from './pipeline.js';
import { readProjectConfig } from './project-config.js';
import { StrictRoles } from './strict-roles.js';

/** How the runtime finds its apps. */
export interface AppRegistryOptions {
  /** Apps named explicitly (`wpk start --app <dir>`, tests), loaded after the config file's. */
  apps?: readonly AppEntry[];
  /** Where `wpk.config.*` is looked up and relative paths resolve (default: the working directory). */
  projectDir?: string;
  /** A config file to read instead of looking one up; `false` reads none. */
  configFile?: string | false;
  /** Opt-in strict mode (each app under its own database role); the config file may turn it on too. */
  strictAppRoles?: boolean;
}

/** What `attach` wires the registry to. */
export interface AppRegistryServices {
  sequelize: Sequelize;
  logger: Logger;
  /** The runtime's workspaces (a delivery's workspace is looked up there). */
  workspaces: WorkspaceService;
  /** Where staged events go (the event bus's outbox once it exists). */
  eventSink?: () => EventSink | null;
  /** The mailer owners and admins are notified through. */
  mailer?: () => Mailer | null;
  /** The file storage behind `ctx.storage`. */
  storage?: () => StorageService | null;
}

/** A subscription participant as the event bus registers it. */
export interface AppParticipant {
  slug: string;
  firstParty: boolean;
  address: string | null;
  source: string;
  emits: Array<{ action: string; description: string; schema: Record<string, unknown>; redact?: string[] }>;
  subscriptions: Array<{ action: string; handler: string; max_retries?: number }>;
}

/** What the registry needs from the event bus (events/EventBus satisfies it). */
export interface EventBusPort {
  registerParticipant(declaration: AppParticipant): unknown;
  mountSubscriptions(options: {
    app: string;
    handlers: Record<string, (delivery: { action: string; payload: Record<string, unknown>; metadata: Record<string, unknown>; deliveryId: string; attempt: number }, input: any) => unknown>;
    context?: (input: { app: string; workspace: Workspace; work: Work }) => unknown;
  }): string[];
  setSubscriberFilter?(filter: (input: { workspaceId: string; action: string; subscribers: string[]; client: { query(text: string, values?: unknown[]): Promise<{ rows: any[] }> } }) => Promise<string[]>): void;
  setEmissionGuard?(guard: (input: { app: string; workspaceId: string }) => Promise<boolean>): void;
}

/** Used until the event bus plugs its sink in: staged events are dropped (and logged at debug). */
function droppingSink(logger: Logger): EventSink {
  return {
    async write(workspaceId, events) {
      logger.debug({ workspace_id: workspaceId, actions: events.map((event) => event.action) }, 'no event sink: staged events dropped');
    },
    afterCommit() {},
  };
}

/**
 * The apps of this runtime: loaded and validated at start-up (refusing to start on any problem),
 * each with its schema and migrations, mounted on the server behind the app guard (layers 4-5),
 * plus the platform's app endpoints. Installation state is read from the database on every
 * request; nothing about access is cached here.
 */
export class AppRegistry {
  private readonly byNamespace: Map<string, LoadedApp>;
  private runtimes = new Map<string, AppRuntime>();
  private services: (AppRegistryServices & { strict: StrictRoles | null; pipeline: AppPipeline; installations: InstallationService; notifications: NotificationService }) | null = null;
  private searchIndexer: SearchIndexer | null = null;
  private searchWrap: ((inner: SearchIndexer | null) => SearchIndexer | null) | null = null;
  private sinkOverride: ((inner: EventSink) => EventSink) | null = null;
  private sourceFactory: PermissionSourceFactory = defaultPermissionSourceFactory;
  private readonly deniedListeners: Array<(denial: AccessDenial) => void> = [];

  private constructor(
    private readonly loaded: LoadedApp[],
    /** True when each app runs under its own database role. */
    readonly strict: boolean,
  ) {
    this.byNamespace = new Map(loaded.map((app) => [app.namespace, app]));
  }

  /** Reads the config file and the explicit entries, loads and validates every app. Throws AppLoadError. */
  static async load(options: AppRegistryOptions = {}): Promise<AppRegistry> {
    const projectDir = options.projectDir ?? process.cwd();
    const project = options.configFile === false ? { apps: [], strictAppRoles: undefined } : await readProjectConfig(projectDir, options.configFile);
    const apps = await loadApps([...project.apps, ...(options.apps ?? [])], projectDir);
    return new AppRegistry(apps, options.strictAppRoles ?? project.strictAppRoles ?? false);
  }

  /** Every loaded app, in load order. */
  list(): LoadedApp[] {
    return [...this.loaded];
  }

  /** The app with this namespace (`tasks`, `ext.acme.hello`), or undefined. */
  get(namespace: string): LoadedApp | undefined {
    return this.byNamespace.get(namespace);
  }

  /** The app with this namespace; 404 when none. */
  require(namespace: string): LoadedApp {
    const app = this.byNamespace.get(namespace);
    if (!app) throw unknownApp(namespace);
    return app;
  }

  /** One migration set per app with code: its schema, its own bookkeeping table, its migrations. */
  migrationSets(): MigrationSet[] {
    return this.loaded.filter((app) => app.definition).map((app) => ({ schema: app.schema, migrations: app.definition!.migrations.map((migration) => appMigration(app, migration)) }));
  }

  /** Plugs the search engine in (`ctx.search` changes are applied through it). */
  useSearchIndexer(indexer: SearchIndexer | null): void {
    this.searchIndexer = indexer;
  }

  /** Wraps the search indexer (the test harness records index changes this way). */
  wrapSearchIndexer(wrap: ((inner: SearchIndexer | null) => SearchIndexer | null) | null): void {
    this.searchWrap = wrap;
  }

  /** The indexer `ctx.search` changes go through right now (null: none plugged in). */
  currentSearchIndexer(): SearchIndexer | null {
    return this.searchWrap ? this.searchWrap(this.searchIndexer) : this.searchIndexer;
  }

  /** Wraps the event sink apps stage into (the test harness captures events this way). */
  wrapEventSink(wrap: ((inner: EventSink) => EventSink) | null): void {
    this.sinkOverride = wrap;
  }

  /** Replaces how credentials become a PermissionSource (the API-key concern plugs in here). */
  usePermissionSources(factory: PermissionSourceFactory): void {
    this.sourceFactory = factory;
  }

  /** Listens to every access denial of layers 2-5 on app routes (audit events). */
  onAccessDenied(listener: (denial: AccessDenial) => void): void {
    this.deniedListeners.push(listener);
  }

  /** The sink staged events go to right now. */
  eventSink(): EventSink {
    const services = this.services!;
    const inner = services.eventSink?.() ?? droppingSink(services.logger);
    return this.sinkOverride ? this.sinkOverride(inner) : inner;
  }

  /** The installation, settings and role-slice service. */
  get installations(): InstallationService {
    if (!this.services) throw new Error('AppRegistry.attach() has not run');
    return this.services.installations;
  }

  /** The notification store. */
  get notifications(): NotificationService {
    if (!this.services) throw new Error('AppRegistry.attach() has not run');
    return this.services.notifications;
  }

  /**
   * Binds models, registers the app guard, mounts every app route and the platform's app
   * endpoints. Call once, after the auth scheme is registered.
   */
  async attach(server: Server, services: AppRegistryServices): Promise<void> {
    if (this.services) throw new Error('AppRegistry.attach() already ran');
    const strict = this.strict ? await StrictRoles.open(services.sequelize) : null;
    const installations = new InstallationService(services.sequelize);
    const notifications = new NotificationService(services.sequelize, services.logger);
    const pipeline = new AppPipeline({
      sequelize: services.sequelize,
      logger: services.logger,
      sink: () => this.eventSink(),
      searchIndexer: () => this.currentSearchIndexer(),
      storage: () => services.storage?.() ?? null,
      strict,
    });
    this.services = { ...services, strict, pipeline, installations, notifications };
    for (const app of this.loaded) this.runtimes.set(app.namespace, { app, models: bindModels(services.sequelize, app) });

    await server.register({
      plugin: appGuard,
      options: {
        sequelize: services.sequelize,
        loadInstallation: (workspaceId, namespace) => installations.find(workspaceId, namespace),
        runCheck: (request, access, name) => pipeline.runCheck(this.runtimes.get(access.namespace)!, request, access, name),
        permissionSources: () => this.sourceFactory,
        onDenied: (denial) => {
          for (const listener of this.deniedListeners) listener(denial);
        },
      },
    });

    for (const app of this.loaded) {
      if (!app.definition) continue;
      const runtime = this.runtimes.get(app.namespace)!;
      const table = new Map(app.manifest.authorization.map((entry) => [routeKey(entry.method, entry.path), entry]));
      for (const route of app.definition.routes) {
        const entry = table.get(routeKey(route.method, route.path))!;
        server.route(pipeline.hapiRoute(runtime, route, entry.public === true ? null : ((entry.chain ?? []) as ChainStep[])));
      }
    }

    server.route(
      appEndpoints({
        sequelize: services.sequelize,
        logger: services.logger,
        installations,
        notifications,
        apps: { require: (namespace) => this.require(namespace), list: () => this.list() },
        sink: () => this.eventSink(),
        mailer: () => services.mailer?.() ?? null,
        permissionSources: () => this.sourceFactory,
      }),
    );
  }

  /** Strict mode: creates and grants each app's role (after the app schemas are migrated). */
  async afterMigrate(): Promise<void> {
    const strict = this.services?.strict;
    if (!strict) return;
    for (const app of this.loaded) if (app.definition) await strict.grant(app);
  }

  /** Strict mode, tests: drops the app roles of this database. */
  async dropStrictRoles(): Promise<void> {
    await this.services?.strict?.drop(this.loaded.filter((app) => app.definition));
  }

  /** The strict-mode role of an app (for diagnostics and tests); null when strict mode is off. */
  strictRoleOf(namespace: string): string | null {
    const strict = this.services?.strict;
    return strict ? strict.roleName(this.require(namespace)) : null;
  }

  /** Every app as an event-bus participant: what it emits and what it subscribes to. */
  participants(): AppParticipant[] {
    return this.loaded.map((app) => ({
      slug: app.namespace,
      firstParty: app.firstParty,
      address: app.address,
      source: app.file,
      emits: (app.manifest.events ?? []).map((event) => ({ action: event.action, description: event.description, schema: event.schema, redact: event.redact })),
      subscriptions: (app.manifest.subscriptions ?? []).map((subscription) => ({ action: subscription.action, handler: subscription.handler, max_retries: subscription.max_retries ?? 3 })),
    }));
  }

  /**
   * Puts the apps on the event bus: registers each as a participant (what it emits, what it
   * subscribes to, its address when remote), mounts the subscription handlers of in-process
   * apps (run with the app's context, skipped where the app is not installed), delivers only to
   * apps installed in the event's workspace, and lets a remote app emit only where it is installed.
   */
  connectEventBus(bus: EventBusPort): void {
    const services = this.services;
    if (!services) throw new Error('AppRegistry.attach() has not run');
    for (const participant of this.participants()) bus.registerParticipant(participant);
    for (const app of this.loaded) {
      const handlers = app.definition ? Object.keys(app.definition.subscriptions) : [];
      if (!app.definition || handlers.length === 0) continue;
      const runtime = this.runtimes.get(app.namespace)!;
      bus.mountSubscriptions({
        app: app.namespace,
        context: (input) => input,
        handlers: Object.fromEntries(
          handlers.map((action) => [
            action,
            async (delivery, input: { workspace: Workspace; work: Work }) => {
              const installation = await services.installations.find(input.workspace.id, app.namespace);
              if (!isInstalled(installation)) return;
              const event: DeliveredEvent = { action: delivery.action, payload: delivery.payload, metadata: delivery.metadata as DeliveredEvent['metadata'], deliveryId: delivery.deliveryId, attempt: delivery.attempt };
              await services.pipeline.deliverInWork(runtime, input.workspace, services.installations.effectiveSettings(app, installation), input.work, event);
            },
          ]),
        ),
      });
    }
    bus.setSubscriberFilter?.(async ({ workspaceId, subscribers, client }) => {
      const apps = subscribers.filter((subscriber) => this.byNamespace.has(subscriber));
      if (apps.length === 0) return subscribers;
      const installed = await InstallationService.installedAmong(client, workspaceId, apps);
      return subscribers.filter((subscriber) => !this.byNamespace.has(subscriber) || installed.has(subscriber));
    });
    bus.setEmissionGuard?.(async ({ app, workspaceId }) => {
      if (!this.byNamespace.has(app)) return false;
      const installation = await services.installations.find(workspaceId, app);
      return isInstalled(installation);
    });
  }

  /**
   * Hands a delivered event to an in-process app's subscription handler. Returns `skipped` when
   * the workspace is gone or the app is not installed there; throws when the handler fails (the
   * delivery answers non-200 and the broker retries).
   */
  async dispatch(namespace: string, event: DeliveredEvent): Promise<'handled' | 'skipped'> {
    const services = this.services;
    if (!services) throw new Error('AppRegistry.attach() has not run');
    const app = this.require(namespace);
    const runtime = this.runtimes.get(namespace)!;
    if (!app.definition) throw new Error(`${namespace} is a remote app: its deliveries go to ${app.address}`);
    const workspaceId = event.metadata?.workspace_id;
    const workspace = typeof workspaceId === 'string' ? await services.workspaces.findById(workspaceId) : null;
    if (!workspace) return 'skipped';
    const installation = await services.installations.find(workspace.id, namespace);
    if (!isInstalled(installation)) return 'skipped';
    await services.pipeline.deliver(runtime, workspace, services.installations.effectiveSettings(app, installation), event);
    return 'handled';
  }

  /** The handler path of each in-process subscription, served under the app's route prefix. */
  subscriptionRoutes(): Array<{ app: LoadedApp; action: string; path: string }> {
    return this.loaded
      .filter((app) => app.definition)
      .flatMap((app) => (app.manifest.subscriptions ?? []).map((subscription) => ({ app, action: subscription.action, path: `${app.routePrefix}${subscription.handler}` })));
  }

  /**
   * What the platform search needs from apps and access (search/SearchAccess): layer 4 for the
   * caller, the caller's keys in the app (read fresh, `'all'` for the universal wildcard), and
   * the app's searchable types. Unknown apps cannot be opened and declare no types.
   */
  searchAccess(): {
    canOpenApp(request: Request, app: string): Promise<boolean>;
    heldKeys(request: Request, app: string): Promise<ReadonlySet<string> | 'all'>;
    searchableTypes(app: string): readonly SearchableType[];
  } {
    const sourceOf = (request: Request) => this.sourceFactory(credentialsOf(request), this.services!.sequelize);
    return {
      canOpenApp: async (request, namespace) => {
        const workspace = request.app.workspace;
        if (!workspace || !this.byNamespace.has(namespace)) return false;
        const installation = await this.installations.find(workspace.id, namespace);
        if (!isInstalled(installation)) return false;
        return (await sourceOf(request).appAccess(namespace, installation)).allowed;
      },
      heldKeys: async (request, namespace) => {
        const app = this.byNamespace.get(namespace);
        const permissions = await sourceOf(request).appPermissions(namespace);
        if (permissions.universal) return 'all';
        return new Set(app ? permissions.expand(app.declaredKeys) : []);
      },
      searchableTypes: (namespace) => this.byNamespace.get(namespace)?.manifest.search ?? [],
    };
  }

  /** A SearchIndexer over the search engine's index (`upsert(workspaceId, app, document)`, `remove(workspaceId, app, type, id)`). */
  static searchIndexerOver(index: { upsert(workspaceId: string, app: string, document: SearchDocument): Promise<unknown>; remove(workspaceId: string, app: string, type: string, id: string): Promise<unknown> }): SearchIndexer {
    return {
      async apply(scope, operations) {
        for (const operation of operations) {
          if (operation.op === 'upsert') await index.upsert(scope.workspaceId, scope.app, operation.document);
          else await index.remove(scope.workspaceId, scope.app, operation.type, operation.id);
        }
      },
    };
  }

  /** Workspaces where the app is installed (for re-indexing and maintenance jobs). */
  async installedIn(namespace: string): Promise<string[]> {
    if (!this.services) throw new Error('AppRegistry.attach() has not run');
    return this.services.installations.workspacesWith(namespace);
  }

  /** The namespaces of the apps installed in the workspace (API keys' grantable scopes). */
  async installedApps(workspaceId: string): Promise<string[]> {
    if (!this.services) throw new Error('AppRegistry.attach() has not run');
    return this.services.installations.installedApps(workspaceId);
  }
}

/** An app migration as core's runner takes it: run with `search_path` on the app's schema. */
function appMigration(app: LoadedApp, migration: AppMigration): Migration {
  const run = async (sequelize: Sequelize, direction: 'up' | 'down') => {
    const step = migration[direction];
    if (!step) throw new Error(`${app.namespace}: migration ${migration.name} cannot be reverted`);
    await sequelize.query(`SET LOCAL search_path TO "${app.schema}", public`);
    await step.call(migration, {
      schema: app.schema,
      query: async (sql: string, replacements?: Record<string, unknown>) => {
        const [rows] = await sequelize.query(sql, replacements ? { replacements } : {});
        return rows as unknown[];
      },
    });
    await sequelize.query('SET LOCAL search_path TO DEFAULT');
  };
  return {
    name: migration.name,
    up: ({ sequelize }) => run(sequelize, 'up'),
    down: migration.down ? ({ sequelize }) => run(sequelize, 'down') : undefined,
  };
}
