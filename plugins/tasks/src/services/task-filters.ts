import { memberMrn, NotFoundError } from '@wpk/sdk';
import { PRIORITIES } from '../models/index.js';
import { requireBoard } from './boards.js';
import type { TasksContext } from '../kit.js';

/**
 * The fields a board's tasks can be filtered by. Each key is also a query parameter of
 * `GET /tasks` (with `board_id`), so a client turns a chosen option into a list request.
 */
export const TASK_FILTERS = [
  { key: 'lane', label: 'Lane', type: 'enum' },
  { key: 'assignee_id', label: 'Assignee', type: 'member' },
  { key: 'topic_id', label: 'Topic', type: 'enum' },
  { key: 'schedule_id', label: 'Schedule', type: 'enum' },
  { key: 'priority', label: 'Priority', type: 'enum' },
  { key: 'status', label: 'Status', type: 'enum' },
  { key: 'creator_id', label: 'Creator', type: 'member' },
] as const;

/** One value of a filter on a board: what to send, what to show, how many tasks have it. */
export interface FilterOption {
  value: string;
  label: string;
  count: number;
}

/** The board's filters (404 for an unknown board). */
export async function listTaskFilters(ctx: TasksContext, boardId: string) {
  await requireBoard(ctx, boardId);
  return TASK_FILTERS.map((filter) => ({ ...filter }));
}

const titleCase = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

/**
 * The values one filter takes on the board's tasks, with counts. Lanes and priorities list every
 * value the board offers (counts may be 0); the others list the values its tasks carry. `q` keeps
 * options whose label contains it (case-insensitive). Sorted by label.
 */
export async function filterOptions(ctx: TasksContext, boardId: string, key: string, q?: string): Promise<FilterOption[]> {
  const board = await requireBoard(ctx, boardId);
  if (!TASK_FILTERS.some((filter) => filter.key === key)) throw new NotFoundError(`Unknown task filter ${key} (filters: ${TASK_FILTERS.map((filter) => filter.key).join(', ')})`);
  const tasks = await ctx.db.tasks.findAll({ where: { board_id: board.id }, attributes: ['id', 'lane', 'topic_id', 'schedule_id', 'priority', 'completed_at', 'creator_id'] });
  const counts = new Map<string, number>();
  const bump = (value: string | null) => {
    if (value !== null) counts.set(value, (counts.get(value) ?? 0) + 1);
  };
  const labels = new Map<string, string>();
  switch (key) {
    case 'lane':
      for (const lane of board.lanes) labels.set(lane, lane);
      for (const task of tasks) bump(task.lane);
      break;
    case 'priority':
      for (const priority of PRIORITIES) labels.set(priority, titleCase(priority));
      for (const task of tasks) bump(task.priority);
      break;
    case 'status':
      labels.set('open', 'Open').set('completed', 'Completed');
      for (const task of tasks) bump(task.completed_at ? 'completed' : 'open');
      break;
    case 'creator_id':
      for (const task of tasks) bump(task.creator_id);
      for (const id of counts.keys()) labels.set(id, memberMrn(id));
      break;
    case 'assignee_id': {
      const rows = tasks.length ? await ctx.db.taskAssignees.findAll({ where: { task_id: tasks.map((task) => task.id) } }) : [];
      for (const row of rows) bump(row.member_id);
      for (const id of counts.keys()) labels.set(id, memberMrn(id));
      break;
    }
    case 'topic_id': {
      const topics = await ctx.db.topics.findAll({ where: { board_id: board.id } });
      for (const topic of topics) labels.set(topic.id, topic.name);
      for (const task of tasks) bump(task.topic_id);
      break;
    }
    case 'schedule_id': {
      for (const task of tasks) bump(task.schedule_id);
      const ids = [...counts.keys()];
      const schedules = ids.length ? await ctx.db.schedules.findAll({ where: { id: ids } }) : [];
      for (const schedule of schedules) labels.set(schedule.id, schedule.name);
      break;
    }
  }
  const needle = q?.toLowerCase();
  return [...labels.entries()]
    .map(([value, label]) => ({ value, label, count: counts.get(value) ?? 0 }))
    .filter((option) => !needle || option.label.toLowerCase().includes(needle))
    .sort((a, b) => a.label.localeCompare(b.label) || a.value.localeCompare(b.value));
}
