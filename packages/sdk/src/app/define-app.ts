import type { AppManifest, AuthorizationEntry, ChainStep } from '../manifest/types.js';
import { validateManifest, type ManifestCodeFacts, type ValidateManifestOptions } from '../manifest/validate.js';
import type { ManifestProblem } from '../manifest/types.js';
import type { AppContext, AppTypes, ContextApp, ContextKey, ContextMember, ContextPermissions, ContextWorkspace, DeliveredEvent, EventContext, PayloadOf, SearchDocument, AppLogger, UntypedApp } from './context.js';
import type { AppDb, ModelMap } from './models.js';
import type { AnyAppRoute, AppRequest, RouteRateLimit } from './routes.js';

/** What a migration of the app receives. It runs with `search_path` set to the app's schema. */
export interface AppMigrationContext {
  /** The app's schema (`app_tasks`, `ext_acme_hello`); unqualified table names land there. */
  schema: string;
  /** Runs SQL inside the migration's transaction; `:name` placeholders take `replacements`. */
  query(sql: string, replacements?: Record<string, unknown>): Promise<unknown[]>;
}

/** One migration of the app: an ordered unique name (`0001-create-greetings`) and its two directions. */
export interface AppMigration {
  /** Unique, sortable name. */
  name: string;
  /** Applies the change. */
  up(context: AppMigrationContext): Promise<void>;
  /** Reverts it. */
  down?(context: AppMigrationContext): Promise<void>;
}

/** What a named check receives besides the request: the caller and the app's data. */
export interface CheckContext<M extends ModelMap = ModelMap> {
  /** The app. */
  app: ContextApp;
  /** The workspace. */
  workspace: ContextWorkspace;
  /** The caller. */
  member: ContextMember;
  /** The API key used, or null. */
  key: ContextKey | null;
  /** The caller's permissions in this app. */
  permissions: ContextPermissions;
  /** The app's models (read them; a check writes nothing). */
  db: AppDb<M>;
  /** Logger. */
  log: AppLogger;
}

/** A check's answer: true passes; false or `{deny: message}` fails (403 with that message). */
export type CheckResult = boolean | { deny: string };

/**
 * A named check of the authorization table (e.g. `task_creator`: "is the caller the record's
 * creator"). It runs before the handler, on the raw path parameters (validation comes later).
 */
export type AppCheck<M extends ModelMap = ModelMap> = (request: AppRequest<unknown>, ctx: CheckContext<M>) => CheckResult | Promise<CheckResult>;

/**
 * Receives one delivered event; runs in one transaction scoped to the event's workspace. Return
 * to acknowledge (200). A throw rolls the transaction back, then: a transient failure (see
 * `isTransientError`: `RetryDeliveryError`, serialization failure, deadlock, unique violation
 * from a concurrent delivery, lock or statement timeout, lost connection) answers 503 and the
 * broker retries, up to the subscription's `max_retries`; any other error is permanent: logged
 * and answered 200, never retried. Deliveries are at least once and may run concurrently, so
 * write with `ctx.db.X.upsert` or keyed rows rather than look-up-then-insert.
 */
export type SubscriptionHandler<M extends ModelMap = ModelMap, T extends AppTypes = UntypedApp, A extends string = string> = (event: DeliveredEvent<A, PayloadOf<T['receives'], A> & object>, ctx: EventContext<M, T>) => unknown;

/** Every subscription handler of an app with generated types, by action: `SubscriptionHandlers<Models, AppTypes>`. */
export type SubscriptionHandlers<M extends ModelMap = ModelMap, T extends AppTypes = UntypedApp> = { [A in keyof T['receives'] & string]: SubscriptionHandler<M, T, A> };

