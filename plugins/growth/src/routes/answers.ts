import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { AGGREGATES, CYCLE_STATUSES, GOAL_STATUSES, NOMINATION_STATUSES, OWNER_TYPES } from '../models/index.js';

const competencyMrn = () => Joi.string().pattern(/^mrn:growth:competency:/);
const goalMrn = () => Joi.string().pattern(/^mrn:growth:goal:/);
const score = () => Joi.number().allow(null);

export const LEVEL: JoiObjectSchema = recordSchema({ level: Joi.number().integer().min(1), descriptor: Joi.string() }).id('GrowthLevel');

export const COMPETENCY: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  mrn: competencyMrn(),
  name: Joi.string(),
  description: Joi.string().allow(''),
  levels: Joi.array().items(LEVEL).description('Numbered 1 up, in order'),
  revision: Joi.number().integer().min(1).description('Rises by one with every change; copies kept by other apps keep the highest'),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('GrowthCompetency');

export const DELETED_COMPETENCY: JoiObjectSchema = recordSchema({ id: field.uuid(), mrn: competencyMrn(), deleted: Joi.boolean().valid(true) }).id('GrowthDeletedCompetency');

export const PROFILE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  name: Joi.string(),
  description: Joi.string().allow(''),
  expectations: Joi.array().items(recordSchema({ competency_id: field.uuid(), level: Joi.number().integer().min(1) })),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('GrowthProfile');

export const KEY_SOURCE: JoiObjectSchema = recordSchema({
  action: Joi.string(),
  filter: Joi.string().allow(null).description('A JSONata expression over the payload; the event counts when it is true'),
  aggregate: field.oneOf(AGGREGATES),
  field: Joi.string().allow(null).description('For a sum: the payload field added'),
}).id('GrowthKeySource');

export const KEY_RESULT: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  title: Joi.string(),
  start: Joi.number(),
  target: Joi.number(),
  current: Joi.number(),
  unit: Joi.string().allow(''),
  progress: Joi.number().integer().min(0).max(100).description('Percent of the way from start to target'),
  source: KEY_SOURCE.allow(null),
}).id('GrowthKeyResult');

export const GOAL: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  mrn: goalMrn(),
  title: Joi.string(),
  description: Joi.string().allow(''),
  owner_type: field.oneOf(OWNER_TYPES),
  owner_id: field.uuid().allow(null).description('The member or department; null for the company'),
  parent_id: field.uuid().allow(null).description('The goal this one aligns to'),
  period_start: field.date().allow(null),
  period_end: field.date().allow(null),
  status: field.oneOf(GOAL_STATUSES),
  progress: Joi.number().integer().min(0).max(100).description('The mean of the key results’ progress'),
  key_results: Joi.array().items(KEY_RESULT),
  revision: Joi.number().integer().min(1),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('GrowthGoal');

export const DELETED_GOAL: JoiObjectSchema = recordSchema({ id: field.uuid(), mrn: goalMrn(), deleted: Joi.boolean().valid(true) }).id('GrowthDeletedGoal');

export const WEIGHTS: JoiObjectSchema = recordSchema({ self: Joi.number().integer(), peer: Joi.number().integer(), manager: Joi.number().integer() }).id('GrowthWeights');

export const CYCLE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  name: Joi.string(),
  status: field.oneOf(CYCLE_STATUSES),
  weights: WEIGHTS,
  revision: Joi.number().integer().min(1),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('GrowthCycle');

export const REVIEW: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  cycle_id: field.uuid(),
  cycle_status: field.oneOf(CYCLE_STATUSES),
  worker_id: field.uuid(),
  worker_name: Joi.string().allow(null),
  manager_id: field.uuid().allow(null),
  self_score: score(),
  self_comment: Joi.string().allow(''),
  manager_score: score().description('Null for the reviewed worker until the cycle is released'),
  manager_comment: Joi.string().allow(''),
  calibrated_score: score(),
  final_score: score().description('The calibrated score, or the weighted mean of the self, peer and manager scores given'),
  peers: Joi.array().items(recordSchema({ id: field.uuid(), peer_id: field.uuid(), peer_name: Joi.string().allow(null), status: field.oneOf(NOMINATION_STATUSES), score: score(), comment: Joi.string().allow('') })),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('GrowthReview');

export const PERSON: JoiObjectSchema = recordSchema({
  id: field.uuid().description('The worker (Workers)'),
  name: Joi.string(),
  member_id: field.uuid().allow(null).description('The member who is this worker, if linked'),
  manager_id: field.uuid().allow(null),
  department_id: field.uuid().allow(null),
  status: Joi.string(),
}).id('GrowthPerson');

export const ONE_ON_ONE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  organizer_id: field.uuid(),
  attendee_id: field.uuid(),
  scheduled_on: field.date(),
  agenda: Joi.array().items(Joi.string()),
  notes: Joi.string().allow(''),
  action_items: Joi.array().items(recordSchema({ text: Joi.string(), done: Joi.boolean() })),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('GrowthOneOnOne');

export const FEEDBACK_REQUEST: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  requester_id: field.uuid(),
  responder_id: field.uuid(),
  about_id: field.uuid(),
  question: Joi.string(),
  due_on: field.date().allow(null),
  created_at: field.instant(),
}).id('GrowthFeedbackRequest');

export const PRAISE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  giver_id: field.uuid(),
  receiver_id: field.uuid(),
  message: Joi.string(),
  competency_id: field.uuid().allow(null),
  created_at: field.instant(),
}).id('GrowthPraise');
