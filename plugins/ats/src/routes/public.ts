import { Joi } from '@wpk/sdk';
import { publicRoute } from '../kit.js';
import { pickSlot, selfSchedulePage } from '../services/interviews.js';
import { instant } from './schemas.js';
import { SELF_SCHEDULED, SELF_SCHEDULE_PAGE } from './answers.js';

const tokenParams = Joi.object({ token: Joi.string().min(1).max(200).required() });

/** The candidate's self-schedule link: public, bound to the token alone. */
export const publicRoutes = [
  publicRoute({
    method: 'GET', path: '/ats/self-schedule/{token}', answers: { single: SELF_SCHEDULE_PAGE }, description: 'What a self-schedule link offers',
    validate: { params: tokenParams },
    handler: async (request, ctx) => ctx.respond.single(await selfSchedulePage(ctx, request.params.token)),
  }),
  publicRoute({
    method: 'POST', path: '/ats/self-schedule/{token}', answers: { single: SELF_SCHEDULED }, description: 'The candidate picks an offered slot',
    validate: { params: tokenParams, payload: Joi.object({ start: instant().required() }) },
    handler: async (request, ctx) => ctx.respond.single(await pickSlot(ctx, request.params.token, request.payload.start)),
  }),
];
