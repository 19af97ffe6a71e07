import { ConflictError, conflictOnDuplicate, InvalidError, likePattern, memberMrn, NotFoundError, Op, type WhereOptions } from '@wpk/sdk';
import type { Board, Priority, Task } from '../models/index.js';
import { taskDocument } from '../search.js';
import { requireBoard, requireLiveBoard } from './boards.js';
import type { TasksBaseContext, TasksContext } from '../kit.js';
import { notBefore } from './dates.js';
import { emit } from './events.js';
import { stateOf, taskMachine } from './machines.js';
import { presentTask } from './present.js';
import { taskResource } from './resources.js';
import { deleteTasksOf } from './task-removal.js';
import { nextTaskKey } from './task-keys.js';

/** The fields of a task a client may set (`POST /tasks`, `PATCH /tasks/{id}`). */
export interface TaskFields {
  title?: string;
  description?: string;
  lane?: string | null;
  topic_id?: string | null;
  schedule_id?: string | null;
  priority?: Priority;
  start_date?: string | null;
  due_date?: string | null;
  blocked_by?: string | null;
}

/** What `POST /tasks` takes: the task's fields, the board (none: the incubator), first assignees. */
export interface TaskInput extends TaskFields {
  board_id?: string | null;
  assignee_ids?: string[];
  /** What the task is for (another app's record), kept as given. */
  source_mrn?: string;
}

/** Filters of `GET /tasks` (the keys of the board's task filters among them). */
export interface TaskListQuery {
  board_id?: string;
  incubator?: boolean;
  lane?: string;
  assignee_id?: string;
  topic_id?: string;
  schedule_id?: string;
  priority?: Priority;
  status?: 'open' | 'completed';
  creator_id?: string;
  blocked_by?: string;
  q?: string;
  due_before?: string;
  due_after?: string;
}

/** A task title when `POST /tasks` names none (the specification does not require one). */
export const UNTITLED = 'Untitled task';

/** The fields `task.updated` may name, in the order `changed_fields` lists them. */
const EDITABLE: Array<keyof TaskFields> = ['title', 'description', 'lane', 'topic_id', 'schedule_id', 'priority', 'start_date', 'due_date', 'blocked_by'];

/** Dependency chains longer than this are refused rather than walked further. */
const MAX_CHAIN = 10_000;

/** The task with this id in the workspace; 404 otherwise. */
export function requireTask(ctx: TasksBaseContext, taskId: string): Promise<Task> {
  return taskResource.require(ctx, taskId);
}

/** Assignee ids of each task, in assignment order. */
export async function assigneesOf(ctx: TasksBaseContext, taskIds: string[]): Promise<Map<string, string[]>> {
  const byTask = new Map<string, string[]>(taskIds.map((id) => [id, []]));
  if (taskIds.length === 0) return byTask;
  const rows = await ctx.db.taskAssignees.findAll({ where: { task_id: { [Op.in]: taskIds } }, order: [['created_at', 'ASC'], ['position', 'ASC'], ['member_id', 'ASC']] });
  for (const row of rows) byTask.get(row.task_id)?.push(row.member_id);
  return byTask;
}

/** Tasks as the API shows them, assignees included. */
export async function presentTasks(ctx: TasksBaseContext, tasks: Task[]) {
  const assignees = await assigneesOf(ctx, tasks.map((task) => task.id));
  return tasks.map((task) => presentTask(task, assignees.get(task.id) ?? []));
}

/** One task as the API shows it. */
export async function presentOne(ctx: TasksBaseContext, task: Task) {
  return (await presentTasks(ctx, [task]))[0];
}

/** Re-reads a task and refreshes its search document. */
export async function reindexTask(ctx: TasksBaseContext, taskId: string): Promise<Task> {
  const task = (await ctx.db.tasks.findById(taskId))!;
  const board = task.board_id ? await ctx.db.boards.findById(task.board_id) : null;
  ctx.search.upsert(taskDocument(task, board?.title ?? null));
  return task;
}

