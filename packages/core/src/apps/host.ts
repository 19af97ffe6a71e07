import type { AppService, AppServiceHost, BaseContext, DeliveredEvent, SearchDocument } from '@wpk/sdk';
import type { Logger } from 'pino';
import type { Sequelize } from 'sequelize';
import { isInstalled } from '../access/index.js';
import type { MigrationSet } from '../db/index.js';
import type { Workspace, WorkspaceService } from '../tenancy/index.js';
import type { InstallationService } from './installations.js';
import type { LoadedApp } from './loader.js';
import type { NotificationService } from '../notifications/index.js';
import type { AppPipeline, AppRuntime } from './pipeline.js';
import type { AppRegistry, AppParticipant } from './registry.js';
import { appSearchAccess, type AppSearchAccess } from './search-access.js';
import type { StrictRoles } from './strict-roles.js';
import { claimant } from './claims.js';

/** The parts `AppHost` is made of (built by the `apps` plugin). */
export interface AppHostParts {
  registry: AppRegistry;
  sequelize: Sequelize;
  workspaces: WorkspaceService;
  installations: InstallationService;
  notifications: NotificationService;
  pipeline: AppPipeline;
  bound: ReadonlyMap<string, AppRuntime>;
  strict: StrictRoles | null;
  logger: Logger;
}

/**
 * The apps of a running runtime (`runtime.apps`): what was loaded (the registry), where each is
 * installed, and what runs them: in-process deliveries, strict-mode roles, search access.
 * Installation state is read from the database on every call; nothing about access is cached.
 */
export class AppHost {
  private readonly running: Array<{ namespace: string; name: string; service: AppService }> = [];

  constructor(private readonly parts: AppHostParts) {}

  /**
   * Starts every app's long-lived services (`defineApp({ services })`), in load order; a
   * service that fails to start stops the ones already started and the error propagates.
   * `runtime.start()` calls it after the server listens; tests call it themselves.
   */
  async startServices(): Promise<void> {
    for (const app of this.parts.registry.withCode()) {
      for (const [name, service] of Object.entries(app.definition!.services ?? {})) {
        if (this.running.some((entry) => entry.namespace === app.namespace && entry.name === name)) continue;
        try {
          await service.start(this.serviceHost(app));
        } catch (error) {
          await this.stopServices();
          throw new Error(`${app.namespace}: service ${name} did not start: ${(error as Error).message}`, { cause: error });
        }
        this.running.push({ namespace: app.namespace, name, service });
      }
    }
  }

  /** Stops the started services, last started first (`runtime.stop()` calls it); a failure is logged. */
  async stopServices(): Promise<void> {
    while (this.running.length > 0) {
      const { namespace, name, service } = this.running.pop()!;
      try {
        await service.stop();
      } catch (error) {
        this.parts.logger.warn({ err: error, app: namespace, service: name }, 'stopping an app service failed');
      }
    }
  }

  private serviceHost(app: LoadedApp): AppServiceHost {
    const { workspaces, installations, pipeline, bound } = this.parts;
    const logger = this.parts.logger.child({ app: app.namespace });
    const call = (level: 'debug' | 'info' | 'warn' | 'error') => (objectOrMessage: object | string, message?: string) => {
      if (typeof objectOrMessage === 'string') logger[level](objectOrMessage);
      else logger[level](objectOrMessage, message);
    };
    return Object.freeze({
      app: Object.freeze({ slug: app.slug, id: app.namespace, name: app.manifest.name, version: app.manifest.version }),
      log: Object.freeze({ debug: call('debug'), info: call('info'), warn: call('warn'), error: call('error') }),
      workspaces: () => installations.workspacesWith(app.namespace),
      now: () => pipeline.now(),
      run: async <R>(workspaceId: string, work: (ctx: BaseContext) => Promise<R>): Promise<R | null> => {
        const workspace = await workspaces.findById(workspaceId);
        if (!workspace) return null;
        const installation = await installations.find(workspace.id, app.namespace);
        if (!isInstalled(installation)) return null;
        return pipeline.runService(bound.get(app.namespace)!, workspace, installations.effectiveSettings(app, installation), work);
      },
      claimant: (kind: string, name: string) => claimant(this.parts.sequelize, { app: app.namespace, kind, name }),
    }) as AppServiceHost;
  }

  /** True when each app runs under its own database role. */
  get strict(): boolean {
    return this.parts.registry.strict;
  }

