import type { SearchHooks } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Models } from './models/index.js';
import { pagesOf } from './services/access.js';
import { pageDocument } from './services/pages.js';

/** Search hooks by type: pages are found by title and text, by the members who may read them. */
export const search: Record<string, SearchHooks<Models, AppTypes>> = {
  page: {
    async *reindex(ctx) {
      for (const space of await ctx.db.spaces.findAll({ order: [['id', 'ASC']] })) {
        const byId = await pagesOf(ctx, space.id);
        for (const page of byId.values()) yield pageDocument(ctx, space, page, byId);
      }
    },
  },
};
