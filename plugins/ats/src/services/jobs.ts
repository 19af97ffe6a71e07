import { ConflictError, ForbiddenError, InvalidError, Op } from '@wpk/sdk';
import { resource, type AtsContext, type AtsEvent } from '../kit.js';
import type { Job, JobApproval, JobStatus, ScreeningQuestion } from '../models/index.js';
import { jobMachine } from './machines.js';
import { defaultPipeline, stagesOf } from './pipelines.js';
import { jobDocument } from './present.js';

/** The workspace's jobs, oldest first: found by title (`q`), indexed for search, `job.created` and `job.deleted`. */
export const jobs = resource({
  model: 'jobs',
  label: 'Job',
  order: [['created_at', 'ASC'], ['id', 'ASC']],
  searchColumns: ['title'],
  search: { type: 'job', document: jobDocument },
  events: {
    created: (job, ctx) => ['core.ats.job.created', { job_id: job.id, title: job.title, pipeline_id: job.pipeline_id, created_by: ctx.member!.mrn }],
    deleted: (job, ctx) => ['core.ats.job.deleted', { job_id: job.id, deleted_by: ctx.member!.mrn }],
  },
});

export function requireJob(ctx: AtsContext, id: string, lock = false) {
  return jobs.require(ctx, id, lock ? { lock: 'update' } : {});
}

export interface JobInput {
  title: string; pipeline_id?: string; description?: string; department_mrn?: string; location?: string; workplace_type?: string;
  employment_type?: string; headcount?: number; hiring_manager_mrn?: string; recruiter_mrn?: string; hiring_team?: Job['hiring_team'];
  approvals?: Array<{ approver_mrn: string; status?: string; comment?: string }>; salary_min?: number; salary_max?: number;
  salary_currency?: string; salary_visible?: boolean; screening_questions?: ScreeningQuestion[]; careers_visibility?: string; assessment_ref?: string;
}

function checkScreeningQuestions(questions: ScreeningQuestion[]): void {
  const keys = new Set<string>();
  for (const [index, question] of questions.entries()) {
    if (keys.has(question.key)) throw new InvalidError(`screening_questions[${index}].key ${question.key} is used twice`);
    keys.add(question.key);
    const choice = question.type === 'single_select' || question.type === 'multi_select';
    if (choice && !(question.options?.length)) throw new InvalidError(`screening_questions[${index}].options is required for a ${question.type} question`);
    for (const answer of question.disqualify_on ?? []) {
      if (choice && !question.options!.includes(answer)) throw new InvalidError(`screening_questions[${index}].disqualify_on: ${answer} is not one of its options`);
      if (question.type === 'yes_no' && answer !== 'yes' && answer !== 'no') throw new InvalidError(`screening_questions[${index}].disqualify_on: a yes_no question is disqualified on yes or no`);
    }
  }
}

/** Creates a job in `draft`, on the given pipeline or the workspace's default one. */
export async function createJob(ctx: AtsContext, input: JobInput): Promise<Job> {
  if (input.salary_min !== undefined && input.salary_max !== undefined && input.salary_min > input.salary_max) throw new InvalidError('salary_min must not exceed salary_max');
  if ((input.salary_min !== undefined || input.salary_max !== undefined) && !input.salary_currency) throw new InvalidError('salary_currency is required with a salary range');
  checkScreeningQuestions(input.screening_questions ?? []);
  const approvers = new Set<string>();
  for (const [index, approval] of (input.approvals ?? []).entries()) {
    if (approvers.has(approval.approver_mrn)) throw new InvalidError(`approvals[${index}].approver_mrn ${approval.approver_mrn} is named twice`);
    approvers.add(approval.approver_mrn);
  }
  let pipelineId = input.pipeline_id;
  if (pipelineId) {
    if (!(await ctx.db.pipelines.findById(pipelineId))) throw new InvalidError(`pipeline_id ${pipelineId} is not a pipeline of this workspace`);
  } else pipelineId = (await defaultPipeline(ctx)).id;
  if ((await stagesOf(ctx, pipelineId)).length === 0) throw new InvalidError(`pipeline_id ${pipelineId} has no stages`);
  const job = await jobs.create(ctx, {
    title: input.title, pipeline_id: pipelineId, description: input.description ?? '', department_mrn: input.department_mrn ?? null,
    location: input.location ?? null, workplace_type: input.workplace_type ?? null, employment_type: input.employment_type ?? null,
    headcount: input.headcount ?? 1, hiring_manager_mrn: input.hiring_manager_mrn ?? null, recruiter_mrn: input.recruiter_mrn ?? null,
    hiring_team: input.hiring_team ?? [], salary_min: input.salary_min === undefined ? null : input.salary_min.toFixed(2),
    salary_max: input.salary_max === undefined ? null : input.salary_max.toFixed(2), salary_currency: input.salary_currency?.toUpperCase() ?? null,
    salary_visible: input.salary_visible ?? false, screening_questions: input.screening_questions ?? [], careers_visibility: input.careers_visibility ?? 'public',
    assessment_ref: input.assessment_ref ?? null, status: jobMachine.initial, created_by: ctx.member.id,
  });
  // A recorded decision given at creation counts (an approver who approved on paper); the rest wait.
  for (const approval of input.approvals ?? []) {
    const decided = approval.status && approval.status !== 'pending';
    await ctx.db.jobApprovals.create({ job_id: job.id, approver_mrn: approval.approver_mrn, status: approval.status ?? 'pending', comment: approval.comment ?? null, decided_at: decided ? ctx.now() : null });
  }
  return job;
}

