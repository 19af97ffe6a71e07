import type { SearchHooks } from '@wpk/sdk';
import type { Models } from './models/index.js';
import { applications } from './services/applications.js';
import { candidates } from './services/candidates.js';
import { jobs } from './services/jobs.js';
import { applicationDocument, candidateDocument, jobDocument } from './services/present.js';

/** Full re-index of a workspace, each type read by keyset a batch at a time. */
export const search: Record<string, SearchHooks<Models>> = {
  candidate: {
    async *reindex(ctx) {
      for await (const candidate of candidates.walk(ctx)) yield candidateDocument(candidate);
    },
  },
  job: {
    async *reindex(ctx) {
      for await (const job of jobs.walk(ctx)) yield jobDocument(job);
    },
  },
  application: {
    async *reindex(ctx) {
      const names = new Map((await ctx.db.candidates.findAll({ attributes: ['id', 'name'] })).map((row) => [row.id, row.name]));
      const titles = new Map((await ctx.db.jobs.findAll({ attributes: ['id', 'title'] })).map((row) => [row.id, row.title]));
      for await (const application of applications.walk(ctx)) yield applicationDocument(application, names.get(application.candidate_id) ?? '', titles.get(application.job_id) ?? '');
    },
  },
};
