import { ForbiddenError, InvalidError, isUuid, memberMrn, newId, NotFoundError, Op } from '@wpk/sdk';
import type { ChatContext } from '../kit.js';
import type { Attachment, Chat, Message } from '../models/index.js';
import { audienceOf, chats, requireAudience, requireParticipant, requireVisibleChat } from './chats.js';
import { publishMessage, publishToChat, publishToMember } from './live.js';
import { presentMessage, preview } from './present.js';

/** `<@{member_id}>` in a message's text mentions that member (Slack's form). */
const MENTION = /<@([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})>/gi;

export function mentionsIn(body: string): string[] {
  return [...new Set([...body.matchAll(MENTION)].map((match) => match[1].toLowerCase()))];
}

/** The message of this chat, or 404. */
async function requireMessage(ctx: ChatContext, chat: Chat, messageId: string): Promise<Message> {
  const message = isUuid(messageId) ? await ctx.db.messages.findOne({ where: { id: messageId, chat_id: chat.id } }) : null;
  if (!message) throw new NotFoundError(`Message ${messageId} not found in chat ${chat.id}`);
  return message;
}

async function reactionsOf(ctx: ChatContext, messageIds: string[]) {
  return messageIds.length ? ctx.db.reactions.findAll({ where: { message_id: { [Op.in]: messageIds } } }) : [];
}

/** A message with its reactions, as answered. */
export async function presentOne(ctx: ChatContext, message: Message) {
  return presentMessage(message, await reactionsOf(ctx, [message.id]));
}

/** The chat's messages, newest first (`parent_id`: one thread's replies, oldest first); `before`/`after` page by seq. */
export async function listMessages(ctx: ChatContext, chatId: string, query: { parent_id?: string; before?: number; after?: number }) {
  const { chat } = await requireVisibleChat(ctx, chatId);
  const where: Record<string | symbol, unknown> = { chat_id: chat.id, parent_id: query.parent_id ?? null };
  if (query.parent_id) await requireMessage(ctx, chat, query.parent_id);
  const seq: Record<symbol, number> = {};
  if (query.before !== undefined) seq[Op.lt] = query.before;
  if (query.after !== undefined) seq[Op.gt] = query.after;
  if (Object.getOwnPropertySymbols(seq).length) where.seq = seq;
  const { rows, count } = await ctx.db.messages.findAndCountAll({ where, order: [['seq', query.parent_id ? 'ASC' : 'DESC']], offset: ctx.page.offset, limit: ctx.page.limit });
  const reactions = await reactionsOf(ctx, rows.map((row) => row.id));
  return { rows: rows.map((row) => presentMessage(row, reactions.filter((reaction) => reaction.message_id === row.id))), count };
}

export interface SendInput {
  body?: string;
  parent_id?: string;
  file?: { file_key: string; filename?: string };
}

/**
 * SendMessage: text (up to the `max_message_length` setting) and/or one file of the app's storage;
 * `parent_id` replies in that message's thread (threads are one level deep). Emits
 * `message.sent`, one `core.member.mentioned` per mentioned participant other than the sender, and
 * `file.shared` for a file; the sender's read position moves to the new message.
 */
