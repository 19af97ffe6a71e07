import { NotFoundError } from '@wpk/sdk';
import type { MigrationSet } from '../db/index.js';
import { loadApps, type AppEntry, type LoadedApp } from './loader.js';
import { appMigration } from './migrations.js';
import { readProjectConfig } from './project-config.js';

/** 404 for a slug no loaded app has. */
export function unknownApp(namespace: string): NotFoundError {
  return new NotFoundError(`No app ${namespace} on this platform`);
}

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

/** A subscription participant as the event bus registers it. */
export interface AppParticipant {
  slug: string;
  firstParty: boolean;
  address: string | null;
  source: string;
  emits: Array<{ action: string; description: string; schema: Record<string, unknown>; redact?: string[] }>;
  subscriptions: Array<{ action: string; handler: string; max_retries?: number }>;
}

/**
 * The apps of this runtime as loaded and validated at start-up (refusing to start on any
 * problem): what each declares, its schema and migrations. Nothing here runs an app; the `apps`
 * plugin (plugin.ts) mounts them.
 */
export class AppRegistry {
  private readonly byNamespace: Map<string, LoadedApp>;

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

  /** True when an app with this namespace is loaded. */
  has(namespace: string): boolean {
    return this.byNamespace.has(namespace);
  }

  /** The app with this namespace; 404 when none. */
  require(namespace: string): LoadedApp {
    const app = this.byNamespace.get(namespace);
    if (!app) throw unknownApp(namespace);
    return app;
  }

  /** The loaded apps with code (in-process apps; remote apps have a manifest only). */
  withCode(): LoadedApp[] {
    return this.loaded.filter((app) => app.definition);
  }

  /** One migration set per app with code: its schema, its own bookkeeping table, its migrations. */
  migrationSets(): MigrationSet[] {
    return this.withCode().map((app) => ({ schema: app.schema, migrations: app.definition!.migrations.map((migration) => appMigration(app, migration)) }));
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

  /** The handler path of each in-process subscription, served under the app's route prefix. */
  subscriptionRoutes(): Array<{ app: LoadedApp; action: string; path: string }> {
    return this.withCode().flatMap((app) => (app.manifest.subscriptions ?? []).map((subscription) => ({ app, action: subscription.action, path: `${app.routePrefix}${subscription.handler}` })));
  }
}
