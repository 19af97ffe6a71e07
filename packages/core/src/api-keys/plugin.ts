import type { Server } from '@hapi/hapi';
import { installPlatformGuard, type Credentials } from '../access/index.js';
import type { CorePlugin } from '../core-inputs.js';
import type { ApiKeyAuthenticator } from '../identity/index.js';
import { apiKeyRoutes } from './routes.js';
import { ApiKeyService, type ScopeCatalog } from './service.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    'api-keys': { keys: ApiKeyService; authenticator: ApiKeyAuthenticator };
  }
}

/** The grantable keys of a workspace: those declared by the apps installed there. */
function installedScopeCatalog(apps: Server['plugins']['app-catalog']): ScopeCatalog {
  return {
    async installedPermissions(workspaceId) {
      const catalog = new Map<string, string[]>();
      for (const namespace of await apps.installations.installedApps(workspaceId)) {
        const app = apps.registry.get(namespace);
        if (app) catalog.set(namespace, app.declaredKeys);
      }
      return catalog;
    },
  };
}

/**
 * Workspace API keys: the authenticator behind `Authorization: Bearer slk_...` (exposed for the
 * `identity` plugin's auth scheme), the platform guard (a scoped key on a platform route needs
 * the route's `account.*` key), the key-management routes, and the last-used stamp (written only
 * for requests that passed every layer and reached their handler, at most once a minute per key).
 */
export const apiKeysPlugin: CorePlugin = {
  name: 'api-keys',
  dependencies: ['db', 'server', 'app-catalog'],
  register(server, inputs) {
    const sequelize = server.plugins.db.database.sequelize;
    const catalog = installedScopeCatalog(server.plugins['app-catalog']);
    const keys = new ApiKeyService(sequelize, () => catalog, inputs.seams.clock);
    installPlatformGuard(server);
    server.route(apiKeyRoutes(keys, sequelize));
    // Synchronous unless the stamp is due (once a minute per key): most requests cost hapi no promise here.
    server.ext('onPreHandler', (request, h) => {
      const credentials = request.auth.credentials as Credentials | null;
      if (!request.auth.isAuthenticated || credentials?.via.kind !== 'api_key') return h.continue;
      const lastUsedAt = credentials.via.lastUsedAt ?? null;
      if (!keys.touchDue(lastUsedAt)) return h.continue;
      return keys.touch(credentials.member.workspaceId, credentials.via.keyId, lastUsedAt).then(() => h.continue);
    });
    server.expose('keys', keys);
    server.expose('authenticator', { authenticate: (secret: string) => keys.authenticate(secret) });
  },
};
