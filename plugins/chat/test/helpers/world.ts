/**
 * The Chat app's test fixture: a real platform with the app as first-party, one workspace where it
 * is installed, and members holding chosen keys. Sockets: `openSocket` of @wpk/testing.
 */
import { createTestPlatform, type TestMember, type TestPlatform, type TestWorkspace } from '@wpk/testing';
import app from '../../src/index.js';

export const ALL_KEYS = ['chat.chats.create', 'chat.chats.read', 'chat.messages.read', 'chat.messages.send', 'chat.lists.edit', 'chat.calls.create'];

export interface World {
  platform: TestPlatform;
  workspace: TestWorkspace;
  owner: TestMember;
  member(keys?: string[]): Promise<TestMember>;
  takeEvents(): Array<{ action: string; payload: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function startWorld(subdomain: string): Promise<World> {
  const platform = await createTestPlatform({ apps: [app], firstParty: true });
  const workspace = await platform.workspace(subdomain);
  await workspace.install('chat');
  platform.takeEvents();
  return {
    platform,
    workspace,
    owner: workspace.owner,
    member: (keys = ALL_KEYS) => workspace.member({ permissions: keys }),
    takeEvents: () =>
      platform
        .takeEvents()
        .filter((event) => event.action.startsWith('core.chat.') || event.action === 'core.member.mentioned')
        .map((event) => ({ action: event.action, payload: event.payload })),
    close: () => platform.close(),
  };
}
