import { Joi } from '@wpk/sdk';
import { routeFamily } from '../kit.js';
import type { FeedbackRequest, OneOnOne, Praise } from '../models/index.js';
import { createOneOnOne, givePraise, updateOneOnOne, listFeedbackRequests, listOneOnOnes, listPraise, presentFeedbackRequest, presentOneOnOne, presentPraise, requestFeedback } from '../services/social.js';
import { FEEDBACK_REQUEST, ONE_ON_ONE, PRAISE } from './answers.js';

const oneOnOnes = routeFamily('/growth/one-on-ones', { record: ONE_ON_ONE, present: (row: OneOnOne) => presentOneOnOne(row) });
const feedback = routeFamily('/growth/feedback-requests', { record: FEEDBACK_REQUEST, present: (row: FeedbackRequest) => presentFeedbackRequest(row) });
const praise = routeFamily('/growth/praise', { record: PRAISE, present: (row: Praise) => presentPraise(row) });

/** A 1:1's fields. */
const meeting = {
  scheduled_on: Joi.calendarDate(),
  agenda: Joi.array().items(Joi.string().trim().min(1).max(500)).max(50),
  notes: Joi.string().trim().max(20000).allow(''),
  action_items: Joi.array().items(Joi.object({ text: Joi.string().trim().min(1).max(500).required(), done: Joi.boolean() })).max(50),
};

/** 1:1s, feedback requests and praise. */
export const socialRoutes = [
  oneOnOnes.list({
    chain: ['growth.one_on_ones.read'],
    description: 'The 1:1s the caller organizes or attends, latest first',
    query: Joi.listQuery(),
    run: (_request, ctx) => listOneOnOnes(ctx),
  }),
  oneOnOnes.post({
    chain: ['growth.one_on_ones.create'],
    description: 'Schedules a 1:1 of the caller with a member: agenda, notes and action items',
    payload: Joi.object({ ...meeting, attendee_id: Joi.memberId().required(), scheduled_on: meeting.scheduled_on.required() }),
    run: (request, ctx) => createOneOnOne(ctx, request.payload),
  }),
  oneOnOnes.at('/{one_on_one_id}', { params: Joi.idParams('one_on_one_id') }).patch({
    chain: ['growth.one_on_ones.read'],
    description: 'Its organizer or attendee changes a 1:1: date, agenda, notes, action items (the list is replaced; done ticks one)',
    payload: Joi.object({ scheduled_on: meeting.scheduled_on, agenda: meeting.agenda, notes: meeting.notes, action_items: meeting.action_items }).min(1),
    run: (request, ctx) => updateOneOnOne(ctx, request.params.one_on_one_id, request.payload),
  }),
  feedback.list({
    chain: ['growth.feedback.create'],
    description: 'The feedback requests the caller made or was asked to answer, newest first',
    query: Joi.listQuery(),
    run: (_request, ctx) => listFeedbackRequests(ctx),
  }),
  feedback.post({
    chain: ['growth.feedback.create'],
    description: 'Asks a member for feedback about the caller (or about_id) with a question',
    payload: Joi.object({ responder_id: Joi.memberId().required(), about_id: Joi.memberId(), question: Joi.string().trim().min(1).max(2000).required(), due_on: Joi.calendarDate().allow(null) }),
    run: (request, ctx) => requestFeedback(ctx, request.payload),
  }),
  praise.list({
    chain: ['growth.praises.create'],
    description: 'The praise the caller gave or received, newest first',
    query: Joi.listQuery(),
    run: (_request, ctx) => listPraise(ctx),
  }),
  praise.post({
    chain: ['growth.praises.create'],
    description: 'Praises a member, optionally for a competency; emits praise.given',
    payload: Joi.object({ receiver_id: Joi.memberId().required(), message: Joi.string().trim().min(1).max(2000).required(), competency_id: Joi.id().allow(null) }),
    run: (request, ctx) => givePraise(ctx, request.payload),
  }),
];
