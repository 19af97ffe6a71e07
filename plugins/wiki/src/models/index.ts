import { column, commentColumns, defineModel, type DeclaredRow } from '@wpk/sdk';

/** A member's role on a space: view reads, comment also comments, edit writes pages, admin manages the space. */
export const ROLES = ['view', 'comment', 'edit', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** A page's verification: unverified until its owner verifies it; due when its review interval passes or a watched record changes; expired after the grace period. */
export const VERIFICATION_STATES = ['unverified', 'verified', 'due', 'expired'] as const;
export type VerificationState = (typeof VERIFICATION_STATES)[number];

export const spaces = defineModel('spaces', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(200),
  description: column.string(2000).default(''),
  /** The role of every member of the app with no role of their own; `none` keeps the space private. */
  default_role: column.string(10).default('view'),
  created_by: column.uuid(),
  /** Published on the site: the whole space (published_page_id null) or one page's subtree. */
  published: column.boolean().default(false),
  published_page_id: column.uuid().nullable(),
  published_at: column.date().nullable(),
  revision: column.integer().default(1),
});
export type Space = DeclaredRow<typeof spaces>;

export const spaceMembers = defineModel('space_members', {
  id: column.uuid().primaryKey().defaultRandom(),
  space_id: column.uuid(),
  member_id: column.uuid(),
  role: column.enum(ROLES, 10),
});
export type SpaceMember = DeclaredRow<typeof spaceMembers>;

/** A ProseMirror/tiptap JSON node (the stable JSON snapshot form). */
export interface DocNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: DocNode[];
  text?: string;
  marks?: Array<{ type: string; attrs?: Record<string, unknown> }>;
}

export const pages = defineModel('pages', {
  id: column.uuid().primaryKey().defaultRandom(),
  space_id: column.uuid(),
  parent_id: column.uuid().nullable(),
  /** Fractional order among siblings: a key that sorts between any two (base-62 digits). */
  position: column.string(100),
  title: column.string(300),
  content: column.json<DocNode>(),
  /** The content's version: a write names the version it read (stale: 409). */
  version: column.integer().default(1),
  /** Only these members (and the space's admins) see the page and its subtree; null: inherits. */
  restricted_to: column.json<string[] | null>().nullable(),
  owner_id: column.uuid().nullable(),
  review_days: column.integer().nullable(),
  verification: column.enum(VERIFICATION_STATES, 12).default('unverified'),
  verified_at: column.date().nullable(),
  due_at: column.date().nullable(),
  /** MRNs of records the page describes: a change of one makes a verified page due. */
  watches: column.json<string[]>(),
  created_by: column.uuid(),
  updated_by: column.uuid(),
  /** When a live edit last emitted page.updated (live edits emit it at most once in updated_event_seconds). */
  edited_event_at: column.date().nullable(),
  /** A template: new pages may start from it (template_id), in any space whose members see it. */
  template: column.boolean().default(false),
});
export type Page = DeclaredRow<typeof pages>;

/** A link from a page's content to a page, by id (a rename never breaks it). */
export const pageLinks = defineModel('page_links', {
  id: column.uuid().primaryKey().defaultRandom(),
  from_page_id: column.uuid(),
  to_page_id: column.uuid(),
  space_id: column.uuid(),
});
export type PageLink = DeclaredRow<typeof pageLinks>;

/** Every saved version of a page's title and content. */
export const pageVersions = defineModel('page_versions', {
  id: column.uuid().primaryKey().defaultRandom(),
  page_id: column.uuid(),
  version: column.integer(),
  title: column.string(300),
  content: column.json<DocNode>(),
  created_by: column.uuid(),
});
export type PageVersion = DeclaredRow<typeof pageVersions>;

/**
 * A page's collaborative document (the SDK's editing stack): its Yjs state, and the stable JSON
 * snapshot (`content`, the same as `pages.content`) and plain text beside it.
 */
export const pageDocuments = defineModel('page_documents', {
  page_id: column.uuid().primaryKey(),
  state: column.blob().nullable(),
  content: column.json<unknown>(),
  text: column.text(),
});

/** A Yjs update of a page's document not yet merged into its state (member_id null: the server's own edit). */
export const pageUpdates = defineModel('page_updates', {
  id: column.uuid().primaryKey().defaultRandom(),
  page_id: column.uuid(),
  data: column.blob(),
  member_id: column.uuid().nullable(),
});

/** A comment on a page: a thread's first comment anchors it to a range of the text (the SDK's comments kit); replies join it. */
export const pageComments = defineModel('page_comments', {
  id: column.uuid().primaryKey().defaultRandom(),
  page_id: column.uuid(),
  ...commentColumns(),
});
export type PageComment = DeclaredRow<typeof pageComments>;

export const models = { spaces, spaceMembers, pages, pageLinks, pageVersions, pageDocuments, pageUpdates, pageComments };
export type Models = typeof models;
