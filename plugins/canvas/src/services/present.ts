import { memberMrn, type SearchDocument } from '@wpk/sdk';
import type { Board, BoardExport, Comment, VoteSession } from '../models/index.js';

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/** A board as the API answers it. */
export function presentBoard(board: Board) {
  return {
    id: board.id,
    name: board.name,
    description: board.description,
    object_count: board.object_count,
    creator_id: board.creator_id,
    creator_mrn: memberMrn(board.creator_id),
    created_at: iso(board.created_at),
    updated_at: iso(board.updated_at),
  };
}

/** The search document of a board: found by name, the description as detail. */
export function boardDocument(board: Board): SearchDocument {
  return { type: 'board', id: board.id, title: board.name, subtitle: 'Board', url: `/canvas/boards/${board.id}`, names: [board.name], details: [board.description] };
}

/** A comment as the API answers it. */
export function presentComment(comment: Comment) {
  return {
    id: comment.id,
    board_id: comment.board_id,
    object_id: comment.object_id,
    body: comment.body,
    author_id: comment.author_id,
    author_mrn: memberMrn(comment.author_id),
    edited_at: iso(comment.edited_at),
    resolved: comment.resolved_at !== null,
    resolved_at: iso(comment.resolved_at),
    resolved_by: comment.resolved_by,
    created_at: iso(comment.created_at),
    updated_at: iso(comment.updated_at),
  };
}

/** A voting session's own fields. */
export function presentSession(session: VoteSession) {
  return {
    id: session.id,
    board_id: session.board_id,
    title: session.title,
    votes_per_member: session.votes_per_member,
    allow_multiple: session.allow_multiple,
    status: session.status,
    started_by: session.started_by,
    closed_at: iso(session.closed_at),
    closed_by: session.closed_by,
    created_at: iso(session.created_at),
    updated_at: iso(session.updated_at),
  };
}

/** An export target as the API answers it. */
export function presentExport(row: BoardExport) {
  return {
    board_id: row.board_id,
    target: row.target,
    content_type: row.content_type,
    size_bytes: row.size_bytes,
    object_count: row.object_count,
    created_by: row.created_by,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}
