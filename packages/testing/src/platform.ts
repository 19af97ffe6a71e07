import { createLogger, createScratchDatabase, installResponseValidation, migrateDown, migrateUp, Runtime, StatementRecorder, type AppEntry, type MailMessage, type ResponseValidation, type RuntimeSeams, type ScratchDatabase, type SearchOperation, type StagedEvent } from '@wpk/core';
import { type AppDefinition, type DeliveredEvent } from '@wpk/sdk';
import { isAppDefinition } from '@wpk/sdk/tooling';

/** The API version every harness request sends. */
export const API_VERSION = '2026-11-01';

/** An app to load: the value `defineApp` returned, or the app's directory. */
export type TestApp = AppDefinition<any> | string;

/** Options of createTestPlatform. */
export interface TestPlatformOptions {
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
   * Check the shape of every statement the runtime and the apps send (default true; also off with
   * `WPK_STATEMENT_CHECK=off`): a read or write of a tenant table (one with a `workspace_id`
   * column) that does not constrain `workspace_id` makes `close()` throw, listing each statement
   * and where it came from. Such a statement would reach every shard of a database distributed
   * by workspace. Migrations are not checked.
   */
  checkStatements?: boolean;
}

/** The query-shape check, loaded with its parser (the real PostgreSQL parser, as WebAssembly) on first use. */
async function statementRecorder(options: TestPlatformOptions): Promise<StatementRecorder | null> {
  if (options.checkStatements === false || (process.env.WPK_STATEMENT_CHECK ?? '').toLowerCase() === 'off') return null;
  const { loadModule, parseSync } = await import('libpg-query');
  await loadModule();
  return StatementRecorder.install({ parse: parseSync as never });
}

/** An event written to the outbox (the request answered 2xx, or a delivery succeeded). */
export interface CapturedEvent {
  /** The app namespace (or `system`) that staged it. */
  emitter: string;
  action: string;
  payload: Record<string, unknown>;
  metadata: Record<string, unknown>;
  workspaceId: string | null;
}

/** A change an app made to the search index. */
export type CapturedSearchChange = SearchOperation & { workspaceId: string; app: string };

