import type { Lifecycle, Plugin, Request, ResponseObject, ResponseToolkit, Server } from '@hapi/hapi';
import Boom from '@hapi/boom';
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { AccessDenied } from '../access/index.js';
import { hostnameOf, isServedHost, subdomainFromHost, type WorkspaceRecord, type WorkspaceService } from '../tenancy/index.js';
import { AdmissionGate, BUSY_ANSWER, type AdmissionLimits } from './admission.js';
import { toErrorAnswer } from './errors.js';
import { answerUnreadableRequests, lateRequestText } from './unreadable-requests.js';
import { isTrustedOrigin } from './origins.js';
import './route-meta.js';
import type { WpkRouteMeta } from './route-meta.js';
import { API_VERSIONS, downgradeResponse, resolveApiVersion, utcToday } from './versioning.js';

export interface ConventionsOptions {
  baseDomain: string;
  /** The configured public URL: trusted origins (CORS) derive from it. */
  publicUrl: string;
  /** Names besides the base domain and its subdomains that requests may use (loopback, listening address, ALLOWED_HOSTS). */
  allowedHosts: readonly string[];
  /** The request timeout, named in the 408 answer. */
  requestTimeoutMs: number;
  workspaces: WorkspaceService;
  /**
   * Resolves a workspace subdomain for a request (null: no active workspace there); default:
   * `workspaces.findBySubdomain`. The runtime gives the request's access statement
   * (access/request-access.ts), which reads the credential and the app's access with it.
   */
  resolveWorkspace?: (request: Request, subdomain: string) => Promise<WorkspaceRecord | null>;
  logger: Logger;
  /** The admission gate's bounds (server/admission.ts); absent: every request is handled at once (tests, benches). */
  admission?: AdmissionLimits;
}

/** Request headers a cross-origin page may send (hapi's defaults plus the version header). */
const CORS_ALLOWED_HEADERS = ['accept', 'authorization', 'content-type', 'if-none-match', 'x-api-version'];
/** Answer headers a cross-origin page may read. */
const CORS_EXPOSED_HEADERS = 'x-request-id,x-api-version,retry-after';
const CORS_MAX_AGE = '86400';

const ID_BYTES = 12;
const ID_BATCH = 256;
let idPool = Buffer.alloc(0);
let idOffset = 0;

/**
 * An opaque request id (16 base64url characters): unlike hapi's, it names no host name or pid.
 * The random bytes are drawn 256 ids at a time (one call into the CSPRNG instead of one per
 * request, as `crypto.randomUUID` does); every id still has 96 random bits of its own.
 */
export function newRequestId(): string {
  if (idOffset === idPool.length) {
    idPool = randomBytes(ID_BYTES * ID_BATCH);
    idOffset = 0;
  }
  const id = idPool.toString('base64url', idOffset, idOffset + ID_BYTES);
  idOffset += ID_BYTES;
  return id;
}

/** `METHOD /route/{template}`: what logs name a request by; a raw path may carry a token. */
export function routeLabel(request: Request): string {
  return `${request.method.toUpperCase()} ${request.route.path}`;
}

const BODY_METHODS = new Set(['post', 'put', 'patch']);

/** The route's declared conventions, with defaults filled in. */
export function routeMeta(request: Request): Required<Omit<WpkRouteMeta, 'errors'>> {
  const declared = request.route.settings.app?.wpk ?? {};
  return {
    kind: declared.kind ?? 'api',
    scope: declared.scope ?? 'workspace',
    contentTypes: declared.contentTypes ?? ['application/json'],
    anyOrigin: declared.anyOrigin ?? false,
  };
}

function hasBody(request: Request): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return request.headers['transfer-encoding'] !== undefined;
}

function mediaType(header: string | undefined): string | null {
  return header ? header.split(';')[0].trim().toLowerCase() : null;
}

/**
 * The one log line of every refusal. A typed denial (AccessDenied) names its layer, reason and
 * key; an untyped one is placed by its status and route: 401 is layer 1, any other 403 layer 3
 * on platform routes (role gates) and layer 5 on app routes (a handler's own refusal).
 */
function logDenial(logger: Logger, request: Request, error: Error, status: number, message: string): void {
  const route = routeLabel(request);
  const member = (request.auth.credentials as { member?: { id: string } } | null)?.member?.id ?? null;
  const typed = error instanceof AccessDenied ? error : null;
  const layer = typed?.layer ?? (status === 401 ? 1 : request.route.settings.app?.wpkApp !== undefined ? 5 : 3);
  const reason = typed?.reason ?? message;
  // A refusal of an app's (or the platform's key) rule names the app and the key, null when no single key decided.
  const context = typed?.app ? { app: typed.app, permission: typed.permission } : {};
  logger.warn({ req_id: request.info.id, layer, reason, member_id: member, route, ...context, explain: `layer ${layer}: ${reason} (${typed?.where ?? route})` }, 'access denied');
}

