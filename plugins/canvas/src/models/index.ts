import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/** A whiteboard. Its objects live in its Yjs document (board_documents + board_updates). */
export type Board = DeclaredRow<typeof boards>;

export const boards = defineModel('boards', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(200),
  description: column.string(2000).default(''),
  creator_id: column.uuid(),
  /** How many objects the document held after its last change. */
  object_count: column.integer().default(0),
});

/**
 * A board's document on the SDK's editing stack: its Yjs state (every update merged so far; null
 * until the first merge) and, beside it, always current, its stable JSON snapshot (`content`,
 * `{"objects": {...}}`; `text` unused).
 */
export type BoardDocument = DeclaredRow<typeof boardDocuments>;

export const boardDocuments = defineModel('board_documents', {
  board_id: column.uuid().primaryKey(),
  state: column.blob().nullable(),
  content: column.json<unknown>(),
  text: column.text(),
});

/** A Yjs update applied to a board and not yet merged into its snapshot. */
export type BoardUpdate = DeclaredRow<typeof boardUpdates>;

export const boardUpdates = defineModel('board_updates', {
  id: column.uuid().primaryKey().defaultRandom(),
  board_id: column.uuid(),
  data: column.blob(),
  member_id: column.uuid(),
});

/** A comment on one object of a board. */
export type Comment = DeclaredRow<typeof comments>;

export const comments = defineModel('comments', {
  id: column.uuid().primaryKey().defaultRandom(),
  board_id: column.uuid(),
  object_id: column.string(100),
  body: column.text(),
  author_id: column.uuid(),
  edited_at: column.date().nullable(),
  resolved_at: column.date().nullable(),
  resolved_by: column.uuid().nullable(),
});

export const SESSION_STATUSES = ['open', 'closed'] as const;

/** A voting session: each member has `votes_per_member` votes to put on the board's objects. */
export type VoteSession = DeclaredRow<typeof voteSessions>;

export const voteSessions = defineModel('vote_sessions', {
  id: column.uuid().primaryKey().defaultRandom(),
  board_id: column.uuid(),
  title: column.string(200).default(''),
  votes_per_member: column.integer(),
  allow_multiple: column.boolean().default(false),
  status: column.enum(SESSION_STATUSES, 10).default('open'),
  started_by: column.uuid(),
  closed_at: column.date().nullable(),
  closed_by: column.uuid().nullable(),
});

/** One vote of a member on an object (several rows when the session allows multiple votes). */
export type Vote = DeclaredRow<typeof votes>;

export const votes = defineModel('votes', {
  id: column.uuid().primaryKey().defaultRandom(),
  session_id: column.uuid(),
  object_id: column.string(100),
  member_id: column.uuid(),
});

export const EXPORT_TARGETS = ['png', 'svg', 'pdf'] as const;
export type ExportTarget = (typeof EXPORT_TARGETS)[number];

/** A rendered export of a board, one per target, kept in the app's storage. */
export type BoardExport = DeclaredRow<typeof exports>;

export const exports = defineModel('exports', {
  board_id: column.uuid().primaryKey(),
  target: column.enum(EXPORT_TARGETS, 10).primaryKey(),
  storage_key: column.string(300),
  content_type: column.string(100),
  size_bytes: column.integer(),
  object_count: column.integer(),
  created_by: column.uuid(),
});

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { boards, boardDocuments, boardUpdates, comments, voteSessions, votes, exports };

export type Models = typeof models;
