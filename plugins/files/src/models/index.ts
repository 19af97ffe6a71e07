import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

export const ITEM_KINDS = ['file', 'folder'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];
export const SHARE_ROLES = ['read', 'edit'] as const;
export type ShareRole = (typeof SHARE_ROLES)[number];

/** A file or a folder of a member's space. `size_bytes` is a string when read (PostgreSQL bigint). */
export type Item = DeclaredRow<typeof models.items>;

/** One version of a file: its bytes are the storage object `storage_key` (versions and copies may share one). */
export type Version = DeclaredRow<typeof models.versions>;

export type Share = DeclaredRow<typeof models.shares>;

/** An upload under way: its link was handed out, its bytes may have arrived; completion makes the file. */
export type Upload = DeclaredRow<typeof models.uploads>;

/** Bytes kept per owner and type (every version, trash included): the quota and the admin stats read it. */
export type Usage = DeclaredRow<typeof models.usage>;

/** A scheduled piece of the app's own work (`sweep`: the trash retention and abandoned uploads) and when it is next due. */
export type Schedule = DeclaredRow<typeof models.schedules>;

export const models = {
  items: defineModel('items', {
    id: column.uuid().primaryKey().defaultRandom(),
    kind: column.enum(ITEM_KINDS, 6),
    owner_id: column.uuid(),
    parent_id: column.uuid().nullable(),
    name: column.string(255),
    /** The lower-cased name, ordered byte by byte (the same listing order on every database and locale). */
    sort_name: column.string(255),
    content_type: column.string(255).nullable(),
    size_bytes: column.bigint({ mode: 'raw' }).default(0),
    version_id: column.uuid().nullable(),
    version_number: column.integer().default(0),
    trashed_at: column.date().nullable(),
    trash_root_id: column.uuid().nullable(),
    trashed_by: column.uuid().nullable(),
    created_by: column.uuid(),
    updated_by: column.uuid(),
  }),
  versions: defineModel('versions', {
    id: column.uuid().primaryKey().defaultRandom(),
    item_id: column.uuid(),
    number: column.integer(),
    storage_key: column.string(300),
    size_bytes: column.bigint({ mode: 'raw' }),
    content_type: column.string(255),
    sha256: column.string(64),
    category: column.string(20),
    created_by: column.uuid(),
  }),
  shares: defineModel('shares', {
    item_id: column.uuid().primaryKey(),
    member_id: column.uuid().primaryKey(),
    role: column.enum(SHARE_ROLES, 4),
    shared_by: column.uuid(),
  }),
  uploads: defineModel('uploads', {
    id: column.uuid().primaryKey().defaultRandom(),
    owner_id: column.uuid(),
    parent_id: column.uuid().nullable(),
    item_id: column.uuid().nullable(),
    name: column.string(255),
    size_bytes: column.bigint({ mode: 'raw' }),
    content_type: column.string(255).nullable(),
    storage_key: column.string(300),
    created_by: column.uuid(),
    expires_at: column.date(),
  }),
  usage: defineModel('usage', {
    member_id: column.uuid().primaryKey(),
    category: column.string(20).primaryKey(),
    bytes: column.bigint({ mode: 'raw' }).default(0),
    versions: column.integer().default(0),
  }),
  schedules: defineModel('schedules', {
    name: column.string(20).primaryKey(),
    due_at: column.date(),
  }),
};

export type Models = typeof models;