export async function sendMessage(ctx: ChatContext, chatId: string, input: SendInput): Promise<Message> {
  const { chatId: id, audience } = await requireAudience(ctx, chatId);
  const body = input.body ?? '';
  if (!body.trim() && !input.file) throw new InvalidError('body is required (or a file)');
  if (body.length > ctx.settings.max_message_length) throw new InvalidError(`body is longer than ${ctx.settings.max_message_length} characters`);
  let attachment: Attachment | null = null;
  if (input.file) {
    if (!input.file.file_key.startsWith(`chats/${id}/`)) throw new InvalidError(`file.file_key must be a key of this chat's uploads (chats/${id}/...): ask POST /chats/${id}/uploads for one`);
    const stored = await ctx.storage.head(input.file.file_key);
    if (!stored) throw new InvalidError(`file.file_key ${input.file.file_key} names no file of the chat app`);
    attachment = { file_key: stored.key, filename: input.file.filename ?? stored.key.split('/').pop()!, content_type: stored.content_type, size_bytes: stored.size_bytes };
  }
  const mentioned = mentionsIn(body).filter((member) => member !== ctx.member.id && audience.includes(member));
  // The chat row orders its messages: a concurrent sender waits at this read for this one's
  // commit, then reads the last_seq it left (FOR UPDATE reads the newest row version).
  const chat = await chats.require(ctx, id, { lock: 'update' });
  // The thread's first message is read under the chat's lock: two replies at once each count.
  let parent: Message | null = null;
  if (input.parent_id) {
    parent = await ctx.db.messages.findOne({ where: { id: input.parent_id, chat_id: id } });
    if (!parent) throw new InvalidError(`parent_id ${input.parent_id} is not a message of this chat`);
    if (parent.parent_id) throw new InvalidError('parent_id: reply to the thread\'s first message (threads are one level deep)');
    if (parent.deleted_at) throw new InvalidError('parent_id: that message was deleted');
  }
  const seq = Number(chat.last_seq) + 1;
  const now = new Date();
  const message = await ctx.db.messages.create({ chat_id: chat.id, seq, sender_id: ctx.member.id, body, parent_id: parent?.id ?? null, attachment, mentions: mentioned });
  await ctx.db.chats.update({ last_seq: seq, last_message_at: now }, { where: { id: chat.id } });
  if (parent) await ctx.db.messages.update({ reply_count: parent.reply_count + 1 }, { where: { id: parent.id } });
  if (!parent) await ctx.db.participants.update({ last_read_seq: seq }, { where: { chat_id: chat.id, member_id: ctx.member.id } });

  ctx.events.stage('core.chat.message.sent', { chat_id: chat.id, message_id: message.id, sender_mrn: ctx.member.mrn, content_preview: preview(body), has_media: attachment !== null });
  for (const id of mentioned) {
    ctx.events.stage('core.member.mentioned', {
      source: 'chat',
      mentioned_mrn: memberMrn(id),
      mentioner_mrn: ctx.member.mrn,
      resource_mrn: `mrn:chat:message:${message.id}`,
      link: `/chats/${chat.id}/messages?${parent ? `parent_id=${parent.id}&` : ''}after=${seq - 1}`,
      preview: preview(body),
    });
    publishToMember(ctx, id, 'mention', { chat_id: chat.id, message_id: message.id, mentioner_mrn: ctx.member.mrn, preview: preview(body) });
  }
  if (attachment) ctx.events.stage('core.chat.file.shared', { chat_id: chat.id, message_id: message.id, sender_mrn: ctx.member.mrn, ...attachment });
  if (chat.type === 'channel' && body.trim()) indexMessage(ctx, chat, message);
  publishMessage(ctx, 'message.sent', message, audience);
  return message;
}

/**
 * A signed link to upload one file into the chat's uploads (`chats/{chat_id}/{uuid}/{filename}`),
 * valid 15 minutes; share it afterwards with `POST /chats/{id}/messages {file: {file_key}}`.
 */
export async function createUpload(ctx: ChatContext, chatId: string, input: { filename: string; content_type?: string; size_bytes?: number }) {
  const { chat } = await requireParticipant(ctx, chatId);
  const safe = input.filename.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 120) || 'file';
  const key = `chats/${chat.id}/${newId()}/${safe}`;
  const upload = await ctx.storage.signedUploadUrl(key, { expiresInSeconds: 900, ...(input.content_type ? { contentType: input.content_type } : {}), ...(input.size_bytes !== undefined ? { maxBytes: input.size_bytes } : {}) });
  return { file_key: key, filename: input.filename, upload };
}

/** Messages of channels are searchable (readers of the app may read any channel); private chats stay out of the platform search. */
function indexMessage(ctx: ChatContext, chat: Chat, message: Message): void {
  ctx.search.upsert({
    type: 'message',
    id: message.id,
    title: preview(message.body).slice(0, 120) || '(file)',
    subtitle: `#${chat.name ?? chat.id}`,
    url: `/chats/${chat.id}/messages?after=${Number(message.seq) - 1}`,
    names: [message.body],
    details: [chat.name ?? ''],
  });
}

/** EditMessage: the sender changes the text (within `edit_window_minutes`, 0: always); a tombstone cannot be edited. */
export async function editMessage(ctx: ChatContext, chatId: string, messageId: string, body: string): Promise<Message> {
  const { chat } = await requireParticipant(ctx, chatId);
  const message = await requireMessage(ctx, chat, messageId);
  if (message.sender_id !== ctx.member.id) throw new ForbiddenError('Only the sender may edit a message');
  if (message.deleted_at) throw new InvalidError('This message was deleted');
  if (!body.trim() && !message.attachment) throw new InvalidError('body is required');
  if (body.length > ctx.settings.max_message_length) throw new InvalidError(`body is longer than ${ctx.settings.max_message_length} characters`);
  const window = ctx.settings.edit_window_minutes;
  if (window > 0 && Date.now() - new Date(message.created_at).getTime() > window * 60_000) throw new ForbiddenError(`Messages can be edited for ${window} minutes after sending`);
  if (body === message.body) return message;
  const audience = await audienceOf(ctx, chat.id);
  const mentioned = mentionsIn(body).filter((id) => id !== ctx.member.id && audience.includes(id));
  await ctx.db.messages.update({ body, edited_at: new Date(), mentions: mentioned }, { where: { id: message.id } });
  const updated = (await ctx.db.messages.findById(message.id))!;
  ctx.events.stage('core.chat.message.edited', { chat_id: chat.id, message_id: message.id, sender_mrn: ctx.member.mrn });
  if (chat.type === 'channel') indexMessage(ctx, chat, updated);
  publishMessage(ctx, 'message.edited', updated, audience);
  return updated;
}

