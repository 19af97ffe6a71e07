import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/** The kinds of chat: a conversation of two, a named or unnamed group, a public channel anyone may join. */
export const CHAT_TYPES = ['direct', 'group', 'channel'] as const;
export type ChatType = (typeof CHAT_TYPES)[number];

/** A chat. `last_seq` is the seq of its newest message (the per-chat message counter). */
export type Chat = DeclaredRow<typeof chats>;

export const chats = defineModel('chats', {
  id: column.uuid().primaryKey().defaultRandom(),
  type: column.enum(CHAT_TYPES, 10),
  name: column.string(200).nullable(),
  topic: column.string(1000).default(''),
  /** Direct chats only: the two member ids, sorted and joined, so one pair has one chat. */
  direct_key: column.string(80).nullable(),
  creator_id: column.uuid(),
  last_seq: column.bigint().default(0),
  last_message_at: column.date().nullable(),
});

export const PARTICIPANT_ROLES = ['owner', 'member'] as const;

/** A member taking part in a chat, with their read position (the seq of the last message read). */
export type Participant = DeclaredRow<typeof participants>;

export const participants = defineModel('participants', {
  chat_id: column.uuid().primaryKey(),
  member_id: column.uuid().primaryKey(),
  role: column.enum(PARTICIPANT_ROLES, 10).default('member'),
  muted: column.boolean().default(false),
  last_read_seq: column.bigint().default(0),
});

/** A file a message shares: an object of the chat app's storage. */
export interface Attachment {
  file_key: string;
  filename: string;
  content_type: string;
  size_bytes: number;
}

/** A message; `deleted_at` set: a tombstone (its text and file are gone). `parent_id`: a reply in that message's thread. */
export type Message = DeclaredRow<typeof messages>;

export const messages = defineModel('messages', {
  id: column.uuid().primaryKey().defaultRandom(),
  chat_id: column.uuid(),
  seq: column.bigint(),
  sender_id: column.uuid(),
  body: column.text().default(''),
  parent_id: column.uuid().nullable(),
  reply_count: column.integer().default(0),
  attachment: column.json<Attachment>().nullable(),
  mentions: column.json<string[]>().default([]),
  edited_at: column.date().nullable(),
  deleted_at: column.date().nullable(),
});

export type Reaction = DeclaredRow<typeof reactions>;

export const reactions = defineModel('reactions', {
  message_id: column.uuid().primaryKey(),
  member_id: column.uuid().primaryKey(),
  emoji: column.string(64).primaryKey(),
});

export type Favourite = DeclaredRow<typeof favourites>;

export const favourites = defineModel('favourites', {
  member_id: column.uuid().primaryKey(),
  chat_id: column.uuid().primaryKey(),
});

/** A member's own named list of chats (a sidebar section). */
export type ChatList = DeclaredRow<typeof chatLists>;

export const chatLists = defineModel('chat_lists', {
  id: column.uuid().primaryKey().defaultRandom(),
  member_id: column.uuid(),
  name: column.string(80),
  position: column.integer().default(0),
});

export type ListChat = DeclaredRow<typeof listChats>;

export const listChats = defineModel('list_chats', {
  list_id: column.uuid().primaryKey(),
  chat_id: column.uuid().primaryKey(),
});

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { chats, participants, messages, reactions, favourites, chatLists, listChats };

export type Models = typeof models;
