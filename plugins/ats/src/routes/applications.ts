import { Joi } from '@wpk/sdk';
import { route } from '../kit.js';
import { STATUS_OPERATIONS, changeApplicationStatus, createApplication, deleteApplication, listApplications, moveApplication, readApplication, withTiming } from '../services/applications.js';
import { SOURCES } from '../services/candidates.js';
import { cancelEvaluation, RECOMMENDATIONS, requestEvaluation, submitEvaluation } from '../services/evaluations.js';
import { cancelInterview, createInterview, mintSelfSchedule, scheduleInterview } from '../services/interviews.js';
import { changeOfferStatus, createOffer } from '../services/offers.js';
import { OFFER_STATUSES } from '../models/index.js';
import type { Notify } from '../services/messages.js';
import { OFFER_PERIODS, PANEL_ROLES, amount, currency, id, instant, notifyFields, text } from './schemas.js';
import { APPLICATION, APPLICATION_DETAIL, DELETED, EVALUATION, INTERVIEW, OFFER, SELF_SCHEDULE_LINK } from './answers.js';

/** `notify_candidate` and `template_id` of a body (or the cancellation's query). */
const notifyOf = (input: Record<string, unknown>): Notify => ({ notify_candidate: input.notify_candidate as boolean | undefined, template_id: input.template_id as string | undefined });

