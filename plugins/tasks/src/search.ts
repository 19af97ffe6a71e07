import type { SearchDocument, SearchHooks } from '@wpk/sdk';
import type { Board, Models, Task } from './models/index.js';
import { boardResource, taskResource } from './services/resources.js';

/**
 * What the platform search knows of the app: boards by title (description as detail) and tasks
 * by title then description. Services upsert and remove documents in the same transaction as the
 * change; the hooks below rebuild a workspace's documents from scratch.
 */

/** The search document of a board. */
export function boardDocument(board: Board): SearchDocument {
  return {
    type: 'board',
    id: board.id,
    title: board.title,
    subtitle: board.is_template ? 'Board template' : 'Board',
    url: `/boards/${board.id}`,
    names: [board.title],
    details: [board.description],
    filters: { is_template: board.is_template },
  };
}

/** The search document of a task; `boardTitle` is its board's title (null in the incubator). */
export function taskDocument(task: Task, boardTitle: string | null): SearchDocument {
  return {
    type: 'task',
    id: task.id,
    // The short key is the result's badge: a partial key (`ACME-4`, `42`) finds the task first.
    badge: task.key,
    title: task.title,
    subtitle: boardTitle ?? 'Incubator',
    url: `/tasks/${task.id}`,
    names: [task.title],
    details: [task.description],
    filters: { board_id: task.board_id, completed: task.completed_at !== null },
  };
}

/** Full re-index of a workspace: every live (not archived) board, every task. */
export const search: Record<string, SearchHooks<Models>> = {
  board: {
    async reindex(ctx) {
      const documents: SearchDocument[] = [];
      for await (const board of boardResource.walk(ctx, { where: { archived_at: null } })) documents.push(boardDocument(board));
      return documents;
    },
  },
  task: {
    async reindex(ctx) {
      const boardTitles = new Map((await ctx.db.boards.findAll({ attributes: ['id', 'title'] })).map((board) => [board.id, board.title]));
      const documents: SearchDocument[] = [];
      for await (const task of taskResource.walk(ctx)) documents.push(taskDocument(task, task.board_id ? (boardTitles.get(task.board_id) ?? null) : null));
      return documents;
    },
  },
};
