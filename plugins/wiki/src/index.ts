import { defineApp, isUuid } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { subscriptions } from './events/index.js';
import { migrations } from './migrations/index.js';
import { models } from './models/index.js';
import { routes } from './routes/index.js';
import { search } from './search.js';
import { pagesOf, roleOn, sees } from './services/access.js';

/**
 * Wiki: the app as the platform loads it. An open page follows `wiki/pages/{page_id}`
 * (docs/live-updates.md): `doc.updated` (a Yjs update, base64) for everyone's edits; carets and who
 * is here travel as the channel's ephemeral signals. Only members who see the page may follow it.
 */
export default defineApp(manifest, {
  routes,
  migrations,
  models,
  subscriptions,
  search,
  live: {
    pages: {
      permission: 'wiki.spaces.read',
      signals: true,
      async authorize(id, ctx) {
        if (!isUuid(id)) return false;
        const page = await ctx.db.pages.findById(id);
        if (!page) return false;
        const space = await ctx.db.spaces.findById(page.space_id);
        if (!space) return false;
        const role = await roleOn(ctx, space);
        return role !== 'none' && sees(ctx.member.id, role, page, await pagesOf(ctx, space.id));
      },
    },
  },
});
