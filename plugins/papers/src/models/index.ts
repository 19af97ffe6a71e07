import { column, commentColumns, defineModel, type DeclaredRow } from '@wpk/sdk';

export const PAPER_STATUSES = ['active', 'trashed'] as const;
export const SHARE_LEVELS = ['view', 'comment', 'edit'] as const;
export const PRINCIPAL_TYPES = ['member', 'role', 'department'] as const;
export const VERSION_KINDS = ['auto', 'named', 'restore'] as const;
export const SUGGESTION_STATUSES = ['open', 'accepted', 'rejected'] as const;
export type ShareLevel = (typeof SHARE_LEVELS)[number];

/**
 * The Papers app's models. A paper's text lives in its collaborative document (the SDK's
 * `defineCollabDocuments`): `paper_documents` holds the Yjs snapshot and the stable ProseMirror
 * JSON beside it, `paper_updates` the updates not yet merged.
 */
export const models = {
  folders: defineModel('folders', {
    id: column.uuid().primaryKey().defaultRandom(),
    name: column.string(200),
    parent_id: column.uuid().nullable(),
    owner_id: column.uuid(),
  }),
  papers: defineModel('papers', {
    id: column.uuid().primaryKey().defaultRandom(),
    title: column.string(300),
    folder_id: column.uuid().nullable(),
    owner_id: column.uuid(),
    status: column.enum(PAPER_STATUSES, 10).default('active'),
    /** A template: listed by GET /papers/templates (not GET /papers); POST /papers with template_id copies it, its merge fields filled. */
    is_template: column.boolean().default(false),
    trashed_at: column.date().nullable(),
    /** When `core.papers.paper.updated` was last emitted for an edit of the text (the debounce). */
    edited_event_at: column.date().nullable(),
    /** When the text last changed, and by whom. */
    edited_at: column.date().nullable(),
    edited_by: column.uuid().nullable(),
  }),
  paperDocuments: defineModel('paper_documents', {
    paper_id: column.uuid().primaryKey(),
    state: column.blob().nullable(),
    content: column.json<unknown>(),
    text: column.text(),
  }),
  paperUpdates: defineModel('paper_updates', {
    id: column.uuid().primaryKey().defaultRandom(),
    paper_id: column.uuid(),
    data: column.blob(),
    member_id: column.uuid().nullable(),
  }),
  shares: defineModel('shares', {
    paper_id: column.uuid().primaryKey(),
    principal_type: column.enum(PRINCIPAL_TYPES, 10).primaryKey(),
    principal_id: column.string(100).primaryKey(),
    level: column.enum(SHARE_LEVELS, 10),
  }),
  links: defineModel('links', {
    id: column.uuid().primaryKey().defaultRandom(),
    paper_id: column.uuid(),
    /** sha256 of the token (the token itself is answered once, never stored). */
    token_hash: column.string(64),
    level: column.enum(SHARE_LEVELS, 10),
    expires_at: column.date().nullable(),
    created_by: column.uuid(),
    /** View only: opens the paper's public page (GET /papers/shared/{token}) without signing in. */
    anonymous: column.boolean().default(false),
  }),
  comments: defineModel('comments', {
    id: column.uuid().primaryKey().defaultRandom(),
    paper_id: column.uuid(),
    /** A thread's comment: its anchor, thread and resolution, as the SDK's comments kit has them. */
    ...commentColumns(),
  }),
  versions: defineModel('versions', {
    id: column.uuid().primaryKey().defaultRandom(),
    paper_id: column.uuid(),
    kind: column.enum(VERSION_KINDS, 10),
    name: column.string(200).nullable(),
    content: column.json<unknown>(),
    text: column.text(),
    created_by: column.uuid().nullable(),
  }),
  /** An image uploaded for a paper: the bytes in storage under `papers/{paper_id}/images/{id}`. */
  paperImages: defineModel('paper_images', {
    id: column.uuid().primaryKey().defaultRandom(),
    paper_id: column.uuid(),
    content_type: column.string(20),
    size_bytes: column.integer(),
    created_by: column.uuid(),
  }),
  suggestions: defineModel('suggestions', {
    id: column.uuid().primaryKey().defaultRandom(),
    paper_id: column.uuid(),
    /** The suggested change: a Yjs update made on the suggester's fork of the document. */
    data: column.blob(),
    note: column.string(1000).default(''),
    /** The text the paper would have with it, when it was made (for review and the diff). */
    text: column.text(),
    status: column.enum(SUGGESTION_STATUSES, 10).default('open'),
    author_id: column.uuid(),
    decided_by: column.uuid().nullable(),
    decided_at: column.date().nullable(),
  }),
  /** The app's copy of a Workers worker (core.workers.worker.*): which member works in which department. */
  workerCopies: defineModel('worker_copies', {
    id: column.uuid().primaryKey(),
    member_id: column.uuid().nullable(),
    department_id: column.uuid().nullable(),
    status: column.string(20),
    revision: column.integer(),
  }),
  /** The app's copy of a Workers department (core.workers.department.*): the tree a department share covers. */
  departmentCopies: defineModel('department_copies', {
    id: column.uuid().primaryKey(),
    parent_id: column.uuid().nullable(),
    name: column.string(200),
    deleted: column.boolean().default(false),
    revision: column.integer(),
  }),
};

export type Suggestion = DeclaredRow<typeof models.suggestions>;
export type Folder = DeclaredRow<typeof models.folders>;
export type Paper = DeclaredRow<typeof models.papers>;
export type PaperImage = DeclaredRow<typeof models.paperImages>;
export type Share = DeclaredRow<typeof models.shares>;
export type Link = DeclaredRow<typeof models.links>;
export type Comment = DeclaredRow<typeof models.comments>;
export type Version = DeclaredRow<typeof models.versions>;

export type Models = typeof models;
