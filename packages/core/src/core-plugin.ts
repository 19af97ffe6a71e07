import type { Plugin, PluginProperties, Server } from '@hapi/hapi';
import type { CoreInputs } from './core-inputs.js';

/** A runtime input a core plugin reads (`inputs.config`, `inputs.clock`, ...): a part of what `Runtime.create` opened and was given. */
export interface InputDep<T> {
  readonly read: (inputs: CoreInputs) => T;
}

/** What another core plugin exposes (`plugins.db`, `plugins['app-catalog']`, ...); declaring it also orders this plugin after that one. */
export interface PluginDep<N extends keyof PluginProperties> {
  readonly plugin: N;
}

/** A core plugin's `deps`: the names its `register` gets them under, and what each one is. */
export type CoreDeps = Record<string, InputDep<unknown> | PluginDep<keyof PluginProperties>>;

/** What `register` receives for its `deps`: each input's value, each plugin's exposed services (typed by that plugin's `PluginProperties` declaration). */
export type ResolvedDeps<D extends CoreDeps> = {
  readonly [K in keyof D]: D[K] extends PluginDep<infer N extends keyof PluginProperties> ? PluginProperties[N] : D[K] extends InputDep<infer T> ? T : never;
};

const input = <T>(read: (inputs: CoreInputs) => T): InputDep<T> => ({ read });

/** The runtime inputs a core plugin may declare in its `deps`. */
export const inputs = {
  config: input((all) => all.config),
  logger: input((all) => all.logger),
  /** The runtime's clock (`seams.clock`, the system's unless a test gave one). */
  clock: input((all) => all.seams.clock),
  /** The substitutes given before boot (`RuntimeSeams`, the clock filled in). */
  seams: input((all) => all.seams),
  /** The opened database (the `db` plugin's; every other plugin reads `plugins.db`). */
  database: input((all) => all.database),
  /** The apps, loaded and validated before anything opened (the `app-catalog` plugin's). */
  apps: input((all) => all.apps),
  /** The event bus options (the `events` plugin's). */
  events: input((all) => all.events),
};

/**
 * Every core plugin's exposed services as a dependency: `plugins.db` is `{ plugin: 'db' }`, typed
 * by the `PluginProperties` declaration at the top of the db plugin's `plugin.ts`.
 */
export const plugins = new Proxy({}, { get: (_target, name) => (typeof name === 'string' ? { plugin: name } : undefined) }) as { readonly [N in keyof PluginProperties]-?: PluginDep<N> };

/**
 * The server a core plugin registers its routes and hooks on. It has no `plugins` (another
 * plugin's services come through declared `deps`) and no `expose` (what `register` returns is
 * exposed): reading either is a type error.
 */
export type CoreServer = Server & { readonly plugins: never; readonly expose: never };

/** What a plugin exposes: its `PluginProperties` entry, or nothing when it declares none. */
export type Exposed<N extends string> = N extends keyof PluginProperties ? PluginProperties[N] : void;

export interface CorePluginDefinition<N extends string, D extends CoreDeps> {
  name: N;
  /** Everything `register` reads: runtime inputs (`inputs.*`) and other plugins' services (`plugins.*`). */
  deps: D;
  /** Plugins this one must follow though it reads nothing of theirs (its hooks run after theirs), by name. */
  after?: readonly string[];
  /** Registers routes and hooks with exactly the declared deps; returns what the plugin exposes (`server.plugins[name]`). */
  register(server: CoreServer, deps: ResolvedDeps<D>): Exposed<N> | Promise<Exposed<N>>;
}

/** A core concern as a hapi plugin: `name`, `dependencies` (names of other core plugins), `register(server, inputs)`. */
export type CorePlugin = Plugin<CoreInputs> & { name: string; dependencies: string[] };

/**
 * A core plugin from its definition. Its `dependencies` are the plugins of its `deps`, then its
 * `after` (`orderPlugins` orders by them); when registered it reads its deps from the runtime's
 * inputs and the plugins registered before it, and exposes what its `register` returns.
 */
export function defineCorePlugin<N extends string, D extends CoreDeps>(definition: CorePluginDefinition<N, D>): CorePlugin {
  const { name, deps, after = [] } = definition;
  const reads = Object.values(deps).flatMap((dep) => ('plugin' in dep ? [dep.plugin] : []));
  return {
    name,
    dependencies: [...new Set([...reads, ...after])],
    async register(server, all) {
      const given = Object.fromEntries(Object.entries(deps).map(([key, dep]) => [key, 'plugin' in dep ? server.plugins[dep.plugin] : dep.read(all)]));
      const exposed: object | void = await definition.register(server as CoreServer, given as ResolvedDeps<D>);
      for (const [key, value] of Object.entries(exposed ?? {})) server.expose(key, value);
    },
  };
}
