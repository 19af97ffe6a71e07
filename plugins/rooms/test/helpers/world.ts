/**
 * The Rooms app's test fixture: a real platform with the app as first-party, one workspace where
 * it is installed, and members holding chosen keys.
 */
import { createTestPlatform, type TestMember, type TestPlatform, type TestWorkspace } from '@wpk/testing';
import WebSocket from 'ws';
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

/** A websocket with a queue of the messages it received. */
export interface SocketClient {
  next(ms?: number): Promise<Record<string, any>>;
  until(predicate: (message: Record<string, any>) => boolean, ms?: number): Promise<Record<string, any>>;
  send(message: Record<string, unknown>): void;
  close(): void;
}

/** Opens the signaling socket (`/signaling`) of `subdomain` on the listening server at `url`, with an API key, and takes its welcome. */
export function openSignaling(url: string, subdomain: string, secret: string): Promise<SocketClient> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://${target.host}/signaling?api_version=2026-11-01`, { headers: { host: `${subdomain}.localhost`, authorization: `Bearer ${secret}` } });
    const queue: Record<string, any>[] = [];
    const waiters: Array<() => void> = [];
    socket.on('message', (raw) => {
      queue.push(JSON.parse(raw.toString()));
      for (const wake of waiters.splice(0)) wake();
    });
    socket.on('unexpected-response', (_request, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
    socket.on('error', reject);
    const next = async (ms = 3000): Promise<Record<string, any>> => {
      const deadline = Date.now() + ms;
      while (queue.length === 0) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error('no signaling message arrived in time');
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
    socket.on('open', async () => {
      const client: SocketClient = {
        next,
        async until(predicate, ms = 3000) {
          for (;;) {
            const message = await next(ms);
            if (predicate(message)) return message;
          }
        },
        send: (message) => socket.send(JSON.stringify(message)),
        close: () => socket.close(),
      };
      const welcome = await next();
      if (welcome.type !== 'welcome') reject(new Error(`expected welcome, got ${JSON.stringify(welcome)}`));
      else resolve(client);
    });
  });
}
