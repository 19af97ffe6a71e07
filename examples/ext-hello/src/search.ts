import type { SearchHooks } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Models } from './models/index.js';
import { greetingDocument } from './services/greetings.js';

/** Search hooks by type: `reindex` rebuilds a workspace's greetings in the index (`wpk search reindex`). */
export const search: Record<string, SearchHooks<Models, AppTypes>> = {
  greeting: {
    async reindex(ctx) {
      return (await ctx.db.greetings.findAll({ order: [['created_at', 'ASC']] })).map(greetingDocument);
    },
  },
};
