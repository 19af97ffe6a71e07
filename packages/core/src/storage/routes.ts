import Boom from '@hapi/boom';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import { contentDisposition, ForbiddenError, Joi, NotFoundError, PayloadTooLargeError, UnsupportedMediaTypeError } from '@wpk/sdk';
import type { Readable } from 'node:stream';
import { normalizeMediaType } from './content-type.js';
import type { StorageService } from './service.js';
import type { LinkClaims } from './signed-urls.js';

// Types a browser may show in place: they run no script. Everything else is a download.
const INLINE = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'application/pdf', 'text/plain']);
const isInline = (type: string) => INLINE.has(type) || type.startsWith('audio/') || type.startsWith('video/');


function claimsOf(storage: StorageService, request: Request, op: LinkClaims['op']): LinkClaims {
  const { token } = request.params as { token: string };
  const claims = storage.signer.verify(token, storage.now().getTime());
  if (claims === 'expired') throw new ForbiddenError('This storage link has expired');
  if (claims === 'malformed' || claims.op !== op) throw new ForbiddenError('This storage link is not valid');
  // Another workspace's genuine link answers as a forged one: it says nothing about that workspace.
  if (claims.ws !== request.app.workspace?.id) throw new ForbiddenError('This storage link is not valid');
  return claims;
}

const token = Joi.object({ token: Joi.string().max(8192).required() });

/**
 * The signed links: `GET /storage/{token}` downloads, `PUT /storage/{token}` uploads (the body is
 * the file). Public (the token is the credential), served on the token's workspace only, not
 * versioned (a browser or `curl -T` follows the link as it is).
 */
export function storageRoutes(storage: StorageService): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/storage/{token}',
      options: {
        auth: false,
        description: 'Downloads a file through a signed link (ctx.storage.signedDownloadUrl)',
        app: { wpk: { kind: 'system', scope: 'workspace', anyOrigin: true } },
        validate: { params: token },
      },
      handler: async (request: Request, h: ResponseToolkit) => {
        const claims = claimsOf(storage, request, 'get');
        const scope = { workspaceId: claims.ws, subdomain: request.app.workspace!.subdomain, namespace: claims.ns };
        const etag = async () => (await storage.head(scope, claims.key))?.sha256;
        const current = await etag();
        if (!current) throw new NotFoundError('The file of this link no longer exists');
        if (request.headers['if-none-match'] === `"${current}"`) return h.response().code(304).etag(current);
        const object = await storage.get(scope, claims.key);
        if (!object) throw new NotFoundError('The file of this link no longer exists');
        const filename = claims.fn ?? claims.key.split('/').pop()!;
        return h
          .response(object.body)
          .type(object.content_type)
          .bytes(object.size_bytes)
          .etag(object.sha256)
          .header('content-disposition', contentDisposition(filename, isInline(object.content_type) ? 'inline' : 'attachment'))
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cache-control', `private, max-age=${Math.max(0, claims.exp - Math.floor(storage.now().getTime() / 1000))}`);
      },
    },
    {
      method: 'PUT',
      path: '/storage/{token}',
      options: {
        auth: false,
        description: 'Uploads a file through a signed link (ctx.storage.signedUploadUrl); the body is the file',
        app: { wpk: { kind: 'system', scope: 'workspace', contentTypes: ['*/*'], anyOrigin: true } },
        payload: {
          output: 'stream',
          parse: false,
          maxBytes: storage.maxObjectBytes,
          failAction: (_request, _h, error) => {
            const status = (error as Boom.Boom | undefined)?.output?.statusCode;
            if (status === 413) throw new PayloadTooLargeError(`The file is larger than ${storage.maxObjectBytes} bytes, the most this platform stores`);
            throw error ?? Boom.badRequest('Unreadable upload');
          },
        },
        validate: { params: token },
      },
      handler: async (request: Request) => {
        const claims = claimsOf(storage, request, 'put');
        const max = claims.max ?? storage.maxObjectBytes;
        const length = Number(request.headers['content-length'] ?? NaN);
        if (Number.isFinite(length) && length > max) throw new PayloadTooLargeError(`The file is larger than ${max} bytes, the most this link accepts`);
        const header = request.headers['content-type'] as string | undefined;
        const declared = header ? normalizeMediaType(header) : null;
        if (header && !declared) throw new UnsupportedMediaTypeError(`Content-Type ${JSON.stringify(header)} is not a media type`);
        if (claims.ct && declared !== claims.ct) throw new UnsupportedMediaTypeError(`This link accepts only ${claims.ct} (send Content-Type: ${claims.ct})`);
        const scope = { workspaceId: claims.ws, subdomain: request.app.workspace!.subdomain, namespace: claims.ns };
        const unit = storage.unit();
        try {
          // No transaction is open while the body streams in: the row is written by one statement at the end.
          const stored = await storage.scope(scope, unit).put(claims.key, request.payload as Readable, { maxBytes: max, ...(declared ? { contentType: declared } : {}) });
          return { data: { ...stored, updated_at: stored.updated_at.toISOString() } };
        } finally {
          await unit.finish();
        }
      },
    },
  ];
}