/** The conditions of `GET /tasks`, shared with the board's filter options. */
export async function taskWhere(ctx: TasksBaseContext, query: TaskListQuery): Promise<WhereOptions<Task>> {
  const and: WhereOptions<Task>[] = [];
  if (query.board_id) and.push({ board_id: query.board_id });
  if (query.incubator !== undefined) and.push({ board_id: query.incubator ? null : { [Op.ne]: null } });
  if (query.lane !== undefined) and.push({ lane: query.lane });
  if (query.topic_id) and.push({ topic_id: query.topic_id });
  if (query.schedule_id) and.push({ schedule_id: query.schedule_id });
  if (query.priority) and.push({ priority: query.priority });
  if (query.status) and.push({ completed_at: query.status === 'completed' ? { [Op.ne]: null } : null });
  if (query.creator_id) and.push({ creator_id: query.creator_id });
  if (query.blocked_by) and.push({ blocked_by: query.blocked_by });
  if (query.due_before) and.push({ due_date: { [Op.lte]: query.due_before } });
  if (query.due_after) and.push({ due_date: { [Op.gte]: query.due_after } });
  if (query.q) and.push({ [Op.or]: [{ title: { [Op.iLike]: likePattern(query.q) } }, { description: { [Op.iLike]: likePattern(query.q) } }] } as WhereOptions<Task>);
  if (query.assignee_id) {
    const rows = await ctx.db.taskAssignees.findAll({ where: { member_id: query.assignee_id }, attributes: ['task_id'] });
    and.push({ id: { [Op.in]: rows.map((row) => row.task_id) } });
  }
  return and.length ? ({ [Op.and]: and } as WhereOptions<Task>) : {};
}

