import { ConflictError, conflictOnDuplicate, Op } from '@wpk/sdk';
import { resource, type AtsBaseContext, type AtsContext } from '../kit.js';
import type { Pipeline, Stage } from '../models/index.js';
import { exactly } from './queries.js';
import { checkCriteria } from './competencies.js';

/** Stage types, Greenhouse-like: what the stage is for (an `offer` stage is where offers are made, `hired` where hires land). */
export const STAGE_TYPES = ['applied', 'screen', 'interview', 'assessment', 'offer', 'hired'] as const;

/** The stages of the default pipeline, created with it. */
const DEFAULT_STAGES: Array<{ name: string; type: string; key: string }> = [
  { name: 'Applied', type: 'applied', key: 'applied' },
  { name: 'Phone screen', type: 'screen', key: 'screen' },
  { name: 'Interview', type: 'interview', key: 'interview' },
  { name: 'Offer', type: 'offer', key: 'offer' },
  { name: 'Hired', type: 'hired', key: 'hired' },
];

/** The workspace's pipelines, the default first, then by name. */
export const pipelines = resource({ model: 'pipelines', label: 'Pipeline', order: [['is_default', 'DESC'], ['name', 'ASC'], ['id', 'ASC']] });

/** The stages of every pipeline (read a pipeline's in order with `stagesOf`). */
const pipelineStages = resource({ model: 'stages', label: 'Stage', order: [['position', 'ASC'], ['created_at', 'ASC'], ['id', 'ASC']] });

export function requirePipeline(ctx: AtsContext, id: string, lock = false): Promise<Pipeline> {
  return pipelines.require(ctx, id, lock ? { lock: 'update' } : {});
}

export function requireStage(ctx: AtsContext, id: string): Promise<Stage> {
  return pipelineStages.require(ctx, id);
}

/** A pipeline's stages in order. */
export function stagesOf(ctx: AtsBaseContext, pipelineId: string): Promise<Stage[]> {
  return ctx.db.stages.findAll({ where: { pipeline_id: pipelineId }, order: [['position', 'ASC'], ['created_at', 'ASC']] });
}

/**
 * The workspace's default pipeline; when there is none yet (a fresh workspace), it is created
 * with five stages, Applied → Phone screen → Interview → Offer → Hired.
 */
export async function defaultPipeline(ctx: AtsContext): Promise<Pipeline> {
  await ctx.lock('pipelines:default');
  const existing = await ctx.db.pipelines.findOne({ where: { is_default: true } });
  if (existing) return existing;
  const named = await ctx.db.pipelines.findOne({ where: { name: 'Default' } });
  const pipeline = await ctx.db.pipelines.create({ name: named ? 'Default pipeline' : 'Default', description: 'Created with the first job', is_default: true, created_by: ctx.member.id });
  for (const [position, stage] of DEFAULT_STAGES.entries()) await ctx.db.stages.create({ pipeline_id: pipeline.id, position, ...stage });
  ctx.events.stage('core.ats.pipeline.created', { pipeline_id: pipeline.id, name: pipeline.name, is_default: true });
  return pipeline;
}

export interface PipelineInput { name: string; description?: string; is_default?: boolean }

/** Creates a pipeline; `is_default` takes the default from the previous one. A name is unique (case-insensitive). */
export async function createPipeline(ctx: AtsContext, input: PipelineInput): Promise<Pipeline> {
  await ctx.lock('pipelines:default');
  const clash = await ctx.db.pipelines.findOne({ where: { name: { [Op.iLike]: exactly(input.name) } } });
  if (clash) throw new ConflictError(`A pipeline named ${input.name} already exists`);
  if (input.is_default) await ctx.db.pipelines.update({ is_default: false }, { where: { is_default: true } });
  const pipeline = await conflictOnDuplicate(
    ctx.db.pipelines.create({ name: input.name, description: input.description ?? '', is_default: input.is_default ?? false, created_by: ctx.member.id }),
    `A pipeline named ${input.name} already exists`,
  );
  ctx.events.stage('core.ats.pipeline.created', { pipeline_id: pipeline.id, name: pipeline.name, is_default: pipeline.is_default });
  return pipeline;
}

