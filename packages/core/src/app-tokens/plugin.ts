import { defineCorePlugin, inputs, plugins } from '../core-plugin.js';
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
export const appTokensPlugin = defineCorePlugin({
  name: 'app-tokens',
  deps: { config: inputs.config, clock: inputs.clock, db: plugins.db, catalog: plugins['app-catalog'] },
  after: ['server'],
  async register(server, { config, clock, db, catalog }) {
    const signer = new AppTokenSigner(await loadSecretKey(config.secretKey, config.dataDir));
    const tokens = new AppTokenService(db.database.sequelize, signer, catalog.registry, catalog.installations, clock);
    server.route(appTokenRoutes(tokens));
    return { tokens, authenticator: { authenticate: (token: string) => tokens.authenticate(token) } };
  },
});
