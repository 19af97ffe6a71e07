import { appSearchAccess } from '../apps/index.js';
import { defineCorePlugin, inputs, plugins } from '../core-plugin.js';
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
export const searchPlugin = defineCorePlugin({
  name: 'search',
  deps: { logger: inputs.logger, db: plugins.db, catalog: plugins['app-catalog'] },
  after: ['server'],
  register(server, { logger, db, catalog }) {
    const sequelize = db.database.sequelize;
    const { registry, installations } = catalog;
    const index = new SearchIndex(sequelize);
    registerSearchRoutes(server, { index, access: appSearchAccess(registry, installations, sequelize) });
    let stopPruning = () => {};
    server.events.on('start', () => {
      stopPruning = scheduleDictionaryPruning(index, { logger });
    });
    server.events.on('stop', () => stopPruning());
    return { index };
  },
});
