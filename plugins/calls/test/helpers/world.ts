/**
 * The Calls app's test fixture, on @wpk/testing: a real platform with the app loaded as
 * first-party and installed in one workspace, and short ways to the callers and events a test needs.
 */
import { createTestPlatform, type TestApp, type TestMember, type TestPlatform, type TestWorkspace } from '@wpk/testing';
import { fileURLToPath } from 'node:url';
import app from '../../src/index.js';

export interface World {
  platform: TestPlatform;
  workspace: TestWorkspace;
  owner: TestMember;
  /** A member allowed into the app holding these calls permission keys (default: create, read, join, record). */
  member(keys?: string[]): Promise<TestMember>;
  /** A mark in the event log, for `eventsSince`. */
  mark(): number;
  /** The `core.calls.*` events written since the mark, as `[action, payload]`, oldest first. */
  eventsSince(mark: number): Array<[string, Record<string, unknown>]>;
  /** Delivers an event to the app's handler; throws unless it was handled. */
  deliver(action: string, payload: Record<string, unknown>, metadata?: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

export const MEMBER_KEYS = ['calls.calls.create', 'calls.calls.read', 'calls.calls.join', 'calls.recordings.create'];

export async function startWorld(subdomain: string, options: { port?: number; apps?: TestApp[]; firstParty?: boolean | string[]; fromDirectory?: boolean } = {}): Promise<World> {
  // From its directory, the app serves its public files (`/public/apps/calls/*`) too.
  const calls: TestApp = options.fromDirectory ? fileURLToPath(new URL('../..', import.meta.url)) : app;
  const platform = await createTestPlatform({ apps: [calls, ...(options.apps ?? [])], firstParty: options.firstParty ?? true, ...(options.port ? { port: options.port } : {}) });
  try {
    const workspace = await platform.workspace(subdomain);
    await workspace.install('calls', { access_policy: 'roles' });
    return {
      platform,
      workspace,
      owner: workspace.owner,
      member: (keys = MEMBER_KEYS) => workspace.member({ permissions: keys }),
      mark: () => platform.events.length,
      eventsSince: (mark) => platform.events.slice(mark).filter((event) => event.action.startsWith('core.calls.')).map((event) => [event.action, event.payload]),
      async deliver(action, payload, metadata) {
        const result = await platform.deliver(workspace, action, payload, metadata);
        if (result.calls !== 'handled') throw new Error(`${action} was not handled by calls: ${JSON.stringify(result)}`);
      },
      close: () => platform.close(),
    };
  } catch (error) {
    await platform.close();
    throw error;
  }
}
