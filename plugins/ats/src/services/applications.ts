import { ConflictError, conflictOnDuplicate, InvalidError, Op } from '@wpk/sdk';
import { resource, type AtsBaseContext, type AtsContext, type AtsEvent, type AtsRequestContext } from '../kit.js';
import type { Application, Job } from '../models/index.js';
import { addTimelineEntry, requireCandidate } from './candidates.js';
import { applicationMachine } from './machines.js';
import { DEFAULT_MESSAGES, sendMessage, wantsNotice, type Notify } from './messages.js';
import { stagesOf } from './pipelines.js';
import { applicationDocument, presentInterview } from './present.js';

/** The workspace's applications, oldest first (each indexed with its candidate's name and job's title, which the services know). */
export const applications = resource({ model: 'applications', label: 'Application', order: [['created_at', 'ASC'], ['id', 'ASC']] });

/** The status operations of `PATCH …/status`: the application machine's moves. */
export const STATUS_OPERATIONS = Object.keys(applicationMachine.moves) as Array<keyof typeof applicationMachine.moves>;
export type StatusOperation = (typeof STATUS_OPERATIONS)[number];

export function requireApplication(ctx: AtsContext, id: string, lock = false): Promise<Application> {
  return applications.require(ctx, id, lock ? { lock: 'update' } : {});
}

/** Whole days between two instants (floor), never negative. */
function daysBetween(from: Date, to: Date): number {
  return Math.max(0, Math.floor((to.getTime() - from.getTime()) / 86_400_000));
}

/** An application as reads show it: time in its stage and whether the stage's SLA is overdue. */
export async function withTiming(ctx: AtsContext, rows: Application[]) {
  const stageIds = [...new Set(rows.map((row) => row.stage_id))];
  const stages = new Map((stageIds.length ? await ctx.db.stages.findAll({ where: { id: { [Op.in]: stageIds } } }) : []).map((stage) => [stage.id, stage]));
  const now = ctx.now();
  return rows.map((row) => {
    const stage = stages.get(row.stage_id);
    const days = daysBetween(new Date(row.stage_entered_at), now);
    const sla = stage?.sla_days ?? 0;
    return {
      ...row,
      stage: stage ? { id: stage.id, name: stage.name, type: stage.type, position: stage.position, sla_days: sla } : null,
      days_in_stage: days,
      sla_overdue: row.status === 'active' && sla > 0 && days > sla,
    };
  });
}

function indexApplication(ctx: AtsBaseContext, application: Application, candidateName: string, jobTitle: string): void {
  ctx.search.upsert(applicationDocument(application, candidateName, jobTitle));
}

/** Answers to the job's screening questions: required ones answered, choices among the options; returns whether an answer disqualifies. */
export function judgeScreening(job: Job, answers: Record<string, unknown>): { disqualified: string[] } {
  const disqualified: string[] = [];
  for (const question of job.screening_questions) {
    const answer = answers[question.key];
    if (answer === undefined || answer === null || answer === '' || (Array.isArray(answer) && answer.length === 0)) {
      if (question.required) throw new InvalidError(`answers.${question.key} is required`);
      continue;
    }
    const values = (Array.isArray(answer) ? answer : [answer]).map(String);
    if (question.options?.length) for (const value of values) if (!question.options.includes(value)) throw new InvalidError(`answers.${question.key}: ${value} is not one of its options`);
    if (values.some((value) => question.disqualify_on?.includes(value))) disqualified.push(question.key);
  }
  return { disqualified };
}

export interface ApplicationInput { candidate_id: string; job_id: string; stage_id?: string; source?: string; answers?: Record<string, unknown> }

/**
 * Creates an application in the job's first stage (or `stage_id`, a stage of the job's
 * pipeline). The job must be open (or on hold, for a recruiter adding someone by hand); one
 * application per candidate and job. An answer that disqualifies rejects it at once.
 */
