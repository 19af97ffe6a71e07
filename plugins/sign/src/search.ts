import type { SearchHooks } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Models } from './models/index.js';
import { envelopeDocument } from './services/envelopes.js';
import { templateDocument } from './services/templates.js';

/** Search hooks by type: envelopes by title, templates by name. */
export const search: Record<string, SearchHooks<Models, AppTypes>> = {
  envelope: {
    async *reindex(ctx) {
      for (const envelope of await ctx.db.envelopes.findAll({})) yield envelopeDocument(envelope);
    },
  },
  template: {
    async *reindex(ctx) {
      for (const template of await ctx.db.templates.findAll({})) yield templateDocument(template);
    },
  },
};
