import { ConflictError, InvalidError, NotFoundError } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import type { Pipeline, Stage } from '../models/index.js';

/** A stage as a create or an update names it (`id`: an existing stage kept, renamed or moved). */
export interface StageInput {
  id?: string;
  name: string;
  probability: number;
  sla_days?: number | null;
}

export interface PipelineInput {
  name?: string;
  is_default?: boolean;
  stages?: StageInput[];
}

/** A pipeline with its stages in order. */
export function presentPipeline(pipeline: Pipeline, stages: Stage[]) {
  return {
    id: pipeline.id,
    name: pipeline.name,
    is_default: pipeline.is_default,
    stages: stages.filter((stage) => stage.pipeline_id === pipeline.id).sort((a, b) => a.position - b.position).map(presentStage),
    created_at: pipeline.created_at,
    updated_at: pipeline.updated_at,
  };
}

export const presentStage = (stage: Stage) => ({ id: stage.id, name: stage.name, position: stage.position, probability: stage.probability, sla_days: stage.sla_days });

export async function requirePipeline(ctx: AnyCtx, pipelineId: string, lock?: 'update'): Promise<Pipeline> {
  const pipeline = await ctx.db.pipelines.findById(pipelineId, lock ? { lock } : {});
  if (!pipeline) throw new NotFoundError(`Pipeline ${pipelineId} not found`);
  return pipeline;
}

/** The stages of a pipeline in order. */
export const stagesOf = (ctx: AnyCtx, pipelineId: string): Promise<Stage[]> => ctx.db.stages.findAll({ where: { pipeline_id: pipelineId }, order: [['position', 'ASC']] });

/** Every pipeline with its stages, the default first, then by name. */
export async function listPipelines(ctx: AnyCtx) {
  const pipelines = await ctx.db.pipelines.findAll({ order: [['is_default', 'DESC'], ['name', 'ASC'], ['id', 'ASC']] });
  const stages = pipelines.length ? await ctx.db.stages.findAll({ where: { pipeline_id: pipelines.map((pipeline) => pipeline.id) } }) : [];
  return pipelines.map((pipeline) => presentPipeline(pipeline, stages));
}

export async function getPipeline(ctx: AnyCtx, pipelineId: string) {
  const pipeline = await requirePipeline(ctx, pipelineId);
  return presentPipeline(pipeline, await stagesOf(ctx, pipeline.id));
}

/** The default pipeline (or the oldest), or a 409 when the workspace has none. */
export async function defaultPipeline(ctx: AnyCtx): Promise<Pipeline> {
  const pipeline = await ctx.db.pipelines.findOne({ order: [['is_default', 'DESC'], ['created_at', 'ASC'], ['id', 'ASC']] });
  if (!pipeline) throw new ConflictError('The workspace has no pipeline yet: create one with POST /crm/pipelines');
  return pipeline;
}

async function assertNameFree(ctx: AnyCtx, name: string, exceptId: string | null): Promise<void> {
  await ctx.lock(`pipeline-name:${name.toLowerCase()}`);
  const clash = (await ctx.db.pipelines.findAll({})).find((pipeline) => pipeline.name.toLowerCase() === name.toLowerCase() && pipeline.id !== exceptId);
  if (clash) throw new ConflictError(`Pipeline ${clash.id} is already named ${clash.name}`, { field: 'name' });
}

function assertStageNames(stages: StageInput[]): void {
  const seen = new Set<string>();
  stages.forEach((stage, index) => {
    const key = stage.name.trim().toLowerCase();
    if (seen.has(key)) throw new InvalidError(`stages[${index}].name: ${stage.name} is named twice in the pipeline`, { field: `stages.${index}.name` });
    seen.add(key);
  });
}

/** Clears the default flag of the other pipelines when this one becomes the default. */
async function takeDefault(ctx: AnyCtx, pipelineId: string): Promise<void> {
  await ctx.lock('pipeline-default');
  await ctx.db.pipelines.update({ is_default: false }, { where: { is_default: true } });
  await ctx.db.pipelines.update({ is_default: true }, { where: { id: pipelineId } });
}

