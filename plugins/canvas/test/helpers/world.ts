/**
 * The Canvas app's test fixture: a real platform with the app as first-party, one workspace where it
 * is installed, and members holding chosen keys. `listen()` starts the real server for socket tests.
 */
import { createTestPlatform, type TestMember, type TestPlatform, type TestWorkspace } from '@wpk/testing';
import WebSocket from 'ws';
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

/** A live socket with a queue of the messages it received. */
export interface LiveClient {
  socket: WebSocket;
  /** The next message (waits up to `ms`). */
  next(ms?: number): Promise<Record<string, any>>;
  /** The next message matching `predicate`, skipping others. */
  until(predicate: (message: Record<string, any>) => boolean, ms?: number): Promise<Record<string, any>>;
  /** Messages received and not taken yet. */
  pending(): Record<string, any>[];
  send(message: Record<string, unknown>): void;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

/** Opens a socket to `/live` on `url` (the listening server) for `subdomain`, with the given headers. */
export function openSocket(url: string, subdomain: string, headers: Record<string, string>): Promise<LiveClient | { status: number; body: any }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://${target.host}/live?api_version=2026-11-01`, { headers: { host: `${subdomain}.localhost`, ...headers } });
    const queue: Record<string, any>[] = [];
    const waiters: Array<() => void> = [];
    socket.on('message', (raw) => {
      queue.push(JSON.parse(raw.toString()));
      for (const wake of waiters.splice(0)) wake();
    });
    const closed = new Promise<{ code: number; reason: string }>((done) => socket.on('close', (code, reason) => done({ code, reason: reason.toString() })));
    socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: body ? JSON.parse(body) : null }));
    });
    socket.on('error', (error) => reject(error));
    const next = async (ms = 3000): Promise<Record<string, any>> => {
      const deadline = Date.now() + ms;
      while (queue.length === 0) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error('no live message arrived in time');
        await new Promise<void>((wake) => {
          const timer = setTimeout(wake, left);
          waiters.push(() => {
            clearTimeout(timer);
            wake();
          });
        });
      }
      return queue.shift()!;
    };
    socket.on('open', () =>
      resolve({
        socket,
        next,
        async until(predicate, ms = 3000) {
          for (;;) {
            const message = await next(ms);
            if (predicate(message)) return message;
          }
        },
        pending: () => queue.splice(0),
        send: (message) => socket.send(JSON.stringify(message)),
        closed,
        close: () => socket.close(),
      }),
    );
  });
}

/** Waits until nothing more arrives for `ms` and answers what did. */
export async function quiet(client: LiveClient, ms = 300): Promise<Record<string, any>[]> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return client.pending();
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
