import type { Request } from '@hapi/hapi';
import { resolveRequestAccess } from '../access/index.js';
import { defineCorePlugin, inputs, plugins } from '../core-plugin.js';
import { installConventions } from './create-server.js';

/**
 * The platform's conventions on the runtime's server: the host check, the admission gate, the workspace of the
 * subdomain (from `tenancy`), `X-Api-Version`, 415, `{"error"}` bodies, the one `access denied`
 * log line, the request log, CORS, the text guard.
 */
export const serverPlugin = defineCorePlugin({
  name: 'server',
  deps: { config: inputs.config, logger: inputs.logger, clock: inputs.clock, db: plugins.db, tenancy: plugins.tenancy },
  async register(server, { config, logger, clock, db, tenancy }) {
    const { baseDomain, publicUrl, allowedHosts, requestTimeoutMs, trustedProxies, admission } = config;
    // The workspace of the subdomain comes with the request's access statement (access/request-access.ts).
    const fast = db.database.fast;
    const resolveWorkspace = (request: Request, subdomain: string) => resolveRequestAccess(fast, request, subdomain, clock());
    await installConventions(server, { baseDomain, publicUrl, allowedHosts, requestTimeoutMs, trustedProxies, workspaces: tenancy.workspaces, resolveWorkspace, logger, admission });
  },
});
