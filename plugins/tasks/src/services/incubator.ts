import { ConflictError, NotFoundError, Op } from '@wpk/sdk';
import type { Task } from '../models/index.js';
import { requireBoard, requireLiveBoard } from './boards.js';
import type { TasksContext } from '../kit.js';
import { emit } from './events.js';
import { deleteTasksOf } from './task-removal.js';
import { presentTasks, reindexTask, requireTask } from './tasks.js';

/**
 * The incubator is the workspace's pool of unplanned tasks: tasks with no board. Pulling puts
 * tasks on a board (in its first lane); returning takes one back (its lane and topic, which
 * belong to the board, are cleared; its schedule stays).
 */

/** What `POST /boards/{board_id}/tasks` takes: exactly one of the two. */
export type PullRequest = { task_ids: string[]; schedule_id?: undefined } | { schedule_id: string; task_ids?: undefined };

/**
 * Pulls incubator tasks onto a live board: the tasks named (each must exist and be in the
 * incubator, else nothing moves), or every incubator task of a schedule. Emits `task.pulled`
 * for each task, in the order pulled.
 */
export async function pullTasks(ctx: TasksContext, boardId: string, request: PullRequest) {
  const board = await requireLiveBoard(ctx, boardId);
  let tasks: Task[];
  if (request.task_ids) {
    const ids = [...new Set(request.task_ids)];
    const found = new Map((await ctx.db.tasks.findAll({ where: { id: { [Op.in]: ids } } })).map((task) => [task.id, task]));
    tasks = ids.map((id) => {
      const task = found.get(id);
      if (!task) throw new NotFoundError(`Task ${id} not found`);
      if (task.board_id) throw new ConflictError(`Task ${id} is not in the incubator (it is on board ${task.board_id})`);
      return task;
    });
  } else {
    const schedule = await ctx.db.schedules.findById(request.schedule_id);
    if (!schedule) throw new NotFoundError(`Schedule ${request.schedule_id} not found`);
    tasks = await ctx.db.tasks.findAll({ where: { schedule_id: schedule.id, board_id: null }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  }
  const ids = tasks.map((task) => task.id);
  if (ids.length) await ctx.db.tasks.update({ board_id: board.id, lane: board.lanes[0] ?? null, topic_id: null }, { where: { id: { [Op.in]: ids } } });
  const pulled: Task[] = [];
  for (const id of ids) {
    pulled.push(await reindexTask(ctx, id));
    emit(ctx, 'core.tasks.task.pulled', { task_id: id, pulled_by: ctx.member.id }, board.id);
  }
  return presentTasks(ctx, pulled);
}

/** Returns one task of the board to the incubator (409 when it is not on this board). Emits `task.returned`. */
export async function returnTask(ctx: TasksContext, boardId: string, taskId: string) {
  const board = await requireBoard(ctx, boardId);
  const task = await requireTask(ctx, taskId);
  if (task.board_id !== board.id) throw new ConflictError(`Task ${task.id} is not on board ${board.title}`);
  await ctx.db.tasks.update({ board_id: null, lane: null, topic_id: null }, { where: { id: task.id } });
  const returned = await reindexTask(ctx, task.id);
  emit(ctx, 'core.tasks.task.returned', { task_id: task.id, returned_by: ctx.member.id }, board.id);
  return (await presentTasks(ctx, [returned]))[0];
}

/**
 * Clears a board (`DELETE /boards/{board_id}/tasks?scheduled=false|true`): deletes the board's
 * unplanned tasks (no schedule) or, with `scheduled=true`, its planned ones. Emits
 * `task.bulk_deleted` when any task went, then `board.cleared`.
 */
export async function clearBoard(ctx: TasksContext, boardId: string, scheduled: boolean) {
  const board = await requireBoard(ctx, boardId);
  const tasks = await ctx.db.tasks.findAll({ where: { board_id: board.id, schedule_id: scheduled ? { [Op.ne]: null } : null }, attributes: ['id'], order: [['created_at', 'ASC'], ['id', 'ASC']] });
  const deleted = await deleteTasksOf(ctx, tasks.map((task) => task.id));
  if (deleted.length) emit(ctx, 'core.tasks.task.bulk_deleted', { task_ids: deleted, deleted_by: ctx.member.id });
  emit(ctx, 'core.tasks.board.cleared', { board_id: board.id });
  return { board_id: board.id, scheduled, deleted_task_ids: deleted };
}
