import { randomUUID } from 'node:crypto';
import { createLogger, createScratchDatabase, distributionProblems, installResponseValidation, isInstalled, migrateDown, migrateUp, PLATFORM_DISTRIBUTION, Runtime, StatementRecorder, type AccessDenial, type AppEntry, type MailMessage, type ObservedEvent, type ResponseValidation, type RuntimeSeams, type ScratchDatabase, type SearchOperation } from '@wpk/core';
import { type AnyAppDefinition, type ChainStep } from '@wpk/sdk';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { isAppDefinition } from '@wpk/sdk/tooling';
import { TestClock } from './clock.js';

/** The API version every harness request sends. */
export const API_VERSION = '2026-11-01';

/** An app to load: the value `defineApp` returned, or the app's directory. */
/** An app under test: its directory, its defineApp value, or the value built in code with the directory its `ui/` and manifest are in (a front-end served from it). */
export type TestApp = AnyAppDefinition | string | { app: AnyAppDefinition; dir: string };

/** Options of createTestPlatform. */
export interface TestPlatformOptions {
  /**
   * The language model behind `/ai/commands` and `ctx.ai` (an OpenAI-compatible API: in tests, a
   * local server standing in for it); null: none; absent: from `AI_BASE_URL` as in production.
   */
  ai?: { baseUrl: string; model: string; apiKey?: string } | null;
  /** The apps under test. */
  apps: TestApp[];
  /** Load them as first-party (true: all; or a list of namespaces). First-party is the configuration's decision. */
  firstParty?: boolean | string[];
  /** Strict mode: each app under its own database role. */
  strictAppRoles?: boolean;
  /** Log level of the runtime (default `silent`; `WPK_LOG_LEVEL` wins). */
  logLevel?: string;
  /** Where relative app directories resolve (default: the working directory). */
  projectDir?: string;
  /**
   * Check every answer against the server's OpenAPI document (default true): a status the
   * operation does not declare, or a body that breaks its envelope or the error body, makes
   * `close()` throw, listing each one.
   */
  validateResponses?: boolean;
  /**
   * The platform's clock: a TestClock to share, or the instant it starts at (default: now). The
   * runtime reads it for sessions, API-key expiry, throttles and event stamps; move it with
   * `platform.clock.advance(...)`.
   */
  clock?: TestClock | Date;
  /**
   * Check the shape of every statement the runtime and the apps send (default true; also off with
   * `WPK_STATEMENT_CHECK=off`): a read or write of a tenant table (one with a `workspace_id`
   * column) that does not constrain `workspace_id` makes `close()` throw, listing each statement
   * and where it came from. Such a statement would reach every shard of a database distributed
   * by workspace. Migrations are not checked.
   */
  checkStatements?: boolean;
  /**
   * The port `platform.runtime.start()` listens on (default 0: any free one). Give a fixed free
   * port when the public URL must name it: a browser's `Origin` is then the workspace's own
   * (`http://{subdomain}.localhost:{port}`), and the links the platform hands out (signed files,
   * signaling tickets) carry the port.
   */
  port?: number;
  /**
   * Listen on a free loopback port (default false: requests go through `server.inject`), for
   * browser tests: workspaces answer at `http://{subdomain}.localhost:{port}` (browsers resolve
   * `*.localhost` to the loopback address), which is also the platform's public URL, so pages
   * posting to their own origin pass the cross-site check. `platform.url(subdomain, path)`
   * builds the address. The event bus is not started: deliveries stay the test's to make.
   */
  listen?: boolean;
}

/** A free TCP port on the loopback address. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The query-shape check, loaded with its parser (the real PostgreSQL parser, as WebAssembly) on first use. */
async function statementRecorder(options: TestPlatformOptions): Promise<StatementRecorder | null> {
  if (options.checkStatements === false || (process.env.WPK_STATEMENT_CHECK ?? '').toLowerCase() === 'off') return null;
  const { loadModule, parseSync } = await import('libpg-query');
  await loadModule();
  return StatementRecorder.install({ parse: parseSync as never });
}

/**
 * An event committed to the outbox, whoever staged it: an app (its request answered 2xx, or its
 * delivery succeeded), or the platform itself (`system.*`, `core.account.*`). The payload is the
 * one subscribers receive: null values removed, redacted fields in clear.
 */
export interface CapturedEvent {
  /** The event id. */
  id: string;
  /** The app namespace, `system` or `account`: who staged it. */
  emitter: string;
  action: string;
  payload: Record<string, unknown>;
  /** The metadata as written (`workspace_id`, `event_id`, `emitter`, `emitted_at` included). */
  metadata: Record<string, unknown>;
  workspaceId: string | null;
  /** Not to be delivered before this instant (`StageOptions.deliverAt`), or null. */
  deliverAt: Date | null;
  /** The dedupe key it was staged with, or null. */
  dedupeKey: string | null;
  /** Withdrawn before any delivery (`ctx.events.withdraw`): never delivered. */
  withdrawn?: true;
}

