import { conflictOnDuplicate, ForbiddenError, InvalidError, likePattern, memberIdFromMrn, memberMrn, NotFoundError, Op } from '@wpk/sdk';
import { resource, type ChatContext } from '../kit.js';
import type { Chat, ChatType, Participant } from '../models/index.js';
import { publishToChat, publishToMember } from './live.js';
import { presentChat } from './present.js';

/** The workspace's chats, for get-or-404 (who may see one is the services' rule). */
export const chats = resource({ model: 'chats', label: 'Chat', order: [['created_at', 'ASC'], ['id', 'ASC']] });

/** The chat, or 404. */
export function requireChat(ctx: ChatContext, chatId: string): Promise<Chat> {
  return chats.require(ctx, chatId);
}

/** The caller's participation, or null. */
export function participationOf(ctx: ChatContext, chatId: string, memberId = ctx.member.id): Promise<Participant | null> {
  return ctx.db.participants.findOne({ where: { chat_id: chatId, member_id: memberId } });
}

/**
 * A chat the caller may see: one they take part in, or any channel (channels are public to the
 * app's readers). A direct or group chat of others is a 404, so its existence does not leak.
 */
export async function requireVisibleChat(ctx: ChatContext, chatId: string): Promise<{ chat: Chat; me: Participant | null }> {
  const chat = await requireChat(ctx, chatId);
  const me = await participationOf(ctx, chatId);
  if (!me && chat.type !== 'channel') throw new NotFoundError(`Chat ${chatId} not found`);
  return { chat, me };
}

/** A chat the caller takes part in (403 for a channel they did not join). */
export async function requireParticipant(ctx: ChatContext, chatId: string): Promise<{ chat: Chat; me: Participant }> {
  const { chat, me } = await requireVisibleChat(ctx, chatId);
  if (!me) throw new ForbiddenError(`Join channel ${chat.name ?? chat.id} first: only its participants may do this`);
  return { chat, me };
}

/** The owner of the chat, or a holder of `chat.chats.manage`. */
export function canModerate(ctx: ChatContext, me: Participant | null): boolean {
  return me?.role === 'owner' || ctx.permissions.has('chat.chats.manage');
}

function participantsOf(ctx: ChatContext, chatId: string): Promise<Participant[]> {
  return ctx.db.participants.findAll({ where: { chat_id: chatId }, order: [['member_id', 'ASC']] });
}

/** Every participant's member id (the live audience). */
export async function audienceOf(ctx: ChatContext, chatId: string): Promise<string[]> {
  return (await participantsOf(ctx, chatId)).map((row) => row.member_id);
}

/**
 * The live audience of a chat the caller takes part in, and the chat's id as stored, from one
 * read of its participants (the caller is among them); a chat they do not take part in is
 * requireParticipant's 404 (or 403 for a channel). Reads no chat row: a post locks it later.
 */
export async function requireAudience(ctx: ChatContext, chatId: string): Promise<{ chatId: string; audience: string[] }> {
  const rows = await participantsOf(ctx, chatId);
  if (rows.some((row) => row.member_id === ctx.member.id)) return { chatId: rows[0].chat_id, audience: rows.map((row) => row.member_id) };
  // requireParticipant says why; should the caller have joined since, their chat is read again.
  const { chat } = await requireParticipant(ctx, chatId);
  return { chatId: chat.id, audience: await audienceOf(ctx, chat.id) };
}

export interface CreateChatInput {
  type: ChatType;
  name?: string;
  topic?: string;
  participant_mrns?: string[];
}

/**
 * Starts a chat. A direct chat has exactly one other participant, and one pair has one direct chat:
 * asking again answers the existing one (`created: false`, no event). A group has 1 to
 * `max_group_participants - 1` others; a channel needs a name. The creator is the owner.
 */
export async function createChat(ctx: ChatContext, input: CreateChatInput): Promise<{ chat: Chat; created: boolean }> {
  const me = ctx.member.id;
  // The route checked that each names a member of the workspace.
  const others = [...new Set((input.participant_mrns ?? []).map((mrn) => memberIdFromMrn(mrn)!.toLowerCase()))].filter((id) => id !== me);
  const name = input.name?.trim() || null;
  let directKey: string | null = null;
  if (input.type === 'direct') {
    if (others.length !== 1) throw new InvalidError('participant_mrns: a direct chat has exactly one other participant');
    if (name) throw new InvalidError('name: a direct chat has no name');
    directKey = [me, others[0]].sort().join(':');
    await ctx.lock(`direct:${directKey}`);
    const existing = await ctx.db.chats.findOne({ where: { direct_key: directKey } });
    if (existing) return { chat: existing, created: false };
  } else if (input.type === 'group') {
    if (others.length < 1) throw new InvalidError('participant_mrns: a group chat needs at least one other participant');
    if (others.length + 1 > ctx.settings.max_group_participants) throw new InvalidError(`participant_mrns: a group chat has at most ${ctx.settings.max_group_participants} participants`);
  } else if (!name) {
    throw new InvalidError('name is required for a channel');
  }
  if (name && input.type === 'channel') {
    const channels = await ctx.db.chats.findAll({ where: { type: 'channel', name: { [Op.iLike]: likePattern(name, 'prefix') } } });
    if (channels.some((channel) => channel.name?.toLowerCase() === name.toLowerCase())) throw new InvalidError(`name: a channel named ${name} already exists`);
  }
  const chat = await conflictOnDuplicate(
    ctx.db.chats.create({ type: input.type, name, topic: input.topic ?? '', direct_key: directKey, creator_id: me }),
    'That direct chat was just started by someone else: read it again',
  );
  await ctx.db.participants.create({ chat_id: chat.id, member_id: me, role: 'owner' });
  for (const id of others) await ctx.db.participants.create({ chat_id: chat.id, member_id: id, role: input.type === 'direct' ? 'owner' : 'member' });
  const all = [me, ...others];
  ctx.events.stage('core.chat.chat.created', { chat_id: chat.id, type: chat.type, name: name ?? undefined, creator_mrn: memberMrn(me), participant_mrns: all.map(memberMrn) });
  for (const id of all) publishToMember(ctx, id, 'chat.created', presentChat(chat));
  return { chat, created: true };
}

