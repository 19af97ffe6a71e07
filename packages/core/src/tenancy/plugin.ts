import type { CorePlugin } from '../core-inputs.js';
import { WorkspaceService } from './workspaces.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    tenancy: { workspaces: WorkspaceService };
  }
}

/** Workspaces: the Workspace model bound to this runtime's connection, and the host → workspace rule's lookups. */
export const tenancyPlugin: CorePlugin = {
  name: 'tenancy',
  dependencies: ['db'],
  register(server) {
    server.expose('workspaces', new WorkspaceService(server.plugins.db.database.sequelize));
  },
};
