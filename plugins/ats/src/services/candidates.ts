import { ConflictError, conflictOnDuplicate, InvalidError, NotFoundError, Op } from '@wpk/sdk';
import { randomUUID } from 'node:crypto';
import { resource, type AtsBaseContext, type AtsContext, type AtsRequestContext } from '../kit.js';
import type { Activity, Candidate, ResumeFile } from '../models/index.js';
import { candidateDocument } from './present.js';
import { exactly } from './queries.js';

/** Candidate sources. */
export const SOURCES = ['applied', 'sourced', 'referral', 'agency', 'careers_page', 'internal', 'other'] as const;
/** Resume files the app accepts. */
export const RESUME_TYPES = ['application/pdf', 'application/msword', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'text/plain'] as const;
const RESUME_MAX_BYTES = 10_000_000;

/** The workspace's candidates, oldest first: found by name, email or headline (`q`), indexed for search, `candidate.created` on create. */
export const candidates = resource({
  model: 'candidates',
  label: 'Candidate',
  order: [['created_at', 'ASC'], ['id', 'ASC']],
  searchColumns: ['name', 'email', 'headline'],
  search: { type: 'candidate', document: candidateDocument },
  events: { created: (candidate, ctx) => ['core.ats.candidate.created', { candidate_id: candidate.id, source: candidate.source, created_by: ctx.member?.mrn ?? null }] },
});

export function requireCandidate(ctx: AtsBaseContext, id: string, lock = false): Promise<Candidate> {
  return candidates.require(ctx, id, lock ? { lock: 'update' } : {});
}

export interface CandidateInput {
  name: string; email: string; phone?: string; location?: string; headline?: string; links?: Record<string, string>;
  linkedin?: string; portfolio?: string; github?: string; tags?: string[]; source?: string; source_detail?: string;
  referrer_mrn?: string; owner_mrn?: string; resume?: Array<{ key: string; filename: string; content_type?: string; size_bytes?: number }>;
}

/** Tags compare case-insensitively and keep their first spelling. */
function addTag(tags: string[], tag: string): string[] {
  return tags.some((existing) => existing.toLowerCase() === tag.toLowerCase()) ? tags : [...tags, tag];
}

/** The candidate with this email (case-insensitive), if any: the de-duplication rule. */
export function candidateByEmail(ctx: AtsBaseContext, email: string): Promise<Candidate | null> {
  return ctx.db.candidates.findOne({ where: { email: { [Op.iLike]: exactly(email) } } });
}

/**
 * Adds a candidate. An email already on file (case-insensitive) is 409 naming the existing
 * candidate: one person, one record. Resume entries must name files uploaded through
 * `POST /ats/resume-uploads`; their size and type are taken from the stored object.
 */
export async function createCandidate(ctx: AtsRequestContext, input: CandidateInput): Promise<Candidate> {
  await ctx.lock(`candidate-email:${input.email.toLowerCase()}`);
  const existing = await candidateByEmail(ctx, input.email);
  if (existing) throw new ConflictError(`A candidate with email ${input.email} already exists: ${existing.id}`);
  if (input.source === 'referral' && !input.referrer_mrn) throw new InvalidError('referrer_mrn is required when source is referral');
  const links: Record<string, string> = { ...(input.links ?? {}) };
  for (const name of ['linkedin', 'portfolio', 'github'] as const) if (input[name]) links[name] = input[name]!;
  const resume: ResumeFile[] = [];
  for (const [index, file] of (input.resume ?? []).entries()) {
    if (!file.key.startsWith('resumes/')) throw new InvalidError(`resume[${index}].key ${file.key} is not a resume upload (use POST /ats/resume-uploads)`);
    const stored = await ctx.storage.head(file.key);
    if (!stored) throw new InvalidError(`resume[${index}].key ${file.key} names no uploaded file`);
    resume.push({ key: file.key, filename: file.filename, content_type: stored.content_type, size_bytes: stored.size_bytes });
  }
  let tags: string[] = [];
  for (const tag of input.tags ?? []) tags = addTag(tags, tag);
  return conflictOnDuplicate(() => candidates.create(ctx, {
    name: input.name, email: input.email, phone: input.phone ?? null, location: input.location ?? null, headline: input.headline ?? null,
    links, tags, source: input.source ?? null, source_detail: input.source_detail ?? null, referrer_mrn: input.referrer_mrn ?? null,
    owner_mrn: input.owner_mrn ?? null, resume, created_by: ctx.member?.id ?? null,
  }), `A candidate with email ${input.email} already exists`);
}

