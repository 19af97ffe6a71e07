import { Joi } from '@wpk/sdk';
import { routeFamily } from '../kit.js';
import { completeSchedule, createSchedule, listSchedules, requireSchedule, updateSchedule } from '../services/schedules.js';
import { presentSchedule } from '../services/present.js';
import { createView, deleteView, listViews } from '../services/views.js';
import { id, isoDate } from './schemas.js';
import { DELETED, SCHEDULE, VIEW } from './answers.js';

const views = routeFamily('/views', { record: VIEW });
const schedules = routeFamily('/schedules', { record: SCHEDULE });
const schedule = schedules.at('/{schedule_id}', { params: Joi.idParams('schedule_id') });

/** Saved views and schedules. */
export const planningRoutes = [
  views.list({
    chain: ['tasks.views.read'],
    description: "The caller's saved views, optionally of one board",
    query: Joi.listQuery({ board_id: id() }),
    run: (request, ctx) => listViews(ctx, request.query.board_id as string | undefined),
  }),
  views.post({
    chain: ['tasks.views.create'],
    description: 'Saves a board view',
    payload: Joi.object({ board_id: id().required(), name: Joi.string().trim().min(1).max(80).required(), tab: Joi.string().min(1).max(40).required(), schedule_id: id().allow(null) }),
    async handler(request, ctx) {
      return ctx.respond.single(await createView(ctx, request.payload), { self: '/views' });
    },
  }),
  views.at('/{view_id}', { params: Joi.idParams('view_id') }).delete({
    chain: ['tasks.views.delete'],
    answers: { single: DELETED },
    description: 'Deletes one of the caller’s saved views',
    run: (request, ctx) => deleteView(ctx, request.params.view_id),
  }),
  schedules.list({
    chain: ['tasks.schedules.read'],
    description: 'Lists schedules, oldest first; status keeps open or completed ones',
    query: Joi.listQuery({ status: Joi.string().valid('open', 'completed') }),
    run: (request, ctx) => listSchedules(ctx, request.query.status as 'open' | 'completed' | undefined),
  }),
  schedules.post({
    chain: ['tasks.schedules.create'],
    description: 'Creates a schedule',
    payload: Joi.object({ name: Joi.string().trim().min(1).max(120).required(), start_date: isoDate().allow(null), end_date: isoDate().allow(null) }),
    async handler(request, ctx) {
      const schedule = await createSchedule(ctx, request.payload);
      return ctx.respond.single(schedule, { self: `/schedules/${schedule.id}` });
    },
  }),
  schedule.get({
    chain: ['tasks.schedules.read'],
    description: 'Reads a schedule',
    async handler(request, ctx) {
      const schedule = await requireSchedule(ctx, request.params.schedule_id);
      return ctx.respond.single(presentSchedule(schedule), { tasks: `/tasks?schedule_id=${schedule.id}` });
    },
  }),
  schedule.patch({
    chain: ['tasks.schedules.edit'],
    description: 'Renames or re-dates a schedule',
    payload: Joi.object({ name: Joi.string().trim().min(1).max(120), start_date: isoDate().allow(null), end_date: isoDate().allow(null) }),
    run: (request, ctx) => updateSchedule(ctx, request.params.schedule_id, request.payload),
  }),
  schedule.at('/completion').post({
    chain: ['tasks.schedules.edit'],
    description: 'Completes a schedule',
    async handler(request, ctx) {
      const schedule = await completeSchedule(ctx, request.params.schedule_id);
      return ctx.respond.single(schedule, { self: `/schedules/${schedule.id}` });
    },
  }),
];
