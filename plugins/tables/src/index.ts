import { defineApp } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { subscriptions } from './events/index.js';
import { migrations } from './migrations/index.js';
import { models } from './models/index.js';
import { routes } from './routes/index.js';
import { search } from './search.js';
import { roleOn } from './services/access.js';

/**
 * Tables: the app as the platform loads it. `tables/tables/{table_id}` is live
 * (docs/live-updates.md): every record, field and comment change of the table, for the members
 * with a role on its base.
 */
export default defineApp(manifest, {
  routes,
  migrations,
  models,
  subscriptions,
  search,
  live: {
    tables: {
      permission: 'tables.bases.read',
      async authorize(id, ctx) {
        const table = await ctx.db.tables.findById(id);
        const base = table ? await ctx.db.bases.findById(table.base_id) : null;
        return Boolean(base) && (await roleOn(ctx, base!)) !== 'none';
      },
    },
  },
});
