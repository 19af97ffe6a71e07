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
  async register(server, { config, logger }) {
    const { baseDomain, publicUrl, allowedHosts, requestTimeoutMs } = config;
    await installConventions(server, { baseDomain, publicUrl, allowedHosts, requestTimeoutMs, workspaces: server.plugins.tenancy.workspaces, logger });
  },
};
