import { Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { BOARD_ROLES, PRIORITIES } from '../models/index.js';
import { grid } from './schemas.js';

/**
 * The records the app answers with (services/present.ts builds them), as the routes declare them
 * (`answers`): they go into the OpenAPI document and the typed client, and the test harness
 * checks every answer of the app's tests against them.
 */

const uuid = () => Joi.string().guid();
const nullableUuid = () => Joi.string().guid().allow(null);
const instant = () => Joi.date().iso();
const nullableInstant = () => Joi.date().iso().allow(null);
const calendarDate = () => Joi.string().pattern(/^\d{4}-\d{2}-\d{2}$/).allow(null);
const memberMrn = () => Joi.string().pattern(/^mrn:account:member:/);

export const BOARD: JoiObjectSchema = recordSchema({
  id: uuid(),
  title: Joi.string(),
  description: Joi.string().allow(''),
  is_template: Joi.boolean(),
  template_id: nullableUuid(),
  grid: grid(),
  lanes: Joi.array().items(Joi.string()),
  deleted: Joi.boolean().description('True once archived (`PUT {deleted: true}`)'),
  archived_at: nullableInstant(),
  creator_id: uuid(),
  creator_mrn: memberMrn(),
  created_at: instant(),
  updated_at: instant(),
}).id('TasksBoard');

/** A board after `PATCH /boards/{board_id}/columns`: with the ids of the tasks whose lane was renamed. */
export const RENAMED_BOARD: JoiObjectSchema = BOARD.keys({ renamed_task_ids: Joi.array().items(uuid()).required() }).id('TasksBoardWithRenamedTasks');

export const TASK: JoiObjectSchema = recordSchema({
  id: uuid(),
  key: Joi.string().description("The task's short key (`ACME-42`): the workspace's prefix and its number; stable, unique in the workspace"),
  number: Joi.number().integer().min(1).description("The task's number in its workspace, never reused"),
  title: Joi.string(),
  description: Joi.string().allow(''),
  board_id: nullableUuid().description('Null while the task is in the incubator'),
  in_incubator: Joi.boolean(),
  lane: Joi.string().allow(null),
  topic_id: nullableUuid(),
  schedule_id: nullableUuid(),
  priority: Joi.string().valid(...PRIORITIES),
  start_date: calendarDate(),
  due_date: calendarDate(),
  blocked_by: nullableUuid(),
  assignee_ids: Joi.array().items(uuid()),
  assignee_mrns: Joi.array().items(memberMrn()),
  completed: Joi.boolean(),
  completed_at: nullableInstant(),
  completed_by: nullableUuid(),
  creator_id: uuid(),
  creator_mrn: memberMrn(),
  created_at: instant(),
  updated_at: instant(),
}).id('TasksTask');

export const TOPIC: JoiObjectSchema = recordSchema({
  id: uuid(),
  board_id: uuid(),
  name: Joi.string(),
  color: Joi.string().allow(null),
  creator_id: uuid(),
  created_at: instant(),
  updated_at: instant(),
}).id('TasksTopic');

export const SCHEDULE: JoiObjectSchema = recordSchema({
  id: uuid(),
  name: Joi.string(),
  start_date: calendarDate(),
  end_date: calendarDate(),
  status: Joi.string().valid('open', 'completed'),
  completed_at: nullableInstant(),
  completed_by: nullableUuid(),
  creator_id: uuid(),
  created_at: instant(),
  updated_at: instant(),
}).id('TasksSchedule');

export const BOARD_MEMBER: JoiObjectSchema = recordSchema({
  board_id: uuid(),
  member_id: uuid(),
  member_mrn: memberMrn(),
  role: Joi.string().valid(...BOARD_ROLES),
  added_by: nullableUuid(),
  created_at: instant(),
  updated_at: instant(),
}).id('TasksBoardMember');

export const VIEW: JoiObjectSchema = recordSchema({
  id: uuid(),
  board_id: uuid(),
  owner_id: uuid(),
  name: Joi.string(),
  tab: Joi.string(),
  schedule_id: nullableUuid(),
  created_at: instant(),
  updated_at: instant(),
}).id('TasksView');

export const COMMENT: JoiObjectSchema = recordSchema({
  id: uuid(),
  task_id: uuid(),
  author_id: uuid(),
  author_mrn: memberMrn(),
  body: Joi.string(),
  created_at: instant(),
  updated_at: instant(),
}).id('TasksComment');

export const DELIVERABLE: JoiObjectSchema = recordSchema({
  id: uuid(),
  task_id: uuid(),
  title: Joi.string(),
  url: Joi.string().allow(null, ''),
  delivered: Joi.boolean(),
  delivered_at: nullableInstant(),
  delivered_by: nullableUuid(),
  creator_id: uuid(),
  created_at: instant(),
  updated_at: instant(),
}).id('TasksDeliverable');

/** One field a board's tasks can be filtered by (a query parameter of `GET /tasks`). */
export const TASK_FILTER: JoiObjectSchema = recordSchema({ key: Joi.string(), label: Joi.string(), type: Joi.string().valid('enum', 'member') }).id('TasksTaskFilter');
/** One value of a filter on a board, with how many of its tasks have it. */
export const FILTER_OPTION: JoiObjectSchema = recordSchema({ value: Joi.string(), label: Joi.string(), count: Joi.number().integer().min(0) }).id('TasksFilterOption');

export const DELETED_BOARD: JoiObjectSchema = recordSchema({ board_id: uuid(), deleted_task_ids: Joi.array().items(uuid()) }).id('TasksDeletedBoard');
export const CLEARED_BOARD: JoiObjectSchema = recordSchema({ board_id: uuid(), scheduled: Joi.boolean(), deleted_task_ids: Joi.array().items(uuid()) }).id('TasksClearedBoard');
export const REMOVED_BOARD_MEMBER: JoiObjectSchema = recordSchema({ board_id: uuid(), member_id: uuid(), removed: Joi.boolean().valid(true) }).id('TasksRemovedBoardMember');
export const DELETED_TOPIC: JoiObjectSchema = recordSchema({ id: uuid(), deleted: Joi.boolean().valid(true), task_ids: Joi.array().items(uuid()).description('Its tasks, which keep no topic now') }).id('TasksDeletedTopic');
/** A deleted task or view. */
export const DELETED: JoiObjectSchema = recordSchema({ id: uuid(), deleted: Joi.boolean().valid(true) }).id('TasksDeleted');
