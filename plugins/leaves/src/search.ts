import type { SearchHooks } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Models } from './models/index.js';
import { typeDocument } from './services/types.js';

/** Search hooks by type: leave types are found by name. */
export const search: Record<string, SearchHooks<Models, AppTypes>> = {
  leave_type: {
    async *reindex(ctx) {
      for (const type of await ctx.db.leaveTypes.findAll({})) yield typeDocument(type);
    },
  },
};
