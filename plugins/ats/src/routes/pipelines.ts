import { Joi } from '@wpk/sdk';
import { route } from '../kit.js';
import { STAGE_TYPES, createPipeline, createStage, deletePipeline, deleteStage, moveStage, pipelines, requirePipeline, stagesOf } from '../services/pipelines.js';
import { text } from './schemas.js';
import { DELETED, PIPELINE, PIPELINE_WITH_STAGES, STAGE, STAGE_MOVE } from './answers.js';

/** Pipelines and their stages. */
export const pipelineRoutes = [
  route({
    method: 'GET', path: '/ats/pipelines', chain: ['ats.pipelines.read'], answers: { collection: PIPELINE }, description: 'Lists pipelines, the default first, then by name',
    validate: { query: Joi.listQuery() },
    async handler(_request, ctx) {
      const { rows, count } = await pipelines.list(ctx);
      return ctx.respond.collection(rows, count);
    },
  }),
  route({
    method: 'POST', path: '/ats/pipelines', chain: ['ats.pipelines.create'], answers: { single: PIPELINE_WITH_STAGES }, description: 'Creates a pipeline (no stages yet)',
    validate: { payload: Joi.object({ name: Joi.string().trim().min(1).max(100).required(), description: text(1000), is_default: Joi.boolean() }) },
    async handler(request, ctx) {
      const pipeline = await createPipeline(ctx, request.payload);
      return ctx.respond.single({ ...pipeline, stages: [] }, { self: `/ats/pipelines/${pipeline.id}` });
    },
  }),
  route({
    method: 'GET', path: '/ats/pipelines/{pipeline_id}', chain: ['ats.pipelines.read'], answers: { single: PIPELINE_WITH_STAGES }, description: 'Reads a pipeline with its stages in order',
    validate: { params: Joi.idParams('pipeline_id') },
    async handler(request, ctx) {
      const pipeline = await requirePipeline(ctx, request.params.pipeline_id);
      return ctx.respond.single({ ...pipeline, stages: await stagesOf(ctx, pipeline.id) }, { stages: `/ats/pipelines/${pipeline.id}/stages` });
    },
  }),
  route({
    method: 'DELETE', path: '/ats/pipelines/{pipeline_id}', chain: ['ats.pipelines.delete'], answers: { single: DELETED }, description: 'Deletes a pipeline no job uses (not the default one)',
    validate: { params: Joi.idParams('pipeline_id') },
    handler: async (request, ctx) => ctx.respond.single(await deletePipeline(ctx, request.params.pipeline_id)),
  }),
  route({
    method: 'GET', path: '/ats/pipelines/{pipeline_id}/stages', chain: ['ats.pipelines.read'], answers: { collection: STAGE }, description: "Lists a pipeline's stages in order",
    validate: { params: Joi.idParams('pipeline_id'), query: Joi.listQuery() },
    async handler(request, ctx) {
      await requirePipeline(ctx, request.params.pipeline_id);
      const stages = await stagesOf(ctx, request.params.pipeline_id);
      return ctx.respond.collection(stages.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), stages.length);
    },
  }),
  route({
    method: 'POST', path: '/ats/pipelines/{pipeline_id}/stages', chain: ['ats.pipelines.manage'], answers: { single: STAGE }, description: 'Adds a stage at a position (default last)',
    validate: {
      params: Joi.idParams('pipeline_id'),
      payload: Joi.object({
        name: Joi.string().trim().min(1).max(100).required(),
        type: Joi.string().valid(...STAGE_TYPES).required(),
        key: Joi.string().pattern(/^[a-z0-9_-]{1,50}$/).max(50).messages({ 'string.pattern.base': '{#label} must be 1-50 lowercase letters, digits, - or _' }),
        position: Joi.number().integer().min(0).max(999),
        criteria: Joi.array().max(30).unique('key').items(Joi.object({
          label: Joi.string().trim().min(1).max(200).required(),
          key: Joi.string().pattern(/^[a-z0-9_]{1,50}$/).required().messages({ 'string.pattern.base': '{#label} must be 1-50 lowercase letters, digits or _' }),
          weight: Joi.number().min(0).max(100),
          competency_mrn: Joi.string().max(200),
          description: text(2000),
        })),
        questions: Joi.array().max(50).items(Joi.object({ text: Joi.string().trim().min(1).max(1000).required(), category: Joi.string().max(100) })),
        default_interviewers: Joi.array().max(20).items(Joi.memberMrn()).unique(),
        required_evaluations: Joi.number().integer().min(0).max(20),
        sla_days: Joi.number().integer().min(0).max(365),
        duration_minutes: Joi.number().integer().min(0).max(600),
      }),
    },
    async handler(request, ctx) {
      const stage = await createStage(ctx, request.params.pipeline_id, request.payload);
      return ctx.respond.single(stage, { self: `/ats/pipelines/${stage.pipeline_id}/stages` });
    },
  }),
  route({
    method: 'PATCH', path: '/ats/stages/{stage_id}/position', chain: ['ats.pipelines.manage'], answers: { single: STAGE_MOVE }, description: 'Moves a stage; the others shift',
    validate: { params: Joi.idParams('stage_id'), payload: Joi.object({ position: Joi.number().integer().min(0).max(999).required() }) },
    async handler(request, ctx) {
      const stages = await moveStage(ctx, request.params.stage_id, request.payload.position);
      return ctx.respond.single({ stage: stages.find((stage) => stage.id === request.params.stage_id), stages });
    },
  }),
  route({
    method: 'DELETE', path: '/ats/stages/{stage_id}', chain: ['ats.pipelines.manage'], answers: { single: DELETED }, description: 'Deletes a stage no application sits in',
    validate: { params: Joi.idParams('stage_id') },
    handler: async (request, ctx) => ctx.respond.single(await deleteStage(ctx, request.params.stage_id)),
  }),
];
