import type { SearchHooks } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Models } from './models/index.js';
import { dealDocument } from './services/deals.js';
import { leadDocument } from './services/leads.js';
import { productDocument } from './services/products.js';

/** Search hooks by type: leads, deals and products. */
export const search: Record<string, SearchHooks<Models, AppTypes>> = {
  lead: {
    async *reindex(ctx) {
      for (const lead of await ctx.db.leads.findAll({})) yield leadDocument(lead);
    },
  },
  deal: {
    async *reindex(ctx) {
      const stages = new Map((await ctx.db.stages.findAll({})).map((stage) => [stage.id, stage]));
      for (const deal of await ctx.db.deals.findAll({})) yield dealDocument(deal, stages.get(deal.stage_id));
    },
  },
  product: {
    async *reindex(ctx) {
      for (const product of await ctx.db.products.findAll({})) yield productDocument(product);
    },
  },
};