export interface CandidateFilter { q?: string; tag?: string; source?: string; email?: string }

export function listCandidates(ctx: AtsContext, filter: CandidateFilter) {
  const where: Record<string | symbol, unknown> = {};
  if (filter.tag) where.tags = { [Op.contains]: [filter.tag] };
  if (filter.source) where.source = filter.source;
  if (filter.email) where.email = { [Op.iLike]: exactly(filter.email) };
  return candidates.list(ctx, { q: filter.q, where });
}

/** Adds a tag (idempotent: a tag already there, in any case, changes nothing and emits nothing). */
export async function tagCandidate(ctx: AtsContext, id: string, tag: string): Promise<Candidate> {
  const candidate = await requireCandidate(ctx, id, true);
  const tags = addTag(candidate.tags, tag);
  if (tags.length === candidate.tags.length) return candidate;
  if (tags.length > 50) throw new InvalidError('A candidate carries at most 50 tags');
  await ctx.db.candidates.update({ tags }, { where: { id } });
  ctx.events.stage('core.ats.candidate.tagged', { candidate_id: id, tag });
  return { ...candidate, tags };
}

/** Removes a tag (case-insensitive); a tag the candidate does not carry is 404. */
export async function untagCandidate(ctx: AtsContext, id: string, tag: string): Promise<Candidate> {
  const candidate = await requireCandidate(ctx, id, true);
  const present = candidate.tags.find((existing) => existing.toLowerCase() === tag.toLowerCase());
  if (!present) throw new NotFoundError(`Candidate ${id} has no tag ${tag}`);
  const tags = candidate.tags.filter((existing) => existing !== present);
  await ctx.db.candidates.update({ tags }, { where: { id } });
  ctx.events.stage('core.ats.candidate.untagged', { candidate_id: id, tag: present });
  return { ...candidate, tags };
}

/** Writes one entry of the timeline (notes, stage moves, status changes). */
export function addTimelineEntry(ctx: AtsBaseContext, entry: { candidate_id: string; application_id?: string | null; kind: string; content: string; author_mrn?: string | null }): Promise<Activity> {
  return ctx.db.activities.create({ candidate_id: entry.candidate_id, application_id: entry.application_id ?? null, kind: entry.kind, content: entry.content, author_mrn: entry.author_mrn ?? null });
}

/** Adds a note to a candidate's timeline, optionally about one of their applications. */
export async function addNote(ctx: AtsContext, candidateId: string, content: string, applicationId?: string): Promise<Activity> {
  await requireCandidate(ctx, candidateId);
  if (applicationId) {
    const application = await ctx.db.applications.findById(applicationId);
    if (!application || application.candidate_id !== candidateId) throw new InvalidError(`application_id ${applicationId} is not an application of candidate ${candidateId}`);
  }
  const activity = await addTimelineEntry(ctx, { candidate_id: candidateId, application_id: applicationId ?? null, kind: 'note', content, author_mrn: ctx.member.mrn });
  ctx.events.stage('core.ats.activity.added', { activity_id: activity.id, candidate_id: candidateId, application_id: applicationId ?? null, author_mrn: ctx.member.mrn });
  return activity;
}

