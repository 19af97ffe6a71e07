import WebSocket from 'ws';
import { API_VERSION, type TestMember } from './platform.js';
import type { World } from './world.js';

/** A message the platform sent on a socket (JSON). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers loosely and assert their exact shape
export type SocketMessage = Record<string, any>;

/** An open websocket to the platform (`/live` or `/signaling`) with a queue of the messages it received. */
export interface TestSocket {
  socket: WebSocket;
  /** The next message, waiting up to `ms` (default 3 s); throws when none arrives. */
  next(ms?: number): Promise<SocketMessage>;
  /** The next message `predicate` accepts; the ones before it are dropped. */
  until(predicate: (message: SocketMessage) => boolean, ms?: number): Promise<SocketMessage>;
  /** The messages received and not taken yet (taking them). */
  pending(): SocketMessage[];
  send(message: unknown): void;
  /** Settles when the socket closes, with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

/** An upgrade the platform refused: its status and JSON body. */
export interface RefusedUpgrade {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers loosely and assert their exact shape
  body: any;
}

/** Where and how `openSocket` connects. */
export interface SocketOptions {
  /** The socket's path (default `/live`). */
  path?: '/live' | '/signaling';
  /** Request headers: `authorization`, `cookie`, `origin`. */
  headers?: Record<string, string>;
}

/**
 * Opens a websocket to the listening server at `url` (`await platform.runtime.start()`) as the
 * workspace `subdomain` (sent as `Host`, so no DNS is needed). Answers the open socket, or the
 * refused upgrade's status and body.
 */
export function openSocket(url: string, subdomain: string, options: SocketOptions = {}): Promise<TestSocket | RefusedUpgrade> {
  const target = new URL(url);
  const path = options.path ?? '/live';
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://${target.host}${path}?api_version=${API_VERSION}`, { headers: { host: `${subdomain}.localhost`, ...options.headers } });
    const queue: SocketMessage[] = [];
    const waiters: Array<() => void> = [];
    socket.on('message', (raw) => {
      queue.push(JSON.parse(raw.toString()) as SocketMessage);
      for (const wake of waiters.splice(0)) wake();
    });
    const closed = new Promise<{ code: number; reason: string }>((done) => socket.on('close', (code, reason) => done({ code, reason: reason.toString() })));
    socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: body ? JSON.parse(body) : null }));
    });
    socket.on('error', (error) => reject(error));
    const next = async (ms = 3000): Promise<SocketMessage> => {
      const deadline = Date.now() + ms;
      while (queue.length === 0) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no message arrived on ${path} within ${ms} ms`);
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

/** Like `openSocket`, but a refused upgrade or a first message other than `welcome` throws; the welcome is taken (`welcome`). */
export async function openWelcomedSocket(url: string, subdomain: string, options: SocketOptions = {}): Promise<TestSocket & { welcome: SocketMessage }> {
  const opened = await openSocket(url, subdomain, options);
  if (!('socket' in opened)) throw new Error(`upgrade of ${options.path ?? '/live'} refused: ${opened.status} ${JSON.stringify(opened.body)}`);
  const welcome = await opened.next();
  if (welcome.type !== 'welcome') {
    opened.close();
    throw new Error(`expected welcome, got ${JSON.stringify(welcome)}`);
  }
  return Object.assign(opened, { welcome });
}

/** Waits until `ms` pass and answers the messages that arrived meanwhile (to show nothing more came). */
export async function quiet(client: TestSocket, ms = 300): Promise<SocketMessage[]> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return client.pending();
}

/** A world's server listening, and sockets to it as the world's members (see `listenForSockets`). */
export interface WorldSockets {
  /** The listening server's URL (for `openSocket`). */
  url: string;
  /** The member's API key (full access), made on first use. */
  keyOf(member: TestMember): Promise<string>;
  /** A welcomed socket on `/live` (or `path`) as the member, with its API key (`openWelcomedSocket`). */
  connect(member: TestMember, options?: Pick<SocketOptions, 'path'>): Promise<TestSocket & { welcome: SocketMessage }>;
}

/**
 * Starts the world's server listening (`platform.runtime.start()`) and opens sockets to its
 * workspace as members holding API keys, the preamble of a live-updates or signaling test:
 *
 * ```ts
 * test.before(async () => {
 *   world = await startWorld({ app, subdomain: 'live' });
 *   sockets = await listenForSockets(world);
 * });
 * const client = await sockets.connect(ann);
 * ```
 */
export async function listenForSockets(world: World): Promise<WorldSockets> {
  const url = await world.platform.runtime.start();
  const keys = new Map<string, Promise<string>>();
  const keyOf = (member: TestMember) => {
    if (!keys.has(member.id)) keys.set(member.id, member.apiKey().then((key) => key.secret));
    return keys.get(member.id)!;
  };
  return {
    url,
    keyOf,
    connect: async (member, options = {}) => openWelcomedSocket(url, world.workspace.subdomain, { ...options, headers: { authorization: `Bearer ${await keyOf(member)}` } }),
  };
}

/** Subscribes the socket to a live channel (from `since`, an event id, when given) and answers `subscribed` or the `error`. */
export function subscribeChannel(client: TestSocket, channel: string, since?: string): Promise<SocketMessage> {
  client.send({ type: 'subscribe', channel, ref: 's1', ...(since ? { since } : {}) });
  return client.until((message) => message.type === 'subscribed' || message.type === 'error');
}
