import { Joi } from '@wpk/sdk';
import { route } from '../kit.js';
import type { Candidate } from '../models/index.js';
import { RESUME_TYPES, SOURCES, addNote, createCandidate, eraseCandidate, listActivities, listCandidates, requireCandidate, resumeDownload, resumeUploadLink, tagCandidate, untagCandidate } from '../services/candidates.js';
import { listMessages, sendManualMessage } from '../services/messages.js';
import { ACTIVITY, CANDIDATE, MESSAGE, RESUME_DOWNLOAD, RESUME_UPLOAD } from './answers.js';
import { id, text } from './schemas.js';

const present = (candidate: Candidate) => {
  const { search_vector: _vector, ...rest } = candidate as Candidate & { search_vector?: unknown };
  return rest;
};
const link = Joi.string().trim().max(500).uri({ scheme: ['http', 'https'] });
const tag = () => Joi.string().trim().min(1).max(50);

/** Candidates: list, add (de-duplicated by email), read, tags, the timeline, resumes. */
export const candidateRoutes = [
  route({
    method: 'GET', path: '/ats/candidates', chain: ['ats.candidates.read'], answers: { collection: CANDIDATE }, description: 'Lists candidates, oldest first; filters q, tag, source, email',
    validate: { query: Joi.listQuery({ q: Joi.string().max(200).allow(''), tag: tag(), source: Joi.string().valid(...SOURCES), email: Joi.string().max(320) }) },
    async handler(request, ctx) {
      const { rows, count } = await listCandidates(ctx, request.query);
      return ctx.respond.collection(rows.map(present), count);
    },
  }),
  route({
    method: 'POST', path: '/ats/candidates', chain: ['ats.candidates.create'], answers: { single: CANDIDATE }, description: 'Adds a candidate; an email already on file is 409',
    validate: {
      payload: Joi.object({
        name: Joi.string().trim().min(1).max(200).required(),
        email: Joi.string().trim().max(320).email({ tlds: false }).required(),
        phone: Joi.string().max(50).pattern(/^[0-9+()./ -]*$/).messages({ 'string.pattern.base': '{#label} may hold digits, spaces and + ( ) . / -' }),
        location: Joi.string().max(200),
        headline: Joi.string().max(200),
        links: Joi.object({ linkedin: link, portfolio: link, github: link, other: link }),
        linkedin: link, portfolio: link, github: link,
        tags: Joi.array().max(50).items(tag()),
        source: Joi.string().valid(...SOURCES),
        source_detail: Joi.string().max(200),
        referrer_mrn: Joi.memberMrn({ former: true }),
        owner_mrn: Joi.memberMrn(),
        resume: Joi.array().max(5).items(Joi.object({
          key: Joi.string().min(1).max(300).required(), filename: Joi.string().trim().min(1).max(200).required(),
          content_type: Joi.string().max(200), size_bytes: Joi.number().integer().min(0),
        })),
      }),
    },
    async handler(request, ctx) {
      const candidate = await createCandidate(ctx, request.payload);
      return ctx.respond.single(present(candidate), { self: `/ats/candidates/${candidate.id}` });
    },
  }),
  route({
    method: 'POST', path: '/ats/resume-uploads', chain: ['ats.candidates.create'], answers: { single: RESUME_UPLOAD }, description: 'A signed link to upload one resume file',
    validate: { payload: Joi.object({ filename: Joi.string().trim().min(1).max(200).required(), content_type: Joi.string().valid(...RESUME_TYPES).required(), size_bytes: Joi.number().integer().min(1) }) },
    handler: async (request, ctx) => ctx.respond.single(await resumeUploadLink(ctx, request.payload)),
  }),
  route({
    method: 'GET', path: '/ats/candidates/{candidate_id}', chain: ['ats.candidates.read'], answers: { single: CANDIDATE }, description: 'Reads a candidate',
    validate: { params: Joi.idParams('candidate_id') },
    async handler(request, ctx) {
      const candidate = await requireCandidate(ctx, request.params.candidate_id);
      return ctx.respond.single(present(candidate), { activities: `/ats/candidates/${candidate.id}/activities`, applications: `/ats/applications?candidate_id=${candidate.id}`, resume: `/ats/candidates/${candidate.id}/resume` });
    },
  }),
  route({
    method: 'POST', path: '/ats/candidates/{candidate_id}/tags', chain: ['ats.candidates.edit'], answers: { single: CANDIDATE }, description: 'Adds a tag (case-insensitive; idempotent)',
    validate: { params: Joi.idParams('candidate_id'), payload: Joi.object({ tag: tag().required() }) },
    handler: async (request, ctx) => ctx.respond.single(present(await tagCandidate(ctx, request.params.candidate_id, request.payload.tag))),
  }),
  route({
    method: 'DELETE', path: '/ats/candidates/{candidate_id}/tags/{tag}', chain: ['ats.candidates.edit'], answers: { single: CANDIDATE }, description: 'Removes a tag',
    validate: { params: Joi.object({ candidate_id: id().required(), tag: tag().required() }) },
    handler: async (request, ctx) => ctx.respond.single(present(await untagCandidate(ctx, request.params.candidate_id, request.params.tag))),
  }),
  route({
    method: 'GET', path: '/ats/candidates/{candidate_id}/activities', chain: ['ats.candidates.read'], answers: { collection: ACTIVITY }, description: "The candidate's timeline, newest first; filter kind",
    validate: { params: Joi.idParams('candidate_id'), query: Joi.listQuery({ kind: Joi.string().valid('note', 'stage_moved', 'status_changed', 'message') }) },
    async handler(request, ctx) {
      const { rows, count } = await listActivities(ctx, request.params.candidate_id, request.query.kind as string | undefined);
      return ctx.respond.collection(rows, count);
    },
  }),
  route({
    method: 'POST', path: '/ats/candidates/{candidate_id}/activities', chain: ['ats.candidates.comment'], answers: { single: ACTIVITY }, description: 'Adds a note to the timeline',
    validate: { params: Joi.idParams('candidate_id'), payload: Joi.object({ content: Joi.string().trim().min(1).max(20000).required(), application_id: Joi.string().max(100) }) },
    handler: async (request, ctx) => ctx.respond.single(await addNote(ctx, request.params.candidate_id, request.payload.content, request.payload.application_id)),
  }),
  route({
    method: 'GET', path: '/ats/candidates/{candidate_id}/resume', chain: ['ats.candidates.read'], answers: { single: RESUME_DOWNLOAD }, description: 'The latest resume with a five-minute download link',
    validate: { params: Joi.idParams('candidate_id') },
    handler: async (request, ctx) => ctx.respond.single(await resumeDownload(ctx, request.params.candidate_id)),
  }),
  route({
    method: 'GET', path: '/ats/candidates/{candidate_id}/messages', chain: ['ats.candidates.read'], description: "The candidate's message history, newest first; filter application_id",
    answers: { collection: MESSAGE },
    validate: { params: Joi.idParams('candidate_id'), query: Joi.listQuery({ application_id: id() }) },
    async handler(request, ctx) {
      const { rows, count } = await listMessages(ctx, request.params.candidate_id, request.query.application_id as string | undefined);
      return ctx.respond.collection(rows, count);
    },
  }),
  route({
    method: 'POST', path: '/ats/candidates/{candidate_id}/messages', chain: ['ats.messages.send'], description: 'Mails the candidate: a template, or a subject and body, with the merge fields filled',
    answers: { single: MESSAGE },
    validate: {
      params: Joi.idParams('candidate_id'),
      payload: Joi.object({ template_id: Joi.string().max(100), subject: text(300), body_html: text(50000), application_id: Joi.string().max(100) }),
    },
    async handler(request, ctx) {
      const message = await sendManualMessage(ctx, request.params.candidate_id, request.payload);
      return ctx.respond.single(message, { messages: `/ats/candidates/${request.params.candidate_id}/messages` });
    },
  }),
  route({
    method: 'POST', path: '/ats/candidates/{candidate_id}/erasure', chain: ['ats.candidates.delete'], answers: { single: CANDIDATE }, description: "Erases the candidate's personal data",
    validate: { params: Joi.idParams('candidate_id') },
    handler: async (request, ctx) => ctx.respond.single(present(await eraseCandidate(ctx, request.params.candidate_id))),
  }),
];