export function approvalsOf(ctx: AtsContext, jobId: string): Promise<JobApproval[]> {
  return ctx.db.jobApprovals.findAll({ where: { job_id: jobId }, order: [['created_at', 'ASC'], ['approver_mrn', 'ASC']] });
}

export interface JobFilter { status?: string; q?: string; pipeline_id?: string }

export function listJobs(ctx: AtsContext, filter: JobFilter) {
  const where: Record<string | symbol, unknown> = {};
  if (filter.status) where.status = filter.status;
  if (filter.pipeline_id) where.pipeline_id = filter.pipeline_id;
  return jobs.list(ctx, { q: filter.q, where });
}

/** Makes the job's move to `to` (by `jobMachine`: 409 naming both states when there is none) and stages its event. */
async function setStatus(ctx: AtsContext, job: Job, to: JobStatus, reason: string | null): Promise<Job> {
  const { event } = jobMachine.moveTo(job.status, to);
  const now = ctx.now();
  const changes: Partial<Job> = { status: to, status_reason: reason };
  if (to === 'open' && !job.opened_at) changes.opened_at = now;
  if (to === 'closed') changes.closed_at = now;
  if (to === 'open') changes.closed_at = null;
  await ctx.db.jobs.update(changes, { where: { id: job.id } });
  ctx.events.stage(event as AtsEvent, { job_id: job.id, from_status: job.status, to_status: to, reason, changed_by: ctx.member.mrn });
  const updated = { ...job, ...changes };
  ctx.search.upsert(jobDocument(updated));
  return updated;
}

/**
 * Moves a job along `jobMachine`; an impossible move is 409 naming both states. A job with
 * approvers opens only once every approver approved; going back to draft or to approval resets
 * the decisions, so a changed job is approved again.
 */
export async function changeJobStatus(ctx: AtsContext, id: string, to: JobStatus, reason?: string): Promise<Job> {
  const job = await requireJob(ctx, id, true);
  jobMachine.moveTo(job.status, to);
  const approvals = await approvalsOf(ctx, id);
  if (to === 'approval' && approvals.length === 0) throw new ConflictError(`Job ${id} has no approvers; open it directly`);
  if (to === 'open' && (job.status === 'draft' || job.status === 'approval') && approvals.length > 0) {
    const waiting = approvals.filter((approval) => approval.status !== 'approved').map((approval) => approval.approver_mrn);
    if (waiting.length) throw new ConflictError(`A job cannot move from ${job.status} to open before every approver approved; waiting for ${waiting.join(', ')}`);
  }
  if (to === 'approval' || to === 'draft') await ctx.db.jobApprovals.update({ status: 'pending', comment: null, decided_at: null }, { where: { job_id: id } });
  return setStatus(ctx, job, to, reason ?? null);
}

/**
 * Records the caller's decision on a job waiting for approval. Only a listed approver decides;
 * the last approval opens the job, a rejection sends it back to draft with the comment.
 */
export async function recordApproval(ctx: AtsContext, id: string, status: string, comment?: string): Promise<{ job: Job; approval: JobApproval }> {
  const job = await requireJob(ctx, id, true);
  if (job.status !== 'approval') throw new ConflictError(`Job ${id} is ${job.status}, not waiting for approval`);
  const approval = await ctx.db.jobApprovals.findOne({ where: { job_id: id, approver_mrn: ctx.member.mrn } });
  if (!approval) throw new ForbiddenError(`You are not an approver of job ${id}`);
  await ctx.db.jobApprovals.update({ status, comment: comment ?? null, decided_at: ctx.now() }, { where: { id: approval.id } });
  ctx.events.stage('core.ats.job.approval_recorded', { job_id: id, approver_mrn: ctx.member.mrn, status, comment: comment ?? null });
  let updated: Job = job;
  if (status === 'rejected') updated = await setStatus(ctx, job, 'draft', comment ?? 'Approval rejected');
  else if ((await approvalsOf(ctx, id)).every((row) => row.status === 'approved')) updated = await setStatus(ctx, job, 'open', null);
  return { job: updated, approval: (await ctx.db.jobApprovals.findById(approval.id))! };
}

/** Deletes a job with its applications (and their interviews, scorecards and offers); a job with a hire cannot go. */
export async function deleteJob(ctx: AtsContext, id: string): Promise<{ id: string; deleted: true }> {
  const job = await requireJob(ctx, id, true);
  const hired = await ctx.db.applications.count({ where: { job_id: id, status: 'hired' } });
  if (hired > 0) throw new ConflictError(`Job ${id} has ${hired} hire(s); close it instead`);
  const applications = await ctx.db.applications.findAll({ where: { job_id: id }, attributes: ['id'] });
  await ctx.db.activities.update({ application_id: null }, { where: { application_id: { [Op.in]: applications.map((row) => row.id) } } });
  await ctx.db.messages.update({ application_id: null }, { where: { application_id: { [Op.in]: applications.map((row) => row.id) } } });
  await jobs.remove(ctx, job);
  for (const application of applications) ctx.search.remove('application', application.id);
  return { id, deleted: true };
}
