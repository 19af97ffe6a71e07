import type { SearchHooks } from '@wpk/sdk';
import type { Models } from './models/index.js';
import { boardDocument } from './services/boards.js';

/** Search hooks: boards by name (description as detail); services keep the documents current. */
export const search: Record<string, SearchHooks<Models>> = {
  board: {
    async reindex(ctx) {
      return (await ctx.db.boards.findAll({ order: [['created_at', 'ASC']] })).map(boardDocument);
    },
  },
};
