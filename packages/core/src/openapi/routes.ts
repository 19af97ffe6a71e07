import type { ServerRoute } from '@hapi/hapi';
import type { OpenApiDocument } from './document.js';

/**
 * `GET /openapi.json` on the base domain: public and unversioned like `/health` (no credential,
 * no `X-Api-Version`; errors are JSON, not pages). The document is built on first request, once
 * every route is on the table.
 */
export function openApiRoutes(document: () => OpenApiDocument): ServerRoute[] {
  let cached: OpenApiDocument | null = null;
  return [
    {
      method: 'GET',
      path: '/openapi.json',
      options: { auth: false, description: 'The OpenAPI 3.1 description of this server', app: { wpk: { kind: 'system', scope: 'platform' } } },
      handler: () => (cached ??= document()),
    },
  ];
}
