/**
 * The manifest (`app.json`): what an app declares to the platform. The JSON Schema shipped as
 * `@wpk/sdk/app.schema.json` describes the same shape for editors; `validateManifest` checks
 * both the shape and the specification's naming and scope rules.
 */

/** A JSON Schema object (draft-07), as an app declares it for event payloads and settings. */
export type JsonSchema = Record<string, unknown>;

/** HTTP methods an app route may use. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A meter an app bills usage on (`ctx.usage.record(name, microns)`). */
export interface MeterDefinition {
  /** 1-40 lower-case letters, digits or `_`, starting with a letter (`steps`). */
  name: string;
  /** What it pays for, as an invoice line and an admin read it. */
  description: string;
}

/** A permission an app declares: `key` is `{app}.{resource}.{action}` (`ext.{publisher}.{slug}.` prefix for third parties). */
export interface PermissionDefinition {
  /** The permission key, e.g. `tasks.tasks.create` or `ext.acme.hello.greetings.create`. */
  key: string;
  /** What an admin sees in the permission matrix. */
  label: string;
  /** Groups permissions in the matrix (e.g. "Tasks", "Boards"). */
  category: string;
}

/** A named check implemented in the app's code (`checks` of `defineApp`), e.g. "is the record's creator". */
export interface NamedCheckStep {
  /** The name of the check in the app's `checks`. */
  check: string;
  /** The 403 message when the check fails and returns no message of its own. */
  message?: string;
}

/** Passes when any one of its steps passes. */
export interface AnyOfStep {
  /** The alternatives: permission keys or named checks. */
  any_of: Array<string | NamedCheckStep>;
  /** The 403 message when none passes; default: the last failing step's message. */
  message?: string;
}

/** One step of an authorization chain: a permission key, a named check, or an any-of group. */
export type ChainStep = string | NamedCheckStep | AnyOfStep;

/** One row of the authorization table: method + route pattern → chain of checks (all must pass). */
export interface AuthorizationEntry {
  /** The HTTP method of the route. */
  method: HttpMethod;
  /** The route pattern as the app's code declares it (hapi syntax, `/greetings/{id}`). */
  path: string;
  /** The checks, in order; every step must pass. Required unless `public` is true. */
  chain?: ChainStep[];
  /** Marks a route with no chain as public (no credential, no access layers). */
  public?: boolean;
  /** Free text for the docs. */
  description?: string;
}

/** An event the app emits. */
export interface EmittedEvent {
  /** `{scope}.{app}.{resource}.{action}`, past tense (`core.tasks.task.created`, `ext.acme.hello.greeting.sent`). */
  action: string;
  /** What happened, for subscribers. */
  description: string;
  /** JSON Schema of the payload (an object). */
  schema: JsonSchema;
  /** Payload fields replaced by the broker before delivery (top-level property names, or dotted paths). */
  redact?: string[];
}

/** An event the app subscribes to. */
export interface Subscription {
  /** The event action to receive (any scope, `system.*` included). */
  action: string;
  /** The webhook path the broker posts deliveries to (conventionally `/events/{action-with-dashes}`). */
  handler: string;
  /** Retries after a failed delivery; default 3. */
  max_retries?: number;
}

/** A type of record the app makes searchable through the platform search. */
export interface SearchableType {
  /** The type name results carry (`task`, `greeting`). */
  type: string;
  /** Human label of the type. */
  label: string;
  /** Holding any one of these keys lets a member search this type. */
  permissions: string[];
  /** Name columns, most important first (a hit here outranks a detail hit). */
  names: string[];
  /** Detail columns. */
  details: string[];
}

/** The app's settings: a JSON Schema for the document and its defaults. */
export interface SettingsDefinition {
  /** JSON Schema of the whole settings document. */
  schema: JsonSchema;
  /** The document in effect until an admin saves one; must satisfy the schema. */
  defaults: Record<string, unknown>;
}

/** The app's tile in the launcher. */
export interface Tile {
  /** Label under the icon. */
  name: string;
  /** Icon name or URL. */
  icon: string;
  /** Optional accent colour (`#rrggbb`). */
  color?: string;
}

/** The whole manifest. */
export interface AppManifest {
  /** Editor hint: `./node_modules/@wpk/sdk/schema/app.schema.json`. */
  $schema?: string;
  /** The app's slug (`tasks`, `hello`). */
  slug: string;
  /** Third-party apps only: the publisher; the app's namespace becomes `ext.{publisher}.{slug}`. */
  publisher?: string;
  /** Display name. */
  name: string;
  /** Semantic version of the app. */
  version: string;
  /** One paragraph about the app. */
  description?: string;
  /** Remote apps only: the base URL where the app receives event deliveries. */
  address?: string;
  /** The launcher tile. */
  tile?: Tile;
  /** A folder of the app's package (relative to the manifest) served under `/public/apps/{slug}/*`. */
  public?: string;
  /**
   * First-party apps only: pages of the public folder (`call.html`) served without the sandbox, on
   * the workspace's origin, because they need what browsers refuse an opaque origin (a camera). A
   * listed page the public folder does not hold (`join.html`) is the app's built front-end.
   */
  same_origin_pages?: string[];
  /**
   * The app calls the workspace API as a member (`ctx.platform.request`, through the whole access
   * chain, narrowed to scopes the app names). Without it `ctx.platform` is null.
   */
  platform_requests?: boolean;
  /**
   * The meters the app bills usage on (`ctx.usage.record(meter, microns)`): the platform bills
   * each month's microns of each meter on the workspace's `usage` invoice. Without it `ctx.usage` is null.
   */
  meters?: MeterDefinition[];
  /** Every permission the app checks. */
  permissions: PermissionDefinition[];
  /** Every route of the app, with its chain of checks or `public: true`. */
  authorization: AuthorizationEntry[];
  /** Events the app emits. */
  events?: EmittedEvent[];
  /** Events the app receives. */
  subscriptions?: Subscription[];
  /** Searchable record types. */
  search?: SearchableType[];
  /** The settings schema and defaults. */
  settings?: SettingsDefinition;
}

/** One problem found in a manifest: the file, the path inside it, and what is wrong. */
export interface ManifestProblem {
  /** The manifest's file (as given to the validator), e.g. `plugins/tasks/app.json`. */
  file: string;
  /** Where in the document, e.g. `permissions[2].key` (empty for the whole document). */
  path: string;
  /** What is wrong. */
  message: string;
}