/** Deletes a pipeline no job uses; the default pipeline cannot go while it is the default. */
export async function deletePipeline(ctx: AtsContext, id: string): Promise<{ id: string; deleted: true }> {
  const pipeline = await requirePipeline(ctx, id, true);
  if (pipeline.is_default) throw new ConflictError(`Pipeline ${id} is the default pipeline; make another one the default first`);
  const jobs = await ctx.db.jobs.count({ where: { pipeline_id: id } });
  if (jobs > 0) throw new ConflictError(`Pipeline ${id} is used by ${jobs} job(s)`);
  await ctx.db.pipelines.destroy({ where: { id } });
  ctx.events.stage('core.ats.pipeline.deleted', { pipeline_id: id, deleted_by: ctx.member.mrn });
  return { id, deleted: true };
}

export interface StageInput {
  name: string; type: string; key?: string; position?: number; criteria?: Stage['criteria']; questions?: Stage['questions'];
  default_interviewers?: string[]; required_evaluations?: number; sla_days?: number; duration_minutes?: number;
}

/** Adds a stage at `position` (default: last); the stages at and after it move down one. The route checked the default interviewers are members. */
export async function createStage(ctx: AtsContext, pipelineId: string, input: StageInput): Promise<Stage> {
  await requirePipeline(ctx, pipelineId, true);
  await checkCriteria(ctx, input.criteria ?? []);
  const stages = await stagesOf(ctx, pipelineId);
  if (input.key && stages.some((stage) => stage.key === input.key)) throw new ConflictError(`Pipeline ${pipelineId} already has a stage with key ${input.key}`);
  const position = Math.min(input.position ?? stages.length, stages.length);
  for (const stage of stages.filter((row) => row.position >= position).reverse()) await ctx.db.stages.update({ position: stage.position + 1 }, { where: { id: stage.id } });
  const stage = await ctx.db.stages.create({
    pipeline_id: pipelineId, name: input.name, type: input.type, key: input.key ?? null, position,
    criteria: input.criteria ?? [], questions: input.questions ?? [], default_interviewers: input.default_interviewers ?? [],
    required_evaluations: input.required_evaluations ?? 0, sla_days: input.sla_days ?? 0, duration_minutes: input.duration_minutes ?? 0,
  });
  ctx.events.stage('core.ats.stage.created', { stage_id: stage.id, pipeline_id: pipelineId, name: stage.name, position });
  return stage;
}

/** Moves a stage to `position` (clamped to the last place); the stages between shift by one. Returns the pipeline's stages in their new order. */
export async function moveStage(ctx: AtsContext, stageId: string, target: number): Promise<Stage[]> {
  const found = await requireStage(ctx, stageId);
  await ctx.db.pipelines.findById(found.pipeline_id, { lock: 'update' });
  const stages = await stagesOf(ctx, found.pipeline_id);
  const from = stages.findIndex((stage) => stage.id === stageId);
  const to = Math.min(target, stages.length - 1);
  const [moving] = stages.splice(from, 1);
  stages.splice(to, 0, moving);
  for (const [position, stage] of stages.entries()) if (stage.position !== position) await ctx.db.stages.update({ position }, { where: { id: stage.id } });
  if (from !== to) ctx.events.stage('core.ats.stage.moved', { stage_id: stageId, pipeline_id: found.pipeline_id, from_position: from, to_position: to });
  return stagesOf(ctx, found.pipeline_id);
}

/** Deletes a stage no application sits in; the later stages move up one. */
export async function deleteStage(ctx: AtsContext, stageId: string): Promise<{ id: string; deleted: true }> {
  const stage = await requireStage(ctx, stageId);
  await ctx.db.pipelines.findById(stage.pipeline_id, { lock: 'update' });
  const occupied = await ctx.db.applications.count({ where: { stage_id: stageId } });
  if (occupied > 0) throw new ConflictError(`Stage ${stageId} holds ${occupied} application(s); move them first`);
  await ctx.db.interviews.update({ stage_id: null }, { where: { stage_id: stageId } });
  await ctx.db.evaluations.update({ stage_id: null }, { where: { stage_id: stageId } });
  await ctx.db.stages.destroy({ where: { id: stageId } });
  const rest = await stagesOf(ctx, stage.pipeline_id);
  for (const [position, row] of rest.entries()) if (row.position !== position) await ctx.db.stages.update({ position }, { where: { id: row.id } });
  ctx.events.stage('core.ats.stage.deleted', { stage_id: stageId, pipeline_id: stage.pipeline_id });
  return { id: stageId, deleted: true };
}
