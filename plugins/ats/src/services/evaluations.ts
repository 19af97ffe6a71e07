import { ConflictError, InvalidError } from '@wpk/sdk';
import { resource, type AtsContext, type AtsEvent } from '../kit.js';
import type { Evaluation } from '../models/index.js';
import { requireApplication } from './applications.js';
import { scorecardMachine } from './machines.js';

/** Overall recommendations of a scorecard, Greenhouse's four. */
export const RECOMMENDATIONS = ['strong_no', 'no', 'yes', 'strong_yes'] as const;

/** The workspace's scorecards (their reads hang off the application); `evaluation.requested` on create. */
const scorecards = resource({
  model: 'evaluations',
  label: 'Scorecard',
  order: [['created_at', 'ASC'], ['id', 'ASC']],
  events: { created: (card) => ['core.ats.evaluation.requested', { evaluation_id: card.id, application_id: card.application_id, evaluator_mrn: card.evaluator_mrn }] },
});

function requireEvaluation(ctx: AtsContext, id: string): Promise<Evaluation> {
  return scorecards.require(ctx, id, { lock: 'update' });
}

/**
 * Asks a member (the route checked they are one, not removed) for a scorecard on an application, for its current stage unless `stage_id`
 * says otherwise, optionally tied to one of its interviews. A member has one open request per
 * application, stage and interview.
 */
export async function requestEvaluation(ctx: AtsContext, applicationId: string, input: { evaluator_mrn: string; stage_id?: string; interview_id?: string; is_shadow?: boolean }) {
  const application = await requireApplication(ctx, applicationId, true);
  if (application.status !== 'active' && application.status !== 'on_hold') throw new ConflictError(`Application ${applicationId} is ${application.status}; scorecards are asked on open applications`);
  const job = (await ctx.db.jobs.findById(application.job_id))!;
  const stageId = input.stage_id ?? application.stage_id;
  if (!(await ctx.db.stages.findOne({ where: { id: stageId, pipeline_id: job.pipeline_id } }))) throw new InvalidError(`stage_id ${stageId} is not a stage of job ${job.id}'s pipeline`);
  if (input.interview_id) {
    const interview = await ctx.db.interviews.findById(input.interview_id);
    if (!interview || interview.application_id !== applicationId) throw new InvalidError(`interview_id ${input.interview_id} is not an interview of application ${applicationId}`);
    if (interview.status === 'cancelled') throw new ConflictError(`Interview ${input.interview_id} is cancelled`);
  }
  const open = await ctx.db.evaluations.findOne({ where: { application_id: applicationId, evaluator_mrn: input.evaluator_mrn, stage_id: stageId, interview_id: input.interview_id ?? null, status: 'requested' } });
  if (open) throw new ConflictError(`${input.evaluator_mrn} already has an open scorecard request ${open.id} for this stage`);
  return scorecards.create(ctx, {
    application_id: applicationId, evaluator_mrn: input.evaluator_mrn, stage_id: stageId, interview_id: input.interview_id ?? null,
    is_shadow: input.is_shadow ?? false, status: scorecardMachine.initial, requested_by: ctx.member.id,
  });
}

export interface SubmissionInput { ratings?: Array<{ key: string; rating: number; note?: string }>; recommendation: string; notes?: string }

/**
 * The evaluator submits the scorecard: a rating 1-4 per criterion of the stage (every criterion,
 * each once) and an overall recommendation. A submitted or cancelled scorecard is the machine's 409.
 */
export async function submitEvaluation(ctx: AtsContext, id: string, input: SubmissionInput): Promise<Evaluation> {
  const evaluation = await requireEvaluation(ctx, id);
  const { to, event } = scorecardMachine.move(evaluation.status, 'submit');
  const stage = evaluation.stage_id ? await ctx.db.stages.findById(evaluation.stage_id) : null;
  const criteria = stage?.criteria.map((criterion) => criterion.key) ?? [];
  const ratings = input.ratings ?? [];
  const seen = new Set<string>();
  for (const [index, rating] of ratings.entries()) {
    if (seen.has(rating.key)) throw new InvalidError(`ratings[${index}].key ${rating.key} is rated twice`);
    seen.add(rating.key);
    if (!criteria.includes(rating.key)) throw new InvalidError(`ratings[${index}].key ${rating.key} is not a criterion of the stage${criteria.length ? ` (${criteria.join(', ')})` : ''}`);
  }
  const missing = criteria.filter((key) => !seen.has(key));
  if (missing.length) throw new InvalidError(`ratings: rate every criterion of the stage; missing ${missing.join(', ')}`);
  const changes: Partial<Evaluation> = { status: to, ratings, recommendation: input.recommendation, notes: input.notes ?? null, submitted_at: ctx.now() };
  await ctx.db.evaluations.update(changes, { where: { id } });
  ctx.events.stage(event as AtsEvent, { evaluation_id: id, application_id: evaluation.application_id, evaluator_mrn: evaluation.evaluator_mrn, recommendation: input.recommendation });
  return { ...evaluation, ...changes };
}

/** Cancels a requested scorecard; a submitted one stays unchanged (the machine's 409 names both states). */
export async function cancelEvaluation(ctx: AtsContext, id: string): Promise<Evaluation> {
  const evaluation = await requireEvaluation(ctx, id);
  const { to, event } = scorecardMachine.move(evaluation.status, 'cancel');
  const changes: Partial<Evaluation> = { status: to, cancelled_at: ctx.now() };
  await ctx.db.evaluations.update(changes, { where: { id } });
  ctx.events.stage(event as AtsEvent, { evaluation_id: id, application_id: evaluation.application_id, cancelled_by: ctx.member.mrn });
  return { ...evaluation, ...changes };
}
