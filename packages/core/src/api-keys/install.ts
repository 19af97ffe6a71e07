import { systemClock, type Clock } from '../clock.js';
import type { Server } from '@hapi/hapi';
import type { Sequelize } from 'sequelize';
import { installPlatformGuard, type Credentials } from '../access/index.js';
import type { AppRegistry } from '../apps/index.js';
import type { IdentityService } from '../identity/index.js';
import { apiKeyRoutes } from './routes.js';
import { ApiKeyService, type ScopeCatalog } from './service.js';

/** The grantable keys of a workspace: those declared by the apps installed there. */
export function installedScopeCatalog(apps: AppRegistry): ScopeCatalog {
  return {
    async installedPermissions(workspaceId) {
      const catalog = new Map<string, string[]>();
      for (const namespace of await apps.installedApps(workspaceId)) {
        const app = apps.get(namespace);
        if (app) catalog.set(namespace, app.declaredKeys);
      }
      return catalog;
    },
  };
}

/**
 * Wires API keys into the runtime: the authenticator behind `Authorization: Bearer slk_...`,
 * the platform guard (a scoped key on a platform route needs the route's `account.*` key), the
 * key-management routes, and the last-used stamp (written only for requests that passed every
 * layer and reached their handler, at most once a minute per key).
 */
export function installApiKeys(server: Server, sequelize: Sequelize, identity: IdentityService, apps: AppRegistry, clock: Clock = systemClock): ApiKeyService {
  const keys = new ApiKeyService(sequelize, () => installedScopeCatalog(apps), clock);
  identity.useApiKeyAuthenticator({ authenticate: (secret) => keys.authenticate(secret) });
  installPlatformGuard(server);
  server.route(apiKeyRoutes(keys, sequelize));
  server.ext('onPreHandler', async (request, h) => {
    const credentials = request.auth.credentials as Credentials | null;
    if (request.auth.isAuthenticated && credentials?.via.kind === 'api_key') await keys.touch(credentials.via.keyId, credentials.via.lastUsedAt ?? null);
    return h.continue;
  });
  return keys;
}
