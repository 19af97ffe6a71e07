import type { SearchHooks } from '@wpk/sdk';
import type { Models } from './models/index.js';
import { companies } from './services/companies.js';
import { companyDocument } from './services/present.js';

/** Full re-index of a workspace: every company. */
export const search: Record<string, SearchHooks<Models>> = {
  company: {
    async *reindex(ctx) {
      for await (const company of companies.walk(ctx)) yield companyDocument(company);
    },
  },
};
