import { OpenAiCompatibleModel } from '../ai/index.js';
import { permissionDeniedEmitter } from '../access/index.js';
import { defineCorePlugin, inputs, plugins } from '../core-plugin.js';
import { loadSecretKey, Throttle } from '../identity/index.js';
import type { EmissionGuard, SubscriberFilter } from '../events/index.js';
import { ConfigurationCapability } from './configuration.js';
import { installedEmitters, installedSubscribers, joinEventBus } from './event-bus.js';
import { AppHost } from './host.js';
import { InstallationService } from './installations.js';
import { explainCatalog } from './members.js';
import { bindModels } from './models.js';
import { mountAppRoutes } from './mount.js';
import { AppPipeline, type AppRuntime } from './pipeline.js';
import type { AppRegistry } from './registry.js';
import { appEndpoints } from './routes.js';
import { searchIndexerOver } from './search-access.js';
import { StrictRoles } from './strict-roles.js';
import { injectedRequests } from './platform-requests.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    'app-catalog': {
      /** The apps as loaded and validated. */
      registry: AppRegistry;
      /** Where each app is installed, its settings and role slices. */
      installations: InstallationService;
      /** The event bus's fan-out rule: a loaded app receives only where it is installed. */
      installedSubscribers: SubscriberFilter;
      /** The ingress rule: a remote app emits only where it is installed. */
      installedEmitters: EmissionGuard;
    };
    apps: { host: AppHost };
  }
}

/**
 * Which apps this runtime has (loaded before anything opened) and where each is installed.
 * Concerns that only ask "which apps, installed where" (events, API keys' scopes, search, the
 * web, OpenAPI) depend on this plugin, not on `apps`.
 */
export const appCatalogPlugin = defineCorePlugin({
  name: 'app-catalog',
  deps: { registry: inputs.apps, db: plugins.db },
  register(_server, { registry, db }) {
    const installations = new InstallationService(db.database.sequelize);
    return { registry, installations, installedSubscribers: installedSubscribers(registry), installedEmitters: installedEmitters(registry, installations) };
  },
});

/**
 * Runs the apps: binds each app's models to this runtime's connection, registers the app guard
 * (layers 4 and 5; its denials become `system.security.permission.denied` events), mounts every
 * app route and the platform's app endpoints, and puts the apps on the event bus. `ctx.search`
 * changes feed the platform search index; staged events go to the event bus's outbox; `ctx.live`
 * publications go to the live hub after the commit, and the apps' channel kinds are declared to it.
 */
export const appsPlugin = defineCorePlugin({
  name: 'apps',
  deps: {
    config: inputs.config,
    logger: inputs.logger,
    seams: inputs.seams,
    db: plugins.db,
    tenancy: plugins.tenancy,
    catalog: plugins['app-catalog'],
    events: plugins.events,
    mail: plugins.mail,
    storage: plugins.storage,
    search: plugins.search,
    notifications: plugins.notifications,
    live: plugins.live,
    signaling: plugins.signaling,
    identity: plugins.identity,
  },
  after: ['server'],
  async register(server, deps) {
    const { config, logger, seams } = deps;
    const sequelize = deps.db.database.sequelize;
    const { registry, installations } = deps.catalog;
    const bus = deps.events.bus;
    const strict = registry.strict ? await StrictRoles.open(sequelize) : null;
    const notifications = deps.notifications.service;
    const sink = seams.eventSink ? seams.eventSink(bus.sink, 'apps') : bus.sink;
    const index = searchIndexerOver(deps.search.index);
    const indexer = seams.searchIndexer ? seams.searchIndexer(index) : index;
    const storage = deps.storage.service;
    const secret = await loadSecretKey(config.secretKey, config.dataDir);
    const { hub, publisher } = deps.live;
    const signaling = deps.signaling.service;
    const outbox = deps.mail.outbox;
    const pipeline = new AppPipeline({ sequelize, logger, sink: () => sink, searchIndexer: () => indexer, storage: () => storage, strict, secret, live: () => publisher, mail: () => outbox, signaling: () => signaling, clock: seams.clock, throttle: new Throttle(sequelize, seams.clock), publicUrl: config.publicUrl, model: config.ai ? new OpenAiCompatibleModel(config.ai) : null, requests: injectedRequests(server, config.publicUrl), access: explainCatalog(registry, installations), configuration: new ConfigurationCapability({ sequelize, apps: registry, installations, roles: deps.identity.identity.roles, audit: deps.identity.identity.audit }) });
    const bound = new Map<string, AppRuntime>(registry.list().map((app) => [app.namespace, { app, models: bindModels(sequelize, app) }]));
    // Each app's live-update channel kinds: a subscription needs the kind's permission, then the app's own rule.
    for (const app of registry.withCode()) {
      const kinds = app.definition!.live;
      if (Object.keys(kinds).length === 0) continue;
      const runtime = bound.get(app.namespace)!;
      hub.declareChannels(
        app.namespace,
        Object.fromEntries(
          Object.entries(kinds).map(([kind, declared]) => {
            if (!/^[a-z][a-z0-9-]{0,40}$/.test(kind)) throw new Error(`${app.namespace}: live channel kind ${JSON.stringify(kind)} must be 1-41 lower-case letters, digits or dashes`);
            if (!app.declaredKeys.includes(declared.permission)) throw new Error(`${app.namespace}: live channel kind ${kind} needs ${declared.permission}, which the manifest does not declare`);
            return [kind, { permission: declared.permission, signals: declared.signals === true, authorize: (input: Parameters<AppPipeline['authorizeChannel']>[2]) => pipeline.authorizeChannel(runtime, kind, input) }];
          }),
        ),
      );
    }

    // Each app's signaling session kinds: joining needs the kind's permission, then the app's own rule.
    for (const app of registry.withCode()) {
      const kinds = app.definition!.signaling ?? {};
      if (Object.keys(kinds).length === 0) continue;
      const runtime = bound.get(app.namespace)!;
      signaling.hub.declareKinds(
        app.namespace,
        Object.fromEntries(
          Object.entries(kinds).map(([kind, declared]) => {
            if (!/^[a-z][a-z0-9-]{0,40}$/.test(kind)) throw new Error(`${app.namespace}: signaling session kind ${JSON.stringify(kind)} must be 1-41 lower-case letters, digits or dashes`);
            if (!app.declaredKeys.includes(declared.permission)) throw new Error(`${app.namespace}: signaling session kind ${kind} needs ${declared.permission}, which the manifest does not declare`);
            return [kind, { permission: declared.permission, authorize: (input: Parameters<AppPipeline['authorizeChannel']>[2]) => pipeline.authorizeChannel(runtime, kind, input, 'signaling') }];
          }),
        ),
      );
    }

    const emitDenial = permissionDeniedEmitter(bus, logger);
    const onDenied = seams.accessDenied
      ? (denial: Parameters<typeof emitDenial>[0]) => {
          seams.accessDenied!(denial);
          emitDenial(denial);
        }
      : emitDenial;
    await mountAppRoutes(server, { sequelize, registry, bound, pipeline, installations, onDenied });
    server.route(
      appEndpoints({
        sequelize,
        logger,
        installations,
        notifications,
        apps: registry,
        sink,
      }),
    );
    joinEventBus(bus, { registry, bound, pipeline, installations });
    return { host: new AppHost({ registry, sequelize, workspaces: deps.tenancy.workspaces, installations, notifications, pipeline, bound, strict, logger }) };
  },
});

