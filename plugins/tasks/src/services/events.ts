import type { TasksBaseContext } from './context.js';

/**
 * The payload of every event the app emits, keyed by action: the `core.tasks.*` part of the
 * specification's catalog, field for field. `*_mrn` fields carry member MRNs; `*_by` fields and
 * board fields carry plain ids. A test keeps this map and the manifest's JSON Schemas in step.
 */
export interface TasksEventPayloads {
  'core.tasks.task.created': { task_id: string; board_id: string | null; title: string; creator_mrn: string };
  'core.tasks.task.updated': { task_id: string; changed_fields: string[] };
  'core.tasks.task.assigned': { task_id: string; assignee_mrn: string; assigned_by: string };
  'core.tasks.task.unassigned': { task_id: string; assignee_mrn: string };
  'core.tasks.task.completed': { task_id: string; completed_by: string };
  'core.tasks.task.deleted': { task_id: string; deleted_by: string };
  'core.tasks.task.bulk_deleted': { task_ids: string[]; deleted_by: string };
  'core.tasks.task.moved': { task_id: string; from_board: string; to_board: string };
  'core.tasks.task.commented': { task_id: string; comment_id: string; commenter_mrn: string };
  'core.tasks.task.pulled': { task_id: string; pulled_by: string };
  'core.tasks.task.returned': { task_id: string; returned_by: string };
  'core.tasks.board.created': { board_id: string; name: string; creator_mrn: string };
  'core.tasks.board.deleted': { board_id: string; deleted_by: string };
  'core.tasks.board.archived': { board_id: string };
  'core.tasks.board.cleared': { board_id: string };
  'core.tasks.topic.created': { topic_id: string; board_id: string; name: string; created_by: string };
  'core.tasks.topic.updated': { topic_id: string; board_id: string; name: string; previous_name: string; fields: string[]; updated_by: string };
  'core.tasks.topic.deleted': { topic_id: string; board_id: string; name: string; deleted_by: string };
  'core.tasks.schedule.created': { schedule_id: string };
  'core.tasks.schedule.updated': { schedule_id: string };
  'core.tasks.schedule.completed': { schedule_id: string };
  'core.tasks.deliverable.delivered': { deliverable_id: string };
}

/** An action the app emits. */
export type TasksEventAction = keyof TasksEventPayloads;

/** Stages one event; it leaves only if the request answers 2xx (the runtime writes it with the request's transaction). */
export function emit<A extends TasksEventAction>(ctx: TasksBaseContext, action: A, payload: TasksEventPayloads[A]): void {
  ctx.events.stage(action, payload);
}