/**
 * What became of a delivery to one app, as the broker would see it: `handled` (200), `failed`
 * (the handler failed for good: answered 200 and logged, never retried), `retry` (a transient
 * failure: answered 503, the broker would try again), `skipped` (the app is not installed in
 * the workspace, so the broker would not deliver).
 */
export type DeliveryOutcome = 'handled' | 'failed' | 'retry' | 'skipped';

/** One route of a permission matrix and what the two callers got. */
export interface PermissionMatrixRow {
  /** `METHOD /path` as the authorization table declares it. */
  route: string;
  /** The keys its chain names (held by the `with` caller, none by the `without` one). */
  keys: string[];
  /** Why the route was not proven (public, or no permission key in its chain), else absent. */
  skipped?: string;
  /** What was left unproven: a named check in an any-of group can let a caller without the keys through (or refuse otherwise). */
  note?: string;
  /** Status and body the member without the keys got. */
  without?: { status: number; body: unknown };
  /** Status the member with the keys got (anything but a refusal of layers 4-5). */
  with?: { status: number };
}

/** Options of `TestWorkspace.permissionMatrix`. */
export interface PermissionMatrixOptions {
  /** Values of path parameters (`{ board_id: '...' }`); a parameter not given gets a random UUID. */
  params?: Record<string, string>;
  /** Request bodies by route (`'POST /boards'`); default `{}` for POST, PUT and PATCH. */
  payloads?: Record<string, unknown>;
}

/** A change an app made to the search index. */
export type CapturedSearchChange = SearchOperation & { workspaceId: string; app: string };

