/**
 * The Recruiting app's test fixture, on @wpk/testing: a real platform with the app loaded as
 * first-party and installed in one workspace, and short ways to get the callers tests need.
 * Every test file starts one (`startWorld`) in `test.before` and closes it after.
 */
import { API_VERSION, createTestPlatform, type TestCaller, type TestMember, type TestPlatform, type TestResponse, type TestWorkspace } from '@wpk/testing';
import { fileURLToPath } from 'node:url';

/** The app's directory: loading it by directory serves its public folder (`/public/apps/ats/*`) too. */
const APP_DIR = fileURLToPath(new URL('../..', import.meta.url));

export type Caller = TestMember;
export type { TestCaller, TestResponse };

export interface CapturedEvent {
  action: string;
  payload: Record<string, unknown>;
}

export interface World {
  platform: TestPlatform;
  workspace: TestWorkspace;
  owner: Caller;
  /** A member allowed into the app holding exactly these `ats` keys (none: inside, holding nothing). */
  member(keys: string[]): Promise<Caller>;
  /** The `core.ats.*` events written since the last call, oldest first. */
  takeEvents(): CapturedEvent[];
  deliver(action: string, payload: Record<string, unknown>): Promise<void>;
  /** An anonymous POST as if from the client address `address` (the public apply form's rate limit counts per address). */
  postFrom(address: string, path: string, payload: unknown): Promise<TestResponse>;
  close(): Promise<void>;
}

export async function startWorld(subdomain: string, options: { listen?: boolean } = {}): Promise<World> {
  const platform = await createTestPlatform({ apps: [APP_DIR], firstParty: true, listen: options.listen });
  try {
    const workspace = await platform.workspace(subdomain);
    await workspace.install('ats');
    platform.takeEvents();
    let nothing: Promise<string> | undefined;
    return {
      platform,
      workspace,
      owner: workspace.owner,
      async member(keys) {
        if (keys.length > 0) return workspace.member({ permissions: keys });
        nothing ??= workspace.role('Inside ats, holding nothing', { ats: [] }).then(async (role) => {
          await workspace.allow('ats', role);
          return role;
        });
        return workspace.member({ roles: [await nothing] });
      },
      takeEvents: () => platform.takeEvents().filter((event) => event.action.startsWith('core.ats.')).map((event) => ({ action: event.action, payload: event.payload })),
      async deliver(action, payload) {
        const result = await platform.deliver(workspace.id, action, payload);
        if (result.ats !== 'handled') throw new Error(`${action} was not handled by ats: ${JSON.stringify(result)}`);
      },
      async postFrom(address, path, payload) {
        const response = await platform.runtime.server.inject({
          method: 'POST', url: path, remoteAddress: address, payload: payload as object,
          headers: { host: `${subdomain}.${platform.runtime.config.baseDomain}`, 'x-api-version': API_VERSION, 'content-type': 'application/json' },
        });
        return { status: response.statusCode, body: response.payload ? JSON.parse(response.payload) : null, headers: response.headers as TestResponse['headers'] };
      },
      close: () => platform.close(),
    };
  } catch (error) {
    await platform.close();
    throw error;
  }
}

/** Asserts a 200 and returns `data`; otherwise throws with the answer, so a failed step names itself. */
export function ok<T = any>(response: TestResponse): T {
  if (response.status !== 200) throw new Error(`expected 200, got ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.data as T;
}
