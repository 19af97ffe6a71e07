import Hapi, { type Server } from '@hapi/hapi';
import type { Logger } from 'pino';
import type { WorkspaceService } from '../tenancy/index.js';
import { conventions } from './conventions.js';
import { validationFailure } from './errors.js';

export interface ServerOptions {
  host: string;
  port: number;
  baseDomain: string;
  workspaces: WorkspaceService;
  logger: Logger;
}

/** The hapi server with the platform's conventions installed and no routes yet. */
export async function createServer(options: ServerOptions): Promise<Server> {
  const server = Hapi.server({
    host: options.host,
    port: options.port,
    router: { stripTrailingSlash: true },
    routes: {
      // Every operation answers 200 on success, an empty answer included.
      response: { emptyStatusCode: 200 },
      cors: corsSettings(options.baseDomain),
      validate: {
        // Request objects accept extra properties: unknown keys are dropped, never an error.
        options: { abortEarly: true, allowUnknown: true, stripUnknown: { objects: true, arrays: false }, errors: { wrap: { label: false } } },
        failAction: (_request, _h, error) => {
          throw validationFailure(validationSource(error), error ?? new Error('Invalid request'));
        },
      },
    },
  });
  await server.register({ plugin: conventions, options: { baseDomain: options.baseDomain, workspaces: options.workspaces, logger: options.logger } });
  return server;
}

// hapi records which part of the request failed (payload, query, params) on the error it hands over.
function validationSource(error: Error | undefined): string {
  const source = (error as { output?: { payload?: { validation?: { source?: string } } } } | undefined)?.output?.payload?.validation?.source;
  return source ?? 'payload';
}

/**
 * Cross-subdomain browser calls: the exact origin of any `{subdomain}.{baseDomain}` (http or
 * https, any port) is answered with credentials allowed; hapi adds `Vary: origin`.
 */
function corsSettings(baseDomain: string) {
  const hosts = [`*.${baseDomain}`, `*.${baseDomain}:*`];
  return {
    origin: hosts.flatMap((host) => [`http://${host}`, `https://${host}`]),
    credentials: true,
    additionalHeaders: ['x-api-version'],
    additionalExposedHeaders: ['x-request-id', 'x-api-version', 'retry-after'],
  };
}
