import { memberMrn } from '@wpk/sdk';
import type { Chat, ChatList, Message, Participant, Reaction } from '../models/index.js';

/** A chat as the API answers it. */
export function presentChat(chat: Chat, extra: { unread_count?: number; favourite?: boolean; role?: string | null; list_ids?: string[] } = {}) {
  return {
    id: chat.id,
    type: chat.type,
    name: chat.name,
    topic: chat.topic,
    creator_mrn: memberMrn(chat.creator_id),
    last_seq: Number(chat.last_seq),
    last_message_at: chat.last_message_at,
    created_at: chat.created_at,
    updated_at: chat.updated_at,
    ...extra,
  };
}

export function presentParticipant(participant: Participant) {
  return {
    member_mrn: memberMrn(participant.member_id),
    member_id: participant.member_id,
    role: participant.role,
    muted: participant.muted,
    last_read_seq: Number(participant.last_read_seq),
    joined_at: participant.created_at,
  };
}

/** Reactions grouped by emoji, in the order each emoji first appeared. */
export function groupReactions(rows: Reaction[]): Array<{ emoji: string; count: number; member_mrns: string[] }> {
  const groups = new Map<string, string[]>();
  for (const row of [...rows].sort((a, b) => +new Date(a.created_at) - +new Date(b.created_at) || a.member_id.localeCompare(b.member_id))) {
    const list = groups.get(row.emoji) ?? [];
    list.push(memberMrn(row.member_id));
    groups.set(row.emoji, list);
  }
  return [...groups.entries()].map(([emoji, members]) => ({ emoji, count: members.length, member_mrns: members }));
}

/** A message as the API answers it; a deleted one is a tombstone (no text, no file, no mentions). */
export function presentMessage(message: Message, reactionRows: Reaction[]) {
  const deleted = message.deleted_at !== null;
  return {
    id: message.id,
    chat_id: message.chat_id,
    seq: Number(message.seq),
    sender_mrn: memberMrn(message.sender_id),
    body: deleted ? null : message.body,
    parent_id: message.parent_id,
    reply_count: message.reply_count,
    file: deleted ? null : message.attachment,
    mention_mrns: deleted ? [] : message.mentions.map(memberMrn),
    reactions: deleted ? [] : groupReactions(reactionRows),
    deleted: deleted,
    edited_at: message.edited_at,
    deleted_at: message.deleted_at,
    created_at: message.created_at,
  };
}

export function presentList(list: ChatList, chatIds: string[]) {
  return { id: list.id, name: list.name, position: list.position, chat_ids: chatIds, created_at: list.created_at, updated_at: list.updated_at };
}

/** The first 200 characters of a text, on one line (event previews). */
export function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= 200 ? flat : `${flat.slice(0, 199)}…`;
}
