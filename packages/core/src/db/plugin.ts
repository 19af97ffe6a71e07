import { defineCorePlugin, inputs } from '../core-plugin.js';
import type { Database } from './database.js';
import { EmbeddedStatistics } from './embedded-statistics.js';
import { healthRoutes } from './routes.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    db: { database: Database; statistics: EmbeddedStatistics | null };
  }
}

/**
 * The database of this runtime (opened by `Runtime.create`, closed by `runtime.stop()`), `GET
 * /health`, and on the embedded database the planner statistics autovacuum would keep.
 */
export const dbPlugin = defineCorePlugin({
  name: 'db',
  deps: { database: inputs.database, logger: inputs.logger },
  register(server, { database, logger }) {
    server.route(healthRoutes(database));
    const statistics = database.isEmbedded ? new EmbeddedStatistics(database.sequelize, logger.child({ concern: 'db' })) : null;
    if (statistics) {
      server.ext('onPostStart', () => statistics.start());
      server.ext('onPreStop', () => statistics.stop());
    }
    return { database, statistics };
  },
});
