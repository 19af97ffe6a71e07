import type { ResponseToolkit, Server } from '@hapi/hapi';
import type { RuntimeConfig } from '../../config.js';
import { DEVICE_COOKIE, DEVICE_TTL_SECONDS } from '../services/known-devices.js';
import { SESSION_TTL_SECONDS, type StartedSession } from '../services/sessions.js';

/** The session cookie's name. */
export const SESSION_COOKIE = 'wpk_session';

/**
 * Declares the session cookie: on COOKIE_DOMAIN (shared by every workspace subdomain),
 * HttpOnly, SameSite=Lax, Secure unless the platform runs on local http, 14 days. A single-label
 * cookie domain (`localhost`) is left out: browsers and curl refuse `Domain=localhost`, so there
 * the cookie stays on the host that set it.
 */
export function declareSessionCookie(server: Server, config: RuntimeConfig): void {
  server.state(SESSION_COOKIE, {
    ttl: SESSION_TTL_SECONDS * 1000,
    isSecure: config.cookieSecure,
    isHttpOnly: true,
    isSameSite: 'Lax',
    path: '/',
    domain: config.cookieDomain.includes('.') ? config.cookieDomain : undefined,
    encoding: 'none',
    strictHeader: true,
    ignoreErrors: true,
    clearInvalid: false,
  });
  // The known-device cookie: like the session's, but it outlives sign-outs (it opens nothing by itself).
  server.state(DEVICE_COOKIE, {
    ttl: DEVICE_TTL_SECONDS * 1000,
    isSecure: config.cookieSecure,
    isHttpOnly: true,
    isSameSite: 'Lax',
    path: '/',
    domain: config.cookieDomain.includes('.') ? config.cookieDomain : undefined,
    encoding: 'none',
    strictHeader: true,
    ignoreErrors: true,
    clearInvalid: false,
  });
}

/** Sets the known-device cookie a successful sign-in earned. */
export function setDeviceCookie(h: ResponseToolkit, value: string): void {
  h.state(DEVICE_COOKIE, value);
}

/** Sets the cookie of a session that just started. */
export function setSessionCookie(h: ResponseToolkit, session: StartedSession): void {
  h.state(SESSION_COOKIE, session.token);
}

/** Clears the session cookie. */
export function clearSessionCookie(h: ResponseToolkit): void {
  h.unstate(SESSION_COOKIE);
}