/** The timeline, newest first. */
export async function listActivities(ctx: AtsContext, candidateId: string, kind?: string) {
  await requireCandidate(ctx, candidateId);
  return ctx.db.activities.findAndCountAll({ where: { candidate_id: candidateId, ...(kind ? { kind } : {}) }, order: [['created_at', 'DESC'], ['id', 'DESC']], limit: ctx.page.limit, offset: ctx.page.offset });
}

/** A signed link to upload one resume file (PUT, within ten minutes); the key goes in the candidate's `resume`. */
export async function resumeUploadLink(ctx: AtsContext, input: { filename: string; content_type: string; size_bytes?: number }) {
  if (input.size_bytes !== undefined && input.size_bytes > RESUME_MAX_BYTES) throw new InvalidError(`size_bytes must be at most ${RESUME_MAX_BYTES}`);
  const safe = input.filename.replace(/[^A-Za-z0-9._-]+/g, '_').slice(-100) || 'resume';
  const key = `resumes/${randomUUID()}/${safe}`;
  const upload = await ctx.storage.signedUploadUrl(key, { contentType: input.content_type, maxBytes: RESUME_MAX_BYTES, expiresInSeconds: 600 });
  return { key, filename: input.filename, content_type: input.content_type, upload: { url: upload.url, method: upload.method, expires_at: upload.expires_at.toISOString() } };
}

/** The candidate's latest resume with a download link valid for five minutes; 404 when there is none. */
export async function resumeDownload(ctx: AtsContext, candidateId: string) {
  const candidate = await requireCandidate(ctx, candidateId);
  const latest = candidate.resume.at(-1);
  if (!latest || !(await ctx.storage.head(latest.key))) throw new NotFoundError(`Candidate ${candidateId} has no resume`);
  const link = await ctx.storage.signedDownloadUrl(latest.key, { filename: latest.filename, expiresInSeconds: 300 });
  return { ...latest, url: link.url, expires_at: link.expires_at.toISOString() };
}

/**
 * Erases a candidate's personal data on request (GDPR article 17), keeping the hiring records
 * the workspace must keep (applications, their stages and outcomes, scorecard ratings): name
 * and email become placeholders, contact fields, links, tags and resume files go, timeline notes,
 * the mails sent to them and screening answers are blanked, scorecard notes are cleared, and the candidate leaves the
 * search index. Erasing twice is 409.
 */
export async function eraseCandidate(ctx: AtsContext, id: string): Promise<Candidate> {
  const candidate = await requireCandidate(ctx, id, true);
  if (candidate.email === erasedEmail(id)) throw new ConflictError(`Candidate ${id} is already erased`);
  for (const file of candidate.resume) await ctx.storage.delete(file.key);
  const changes: Partial<Candidate> = {
    name: 'Erased candidate', email: erasedEmail(id), phone: null, location: null, headline: null, links: {}, tags: [], source_detail: null, resume: [],
  };
  await ctx.db.candidates.update(changes, { where: { id } });
  await ctx.db.activities.update({ content: '[erased]' }, { where: { candidate_id: id } });
  await ctx.db.messages.update({ to_email: erasedEmail(id), subject: '[erased]', body_html: '[erased]', body_text: '[erased]' }, { where: { candidate_id: id } });
  const applications = await ctx.db.applications.findAll({ where: { candidate_id: id }, attributes: ['id'] });
  const applicationIds = applications.map((row) => row.id);
  if (applicationIds.length) {
    await ctx.db.applications.update({ screening_answers: {} }, { where: { id: { [Op.in]: applicationIds } } });
    await ctx.db.evaluations.update({ notes: null }, { where: { application_id: { [Op.in]: applicationIds } } });
    for (const applicationId of applicationIds) ctx.search.remove('application', applicationId);
  }
  ctx.search.remove('candidate', id);
  ctx.events.stage('core.ats.candidate.erased', { candidate_id: id, erased_by: ctx.member.mrn });
  return { ...candidate, ...changes };
}

/** The placeholder address of an erased candidate (`.invalid` never delivers, RFC 2606). */
export function erasedEmail(id: string): string {
  return `erased-${id}@erased.invalid`;
}
