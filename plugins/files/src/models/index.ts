import { DataTypes, defineModel } from '@wpk/sdk';

export const ITEM_KINDS = ['file', 'folder'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];
export const SHARE_ROLES = ['read', 'edit'] as const;
export type ShareRole = (typeof SHARE_ROLES)[number];

/** A file or a folder of a member's space. `size_bytes` is a string when read (PostgreSQL bigint). */
export interface Item {
  id: string;
  kind: ItemKind;
  owner_id: string;
  parent_id: string | null;
  name: string;
  /** The lower-cased name, ordered byte by byte (the same listing order on every database and locale). */
  sort_name: string;
  content_type: string | null;
  size_bytes: number | string;
  version_id: string | null;
  version_number: number;
  trashed_at: Date | null;
  trash_root_id: string | null;
  trashed_by: string | null;
  created_by: string;
  updated_by: string;
  created_at: Date;
  updated_at: Date;
}

/** One version of a file: its bytes are the storage object `storage_key` (versions and copies may share one). */
export interface Version {
  id: string;
  item_id: string;
  number: number;
  storage_key: string;
  size_bytes: number | string;
  content_type: string;
  sha256: string;
  category: string;
  created_by: string;
  created_at: Date;
}

export interface Share {
  item_id: string;
  member_id: string;
  role: ShareRole;
  shared_by: string;
  created_at: Date;
  updated_at: Date;
}

/** An upload under way: its link was handed out, its bytes may have arrived; completion makes the file. */
export interface Upload {
  id: string;
  owner_id: string;
  parent_id: string | null;
  item_id: string | null;
  name: string;
  size_bytes: number | string;
  content_type: string | null;
  storage_key: string;
  created_by: string;
  expires_at: Date;
  created_at: Date;
}

/** Bytes kept per owner and type (every version, trash included): the quota and the admin stats read it. */
export interface Usage {
  member_id: string;
  category: string;
  bytes: number | string;
  versions: number;
}

/** A scheduled piece of the app's own work (`sweep`: the trash retention and abandoned uploads) and when it is next due. */
export interface Schedule {
  name: string;
  due_at: Date;
}

const uuid = (allowNull = false) => ({ type: DataTypes.UUID, allowNull });

export const models = {
  items: defineModel<Item>('items', {
    id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
    kind: { type: DataTypes.STRING(6), allowNull: false },
    owner_id: uuid(),
    parent_id: uuid(true),
    name: { type: DataTypes.STRING(255), allowNull: false },
    sort_name: { type: DataTypes.STRING(255), allowNull: false },
    content_type: { type: DataTypes.STRING(255), allowNull: true },
    size_bytes: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
    version_id: uuid(true),
    version_number: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    trashed_at: { type: DataTypes.DATE, allowNull: true },
    trash_root_id: uuid(true),
    trashed_by: uuid(true),
    created_by: uuid(),
    updated_by: uuid(),
  }),
  versions: defineModel<Version>('versions', {
    id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
    item_id: uuid(),
    number: { type: DataTypes.INTEGER, allowNull: false },
    storage_key: { type: DataTypes.STRING(300), allowNull: false },
    size_bytes: { type: DataTypes.BIGINT, allowNull: false },
    content_type: { type: DataTypes.STRING(255), allowNull: false },
    sha256: { type: DataTypes.STRING(64), allowNull: false },
    category: { type: DataTypes.STRING(20), allowNull: false },
    created_by: uuid(),
  }),
  shares: defineModel<Share>('shares', {
    item_id: { type: DataTypes.UUID, primaryKey: true },
    member_id: { type: DataTypes.UUID, primaryKey: true },
    role: { type: DataTypes.STRING(4), allowNull: false },
    shared_by: uuid(),
  }),
  uploads: defineModel<Upload>('uploads', {
    id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
    owner_id: uuid(),
    parent_id: uuid(true),
    item_id: uuid(true),
    name: { type: DataTypes.STRING(255), allowNull: false },
    size_bytes: { type: DataTypes.BIGINT, allowNull: false },
    content_type: { type: DataTypes.STRING(255), allowNull: true },
    storage_key: { type: DataTypes.STRING(300), allowNull: false },
    created_by: uuid(),
    expires_at: { type: DataTypes.DATE, allowNull: false },
  }),
  usage: defineModel<Usage>('usage', {
    member_id: { type: DataTypes.UUID, primaryKey: true },
    category: { type: DataTypes.STRING(20), primaryKey: true },
    bytes: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
    versions: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
  }),
  schedules: defineModel<Schedule>('schedules', {
    name: { type: DataTypes.STRING(20), primaryKey: true },
    due_at: { type: DataTypes.DATE, allowNull: false },
  }),
};

export type Models = typeof models;
