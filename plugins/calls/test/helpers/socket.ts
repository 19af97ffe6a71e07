import WebSocket from 'ws';

/** An open signaling socket with a queue of the messages it received. */
export interface SignalingClient {
  socket: WebSocket;
  send(message: unknown): void;
  /** The next message (throws after `ms`). */
  next(ms?: number): Promise<Record<string, any>>;
  /** The next message `predicate` accepts (earlier ones are dropped). */
  until(predicate: (message: Record<string, any>) => boolean, ms?: number): Promise<Record<string, any>>;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

/** Opens `/signaling` on the server at `url` for the workspace's host; a refused upgrade answers its status and body. */
export function openSignaling(url: string, subdomain: string, headers: Record<string, string>): Promise<SignalingClient | { status: number; body: any }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://${target.host}/signaling?api_version=2026-11-01`, { headers: { host: `${subdomain}.localhost`, ...headers } });
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
    socket.on('open', () =>
      resolve({
        socket,
        send: (message) => socket.send(JSON.stringify(message)),
        next,
        async until(predicate, ms = 3000) {
          for (;;) {
            const message = await next(ms);
            if (predicate(message)) return message;
          }
        },
        closed,
        close: () => socket.close(),
      }),
    );
  });
}
