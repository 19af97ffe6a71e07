import type { Server } from '@hapi/hapi';
import type { Socket } from 'node:net';

type ClientErrorListener = (error: Error & { code?: string; reason?: string }, socket: Socket) => void;

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** The words of a 408, whether the headers (here) or the body (the conventions' `onPreResponse`) came too late. */
export function lateRequestText(requestTimeoutMs: number): string {
  return `The request was not received in full within ${requestTimeoutMs} ms`;
}

/** The answer to a connection Node could not make a request of: its status and `{"error"}` text. */
function unreadableAnswer(error: Error & { code?: string; reason?: string }, requestTimeoutMs: number): { status: number; error: string } {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, error: lateRequestText(requestTimeoutMs) };
  if (error.code === 'HPE_HEADER_OVERFLOW') return { status: 431, error: 'The request headers are larger than the server reads' };
  const reason = String(error.reason ?? error.message).replace(/^Parse Error: /, '').slice(0, 200);
  return { status: 400, error: `The request could not be read as HTTP/1.1: ${reason}` };
}

/**
 * A connection whose bytes Node could not make a request of (a malformed request line or header,
 * headers too large, headers not in by the timeout) reaches the listener's `clientError` before
 * hapi has a request for it, and hapi then writes a bare `400 Bad Request` with no body. Here it
 * hears what every other refusal says: JSON naming what was wrong, with the status that fits (408
 * for the timeout, 431 for headers too large), and the connection is closed.
 *
 * A socket hapi still holds a request for (its `actives`; a request whose body timed out, say) is
 * left to hapi, whose answer goes through the conventions' `onPreResponse` like any other. When
 * hapi's listener cannot be found as expected (hapi changed its insides), hapi's answers stay.
 * `requestId` names the answer (`X-Request-Id`) for whoever reads the logs with the client.
 */
export function answerUnreadableRequests(server: Server, requestTimeoutMs: number, requestId: () => string): void {
  const listeners = server.listener.listeners('clientError') as ClientErrorListener[];
  const actives = (server as unknown as { _core?: { actives?: unknown } })._core?.actives;
  if (listeners.length !== 1 || !(actives instanceof WeakMap)) return;
  const [hapi] = listeners;
  server.listener.removeListener('clientError', hapi);
  const answer = (error: Error & { code?: string; reason?: string }, socket: Socket) => {
    const { status, error: text } = unreadableAnswer(error, requestTimeoutMs);
    const body = JSON.stringify({ error: text });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${requestId()}\r\nconnection: close\r\n\r\n${body}`,
    );
  };
  server.listener.on('clientError', (error: Error & { code?: string; reason?: string }, socket: Socket) => {
    if (!socket.readable) return hapi(error, socket);
    const request = actives.get(socket) as { raw: { res: { once(event: 'close', listener: () => void): void } } } | undefined;
    if (!request) return answer(error, socket);
    // Garbage after a request on a kept-alive connection (a pipelined request Node cannot read):
    // the request under way is answered first, then the garbage, and the connection closes.
    if (error.code === 'HPE_INVALID_METHOD') {
      request.raw.res.once('close', () => (socket.readable ? answer(error, socket) : socket.destroy(error)));
      return;
    }
    hapi(error, socket);
  });
}
