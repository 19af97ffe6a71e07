import type { PluginProperties } from '@hapi/hapi';
import { installPlatformGuard, type Credentials } from '../access/index.js';
import { defineCorePlugin, inputs, plugins } from '../core-plugin.js';
import type { ApiKeyAuthenticator } from '../identity/index.js';
import { apiKeyRoutes } from './routes.js';
import { ApiKeyService, type ScopeCatalog } from './service.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    'api-keys': { keys: ApiKeyService; authenticator: ApiKeyAuthenticator };
  }
}

/** The grantable keys of a workspace: those declared by the apps installed there. */
function installedScopeCatalog(apps: PluginProperties['app-catalog']): ScopeCatalog {
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
export const apiKeysPlugin = defineCorePlugin({
  name: 'api-keys',
  deps: { clock: inputs.clock, db: plugins.db, catalog: plugins['app-catalog'] },
  after: ['server'],
  register(server, { clock, db, catalog: apps }) {
    const sequelize = db.database.sequelize;
    const catalog = installedScopeCatalog(apps);
    const keys = new ApiKeyService(sequelize, () => catalog, clock);
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
    return { keys, authenticator: { authenticate: (secret: string) => keys.authenticate(secret) } };
  },
});
