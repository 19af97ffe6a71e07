import type { SearchHooks } from '@wpk/sdk';
import type { Models } from './models/index.js';
import { departments } from './services/departments.js';
import { departmentDocument, workerDocument } from './services/present.js';
import { workers } from './services/workers.js';

/** Full re-index of a workspace: every worker, every department. */
export const search: Record<string, SearchHooks<Models>> = {
  worker: {
    async *reindex(ctx) {
      for await (const worker of workers.walk(ctx)) yield workerDocument(worker);
    },
  },
  department: {
    async *reindex(ctx) {
      for await (const department of departments.walk(ctx)) yield departmentDocument(department);
    },
  },
};