/** Hooks of one searchable type. */
export interface SearchHooks<M extends ModelMap = ModelMap, T extends AppTypes = UntypedApp> {
  /**
   * Every document of the type in the context's workspace, for a full re-index (`wpk search
   * reindex`): the platform replaces the type's documents in that workspace with these, in one
   * transaction. Read with `ctx.db` (scoped to the workspace); return an array or an iterable.
   */
  reindex?(ctx: EventContext<M, T>): AsyncIterable<SearchDocument> | Iterable<SearchDocument> | Promise<SearchDocument[]>;
}

/**
 * What a long-lived service of the app (a listener, a poller) gets from the runtime that starts
 * it: the app, a logger, and a way to work in one workspace at a time with the context a
 * subscription handler gets.
 */
export interface AppServiceHost<M extends ModelMap = ModelMap, T extends AppTypes = UntypedApp> {
  /** The app. */
  app: ContextApp;
  /** Logger tagged with the app. */
  log: AppLogger;
  /** The workspaces where the app is installed now. */
  workspaces(): Promise<string[]>;
  /** The platform's clock (the test harness's in tests), as `ctx.now()`. */
  now(): Date;
  /**
   * Runs `work` in one transaction scoped to the workspace (events staged in it are written when
   * it commits; a throw rolls it back and rethrows). Null when the app is not installed there.
   */
  run<R>(workspaceId: string, work: (ctx: EventContext<M, T>) => Promise<R>): Promise<R | null>;
  /** The workspace holding `name` of `kind` among this app's claims (`ctx.claims`), or null. */
  claimant(kind: string, name: string): Promise<string | null>;
}

/**
 * A long-lived part of an app (an SMTP listener, say): started by `runtime.start()` after the
 * server listens (tests: `runtime.apps.startServices()`), stopped by `runtime.stop()`.
 */
export interface AppService<M extends ModelMap = ModelMap, T extends AppTypes = UntypedApp> {
  /** Starts it; the runtime waits for the promise. A throw stops start-up. */
  start(host: AppServiceHost<M, T>): Promise<void> | void;
  /** Stops it (close listeners, finish work in flight). */
  stop(): Promise<void> | void;
}

/** One kind of live-update channel of the app (`chats`: channels `{app}/chats/{id}`). */
export interface LiveChannelKind<M extends ModelMap = ModelMap> {
  /** The permission key a subscriber needs (layer 5; layer 4, the app's access, comes first). */
  permission: string;
  /**
   * The app's own rule for one channel, run when a member subscribes (is the member a participant
   * of this chat?). Read with `ctx.db`; return true to admit. Later losses of access at the app's
   * level are announced with `ctx.live.publish(..., { revoke: [memberId] })`.
   */
  authorize?(id: string, ctx: CheckContext<M>): boolean | Promise<boolean>;
  /**
   * Whether subscribers may send each other ephemeral `signal` messages on this kind's channels
   * (a cursor, a selection): relayed to the channel's other sockets, never stored (default false).
   */
  signals?: boolean;
}

/**
 * One kind of signaling session of the app (`calls`: sessions `{app}/calls/{id}`): who may join
 * one. The signaling socket checks layer 4 (the app's access) and layer 5 (`permission`), then
 * the app's own rule.
 */
export interface SignalingSessionKind<M extends ModelMap = ModelMap> {
  /** The permission key a peer needs to join (layer 5). */
  permission: string;
  /**
   * May this member join session `id` (a participant of the call, a member of the room)? Run on
   * every `join`, with `ctx.db` in a read transaction; return true to admit.
   */
  authorize?(id: string, ctx: CheckContext<M>): boolean | Promise<boolean>;
}

