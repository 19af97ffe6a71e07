import { Joi, MEMBER_REFERENCE_META } from '@wpk/sdk';
import { routeFamily } from '../kit.js';
import { AGGREGATES, GOAL_STATUSES, OWNER_TYPES, type Goal } from '../models/index.js';
import { checkIn, createGoal, deleteGoal, FEEDING_ACTIONS, goals, listGoals, presentGoal, updateGoal } from '../services/goals.js';
import { DELETED_GOAL, GOAL } from './answers.js';

const source = Joi.object({
  action: Joi.string().valid(...FEEDING_ACTIONS).required(),
  filter: Joi.string().trim().max(2000).allow('', null),
  aggregate: Joi.string().valid(...AGGREGATES),
  field: Joi.string().trim().max(100).allow('', null),
}).allow(null);

const keyResult = Joi.object({
  id: Joi.id(),
  title: Joi.string().trim().min(1).max(200).required(),
  start: Joi.number(),
  target: Joi.number().required(),
  current: Joi.number(),
  unit: Joi.string().trim().max(30).allow(''),
  source,
});

const fields = {
  title: Joi.string().trim().min(1).max(200),
  description: Joi.string().trim().max(5000).allow(''),
  owner_type: Joi.string().valid(...OWNER_TYPES),
  // A member or a department, by owner_type: the service checks which.
  owner_id: Joi.id().allow(null).meta({ [MEMBER_REFERENCE_META]: false }),
  parent_id: Joi.id().allow(null),
  period_start: Joi.calendarDate().allow(null),
  period_end: Joi.calendarDate().allow(null),
  key_results: Joi.array().items(keyResult).max(20),
};

const family = routeFamily('/growth/goals', { record: GOAL, present: (goal: Goal, ctx) => presentGoal(ctx, goal), links: (goal) => ({ self: `/growth/goals/${goal.id}` }) });
const one = family.at('/{goal_id}', { params: Joi.idParams('goal_id') });

/** Goals, their key results and check-ins. */
export const goalRoutes = [
  family.list({
    chain: ['growth.goals.read'],
    description: 'Lists goals by title; filters by owner, parent goal and status; q matches title or description',
    query: Joi.listQuery({ q: Joi.string().max(200).allow(''), owner_type: Joi.string().valid(...OWNER_TYPES), owner_id: Joi.id(), parent_id: Joi.id(), status: Joi.string().valid(...GOAL_STATUSES) }),
    run: (request, ctx) => listGoals(ctx, request.query),
  }),
  family.post({
    chain: ['growth.goals.create'],
    description: 'Creates a goal (an objective) of a member, a department or the company, with key results, optionally aligned to a parent goal and within a period; emits goal.created',
    payload: Joi.object({ ...fields, title: fields.title.required(), owner_type: fields.owner_type.required() }),
    run: (request, ctx) => createGoal(ctx, request.payload),
  }),
  one.get({
    chain: ['growth.goals.read'],
    description: 'Reads a goal with its key results and progress',
    run: (request, ctx) => goals.require(ctx, request.params.goal_id),
  }),
  one.patch({
    chain: ['growth.goals.edit'],
    description: 'Changes a goal; key_results replaces the list (an id keeps and updates one); status completed emits goal.completed besides goal.updated',
    payload: Joi.object({ ...fields, status: Joi.string().valid(...GOAL_STATUSES) }),
    run: (request, ctx) => updateGoal(ctx, request.params.goal_id, request.payload),
  }),
  one.delete({
    chain: ['growth.goals.delete'],
    answers: { single: DELETED_GOAL },
    description: 'Deletes a goal no other goal is aligned to, with its key results and check-ins',
    run: (request, ctx) => deleteGoal(ctx, request.params.goal_id),
  }),
  one.at('/check-ins').post({
    chain: ['growth.goals.edit'],
    description: "Records a key result's new current value (not for one fed by events); emits goal.updated",
    payload: Joi.object({ key_result_id: Joi.id().required(), value: Joi.number().required(), note: Joi.string().trim().max(2000).allow('') }),
    run: (request, ctx) => checkIn(ctx, request.params.goal_id, request.payload),
  }),
];
