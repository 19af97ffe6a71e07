import type { Request } from '@hapi/hapi';
import type { SearchableType, SearchDocument } from '@wpk/sdk';
import type { Sequelize } from 'sequelize';
import { credentialsOf, defaultPermissionSourceFactory, isInstalled } from '../access/index.js';
import type { InstallationService } from './installations.js';
import type { SearchIndexer } from './search-operations.js';
import type { AppRegistry } from './registry.js';

/** What the platform search needs from apps and access (search/SearchAccess). */
export interface AppSearchAccess {
  canOpenApp(request: Request, app: string): Promise<boolean>;
  heldKeys(request: Request, app: string): Promise<ReadonlySet<string> | 'all'>;
  searchableTypes(app: string): readonly SearchableType[];
}

/**
 * Layer 4 for the caller, the caller's keys in the app (read fresh, `'all'` for the universal
 * wildcard), and the app's searchable types. Unknown apps cannot be opened and declare no types.
 */
export function appSearchAccess(registry: AppRegistry, installations: InstallationService, sequelize: Sequelize): AppSearchAccess {
  const sourceOf = (request: Request) => defaultPermissionSourceFactory(credentialsOf(request), sequelize);
  return {
    canOpenApp: async (request, namespace) => {
      const workspace = request.app.workspace;
      if (!workspace || !registry.has(namespace)) return false;
      const installation = await installations.find(workspace.id, namespace);
      if (!isInstalled(installation)) return false;
      return (await sourceOf(request).appAccess(namespace, installation)).allowed;
    },
    heldKeys: async (request, namespace) => {
      const app = registry.get(namespace);
      const permissions = await sourceOf(request).appPermissions(namespace);
      if (permissions.universal) return 'all';
      return new Set(app ? permissions.expand(app.declaredKeys) : []);
    },
    searchableTypes: (namespace) => registry.get(namespace)?.manifest.search ?? [],
  };
}

/** A SearchIndexer over the search engine's index (`upsert(workspaceId, app, document)`, `remove(workspaceId, app, type, id)`). */
export function searchIndexerOver(index: { upsert(workspaceId: string, app: string, document: SearchDocument): Promise<unknown>; remove(workspaceId: string, app: string, type: string, id: string): Promise<unknown> }): SearchIndexer {
  return {
    async apply(scope, operations) {
      for (const operation of operations) {
        if (operation.op === 'upsert') await index.upsert(scope.workspaceId, scope.app, operation.document);
        else await index.remove(scope.workspaceId, scope.app, operation.type, operation.id);
      }
    },
  };
}
