import { ConflictError, conflictOnDuplicate, likePattern, NotFoundError, Op } from '@wpk/sdk';
import type { Topic } from '../models/index.js';
import { requireBoard } from './boards.js';
import type { TasksContext } from '../kit.js';
import { emit } from './events.js';
import { presentTopic } from './present.js';

/** The topic of this board; 404 otherwise. */
async function requireTopic(ctx: TasksContext, boardId: string, topicId: string): Promise<Topic> {
  const topic = await ctx.db.topics.findOne({ where: { id: topicId, board_id: boardId } });
  if (!topic) throw new NotFoundError(`Topic ${topicId} not found on board ${boardId}`);
  return topic;
}

/** Refuses a name another topic of the board already has (names compare case-insensitively). */
async function assertNameFree(ctx: TasksContext, boardId: string, name: string, exceptId: string | null): Promise<void> {
  const clash = await ctx.db.topics.findOne({ where: { board_id: boardId, name: { [Op.iLike]: likePattern(name, 'exact') }, ...(exceptId ? { id: { [Op.ne]: exceptId } } : {}) } });
  if (clash) throw new ConflictError(`Board ${boardId} already has a topic named ${clash.name}`);
}

/** One page of the board's topics, by name; `q` keeps those whose name contains it. */
export async function listTopics(ctx: TasksContext, boardId: string, q?: string) {
  const board = await requireBoard(ctx, boardId);
  const { rows, count } = await ctx.db.topics.findAndCountAll({
    where: { board_id: board.id, ...(q ? { name: { [Op.iLike]: likePattern(q) } } : {}) },
    order: [['name', 'ASC'], ['id', 'ASC']],
    offset: ctx.page.offset,
    limit: ctx.page.limit,
  });
  return { rows: rows.map(presentTopic), count };
}

/** Creates a topic on a board. Emits `topic.created`. */
export async function createTopic(ctx: TasksContext, boardId: string, input: { name: string; color?: string | null }) {
  const board = await requireBoard(ctx, boardId);
  await assertNameFree(ctx, board.id, input.name, null);
  const topic = await conflictOnDuplicate(ctx.db.topics.create({ board_id: board.id, name: input.name, color: input.color ?? null, creator_id: ctx.member.id }), `Board ${board.id} already has a topic named ${input.name}`);
  emit(ctx, 'core.tasks.topic.created', { topic_id: topic.id, board_id: board.id, name: topic.name, created_by: ctx.member.id });
  return presentTopic(topic);
}

/** Renames or recolours a topic. Emits `topic.updated` naming the changed `fields`, when any changed. */
export async function updateTopic(ctx: TasksContext, boardId: string, topicId: string, input: { name?: string; color?: string | null }) {
  const topic = await requireTopic(ctx, boardId, topicId);
  const fields = (['name', 'color'] as const).filter((field) => input[field] !== undefined && input[field] !== topic[field]);
  if (fields.length === 0) return presentTopic(topic);
  if (fields.includes('name')) await assertNameFree(ctx, topic.board_id, input.name!, topic.id);
  const changes: Partial<Topic> = {};
  for (const field of fields) Object.assign(changes, { [field]: input[field] });
  await conflictOnDuplicate(ctx.db.topics.update(changes, { where: { id: topic.id } }), `Board ${topic.board_id} already has a topic named ${input.name}`);
  const updated = (await ctx.db.topics.findById(topic.id))!;
  emit(ctx, 'core.tasks.topic.updated', { topic_id: topic.id, board_id: topic.board_id, name: updated.name, previous_name: topic.name, fields: [...fields], updated_by: ctx.member.id });
  return presentTopic(updated);
}

/**
 * Deletes a topic; its tasks remain, with no topic (each emits `task.updated` with
 * `changed_fields: ["topic_id"]`). Emits `topic.deleted`.
 */
export async function deleteTopic(ctx: TasksContext, boardId: string, topicId: string) {
  const topic = await requireTopic(ctx, boardId, topicId);
  const tasks = await ctx.db.tasks.findAll({ where: { topic_id: topic.id }, attributes: ['id'], order: [['created_at', 'ASC'], ['id', 'ASC']] });
  const taskIds = tasks.map((task) => task.id);
  if (taskIds.length) await ctx.db.tasks.update({ topic_id: null }, { where: { id: { [Op.in]: taskIds } } });
  await ctx.db.topics.destroy({ where: { id: topic.id } });
  for (const taskId of taskIds) emit(ctx, 'core.tasks.task.updated', { task_id: taskId, changed_fields: ['topic_id'] }, topic.board_id);
  emit(ctx, 'core.tasks.topic.deleted', { topic_id: topic.id, board_id: topic.board_id, name: topic.name, deleted_by: ctx.member.id });
  return { id: topic.id, deleted: true, task_ids: taskIds };
}