/** One page of tasks matching the filters, oldest first. */
export async function listTasks(ctx: TasksContext, query: TaskListQuery) {
  const where = await taskWhere(ctx, query);
  const { rows, count } = await ctx.db.tasks.findAndCountAll({ where, order: [['created_at', 'ASC'], ['id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
  return { rows: await presentTasks(ctx, rows), count };
}

/**
 * Checks the fields of a task against its board and the workspace, given the task as it would
 * be after the change (`next`) and, for an existing task, its id. Throws InvalidError naming the
 * field. Rules: a lane is one of the board's lanes and needs a board (a task on a board always
 * has one); a topic is one of the
 * board's topics; a schedule exists; due_date is not before start_date; blocked_by is another
 * task of this workspace and creates no dependency cycle.
 */
async function checkTaskFields(ctx: TasksBaseContext, next: Partial<Task>, board: Board | null, taskId: string | null, touched: Set<string>): Promise<void> {
  if (touched.has('lane') && next.lane != null) {
    if (!board) throw new InvalidError('lane needs a board: a task in the incubator has no lane');
    if (!board.lanes.includes(next.lane)) throw new InvalidError(`lane ${next.lane} is not a lane of board ${board.title}`);
  }
  if (touched.has('lane') && next.lane == null && board) throw new InvalidError(`lane cannot be null: a task on board ${board.title} is always in one of its lanes`);
  if (touched.has('topic_id') && next.topic_id != null) {
    if (!board) throw new InvalidError('topic_id needs a board: a task in the incubator has no topic');
    const topic = await ctx.db.topics.findOne({ where: { id: next.topic_id, board_id: board.id } });
    if (!topic) throw new InvalidError(`topic_id ${next.topic_id} is not a topic of board ${board.title}`);
  }
  if (touched.has('schedule_id') && next.schedule_id != null) {
    const schedule = await ctx.db.schedules.findById(next.schedule_id);
    if (!schedule) throw new InvalidError(`schedule_id ${next.schedule_id} is not a schedule of this workspace`);
  }
  if ((touched.has('start_date') || touched.has('due_date')) && !notBefore(next.due_date, next.start_date)) {
    throw new InvalidError(`due_date ${next.due_date} is before start_date ${next.start_date}`);
  }
  if (touched.has('blocked_by') && next.blocked_by != null) {
    if (next.blocked_by === taskId) throw new InvalidError('blocked_by cannot be the task itself');
    // One dependency change at a time per workspace: two concurrent changes (A after B, B after
    // A) would each walk the chain before the other's edge exists and close a cycle together.
    // Taken before the walk, so it reads every edge committed before this one.
    if (taskId) await ctx.lock('dependencies');
    const blocker = await ctx.db.tasks.findById(next.blocked_by);
    if (!blocker) throw new InvalidError(`blocked_by ${next.blocked_by} is not a task of this workspace`);
    if (taskId) await assertNoCycle(ctx, taskId, blocker);
  }
}

/** Walks the chain of blockers from `blocker`; reaching `taskId` means the new edge closes a cycle. */
async function assertNoCycle(ctx: TasksBaseContext, taskId: string, blocker: Task): Promise<void> {
  const seen = new Set<string>([blocker.id]);
  let next = blocker.blocked_by;
  while (next) {
    if (next === taskId) throw new InvalidError(`blocked_by ${blocker.id} would create a dependency cycle`);
    if (seen.has(next) || seen.size > MAX_CHAIN) return;
    seen.add(next);
    const row = await ctx.db.tasks.findOne({ where: { id: next }, attributes: ['id', 'blocked_by'] });
    next = row?.blocked_by ?? null;
  }
}

/**
 * Creates a task: on a board (a live one; lane defaults to its first lane) or, without
 * `board_id`, in the incubator. Emits `task.created`, then `task.assigned` for each first
 * assignee.
 */
export async function createTask(ctx: TasksContext, input: TaskInput) {
  const board = input.board_id ? await requireLiveBoard(ctx, input.board_id) : null;
  const values: Partial<Task> = {
    title: input.title ?? UNTITLED,
    description: input.description ?? '',
    board_id: board?.id ?? null,
    lane: input.lane ?? board?.lanes[0] ?? null,
    topic_id: input.topic_id ?? null,
    schedule_id: input.schedule_id ?? null,
    priority: input.priority ?? ctx.settings.default_priority,
    start_date: input.start_date ?? null,
    due_date: input.due_date ?? null,
    blocked_by: input.blocked_by ?? null,
    source_mrn: input.source_mrn ?? null,
  };
  await checkTaskFields(ctx, values, board, null, new Set(Object.keys(input).filter((field) => input[field as keyof TaskInput] !== null)));
  // The route checked every assignee is a member of the workspace now (Joi.memberId()).
  const assigneeIds = [...new Set((input.assignee_ids ?? []).map((memberId) => memberId.toLowerCase()))];
  const max = ctx.settings.max_assignees;
  if (assigneeIds.length > max) throw new InvalidError(`assignee_ids must contain at most ${max} members (settings: max_assignees)`);

  const task = await ctx.db.tasks.create({ ...values, ...(await nextTaskKey(ctx)), creator_id: ctx.member.id, completed_at: null, completed_by: null });
  const assignedAt = new Date();
  for (const [position, memberId] of assigneeIds.entries()) await ctx.db.taskAssignees.create({ task_id: task.id, member_id: memberId, assigned_by: ctx.member.id, position, created_at: assignedAt });
  ctx.search.upsert(taskDocument(task, board?.title ?? null));
  emit(ctx, 'core.tasks.task.created', { task_id: task.id, board_id: task.board_id, title: task.title, creator_mrn: ctx.member.mrn, ...sourceOf(task) });
  for (const memberId of assigneeIds) emit(ctx, 'core.tasks.task.assigned', { task_id: task.id, assignee_mrn: memberMrn(memberId), assigned_by: ctx.member.id }, task.board_id);
  return presentOne(ctx, task);
}

/**
 * Updates a task's fields (`PATCH /tasks/{id}`). Only fields whose value changes count; when
 * some do, `task.updated` names them in `changed_fields`.
 */
export async function updateTask(ctx: TasksContext, taskId: string, patch: TaskFields) {
  const task = await requireTask(ctx, taskId);
  const board = task.board_id ? await requireBoard(ctx, task.board_id) : null;
  const changed = EDITABLE.filter((field) => patch[field] !== undefined && patch[field] !== task[field]);
  if (changed.length === 0) return presentOne(ctx, task);
  const next: Task = { ...task };
  const changes: Partial<Task> = {};
  for (const field of changed) Object.assign(changes, { [field]: patch[field] });
  Object.assign(next, changes);
  await checkTaskFields(ctx, next, board, task.id, new Set(changed));
  await ctx.db.tasks.update(changes, { where: { id: task.id } });
  const updated = await reindexTask(ctx, task.id);
  emit(ctx, 'core.tasks.task.updated', { task_id: task.id, changed_fields: changed }, task.board_id);
  return presentOne(ctx, updated);
}

/** Deletes a task (the authorization table already let the caller through). Emits `task.deleted`. */
export async function deleteTask(ctx: TasksContext, taskId: string) {
  const task = await requireTask(ctx, taskId);
  await deleteTasksOf(ctx, [task.id]);
  emit(ctx, 'core.tasks.task.deleted', { task_id: task.id, deleted_by: ctx.member.id }, task.board_id);
  return { id: task.id, deleted: true };
}

/** The `source_mrn` an event carries: present only when the task names one. */
const sourceOf = (task: Task) => (task.source_mrn ? { source_mrn: task.source_mrn } : {});

/** Completes an open task (409 naming both states when it is completed already). Emits `task.completed`. */
export async function completeTask(ctx: TasksContext, taskId: string) {
  const task = await requireTask(ctx, taskId);
  taskMachine.move(stateOf(task), 'complete');
  await ctx.db.tasks.update({ completed_at: new Date(), completed_by: ctx.member.id }, { where: { id: task.id } });
  const updated = await reindexTask(ctx, task.id);
  emit(ctx, 'core.tasks.task.completed', { task_id: task.id, ...(task.board_id ? { board_id: task.board_id } : {}), completed_by: ctx.member.id, title: task.title, ...sourceOf(task) }, task.board_id);
  return presentOne(ctx, updated);
}

/** Reopens a completed task (409 naming both states when it is open). Emits `task.updated` with `changed_fields: ["completed"]`. */
export async function reopenTask(ctx: TasksContext, taskId: string) {
  const task = await requireTask(ctx, taskId);
  taskMachine.move(stateOf(task), 'reopen');
  await ctx.db.tasks.update({ completed_at: null, completed_by: null }, { where: { id: task.id } });
  const updated = await reindexTask(ctx, task.id);
  emit(ctx, 'core.tasks.task.updated', { task_id: task.id, changed_fields: ['completed'] }, task.board_id);
  return presentOne(ctx, updated);
}

/**
 * Moves a task from its board to another live board (`PUT /tasks/{id}/board`). The lane is the
 * one given (a lane of the target) or the target's first; the topic, which belongs to the old
 * board, is cleared. A task in the incubator is pulled, not moved. Emits `task.moved`.
 */
export async function moveTask(ctx: TasksContext, taskId: string, target: { board_id: string; lane?: string }) {
  const task = await requireTask(ctx, taskId);
  if (!task.board_id) throw new ConflictError(`Task ${task.id} is in the incubator; pull it onto a board with POST /boards/{board_id}/tasks`);
  if (task.board_id === target.board_id) throw new ConflictError(`Task ${task.id} is already on board ${target.board_id}`);
  const board = await requireLiveBoard(ctx, target.board_id);
  if (target.lane !== undefined && !board.lanes.includes(target.lane)) throw new InvalidError(`lane ${target.lane} is not a lane of board ${board.title}`);
  await ctx.db.tasks.update({ board_id: board.id, lane: target.lane ?? board.lanes[0] ?? null, topic_id: null }, { where: { id: task.id } });
  const updated = await reindexTask(ctx, task.id);
  emit(ctx, 'core.tasks.task.moved', { task_id: task.id, from_board: task.board_id, to_board: board.id });
  return presentOne(ctx, updated);
}

/** Assigns a member (the route checked they are one now; 409 when already assigned or at `max_assignees`). Emits `task.assigned`. */
export async function assignMember(ctx: TasksContext, taskId: string, given: string) {
  const memberId = given.toLowerCase();
  const task = await requireTask(ctx, taskId);
  // The task's row lock makes concurrent assignments of one task take turns, so each counts the
  // assignees the previous one left: max_assignees holds under concurrent requests.
  await ctx.db.tasks.findById(task.id, { lock: 'update', attributes: ['id'] });
  const current = await ctx.db.taskAssignees.findAll({ where: { task_id: task.id } });
  if (current.some((row) => row.member_id === memberId)) throw new ConflictError(`Member ${memberId} is already assigned to task ${task.id}`);
  const max = ctx.settings.max_assignees;
  if (current.length >= max) throw new ConflictError(`Task ${task.id} already has ${max} assignees, the most allowed (settings: max_assignees)`);
  await conflictOnDuplicate(ctx.db.taskAssignees.create({ task_id: task.id, member_id: memberId, assigned_by: ctx.member.id }), `Member ${memberId} is already assigned to task ${task.id}`);
  await ctx.db.tasks.update({ updated_at: new Date() }, { where: { id: task.id } });
  emit(ctx, 'core.tasks.task.assigned', { task_id: task.id, assignee_mrn: memberMrn(memberId), assigned_by: ctx.member.id }, task.board_id);
  return presentOne(ctx, (await ctx.db.tasks.findById(task.id))!);
}

/** Unassigns a member (404 when not assigned). Emits `task.unassigned`. */
export async function unassignMember(ctx: TasksContext, taskId: string, memberId: string) {
  const task = await requireTask(ctx, taskId);
  const removed = await ctx.db.taskAssignees.destroy({ where: { task_id: task.id, member_id: memberId } });
  if (removed === 0) throw new NotFoundError(`Member ${memberId} is not assigned to task ${task.id}`);
  await ctx.db.tasks.update({ updated_at: new Date() }, { where: { id: task.id } });
  emit(ctx, 'core.tasks.task.unassigned', { task_id: task.id, assignee_mrn: memberMrn(memberId) }, task.board_id);
  return presentOne(ctx, (await ctx.db.tasks.findById(task.id))!);
}
