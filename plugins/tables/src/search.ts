import type { SearchHooks } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Models } from './models/index.js';
import { searchDocument } from './services/records.js';

/** Search hooks by type: records are found by their title (the primary field's value). */
export const search: Record<string, SearchHooks<Models, AppTypes>> = {
  record: {
    async *reindex(ctx) {
      const tables = new Map((await ctx.db.tables.findAll({})).map((table) => [table.id, table]));
      for (const record of await ctx.db.records.findAll({ attributes: ['id', 'table_id', 'number', 'title'] })) {
        const table = tables.get(record.table_id);
        if (table) yield searchDocument(table, record);
      }
    },
  },
};
