import { conflictOnDuplicate, InvalidError, isUuid, likePattern, NotFoundError, Op } from '@wpk/sdk';
import type { ChatContext } from '../kit.js';
import type { ChatList } from '../models/index.js';
import { requireParticipant } from './chats.js';
import { presentList } from './present.js';

/** The caller's list, or 404 (another member's lists do not exist for them). */
async function requireList(ctx: ChatContext, listId: string): Promise<ChatList> {
  const list = isUuid(listId) ? await ctx.db.chatLists.findOne({ where: { id: listId, member_id: ctx.member.id } }) : null;
  if (!list) throw new NotFoundError(`Chat list ${listId} not found`);
  return list;
}

async function present(ctx: ChatContext, list: ChatList) {
  const rows = await ctx.db.listChats.findAll({ where: { list_id: list.id }, order: [['created_at', 'ASC'], ['chat_id', 'ASC']] });
  return presentList(list, rows.map((row) => row.chat_id));
}

export async function listLists(ctx: ChatContext) {
  const { rows, count } = await ctx.db.chatLists.findAndCountAll({ where: { member_id: ctx.member.id }, order: [['position', 'ASC'], ['created_at', 'ASC'], ['id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
  const data = [];
  for (const list of rows) data.push(await present(ctx, list));
  return { data, count };
}

const MAX_LISTS = 50;

/** A personal list (names unique per member, case-insensitively; at most 50 lists). */
export async function createList(ctx: ChatContext, input: { name: string; position?: number }) {
  const count = await ctx.db.chatLists.count({ where: { member_id: ctx.member.id } });
  if (count >= MAX_LISTS) throw new InvalidError(`You have ${MAX_LISTS} chat lists already`);
  await assertFreeName(ctx, input.name, null);
  const list = await conflictOnDuplicate(ctx.db.chatLists.create({ member_id: ctx.member.id, name: input.name, position: input.position ?? count }), `You already have a list named ${input.name}`);
  return present(ctx, list);
}

async function assertFreeName(ctx: ChatContext, name: string, except: string | null): Promise<void> {
  const lists = await ctx.db.chatLists.findAll({ where: { member_id: ctx.member.id, name: { [Op.iLike]: likePattern(name, 'prefix') } } });
  if (lists.some((list) => list.id !== except && list.name.toLowerCase() === name.toLowerCase())) throw new InvalidError(`name: you already have a list named ${name}`);
}

/** UpdateChatList: rename and/or move. */
export async function updateList(ctx: ChatContext, listId: string, input: { name?: string; position?: number }) {
  const list = await requireList(ctx, listId);
  if (input.name !== undefined) await assertFreeName(ctx, input.name, list.id);
  await ctx.db.chatLists.update({ ...(input.name !== undefined ? { name: input.name } : {}), ...(input.position !== undefined ? { position: input.position } : {}) }, { where: { id: list.id } });
  return present(ctx, (await ctx.db.chatLists.findById(list.id))!);
}

export async function deleteList(ctx: ChatContext, listId: string) {
  const list = await requireList(ctx, listId);
  await ctx.db.chatLists.destroy({ where: { id: list.id } });
  return { id: list.id, deleted: true };
}

/** Puts a chat the caller takes part in into one of their lists (idempotent). */
export async function putInList(ctx: ChatContext, chatId: string, listId: string) {
  const { chat } = await requireParticipant(ctx, chatId);
  const list = await requireList(ctx, listId);
  await ctx.db.listChats.upsert({ list_id: list.id, chat_id: chat.id }, { conflictFields: ['list_id', 'chat_id'], update: [] });
  return present(ctx, list);
}

export async function takeFromList(ctx: ChatContext, chatId: string, listId: string) {
  const list = await requireList(ctx, listId);
  const removed = await ctx.db.listChats.destroy({ where: { list_id: list.id, chat_id: chatId } });
  if (removed === 0) throw new NotFoundError(`Chat ${chatId} is not in list ${list.name}`);
  return present(ctx, list);
}

/** Marks a chat favourite (idempotent). */
export async function favourite(ctx: ChatContext, chatId: string) {
  const { chat } = await requireParticipant(ctx, chatId);
  await ctx.db.favourites.upsert({ member_id: ctx.member.id, chat_id: chat.id }, { conflictFields: ['member_id', 'chat_id'], update: [] });
  return { chat_id: chat.id, favourite: true };
}

export async function unfavourite(ctx: ChatContext, chatId: string) {
  const { chat } = await requireParticipant(ctx, chatId);
  await ctx.db.favourites.destroy({ where: { member_id: ctx.member.id, chat_id: chat.id } });
  return { chat_id: chat.id, favourite: false };
}
