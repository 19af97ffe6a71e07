import Hapi, { type Server } from '@hapi/hapi';
import http from 'node:http';
import type { Logger } from 'pino';
import type { WorkspaceService } from '../tenancy/index.js';
import type { AdmissionLimits } from './admission.js';
import { conventions, type ConventionsOptions } from './conventions.js';
import { watchRequestBodies } from './body-timeout.js';
import { validationFailure } from './errors.js';
import { installTextGuard } from './text-guard.js';
import { installClientAddress } from './client-address.js';

export interface ServerOptions {
  host: string;
  port: number;
  baseDomain: string;
  /** The configured public URL (`PUBLIC_URL`): trusted origins derive from it. */
  publicUrl: string;
  /** Extra names requests may use besides the base domain and its subdomains. */
  allowedHosts: readonly string[];
  /** How long a client may take to send a request's headers and body, in ms (at most 10 s). */
  requestTimeoutMs: number;
  /** Reverse proxies whose X-Forwarded-For names the client (`TRUSTED_PROXIES`; default none). */
  trustedProxies?: readonly string[];
  workspaces: WorkspaceService;
  /** How a request's subdomain is resolved (see ConventionsOptions.resolveWorkspace; default: the workspace alone). */
  resolveWorkspace?: ConventionsOptions['resolveWorkspace'];
  logger: Logger;
  /** The admission gate (`MAX_REQUESTS_IN_FLIGHT`, `MAX_QUEUED_REQUESTS`, `REQUEST_QUEUE_MS`); absent: none. */
  admission?: AdmissionLimits;
}

/** What the bare hapi server is made with: where it listens and how long a client may take. */
export type ListenerOptions = Pick<ServerOptions, 'host' | 'port' | 'requestTimeoutMs'>;

/**
 * The hapi server with the platform's conventions installed and no routes yet (tests and benches
 * that mount a few routes alone; the runtime registers the `server` plugin instead).
 */
export async function createServer(options: ServerOptions): Promise<Server> {
  const server = createHapiServer(options);
  await installConventions(server, options);
  return server;
}

/** The platform's conventions on a bare server: host check, admission gate, versions, media types, `{"error"}` bodies, the text guard. */
export async function installConventions(server: Server, options: Omit<ServerOptions, 'host' | 'port'>): Promise<void> {
  const { baseDomain, publicUrl, allowedHosts, requestTimeoutMs, workspaces, resolveWorkspace, logger, admission } = options;
  installClientAddress(server, options.trustedProxies ?? []);
  await server.register({ plugin: conventions, options: { baseDomain, publicUrl, allowedHosts, requestTimeoutMs, workspaces, resolveWorkspace, logger, admission } });
  installTextGuard(server);
}

/** The bare hapi server: its listener (request and header timeouts), router and route defaults; no conventions, no routes. */
export function createHapiServer(options: ListenerOptions): Server {
  const timeout = options.requestTimeoutMs;
  // A client that trickles its headers is cut off after the request timeout (Node checks open
  // connections every connectionsCheckingInterval); its body is watched per route
  // (watchRequestBodies), so slow clients cannot hold connections and a long upload can finish.
  const listener = http.createServer({ requestTimeout: 0, headersTimeout: timeout, connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(timeout / 4))) });
  const server = Hapi.server({
    host: options.host,
    port: options.port,
    listener,
    router: { stripTrailingSlash: true },
    routes: {
      // Every operation answers 200 on success, an empty answer included.
      response: { emptyStatusCode: 200 },
      // CORS is the conventions' (the allowed origin depends on the request's host); hapi's is off.
      cors: false,
      payload: { timeout },
      validate: {
        // Request objects accept extra properties: unknown keys are dropped, never an error.
        options: { abortEarly: true, allowUnknown: true, stripUnknown: { objects: true, arrays: false }, errors: { wrap: { label: false } } },
        failAction: (_request, _h, error) => {
          throw validationFailure(validationSource(error), error ?? new Error('Invalid request'));
        },
      },
    },
  });
  watchRequestBodies(server, timeout);
  return server;
}

// hapi records which part of the request failed (payload, query, params) on the error it hands over.
function validationSource(error: Error | undefined): string {
  const source = (error as { output?: { payload?: { validation?: { source?: string } } } } | undefined)?.output?.payload?.validation?.source;
  return source ?? 'payload';
}