  /** The installation, settings and role-slice service. */
  get installations(): InstallationService {
    return this.parts.installations;
  }

  /** The notification store. */
  get notifications(): NotificationService {
    return this.parts.notifications;
  }

  /** Every loaded app, in load order. */
  list(): LoadedApp[] {
    return this.parts.registry.list();
  }

  /** The app with this namespace (`tasks`, `ext.acme.hello`), or undefined. */
  get(namespace: string): LoadedApp | undefined {
    return this.parts.registry.get(namespace);
  }

  /** The app with this namespace; 404 when none. */
  require(namespace: string): LoadedApp {
    return this.parts.registry.require(namespace);
  }

  /** One migration set per app with code. */
  migrationSets(): MigrationSet[] {
    return this.parts.registry.migrationSets();
  }

  /** Every app as an event-bus participant. */
  participants(): AppParticipant[] {
    return this.parts.registry.participants();
  }

  /** The handler path of each in-process subscription, served under the app's route prefix. */
  subscriptionRoutes(): Array<{ app: LoadedApp; action: string; path: string }> {
    return this.parts.registry.subscriptionRoutes();
  }

  /**
   * Hands a delivered event to an in-process app's subscription handler. Returns `skipped` when
   * the workspace is gone or the app is not installed there; throws when the handler fails (the
   * delivery answers non-200 and the broker retries).
   */
  async dispatch(namespace: string, event: DeliveredEvent): Promise<'handled' | 'skipped'> {
    const { workspaces, installations, pipeline, bound } = this.parts;
    const app = this.require(namespace);
    if (!app.definition) throw new Error(`${namespace} is a remote app: its deliveries go to ${app.address}`);
    const workspaceId = event.metadata?.workspace_id;
    const workspace = typeof workspaceId === 'string' ? await workspaces.findById(workspaceId) : null;
    if (!workspace) return 'skipped';
    const installation = await installations.find(workspace.id, namespace);
    if (!isInstalled(installation)) return 'skipped';
    await pipeline.deliver(bound.get(namespace)!, workspace, installations.effectiveSettings(app, installation), event);
    return 'handled';
  }

  /** What the platform search needs from apps and access (see `appSearchAccess`). */
  searchAccess(): AppSearchAccess {
    return appSearchAccess(this.parts.registry, this.parts.installations, this.parts.sequelize);
  }

  /** Strict mode: creates and grants each app's role (after the app schemas are migrated). */
  async afterMigrate(): Promise<void> {
    const strict = this.parts.strict;
    if (!strict) return;
    for (const app of this.parts.registry.withCode()) await strict.grant(app);
  }

  /** Strict mode, tests: drops the app roles of this database. */
  async dropStrictRoles(): Promise<void> {
    await this.parts.strict?.drop(this.parts.registry.withCode());
  }

  /** The strict-mode role of an app (for diagnostics and tests); null when strict mode is off. */
  strictRoleOf(namespace: string): string | null {
    const strict = this.parts.strict;
    return strict ? strict.roleName(this.require(namespace)) : null;
  }

  /** The searchable types of an app that have a `reindex` hook in its code, in the manifest's order. */
  reindexableTypes(namespace: string): string[] {
    const app = this.require(namespace);
    return (app.manifest.search ?? []).map((entry) => entry.type).filter((type) => typeof app.definition?.search[type]?.reindex === 'function');
  }

  /**
   * Runs an app's `reindex` hook of `type` in a workspace where it is installed; `write` gets
   * the documents inside the hook's transaction. Returns how many, or null when the app is not
   * installed there (nothing runs).
   */
  async reindexType(namespace: string, workspace: Workspace, type: string, write: (documents: SearchDocument[]) => Promise<void>): Promise<number | null> {
    const { installations, pipeline, bound } = this.parts;
    const app = this.require(namespace);
    const installation = await installations.find(workspace.id, namespace);
    if (!isInstalled(installation)) return null;
    return pipeline.reindex(bound.get(namespace)!, workspace, installations.effectiveSettings(app, installation), type, write);
  }

  /** Workspaces where the app is installed (for re-indexing and maintenance jobs). */
  installedIn(namespace: string): Promise<string[]> {
    return this.parts.installations.workspacesWith(namespace);
  }

  /** The namespaces of the apps installed in the workspace (API keys' grantable scopes). */
  installedApps(workspaceId: string): Promise<string[]> {
    return this.parts.installations.installedApps(workspaceId);
  }
}