/** An HTTP answer. */
export interface TestResponse {
  status: number;
  /** The parsed JSON body (null when empty). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers loosely and assert their exact shape
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

/** Someone who sends requests: a member (session or API key), or nobody (public routes). */
export interface TestCaller {
  /** Sends a request; `payload` goes as JSON. */
  request(method: string, path: string, payload?: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  /** GET. */
  get(path: string, headers?: Record<string, string>): Promise<TestResponse>;
  /** POST. */
  post(path: string, payload?: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  /** PUT. */
  put(path: string, payload?: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  /** PATCH. */
  patch(path: string, payload?: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  /** DELETE. */
  delete(path: string, headers?: Record<string, string>): Promise<TestResponse>;
}

/** A member of a test workspace, signed in through the real sign-in flow. */
export interface TestMember extends TestCaller {
  id: string;
  /** `mrn:account:member:{id}`. */
  mrn: string;
  email: string;
  name: string;
  platformRole: 'owner' | 'admin' | 'member';
  /** The member's session cookie (`name=value`), as a browser sends it (a socket's upgrade, say). */
  cookie: string;
  /** A real API key of this member: full access, or scoped to `scopes`. Returns a caller using it. */
  apiKey(options?: { scopes?: string[] }): Promise<TestCaller & { secret: string }>;
}

/** What a new member gets. */
export interface MemberOptions {
  /** Platform role (default `member`). */
  platformRole?: 'admin' | 'member';
  /** Custom roles to hold (ids from `workspace.role`). */
  roles?: string[];
  /**
   * Permission keys to hold: a role holding them is made, given to the member and allowed to
   * open every app it touches. The quickest way to "a member who may do X".
   */
  permissions?: string[];
  name?: string;
  email?: string;
}

let sequence = 0;
let roleSequence = 0;

/** Every permission key a chain names (plain steps and the keys of any-of groups), in order. */
function chainKeys(chain: readonly ChainStep[]): string[] {
  const keys: string[] = [];
  for (const step of chain) {
    if (typeof step === 'string') keys.push(step);
    else if ('any_of' in step) for (const alternative of step.any_of) if (typeof alternative === 'string') keys.push(alternative);
  }
  return [...new Set(keys)];
}

/**
 * The 403 message a caller holding none of the app's keys gets from this chain, when it can be
 * known without running the app's checks (the first step is a key, or a group of keys); else null.
 */
function expectedRefusal(chain: readonly ChainStep[]): string | null {
  const [first] = chain;
  if (typeof first === 'string') return `Missing permission: ${first}`;
  if (first && 'any_of' in first && first.any_of.every((alternative) => typeof alternative === 'string')) {
    return first.message ?? `Missing permission: ${first.any_of[first.any_of.length - 1] as string}`;
  }
  return null;
}

/** What the seams record while the platform runs. */
interface Captured {
  denials: AccessDenial[];
  events: CapturedEvent[];
  search: CapturedSearchChange[];
  mails: MailMessage[];
}

/**
 * The runtime's seams (given before boot): the harness's clock, access denials, search-index changes recorded
 * into `captured` (after they are applied), and every mail (instead of sending it). Events are
 * recorded by an outbox observer (`events.observers`), which hears every emitter.
 */
function captureSeams(captured: Captured, clock: TestClock): RuntimeSeams {
  return {
    clock: () => clock.now(),
    accessDenied: (denial) => captured.denials.push(denial),
    searchIndexer: (inner) => ({
      async apply(scope, operations) {
        await inner.apply(scope, operations);
        captured.search.push(...operations.map((operation) => ({ ...operation, ...scope })));
      },
    }),
    mailer: {
      async send(message: MailMessage) {
        captured.mails.push(message);
        return { messageId: `harness-${captured.mails.length}` };
      },
      close() {},
    },
  };
}
const PASSWORD = 'harness-password-1';

/** Groups keys by the app they belong to (`ext.acme.hello.greetings.send` → `ext.acme.hello`). */
function byApp(keys: string[], namespaces: string[]): Record<string, string[]> {
  const slices: Record<string, string[]> = {};
  for (const key of keys) {
    const namespace = namespaces.filter((candidate) => key.startsWith(`${candidate}.`)).sort((a, b) => b.length - a.length)[0];
    if (!namespace) throw new Error(`${key} is not a key of any app loaded in this test platform (${namespaces.join(', ')})`);
    (slices[namespace] ??= []).push(key);
  }
  return slices;
}

/**
 * The real platform runtime with your apps, on a fresh database (embedded in memory, or a
 * scratch database on `TEST_DATABASE_URL`), migrated. It captures every event written to the
 * outbox, every search-index change and every notification mail.
 */
export class TestPlatform {
  /** Events committed to the outbox, whoever staged them (apps and the platform itself), oldest first. */
  readonly events: CapturedEvent[];
  /** Search-index changes, oldest first. */
  readonly search: CapturedSearchChange[];
  /** Every mail the platform sent (none leaves the process), oldest first. */
  readonly mails: MailMessage[];
  /** Access denials of layers 4 and 5 since the last `takeDenials()`, oldest first. */
  readonly denials: AccessDenial[];
  private readonly delivered = new Set<string>();

  private constructor(
    /** The runtime itself (server, database, registry) for anything the harness does not cover. */
    readonly runtime: Runtime,
    private readonly scratch: ScratchDatabase,
    /** The platform's clock: `advance()` it to expire sessions and keys, open throttle windows, bring delayed events due. */
    readonly clock: TestClock,
    captured: Captured,
    /** A data directory of its own (`ctx.storage`'s files, the secret key), removed by `close()`. */
    readonly dataDir: string,
  ) {
    this.events = captured.events;
    this.denials = captured.denials;
    this.search = captured.search;
    this.mails = captured.mails;
  }

  /** The query-shape check (null when `checkStatements: false`). */
  statements: StatementRecorder | null = null;

  /**
   * Sends the apps' queued mail now (`ctx.mail` queues with the work and sends after the commit,
   * in the background) and resolves with every mail sent so far (`mails`). Await it before
   * looking at `mails` after a request or delivery that sends mail.
   */
  async drainMail(): Promise<MailMessage[]> {
    await this.runtime.server.plugins.mail.outbox.drain();
    return this.mails;
  }

  /** Runs migrations outside the query-shape check (they span tenants by nature). */
  private migrating<T>(fn: () => Promise<T>): Promise<T> {
    return this.statements ? this.statements.during('migrations', fn) : fn();
  }

  /** The OpenAPI check of every answer (null when `validateResponses: false`). */
  readonly responses: ResponseValidation | null = null;

  /**
   * Boots the platform with `options.apps`; remember `close()`. With `listen: true` the free port
   * is chosen before boot (the public URL names it) and bound after the migrations, so another
   * process may take it in between: boot again on a new port, up to four times.
   */
  static async create(options: TestPlatformOptions): Promise<TestPlatform> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await TestPlatform.boot(options);
      } catch (error) {
        const taken = (error as NodeJS.ErrnoException | null)?.code === 'EADDRINUSE';
        if (!taken || !options.listen || options.port !== undefined || attempt === 4) throw error;
      }
    }
  }

  private static async boot(options: TestPlatformOptions): Promise<TestPlatform> {
    const firstParty = (namespace: string) => options.firstParty === true || (Array.isArray(options.firstParty) && options.firstParty.includes(namespace));
    const apps: AppEntry[] = options.apps.map((app) => {
      if (typeof app === 'string') return { dir: app, firstParty: options.firstParty === true };
      if (!isAppDefinition(app) && 'dir' in app && isAppDefinition(app.app)) {
        const manifest = app.app.manifest;
        return { app: app.app, dir: app.dir, firstParty: firstParty(manifest.publisher ? `ext.${manifest.publisher}.${manifest.slug}` : manifest.slug) };
      }
      if (!isAppDefinition(app)) throw new TypeError('createTestPlatform: each app is a defineApp(...) value or a directory');
      const namespace = app.manifest.publisher ? `ext.${app.manifest.publisher}.${app.manifest.slug}` : app.manifest.slug;
      return { app, firstParty: firstParty(namespace) };
    });
    const clock = options.clock instanceof TestClock ? options.clock : new TestClock(options.clock);
    const statements = await statementRecorder(options);
    const scratch = await createScratchDatabase(undefined, { apps, projectDir: options.projectDir, configFile: false });
    // ctx.storage works with no set-up: local disk under a temporary data directory.
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wpk-testing-'));
    const captured: Captured = { denials: [], events: [], search: [], mails: [] };
    const capture = (events: ObservedEvent[], withdrawn: string[] = []) => {
      const taken = new Set(withdrawn);
      if (taken.size > 0) for (const event of captured.events) if (taken.has(event.id)) event.withdrawn = true;
      captured.events.push(...events.map((event) => ({ id: event.id, emitter: event.emitter, action: event.action, payload: event.payload, metadata: event.metadata, workspaceId: event.workspaceId, deliverAt: event.deliverAt, dedupeKey: event.dedupeKey })));
    };
    const port = options.listen ? await freePort() : 0;
    let runtime: Runtime;
    try {
      runtime = await Runtime.create({
        ...(options.listen ? { host: '127.0.0.1', publicUrl: `http://localhost:${port}` } : {}),
        dataDir,
        logger: createLogger(process.env.WPK_LOG_LEVEL ?? options.logLevel ?? 'silent'),
        databaseUrl: scratch.url,
        inMemory: scratch.url === undefined,
        port: options.port ?? port,
        configFile: false,
        projectDir: options.projectDir,
        apps,
        strictAppRoles: options.strictAppRoles ?? false,
        ...(options.ai !== undefined ? { ai: options.ai } : {}),
        scryptLogN: 10,
        // Tests sign many members in at once from one address; the hashing bound is core's to test.
        passwordHashing: { perClient: 10_000, queue: 10_000 },
        // Given before boot: the runtime reads this clock, records search changes and mails, and
        // tells the harness of every event committed to the outbox.
        seams: captureSeams(captured, clock),
        events: { observers: [capture] },
      });
    } catch (error) {
      await scratch.drop();
      await rm(dataDir, { recursive: true, force: true });
      throw error;
    }
    const platform = new TestPlatform(runtime, scratch, clock, captured, dataDir);
    platform.statements = statements;
    if (options.validateResponses !== false) (platform as { responses: ResponseValidation | null }).responses = installResponseValidation(runtime.server, () => runtime.openApiDocument());
    try {
      await platform.migrating(() => runtime.migrate());
      await statements?.loadTenantTables((sql) => runtime.db.select<{ name: string }>(sql), Object.keys(PLATFORM_DISTRIBUTION.coordinator));
      if (options.listen) await runtime.server.start();
    } catch (error) {
      await platform.close();
      throw error;
    }
    return platform;
  }

  /** The address of `path` in a workspace (`http://acme.localhost:1234/path`) of a platform created with `listen: true`. */
  url(subdomain: string, path = '/'): string {
    const { port } = this.runtime.server.info;
    if (!port) throw new Error('platform.url: create the platform with listen: true');
    return `http://${subdomain}.localhost:${port}${path}`;
  }

  /** The namespaces of the loaded apps (`tasks`, `ext.acme.hello`). */
  get apps(): string[] {
    return this.runtime.apps.list().map((app) => app.namespace);
  }

  /** The served path of an app's route: `/ext/{publisher}/{slug}{path}` for a third-party app, `path` otherwise. */
  path(app: string, path: string): string {
    return `${this.runtime.apps.require(app).routePrefix}${path}`;
  }

  /** A new workspace (subdomain default `ws1`, `ws2`, ...) with a signed-in owner. */
  async workspace(subdomain?: string): Promise<TestWorkspace> {
    sequence += 1;
    const name = subdomain ?? `ws${sequence}`;
    const email = `owner${sequence}@${name}.test`;
    const created = await this.runtime.identity.createWorkspaceWithOwner({ subdomain: name, name: `${name} workspace`, ownerEmail: email, ownerPassword: PASSWORD, ownerName: `Owner of ${name}` });
    const owner = await signIn(this, name, created.memberId, email, `Owner of ${name}`, 'owner');
    return new TestWorkspace(this, created.workspaceId, name, owner);
  }

  /** Events captured so far, optionally only those of one action. */
  emitted(action?: string): CapturedEvent[] {
    return action ? this.events.filter((event) => event.action === action) : [...this.events];
  }

  /** Returns the events captured since the last call (and forgets them). */
  takeEvents(): CapturedEvent[] {
    return this.events.splice(0, this.events.length);
  }

  /** Returns the access denials recorded since the last call (and forgets them). */
  takeDenials(): AccessDenial[] {
    return this.denials.splice(0, this.denials.length);
  }

  /**
   * Delivers an event to every loaded app that subscribes to `action`, through the path the
   * broker takes: the payload is shaped as the outbox does (nulls removed, redacted fields sealed
   * and opened again) and validated against the action's schema (throws naming the problems,
   * as the broker would reject the event), the body is signed with the app's secret and POSTed
   * to the app's mounted subscription handler, whose answer follows the production rules (a
   * permanent failure still answers 200). Returns per app what became of it (DeliveryOutcome);
   * an app not installed in the workspace is `skipped`, as the broker would not deliver to it.
   */
  async deliver(workspace: TestWorkspace | string, action: string, payload: Record<string, unknown>, metadata: Record<string, unknown> = {}, options: { emitter?: string; attempt?: number; deliveryId?: string } = {}): Promise<Record<string, DeliveryOutcome>> {
    const workspaceId = typeof workspace === 'string' ? workspace : workspace.id;
    const results: Record<string, DeliveryOutcome> = {};
    for (const app of this.runtime.apps.list()) {
      const subscription = app.definition ? (app.manifest.subscriptions ?? []).find((candidate) => candidate.action === action) : undefined;
      if (!subscription) continue;
      if (!isInstalled(await this.runtime.apps.installations.find(workspaceId, app.namespace))) {
        results[app.namespace] = 'skipped';
        continue;
      }
      const request = this.runtime.events.deliveryRequest({ subscriber: app.namespace, handler: subscription.handler, workspaceId, action, payload, metadata, emitter: options.emitter, attempt: options.attempt, deliveryId: options.deliveryId });
      const response = await this.runtime.server.inject({ method: 'POST', url: request.path, headers: request.headers, payload: request.body, remoteAddress: '127.0.0.1' });
      const body = response.payload ? (JSON.parse(response.payload) as { received?: boolean; handled?: boolean }) : {};
      if (response.statusCode === 503) results[app.namespace] = 'retry';
      else if (response.statusCode === 200 && body.handled === false) results[app.namespace] = 'failed';
      else if (response.statusCode === 200 && body.received === true) results[app.namespace] = 'handled';
      else throw new Error(`delivery of ${action} to ${app.namespace}: ${response.statusCode} ${response.payload}`);
    }
    return results;
  }

  /**
   * Delivers, as the broker would, every captured event that is due by the platform's clock
   * (no `deliverAt`, or `deliverAt` reached) and not delivered by this method before, to the
   * loaded apps subscribing to it; oldest first. Returns what became of each, by event id.
   * Like the broker, it skips withdrawn events and a later event with the dedupe key and payload
   * of an earlier one. Move the clock (`platform.clock.advance`) to bring delayed events due. `workspace`: only
   * the events of that workspace.
   */
  async deliverDue(workspace?: TestWorkspace | string): Promise<Array<{ event: CapturedEvent; outcomes: Record<string, DeliveryOutcome> }>> {
    const now = this.clock.now().getTime();
    const only = typeof workspace === 'string' ? workspace : workspace?.id;
    // As the broker deduplicates: the first event of (workspace, action, dedupe key, payload) wins,
    // a later one is dropped; a withdrawn event claims nothing and is never delivered.
    const claims = new Set<string>();
    const duplicates = new Set<string>();
    for (const event of this.events) {
      if (event.withdrawn || event.dedupeKey === null) continue;
      const claim = JSON.stringify([event.workspaceId, event.action, event.dedupeKey, canonical(event.payload)]);
      if (claims.has(claim)) duplicates.add(event.id);
      else claims.add(claim);
    }
    const due = this.events.filter((event) => !this.delivered.has(event.id) && !event.withdrawn && !duplicates.has(event.id) && event.workspaceId && (only === undefined || event.workspaceId === only) && (!event.deliverAt || event.deliverAt.getTime() <= now));
    const done: Array<{ event: CapturedEvent; outcomes: Record<string, DeliveryOutcome> }> = [];
    for (const event of due) {
      this.delivered.add(event.id);
      const { workspace_id: _workspace, event_id: _id, emitter: _emitter, emitted_at: _at, ...metadata } = event.metadata;
      done.push({ event, outcomes: await this.deliver(event.workspaceId!, event.action, event.payload, metadata, { emitter: event.emitter }) });
    }
    return done;
  }

  /** Runs SQL against the test database (assertions on an app's own tables, e.g. `app_tasks.tasks`). */
  async query<T extends object = Record<string, unknown>>(sql: string, replacements: Record<string, unknown> = {}): Promise<T[]> {
    return this.runtime.db.select<T>(sql, replacements);
  }

  /**
   * What keeps the migrated schema from being distributed by workspace (docs/scale-out.md), as
   * `"schema.table: problem"` lines; empty when every table of the platform and of the loaded apps
   * follows the rules: `workspace_id uuid NOT NULL`, in every primary key and unique index and at
   * the same position in every foreign key between tenant tables; no `ON DELETE SET NULL`; no
   * trigger or identity column. An app's tests assert `t.deepEqual(await platform.distributionProblems(), [])`.
   */
  async distributionProblems(): Promise<string[]> {
    return (await distributionProblems(this.runtime.db.sequelize)).map((problem) => `${problem.table}: ${problem.problem}`);
  }

  /** Reverts an app's migrations (all of them, or down to `to`, `to` included); returns what was reverted. */
  async migrateDown(app: string, to: string | 0 = 0): Promise<string[]> {
    return this.migrating(() => migrateDown(this.runtime.db.sequelize, this.migrationSet(app), to));
  }

  /** Applies an app's pending migrations; returns what ran. */
  async migrateUp(app: string): Promise<string[]> {
    return this.migrating(() => migrateUp(this.runtime.db.sequelize, this.migrationSet(app)));
  }

  private migrationSet(app: string) {
    const schema = this.runtime.apps.require(app).schema;
    const set = this.runtime.migrationSets().find((candidate) => candidate.schema === schema);
    if (!set) throw new Error(`${app} has no migrations`);
    return set;
  }

  /** Stops the runtime and drops the scratch database. */
  async close(): Promise<void> {
    try {
      if (this.runtime.apps?.strict) await this.runtime.apps.dropStrictRoles();
      await this.runtime.stop();
    } finally {
      await this.scratch.drop();
      await rm(this.dataDir, { recursive: true, force: true });
    }
    this.responses?.assertClean();
    this.statements?.assertClean();
  }

  /** Follows an absolute link the platform handed out (a signed `ctx.storage` URL): GET it, or PUT `body` to it. */
  async follow(url: string, options: { method?: 'GET' | 'PUT'; body?: Buffer | string; headers?: Record<string, string> } = {}): Promise<TestResponse & { bytes: Buffer }> {
    const target = new URL(url);
    const response = await this.runtime.server.inject({
      method: options.method ?? 'GET',
      url: `${target.pathname}${target.search}`,
      headers: { host: target.host, ...options.headers },
      ...(options.body === undefined ? {} : { payload: options.body }),
    });
    const json = String(response.headers['content-type'] ?? '').startsWith('application/json');
    return { status: response.statusCode, body: json ? JSON.parse(response.payload) : null, headers: response.headers as TestResponse['headers'], bytes: response.rawPayload };
  }
}

/** A workspace of the test platform. */
export class TestWorkspace {
  constructor(
    private readonly platform: TestPlatform,
    readonly id: string,
    readonly subdomain: string,
    /** The owner, signed in. */
    readonly owner: TestMember,
  ) {}

