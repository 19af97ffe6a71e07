import { DataTypes, defineModel } from '@wpk/sdk';

/** A whiteboard. Its objects live in its Yjs document (board_documents + board_updates). */
export interface Board {
  id: string;
  name: string;
  description: string;
  creator_id: string;
  /** How many objects the document held after its last change. */
  object_count: number;
  created_at: Date;
  updated_at: Date;
}

export const boards = defineModel<Board>('boards', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  name: { type: DataTypes.STRING(200), allowNull: false },
  description: { type: DataTypes.STRING(2000), allowNull: false, defaultValue: '' },
  creator_id: { type: DataTypes.UUID, allowNull: false },
  object_count: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
});

/** A board's Yjs snapshot: every update merged so far. */
export interface BoardDocument {
  board_id: string;
  snapshot: Buffer;
  created_at: Date;
  updated_at: Date;
}

export const boardDocuments = defineModel<BoardDocument>('board_documents', {
  board_id: { type: DataTypes.UUID, primaryKey: true },
  snapshot: { type: DataTypes.BLOB, allowNull: false },
});

/** A Yjs update applied to a board and not yet merged into its snapshot. */
export interface BoardUpdate {
  id: string;
  board_id: string;
  data: Buffer;
  member_id: string;
  created_at: Date;
  updated_at: Date;
}

export const boardUpdates = defineModel<BoardUpdate>('board_updates', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  board_id: { type: DataTypes.UUID, allowNull: false },
  data: { type: DataTypes.BLOB, allowNull: false },
  member_id: { type: DataTypes.UUID, allowNull: false },
});

/** A comment on one object of a board. */
export interface Comment {
  id: string;
  board_id: string;
  object_id: string;
  body: string;
  author_id: string;
  edited_at: Date | null;
  resolved_at: Date | null;
  resolved_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export const comments = defineModel<Comment>('comments', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  board_id: { type: DataTypes.UUID, allowNull: false },
  object_id: { type: DataTypes.STRING(100), allowNull: false },
  body: { type: DataTypes.TEXT, allowNull: false },
  author_id: { type: DataTypes.UUID, allowNull: false },
  edited_at: { type: DataTypes.DATE, allowNull: true },
  resolved_at: { type: DataTypes.DATE, allowNull: true },
  resolved_by: { type: DataTypes.UUID, allowNull: true },
});

export const SESSION_STATUSES = ['open', 'closed'] as const;

/** A voting session: each member has `votes_per_member` votes to put on the board's objects. */
export interface VoteSession {
  id: string;
  board_id: string;
  title: string;
  votes_per_member: number;
  allow_multiple: boolean;
  status: (typeof SESSION_STATUSES)[number];
  started_by: string;
  closed_at: Date | null;
  closed_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export const voteSessions = defineModel<VoteSession>('vote_sessions', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  board_id: { type: DataTypes.UUID, allowNull: false },
  title: { type: DataTypes.STRING(200), allowNull: false, defaultValue: '' },
  votes_per_member: { type: DataTypes.INTEGER, allowNull: false },
  allow_multiple: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
  status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'open' },
  started_by: { type: DataTypes.UUID, allowNull: false },
  closed_at: { type: DataTypes.DATE, allowNull: true },
  closed_by: { type: DataTypes.UUID, allowNull: true },
});

/** One vote of a member on an object (several rows when the session allows multiple votes). */
export interface Vote {
  id: string;
  session_id: string;
  object_id: string;
  member_id: string;
  created_at: Date;
  updated_at: Date;
}

export const votes = defineModel<Vote>('votes', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  session_id: { type: DataTypes.UUID, allowNull: false },
  object_id: { type: DataTypes.STRING(100), allowNull: false },
  member_id: { type: DataTypes.UUID, allowNull: false },
});

export const EXPORT_TARGETS = ['png', 'svg', 'pdf'] as const;
export type ExportTarget = (typeof EXPORT_TARGETS)[number];

/** A rendered export of a board, one per target, kept in the app's storage. */
export interface BoardExport {
  board_id: string;
  target: ExportTarget;
  storage_key: string;
  content_type: string;
  size_bytes: number;
  object_count: number;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

export const exports = defineModel<BoardExport>('exports', {
  board_id: { type: DataTypes.UUID, primaryKey: true },
  target: { type: DataTypes.STRING(10), primaryKey: true },
  storage_key: { type: DataTypes.STRING(300), allowNull: false },
  content_type: { type: DataTypes.STRING(100), allowNull: false },
  size_bytes: { type: DataTypes.INTEGER, allowNull: false },
  object_count: { type: DataTypes.INTEGER, allowNull: false },
  created_by: { type: DataTypes.UUID, allowNull: false },
});

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { boards, boardDocuments, boardUpdates, comments, voteSessions, votes, exports };

export type Models = typeof models;
