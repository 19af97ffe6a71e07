import fs from 'node:fs';
import path from 'node:path';
import { isAppDefinition } from '@wpk/sdk/tooling';
import { TestPlatform, type MemberOptions, type PermissionMatrixRow, type TestApp, type TestMember, type TestPlatformOptions, type TestResponse, type TestWorkspace } from './platform.js';

/** An event the app under test staged and the platform wrote (a 2xx answer or a handled delivery). */
export interface WorldEvent {
  action: string;
  payload: Record<string, unknown>;
}

/** What `startWorld` takes. */
export interface WorldOptions extends Omit<Partial<TestPlatformOptions>, 'apps' | 'firstParty'> {
  /** The app under test: its directory (then its public folder is served too) or its defineApp value. */
  app: TestApp;
  /** The subdomain of the workspace the app is installed in. */
  subdomain: string;
  /** Apps loaded beside it (a listener of its events, say). */
  apps?: TestApp[];
  /** Which apps load as first-party (default: every app of the world that is not an `ext.*` app). */
  firstParty?: boolean | string[];
  /** The app's access policy in the workspace (default `roles`, so only permitted members enter), or false: not installed. */
  install?: { access_policy?: 'everyone' | 'roles' | 'approval'; allowed_roles?: string[] } | false;
  /** Permission keys `member()` gives when called without keys (default: none, inside the app). */
  memberKeys?: string[];
}

/** One test file's platform with the app installed in a workspace, and the short ways tests use it. */
export interface World {
  /** The harness itself, for anything the world does not cover. */
  platform: TestPlatform;
  /** The app's namespace (`tasks`, `ext.acme.hello`). */
  app: string;
  workspace: TestWorkspace;
  workspaceId: string;
  /** The workspace's owner (holds every permission). */
  owner: TestMember;
  /**
   * A member allowed into the app holding exactly these keys of it; `[]`: inside the app, holding
   * none; omitted: the world's `memberKeys`. `options` names the member or gives a platform role.
   */
  member(keys?: string[], options?: Omit<MemberOptions, 'permissions' | 'roles'>): Promise<TestMember>;
  /** `count` members made one after another, as `member(keys)` makes them: `const [ann, bob] = await world.members(2)`. */
  members(count: number, keys?: string[]): Promise<TestMember[]>;
  /** A member whose roles may not open the app (although one of them holds `{app}.*`). */
  outsider(): Promise<TestMember>;
  /** Another workspace of the same platform, with the app installed (policy `everyone` by default). */
  otherWorkspace(subdomain: string, policy?: { access_policy?: 'everyone' | 'roles' }): Promise<TestWorkspace>;
  /** The app's own events written since the last call (or the start), oldest first: its namespace's, and the shared actions it emits (`core.member.mentioned`); the platform's `takeEvents` has their workspace and metadata. */
  takeEvents(): WorldEvent[];
  /** A position in the event log, for `eventsSince`. */
  mark(): number;
  /** The app's own events written after `mark`, as `[action, payload]`. */
  eventsSince(mark: number): Array<[string, Record<string, unknown>]>;
  /** Delivers an event to the app's subscription handler through the signed delivery path (`deliveryId`: the broker's delivery id header, the same on each retry; a new one otherwise); throws unless the app handled it. */
  deliver(action: string, payload: Record<string, unknown>, options?: { workspaceId?: string; metadata?: Record<string, unknown>; deliveryId?: string }): Promise<void>;
  /** Runs SQL on the platform's database (`:name` placeholders). */
  query<T extends object = Record<string, unknown>>(sql: string, replacements?: Record<string, unknown>): Promise<T[]>;
  /** Takes the app's migrations down (to a name, or all); returns the names reverted. */
  migrateAppDown(to?: string): Promise<string[]>;
  /** Runs the app's pending migrations; returns their names. */
  migrateAppUp(): Promise<string[]>;
  close(): Promise<void>;
}

/** The namespace of an app given by directory (its app.json) or by definition. */
function namespaceOf(app: TestApp): string {
  const manifest = (typeof app === 'string' ? JSON.parse(fs.readFileSync(path.join(app, 'app.json'), 'utf8')) : 'dir' in app && !isAppDefinition(app) ? app.app.manifest : (app as { manifest: unknown }).manifest) as { slug: string; publisher?: string };
  return manifest.publisher ? `ext.${manifest.publisher}.${manifest.slug}` : manifest.slug;
}

/**
 * Asserts a 200 answer and returns its `data`; otherwise throws with the answer, so a failed step
 * names itself. Given the request's promise (`await ok(owner.post(...))`), it waits for it first.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers loosely and assert their exact shape
export function ok<T = any>(response: Promise<TestResponse>): Promise<T>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export function ok<T = any>(response: TestResponse): T;
export function ok<T>(response: TestResponse | Promise<TestResponse>): T | Promise<T> {
  if (response instanceof Promise) return response.then((answer) => ok<T>(answer));
  if (response.status !== 200) throw new Error(`expected 200, got ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.data as T;
}

/**
 * Boots a real platform for one test file with the app installed in a workspace, the harness's
 * clock, mail and event capture (`@wpk/testing`). Start it at the top of the test file and
 * `close()` it in `test.after.always`:
 *
 * ```ts
 * const world = await startWorld({ app, subdomain: 'boards' });
 * test.after.always(() => world.close());
 * const [ann, bob] = await world.members(2);
 * ```
 */