/**
 * The HTTP conventions every route follows, in one place: tenancy from the Host subdomain,
 * `X-Api-Version`, the 415 rule, `{"error": ...}` bodies for every failure, request ids and
 * one log line per request.
 */
export const conventions: Plugin<ConventionsOptions> = {
  name: 'wpk-conventions',
  register(server: Server, options: ConventionsOptions) {
    const { baseDomain, publicUrl, allowedHosts, workspaces, logger } = options;

    // Before any other listener of 'clientError': the platform's answer to bytes that are no request.
    answerUnreadableRequests(server, options.requestTimeoutMs, newRequestId);
    // A request whose body (watchRequestBodies) is not in by the request timeout reaches
    // 'clientError' with its request under way (hapi then replies 400 and closes); the socket is
    // marked so that the answer says what happened: 408.
    const timedOut = new WeakSet<Socket>();
    server.listener.prependListener('clientError', (error: Error & { code?: string }, socket: Socket) => {
      if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') timedOut.add(socket);
    });

    const gate = options.admission ? new AdmissionGate(options.admission, logger) : null;
    if (gate) {
      server.expose('admission', gate);
      server.events.on('response', (request) => gate.release(request));
    }

    server.ext('onRequest', async (request, h) => {
      request.info.id = newRequestId();
      request.app.requestId = request.info.id;
      checkHost(request, baseDomain, allowedHosts);
      // Before the workspace (the first database statement) and the credential: a refusal costs nothing.
      if (gate && !(await gate.admit(request))) {
        return h.response({ error: BUSY_ANSWER.error }).code(503).header('retry-after', String(BUSY_ANSWER.retryAfterSeconds)).takeover();
      }
      const subdomain = subdomainFromHost(request.info.host, baseDomain);
      if (subdomain !== null) {
        const workspace = options.resolveWorkspace ? await options.resolveWorkspace(request, subdomain) : await workspaces.findBySubdomain(subdomain);
        if (!workspace) throw Boom.notFound(`No workspace at ${subdomain}.${baseDomain}`);
        request.app.workspace = workspace;
      }
      if (request.method === 'options' && request.headers['access-control-request-method'] !== undefined) return preflight(request, h, publicUrl);
      return h.continue;
    });

    server.ext('onPreAuth', (request, h) => {
      if (request.method === 'options') return h.continue; // CORS preflight
      const meta = routeMeta(request);
      if (meta.kind === 'api') {
        const resolution = resolveApiVersion(request.headers['x-api-version'] as string | undefined, utcToday(), API_VERSIONS);
        if (!resolution.ok) throw Boom.badRequest(resolution.error);
        request.app.apiVersion = resolution.version;
      }
      if (meta.scope === 'workspace' && !request.app.workspace) {
        throw Boom.notFound(`${request.path} is served on a workspace subdomain ({subdomain}.${baseDomain})`);
      }
      if (meta.scope === 'platform' && request.app.workspace) {
        throw Boom.notFound(`${request.path} is served on ${baseDomain}, not on a workspace subdomain`);
      }
      // `*/*`: the route takes any body (a signed upload link) and judges it itself.
      if (meta.kind !== 'page' && BODY_METHODS.has(request.method) && hasBody(request) && !meta.contentTypes.includes('*/*')) {
        const type = mediaType(request.headers['content-type'] as string | undefined);
        if (!type || !meta.contentTypes.includes(type)) throw Boom.unsupportedMediaType('Unsupported Media Type');
      }
      // A body declared over the route's limit is refused before any of it is read: hapi would
      // otherwise read (drain) all of it before answering, until the request timeout's 408.
      const limit = BODY_METHODS.has(request.method) ? request.route.settings.payload?.maxBytes : undefined;
      const declared = Number(request.headers['content-length']);
      if (limit !== undefined && Number.isFinite(declared) && declared > limit) {
        const refusal = Boom.entityTooLarge(`Payload content length greater than maximum allowed: ${limit}`);
        const failAction = request.route.settings.payload?.failAction;
        // The route's own wording of its limit (a signed upload link), as when hapi finds it.
        if (typeof failAction === 'function') return failAction.call(null, request, h, refusal);
        throw refusal;
      }
      return h.continue;
    });

    server.ext('onPreResponse', (request, h): Lifecycle.ReturnValue => {
      let response = request.response;
      const version = request.app.apiVersion;
      if (timedOut.has(request.raw.req.socket)) {
        response = Boom.clientTimeout(lateRequestText(options.requestTimeoutMs));
        response.output.headers.connection = 'close';
      }
      if ('isBoom' in response && response.isBoom) {
        const answer = toErrorAnswer(response, request.info.id);
        if (answer.fault) logger.error({ req_id: request.info.id, err: response }, 'request failed');
        if (answer.status === 401 || answer.status === 403) logDenial(logger, request, response, answer.status, answer.body.error);
        const reply = h.response(answer.body).code(answer.status);
        for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
        reply.header('x-request-id', request.info.id);
        if (version) reply.header('x-api-version', version.date);
        addCorsHeaders(request, reply, publicUrl);
        return reply;
      }
      const ok = response as ResponseObject;
      ok.header('x-request-id', request.info.id);
      addCorsHeaders(request, ok, publicUrl);
      if (version) {
        ok.header('x-api-version', version.date);
        if (version !== API_VERSIONS[API_VERSIONS.length - 1] && ok.source && typeof ok.source === 'object') {
          (ok as { source: unknown }).source = downgradeResponse(ok.source, version, { path: request.route.path, method: request.method });
        }
      }
      return h.continue;
    });

    server.events.on('response', (request) => {
      const response = request.response as ResponseObject | null;
      logger.info(
        {
          req_id: request.info.id,
          method: request.method.toUpperCase(),
          // The route's template (`/invitations/{token}`), never the path: paths carry live tokens.
          route: request.route.path,
          workspace: request.app.workspace?.subdomain ?? null,
          status: response?.statusCode ?? null,
          ms: Date.now() - request.info.received,
          // An app acting for a member (ctx.platform.request): which app, and its note.
          ...(request.app.appGrant ? { member_id: request.app.appGrant.memberId, via_app: request.app.appGrant.app, via_note: request.app.appGrant.note } : {}),
        },
        'request',
      );
    });
  },
};