/** Deletes a message, leaving a tombstone: the sender, the chat's owner, or a holder of `chat.messages.delete`. */
export async function deleteMessage(ctx: ChatContext, chatId: string, messageId: string): Promise<Message> {
  const { chat, me } = await requireParticipant(ctx, chatId);
  const message = await requireMessage(ctx, chat, messageId);
  if (message.sender_id !== ctx.member.id && me.role !== 'owner' && !ctx.permissions.has('chat.messages.delete')) throw new ForbiddenError('Cannot delete this message');
  if (message.deleted_at) throw new NotFoundError(`Message ${messageId} was already deleted`);
  await ctx.db.messages.update({ deleted_at: new Date(), body: '', attachment: null, mentions: [] }, { where: { id: message.id } });
  await ctx.db.reactions.destroy({ where: { message_id: message.id } });
  const updated = (await ctx.db.messages.findById(message.id))!;
  ctx.events.stage('core.chat.message.deleted', { chat_id: chat.id, message_id: message.id, sender_mrn: memberMrn(message.sender_id) });
  ctx.search.remove('message', message.id);
  publishMessage(ctx, 'message.deleted', updated, await audienceOf(ctx, chat.id));
  return updated;
}

/** Clears a chat's history for everyone (the owner, or `chat.chats.manage`): every message goes, tombstones included. */
export async function clearHistory(ctx: ChatContext, chatId: string): Promise<{ chat_id: string; deleted_messages: number }> {
  const { chat, me } = await requireParticipant(ctx, chatId);
  if (me.role !== 'owner' && !ctx.permissions.has('chat.chats.manage')) throw new ForbiddenError('Only the chat\'s owner may clear its history');
  const all = await ctx.db.messages.findAll({ where: { chat_id: chat.id } });
  for (const message of all) ctx.search.remove('message', message.id);
  await ctx.db.messages.destroy({ where: { chat_id: chat.id, parent_id: { [Op.ne]: null } } });
  await ctx.db.messages.destroy({ where: { chat_id: chat.id } });
  ctx.events.stage('core.chat.chat.updated', { chat_id: chat.id, changes: { history_cleared: true }, updated_by: ctx.member.mrn });
  publishToChat(ctx, chat.id, 'chat.cleared', { chat_id: chat.id }, await audienceOf(ctx, chat.id));
  return { chat_id: chat.id, deleted_messages: all.length };
}

/** Adds the caller's reaction (idempotent: the same emoji twice is one reaction). */
export async function addReaction(ctx: ChatContext, chatId: string, messageId: string, emoji: string) {
  const { chat } = await requireParticipant(ctx, chatId);
  const message = await requireMessage(ctx, chat, messageId);
  if (message.deleted_at) throw new InvalidError('This message was deleted');
  await ctx.db.reactions.upsert({ message_id: message.id, member_id: ctx.member.id, emoji }, { conflictFields: ['message_id', 'member_id', 'emoji'], update: [] });
  const answer = await presentOne(ctx, message);
  publishToChat(ctx, chat.id, 'reaction.added', { message_id: message.id, emoji, member_mrn: ctx.member.mrn, reactions: answer.reactions }, await audienceOf(ctx, chat.id));
  return answer;
}

/** Takes the caller's reaction back (404 when they had none with that emoji). */
export async function removeReaction(ctx: ChatContext, chatId: string, messageId: string, emoji: string) {
  const { chat } = await requireParticipant(ctx, chatId);
  const message = await requireMessage(ctx, chat, messageId);
  const removed = await ctx.db.reactions.destroy({ where: { message_id: message.id, member_id: ctx.member.id, emoji } });
  if (removed === 0) throw new NotFoundError(`You did not react with ${emoji} to this message`);
  const answer = await presentOne(ctx, message);
  publishToChat(ctx, chat.id, 'reaction.removed', { message_id: message.id, emoji, member_mrn: ctx.member.mrn, reactions: answer.reactions }, await audienceOf(ctx, chat.id));
  return answer;
}

/** Moves the caller's read position to a message of the chat (never backwards); answers the unread count left. */
export async function markRead(ctx: ChatContext, chatId: string, messageId: string) {
  const { chat, me } = await requireParticipant(ctx, chatId);
  const message = await requireMessage(ctx, chat, messageId);
  const seq = Math.max(Number(me.last_read_seq), Number(message.seq));
  if (seq !== Number(me.last_read_seq)) await ctx.db.participants.update({ last_read_seq: seq }, { where: { chat_id: chat.id, member_id: ctx.member.id } });
  const unread = await ctx.db.messages.count({ where: { chat_id: chat.id, seq: { [Op.gt]: seq }, parent_id: null, deleted_at: null, sender_id: { [Op.ne]: ctx.member.id } } });
  publishToMember(ctx, ctx.member.id, 'chat.read', { chat_id: chat.id, last_read_seq: seq, unread_count: unread });
  return { chat_id: chat.id, last_read_seq: seq, unread_count: unread };
}
