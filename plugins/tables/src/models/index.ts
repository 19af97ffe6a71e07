import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/** A member's role on a base: viewer reads, editor edits records, creator changes tables, fields and shared views. */
export const ROLES = ['viewer', 'editor', 'creator'] as const;
export type Role = (typeof ROLES)[number];

/** The field types. */
export const FIELD_TYPES = [
  'text', 'long_text', 'number', 'currency', 'date', 'checkbox', 'single_select', 'multiple_select', 'member', 'attachment', 'link', 'lookup', 'rollup', 'formula', 'autonumber', 'mrn',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** The view types. */
export const VIEW_TYPES = ['grid', 'kanban', 'calendar', 'gallery', 'form'] as const;
export type ViewType = (typeof VIEW_TYPES)[number];

export const bases = defineModel('bases', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(200),
  /** The role of every member with the app's access who has no role of their own on the base. */
  default_role: column.string(10).default('editor'),
  created_by: column.uuid(),
  revision: column.integer().default(1),
});
export type Base = DeclaredRow<typeof bases>;

export const baseRoles = defineModel('base_roles', {
  id: column.uuid().primaryKey().defaultRandom(),
  base_id: column.uuid(),
  member_id: column.uuid(),
  role: column.enum(ROLES, 10),
});
export type BaseRole = DeclaredRow<typeof baseRoles>;

export const tables = defineModel('tables', {
  id: column.uuid().primaryKey().defaultRandom(),
  base_id: column.uuid(),
  name: column.string(200),
  /** The field whose value is a record's title (search, links). */
  primary_field_id: column.uuid().nullable(),
  /** The next record's number (autonumber fields show it). */
  next_number: column.integer().default(1),
  revision: column.integer().default(1),
});
export type Table = DeclaredRow<typeof tables>;

export const fields = defineModel('fields', {
  id: column.uuid().primaryKey().defaultRandom(),
  table_id: column.uuid(),
  name: column.string(200),
  type: column.enum(FIELD_TYPES, 20),
  options: column.json<Record<string, unknown>>(),
  position: column.integer(),
  revision: column.integer().default(1),
});
export type Field = DeclaredRow<typeof fields>;

export const records = defineModel('records', {
  id: column.uuid().primaryKey().defaultRandom(),
  table_id: column.uuid(),
  number: column.integer(),
  /** Cells by field id. */
  cells: column.json<Record<string, unknown>>(),
  /** Each cell's version by field id (absent: 0): a write names the version it read. */
  versions: column.json<Record<string, number>>(),
  /** The primary field's value as text (search). */
  title: column.string(500).default(''),
  created_by: column.uuid().nullable(),
  updated_by: column.uuid().nullable(),
  revision: column.integer().default(1),
});
export type TableRecord = DeclaredRow<typeof records>;

export const comments = defineModel('record_comments', {
  id: column.uuid().primaryKey().defaultRandom(),
  record_id: column.uuid(),
  body: column.string(5000),
  author_id: column.uuid(),
});
export type RecordComment = DeclaredRow<typeof comments>;

export const history = defineModel('record_history', {
  id: column.uuid().primaryKey().defaultRandom(),
  record_id: column.uuid(),
  kind: column.enum(['created', 'updated'] as const, 10),
  /** By field id: `{ from, to }`. */
  changes: column.json<Record<string, { from: unknown; to: unknown }>>(),
  actor_id: column.uuid().nullable(),
});
export type HistoryEntry = DeclaredRow<typeof history>;

export const views = defineModel('views', {
  id: column.uuid().primaryKey().defaultRandom(),
  table_id: column.uuid(),
  name: column.string(200),
  type: column.enum(VIEW_TYPES, 10),
  config: column.json<Record<string, unknown>>(),
  /** A personal view's member; null: shared with the base. */
  owner_id: column.uuid().nullable(),
  created_by: column.uuid(),
  form_token_hash: column.string(64).nullable(),
  revision: column.integer().default(1),
});
export type View = DeclaredRow<typeof views>;

/** What an MRN field may name (deals: no app publishes them yet). */
export const SOURCE_KINDS = ['member', 'worker', 'company', 'contact', 'task'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** Another app's record an MRN field names, as this app keeps it from that app's events. */
export const sources = defineModel('sources', {
  id: column.uuid().primaryKey().defaultRandom(),
  mrn: column.string(300),
  kind: column.enum(SOURCE_KINDS, 20),
  name: column.string(500),
  deleted: column.boolean().default(false),
  revision: column.integer().default(0),
});
export type Source = DeclaredRow<typeof sources>;

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { bases, baseRoles, tables, fields, records, comments, history, views, sources };
export type Models = typeof models;
