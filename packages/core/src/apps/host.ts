import type { DeliveredEvent, SearchDocument } from '@wpk/sdk';
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
}

/**
 * The apps of a running runtime (`runtime.apps`): what was loaded (the registry), where each is
 * installed, and what runs them: in-process deliveries, strict-mode roles, search access.
 * Installation state is read from the database on every call; nothing about access is cached.
 */
export class AppHost {
  constructor(private readonly parts: AppHostParts) {}

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
