import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { BOARD_ROLES, PRIORITIES } from '../models/index.js';
import { grid } from './schemas.js';

/**
 * The records the app answers with (services/present.ts builds them), as the routes declare them
 * (`answers`): they go into the OpenAPI document and the typed client, and the test harness
 * checks every answer of the app's tests against them.
 */

const calendarDate = () => field.date().allow(null);

export const BOARD: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  title: Joi.string(),
  description: Joi.string().allow(''),
  is_template: Joi.boolean(),
  template_id: field.uuid().allow(null),
  grid: grid(),
  lanes: Joi.array().items(Joi.string()),
  deleted: Joi.boolean().description('True once archived (`PUT {deleted: true}`)'),
  archived_at: field.optionalInstant(),
  creator_id: field.uuid(),
  creator_mrn: field.memberMrn(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('TasksBoard');

/** A board after `PATCH /boards/{board_id}/columns`: with the ids of the tasks whose lane was renamed. */
export const RENAMED_BOARD: JoiObjectSchema = BOARD.keys({ renamed_task_ids: Joi.array().items(field.uuid()).required() }).id('TasksBoardWithRenamedTasks');

export const TASK: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  key: Joi.string().description("The task's short key (`ACME-42`): the workspace's prefix and its number; stable, unique in the workspace"),
  number: Joi.number().integer().min(1).description("The task's number in its workspace, never reused"),
  title: Joi.string(),
  description: Joi.string().allow(''),
  board_id: field.uuid().allow(null).description('Null while the task is in the incubator'),
  in_incubator: Joi.boolean(),
  lane: Joi.string().allow(null),
  topic_id: field.uuid().allow(null),
  schedule_id: field.uuid().allow(null),
  priority: Joi.string().valid(...PRIORITIES),
  start_date: calendarDate(),
  due_date: calendarDate(),
  blocked_by: field.uuid().allow(null),
  source_mrn: Joi.string().allow(null).description("What the task is for: another app's record, named when the task was made"),
  assignee_ids: Joi.array().items(field.uuid()),
  assignee_mrns: Joi.array().items(field.memberMrn()),
  completed: Joi.boolean(),
  completed_at: field.optionalInstant(),
  completed_by: field.uuid().allow(null),
  creator_id: field.uuid(),
  creator_mrn: field.memberMrn(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('TasksTask');

export const TOPIC: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  board_id: field.uuid(),
  name: Joi.string(),
  color: Joi.string().allow(null),
  creator_id: field.uuid(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('TasksTopic');

export const SCHEDULE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  name: Joi.string(),
  start_date: calendarDate(),
  end_date: calendarDate(),
  status: Joi.string().valid('open', 'completed'),
  completed_at: field.optionalInstant(),
  completed_by: field.uuid().allow(null),
  creator_id: field.uuid(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('TasksSchedule');

export const BOARD_MEMBER: JoiObjectSchema = recordSchema({
  board_id: field.uuid(),
  member_id: field.uuid(),
  member_mrn: field.memberMrn(),
  role: Joi.string().valid(...BOARD_ROLES),
  added_by: field.uuid().allow(null),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('TasksBoardMember');

export const VIEW: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  board_id: field.uuid(),
  owner_id: field.uuid(),
  name: Joi.string(),
  tab: Joi.string(),
  schedule_id: field.uuid().allow(null),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('TasksView');

export const COMMENT: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  task_id: field.uuid(),
  author_id: field.uuid(),
  author_mrn: field.memberMrn(),
  body: Joi.string(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('TasksComment');

export const DELIVERABLE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  task_id: field.uuid(),
  title: Joi.string(),
  url: Joi.string().allow(null, ''),
  delivered: Joi.boolean(),
  delivered_at: field.optionalInstant(),
  delivered_by: field.uuid().allow(null),
  creator_id: field.uuid(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('TasksDeliverable');

/** One field a board's tasks can be filtered by (a query parameter of `GET /tasks`). */
export const TASK_FILTER: JoiObjectSchema = recordSchema({ key: Joi.string(), label: Joi.string(), type: Joi.string().valid('enum', 'member') }).id('TasksTaskFilter');
/** One value of a filter on a board, with how many of its tasks have it. */
export const FILTER_OPTION: JoiObjectSchema = recordSchema({ value: Joi.string(), label: Joi.string(), count: Joi.number().integer().min(0) }).id('TasksFilterOption');

export const DELETED_BOARD: JoiObjectSchema = recordSchema({ board_id: field.uuid(), deleted_task_ids: Joi.array().items(field.uuid()) }).id('TasksDeletedBoard');
export const CLEARED_BOARD: JoiObjectSchema = recordSchema({ board_id: field.uuid(), scheduled: Joi.boolean(), deleted_task_ids: Joi.array().items(field.uuid()) }).id('TasksClearedBoard');
export const REMOVED_BOARD_MEMBER: JoiObjectSchema = recordSchema({ board_id: field.uuid(), member_id: field.uuid(), removed: Joi.boolean().valid(true) }).id('TasksRemovedBoardMember');
export const DELETED_TOPIC: JoiObjectSchema = recordSchema({ id: field.uuid(), deleted: Joi.boolean().valid(true), task_ids: Joi.array().items(field.uuid()).description('Its tasks, which keep no topic now') }).id('TasksDeletedTopic');
/** A deleted task or view. */
export const DELETED: JoiObjectSchema = recordSchema({ id: field.uuid(), deleted: Joi.boolean().valid(true) }).id('TasksDeleted');