  /** A caller with no credential (public routes). */
  get anonymous(): TestCaller {
    return caller(this.platform, this.subdomain, {});
  }

  /** A custom role; `permissions` are keys of loaded apps (`['ext.acme.hello.greetings.send']` or `{ 'ext.acme.hello': [...] }`). */
  async role(name: string, permissions: string[] | Record<string, string[]> = []): Promise<string> {
    const created = await this.owner.post('/roles', { name });
    if (created.status !== 200) throw new Error(`POST /roles: ${created.status} ${JSON.stringify(created.body)}`);
    const roleId = created.body.data.id as string;
    const slices = Array.isArray(permissions) ? byApp(permissions, this.platform.apps) : permissions;
    for (const [app, keys] of Object.entries(slices)) {
      const response = await this.owner.put(`/apps/${app}/roles/${roleId}/permissions`, { permissions: keys });
      if (response.status !== 200) throw new Error(`PUT /apps/${app}/roles/${roleId}/permissions: ${response.status} ${JSON.stringify(response.body)}`);
    }
    return roleId;
  }

  /** A joined member, signed in through POST /sessions. */
  async member(options: MemberOptions = {}): Promise<TestMember> {
    sequence += 1;
    const platformRole = options.platformRole ?? 'member';
    const name = options.name ?? `${platformRole === 'admin' ? 'Admin' : 'Member'} ${sequence}`;
    const email = options.email ?? `${platformRole}${sequence}@${this.subdomain}.test`;
    const added = await this.platform.runtime.identity.addMember({ workspaceId: this.id, email, password: PASSWORD, platformRole, name });
    const roles = [...(options.roles ?? [])];
    if (options.permissions) roles.push(await this.roleHolding(options.permissions));
    if (roles.length > 0) {
      const response = await this.owner.patch(`/members/${added.memberId}`, { role_ids: roles });
      if (response.status !== 200) throw new Error(`PATCH /members/${added.memberId}: ${response.status} ${JSON.stringify(response.body)}`);
    }
    return signIn(this.platform, this.subdomain, added.memberId, email, name, platformRole);
  }

