import { memberMrn } from '@wpk/sdk';
import type { Board, BoardMember, Deliverable, Schedule, Task, TaskComment, Topic, View } from '../models/index.js';

/**
 * How each record looks in API answers. Member references come as both the plain id and the
 * MRN (`mrn:account:member:{id}`); dates as `YYYY-MM-DD`, instants as ISO strings.
 */

export function presentBoard(board: Board) {
  return {
    id: board.id,
    title: board.title,
    description: board.description,
    is_template: board.is_template,
    template_id: board.template_id,
    grid: board.grid,
    lanes: board.lanes,
    deleted: board.archived_at !== null,
    archived_at: board.archived_at,
    creator_id: board.creator_id,
    creator_mrn: memberMrn(board.creator_id),
    created_at: board.created_at,
    updated_at: board.updated_at,
  };
}

export function presentTask(task: Task, assigneeIds: string[]) {
  return {
    id: task.id,
    key: task.key,
    number: task.number,
    title: task.title,
    description: task.description,
    board_id: task.board_id,
    in_incubator: task.board_id === null,
    lane: task.lane,
    topic_id: task.topic_id,
    schedule_id: task.schedule_id,
    priority: task.priority,
    start_date: task.start_date,
    due_date: task.due_date,
    blocked_by: task.blocked_by,
    source_mrn: task.source_mrn,
    assignee_ids: assigneeIds,
    assignee_mrns: assigneeIds.map(memberMrn),
    completed: task.completed_at !== null,
    completed_at: task.completed_at,
    completed_by: task.completed_by,
    creator_id: task.creator_id,
    creator_mrn: memberMrn(task.creator_id),
    created_at: task.created_at,
    updated_at: task.updated_at,
  };
}

export function presentTopic(topic: Topic) {
  return { id: topic.id, board_id: topic.board_id, name: topic.name, color: topic.color, creator_id: topic.creator_id, created_at: topic.created_at, updated_at: topic.updated_at };
}

export function presentSchedule(schedule: Schedule) {
  return {
    id: schedule.id,
    name: schedule.name,
    start_date: schedule.start_date,
    end_date: schedule.end_date,
    status: schedule.completed_at ? 'completed' : 'open',
    completed_at: schedule.completed_at,
    completed_by: schedule.completed_by,
    creator_id: schedule.creator_id,
    created_at: schedule.created_at,
    updated_at: schedule.updated_at,
  };
}

export function presentBoardMember(member: BoardMember) {
  return { board_id: member.board_id, member_id: member.member_id, member_mrn: memberMrn(member.member_id), role: member.role, added_by: member.added_by, created_at: member.created_at, updated_at: member.updated_at };
}

export function presentView(view: View) {
  return { id: view.id, board_id: view.board_id, owner_id: view.owner_id, name: view.name, tab: view.tab, schedule_id: view.schedule_id, created_at: view.created_at, updated_at: view.updated_at };
}

export function presentComment(comment: TaskComment) {
  return { id: comment.id, task_id: comment.task_id, author_id: comment.author_id, author_mrn: memberMrn(comment.author_id), body: comment.body, created_at: comment.created_at, updated_at: comment.updated_at };
}

export function presentDeliverable(deliverable: Deliverable) {
  return {
    id: deliverable.id,
    task_id: deliverable.task_id,
    title: deliverable.title,
    url: deliverable.url,
    delivered: deliverable.delivered_at !== null,
    delivered_at: deliverable.delivered_at,
    delivered_by: deliverable.delivered_by,
    creator_id: deliverable.creator_id,
    created_at: deliverable.created_at,
    updated_at: deliverable.updated_at,
  };
}
