import { Joi, type RouteRateLimit } from '@wpk/sdk';
import { routeFamily } from '../kit.js';
import { CHAT_TYPES, PARTICIPANT_ROLES } from '../models/index.js';
import { createChat, deleteChat, listChats, readChat, updateChat } from '../services/chats.js';
import { createList, deleteList, favourite, listLists, putInList, takeFromList, unfavourite, updateList } from '../services/lists.js';
import { addReaction, clearHistory, createUpload, deleteMessage, editMessage, listMessages, markRead, presentOne, removeReaction, sendMessage } from '../services/messages.js';
import { addParticipant, listParticipants, removeParticipant, requestCall, updateParticipant } from '../services/participants.js';
import { presentChat, presentMessage, presentParticipant } from '../services/present.js';
import { CALL_REQUEST, CHAT, CHAT_LIST, CLEARED, DELETED, FAVOURITE, MESSAGE, MY_CHAT, PARTICIPANT, READ_POSITION, REMOVED_PARTICIPANT, STARTED_CHAT, UPLOAD } from './answers.js';

const id = () => Joi.id();
const mrn = () => Joi.string().max(200);
const emoji = () => Joi.string().min(1).max(64).pattern(/^\S+$/).messages({ 'string.pattern.base': '{#label} must be one emoji or :shortcode: without spaces' });
const listName = () => Joi.string().trim().min(1).max(80);

/**
 * A member posts at most 120 messages a minute in a workspace, across chats (2 a second
 * sustained, with room for a burst); more is a script gone wrong or spam (docs/decisions/0153-chat.md).
 */
export const POSTING_LIMIT: RouteRateLimit = { name: 'post-messages', per: 'member', limit: 120, windowSeconds: 60, message: 'You are sending messages too fast; wait a moment and try again' };

const chats = routeFamily('/chats', { record: MY_CHAT });
const chat = chats.at('/{id}', { params: Joi.idParams('id') });
const messages = chat.at('/messages', { record: MESSAGE });
const message = messages.at('/{msg_id}', { params: Joi.idParams('id', 'msg_id') });
const participants = chat.at('/participants', { record: PARTICIPANT });
const participant = participants.at('/{member_mrn}', { params: Joi.object({ id: id().required(), member_mrn: mrn().required() }) });
const lists = chats.at('/lists', { record: CHAT_LIST });
const chatList = lists.at('/{list_id}', { params: Joi.idParams('list_id') });
const chatInList = chat.at('/lists/{list_id}', { params: Joi.idParams('id', 'list_id'), record: CHAT_LIST });
const chatFavourite = chat.at('/favourite', { record: FAVOURITE });