/** An HTTP answer. */
export interface TestResponse {
  status: number;
  /** The parsed JSON body (null when empty). */
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

/** What the seams record while the platform runs. */
interface Captured {
  events: CapturedEvent[];
  search: CapturedSearchChange[];
  mails: MailMessage[];
}

/**
 * The runtime's seams (given before boot) that record into `captured`: events the apps layer
 * writes to the outbox (after the write), search-index changes (after they are applied), and
 * every mail (instead of sending it).
 */
function captureSeams(captured: Captured): RuntimeSeams {
  return {
    eventSink: (inner, concern) =>
      concern !== 'apps'
        ? inner
        : {
            async write(workspaceId: string | null, staged: StagedEvent[]) {
              await inner.write(workspaceId, staged);
              captured.events.push(...staged.map((event) => ({ emitter: event.emitter, action: event.action, payload: event.payload, metadata: event.metadata, workspaceId })));
            },
            afterCommit: () => inner.afterCommit(),
          },
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
  /** Events the apps layer wrote to the outbox (app handlers, deliveries, the platform's app endpoints), oldest first. */
  readonly events: CapturedEvent[];
  /** Search-index changes, oldest first. */
  readonly search: CapturedSearchChange[];
  /** Every mail the platform sent (none leaves the process), oldest first. */
  readonly mails: MailMessage[];

  private constructor(
    /** The runtime itself (server, database, registry) for anything the harness does not cover. */
    readonly runtime: Runtime,
    private readonly scratch: ScratchDatabase,
    captured: Captured,
  ) {
    this.events = captured.events;
    this.search = captured.search;
    this.mails = captured.mails;
  }

  /** The query-shape check (null when `checkStatements: false`). */
  statements: StatementRecorder | null = null;

  /** Runs migrations outside the query-shape check (they span tenants by nature). */
  private migrating<T>(fn: () => Promise<T>): Promise<T> {
    return this.statements ? this.statements.during('migrations', fn) : fn();
  }

  /** The OpenAPI check of every answer (null when `validateResponses: false`). */
  readonly responses: ResponseValidation | null = null;

  /** Boots the platform with `options.apps`; remember `close()`. */
  static async create(options: TestPlatformOptions): Promise<TestPlatform> {
    const firstParty = (namespace: string) => options.firstParty === true || (Array.isArray(options.firstParty) && options.firstParty.includes(namespace));
    const apps: AppEntry[] = options.apps.map((app) => {
      if (typeof app === 'string') return { dir: app, firstParty: options.firstParty === true };
      if (!isAppDefinition(app)) throw new TypeError('createTestPlatform: each app is a defineApp(...) value or a directory');
      const namespace = app.manifest.publisher ? `ext.${app.manifest.publisher}.${app.manifest.slug}` : app.manifest.slug;
      return { app, firstParty: firstParty(namespace) };
    });
    const statements = await statementRecorder(options);
    const scratch = await createScratchDatabase();
    const captured: Captured = { events: [], search: [], mails: [] };
    let runtime: Runtime;
    try {
      runtime = await Runtime.create({
        logger: createLogger(process.env.WPK_LOG_LEVEL ?? options.logLevel ?? 'silent'),
        databaseUrl: scratch.url,
        inMemory: scratch.url === undefined,
        port: 0,
        configFile: false,
        projectDir: options.projectDir,
        apps,
        strictAppRoles: options.strictAppRoles ?? false,
        scryptLogN: 10,
        // Tests sign many members in at once from one address; the hashing bound is core's to test.
        passwordHashing: { perClient: 10_000, queue: 10_000 },
        seams: captureSeams(captured),
      } as never);
    } catch (error) {
      await scratch.drop();
      throw error;
    }
    const platform = new TestPlatform(runtime, scratch, captured);
    platform.statements = statements;
    if (options.validateResponses !== false) (platform as { responses: ResponseValidation | null }).responses = installResponseValidation(runtime.server, () => runtime.openApiDocument());
    try {
      await platform.migrating(() => runtime.migrate());
      await statements?.loadTenantTables((sql) => runtime.db.sequelize.query(sql, { type: 'SELECT' as never }) as never);
    } catch (error) {
      await platform.close();
      throw error;
    }
    return platform;
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

  /**
   * Delivers an event to every loaded app that subscribes to `action`, as the broker would, in
   * the workspace given; returns per app whether it was `handled` or `skipped` (not installed).
   */
  async deliver(workspace: TestWorkspace | string, action: string, payload: Record<string, unknown>, metadata: Record<string, unknown> = {}): Promise<Record<string, 'handled' | 'skipped'>> {
    const workspaceId = typeof workspace === 'string' ? workspace : workspace.id;
    const event: DeliveredEvent = { action, payload, metadata: { ...metadata, workspace_id: workspaceId }, attempt: 1 };
    const results: Record<string, 'handled' | 'skipped'> = {};
    for (const app of this.runtime.apps.list()) {
      if (!app.definition || !(action in app.definition.subscriptions)) continue;
      results[app.namespace] = await this.runtime.apps.dispatch(app.namespace, structuredClone(event));
    }
    return results;
  }

  /** Runs SQL against the test database (assertions on an app's own tables, e.g. `app_tasks.tasks`). */
  async query<T extends object = Record<string, unknown>>(sql: string, replacements: Record<string, unknown> = {}): Promise<T[]> {
    // 'SELECT' is Sequelize's QueryTypes.SELECT (the harness does not depend on sequelize itself).
    return (await this.runtime.db.sequelize.query(sql, { type: 'SELECT' as never, replacements })) as unknown as T[];
  }

  /** Reverts an app's migrations (all of them, or down to and excluding `to`); returns what was reverted. */
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
    }
    this.responses?.assertClean();
    this.statements?.assertClean();
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
    if (options.permissions) {
      const roleId = await this.role(`Holds ${options.permissions.join(', ')}`.slice(0, 100), options.permissions);
      roles.push(roleId);
      for (const app of Object.keys(byApp(options.permissions, this.platform.apps))) await this.allow(app, roleId);
    }
    if (roles.length > 0) {
      const response = await this.owner.patch(`/members/${added.memberId}`, { role_ids: roles });
      if (response.status !== 200) throw new Error(`PATCH /members/${added.memberId}: ${response.status} ${JSON.stringify(response.body)}`);
    }
    return signIn(this.platform, this.subdomain, added.memberId, email, name, platformRole);
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
    ...caller(platform, subdomain, { cookie }),
    id,
    mrn: `mrn:account:member:${id}`,
    email,
    name,
    platformRole,
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
