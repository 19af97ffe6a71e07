import { ConflictError, ForbiddenError, InvalidError, NotFoundError, Op, type WhereOptions } from '@wpk/sdk';
import type { Board, BoardGrid, Task } from '../models/index.js';
import { boardDocument, taskDocument } from '../search.js';
import type { TasksBaseContext, TasksContext } from '../kit.js';
import { emit } from './events.js';
import { boardResource } from './resources.js';
import { deleteTasksOf } from './task-removal.js';

/** What `POST /boards` takes. */
export interface BoardInput {
  title: string;
  description?: string;
  template_id?: string;
  is_template?: boolean;
  grid?: BoardGrid;
  lanes?: string[];
}

/** What `PUT /boards/{board_id}` takes; every field optional. */
export interface BoardUpdate {
  deleted?: boolean;
  title?: string;
  description?: string;
  grid?: BoardGrid;
  lanes?: string[];
}

/** Filters of `GET /boards`. */
export interface BoardListQuery {
  q?: string;
  is_template?: boolean;
  deleted?: boolean;
}

/** The board with this id in the workspace, archived or not; 404 otherwise. */
export function requireBoard(ctx: TasksBaseContext, boardId: string): Promise<Board> {
  return boardResource.require(ctx, boardId);
}

/** A board that accepts tasks: it exists and is not archived (409 otherwise). */
export async function requireLiveBoard(ctx: TasksBaseContext, boardId: string): Promise<Board> {
  const board = await requireBoard(ctx, boardId);
  if (board.archived_at) throw new ConflictError(`Board ${board.title} is archived; restore it first`);
  return board;
}

/** One page of boards: live boards by default, archived ones with `deleted: true`; oldest first. */
export async function listBoards(ctx: TasksContext, query: BoardListQuery) {
  const where: WhereOptions<Board> = { archived_at: query.deleted ? { [Op.ne]: null } : null };
  if (query.is_template !== undefined) Object.assign(where, { is_template: query.is_template });
  return boardResource.list(ctx, { q: query.q, where });
}

/**
 * Creates a board. From a template (a board of this workspace marked `is_template`) it takes the
 * template's lanes, grid, description and topics unless the request gives its own; otherwise the
 * lanes come from the settings' `default_lanes`. The creator becomes the board's owner.
 */
