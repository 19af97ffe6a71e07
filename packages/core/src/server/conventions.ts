import type { Lifecycle, Plugin, Request, ResponseObject, Server } from '@hapi/hapi';
import Boom from '@hapi/boom';
import type { Logger } from 'pino';
import { subdomainFromHost, type WorkspaceService } from '../tenancy/index.js';
import { toErrorAnswer } from './errors.js';
import './route-meta.js';
import type { WpkRouteMeta } from './route-meta.js';
import { API_VERSIONS, downgradeResponse, resolveApiVersion, utcToday } from './versioning.js';

export interface ConventionsOptions {
  baseDomain: string;
  workspaces: WorkspaceService;
  logger: Logger;
}

const BODY_METHODS = new Set(['post', 'put', 'patch']);

/** The route's declared conventions, with defaults filled in. */
export function routeMeta(request: Request): Required<WpkRouteMeta> {
  const declared = request.route.settings.app?.wpk ?? {};
  return {
    kind: declared.kind ?? 'api',
    scope: declared.scope ?? 'workspace',
    contentTypes: declared.contentTypes ?? ['application/json'],
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

const NOT_A_MEMBER = 'You are not a member of this workspace';

/**
 * The "explain" line of a refusal the app guard did not already log: 401 is layer 1, the
 * membership refusal layer 2, any other 403 layer 3 on platform routes (role gates) and a
 * handler's own refusal on app routes.
 */
function logDenial(logger: Logger, request: Request, status: number, message: string): void {
  const appRoute = request.route.settings.app?.wpkApp !== undefined;
  const layer = status === 401 ? 1 : message === NOT_A_MEMBER ? 2 : appRoute ? 5 : 3;
  const route = `${request.method.toUpperCase()} ${request.path}`;
  const member = (request.auth.credentials as { member?: { id: string } } | null)?.member?.id ?? null;
  logger.warn({ req_id: request.info.id, layer, reason: message, member_id: member, route, explain: `layer ${layer}: ${message} (${route})` }, 'access denied');
}

/**
 * The HTTP conventions every route follows, in one place: tenancy from the Host subdomain,
 * `X-Api-Version`, the 415 rule, `{"error": ...}` bodies for every failure, request ids and
 * one log line per request.
 */
export const conventions: Plugin<ConventionsOptions> = {
  name: 'wpk-conventions',
  register(server: Server, options: ConventionsOptions) {
    const { baseDomain, workspaces, logger } = options;

    server.ext('onRequest', async (request, h) => {
      request.app.requestId = request.info.id;
      const subdomain = subdomainFromHost(request.info.host, baseDomain);
      if (subdomain !== null) {
        const workspace = await workspaces.findBySubdomain(subdomain);
        if (!workspace) throw Boom.notFound(`No workspace at ${subdomain}.${baseDomain}`);
        request.app.workspace = workspace;
      }
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
      if (meta.kind !== 'page' && BODY_METHODS.has(request.method) && hasBody(request)) {
        const type = mediaType(request.headers['content-type'] as string | undefined);
        if (!type || !meta.contentTypes.includes(type)) throw Boom.unsupportedMediaType('Unsupported Media Type');
      }
      return h.continue;
    });

    server.ext('onPreResponse', (request, h): Lifecycle.ReturnValue => {
      const response = request.response;
      const version = request.app.apiVersion;
      if ('isBoom' in response && response.isBoom) {
        const answer = toErrorAnswer(response, request.info.id);
        if (answer.fault) logger.error({ req_id: request.info.id, err: response }, 'request failed');
        if ((answer.status === 401 || answer.status === 403) && !request.app.accessDenialLogged) logDenial(logger, request, answer.status, answer.body.error);
        const reply = h.response(answer.body).code(answer.status);
        for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
        reply.header('x-request-id', request.info.id);
        if (version) reply.header('x-api-version', version.date);
        return reply;
      }
      const ok = response as ResponseObject;
      ok.header('x-request-id', request.info.id);
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
          path: request.path,
          workspace: request.app.workspace?.subdomain ?? null,
          status: response?.statusCode ?? null,
          ms: Date.now() - request.info.received,
        },
        'request',
      );
    });
  },
};
