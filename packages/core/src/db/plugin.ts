import type { CorePlugin } from '../core-inputs.js';
import type { Database } from './database.js';
import { healthRoutes } from './routes.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    db: { database: Database };
  }
}

/** The database of this runtime (opened by `Runtime.create`, closed by `runtime.stop()`), and `GET /health`. */
export const dbPlugin: CorePlugin = {
  name: 'db',
  dependencies: [],
  register(server, { database }) {
    server.expose('database', database);
    server.route(healthRoutes(database));
  },
};