/** Adds a pipeline and its stages (in the order given); the workspace's first pipeline is its default. */
export async function createPipeline(ctx: Ctx, input: PipelineInput & { name: string; stages: StageInput[] }) {
  const name = input.name.trim();
  assertStageNames(input.stages);
  await assertNameFree(ctx, name, null);
  const first = (await ctx.db.pipelines.count({})) === 0;
  const pipeline = await ctx.db.pipelines.create({ name, is_default: false });
  if (first || input.is_default) await takeDefault(ctx, pipeline.id);
  for (const [position, stage] of input.stages.entries()) {
    await ctx.db.stages.create({ pipeline_id: pipeline.id, name: stage.name.trim(), position, probability: stage.probability, sla_days: stage.sla_days ?? null });
  }
  return getPipeline(ctx, pipeline.id);
}

/**
 * Renames a pipeline, makes it the default, or replaces its stages: a stage named by `id` is kept
 * (renamed, moved, re-weighed), one without an id is added, and a stage left out is removed,
 * refused while deals are in it.
 */
export async function updatePipeline(ctx: Ctx, pipelineId: string, input: PipelineInput) {
  const pipeline = await requirePipeline(ctx, pipelineId, 'update');
  if (input.name !== undefined && input.name.trim() !== pipeline.name) {
    await assertNameFree(ctx, input.name.trim(), pipeline.id);
    await ctx.db.pipelines.update({ name: input.name.trim() }, { where: { id: pipeline.id } });
  }
  if (input.is_default === true && !pipeline.is_default) await takeDefault(ctx, pipeline.id);
  if (input.is_default === false && pipeline.is_default) throw new ConflictError(`Pipeline ${pipeline.id} is the default: make another pipeline the default instead`, { field: 'is_default' });
  if (input.stages) {
    assertStageNames(input.stages);
    const existing = await stagesOf(ctx, pipeline.id);
    const byId = new Map(existing.map((stage) => [stage.id, stage]));
    input.stages.forEach((stage, index) => {
      if (stage.id !== undefined && !byId.has(stage.id.toLowerCase())) throw new InvalidError(`stages[${index}].id: ${stage.id} is not a stage of pipeline ${pipeline.id}`, { field: `stages.${index}.id` });
    });
    const kept = new Set(input.stages.filter((stage) => stage.id).map((stage) => stage.id!.toLowerCase()));
    if (kept.size !== input.stages.filter((stage) => stage.id).length) throw new InvalidError('stages: a stage id is named twice', { field: 'stages' });
    const removed = existing.filter((stage) => !kept.has(stage.id));
    for (const stage of removed) {
      const count = await ctx.db.deals.count({ where: { stage_id: stage.id } });
      if (count) throw new ConflictError(`Stage ${stage.id} (${stage.name}) holds ${count} deal${count === 1 ? '' : 's'}: move them before removing it`, { field: 'stages' });
    }
    for (const stage of removed) await ctx.db.stages.destroy({ where: { id: stage.id } });
    // Positions are moved out of the way first, so no two stages ever share one mid-way.
    for (const stage of existing.filter((row) => kept.has(row.id))) await ctx.db.stages.update({ position: stage.position + 10_000 }, { where: { id: stage.id } });
    for (const [position, stage] of input.stages.entries()) {
      const values = { name: stage.name.trim(), position, probability: stage.probability, sla_days: stage.sla_days ?? null };
      if (stage.id) await ctx.db.stages.update(values, { where: { id: stage.id.toLowerCase() } });
      else await ctx.db.stages.create({ pipeline_id: pipeline.id, ...values });
    }
  }
  await ctx.db.pipelines.update({ updated_at: ctx.now() } as never, { where: { id: pipeline.id } });
  return getPipeline(ctx, pipeline.id);
}

/** Deletes a pipeline that holds no deal and is not the default (unless it is the only one). */
export async function deletePipeline(ctx: Ctx, pipelineId: string) {
  const pipeline = await requirePipeline(ctx, pipelineId, 'update');
  const deals = await ctx.db.deals.count({ where: { pipeline_id: pipeline.id } });
  if (deals) throw new ConflictError(`Pipeline ${pipeline.id} (${pipeline.name}) holds ${deals} deal${deals === 1 ? '' : 's'}: it cannot be deleted`);
  if (pipeline.is_default && (await ctx.db.pipelines.count({})) > 1) throw new ConflictError(`Pipeline ${pipeline.id} is the default: make another pipeline the default first`);
  await ctx.db.stages.destroy({ where: { pipeline_id: pipeline.id } });
  await ctx.db.pipelines.destroy({ where: { id: pipeline.id } });
  return { id: pipeline.id, deleted: true as const };
}
