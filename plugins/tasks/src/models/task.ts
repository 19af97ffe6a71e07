import { DataTypes, defineModel } from '@wpk/sdk';

/** Task priorities, lowest first. */
export const PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;
export type Priority = (typeof PRIORITIES)[number];

/**
 * A task. `board_id` null means the task is in the workspace's incubator (unplanned ideas);
 * pulling it onto a board sets `board_id` and a lane. Dates are `YYYY-MM-DD` strings.
 */
export interface Task {
  id: string;
  /** The task's number in its workspace (1, 2, ...), never reused. */
  number: number;
  /** The short key people name it by (`ACME-42`): the workspace's prefix and the number. */
  key: string;
  title: string;
  description: string;
  board_id: string | null;
  lane: string | null;
  topic_id: string | null;
  schedule_id: string | null;
  priority: Priority;
  start_date: string | null;
  due_date: string | null;
  blocked_by: string | null;
  creator_id: string;
  completed_at: Date | null;
  completed_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export const tasks = defineModel<Task>('tasks', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  number: { type: DataTypes.INTEGER, allowNull: false },
  key: { type: DataTypes.STRING(20), allowNull: false },
  title: { type: DataTypes.STRING(200), allowNull: false },
  description: { type: DataTypes.STRING(10000), allowNull: false, defaultValue: '' },
  board_id: { type: DataTypes.UUID, allowNull: true },
  lane: { type: DataTypes.STRING(80), allowNull: true },
  topic_id: { type: DataTypes.UUID, allowNull: true },
  schedule_id: { type: DataTypes.UUID, allowNull: true },
  priority: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'none' },
  start_date: { type: DataTypes.DATEONLY, allowNull: true },
  due_date: { type: DataTypes.DATEONLY, allowNull: true },
  blocked_by: { type: DataTypes.UUID, allowNull: true },
  creator_id: { type: DataTypes.UUID, allowNull: false },
  completed_at: { type: DataTypes.DATE, allowNull: true },
  completed_by: { type: DataTypes.UUID, allowNull: true },
});

/** One member assigned to one task. */
export interface TaskAssignee {
  task_id: string;
  member_id: string;
  assigned_by: string;
  created_at: Date;
}

export const taskAssignees = defineModel<TaskAssignee>(
  'task_assignees',
  {
    task_id: { type: DataTypes.UUID, primaryKey: true },
    member_id: { type: DataTypes.UUID, primaryKey: true },
    assigned_by: { type: DataTypes.UUID, allowNull: false },
    created_at: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
  },
  { timestamps: false },
);

/** A comment on a task. */
export interface TaskComment {
  id: string;
  task_id: string;
  author_id: string;
  body: string;
  created_at: Date;
  updated_at: Date;
}

export const taskComments = defineModel<TaskComment>('task_comments', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  task_id: { type: DataTypes.UUID, allowNull: false },
  author_id: { type: DataTypes.UUID, allowNull: false },
  body: { type: DataTypes.STRING(5000), allowNull: false },
});

/** Something a task must produce; delivered once. */
export interface Deliverable {
  id: string;
  task_id: string;
  title: string;
  url: string | null;
  creator_id: string;
  delivered_at: Date | null;
  delivered_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export const deliverables = defineModel<Deliverable>('deliverables', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  task_id: { type: DataTypes.UUID, allowNull: false },
  title: { type: DataTypes.STRING(200), allowNull: false },
  url: { type: DataTypes.STRING(2000), allowNull: true },
  creator_id: { type: DataTypes.UUID, allowNull: false },
  delivered_at: { type: DataTypes.DATE, allowNull: true },
  delivered_by: { type: DataTypes.UUID, allowNull: true },
});

/** A workspace's task-key counter: its prefix and the last number handed out. */
export interface TaskKeyCounter {
  id: string;
  prefix: string;
  last_number: number;
  created_at: Date;
  updated_at: Date;
}

export const taskKeyCounters = defineModel<TaskKeyCounter>('task_key_counters', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  prefix: { type: DataTypes.STRING(10), allowNull: false },
  last_number: { type: DataTypes.INTEGER, allowNull: false },
});
