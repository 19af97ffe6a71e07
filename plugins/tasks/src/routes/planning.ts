import { Joi } from '@wpk/sdk';
import { route } from '../kit.js';
import { completeSchedule, createSchedule, listSchedules, requireSchedule, updateSchedule } from '../services/schedules.js';
import { presentSchedule } from '../services/present.js';
import { createView, deleteView, listViews } from '../services/views.js';
import { id, isoDate } from './schemas.js';
import { DELETED, SCHEDULE, VIEW } from './answers.js';

/** Saved views and schedules. */
export const planningRoutes = [
  route({
    method: 'GET',
    path: '/views',
    chain: ['tasks.views.read'],
    answers: { collection: VIEW },
    description: "The caller's saved views, optionally of one board",
    validate: { query: Joi.listQuery({ board_id: id() }) },
    async handler(request, ctx) {
      const { rows, count } = await listViews(ctx, request.query.board_id as string | undefined);
      return ctx.respond.collection(rows, count);
    },
  }),
  route({
    method: 'POST',
    path: '/views',
    chain: ['tasks.views.create'],
    answers: { single: VIEW },
    description: 'Saves a board view',
    validate: {
      payload: Joi.object({ board_id: id().required(), name: Joi.string().trim().min(1).max(80).required(), tab: Joi.string().min(1).max(40).required(), schedule_id: id().allow(null) }),
    },
    async handler(request, ctx) {
      return ctx.respond.single(await createView(ctx, request.payload), { self: '/views' });
    },
  }),
  route({
    method: 'DELETE',
    path: '/views/{view_id}',
    chain: ['tasks.views.delete'],
    answers: { single: DELETED },
    description: 'Deletes one of the caller’s saved views',
    validate: { params: Joi.idParams('view_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteView(ctx, request.params.view_id));
    },
  }),
  route({
    method: 'GET',
    path: '/schedules',
    chain: ['tasks.schedules.read'],
    answers: { collection: SCHEDULE },
    description: 'Lists schedules, oldest first; status keeps open or completed ones',
    validate: { query: Joi.listQuery({ status: Joi.string().valid('open', 'completed') }) },
    async handler(request, ctx) {
      const { rows, count } = await listSchedules(ctx, request.query.status as 'open' | 'completed' | undefined);
      return ctx.respond.collection(rows, count);
    },
  }),
  route({
    method: 'POST',
    path: '/schedules',
    chain: ['tasks.schedules.create'],
    answers: { single: SCHEDULE },
    description: 'Creates a schedule',
    validate: { payload: Joi.object({ name: Joi.string().trim().min(1).max(120).required(), start_date: isoDate().allow(null), end_date: isoDate().allow(null) }) },
    async handler(request, ctx) {
      const schedule = await createSchedule(ctx, request.payload);
      return ctx.respond.single(schedule, { self: `/schedules/${schedule.id}` });
    },
  }),
  route({
    method: 'GET',
    path: '/schedules/{schedule_id}',
    chain: ['tasks.schedules.read'],
    answers: { single: SCHEDULE },
    description: 'Reads a schedule',
    validate: { params: Joi.idParams('schedule_id') },
    async handler(request, ctx) {
      const schedule = await requireSchedule(ctx, request.params.schedule_id);
      return ctx.respond.single(presentSchedule(schedule), { tasks: `/tasks?schedule_id=${schedule.id}` });
    },
  }),
  route({
    method: 'PATCH',
    path: '/schedules/{schedule_id}',
    chain: ['tasks.schedules.edit'],
    answers: { single: SCHEDULE },
    description: 'Renames or re-dates a schedule',
    validate: { params: Joi.idParams('schedule_id'), payload: Joi.object({ name: Joi.string().trim().min(1).max(120), start_date: isoDate().allow(null), end_date: isoDate().allow(null) }) },
    async handler(request, ctx) {
      return ctx.respond.single(await updateSchedule(ctx, request.params.schedule_id, request.payload));
    },
  }),
  route({
    method: 'POST',
    path: '/schedules/{schedule_id}/completion',
    chain: ['tasks.schedules.edit'],
    answers: { single: SCHEDULE },
    description: 'Completes a schedule',
    validate: { params: Joi.idParams('schedule_id') },
    async handler(request, ctx) {
      const schedule = await completeSchedule(ctx, request.params.schedule_id);
      return ctx.respond.single(schedule, { self: `/schedules/${schedule.id}` });
    },
  }),
];
