import type { SearchDocument, SearchHooks } from '@wpk/sdk';
import type { Application, Candidate, Job, Models } from './models/index.js';

/** The search document of a candidate: found by name or email, headline as detail. */
export function candidateDocument(candidate: Candidate): SearchDocument {
  return {
    type: 'candidate', id: candidate.id, title: candidate.name, subtitle: candidate.headline ?? candidate.email, url: `/ats/candidates/${candidate.id}`,
    names: [candidate.name, candidate.email], details: [candidate.headline ?? ''], filters: { source: candidate.source },
  };
}

/** The search document of a job: found by title, location as detail. */
export function jobDocument(job: Job): SearchDocument {
  return {
    type: 'job', id: job.id, title: job.title, subtitle: `Job · ${job.status}`, url: `/ats/jobs/${job.id}`,
    names: [job.title], details: [job.location ?? ''], filters: { status: job.status },
  };
}

/** The search document of an application: found by the candidate's name, the job's title as detail. */
export function applicationDocument(application: Application, candidateName: string, jobTitle: string): SearchDocument {
  return {
    type: 'application', id: application.id, title: `${candidateName} — ${jobTitle}`, subtitle: `Application · ${application.status}`, url: `/ats/applications/${application.id}`,
    names: [candidateName], details: [jobTitle], filters: { status: application.status, job_id: application.job_id },
  };
}

/** Full re-index of a workspace. */
export const search: Record<string, SearchHooks<Models>> = {
  candidate: { reindex: async (ctx) => (await ctx.db.candidates.findAll({ order: [['created_at', 'ASC']] })).map(candidateDocument) },
  job: { reindex: async (ctx) => (await ctx.db.jobs.findAll({ order: [['created_at', 'ASC']] })).map(jobDocument) },
  application: {
    async reindex(ctx) {
      const names = new Map((await ctx.db.candidates.findAll({ attributes: ['id', 'name'] })).map((row) => [row.id, row.name]));
      const titles = new Map((await ctx.db.jobs.findAll({ attributes: ['id', 'title'] })).map((row) => [row.id, row.title]));
      const rows = await ctx.db.applications.findAll({ order: [['created_at', 'ASC']] });
      return rows.map((row) => applicationDocument(row, names.get(row.candidate_id) ?? '', titles.get(row.job_id) ?? ''));
    },
  },
};
