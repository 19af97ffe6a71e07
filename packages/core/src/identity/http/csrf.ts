import Boom from '@hapi/boom';
import type { Request, Server } from '@hapi/hapi';
import { bearerToken } from './auth-scheme.js';

const STATE_CHANGING = new Set(['post', 'put', 'patch', 'delete']);

export const CROSS_SITE_REFUSED = 'Cross-site request refused: its Origin is not part of this platform';

/** True when `origin` is the base domain or one of its subdomains, over http or https. */
export function isPlatformOrigin(origin: string, baseDomain: string): boolean {
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    const host = url.hostname.toLowerCase();
    return host === baseDomain || host.endsWith(`.${baseDomain}`);
  } catch {
    return false;
  }
}

/**
 * A browser request from outside the platform: its `Origin` is foreign (or `null`), or, without
 * an Origin, `Sec-Fetch-Site` says it is not same-origin. A request with neither header does
 * not come from a browser page, so it cannot be a forged one.
 */
export function isCrossSite(request: Request, baseDomain: string): boolean {
  const origin = request.headers.origin;
  if (typeof origin === 'string') return !isPlatformOrigin(origin, baseDomain);
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site !== 'same-origin' && site !== 'none';
  return false;
}

/**
 * CSRF protection: a state-changing request that does not carry an API key (so it may ride on
 * the session cookie, or create a session) must come from a page of the platform itself.
 * API-key requests are not affected: a browser never adds that header on its own.
 */
export function registerCsrfProtection(server: Server, baseDomain: string): void {
  server.ext('onPreAuth', (request, h) => {
    if (!STATE_CHANGING.has(request.method) || bearerToken(request) !== null) return h.continue;
    if (isCrossSite(request, baseDomain)) throw Boom.forbidden(CROSS_SITE_REFUSED);
    return h.continue;
  });
}