/** The code parts of an app, given to defineApp. */
export interface AppParts<M extends ModelMap = ModelMap> {
  /** Every route (each needs an entry in the manifest's authorization table). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route fixes its own app types
  routes?: AnyAppRoute<M, any>[];
  /** Migrations of the app's schema, in order. */
  migrations?: AppMigration[];
  /** Models, by the name used in `ctx.db`. */
  models?: M;
  /** Named checks used by the authorization table. */
  checks?: Record<string, AppCheck<M>>;
  /** Subscription handlers, by event action (each declared in the manifest's subscriptions). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each handler fixes its own event payload
  subscriptions?: Record<string, SubscriptionHandler<M, any, any>>;
  /** Search hooks, by searchable type. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each searchable type fixes its own record
  search?: Record<string, SearchHooks<M, any>>;
  /** Long-lived services, by name (started with the runtime). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each service fixes its own handle
  services?: Record<string, AppService<M, any>>;
  /** Live-update channel kinds, by kind (`chats`, `boards`). */
  live?: Record<string, LiveChannelKind<M>>;
  /** WebRTC signaling session kinds, by kind (`calls`, `rooms`). */
  signaling?: Record<string, SignalingSessionKind<M>>;
}

/** An app as the runtime loads it: the manifest and the code. The default export of an app's entry module. */
export interface AppDefinition<M extends ModelMap = ModelMap> {
  /** Marks the object as an app definition. */
  readonly kind: 'wpk.app';
  /** The manifest (app.json). */
  readonly manifest: AppManifest;
  /** Routes. */
  readonly routes: AnyAppRoute<M>[];
  /** Migrations. */
  readonly migrations: AppMigration[];
  /** Models. */
  readonly models: M;
  /** Named checks. */
  readonly checks: Record<string, AppCheck<M>>;
  /** Subscription handlers by action. */
  readonly subscriptions: Record<string, SubscriptionHandler<M>>;
  /** Search hooks by type. */
  readonly search: Record<string, SearchHooks<M>>;
  /** Long-lived services by name. */
  readonly services: Record<string, AppService<M>>;
  /** Live-update channel kinds. */
  readonly live: Record<string, LiveChannelKind<M>>;
  /** Signaling session kinds. */
  readonly signaling: Record<string, SignalingSessionKind<M>>;
}

/**
 * An app definition whatever its models (what the loader, the CLI and the harness hold). `M`
 * appears both in and out of the definition's handlers, so no concrete ModelMap stands for every
 * app; `any` is TypeScript's way to say "some M".
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an existential: some app's models
export type AnyAppDefinition = AppDefinition<any>;

/**
 * Declares an app: `export default defineApp(manifest, { routes, migrations, models, checks,
 * subscriptions, search, live, signaling })`. The runtime validates the manifest against the code at start-up.
 */
export function defineApp<M extends ModelMap = ModelMap>(manifest: object, parts: AppParts<M> = {}): AppDefinition<M> {
  const migrations = parts.migrations ?? [];
  const names = new Set<string>();
  for (const migration of migrations) {
    if (!migration || typeof migration.name !== 'string' || typeof migration.up !== 'function') throw new TypeError('defineApp: every migration needs a name and an up function');
    if (names.has(migration.name)) throw new TypeError(`defineApp: migration "${migration.name}" appears twice`);
    names.add(migration.name);
  }
  for (const [name, service] of Object.entries(parts.services ?? {})) {
    if (!service || typeof service.start !== 'function' || typeof service.stop !== 'function') throw new TypeError(`defineApp: service "${name}" needs start and stop functions`);
  }
  const limitNames = new Set<string>();
  for (const route of parts.routes ?? []) {
    if (!route || typeof route.handler !== 'function' || typeof route.path !== 'string') throw new TypeError('defineApp: every route needs a method, a path and a handler');
    for (const limit of route.rateLimits ?? []) checkRateLimit(route, limit, limitNames);
  }
  return Object.freeze({
    kind: 'wpk.app' as const,
    manifest: manifest as AppManifest,
    routes: [...(parts.routes ?? [])],
    migrations: [...migrations],
    models: (parts.models ?? {}) as M,
    checks: { ...(parts.checks ?? {}) },
    subscriptions: { ...(parts.subscriptions ?? {}) },
    search: { ...(parts.search ?? {}) },
    services: { ...(parts.services ?? {}) },
    live: { ...(parts.live ?? {}) },
    signaling: { ...(parts.signaling ?? {}) },
  });
}

