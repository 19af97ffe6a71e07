import Boom from '@hapi/boom';
import type { Request, Server } from '@hapi/hapi';
import { isTrustedOrigin, trustedOrigins } from '../../server/index.js';
import { bearerToken } from './auth-scheme.js';
import { SESSION_COOKIE } from './cookies.js';

const STATE_CHANGING = new Set(['post', 'put', 'patch', 'delete']);

/**
 * Why a browser request is refused as cross-site, or null when it may proceed: its `Origin` is
 * not one of the request's trusted origins (its own workspace's, or the base domain's), or,
 * without an Origin, `Sec-Fetch-Site` says it is not same-origin; or it carries the session
 * cookie with neither header (docs/decisions/0196-csrf-origin.md: every browser sends one of them
 * on a state-changing request, so a cookie request without both is refused rather than trusted).
 */
export function crossSiteRefusal(request: Request, publicUrl: string): string | null {
  const origin = request.headers.origin;
  if (typeof origin === 'string') {
    if (isTrustedOrigin(origin, request, publicUrl)) return null;
    return `Cross-site request refused: Origin ${JSON.stringify(origin.slice(0, 255))} is not ${trustedOrigins(request, publicUrl).join(' or ')}`;
  }
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') {
    return `Cross-site request refused: Sec-Fetch-Site is ${JSON.stringify(site.slice(0, 50))} and the request has no Origin`;
  }
  if (typeof site !== 'string' && hasSessionCookie(request)) {
    return 'Cross-site request refused: a request with the session cookie must send an Origin header (or Sec-Fetch-Site: same-origin); it has neither';
  }
  return null;
}

/** True when the request carries the session cookie (whatever its value: it may be a live one). */
function hasSessionCookie(request: Request): boolean {
  const state = request.state as Record<string, unknown> | null;
  if (state && state[SESSION_COOKIE] !== undefined) return true;
  // Unparsed (a malformed cookie header): judge by the raw header.
  const raw = request.headers.cookie;
  return typeof raw === 'string' && /(?:^|;\s*)wpk_session=/.test(raw);
}

/**
 * CSRF protection: a state-changing request that does not carry an API key (so it may ride on
 * the session cookie, or create a session) must come from a page of its own workspace, or of
 * the base domain; a sibling workspace's page is refused like any foreign one. API-key requests
 * are not affected: a browser never adds that header on its own.
 */
export function registerCsrfProtection(server: Server, publicUrl: string): void {
  server.ext('onPreAuth', (request, h) => {
    if (!STATE_CHANGING.has(request.method) || bearerToken(request) !== null) return h.continue;
    // A route that takes no cookie and sets none (an app's public route, a signed link) cannot be forged.
    if (request.route.settings.app?.wpk?.anyOrigin === true) return h.continue;
    const refusal = crossSiteRefusal(request, publicUrl);
    if (refusal !== null) throw Boom.forbidden(refusal);
    return h.continue;
  });
}
