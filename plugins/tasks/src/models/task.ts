import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/** Task priorities, lowest first. */
export const PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;
export type Priority = (typeof PRIORITIES)[number];

/**
 * A task. `board_id` null means the task is in the workspace's incubator (unplanned ideas);
 * pulling it onto a board sets `board_id` and a lane. Dates are `YYYY-MM-DD` strings.
 */
export type Task = DeclaredRow<typeof tasks>;

export const tasks = defineModel('tasks', {
  id: column.uuid().primaryKey().defaultRandom(),
  /** The task's number in its workspace (1, 2, ...), never reused. */
  number: column.integer(),
  /** The short key people name it by (`ACME-42`): the workspace's prefix and the number. */
  key: column.string(20),
  title: column.string(200),
  description: column.string(10000).default(''),
  board_id: column.uuid().nullable(),
  lane: column.string(80).nullable(),
  topic_id: column.uuid().nullable(),
  schedule_id: column.uuid().nullable(),
  priority: column.enum(PRIORITIES, 10).default('none'),
  start_date: column.dateOnly().nullable(),
  due_date: column.dateOnly().nullable(),
  blocked_by: column.uuid().nullable(),
  /** What the task is for: another app's record (`mrn:crm:deal:{id}`), set when it is made. */
  source_mrn: column.string(300).nullable(),
  creator_id: column.uuid(),
  completed_at: column.date().nullable(),
  completed_by: column.uuid().nullable(),
});

/** One member assigned to one task. */
export type TaskAssignee = DeclaredRow<typeof taskAssignees>;

export const taskAssignees = defineModel(
  'task_assignees',
  {
  task_id: column.uuid().primaryKey(),
  member_id: column.uuid().primaryKey(),
  assigned_by: column.uuid(),
  /** Place in the `assignee_ids` of the request that made the task; 0 when assigned later. */
  position: column.integer().default(0),
  created_at: column.date().defaultNow(),
},
  { timestamps: false },
);

/** A comment on a task. */
export type TaskComment = DeclaredRow<typeof taskComments>;

export const taskComments = defineModel('task_comments', {
  id: column.uuid().primaryKey().defaultRandom(),
  task_id: column.uuid(),
  author_id: column.uuid(),
  body: column.string(5000),
});

/** Something a task must produce; delivered once. */
export type Deliverable = DeclaredRow<typeof deliverables>;

export const deliverables = defineModel('deliverables', {
  id: column.uuid().primaryKey().defaultRandom(),
  task_id: column.uuid(),
  title: column.string(200),
  url: column.string(2000).nullable(),
  creator_id: column.uuid(),
  delivered_at: column.date().nullable(),
  delivered_by: column.uuid().nullable(),
});

/** A removed member the app released: once per member (`core.tasks.member.released`). */
export type MemberRelease = DeclaredRow<typeof memberReleases>;

export const memberReleases = defineModel('member_releases', {
  id: column.uuid().primaryKey().defaultRandom(),
  member_id: column.uuid(),
  unassigned: column.integer(),
});

/** A workspace's task-key counter: its prefix and the last number handed out. */
export type TaskKeyCounter = DeclaredRow<typeof taskKeyCounters>;

export const taskKeyCounters = defineModel('task_key_counters', {
  id: column.uuid().primaryKey().defaultRandom(),
  prefix: column.string(10),
  last_number: column.integer(),
});
