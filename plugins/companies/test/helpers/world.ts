/**
 * The Companies app's test fixture, built on @wpk/testing: a real platform with the app loaded as
 * first-party, one workspace where it is installed (policy `roles`), and short ways to get the
 * callers the tests need. Every test file starts one (`startWorld`) and closes it.
 */
import { createTestPlatform, type TestMember, type TestPlatform, type TestWorkspace } from '@wpk/testing';
import app from '../../src/index.js';

export interface CapturedEvent {
  action: string;
  payload: Record<string, unknown>;
}

export interface World {
  platform: TestPlatform;
  workspace: TestWorkspace;
  owner: TestMember;
  /** A member allowed into the app holding exactly these keys. */
  member(keys: string[]): Promise<TestMember>;
  /** The `core.companies.*` events written since the last call, oldest first. */
  takeEvents(): CapturedEvent[];
  close(): Promise<void>;
}

export async function startWorld(subdomain: string): Promise<World> {
  const platform = await createTestPlatform({ apps: [app], firstParty: true });
  try {
    const workspace = await platform.workspace(subdomain);
    await workspace.install('companies');
    platform.takeEvents();
    return {
      platform,
      workspace,
      owner: workspace.owner,
      member: (keys) => workspace.member({ permissions: keys }),
      takeEvents: () =>
        platform
          .takeEvents()
          .filter((event) => event.action.startsWith('core.companies.'))
          .map((event) => ({ action: event.action, payload: event.payload })),
      close: () => platform.close(),
    };
  } catch (error) {
    await platform.close();
    throw error;
  }
}
