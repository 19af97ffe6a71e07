/**
 * The Rooms app's test fixture: a real platform with the app as first-party, one workspace where
 * it is installed, and members holding chosen keys.
 */
import { createTestPlatform, openWelcomedSocket, type TestMember, type TestPlatform, type TestSocket, type TestWorkspace } from '@wpk/testing';
import app from '../../src/index.js';

export const ALL_KEYS = ['rooms.rooms.create', 'rooms.rooms.read', 'rooms.sessions.join'];

export interface World {
  platform: TestPlatform;
  workspace: TestWorkspace;
  owner: TestMember;
  member(keys?: string[]): Promise<TestMember>;
  /** The `core.rooms.*` events written since the last call, oldest first. */
  takeEvents(): Array<{ action: string; payload: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function startWorld(subdomain: string): Promise<World> {
  const platform = await createTestPlatform({ apps: [app], firstParty: true });
  try {
    const workspace = await platform.workspace(subdomain);
    await workspace.install('rooms');
    platform.takeEvents();
    return {
      platform,
      workspace,
      owner: workspace.owner,
      member: (keys = ALL_KEYS) => workspace.member({ permissions: keys }),
      takeEvents: () =>
        platform
          .takeEvents()
          .filter((event) => event.action.startsWith('core.rooms.'))
          .map((event) => ({ action: event.action, payload: event.payload })),
      close: () => platform.close(),
    };
  } catch (error) {
    await platform.close();
    throw error;
  }
}

/** The body of a 200 answer, or a thrown error naming what came instead. */
export async function ok<T = any>(reply: Promise<{ status: number; body: any }>): Promise<T> {
  const answer = await reply;
  if (answer.status !== 200) throw new Error(`${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data as T;
}

/** Opens the signaling socket (`/signaling`) of `subdomain` on the listening server at `url`, with an API key, and takes its welcome. */
export function openSignaling(url: string, subdomain: string, secret: string): Promise<TestSocket> {
  return openWelcomedSocket(url, subdomain, { path: '/signaling', headers: { authorization: `Bearer ${secret}` } });
}