/** Every route of the Chat app (the manifest's authorization table lists the same). */
export const routes = [
  chats.list({
    chain: ['chat.chats.read'],
    description: "Lists the caller's chats, most recently active first, with unread counts",
    query: Joi.listQuery({ type: Joi.string().valid(...CHAT_TYPES), q: Joi.string().max(200).allow(''), favourite: Joi.boolean(), list_id: id() }),
    async handler(request, ctx) {
      const { data, count } = await listChats(ctx, request.query);
      return ctx.respond.collection(data, count);
    },
  }),
  chats.post({
    chain: ['chat.chats.create'],
    answers: { single: STARTED_CHAT },
    description: 'Starts a chat: direct (one other participant; the existing one is answered again), group or channel',
    payload: Joi.object({
      type: Joi.string().valid(...CHAT_TYPES).required(),
      name: Joi.string().trim().max(200).allow(''),
      topic: Joi.string().max(1000).allow(''),
      participant_mrns: Joi.array().items(Joi.memberMrn()).max(1000),
    }),
    async handler(request, ctx) {
      const { chat, created } = await createChat(ctx, request.payload);
      return ctx.respond.single({ ...(await readChat(ctx, chat.id)), created }, { self: `/chats/${chat.id}` });
    },
  }),
  chat.get({
    chain: ['chat.chats.read'],
    description: 'Reads a chat (one the caller takes part in, or any channel)',
    async handler(request, ctx) {
      return ctx.respond.single(await readChat(ctx, request.params.id), { messages: `/chats/${request.params.id}/messages`, participants: `/chats/${request.params.id}/participants` });
    },
  }),
  chat.patch({
    chain: ['chat.chats.read'],
    answers: { single: CHAT },
    description: "UpdateChat: the chat's name and topic (its owner)",
    payload: Joi.object({ name: Joi.string().trim().max(200).allow(''), topic: Joi.string().max(1000).allow('') }).or('name', 'topic'),
    async handler(request, ctx) {
      return ctx.respond.single(presentChat(await updateChat(ctx, request.params.id, request.payload)));
    },
  }),
  chat.delete({
    chain: ['chat.chats.read'],
    answers: { single: DELETED },
    description: 'Deletes a chat and its messages (its owner, or chat.chats.delete)',
    run: (request, ctx) => deleteChat(ctx, request.params.id),
  }),
  messages.list({
    chain: ['chat.messages.read'],
    description: "Lists a chat's messages, newest first; parent_id: a thread's replies, oldest first; before/after page by seq",
    query: Joi.listQuery({ parent_id: id(), before: Joi.number().integer().min(0), after: Joi.number().integer().min(0) }),
    run: (request, ctx) => listMessages(ctx, request.params.id, request.query),
  }),
  messages.post({
    chain: ['chat.messages.send'],
    description: 'SendMessage: text and/or a file of the app, optionally a reply in a thread; <@member_id> mentions',
    payload: Joi.object({
      body: Joi.string().max(10000).allow(''),
      parent_id: id(),
      file: Joi.object({ file_key: Joi.string().min(1).max(1024).required(), filename: Joi.string().trim().min(1).max(255) }),
    }),
    rateLimits: [POSTING_LIMIT],
    async handler(request, ctx) {
      const message = await sendMessage(ctx, request.params.id, request.payload);
      return ctx.respond.single(presentMessage(message, []), { self: `/chats/${request.params.id}/messages/${message.id}` });
    },
  }),
  chat.at('/uploads').post({
    chain: ['chat.messages.send'],
    answers: { single: UPLOAD },
    description: 'Gives a signed link (PUT, 15 minutes) to upload a file to share in the chat',
    payload: Joi.object({
      filename: Joi.string().trim().min(1).max(255).required(),
      content_type: Joi.string().max(255).pattern(/^[\w.+-]+\/[\w.+-]+$/).messages({ 'string.pattern.base': '{#label} must be a media type (type/subtype)' }),
      size_bytes: Joi.number().integer().min(1),
    }),
    run: (request, ctx) => createUpload(ctx, request.params.id, request.payload),
  }),
  messages.delete({
    chain: ['chat.chats.read'],
    answers: { single: CLEARED },
    description: "Clears the chat's history for everyone (its owner, or chat.chats.manage)",
    run: (request, ctx) => clearHistory(ctx, request.params.id),
  }),
  message.patch({
    chain: ['chat.messages.send'],
    description: "EditMessage: the sender changes the message's text",
    payload: Joi.object({ body: Joi.string().max(10000).allow('').required() }),
    run: async (request, ctx) => presentOne(ctx, await editMessage(ctx, request.params.id, request.params.msg_id, request.payload.body)),
  }),
  message.delete({
    chain: ['chat.messages.send'],
    description: "Deletes a message, leaving a tombstone (its sender, the chat's owner, or chat.messages.delete)",
    async handler(request, ctx) {
      return ctx.respond.single(presentMessage(await deleteMessage(ctx, request.params.id, request.params.msg_id), []));
    },
  }),
  message.at('/reactions').post({
    chain: ['chat.messages.send'],
    description: "Adds the caller's reaction to a message (the same emoji twice is one reaction)",
    payload: Joi.object({ emoji: emoji().required() }),
    run: (request, ctx) => addReaction(ctx, request.params.id, request.params.msg_id, request.payload.emoji),
  }),
  message.at('/reactions/{emoji}', { params: Joi.object({ id: id().required(), msg_id: id().required(), emoji: emoji().required() }) }).delete({
    chain: ['chat.messages.send'],
    description: "Takes the caller's reaction back",
    run: (request, ctx) => removeReaction(ctx, request.params.id, request.params.msg_id, request.params.emoji),
  }),
  chat.at('/read').put({
    chain: ['chat.messages.read'],
    answers: { single: READ_POSITION },
    description: "Moves the caller's read position to a message (never backwards); answers the unread count left",
    payload: Joi.object({ message_id: id().required() }),
    run: (request, ctx) => markRead(ctx, request.params.id, request.payload.message_id),
  }),
  participants.list({
    chain: ['chat.chats.read'],
    description: "Lists a chat's participants, owners first",
    query: Joi.listQuery(),
    run: (request, ctx) => listParticipants(ctx, request.params.id),
  }),
  participants.post({
    chain: ['chat.chats.read'],
    description: 'Adds a participant, or joins a channel (member_mrn: the caller)',
    payload: Joi.object({ member_mrn: Joi.memberMrn().required() }),
    async handler(request, ctx) {
      return ctx.respond.single(presentParticipant(await addParticipant(ctx, request.params.id, request.payload.member_mrn)));
    },
  }),
  participant.patch({
    chain: ['chat.chats.read'],
    description: "UpdateParticipant: role (the owner) or muted (the participant themselves)",
    payload: Joi.object({ role: Joi.string().valid(...PARTICIPANT_ROLES), muted: Joi.boolean() }).or('role', 'muted'),
    async handler(request, ctx) {
      return ctx.respond.single(presentParticipant(await updateParticipant(ctx, request.params.id, request.params.member_mrn, request.payload)));
    },
  }),
  participant.delete({
    chain: ['chat.chats.read'],
    answers: { single: REMOVED_PARTICIPANT },
    description: 'Removes a participant (the owner), or leaves (the participant themselves)',
    run: (request, ctx) => removeParticipant(ctx, request.params.id, request.params.member_mrn),
  }),
  lists.list({
    chain: ['chat.lists.edit'],
    description: "Lists the caller's chat lists",
    query: Joi.listQuery(),
    async handler(_request, ctx) {
      const { data, count } = await listLists(ctx);
      return ctx.respond.collection(data, count);
    },
  }),
  lists.post({
    chain: ['chat.lists.edit'],
    description: 'Creates a personal chat list',
    payload: Joi.object({ name: listName().required(), position: Joi.number().integer().min(0).max(1000) }),
    run: (request, ctx) => createList(ctx, request.payload),
  }),
  chatList.patch({
    chain: ['chat.lists.edit'],
    description: 'UpdateChatList: renames or moves a list',
    payload: Joi.object({ name: listName(), position: Joi.number().integer().min(0).max(1000) }).or('name', 'position'),
    run: (request, ctx) => updateList(ctx, request.params.list_id, request.payload),
  }),
  chatList.delete({
    chain: ['chat.lists.edit'],
    answers: { single: DELETED },
    description: 'Deletes a list (its chats stay)',
    run: (request, ctx) => deleteList(ctx, request.params.list_id),
  }),
  chatInList.put({
    chain: ['chat.lists.edit'],
    description: 'Puts a chat in one of the caller\'s lists',
    run: (request, ctx) => putInList(ctx, request.params.id, request.params.list_id),
  }),
  chatInList.delete({
    chain: ['chat.lists.edit'],
    description: 'Takes a chat out of a list',
    run: (request, ctx) => takeFromList(ctx, request.params.id, request.params.list_id),
  }),
  chatFavourite.put({
    chain: ['chat.lists.edit'],
    description: 'Marks a chat favourite for the caller',
    run: (request, ctx) => favourite(ctx, request.params.id),
  }),
  chatFavourite.delete({
    chain: ['chat.lists.edit'],
    description: 'Unmarks a favourite chat',
    run: (request, ctx) => unfavourite(ctx, request.params.id),
  }),
  chat.at('/call-requests').post({
    chain: ['chat.calls.create'],
    answers: { single: CALL_REQUEST },
    description: "Asks the chat's participants to join a call (core.chat.call.requested)",
    payload: Joi.object({ mode: Joi.string().valid('video', 'audio').required() }),
    run: (request, ctx) => requestCall(ctx, request.params.id, request.payload.mode),
  }),
];
