/**
 * What Canvas's tests share beyond `startWorld` of @wpk/testing: the app's keys (`world.member()`
 * holds them all) and short ways to make a board and a sticky note. Sockets: `openSocket` of
 * @wpk/testing.
 */
import { startWorld, type TestMember, type World } from '@wpk/testing';
import app from '../../src/index.js';

export const ALL_KEYS = ['canvas.boards.create', 'canvas.boards.read', 'canvas.boards.edit', 'canvas.boards.export', 'canvas.comments.create', 'canvas.votes.create', 'canvas.votes.manage'];

/** The Canvas app installed in `subdomain`; `member()` holds every key but the managers'. */
export function startCanvasWorld(subdomain: string): Promise<World> {
  return startWorld({ app, subdomain, memberKeys: ALL_KEYS });
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
