import { defineCorePlugin, plugins } from '../core-plugin.js';
import { WorkspaceService } from './workspaces.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    tenancy: { workspaces: WorkspaceService };
  }
}

/** Workspaces: the Workspace model bound to this runtime's connection, and the host → workspace rule's lookups. */
export const tenancyPlugin = defineCorePlugin({
  name: 'tenancy',
  deps: { db: plugins.db },
  register(_server, { db }) {
    return { workspaces: new WorkspaceService(db.database.sequelize) };
  },
});
