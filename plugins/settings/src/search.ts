import type { SearchHooks } from '@wpk/sdk';
import type { Models } from './models/index.js';
import { locations } from './services/locations.js';
import { locationDocument } from './services/present.js';

/** Full re-index of a workspace: every location. */
export const search: Record<string, SearchHooks<Models>> = {
  location: {
    async *reindex(ctx) {
      for await (const location of locations.walk(ctx)) yield locationDocument(location);
    },
  },
};
