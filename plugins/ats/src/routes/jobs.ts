import { Joi } from '@wpk/sdk';
import { route } from '../kit.js';
import { JOB_STATUSES, type Job } from '../models/index.js';
import { approvalsOf, changeJobStatus, createJob, deleteJob, listJobs, recordApproval, requireJob } from '../services/jobs.js';
import { listMatches } from '../services/matches.js';
import { APPROVAL_STATUSES, CAREERS_VISIBILITY, EMPLOYMENT_TYPES, HIRING_TEAM_ROLES, QUESTION_TYPES, WORKPLACE_TYPES, currency, id, text } from './schemas.js';
import { APPROVAL_RECORDED, DELETED, JOB, JOB_WITH_APPROVALS, MATCH } from './answers.js';

const present = (job: Job) => {
  const { search_vector: _vector, ...rest } = job as Job & { search_vector?: unknown };
  return rest;
};

/** Jobs: list, create, read, delete, status moves, approvals, matches. */
export const jobRoutes = [
  route({
    method: 'GET', path: '/ats/jobs', chain: ['ats.jobs.read'], answers: { collection: JOB }, description: 'Lists jobs, oldest first; filters status, pipeline_id, q (title)',
    validate: { query: Joi.listQuery({ status: Joi.string().valid(...JOB_STATUSES), pipeline_id: id(), q: Joi.string().max(200).allow('') }) },
    async handler(request, ctx) {
      const { rows, count } = await listJobs(ctx, request.query);
      return ctx.respond.collection(rows.map(present), count);
    },
  }),
  route({
    method: 'POST', path: '/ats/jobs', chain: ['ats.jobs.create'], answers: { single: JOB_WITH_APPROVALS }, description: 'Creates a job in draft',
    validate: {
      payload: Joi.object({
        title: Joi.string().trim().min(1).max(200).required(),
        pipeline_id: Joi.string().max(100),
        description: text(50000),
        department_mrn: Joi.string().max(200),
        location: Joi.string().max(200),
        workplace_type: Joi.string().valid(...WORKPLACE_TYPES),
        employment_type: Joi.string().valid(...EMPLOYMENT_TYPES),
        headcount: Joi.number().integer().min(1).max(999),
        hiring_manager_mrn: Joi.memberMrn(),
        recruiter_mrn: Joi.memberMrn(),
        hiring_team: Joi.array().max(50).items(Joi.object({ member_mrn: Joi.memberMrn().required(), role: Joi.string().valid(...HIRING_TEAM_ROLES).required() })),
        approvals: Joi.array().max(20).items(Joi.object({ approver_mrn: Joi.memberMrn().required(), status: Joi.string().valid(...APPROVAL_STATUSES), comment: text(1000) })),
        salary_min: Joi.number().min(0).max(999_999_999_999),
        salary_max: Joi.number().min(0).max(999_999_999_999),
        salary_currency: currency(),
        salary_visible: Joi.boolean(),
        screening_questions: Joi.array().max(50).items(Joi.object({
          text: Joi.string().trim().min(1).max(1000).required(),
          type: Joi.string().valid(...QUESTION_TYPES).required(),
          key: Joi.string().pattern(/^[a-z0-9_]{1,50}$/).required().messages({ 'string.pattern.base': '{#label} must be 1-50 lowercase letters, digits or _' }),
          html: text(5000),
          options: Joi.array().max(50).items(Joi.string().min(1).max(200)).unique(),
          disqualify_on: Joi.array().max(50).items(Joi.string().min(1).max(200)),
          required: Joi.boolean(),
        })),
        careers_visibility: Joi.string().valid(...CAREERS_VISIBILITY),
        assessment_ref: Joi.string().max(100),
      }),
    },
    async handler(request, ctx) {
      const job = await createJob(ctx, request.payload);
      return ctx.respond.single({ ...present(job), approvals: await approvalsOf(ctx, job.id) }, { self: `/ats/jobs/${job.id}` });
    },
  }),
  route({
    method: 'GET', path: '/ats/jobs/{job_id}', chain: ['ats.jobs.read'], answers: { single: JOB_WITH_APPROVALS }, description: 'Reads a job with its approvals',
    validate: { params: Joi.idParams('job_id') },
    async handler(request, ctx) {
      const job = await requireJob(ctx, request.params.job_id);
      return ctx.respond.single({ ...present(job), approvals: await approvalsOf(ctx, job.id) }, { applications: `/ats/applications?job_id=${job.id}`, matches: `/ats/jobs/${job.id}/matches` });
    },
  }),
  route({
    method: 'DELETE', path: '/ats/jobs/{job_id}', chain: ['ats.jobs.delete'], answers: { single: DELETED }, description: 'Deletes a job and its applications (not one with a hire)',
    validate: { params: Joi.idParams('job_id') },
    handler: async (request, ctx) => ctx.respond.single(await deleteJob(ctx, request.params.job_id)),
  }),
  route({
    method: 'PATCH', path: '/ats/jobs/{job_id}/status', chain: ['ats.jobs.edit'], answers: { single: JOB_WITH_APPROVALS }, description: 'Moves a job: draft, approval, open, hold, closed',
    validate: { params: Joi.idParams('job_id'), payload: Joi.object({ status: Joi.string().valid(...JOB_STATUSES).required(), reason: text(1000) }) },
    async handler(request, ctx) {
      const job = await changeJobStatus(ctx, request.params.job_id, request.payload.status, request.payload.reason);
      return ctx.respond.single({ ...present(job), approvals: await approvalsOf(ctx, job.id) }, { self: `/ats/jobs/${job.id}` });
    },
  }),
  route({
    method: 'POST', path: '/ats/jobs/{job_id}/approvals', chain: ['ats.jobs.approve'], answers: { single: APPROVAL_RECORDED }, description: "Records the caller's approval decision",
    validate: { params: Joi.idParams('job_id'), payload: Joi.object({ status: Joi.string().valid('approved', 'rejected').required(), comment: text(1000) }) },
    async handler(request, ctx) {
      const { job, approval } = await recordApproval(ctx, request.params.job_id, request.payload.status, request.payload.comment);
      return ctx.respond.single({ approval, job: { ...present(job), approvals: await approvalsOf(ctx, job.id) } }, { self: `/ats/jobs/${job.id}` });
    },
  }),
  route({
    method: 'GET', path: '/ats/jobs/{job_id}/matches', chain: ['ats.candidates.view'], answers: { collection: MATCH }, description: "Candidates ranked against the job's text, nearest first",
    validate: { params: Joi.idParams('job_id'), query: Joi.listQuery() },
    async handler(request, ctx) {
      const { rows, count } = await listMatches(ctx, request.params.job_id);
      return ctx.respond.collection(rows, count);
    },
  }),
];