export async function createApplication(ctx: AtsRequestContext, input: ApplicationInput) {
  const createdBy = ctx.member?.id ?? null;
  const candidate = await ctx.db.candidates.findById(input.candidate_id);
  if (!candidate) throw new InvalidError(`candidate_id ${input.candidate_id} is not a candidate of this workspace`);
  const job = await ctx.db.jobs.findById(input.job_id, { lock: 'share' });
  if (!job) throw new InvalidError(`job_id ${input.job_id} is not a job of this workspace`);
  if (job.status !== 'open' && job.status !== 'hold') throw new ConflictError(`Job ${job.id} is ${job.status}; applications are taken while it is open`);
  const stages = await stagesOf(ctx, job.pipeline_id);
  const stage = input.stage_id ? stages.find((row) => row.id === input.stage_id) : stages[0];
  if (!stage) throw new InvalidError(`stage_id ${input.stage_id} is not a stage of job ${job.id}'s pipeline`);
  if (await ctx.db.applications.findOne({ where: { candidate_id: candidate.id, job_id: job.id } })) throw new ConflictError(`Candidate ${candidate.id} already applied to job ${job.id}`);
  const { disqualified } = judgeScreening(job, input.answers ?? {});
  const application = await conflictOnDuplicate(ctx.db.applications.create({
    candidate_id: candidate.id, job_id: job.id, stage_id: stage.id, status: disqualified.length ? 'rejected' : applicationMachine.initial, source: input.source ?? candidate.source ?? null,
    rejection_reason: disqualified.length ? `Disqualified by screening: ${disqualified.join(', ')}` : null, screening_answers: input.answers ?? {},
    stage_entered_at: ctx.now(), decided_at: disqualified.length ? ctx.now() : null, created_by: createdBy,
  }), `Candidate ${candidate.id} already applied to job ${job.id}`);
  indexApplication(ctx, application, candidate.name, job.title);
  ctx.events.stage('core.ats.application.created', { application_id: application.id, candidate_id: candidate.id, job_id: job.id, stage_id: stage.id });
  if (disqualified.length) ctx.events.stage('core.ats.application.status_changed', { application_id: application.id, from_status: 'active', to_status: 'rejected', changed_by: null });
  return application;
}

export interface ApplicationFilter { job_id?: string; candidate_id?: string; stage_id?: string; status?: string }

export function listApplications(ctx: AtsContext, filter: ApplicationFilter) {
  const where: Record<string, unknown> = {};
  for (const key of ['job_id', 'candidate_id', 'stage_id', 'status'] as const) if (filter[key]) where[key] = filter[key];
  return applications.list(ctx, { where });
}

/**
 * Moves an active application to another stage of its job's pipeline; the note goes on the
 * timeline. Moving forward out of a stage with `required_evaluations` needs that many submitted
 * (non-shadow) scorecards of the stage; moving back never does.
 */
export async function moveApplication(ctx: AtsContext, id: string, stageId: string, note?: string, notify?: Notify): Promise<Application> {
  const notice = wantsNotice(notify);
  const application = await requireApplication(ctx, id, true);
  if (application.status !== 'active') throw new ConflictError(`Application ${id} is ${application.status}; only an active application moves between stages`);
  const job = (await ctx.db.jobs.findById(application.job_id))!;
  const stages = await stagesOf(ctx, job.pipeline_id);
  const target = stages.find((stage) => stage.id === stageId);
  if (!target) throw new InvalidError(`stage_id ${stageId} is not a stage of job ${job.id}'s pipeline`);
  if (target.id === application.stage_id) throw new ConflictError(`Application ${id} is already in stage ${target.name}`);
  const from = stages.find((stage) => stage.id === application.stage_id);
  if (from && from.required_evaluations > 0 && target.position > from.position) {
    const submitted = await ctx.db.evaluations.count({ where: { application_id: id, stage_id: from.id, status: 'submitted', is_shadow: false } });
    if (submitted < from.required_evaluations) throw new ConflictError(`Stage ${from.name} needs ${from.required_evaluations} submitted scorecard(s) before the application moves on; it has ${submitted}`);
  }
  const now = ctx.now();
  await ctx.db.applications.update({ stage_id: stageId, stage_entered_at: now }, { where: { id } });
  await addTimelineEntry(ctx, { candidate_id: application.candidate_id, application_id: id, kind: 'stage_moved', content: `${from?.name ?? 'unknown'} → ${target.name}${note ? `: ${note}` : ''}`, author_mrn: ctx.member.mrn });
  ctx.events.stage('core.ats.application.stage_changed', { application_id: id, from_stage_id: application.stage_id, to_stage_id: stageId, moved_by: ctx.member.mrn });
  const moved = { ...application, stage_id: stageId, stage_entered_at: now };
  if (notice) {
    const candidate = await requireCandidate(ctx, application.candidate_id);
    await sendMessage(ctx, { candidate, application: moved, trigger: 'stage_moved', template_id: notify!.template_id, fallback: DEFAULT_MESSAGES.stage_moved, values: { stage_name: target.name } });
  }
  return moved;
}