export interface ChatListQuery {
  type?: ChatType;
  q?: string;
  favourite?: boolean;
  list_id?: string;
}

/** The caller's chats (the ones they take part in), most recently active first, with unread counts and favourite flags. */
export async function listChats(ctx: ChatContext, query: ChatListQuery) {
  const mine = await ctx.db.participants.findAll({ where: { member_id: ctx.member.id } });
  let ids = mine.map((row) => row.chat_id);
  const favourites = new Set((await ctx.db.favourites.findAll({ where: { member_id: ctx.member.id } })).map((row) => row.chat_id));
  if (query.favourite !== undefined) ids = ids.filter((id) => favourites.has(id) === query.favourite);
  if (query.list_id) {
    const list = await ctx.db.chatLists.findOne({ where: { id: query.list_id, member_id: ctx.member.id } });
    if (!list) throw new InvalidError(`list_id ${query.list_id} is not one of your chat lists`);
    const inList = new Set((await ctx.db.listChats.findAll({ where: { list_id: list.id } })).map((row) => row.chat_id));
    ids = ids.filter((id) => inList.has(id));
  }
  const where: Record<string | symbol, unknown> = { id: { [Op.in]: ids } };
  if (query.type) where.type = query.type;
  if (query.q) where.name = { [Op.iLike]: likePattern(query.q) };
  const { rows, count } = await ctx.db.chats.findAndCountAll({
    where,
    order: [['last_message_at', 'DESC NULLS LAST'], ['created_at', 'DESC'], ['id', 'ASC']],
    offset: ctx.page.offset,
    limit: ctx.page.limit,
  });
  const byChat = new Map(mine.map((row) => [row.chat_id, row]));
  const data = [];
  for (const chat of rows) {
    const me = byChat.get(chat.id)!;
    data.push(presentChat(chat, { role: me.role, favourite: favourites.has(chat.id), unread_count: await unreadCount(ctx, chat.id, me.last_read_seq) }));
  }
  return { data, count };
}

/** Messages after the read position that others sent (thread replies and tombstones do not count). */
export function unreadCount(ctx: ChatContext, chatId: string, lastReadSeq: number): Promise<number> {
  return ctx.db.messages.count({ where: { chat_id: chatId, seq: { [Op.gt]: lastReadSeq }, parent_id: null, deleted_at: null, sender_id: { [Op.ne]: ctx.member.id } } });
}

/** One chat as the caller sees it. */
export async function readChat(ctx: ChatContext, chatId: string) {
  const { chat, me } = await requireVisibleChat(ctx, chatId);
  const favourite = me ? (await ctx.db.favourites.findOne({ where: { member_id: ctx.member.id, chat_id: chat.id } })) !== null : false;
  return presentChat(chat, { role: me?.role ?? null, favourite, unread_count: me ? await unreadCount(ctx, chat.id, me.last_read_seq) : 0 });
}

/** UpdateChat: name and topic, by the chat's owner (or `chat.chats.manage`). A direct chat has neither. */
export async function updateChat(ctx: ChatContext, chatId: string, input: { name?: string; topic?: string }): Promise<Chat> {
  const { chat, me } = await requireVisibleChat(ctx, chatId);
  if (!canModerate(ctx, me)) throw new ForbiddenError('Only the chat\'s owner may change it');
  if (chat.type === 'direct') throw new InvalidError('A direct chat has no name or topic to change');
  const changes: { name?: string; topic?: string } = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (!name && chat.type === 'channel') throw new InvalidError('name: a channel needs a name');
    if (name !== (chat.name ?? '')) changes.name = name;
  }
  if (input.topic !== undefined && input.topic !== chat.topic) changes.topic = input.topic;
  if (Object.keys(changes).length === 0) return chat;
  await ctx.db.chats.update({ ...(changes.name !== undefined ? { name: changes.name || null } : {}), ...(changes.topic !== undefined ? { topic: changes.topic } : {}) }, { where: { id: chat.id } });
  const updated = (await ctx.db.chats.findById(chat.id))!;
  ctx.events.stage('core.chat.chat.updated', { chat_id: chat.id, changes, updated_by: ctx.member.mrn });
  publishToChat(ctx, chat.id, 'chat.updated', presentChat(updated), await audienceOf(ctx, chat.id));
  return updated;
}

/** Deletes a chat with its messages: its owner, or a holder of `chat.chats.delete`. */
export async function deleteChat(ctx: ChatContext, chatId: string): Promise<{ id: string; deleted: true }> {
  const { chat, me } = await requireVisibleChat(ctx, chatId);
  if (me?.role !== 'owner' && !ctx.permissions.has('chat.chats.delete')) throw new ForbiddenError('Cannot delete this chat');
  const audience = await audienceOf(ctx, chat.id);
  for (const message of await ctx.db.messages.findAll({ where: { chat_id: chat.id } })) ctx.search.remove('message', message.id);
  await ctx.db.chats.destroy({ where: { id: chat.id } });
  publishToChat(ctx, chat.id, 'chat.deleted', { id: chat.id }, audience, audience);
  return { id: chat.id, deleted: true };
}
