import { defineApp, isUuid } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { subscriptions } from './events/index.js';
import { migrations } from './migrations/index.js';
import { models } from './models/index.js';
import { routes } from './routes/index.js';
import { search } from './search.js';
import { levelOf } from './services/access.js';

/**
 * Papers: documents in folders, written together live. An open paper follows
 * `papers/papers/{paper_id}` (docs/live-updates.md): `doc.updated` (a Yjs update, base64) for
 * everyone's edits, `paper.*` and `comment.*`; carets and who is here travel as the channel's
 * ephemeral signals. Only members with a level on the paper may follow it.
 */
export default defineApp(manifest, {
  routes,
  migrations,
  models,
  subscriptions,
  search,
  live: {
    papers: {
      permission: 'papers.papers.read',
      signals: true,
      async authorize(id, ctx) {
        if (!isUuid(id)) return false;
        const paper = await ctx.db.papers.findById(id);
        return paper !== null && paper.status === 'active' && (await levelOf(ctx, paper)) !== null;
      },
    },
  },
});
