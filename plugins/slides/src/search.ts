import type { SearchHooks } from '@wpk/sdk';
import type { Models } from './models/index.js';
import { decks } from './services/decks.js';
import { deckDocument } from './services/present.js';

/** Search hooks: decks by title, their text as detail; services keep the documents current. */
export const search: Record<string, SearchHooks<Models>> = {
  deck: {
    async *reindex(ctx) {
      for await (const deck of decks.walk(ctx)) yield deckDocument(deck);
    },
  },
};