/** A route's rate limit must name its counter once, count by the client or a parameter of the path, and stay within the bounds. */
function checkRateLimit(route: { path: string; public?: boolean }, limit: RouteRateLimit, names: Set<string>): void {
  const { path } = route;
  const where = `defineApp: rate limit ${JSON.stringify(limit?.name)} of ${path}`;
  if (!limit || typeof limit.name !== 'string' || !/^[a-z0-9][a-z0-9-]{0,49}$/.test(limit.name)) throw new TypeError(`${where}: the name must be 1-50 lower-case letters, digits or dashes`);
  if (names.has(limit.name)) throw new TypeError(`${where}: the name is used twice`);
  names.add(limit.name);
  if (limit.per === 'member') {
    if (route.public === true) throw new TypeError(`${where}: per 'member' needs a caller, and a public route has none`);
  } else if (limit.per !== 'client' && !(typeof limit.per === 'string' && limit.per.startsWith('param:') && path.includes(`{${limit.per.slice(6)}}`))) {
    throw new TypeError(`${where}: per must be 'client', 'member' or 'param:{name}' of a parameter of the path`);
  }
  if (!Number.isInteger(limit.limit) || limit.limit < 1 || limit.limit > 1_000_000) throw new TypeError(`${where}: limit must be an integer 1-1000000`);
  if (!Number.isInteger(limit.windowSeconds) || limit.windowSeconds < 1 || limit.windowSeconds > 86_400) throw new TypeError(`${where}: windowSeconds must be an integer 1-86400`);
  if (typeof limit.message !== 'string' || limit.message.length < 1 || limit.message.length > 300) throw new TypeError(`${where}: the message must be 1-300 characters`);
}

/** True for the object defineApp returns (checked by shape, so two copies of the SDK agree). */
export function isAppDefinition(value: unknown): value is AppDefinition {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'wpk.app' && typeof (value as { manifest?: unknown }).manifest === 'object';
}

/** What of an app's code the validator cross-checks against the manifest. */
export function codeFacts(app: AnyAppDefinition): ManifestCodeFacts {
  return {
    routes: app.routes.map((route) => ({ method: route.method, path: route.path, public: route.public === true, ...(route.public === true ? {} : { chain: (route as { chain?: unknown[] }).chain }) })),
    checks: Object.keys(app.checks),
    subscriptions: Object.keys(app.subscriptions),
    search: Object.keys(app.search),
  };
}

/**
 * The manifest's authorization table as the app's code declares it: one entry per route, in the
 * code's order, with its chain (or `public: true`) and description. What `wpk manifest` writes
 * into app.json; a route without a chain in the code keeps the table's entry as it is (apps
 * written before chains moved into the code).
 */
export function authorizationTable(app: AnyAppDefinition): AuthorizationEntry[] {
  const current = new Map((app.manifest.authorization ?? []).map((entry) => [`${entry.method.toUpperCase()} ${entry.path}`, entry]));
  return app.routes.map((route) => {
    const description = route.description ?? current.get(`${route.method.toUpperCase()} ${route.path}`)?.description;
    const chain = route.public === true ? undefined : ((route as { chain?: ChainStep[] }).chain ?? current.get(`${route.method.toUpperCase()} ${route.path}`)?.chain);
    return {
      method: route.method,
      path: route.path,
      ...(route.public === true ? { public: true } : { chain: chain ?? [] }),
      ...(description === undefined ? {} : { description }),
    };
  });
}

/** Validates an app definition: its manifest, cross-checked against its code. */
export function validateApp(app: AnyAppDefinition, options: Omit<ValidateManifestOptions, 'code'>): ManifestProblem[] {
  return validateManifest(app.manifest, { ...options, code: codeFacts(app) });
}

/** The handler context type of an app's models (for typing services): `type Ctx = ContextOf<typeof models>`. */
export type ContextOf<M extends ModelMap> = AppContext<M>;
