import type { SearchHooks } from '@wpk/sdk';
import type { Models } from './models/index.js';
import { competencies, competencyDocument } from './services/competencies.js';
import { goalDocument, goals } from './services/goals.js';

/** Full re-index of a workspace: every competency and goal. */
export const search: Record<string, SearchHooks<Models>> = {
  competency: {
    async *reindex(ctx) {
      for await (const row of competencies.walk(ctx)) yield competencyDocument(row);
    },
  },
  goal: {
    async *reindex(ctx) {
      for await (const row of goals.walk(ctx)) yield goalDocument(row);
    },
  },
};
