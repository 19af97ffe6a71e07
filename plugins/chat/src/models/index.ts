import { DataTypes, defineModel } from '@wpk/sdk';

/** The kinds of chat: a conversation of two, a named or unnamed group, a public channel anyone may join. */
export const CHAT_TYPES = ['direct', 'group', 'channel'] as const;
export type ChatType = (typeof CHAT_TYPES)[number];

/** A chat. `last_seq` is the seq of its newest message (the per-chat message counter). */
export interface Chat {
  id: string;
  type: ChatType;
  name: string | null;
  topic: string;
  /** Direct chats only: the two member ids, sorted and joined, so one pair has one chat. */
  direct_key: string | null;
  creator_id: string;
  last_seq: number;
  last_message_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const chats = defineModel<Chat>('chats', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  type: { type: DataTypes.STRING(10), allowNull: false },
  name: { type: DataTypes.STRING(200), allowNull: true },
  topic: { type: DataTypes.STRING(1000), allowNull: false, defaultValue: '' },
  direct_key: { type: DataTypes.STRING(80), allowNull: true },
  creator_id: { type: DataTypes.UUID, allowNull: false },
  last_seq: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0, get(this: { getDataValue(key: string): unknown }) { return Number(this.getDataValue('last_seq')); } },
  last_message_at: { type: DataTypes.DATE, allowNull: true },
});

export const PARTICIPANT_ROLES = ['owner', 'member'] as const;

/** A member taking part in a chat, with their read position (the seq of the last message read). */
export interface Participant {
  chat_id: string;
  member_id: string;
  role: (typeof PARTICIPANT_ROLES)[number];
  muted: boolean;
  last_read_seq: number;
  created_at: Date;
  updated_at: Date;
}

export const participants = defineModel<Participant>('participants', {
  chat_id: { type: DataTypes.UUID, primaryKey: true },
  member_id: { type: DataTypes.UUID, primaryKey: true },
  role: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'member' },
  muted: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
  last_read_seq: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0, get(this: { getDataValue(key: string): unknown }) { return Number(this.getDataValue('last_read_seq')); } },
});

/** A file a message shares: an object of the chat app's storage. */
export interface Attachment {
  file_key: string;
  filename: string;
  content_type: string;
  size_bytes: number;
}

/** A message; `deleted_at` set: a tombstone (its text and file are gone). `parent_id`: a reply in that message's thread. */
export interface Message {
  id: string;
  chat_id: string;
  seq: number;
  sender_id: string;
  body: string;
  parent_id: string | null;
  reply_count: number;
  attachment: Attachment | null;
  mentions: string[];
  edited_at: Date | null;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const messages = defineModel<Message>('messages', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  chat_id: { type: DataTypes.UUID, allowNull: false },
  seq: { type: DataTypes.BIGINT, allowNull: false, get(this: { getDataValue(key: string): unknown }) { return Number(this.getDataValue('seq')); } },
  sender_id: { type: DataTypes.UUID, allowNull: false },
  body: { type: DataTypes.TEXT, allowNull: false, defaultValue: '' },
  parent_id: { type: DataTypes.UUID, allowNull: true },
  reply_count: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
  attachment: { type: DataTypes.JSONB, allowNull: true },
  mentions: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
  edited_at: { type: DataTypes.DATE, allowNull: true },
  deleted_at: { type: DataTypes.DATE, allowNull: true },
});

export interface Reaction {
  message_id: string;
  member_id: string;
  emoji: string;
  created_at: Date;
}

export const reactions = defineModel<Reaction>('reactions', {
  message_id: { type: DataTypes.UUID, primaryKey: true },
  member_id: { type: DataTypes.UUID, primaryKey: true },
  emoji: { type: DataTypes.STRING(64), primaryKey: true },
});

export interface Favourite {
  member_id: string;
  chat_id: string;
  created_at: Date;
}

export const favourites = defineModel<Favourite>('favourites', {
  member_id: { type: DataTypes.UUID, primaryKey: true },
  chat_id: { type: DataTypes.UUID, primaryKey: true },
});

/** A member's own named list of chats (a sidebar section). */
export interface ChatList {
  id: string;
  member_id: string;
  name: string;
  position: number;
  created_at: Date;
  updated_at: Date;
}

export const chatLists = defineModel<ChatList>('chat_lists', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  member_id: { type: DataTypes.UUID, allowNull: false },
  name: { type: DataTypes.STRING(80), allowNull: false },
  position: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
});

export interface ListChat {
  list_id: string;
  chat_id: string;
  created_at: Date;
}

export const listChats = defineModel<ListChat>('list_chats', {
  list_id: { type: DataTypes.UUID, primaryKey: true },
  chat_id: { type: DataTypes.UUID, primaryKey: true },
});

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { chats, participants, messages, reactions, favourites, chatLists, listChats };

export type Models = typeof models;
