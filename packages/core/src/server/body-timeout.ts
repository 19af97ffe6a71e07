import type { Request, Server } from '@hapi/hapi';
import type { Socket } from 'node:net';

/**
 * How long a client may take over a request's body (record 0333). Node's own `requestTimeout`
 * bounds headers and body together, server-wide, so a file sent to a signed link had
 * `REQUEST_TIMEOUT_MS` (at most 10 s) in all: a 50 MiB file needed 40 Mbit/s. The listener keeps
 * Node's `headersTimeout`; bodies are watched here, per route:
 * - a body hapi reads for its route (JSON, a form) must be in within the timeout of the request's
 *   start, as before;
 * - a body the route reads as a stream at the client's pace (`payload: { output: 'stream', parse:
 *   false }`: a signed upload link) must keep coming: no pause of the client longer than the
 *   timeout, however long the whole takes (nginx's `client_body_timeout`). While the route itself
 *   is not reading (its buffer is full), the client is not the one pausing, and the clock waits.
 *
 * A request over its bound is handed to the listener's `clientError` as Node's own timeout is
 * (`ERR_HTTP_REQUEST_TIMEOUT`): the conventions answer 408 and hapi closes the connection.
 */
export function watchRequestBodies(server: Server, timeoutMs: number): void {
  const watched = new Map<Request, { started: number; bytes: number; lastAt: number }>();
  let timer: NodeJS.Timeout | null = null;

  const check = () => {
    const now = Date.now();
    for (const [request, watch] of watched) {
      // Until the body is in, even once answered: Node reads (drains) the rest before the next request.
      const { req } = request.raw;
      if (req.complete || req.destroyed || req.socket.destroyed) {
        watched.delete(request);
        continue;
      }
      const payload = request.route.settings.payload;
      const streamed = payload?.output === 'stream' && payload.parse === false;
      let expired: boolean;
      if (streamed) {
        const socket = req.socket as Socket;
        if (socket.bytesRead !== watch.bytes || req.readableLength >= req.readableHighWaterMark) {
          watch.bytes = socket.bytesRead;
          watch.lastAt = now;
        }
        expired = now - watch.lastAt > timeoutMs;
      } else {
        expired = now - watch.started > timeoutMs;
      }
      if (!expired) continue;
      watched.delete(request);
      server.listener.emit('clientError', Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), req.socket);
    }
    if (watched.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };

  server.ext('onRequest', (request, h) => {
    const { req } = request.raw;
    if (!req.complete) {
      const now = Date.now();
      watched.set(request, { started: now, bytes: (req.socket as Socket).bytesRead, lastAt: now });
      // As Node checks its connections: every quarter of the timeout, at least every second.
      timer ??= setInterval(check, Math.max(50, Math.min(1000, Math.floor(timeoutMs / 4)))).unref();
    }
    return h.continue;
  });
  server.events.on('stop', () => {
    watched.clear();
    if (timer) clearInterval(timer);
    timer = null;
  });
}