/** Applications and what hangs off them: interviews, scorecards, offers. */
export const applicationRoutes = [
  route({
    method: 'GET', path: '/ats/applications', chain: ['ats.applications.read'], answers: { collection: APPLICATION }, description: 'Lists applications, oldest first; filters job_id, candidate_id, stage_id, status',
    validate: { query: Joi.listQuery({ job_id: id(), candidate_id: id(), stage_id: id(), status: Joi.string().valid('active', 'rejected', 'hired', 'on_hold', 'withdrawn') }) },
    async handler(request, ctx) {
      const { rows, count } = await listApplications(ctx, request.query);
      return ctx.respond.collection(await withTiming(ctx, rows), count);
    },
  }),
  route({
    method: 'POST', path: '/ats/applications', chain: ['ats.applications.create'], answers: { single: APPLICATION }, description: "Creates an application in the job's first stage (or stage_id)",
    validate: {
      payload: Joi.object({
        candidate_id: Joi.string().min(1).max(100).required(), job_id: Joi.string().min(1).max(100).required(), stage_id: Joi.string().max(100),
        source: Joi.string().valid(...SOURCES), answers: Joi.object().pattern(/^[a-z0-9_]{1,50}$/, Joi.alternatives(Joi.string().max(5000).allow(''), Joi.boolean(), Joi.number(), Joi.array().max(50).items(Joi.string().max(200)))),
      }),
    },
    async handler(request, ctx) {
      const application = await createApplication(ctx, request.payload);
      return ctx.respond.single((await withTiming(ctx, [application]))[0], { self: `/ats/applications/${application.id}` });
    },
  }),
  route({
    method: 'GET', path: '/ats/applications/{application_id}', chain: [{ any_of: [{ check: 'application_evaluator' }, 'ats.applications.read'], message: 'Missing permission: ats.applications.read' }], answers: { single: APPLICATION_DETAIL }, description: 'Reads an application with its interviews, scorecards and offers',
    validate: { params: Joi.idParams('application_id') },
    handler: async (request, ctx) => ctx.respond.single(await readApplication(ctx, request.params.application_id)),
  }),
  route({
    method: 'DELETE', path: '/ats/applications/{application_id}', chain: ['ats.applications.delete'], answers: { single: DELETED }, description: 'Deletes an application',
    validate: { params: Joi.idParams('application_id') },
    handler: async (request, ctx) => ctx.respond.single(await deleteApplication(ctx, request.params.application_id)),
  }),
  route({
    method: 'PATCH', path: '/ats/applications/{application_id}/stage', chain: ['ats.applications.move'], answers: { single: APPLICATION }, description: 'Moves an application to another stage, with a note',
    validate: { params: Joi.idParams('application_id'), payload: Joi.object({ stage_id: Joi.string().min(1).max(100).required(), note: text(2000), ...notifyFields() }) },
    async handler(request, ctx) {
      const application = await moveApplication(ctx, request.params.application_id, request.payload.stage_id, request.payload.note || undefined, notifyOf(request.payload));
      return ctx.respond.single((await withTiming(ctx, [application]))[0]);
    },
  }),
  route({
    method: 'PATCH', path: '/ats/applications/{application_id}/status', chain: ['ats.applications.edit'], answers: { single: APPLICATION }, description: 'Reject, hire, hold, withdraw or reopen',
    validate: {
      params: Joi.idParams('application_id'),
      payload: Joi.object({ status: Joi.string().valid(...STATUS_OPERATIONS).required(), rejection_reason: text(1000), ...notifyFields() }),
    },
    async handler(request, ctx) {
      const application = await changeApplicationStatus(ctx, request.params.application_id, request.payload.status, request.payload.rejection_reason || undefined, notifyOf(request.payload));
      return ctx.respond.single((await withTiming(ctx, [application]))[0]);
    },
  }),
  route({
    method: 'POST', path: '/ats/applications/{application_id}/interviews', chain: ['ats.interviews.schedule'], answers: { single: INTERVIEW }, description: 'Creates an interview with a panel',
    validate: {
      params: Joi.idParams('application_id'),
      payload: Joi.object({
        stage_id: Joi.string().max(100), title: Joi.string().trim().max(200), panel: Joi.array().max(20).items(Joi.object({ member_mrn: Joi.memberMrn().required(), role: Joi.string().valid(...PANEL_ROLES) })),
        scheduled_at: instant(), duration_minutes: Joi.number().integer().min(0).max(600), location: text(500), instructions: text(5000), ...notifyFields(),
      }),
    },
    handler: async (request, ctx) => ctx.respond.single(await createInterview(ctx, request.params.application_id, request.payload, notifyOf(request.payload))),
  }),
  route({
    method: 'PATCH', path: '/ats/interviews/{interview_id}/schedule', chain: ['ats.interviews.schedule'], answers: { single: INTERVIEW }, description: 'Puts the interview on the calendar or moves it',
    validate: { params: Joi.idParams('interview_id'), payload: Joi.object({ scheduled_at: instant().min(1).required(), duration_minutes: Joi.number().integer().min(5).max(600), location: text(500), instructions: text(5000), ...notifyFields() }) },
    handler: async (request, ctx) => ctx.respond.single(await scheduleInterview(ctx, request.params.interview_id, request.payload, notifyOf(request.payload))),
  }),
  route({
    method: 'POST', path: '/ats/interviews/{interview_id}/self-schedule', chain: ['ats.interviews.schedule'], answers: { single: SELF_SCHEDULE_LINK }, description: 'Mints a fresh self-schedule link; the previous one stops working',
    validate: {
      params: Joi.idParams('interview_id'),
      payload: Joi.object({
        slots: Joi.array().max(20).items(Joi.object({ start: instant().required(), end: instant() })),
        slot_1: instant(), slot_2: instant(), slot_3: instant(), slot_4: instant(), slot_5: instant(),
        duration_minutes: Joi.number().integer().min(5).max(600), expires_at: instant(), location: text(500), instructions: text(5000), ...notifyFields(),
      }),
    },
    handler: async (request, ctx) => ctx.respond.single(await mintSelfSchedule(ctx, request.params.interview_id, request.payload, notifyOf(request.payload))),
  }),
  route({
    method: 'DELETE', path: '/ats/interviews/{interview_id}', chain: ['ats.interviews.cancel'], answers: { single: INTERVIEW }, description: 'Cancels an interview (it stays, cancelled); ?notify_candidate=true mails the cancellation',
    validate: { params: Joi.idParams('interview_id'), query: Joi.object(notifyFields()) },
    handler: async (request, ctx) => ctx.respond.single(await cancelInterview(ctx, request.params.interview_id, notifyOf(request.query))),
  }),
  route({
    method: 'POST', path: '/ats/applications/{application_id}/evaluations', chain: ['ats.evaluations.create'], answers: { single: EVALUATION }, description: 'Asks a member for a scorecard',
    validate: { params: Joi.idParams('application_id'), payload: Joi.object({ evaluator_mrn: Joi.memberMrn().required(), stage_id: Joi.string().max(100), interview_id: Joi.string().max(100), is_shadow: Joi.boolean() }) },
    handler: async (request, ctx) => ctx.respond.single(await requestEvaluation(ctx, request.params.application_id, request.payload)),
  }),
  route({
    method: 'POST', path: '/ats/evaluations/{evaluation_id}/submission', chain: [{ check: 'evaluation_evaluator', message: 'Only the evaluator may submit this scorecard' }], answers: { single: EVALUATION }, description: 'The evaluator submits the scorecard',
    validate: {
      params: Joi.idParams('evaluation_id'),
      payload: Joi.object({
        ratings: Joi.array().max(30).items(Joi.object({ key: Joi.string().min(1).max(50).required(), rating: Joi.number().integer().min(1).max(4).required(), note: text(2000) })),
        recommendation: Joi.string().valid(...RECOMMENDATIONS).required(), notes: text(20000),
      }),
    },
    handler: async (request, ctx) => ctx.respond.single(await submitEvaluation(ctx, request.params.evaluation_id, request.payload)),
  }),
  route({
    method: 'DELETE', path: '/ats/evaluations/{evaluation_id}', chain: [{ any_of: [{ check: 'evaluation_evaluator' }, 'ats.evaluations.cancel'], message: 'Missing permission: ats.evaluations.cancel' }], answers: { single: EVALUATION }, description: 'Cancels a scorecard that is not submitted',
    validate: { params: Joi.idParams('evaluation_id') },
    handler: async (request, ctx) => ctx.respond.single(await cancelEvaluation(ctx, request.params.evaluation_id)),
  }),
  route({
    method: 'POST', path: '/ats/applications/{application_id}/offers', chain: ['ats.offers.create'], answers: { single: OFFER }, description: 'Drafts an offer',
    validate: {
      params: Joi.idParams('application_id'),
      payload: Joi.object({
        package: Joi.object({
          base: amount(), currency: currency(), period: Joi.string().valid(...OFFER_PERIODS), bonus: amount(), equity: Joi.string().max(200),
          benefits: Joi.array().max(50).items(Joi.string().trim().min(1).max(200)), notes: text(5000),
        }).required(),
        start_date: Joi.calendarDate(),
      }),
    },
    handler: async (request, ctx) => ctx.respond.single(await createOffer(ctx, request.params.application_id, request.payload)),
  }),
  route({
    method: 'PATCH', path: '/ats/offers/{offer_id}/status', chain: ['ats.offers.edit'], answers: { single: OFFER }, description: 'Moves an offer: draft, approval, approved, sent, rescinded',
    validate: { params: Joi.idParams('offer_id'), payload: Joi.object({ status: Joi.string().valid(...OFFER_STATUSES).required(), reason: text(1000), ...notifyFields() }) },
    handler: async (request, ctx) => ctx.respond.single(await changeOfferStatus(ctx, request.params.offer_id, request.payload.status, request.payload.reason || undefined, notifyOf(request.payload))),
  }),
];
