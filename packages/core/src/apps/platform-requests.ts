import type { Server } from '@hapi/hapi';
import { API_VERSIONS } from '../server/index.js';
import { publicOrigin } from '../tenancy/index.js';
import type { PlatformRequester } from './context/index.js';

/**
 * `ctx.platform.request`'s transport: `server.inject` on the workspace's own host, the grant on
 * `request.app` (no header, no cookie: nothing from outside the process can carry one). The
 * answer's body is parsed JSON, else its text, else null.
 */
export function injectedRequests(server: Server, publicUrl: string): PlatformRequester {
  return async ({ workspace, grant, method, path, payload }) => {
    const host = new URL(publicOrigin(publicUrl, workspace.subdomain)).host;
    // The current API version: an app's call reads today's shapes.
    const headers: Record<string, string> = { host, 'x-api-version': API_VERSIONS[API_VERSIONS.length - 1].date };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const response = await server.inject({ method, url: path, headers, payload: payload === undefined ? undefined : JSON.stringify(payload), app: { appGrant: grant } });
    const text = response.payload;
    let body: unknown = text.length === 0 ? null : text;
    if (text.length > 0 && /json/i.test(String(response.headers['content-type'] ?? ''))) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    return { status: response.statusCode, body };
  };
}