export async function startWorld(options: WorldOptions): Promise<World> {
  const { app, subdomain, apps = [], install = {}, memberKeys = [], ...rest } = options;
  const namespace = namespaceOf(app);
  const firstParty = options.firstParty ?? [app, ...apps].map(namespaceOf).filter((name) => !name.startsWith('ext.'));
  const platform = await TestPlatform.create({ ...rest, apps: [app, ...apps], firstParty });
  try {
    const workspace = await platform.workspace(subdomain);
    if (install !== false) await workspace.install(namespace, install);
    platform.takeEvents();
    const own = (action: string) => action.startsWith(`${namespace.startsWith('ext.') ? namespace : `core.${namespace}`}.`);
    let inside: Promise<string> | undefined;
    let outsiders = 0;
    const world: World = {
      platform,
      app: namespace,
      workspace,
      workspaceId: workspace.id,
      owner: workspace.owner,
      async member(keys = memberKeys, memberOptions = {}) {
        if (keys.length > 0) return workspace.member({ ...memberOptions, permissions: keys });
        // Inside the app, holding no key of it: a role with an empty slice, allowed in.
        inside ??= workspace.role(`Inside ${namespace}, holding nothing`, { [namespace]: [] }).then(async (role) => {
          await workspace.allow(namespace, role);
          return role;
        });
        return workspace.member({ ...memberOptions, roles: [await inside] });
      },
      async members(count, keys) {
        // Through `this`, so a world spread with its own `member` (another workspace) makes its members.
        const made: TestMember[] = [];
        while (made.length < count) made.push(await this.member(keys));
        return made;
      },
      async outsider() {
        outsiders += 1;
        const role = await workspace.role(`Outsider ${outsiders}: not allowed into ${namespace}`, { [namespace]: [`${namespace}.*`] });
        return workspace.member({ roles: [role] });
      },
      async otherWorkspace(name, policy = { access_policy: 'everyone' }) {
        const other = await platform.workspace(name);
        await other.install(namespace, policy);
        return other;
      },
      takeEvents: () => platform.takeEvents().filter((event) => own(event.action) || event.emitter === namespace).map((event) => ({ action: event.action, payload: event.payload })),
      mark: () => platform.events.length,
      eventsSince: (mark) => platform.events.slice(mark).filter((event) => own(event.action) || event.emitter === namespace).map((event) => [event.action, event.payload]),
      async deliver(action, payload, deliverOptions = {}) {
        const result = await platform.deliver(deliverOptions.workspaceId ?? workspace.id, action, payload, deliverOptions.metadata ?? {}, { deliveryId: deliverOptions.deliveryId });
        if (result[namespace] !== 'handled') throw new Error(`${action} was not handled by ${namespace}: ${JSON.stringify(result)}`);
      },
      query: (sql, replacements) => platform.query(sql, replacements),
      migrateAppDown: (to) => platform.migrateDown(namespace, to ?? 0),
      migrateAppUp: () => platform.migrateUp(namespace),
      close: () => platform.close(),
    };
    return world;
  } catch (error) {
    await platform.close();
    throw error;
  }
}

/**
 * Runs a test file's set-up on a world it has started and answers what the set-up answers; if the
 * set-up throws, the world is closed before the error goes on, so no server or scratch database
 * is left behind: `t.context = await prepareWorld(world, async () => ({ ...world, ann: await world.member() }))`.
 */
export async function prepareWorld<W extends { close(): Promise<void> }, T>(world: W, prepare: (world: W) => Promise<T>): Promise<T> {
  try {
    return await prepare(world);
  } catch (error) {
    await world.close();
    throw error;
  }
}

/** The assertions `checkDropMigration` makes (an ava `t` fits). */
export interface DropAssertions {
  is(actual: unknown, expected: unknown, message: string): unknown;
  deepEqual(actual: unknown, expected: unknown, message: string): unknown;
}

/**
 * A migration that drops one of the app's tables (`dropTenantTable`), checked both ways: `table`
 * (schema-qualified, `app_chat.member_directory`) is gone; taking `migration` down re-creates it
 * empty (reading `columns`, default all, proves they are back); running it again drops it.
 */
export async function checkDropMigration(t: DropAssertions, world: World, migration: string, table: string, columns = '*'): Promise<void> {
  const present = async () => (await world.query<{ name: string | null }>('SELECT to_regclass(:table)::text AS name', { table }))[0]!.name;
  t.is(await present(), null, `${table} is dropped`);
  t.deepEqual(await world.migrateAppDown(migration), [migration], `${migration} is taken down alone`);
  t.is(await present(), table, `down re-creates ${table}`);
  t.deepEqual(await world.query(`SELECT ${columns} FROM ${table}`), [], `${table} comes back empty`);
  t.deepEqual(await world.migrateAppUp(), [migration], `${migration} runs again alone`);
  t.is(await present(), null, `${table} is dropped again`);
}

/** The assertions `checkMatrixRows` makes (an ava `t` fits). */
export interface MatrixAssertions {
  deepEqual(actual: unknown, expected: unknown, message: string): unknown;
  not(actual: unknown, expected: unknown, message: string): unknown;
}

/**
 * The permission matrix's verdict on each row (`workspace.permissionMatrix`): a member without
 * the route's keys gets exactly 403 `Missing permission: {its first key}`, one holding them gets
 * past layer 5 (anything but 403). Each assertion names its route.
 */
export function checkMatrixRows(t: MatrixAssertions, rows: PermissionMatrixRow[]): void {
  for (const row of rows) {
    t.deepEqual(row.without, { status: 403, body: { error: `Missing permission: ${row.keys[0]}` } }, row.route);
    t.not(row.with!.status, 403, row.route);
  }
}
