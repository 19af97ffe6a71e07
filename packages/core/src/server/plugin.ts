import type { Request } from '@hapi/hapi';
import { resolveRequestAccess } from '../access/index.js';
import type { CorePlugin } from '../core-inputs.js';
import { installConventions } from './create-server.js';

/**
 * The platform's conventions on the runtime's server: the host check and the workspace of the
 * subdomain (from `tenancy`), `X-Api-Version`, 415, `{"error"}` bodies, the one `access denied`
 * log line, the request log, CORS, the text guard.
 */
export const serverPlugin: CorePlugin = {
  name: 'server',
  dependencies: ['tenancy'],
  async register(server, { config, logger, seams }) {
    const { baseDomain, publicUrl, allowedHosts, requestTimeoutMs, trustedProxies } = config;
    // The workspace of the subdomain comes with the request's access statement (access/request-access.ts).
    const fast = server.plugins.db.database.fast;
    const resolveWorkspace = (request: Request, subdomain: string) => resolveRequestAccess(fast, request, subdomain, seams.clock());
    await installConventions(server, { baseDomain, publicUrl, allowedHosts, requestTimeoutMs, trustedProxies, workspaces: server.plugins.tenancy.workspaces, resolveWorkspace, logger });
  },
};
