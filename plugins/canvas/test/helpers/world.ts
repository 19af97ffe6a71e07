/**
 * The Canvas app's test fixture: a real platform with the app as first-party, one workspace where it
 * is installed, and members holding chosen keys. Sockets: `openSocket` of @wpk/testing.
 */
import { createTestPlatform, type TestMember, type TestPlatform, type TestWorkspace } from '@wpk/testing';
import app from '../../src/index.js';

export const ALL_KEYS = ['canvas.boards.create', 'canvas.boards.read', 'canvas.boards.edit', 'canvas.boards.export', 'canvas.comments.create', 'canvas.votes.create', 'canvas.votes.manage'];

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
  await workspace.install('canvas');
  platform.takeEvents();
  return {
    platform,
    workspace,
    owner: workspace.owner,
    member: (keys = ALL_KEYS) => workspace.member({ permissions: keys }),
    takeEvents: () =>
      platform
        .takeEvents()
        .filter((event) => event.action.startsWith('core.canvas.'))
        .map((event) => ({ action: event.action, payload: event.payload })),
    close: () => platform.close(),
  };
}

/** A board made by `member`; answers its id. */
export async function newBoard(member: TestMember, name = 'Retro'): Promise<string> {
  const response = await member.post('/canvas/boards', { name });
  if (response.status !== 200) throw new Error(`board not created: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data.id;
}

/** A sticky note on the board; answers its id. */
export async function newSticky(member: TestMember, boardId: string, fields: Record<string, unknown> = {}): Promise<string> {
  const response = await member.post(`/canvas/boards/${boardId}/objects`, { type: 'sticky', x: 0, y: 0, width: 200, height: 200, text: 'Idea', ...fields });
  if (response.status !== 200) throw new Error(`object not created: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data.id;
}
