import type { SearchHooks } from '@wpk/sdk';
import type { Models } from './models/index.js';
import { bills } from './services/bills.js';
import { accounts } from './services/chart.js';
import { accountDocument, billDocument } from './services/search-documents.js';

/** Full re-index of a workspace's accounts and bills (services keep the index current as they change). */
export const search: Record<string, SearchHooks<Models>> = {
  account: {
    async *reindex(ctx) {
      for await (const account of accounts.walk(ctx)) yield accountDocument(account);
    },
  },
  bill: {
    async *reindex(ctx) {
      for await (const bill of bills.walk(ctx)) yield billDocument(bill);
    },
  },
};