/**
 * The host rule: a request is answered only when it names the base domain, one of its
 * subdomains or an allowed extra name, in its Host header and, if the request line is an
 * absolute URL, there too (and both must agree). Anything else is 404 before any handler runs.
 */
function checkHost(request: Request, baseDomain: string, allowedHosts: readonly string[]): void {
  const header = request.headers.host as string | undefined;
  const absolute = !request.raw.req.url?.startsWith('/');
  // For an absolute request line hapi takes the host from the URL (request.info.host).
  const named = absolute ? [request.info.host, header] : [header];
  for (const host of named) {
    if (!isServedHost(host, baseDomain, allowedHosts)) {
      throw Boom.notFound(`This server does not answer for the host ${JSON.stringify(String(host ?? '').slice(0, 255))}: it serves ${baseDomain} and its subdomains`);
    }
  }
  if (absolute && hostnameOf(request.info.host) !== hostnameOf(header)) {
    throw Boom.notFound(`The request line names the host ${JSON.stringify(request.info.host.slice(0, 255))} but the Host header ${JSON.stringify(String(header).slice(0, 255))}`);
  }
}

/**
 * Answers a CORS preflight for a trusted origin (the request's own workspace or the base domain),
 * or a sandboxed page's (`null`, allowed without credentials), and an existing route; anything
 * else is refused with a JSON error and no CORS headers.
 */
function preflight(request: Request, h: ResponseToolkit, publicUrl: string): Lifecycle.ReturnValue {
  const origin = request.headers.origin;
  // `null`: a sandboxed page (an app's frame, a public app page). Its calls carry no cookie (the
  // answer never allows credentials), so it may call what its bearer token, or no credential, opens.
  const opaque = origin === 'null';
  if (typeof origin !== 'string' || (!opaque && !isTrustedOrigin(origin, request, publicUrl))) {
    throw Boom.forbidden(`CORS preflight refused: Origin ${JSON.stringify(String(origin ?? '').slice(0, 255))} is not this site's`);
  }
  const method = String(request.headers['access-control-request-method']).toLowerCase();
  if (!request.server.match(method as Parameters<Server['match']>[0], request.path)) throw Boom.notFound(`No route ${method.toUpperCase()} ${request.path}`);
  const requested = String(request.headers['access-control-request-headers'] ?? '')
    .toLowerCase()
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const refused = requested.filter((name) => !CORS_ALLOWED_HEADERS.includes(name));
  if (refused.length > 0) throw Boom.forbidden(`CORS preflight refused: header ${refused.join(', ')} may not be sent`);
  const answer = h.response().code(200);
  if (opaque) answer.header('access-control-allow-origin', '*');
  return answer
    .header('access-control-allow-methods', method.toUpperCase())
    .header('access-control-allow-headers', CORS_ALLOWED_HEADERS.join(','))
    .header('access-control-max-age', CORS_MAX_AGE)
    .takeover();
}

/** CORS on an answer: `Vary: Origin` always; the allow headers only for a trusted origin. */
function addCorsHeaders(request: Request, response: ResponseObject, publicUrl: string): void {
  response.vary('origin');
  const origin = request.headers.origin;
  if (origin === 'null') {
    // A sandboxed page: readable only when the cookie played no part (a bearer token, or none).
    if ((request.auth.credentials as { via?: { kind?: string } } | null)?.via?.kind === 'session') return;
    response.header('access-control-allow-origin', '*');
    response.header('access-control-expose-headers', CORS_EXPOSED_HEADERS);
    return;
  }
  if (typeof origin !== 'string' || !isTrustedOrigin(origin, request, publicUrl)) return;
  response.header('access-control-allow-origin', origin);
  response.header('access-control-allow-credentials', 'true');
  response.header('access-control-expose-headers', CORS_EXPOSED_HEADERS);
}
