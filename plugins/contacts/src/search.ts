import type { SearchHooks } from '@wpk/sdk';
import type { Contact, Models } from './models/index.js';
import { companyNames, contacts } from './services/contacts.js';
import { contactDocument } from './services/present.js';

/** Full re-index of a workspace: every contact, with company names from the app's copy (looked up a batch at a time). */
export const search: Record<string, SearchHooks<Models>> = {
  contact: {
    async *reindex(ctx) {
      const batch: Contact[] = [];
      async function* flush() {
        const names = await companyNames(ctx, batch.map((row) => row.company_mrn));
        for (const row of batch.splice(0)) yield contactDocument(row, row.company_mrn ? (names.get(row.company_mrn) ?? null) : null);
      }
      for await (const contact of contacts.walk(ctx)) {
        batch.push(contact);
        if (batch.length === 500) yield* flush();
      }
      yield* flush();
    },
  },
};
