import Boom from '@hapi/boom';
import type { Request, ResponseToolkit, Server, ServerAuthSchemeObject } from '@hapi/hapi';
import { AccessDenied, appGrantOf, requestAccess, type AppGrant, type Credentials } from '../../access/index.js';
import { routeMeta } from '../../server/index.js';
import type { SessionService } from '../services/sessions.js';
import { SESSION_COOKIE } from './cookies.js';

/** The name of identity's auth scheme and strategy; the server's default for every route. */
export const AUTH_STRATEGY = 'wpk';

export const AUTHENTICATION_REQUIRED = 'Authentication required';
export const INVALID_API_KEY = 'Invalid, revoked, or expired API key';
export const NOT_A_MEMBER = 'You are not a member of this workspace';

/**
 * Judges an API key (`Authorization: Bearer slk_...`) on the key alone. The `api-keys` plugin
 * exposes one; the `identity` plugin, which depends on it, builds the scheme with it.
 */
export interface ApiKeyAuthenticator {
  /**
   * The credentials the key stands for (`via.kind === 'api_key'`), or null when it is invalid,
   * revoked or expired, or its member is deactivated: the scheme then answers
   * 401 `{"error": "Invalid, revoked, or expired API key"}` and never looks at the cookie.
   * Layer 2 (the key's workspace is the subdomain's) is checked by the scheme afterwards.
   */
  authenticate(secret: string, request: Request): Promise<Credentials | null>;
}

/** Judges an app's bridge token (`Authorization: Bearer wpka_...`); the `app-tokens` plugin exposes one. */
export interface AppTokenAuthenticator {
  /** The credentials the token stands for (`via.kind === 'app_token'`), or null: invalid, expired, or its session is over. */
  authenticate(token: string): Promise<Credentials | null>;
}

export const INVALID_APP_TOKEN = 'Invalid or expired app token';

export interface AuthSchemeDependencies {
  sessions: SessionService;
  /** The API-key authenticator (null: every `Bearer slk_` request is 401). */
  apiKeys: ApiKeyAuthenticator | null;
  /** The app-token authenticator (null or absent: every `Bearer wpka_` request is 401). */
  appTokens?: AppTokenAuthenticator | null;
  /** Judges an app's in-process request for a member (`ctx.platform.request`); absent: such a request is 401. */
  appGrants?: ((grant: AppGrant) => Promise<Credentials | null>) | null;
}

export const INVALID_APP_GRANT = 'The member this app acts for is not an active member of this workspace';

/** The session cookie's value (hapi gives an array when the browser sent it twice). */
export function sessionToken(request: Request): string | null {
  const value = (request.state as Record<string, unknown> | null)?.[SESSION_COOKIE];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.length > 0 ? first : null;
}

/** The `Bearer` token of the Authorization header, or null when there is none. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S*)\s*$/i.exec(header);
  return match ? match[1] : null;
}

function unauthenticated(request: Request, h: ResponseToolkit, message: string) {
  // Layer 1 for site pages: to the sign-in page instead of a 401.
  if (routeMeta(request).kind === 'page') return h.redirect('/login').takeover();
  throw Boom.unauthorized(message);
}

/** Layer 2: the credential's workspace must be the one of the subdomain. */
function checkMembership(request: Request, credentials: Credentials): void {
  const workspace = request.app.workspace;
  if (workspace && credentials.member.workspaceId !== workspace.id) throw new AccessDenied(2, NOT_A_MEMBER, `the credential belongs to workspace ${credentials.member.workspaceId}`);
}

/**
 * Layers 1 and 2. An app's in-process request for a member is judged on its grant alone. A `Bearer` token is judged as an API key, alone (no cookie fallback); otherwise
 * the session cookie is looked up in the database on every request (no cache: sign-out, password
 * resets and deactivation take effect on the next request of every process). The credential is
 * read from the request's access (access/request-access.ts), which judges it once per request. The credentials
 * (`{ member, via }`, see access/credentials.ts) land on `request.auth.credentials`.
 */
export function registerAuthScheme(server: Server, dependencies: AuthSchemeDependencies): void {
  server.auth.scheme(AUTH_STRATEGY, (): ServerAuthSchemeObject => ({
    async authenticate(request, h) {
      // Layers 1 and 2 read the request's access (access/request-access.ts), as the app guard does:
      // one credential per request, judged once. A Bearer token is judged alone (no cookie fallback).
      const access = requestAccess(request);
      const grant = appGrantOf(request);
      if (grant) {
        // An app's in-process request for a member: it carries nothing else (no header, no cookie).
        const judge = dependencies.appGrants;
        const credentials = judge ? await judge(grant) : null;
        if (!credentials) throw Boom.unauthorized(INVALID_APP_GRANT);
        checkMembership(request, credentials);
        return h.authenticated({ credentials });
      }
      const bearer = bearerToken(request);
      if (bearer !== null && bearer.startsWith('wpka_')) {
        // An app's bridge token.
        const appTokens = dependencies.appTokens;
        const credentials = await access.credentials('app_token', bearer, appTokens ? (token) => appTokens.authenticate(token) : null);
        if (!credentials) throw Boom.unauthorized(INVALID_APP_TOKEN);
        checkMembership(request, credentials);
        return h.authenticated({ credentials });
      }
      if (bearer !== null) {
        // A key unknown in the subdomain's workspace is judged in its own (unknown: 401; another workspace's: 403 below).
        const authenticator = dependencies.apiKeys;
        const judge = bearer.startsWith('slk_') && authenticator ? (secret: string) => authenticator.authenticate(secret, request) : null;
        const credentials = await access.credentials('api_key', bearer, judge);
        if (!credentials) throw Boom.unauthorized(INVALID_API_KEY);
        checkMembership(request, credentials);
        return h.authenticated({ credentials });
      }
      const token = sessionToken(request);
      if (!token) return unauthenticated(request, h, AUTHENTICATION_REQUIRED);
      const credentials = await access.credentials('session', token, async (value) => {
        const session = await dependencies.sessions.resolve(value);
        return session && { member: session.caller, via: { kind: 'session', sessionId: session.sessionId, elevatedUntil: session.elevatedUntil } };
      });
      if (!credentials) return unauthenticated(request, h, AUTHENTICATION_REQUIRED);
      checkMembership(request, credentials);
      return h.authenticated({ credentials });
    },
  }));
  server.auth.strategy(AUTH_STRATEGY, AUTH_STRATEGY);
  server.auth.default(AUTH_STRATEGY);
}