/**
 * Applies a status operation (reject, hire, hold, withdraw, reopen) by `applicationMachine`; an
 * impossible one is 409 naming both states. Hiring needs the job open and lands the application
 * in the pipeline's `hired` stage when it has one.
 */
export async function changeApplicationStatus(ctx: AtsContext, id: string, operation: StatusOperation, rejectionReason?: string, notify?: Notify): Promise<Application> {
  const notice = wantsNotice(notify);
  const application = await requireApplication(ctx, id, true);
  const move = applicationMachine.move(application.status, operation);
  const job = (await ctx.db.jobs.findById(application.job_id, { lock: 'share' }))!;
  const changes: Partial<Application> = { status: move.to, decided_at: move.to === 'active' ? null : ctx.now(), rejection_reason: move.to === 'rejected' ? (rejectionReason ?? null) : null };
  if (operation === 'hire') {
    if (job.status !== 'open') throw new ConflictError(`Job ${job.id} is ${job.status}; hiring needs it open`);
    const hiredStage = (await stagesOf(ctx, job.pipeline_id)).find((stage) => stage.type === 'hired');
    if (hiredStage && hiredStage.id !== application.stage_id) Object.assign(changes, { stage_id: hiredStage.id, stage_entered_at: ctx.now() });
  }
  await ctx.db.applications.update(changes, { where: { id } });
  const candidate = await requireCandidate(ctx, application.candidate_id);
  const updated = { ...application, ...changes };
  await addTimelineEntry(ctx, { candidate_id: application.candidate_id, application_id: id, kind: 'status_changed', content: `${application.status} → ${move.to}${rejectionReason && move.to === 'rejected' ? `: ${rejectionReason}` : ''}`, author_mrn: ctx.member.mrn });
  indexApplication(ctx, updated, candidate.name, job.title);
  ctx.events.stage(move.event as AtsEvent, { application_id: id, from_status: application.status, to_status: move.to, changed_by: ctx.member.mrn });
  if (move.to === 'hired') {
    ctx.events.stage('core.ats.application.hired', { application_id: id, candidate_id: candidate.id, candidate_name: candidate.name, candidate_email: candidate.email, job_id: job.id, job_title: job.title, hired_by: ctx.member.mrn });
  }
  if (notice) await sendMessage(ctx, { candidate, application: updated, trigger: 'status_changed', template_id: notify!.template_id, fallback: DEFAULT_MESSAGES[operation] });
  return updated;
}

/** Deletes an application with its interviews, scorecards and offers; its timeline entries stay on the candidate. */
export async function deleteApplication(ctx: AtsContext, id: string): Promise<{ id: string; deleted: true }> {
  await requireApplication(ctx, id, true);
  await ctx.db.activities.update({ application_id: null }, { where: { application_id: id } });
  await ctx.db.messages.update({ application_id: null }, { where: { application_id: id } });
  await ctx.db.applications.destroy({ where: { id } });
  ctx.search.remove('application', id);
  ctx.events.stage('core.ats.application.deleted', { application_id: id, deleted_by: ctx.member.mrn });
  return { id, deleted: true };
}

/** The application with its interviews, scorecards and offers. */
export async function readApplication(ctx: AtsContext, id: string) {
  const application = await requireApplication(ctx, id);
  const [timed] = await withTiming(ctx, [application]);
  const where = { application_id: id };
  const interviews = await ctx.db.interviews.findAll({ where, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  const evaluations = await ctx.db.evaluations.findAll({ where, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  const offers = await ctx.db.offers.findAll({ where, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  return { ...timed, interviews: interviews.map((interview) => presentInterview(interview, ctx.now())), evaluations, offers };
}
