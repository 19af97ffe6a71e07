import { appSearchAccess } from '../apps/index.js';
import type { CorePlugin } from '../core-inputs.js';
import { scheduleDictionaryPruning } from './maintenance.js';
import { registerSearchRoutes } from './routes.js';
import { SearchIndex } from './search-index.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    search: { index: SearchIndex };
  }
}

/**
 * The platform search index (apps feed it through `ctx.search`, see the `apps` plugin),
 * `GET/POST /search` (who may open which app and hold which keys: the apps' installations and
 * access), and the dictionary pruning that runs while the server listens.
 */
export const searchPlugin: CorePlugin = {
  name: 'search',
  dependencies: ['db', 'server', 'app-catalog'],
  register(server, { logger }) {
    const sequelize = server.plugins.db.database.sequelize;
    const { registry, installations } = server.plugins['app-catalog'];
    const index = new SearchIndex(sequelize);
    registerSearchRoutes(server, { index, access: appSearchAccess(registry, installations, sequelize) });
    let stopPruning = () => {};
    server.events.on('start', () => {
      stopPruning = scheduleDictionaryPruning(index, { logger });
    });
    server.events.on('stop', () => stopPruning());
    server.expose('index', index);
  },
};
