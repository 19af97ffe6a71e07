import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request an HTTP sink received. */
export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  body: any;
  at: number;
}

/** A real HTTP endpoint on 127.0.0.1 that records what it receives. */
export interface EventSinkServer {
  url: string;
  received: Received[];
  /** Decides the answer per request (default 200); may wait first. */
  respond: (request: Received) => number | Promise<number>;
  /** Resolves once `count` requests arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startEventSink(respond: EventSinkServer['respond'] = () => 200): Promise<EventSinkServer> {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const sink: EventSinkServer = {
    url: '',
    received,
    respond,
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`sink got ${received.length} of ${count} requests in ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 50);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received.slice(0, count);
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const raw = Buffer.concat(chunks);
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = null;
      }
      const entry: Received = { path: request.url ?? '', headers: request.headers, raw, body, at: Date.now() };
      received.push(entry);
      for (const wake of waiters.splice(0)) wake();
      let status: number;
      try {
        status = await sink.respond(entry);
      } catch {
        status = 500;
      }
      if (response.destroyed) return;
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ok: status === 200 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  sink.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return sink;
}
