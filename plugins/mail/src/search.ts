import type { SearchHooks } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Models } from './models/index.js';
import { messageDocument } from './services/messages.js';

/** Search hooks: every stored message (queued ones are indexed once they leave). */
export const search: Record<string, SearchHooks<Models, AppTypes>> = {
  message: {
    async reindex(ctx) {
      const rows = await ctx.db.messages.findAll({ order: [['received_at', 'ASC'], ['id', 'ASC']] });
      return rows.filter((row) => row.delivery_status !== 'queued' && row.delivery_status !== 'failed').map(messageDocument);
    },
  },
};
