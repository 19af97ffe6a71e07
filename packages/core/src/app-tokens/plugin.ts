import type { CorePlugin } from '../core-inputs.js';
import type { AppTokenAuthenticator } from '../identity/index.js';
import { loadSecretKey } from '../identity/index.js';
import { appTokenRoutes } from './routes.js';
import { AppTokenService } from './service.js';
import { AppTokenSigner } from './tokens.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    'app-tokens': { tokens: AppTokenService; authenticator: AppTokenAuthenticator };
  }
}

/**
 * App tokens: the credential the workspace shell hands an app's sandboxed front-end (docs/ui.md).
 * Exposes the authenticator the `identity` plugin's auth scheme judges `Bearer wpka_...` with, and
 * `POST /app-tokens`.
 */
export const appTokensPlugin: CorePlugin = {
  name: 'app-tokens',
  dependencies: ['db', 'server', 'app-catalog'],
  async register(server, { config, seams }) {
    const catalog = server.plugins['app-catalog'];
    const signer = new AppTokenSigner(await loadSecretKey(config.secretKey, config.dataDir));
    const tokens = new AppTokenService(server.plugins.db.database.sequelize, signer, catalog.registry, catalog.installations, seams.clock);
    server.route(appTokenRoutes(tokens));
    server.expose('tokens', tokens);
    server.expose('authenticator', { authenticate: (token: string) => tokens.authenticate(token) });
  },
};
