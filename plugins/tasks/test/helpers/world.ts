/**
 * The Tasks app's test fixture, built on @wpk/testing: a real platform with the app loaded as
 * first-party, one workspace where it is installed (policy `roles`), and short ways to get the
 * callers the tests need. Every test file starts one (`startWorld`) and closes it.
 */
import { createTestPlatform, type TestCaller, type TestMember, type TestPlatform, type TestResponse, type TestWorkspace } from '@wpk/testing';
import { fileURLToPath } from 'node:url';
import app from '../../src/index.js';

/** A caller with an id: a member of the workspace. */
export type Caller = TestMember;

/**
 * An event the app staged and the platform wrote (the request answered 2xx), as subscribers get
 * it: the platform checked its payload against the manifest when it was staged and removed nulls.
 */
export interface CapturedEvent {
  action: string;
  payload: Record<string, unknown>;
  workspaceId: string | null;
}

export interface World {
  /** The harness itself, for anything the fixture does not cover. */
  platform: TestPlatform;
  workspace: TestWorkspace;
  workspaceId: string;
  /** The workspace owner (holds every permission). */
  owner: Caller;
  /** A member allowed into the app holding exactly these tasks permission keys (none: inside, holding nothing). */
  member(keys: string[]): Promise<Caller>;
  /** A member whose roles may not open the app (even though one of them holds `tasks.*`). */
  outsider(): Promise<Caller>;
  /** Another workspace with the app installed for everyone. */
  otherWorkspace(subdomain: string): Promise<{ owner: Caller; workspaceId: string }>;
  /** The `core.tasks.*` events written since the last call, oldest first. */
  takeEvents(): CapturedEvent[];
  /** Every change the app made to the search index, oldest first. */
  search: TestPlatform['search'];
  /** Delivers an event to the app's subscription handler through the signed delivery path; throws unless the app handled it. */
  deliver(action: string, payload: Record<string, unknown>, workspaceId?: string): Promise<void>;
  query<T extends object = Record<string, unknown>>(sql: string, replacements?: Record<string, unknown>): Promise<T[]>;
  migrateAppDown(to?: string): Promise<string[]>;
  migrateAppUp(): Promise<string[]>;
  close(): Promise<void>;
}

export type { TestCaller, TestResponse };

let roles = 0;

/**
 * `listen`: a platform on a loopback port, the app loaded from its folder (so its front-end, `ui/`,
 * is built and served): for the browser test.
 */
export async function startWorld(subdomain: string, options: { listen?: boolean } = {}): Promise<World> {
  const platform = await createTestPlatform({ apps: [options.listen ? fileURLToPath(new URL('../..', import.meta.url)) : app], firstParty: true, listen: options.listen ?? false });
  try {
    const workspace = await platform.workspace(subdomain);
    await workspace.install('tasks');
    platform.takeEvents();
    let nothing: Promise<string> | undefined;
    return {
      platform,
      workspace,
      workspaceId: workspace.id,
      owner: workspace.owner,
      async member(keys) {
        if (keys.length > 0) return workspace.member({ permissions: keys });
        // Inside the app, holding no key of it: a role with an empty slice, allowed in.
        nothing ??= workspace.role('Inside tasks, holding nothing', { tasks: [] }).then(async (role) => {
          await workspace.allow('tasks', role);
          return role;
        });
        return workspace.member({ roles: [await nothing] });
      },
      async outsider() {
        roles += 1;
        const role = await workspace.role(`Role ${roles}: not allowed into tasks`, { tasks: ['tasks.*'] });
        return workspace.member({ roles: [role] });
      },
      async otherWorkspace(name) {
        const other = await platform.workspace(name);
        await other.install('tasks', { access_policy: 'everyone' });
        return { owner: other.owner, workspaceId: other.id };
      },
      takeEvents: () =>
        platform
          .takeEvents()
          .filter((event) => event.action.startsWith('core.tasks.'))
          .map((event) => ({ action: event.action, payload: event.payload, workspaceId: event.workspaceId })),
      search: platform.search,
      async deliver(action, payload, workspaceId = workspace.id) {
        const result = await platform.deliver(workspaceId, action, payload);
        if (result.tasks !== 'handled') throw new Error(`${action} was not handled by tasks: ${JSON.stringify(result)}`);
      },
      query: (sql, replacements) => platform.query(sql, replacements),
      migrateAppDown: (to?: string) => platform.migrateDown('tasks', to),
      migrateAppUp: () => platform.migrateUp('tasks'),
      close: () => platform.close(),
    };
  } catch (error) {
    await platform.close();
    throw error;
  }
}
