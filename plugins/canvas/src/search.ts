import type { SearchHooks } from '@wpk/sdk';
import type { Models } from './models/index.js';
import { boards } from './services/boards.js';
import { boardDocument } from './services/present.js';

/** Search hooks: boards by name (description as detail); services keep the documents current. */
export const search: Record<string, SearchHooks<Models>> = {
  board: {
    async *reindex(ctx) {
      for await (const board of boards.walk(ctx)) yield boardDocument(board);
    },
  },
};
