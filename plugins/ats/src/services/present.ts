import type { SearchDocument } from '@wpk/sdk';
import type { Application, Candidate, Interview, Job } from '../models/index.js';

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

/** An interview as reads show it: never the self-schedule token's hash; `self_schedule_live` says whether a link works. */
export function presentInterview(interview: Interview, now: Date) {
  const { self_schedule_token_hash: hash, ...rest } = interview;
  return { ...rest, self_schedule_live: hash !== null && (!interview.self_schedule_expires_at || new Date(interview.self_schedule_expires_at) > now) };
}
