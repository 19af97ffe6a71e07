import type { Request } from '@hapi/hapi';
import type { AppRequest, FileAnswer } from '@wpk/sdk';
import { clientAddressOf } from '../../server/index.js';

/** The request as a handler or a check sees it: copies, so the app cannot change hapi's. */
export function toAppRequest(request: Request): AppRequest<unknown> {
  return {
    method: request.method.toUpperCase(),
    path: request.path,
    params: { ...(request.params as Record<string, string>) },
    query: { ...(request.query as Record<string, unknown>) },
    payload: request.payload ?? null,
    headers: { ...request.headers } as Record<string, string | string[] | undefined>,
    clientAddress: clientAddressOf(request) || null,
  };
}

const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(;\s*[a-z0-9_-]+=[a-z0-9_.-]+)*$/i;

/** `ctx.respond.file`: checks the media type and file name now, so a bad one fails in the handler. */
export function fileAnswer(body: string | Buffer, options: { contentType: string; filename?: string }): FileAnswer {
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) throw new TypeError('ctx.respond.file: the body must be a string or a Buffer');
  if (typeof options?.contentType !== 'string' || !MEDIA_TYPE.test(options.contentType)) throw new TypeError(`ctx.respond.file: ${String(options?.contentType)} is not a media type`);
  const filename = options.filename ?? null;
  // Any name is sent exactly (RFC 6266's filename*, see contentDisposition): only its length is bounded.
  if (filename !== null && (typeof filename !== 'string' || filename.length === 0 || filename.length > 255)) throw new TypeError('ctx.respond.file: the file name must be 1-255 characters');
  return Object.freeze({ kind: 'wpk.file' as const, body, contentType: options.contentType, filename });
}
