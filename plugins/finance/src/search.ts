import type { SearchHooks } from '@wpk/sdk';
import type { Models } from './models/index.js';
import { accountDocument, billDocument } from './services/search-documents.js';

/** Full re-index of a workspace's accounts and bills (services keep the index current as they change). */
export const search: Record<string, SearchHooks<Models>> = {
  account: { reindex: async (ctx) => (await ctx.db.accounts.findAll({ order: [['code', 'ASC']] })).map(accountDocument) },
  bill: { reindex: async (ctx) => (await ctx.db.bills.findAll({ order: [['created_at', 'ASC']] })).map(billDocument) },
};
