import { ConflictError, conflictOnDuplicate, NotFoundError, Op } from '@wpk/sdk';
import { resource, type AtsBaseContext, type AtsContext, type AtsEvent, type AtsPublicContext } from '../kit.js';
import type { Embed, Job, Template } from '../models/index.js';
import { createApplication } from './applications.js';
import { candidateByEmail, createCandidate } from './candidates.js';
import { embedMachine } from './machines.js';
import { checkMergeFields } from './mail-text.js';
import { exactly } from './queries.js';

export const TEMPLATE_KINDS = ['general', 'rejection', 'interview', 'offer'] as const;

/** Message templates, by name: `template.created` and `template.deleted`. */
export const templates = resource({
  model: 'templates',
  label: 'Template',
  order: [['name', 'ASC'], ['id', 'ASC']],
  events: {
    created: (template) => ['core.ats.template.created', { template_id: template.id, name: template.name, kind: template.kind }],
    deleted: (template, ctx) => ['core.ats.template.deleted', { template_id: template.id, deleted_by: ctx.member!.mrn }],
  },
});

/** Careers embeds, oldest first (retired ones included): `embed.created` on create. */
export const embeds = resource({
  model: 'embeds',
  label: 'Embed',
  order: [['created_at', 'ASC'], ['id', 'ASC']],
  events: { created: (embed) => ['core.ats.embed.created', { embed_id: embed.id, name: embed.name }] },
});

/** Saves a template; names are unique ignoring case, merge fields must be known ones. */
export async function createTemplate(ctx: AtsContext, input: { name: string; kind?: string; subject?: string; body_html?: string }): Promise<Template> {
  checkMergeFields(input.subject ?? '', 'subject');
  checkMergeFields(input.body_html ?? '', 'body_html');
  if (await ctx.db.templates.findOne({ where: { name: { [Op.iLike]: exactly(input.name) } } })) throw new ConflictError(`A template named ${input.name} already exists`);
  return conflictOnDuplicate(() => templates.create(ctx, { name: input.name, kind: input.kind ?? 'general', subject: input.subject ?? '', body_html: input.body_html ?? '', created_by: ctx.member.id }), `A template named ${input.name} already exists`);
}

export async function deleteTemplate(ctx: AtsContext, id: string): Promise<{ id: string; deleted: true }> {
  await templates.remove(ctx, id);
  return { id, deleted: true };
}

/** The embed snippet: a placeholder and the app's script, which reads the embed's feed. */
export function presentEmbed(embed: Embed) {
  return {
    ...embed,
    feed: `/ats/careers/embeds/${embed.id}`,
    snippet: embed.status === 'active' ? `<div data-wpk-careers="${embed.id}"></div><script src="/public/apps/ats/careers.js" data-embed="${embed.id}" async></script>` : null,
  };
}

/** Creates a careers embed, optionally narrowed to a department or a location. */
export async function createEmbed(ctx: AtsContext, input: { name: string; department_mrn?: string; location?: string }): Promise<Embed> {
  return embeds.create(ctx, { name: input.name, department_mrn: input.department_mrn ?? null, location: input.location ?? null, status: embedMachine.initial, created_by: ctx.member.id });
}

/** Retires an embed for good: its feed answers 404 from now on and it cannot be revived; a second retirement is the machine's 409. */
export async function retireEmbed(ctx: AtsContext, id: string): Promise<Embed> {
  const embed = await embeds.require(ctx, id, { lock: 'update' });
  const { to, event } = embedMachine.move(embed.status, 'retire');
  const changes = { status: to, retired_at: ctx.now() };
  await ctx.db.embeds.update(changes, { where: { id } });
  ctx.events.stage(event as AtsEvent, { embed_id: id, retired_by: ctx.member.mrn });
  return { ...embed, ...changes };
}

/** What the public sees of a job: no approvals, team or internal fields; the salary only when `salary_visible`. */
function publicJob(job: Job) {
  return {
    id: job.id, title: job.title, description: job.description, location: job.location, workplace_type: job.workplace_type, employment_type: job.employment_type,
    salary: job.salary_visible && (job.salary_min || job.salary_max) ? { min: job.salary_min, max: job.salary_max, currency: job.salary_currency } : null,
    questions: job.screening_questions.map(({ text, type, key, html, options, required }) => ({ text, type, key, html, options, required: required ?? false })),
    apply: `/ats/careers/jobs/${job.id}/applications`,
  };
}

/** Open jobs shown on the careers page (`careers_visibility` public), newest first. */
export async function careerJobs(ctx: AtsBaseContext, filter: { department_mrn?: string | null; location?: string | null } = {}) {
  const where: Record<string, unknown> = { status: 'open', careers_visibility: 'public' };
  if (filter.department_mrn) where.department_mrn = filter.department_mrn;
  if (filter.location) where.location = filter.location;
  const jobs = await ctx.db.jobs.findAll({ where, order: [['opened_at', 'DESC'], ['id', 'ASC']], limit: 500 });
  return jobs.map(publicJob);
}

/** The jobs an embed shows; a retired or unknown embed is 404. */
export async function embedFeed(ctx: AtsBaseContext, id: string) {
  const embed = await embeds.find(ctx, id);
  if (!embed || embed.status !== 'active') throw new NotFoundError('This careers embed does not exist or was retired');
  return { company: ctx.workspace.name, jobs: await careerJobs(ctx, embed) };
}

async function publicOpenJob(ctx: AtsBaseContext, id: string): Promise<Job> {
  const job = await ctx.db.jobs.findById(id);
  if (!job || job.status !== 'open' || job.careers_visibility !== 'public') throw new NotFoundError(`Job ${id} is not on the careers page`);
  return job;
}

export async function careerJob(ctx: AtsBaseContext, id: string) {
  return publicJob(await publicOpenJob(ctx, id));
}

export interface ApplyInput { name: string; email: string; phone?: string; location?: string; headline?: string; linkedin?: string; portfolio?: string; github?: string; answers?: Record<string, unknown> }

/**
 * The careers page's apply form: the candidate is found by email (de-duplication: an existing
 * record is kept as it is) or created with source `careers_page`, then the application is
 * created in the job's first stage with the screening answers judged. Applying twice is 409.
 */
export async function applyFromCareers(ctx: AtsPublicContext, jobId: string, input: ApplyInput) {
  const job = await publicOpenJob(ctx, jobId);
  await ctx.lock(`candidate-email:${input.email.toLowerCase()}`);
  const existing = await candidateByEmail(ctx, input.email);
  if (existing && (await ctx.db.applications.findOne({ where: { candidate_id: existing.id, job_id: job.id } }))) throw new ConflictError('You already applied to this job');
  const candidate = existing ?? await createCandidate(ctx, { name: input.name, email: input.email, phone: input.phone, location: input.location, headline: input.headline, linkedin: input.linkedin, portfolio: input.portfolio, github: input.github, source: 'careers_page' });
  const application = await createApplication(ctx, { candidate_id: candidate.id, job_id: job.id, source: 'careers_page', answers: input.answers ?? {} });
  return { job_title: job.title, received: true, application_id: application.id };
}