  /**
   * The role made for members holding exactly `permissions`, allowed into every app it touches:
   * made once per set of keys in this workspace, then shared (so `member({ permissions })` can
   * be called any number of times with the same keys).
   */
  private roleHolding(permissions: string[]): Promise<string> {
    const keys = [...new Set(permissions)].sort();
    const cacheKey = keys.join(' ');
    let role = this.rolesByKeys.get(cacheKey);
    if (!role) {
      role = (async () => {
        roleSequence += 1;
        const slices = byApp(keys, this.platform.apps);
        const roleId = await this.role(`Harness role ${roleSequence}: ${keys.join(', ')}`.slice(0, 100), slices);
        for (const app of Object.keys(slices)) await this.allow(app, roleId);
        return roleId;
      })();
      role.catch(() => this.rolesByKeys.delete(cacheKey));
      this.rolesByKeys.set(cacheKey, role);
    }
    return role;
  }

  private readonly rolesByKeys = new Map<string, Promise<string>>();
  private readonly noKeyRoles = new Map<string, Promise<string>>();

  /**
   * Proves an app's authorization table route by route: for every route whose chain names
   * permission keys, a member allowed into the app but holding none of them gets 403 from layer
   * 5 with the exact message (`Missing permission: {key}`, or the group's message), and a member
   * holding exactly the chain's keys passes layers 4 and 5 (whatever the handler then answers:
   * random ids give 404, an empty body 400). Throws listing every route that breaks this;
   * returns the rows otherwise. Routes whose chain runs a named check before the keys need
   * `params` the check accepts; where a check is an alternative to the keys (an any-of group),
   * only the holder is proven (the row says so in `note`).
   */
  async permissionMatrix(app: string, options: PermissionMatrixOptions = {}): Promise<PermissionMatrixRow[]> {
    const loaded = this.platform.runtime.apps.require(app);
    let noKeys = this.noKeyRoles.get(app);
    if (!noKeys) {
      noKeys = (async () => {
        roleSequence += 1;
        const roleId = await this.role(`Harness role ${roleSequence}: no key of ${app}`.slice(0, 100), { [app]: [] });
        await this.allow(app, roleId);
        return roleId;
      })();
      this.noKeyRoles.set(app, noKeys);
    }
    const without = await this.member({ roles: [await noKeys] });
    const rows: PermissionMatrixRow[] = [];
    const problems: string[] = [];
    for (const entry of loaded.manifest.authorization) {
      const route = `${entry.method} ${entry.path}`;
      const chain = (entry.chain ?? []) as ChainStep[];
      const keys = chainKeys(chain);
      if (entry.public) {
        rows.push({ route, keys, skipped: 'public route' });
        continue;
      }
      if (keys.length === 0) {
        rows.push({ route, keys, skipped: 'its chain names no permission key' });
        continue;
      }
      const url = this.platform.path(app, entry.path.replace(/\{(\w+)\*?\}/g, (_whole, name: string) => encodeURIComponent(options.params?.[name] ?? randomUUID())));
      const payload = ['POST', 'PUT', 'PATCH'].includes(entry.method) ? (options.payloads?.[route] ?? {}) : undefined;
      // Denials are told for every request of the platform: keep those of this caller and route.
      const deniedTo = (memberId: string, start: number) => this.platform.denials.slice(start).filter((denial) => denial.memberId === memberId && denial.app === app);
      let start = this.platform.denials.length;
      const refused = await without.request(entry.method, url, payload);
      const refusal = deniedTo(without.id, start);
      const expected = expectedRefusal(chain);
      // A named check in an any-of group may stand in for the keys: then what the caller without
      // them gets is the check's decision, not the table's, and only the holder is proven.
      const standIn = chain.some((step) => typeof step === 'object' && 'any_of' in step && step.any_of.some((alternative) => typeof alternative !== 'string'));
      if (!standIn && (refused.status !== 403 || refusal.length !== 1 || refusal[0].layer !== 5)) {
        problems.push(`${route}: a member without ${keys.join(', ')} got ${refused.status} ${JSON.stringify(refused.body)}, not a layer-5 403`);
      } else if (!standIn && expected !== null && JSON.stringify(refused.body) !== JSON.stringify({ error: expected })) {
        problems.push(`${route}: a member without the keys got ${JSON.stringify(refused.body)}, expected ${JSON.stringify({ error: expected })}`);
      }
      const holder = await this.member({ permissions: keys });
      start = this.platform.denials.length;
      const passed = await holder.request(entry.method, url, payload);
      const denied = deniedTo(holder.id, start);
      if (denied.length > 0) problems.push(`${route}: a member holding ${keys.join(', ')} was refused at layer ${denied[0].layer}: ${denied[0].message}`);
      rows.push({ route, keys, without: { status: refused.status, body: refused.body }, with: { status: passed.status }, ...(standIn ? { note: 'a named check can stand in for its keys: only the holder is proven' } : {}) });
    }
    if (problems.length > 0) throw new Error(`The permission matrix of ${app} does not hold:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
    return rows;
  }

  /** Installs an app through the API as the owner (default policy: `roles` with no role, the spec's fresh install). */
  async install(app: string, policy: { access_policy?: 'everyone' | 'roles' | 'approval'; allowed_roles?: string[] } = {}): Promise<void> {
    const response = await this.owner.post(`/applications/${app}/installations`, policy);
    if (response.status !== 200) throw new Error(`install ${app}: ${response.status} ${JSON.stringify(response.body)}`);
  }

  /** Uninstalls an app through the API as the owner. */
  async uninstall(app: string): Promise<void> {
    const response = await this.owner.delete(`/applications/${app}/installations`);
    if (response.status !== 200) throw new Error(`uninstall ${app}: ${response.status} ${JSON.stringify(response.body)}`);
  }

  /** Adds a role to an installed app's allowed roles (policy `roles`). */
  allow(app: string, roleId: string): Promise<void> {
    // Read-modify-write of the policy: one at a time, or concurrent tests would lose roles.
    const next = this.policyChanges.then(() => this.allowNow(app, roleId));
    this.policyChanges = next.catch(() => {});
    return next;
  }

  private policyChanges: Promise<void> = Promise.resolve();

  private async allowNow(app: string, roleId: string): Promise<void> {
    const status = await this.owner.get(`/applications/${app}/status`);
    const current = status.body?.data;
    if (!current?.installed) throw new Error(`allow: ${app} is not installed in ${this.subdomain}; install it first`);
    if (current.access_policy === 'everyone') return;
    const response = await this.owner.put(`/applications/${app}/access`, { access_policy: 'roles', allowed_roles: [...current.allowed_roles, roleId], redlist: current.redlist });
    if (response.status !== 200) throw new Error(`PUT /applications/${app}/access: ${response.status} ${JSON.stringify(response.body)}`);
  }

  /** Events of this workspace captured so far (optionally one action). */
  events(action?: string): CapturedEvent[] {
    return this.platform.emitted(action).filter((event) => event.workspaceId === this.id);
  }
}

async function signIn(platform: TestPlatform, subdomain: string, id: string, email: string, name: string, platformRole: TestMember['platformRole']): Promise<TestMember> {
  const response = await platform.runtime.server.inject({
    method: 'POST',
    url: '/sessions',
    headers: { host: `${subdomain}.${platform.runtime.config.baseDomain}`, 'x-api-version': API_VERSION, 'content-type': 'application/json' },
    payload: { email, password: PASSWORD },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in of ${email}: ${response.statusCode} ${response.payload}`);
  const setCookie = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
  const cookie = setCookie.map((value) => value.split(';')[0]).join('; ');
  const member: TestMember = {
    // What a browser sends with its session cookie: a write without Origin or Sec-Fetch-Site is refused as cross-site.
    ...caller(platform, subdomain, { cookie, 'sec-fetch-site': 'same-origin' }),
    id,
    mrn: `mrn:account:member:${id}`,
    email,
    name,
    platformRole,
    cookie,
    async apiKey(options = {}) {
      const [{ workspace_id: workspaceId }] = await platform.query<{ workspace_id: string }>('SELECT workspace_id FROM platform.members WHERE id = :id', { id });
      const actor = await platform.runtime.identity.callerForMember(workspaceId, id);
      const owner = platformRole === 'member' ? await ownerOf(platform, actor!.workspaceId) : actor;
      const fullAccess = options.scopes === undefined;
      const { secret } = await platform.runtime.apiKeys.create(actor!.workspaceId, owner!, { name: `harness key ${(sequence += 1)}`, full_access: fullAccess, scopes: options.scopes, member_id: id });
      return { ...caller(platform, subdomain, { authorization: `Bearer ${secret}` }), secret };
    },
  };
  return member;
}

async function ownerOf(platform: TestPlatform, workspaceId: string) {
  const [row] = await platform.query<{ id: string }>("SELECT id FROM platform.members WHERE workspace_id = :workspaceId AND platform_role = 'owner'", { workspaceId });
  return platform.runtime.identity.callerForMember(workspaceId, row.id);
}

function caller(platform: TestPlatform, subdomain: string, credential: Record<string, string>): TestCaller {
  const request = async (method: string, path: string, payload?: unknown, headers: Record<string, string> = {}): Promise<TestResponse> => {
    const response = await platform.runtime.server.inject({
      method,
      url: path,
      headers: {
        host: `${subdomain}.${platform.runtime.config.baseDomain}`,
        'x-api-version': API_VERSION,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        ...credential,
        ...headers,
      },
      payload: payload as object | undefined,
    });
    let body: unknown = null;
    if (response.payload) {
      try {
        body = JSON.parse(response.payload);
      } catch {
        body = response.payload;
      }
    }
    return { status: response.statusCode, body, headers: response.headers as TestResponse['headers'] };
  };
  return {
    request,
    get: (path, headers) => request('GET', path, undefined, headers),
    post: (path, payload, headers) => request('POST', path, payload, headers),
    put: (path, payload, headers) => request('PUT', path, payload, headers),
    patch: (path, payload, headers) => request('PATCH', path, payload, headers),
    delete: (path, headers) => request('DELETE', path, undefined, headers),
  };
}

/** JSON with object keys sorted, so two equal payloads compare equal whatever their key order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]));
  return value;
}
