import { kit, type components } from '@wpk/ui';

/** A task as the API answers it (the generated client's type of the Tasks app's record). */
export type Task = components['schemas']['TasksTask'];
/** A board. */
export type Board = components['schemas']['TasksBoard'];
/** A comment. */
export type Comment = components['schemas']['TasksComment'];
/** A deliverable: a title and a link (a file attached from Files is one, linking to the file). */
export type Deliverable = components['schemas']['TasksDeliverable'];

/** The filters of a board's view, as `GET /tasks` takes them. */
export interface TaskFilters {
  q?: string;
  priority?: Task['priority'];
  assignee_id?: string;
  status?: 'open' | 'completed';
}

/** Every task of a board that the filters keep (all pages). */
export async function boardTasks(boardId: string, filters: TaskFilters): Promise<Task[]> {
  const tasks: Task[] = [];
  for await (const task of kit().client.paginate('getTasks', { query: { board_id: boardId, per_page: 100, ...filters } })) tasks.push(task as Task);
  return tasks;
}

export const PRIORITIES: Array<Task['priority']> = ['none', 'low', 'medium', 'high', 'urgent'];
