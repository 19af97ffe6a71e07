import type { SearchHooks } from '@wpk/sdk';
import type { Models } from './models/index.js';
import { workerDocument } from './services/present.js';
import { workers } from './services/workers.js';

/** Full re-index of a workspace: every worker. */
export const search: Record<string, SearchHooks<Models>> = {
  worker: {
    async *reindex(ctx) {
      for await (const worker of workers.walk(ctx)) yield workerDocument(worker);
    },
  },
};
