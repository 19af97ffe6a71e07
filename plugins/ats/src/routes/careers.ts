import { Joi, type RouteRateLimit } from '@wpk/sdk';
import { publicRoute, route } from '../kit.js';
import { TEMPLATE_KINDS, applyFromCareers, careerJob, careerJobs, createEmbed, createTemplate, deleteTemplate, embedFeed, embeds, presentEmbed, retireEmbed, templates } from '../services/careers.js';
import { text } from './schemas.js';
import { CAREERS_APPLICATION, CAREERS_PAGE, CAREER_JOB, DELETED, EMBED, TEMPLATE } from './answers.js';

const link = Joi.string().trim().max(500).uri({ scheme: ['http', 'https'] });

/**
 * The apply form's abuse guard (docs/decisions/0144-ats-careers.md): per client address
 * 20 submissions an hour in the workspace (a person applies to a few jobs; an office or campus
 * behind one address still gets through), and per job 300 an hour (a popular posting's peak,
 * while a flood from many addresses cannot bury the job's pipeline). Counted before the handler,
 * so a refused submission writes nothing.
 */
export const APPLY_LIMITS: RouteRateLimit[] = [
  { name: 'apply-client', per: 'client', limit: 20, windowSeconds: 3600, message: 'Too many applications from your address; try again later' },
  { name: 'apply-job', per: 'param:job_id', limit: 300, windowSeconds: 3600, message: 'This job is receiving too many applications right now; try again later' },
];

/** Templates, careers embeds, and the public careers page with its apply form. */
export const careerRoutes = [
  route({
    method: 'GET', path: '/ats/templates', chain: ['ats.templates.read'], answers: { collection: TEMPLATE }, description: 'Lists message templates by name',
    validate: { query: Joi.listQuery({ kind: Joi.string().valid(...TEMPLATE_KINDS) }) },
    async handler(request, ctx) {
      const { rows, count } = await templates.list(ctx, { where: request.query.kind ? { kind: request.query.kind as string } : {} });
      return ctx.respond.collection(rows, count);
    },
  }),
  route({
    method: 'POST', path: '/ats/templates', chain: ['ats.templates.create'], answers: { single: TEMPLATE }, description: 'Saves a message template with merge fields',
    validate: { payload: Joi.object({ name: Joi.string().trim().min(1).max(100).required(), kind: Joi.string().valid(...TEMPLATE_KINDS), subject: text(300), body_html: text(50000) }) },
    handler: async (request, ctx) => ctx.respond.single(await createTemplate(ctx, request.payload)),
  }),
  route({
    method: 'DELETE', path: '/ats/templates/{template_id}', chain: ['ats.templates.delete'], answers: { single: DELETED }, description: 'Deletes a template',
    validate: { params: Joi.idParams('template_id') },
    handler: async (request, ctx) => ctx.respond.single(await deleteTemplate(ctx, request.params.template_id)),
  }),
  route({
    method: 'GET', path: '/ats/settings/embeds', chain: ['ats.settings.read'], answers: { collection: EMBED }, description: 'Lists careers embeds, retired ones included',
    validate: { query: Joi.listQuery() },
    async handler(_request, ctx) {
      const { rows, count } = await embeds.list(ctx);
      return ctx.respond.collection(rows.map(presentEmbed), count);
    },
  }),
  route({
    method: 'POST', path: '/ats/settings/embeds', chain: ['ats.settings.configure'], answers: { single: EMBED }, description: 'Creates a careers embed and its snippet',
    validate: { payload: Joi.object({ name: Joi.string().trim().min(1).max(100).required(), department_mrn: Joi.string().max(200), location: Joi.string().max(200) }) },
    handler: async (request, ctx) => ctx.respond.single(presentEmbed(await createEmbed(ctx, request.payload))),
  }),
  route({
    method: 'DELETE', path: '/ats/settings/embeds/{embed_id}', chain: ['ats.settings.configure'], answers: { single: EMBED }, description: 'Retires a snippet for good',
    validate: { params: Joi.idParams('embed_id') },
    handler: async (request, ctx) => ctx.respond.single(presentEmbed(await retireEmbed(ctx, request.params.embed_id))),
  }),
  publicRoute({
    method: 'GET', path: '/ats/careers', answers: { single: CAREERS_PAGE }, description: "The workspace's careers page: open public jobs",
    validate: { query: Joi.listQuery() },
    handler: async (_request, ctx) => ctx.respond.single({ company: ctx.workspace.name, jobs: await careerJobs(ctx) }),
  }),
  publicRoute({
    method: 'GET', path: '/ats/careers/embeds/{embed_id}', answers: { single: CAREERS_PAGE }, description: "An embed's jobs (404 once retired)",
    validate: { params: Joi.idParams('embed_id') },
    handler: async (request, ctx) => ctx.respond.single(await embedFeed(ctx, request.params.embed_id)),
  }),
  publicRoute({
    method: 'GET', path: '/ats/careers/jobs/{job_id}', answers: { single: CAREER_JOB }, description: 'One job of the careers page with its questions',
    validate: { params: Joi.idParams('job_id') },
    handler: async (request, ctx) => ctx.respond.single(await careerJob(ctx, request.params.job_id)),
  }),
  publicRoute({
    method: 'POST', path: '/ats/careers/jobs/{job_id}/applications', answers: { single: CAREERS_APPLICATION }, description: 'The apply form',
    rateLimits: APPLY_LIMITS,
    validate: {
      params: Joi.idParams('job_id'),
      payload: Joi.object({
        name: Joi.string().trim().min(1).max(200).required(), email: Joi.string().trim().max(320).email({ tlds: false }).required(),
        phone: Joi.string().max(50).pattern(/^[0-9+()./ -]*$/), location: Joi.string().max(200), headline: Joi.string().max(200),
        linkedin: link, portfolio: link, github: link,
        answers: Joi.object().pattern(/^[a-z0-9_]{1,50}$/, Joi.alternatives(Joi.string().max(5000).allow(''), Joi.boolean(), Joi.number(), Joi.array().max(50).items(Joi.string().max(200)))),
      }),
    },
    handler: async (request, ctx) => ctx.respond.single(await applyFromCareers(ctx, request.params.job_id, request.payload)),
  }),
];