export async function createBoard(ctx: TasksContext, input: BoardInput): Promise<Board> {
  let template: Board | null = null;
  if (input.template_id) {
    template = await ctx.db.boards.findById(input.template_id);
    if (!template) throw new NotFoundError(`Template board ${input.template_id} not found`);
    if (!template.is_template) throw new InvalidError(`template_id ${input.template_id} names a board that is not a template`);
  }
  const board = await ctx.db.boards.create({
    title: input.title,
    description: input.description ?? template?.description ?? '',
    is_template: input.is_template ?? false,
    template_id: template?.id ?? null,
    grid: input.grid ?? template?.grid ?? {},
    lanes: input.lanes ?? template?.lanes ?? [...ctx.settings.default_lanes],
    creator_id: ctx.member.id,
    archived_at: null,
  });
  if (template) {
    const templateTopics = await ctx.db.topics.findAll({ where: { board_id: template.id }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
    for (const topic of templateTopics) await ctx.db.topics.create({ board_id: board.id, name: topic.name, color: topic.color, creator_id: ctx.member.id });
  }
  await ctx.db.boardMembers.create({ board_id: board.id, member_id: ctx.member.id, role: 'owner', added_by: ctx.member.id });
  ctx.search.upsert(boardDocument(board));
  emit(ctx, 'core.tasks.board.created', { board_id: board.id, name: board.title, creator_mrn: ctx.member.mrn });
  return board;
}

/**
 * Updates a board. `deleted: true` archives it (`board.archived`, out of search), `false`
 * restores it; either needs `tasks.boards.delete` besides the route's `tasks.boards.edit`.
 * `lanes` replaces the lane list; a lane that still holds tasks cannot be dropped.
 */
export async function updateBoard(ctx: TasksContext, boardId: string, update: BoardUpdate): Promise<Board> {
  const board = await requireBoard(ctx, boardId);
  if (update.deleted !== undefined && !ctx.permissions.has('tasks.boards.delete')) throw new ForbiddenError('Missing permission: tasks.boards.delete');
  const changes: Partial<Board> = {};
  if (update.title !== undefined && update.title !== board.title) changes.title = update.title;
  if (update.description !== undefined && update.description !== board.description) changes.description = update.description;
  if (update.grid !== undefined) changes.grid = { ...board.grid, ...update.grid };
  if (update.lanes !== undefined) {
    const dropped = board.lanes.filter((lane) => !update.lanes!.includes(lane));
    if (dropped.length) {
      const inUse = await ctx.db.tasks.count({ where: { board_id: board.id, lane: { [Op.in]: dropped } } });
      if (inUse > 0) throw new ConflictError(`Lane ${dropped.join(', ')} still holds ${inUse} task${inUse === 1 ? '' : 's'}; move them to another lane first`);
    }
    changes.lanes = update.lanes;
  }
  const archiving = update.deleted === true && board.archived_at === null;
  const restoring = update.deleted === false && board.archived_at !== null;
  if (archiving) changes.archived_at = new Date();
  if (restoring) changes.archived_at = null;
  if (Object.keys(changes).length === 0) return board;

  await ctx.db.boards.update(changes, { where: { id: board.id } });
  const updated = (await ctx.db.boards.findById(board.id))!;
  if (updated.archived_at) ctx.search.remove('board', updated.id);
  else ctx.search.upsert(boardDocument(updated));
  if (changes.title !== undefined) await reindexBoardTasks(ctx, updated);
  if (archiving) emit(ctx, 'core.tasks.board.archived', { board_id: board.id });
  return updated;
}

/** Refreshes the search documents of a board's tasks (their subtitle is the board's title). */
async function reindexBoardTasks(ctx: TasksBaseContext, board: Board): Promise<void> {
  const tasks: Task[] = await ctx.db.tasks.findAll({ where: { board_id: board.id } });
  for (const task of tasks) ctx.search.upsert(taskDocument(task, board.title));
}

/**
 * Deletes a board for good, with its tasks, topics, members and views. `confirmKey` must equal the
 * board's title exactly (what the client asks the user to type). Emits `task.bulk_deleted` for
 * its tasks (when it had any) and `board.deleted`.
 */
export async function deleteBoard(ctx: TasksContext, boardId: string, confirmKey: string): Promise<{ board_id: string; deleted_task_ids: string[] }> {
  const board = await requireBoard(ctx, boardId);
  if (confirmKey !== board.title) throw new InvalidError("confirm_key must equal the board's title");
  const tasks = await ctx.db.tasks.findAll({ where: { board_id: board.id }, attributes: ['id'], order: [['created_at', 'ASC'], ['id', 'ASC']] });
  const deleted = await deleteTasksOf(ctx, tasks.map((task) => task.id));
  await ctx.db.views.destroy({ where: { board_id: board.id } });
  await ctx.db.boardMembers.destroy({ where: { board_id: board.id } });
  // No ON DELETE SET NULL (docs/scale-out.md): a task elsewhere that still names one of these topics loses it here.
  const topicIds = (await ctx.db.topics.findAll({ where: { board_id: board.id }, attributes: ['id'] })).map((topic) => topic.id);
  if (topicIds.length) await ctx.db.tasks.update({ topic_id: null }, { where: { topic_id: { [Op.in]: topicIds } } });
  await ctx.db.topics.destroy({ where: { board_id: board.id } });
  await ctx.db.boards.update({ template_id: null }, { where: { template_id: board.id } });
  await ctx.db.boards.destroy({ where: { id: board.id } });
  ctx.search.remove('board', board.id);
  if (deleted.length) emit(ctx, 'core.tasks.task.bulk_deleted', { task_ids: deleted, deleted_by: ctx.member.id });
  emit(ctx, 'core.tasks.board.deleted', { board_id: board.id, deleted_by: ctx.member.id });
  return { board_id: board.id, deleted_task_ids: deleted };
}

/**
 * Renames a lane of the board and every task in it (`PATCH /boards/{board_id}/columns`). Each
 * task whose lane changed emits `task.updated` with `changed_fields: ["lane"]`.
 */
export async function renameLane(ctx: TasksContext, boardId: string, oldName: string, newName: string): Promise<{ board: Board; task_ids: string[] }> {
  const board = await requireBoard(ctx, boardId);
  if (!board.lanes.includes(oldName)) throw new NotFoundError(`Lane ${oldName} not found on board ${board.title}`);
  if (oldName === newName) return { board, task_ids: [] };
  if (board.lanes.includes(newName)) throw new ConflictError(`Lane ${newName} already exists on board ${board.title}`);
  const lanes = board.lanes.map((lane) => (lane === oldName ? newName : lane));
  await ctx.db.boards.update({ lanes }, { where: { id: board.id } });
  const tasks = await ctx.db.tasks.findAll({ where: { board_id: board.id, lane: oldName }, attributes: ['id'], order: [['created_at', 'ASC'], ['id', 'ASC']] });
  const taskIds = tasks.map((task) => task.id);
  if (taskIds.length) await ctx.db.tasks.update({ lane: newName }, { where: { id: { [Op.in]: taskIds } } });
  for (const taskId of taskIds) emit(ctx, 'core.tasks.task.updated', { task_id: taskId, changed_fields: ['lane'] }, board.id);
  return { board: (await ctx.db.boards.findById(board.id))!, task_ids: taskIds };
}
