import type { SearchHooks } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Models } from './models/index.js';
import { readersOf } from './services/access.js';
import { paperSearchDocument } from './services/search-documents.js';

/** Search hooks by type: `reindex` rebuilds a workspace's papers from their JSON snapshots' text. */
export const search: Record<string, SearchHooks<Models, AppTypes>> = {
  paper: {
    async *reindex(ctx) {
      const papers = await ctx.db.papers.findAll({ where: { status: 'active' }, order: [['id', 'ASC']] });
      for (const paper of papers) {
        const document = await ctx.db.paperDocuments.findOne({ where: { paper_id: paper.id }, attributes: ['text'] });
        yield paperSearchDocument(paper, document?.text ?? '', await readersOf(ctx, paper));
      }
    },
  },
};
