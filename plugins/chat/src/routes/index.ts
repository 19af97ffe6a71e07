import { Joi, type RouteRateLimit } from '@wpk/sdk';
import { route } from '../kit.js';
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

/** Every route of the Chat app (the manifest's authorization table lists the same). */
export const routes = [
  route({
    method: 'GET',
    path: '/chats',
    chain: ['chat.chats.read'],
    answers: { collection: MY_CHAT },
    description: "Lists the caller's chats, most recently active first, with unread counts",
    validate: { query: Joi.listQuery({ type: Joi.string().valid(...CHAT_TYPES), q: Joi.string().max(200).allow(''), favourite: Joi.boolean(), list_id: id() }) },
    async handler(request, ctx) {
      const { data, count } = await listChats(ctx, request.query);
      return ctx.respond.collection(data, count);
    },
  }),
  route({
    method: 'POST',
    path: '/chats',
    chain: ['chat.chats.create'],
    answers: { single: STARTED_CHAT },
    description: 'Starts a chat: direct (one other participant; the existing one is answered again), group or channel',
    validate: {
      payload: Joi.object({
        type: Joi.string().valid(...CHAT_TYPES).required(),
        name: Joi.string().trim().max(200).allow(''),
        topic: Joi.string().max(1000).allow(''),
        participant_mrns: Joi.array().items(Joi.memberMrn()).max(1000),
      }),
    },
    async handler(request, ctx) {
      const { chat, created } = await createChat(ctx, request.payload);
      return ctx.respond.single({ ...(await readChat(ctx, chat.id)), created }, { self: `/chats/${chat.id}` });
    },
  }),
  route({
    method: 'GET',
    path: '/chats/{id}',
    chain: ['chat.chats.read'],
    answers: { single: MY_CHAT },
    description: 'Reads a chat (one the caller takes part in, or any channel)',
    validate: { params: Joi.idParams('id') },
    async handler(request, ctx) {
      return ctx.respond.single(await readChat(ctx, request.params.id), { messages: `/chats/${request.params.id}/messages`, participants: `/chats/${request.params.id}/participants` });
    },
  }),
  route({
    method: 'PATCH',
    path: '/chats/{id}',
    chain: ['chat.chats.read'],
    answers: { single: CHAT },
    description: "UpdateChat: the chat's name and topic (its owner)",
    validate: { params: Joi.idParams('id'), payload: Joi.object({ name: Joi.string().trim().max(200).allow(''), topic: Joi.string().max(1000).allow('') }).or('name', 'topic') },
    async handler(request, ctx) {
      return ctx.respond.single(presentChat(await updateChat(ctx, request.params.id, request.payload)));
    },
  }),
  route({
    method: 'DELETE',
    path: '/chats/{id}',
    chain: ['chat.chats.read'],
    answers: { single: DELETED },
    description: 'Deletes a chat and its messages (its owner, or chat.chats.delete)',
    validate: { params: Joi.idParams('id') },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteChat(ctx, request.params.id));
    },
  }),
  route({
    method: 'GET',
    path: '/chats/{id}/messages',
    chain: ['chat.messages.read'],
    answers: { collection: MESSAGE },
    description: "Lists a chat's messages, newest first; parent_id: a thread's replies, oldest first; before/after page by seq",
    validate: { params: Joi.idParams('id'), query: Joi.listQuery({ parent_id: id(), before: Joi.number().integer().min(0), after: Joi.number().integer().min(0) }) },
    async handler(request, ctx) {
      const { rows, count } = await listMessages(ctx, request.params.id, request.query);
      return ctx.respond.collection(rows, count);
    },
  }),
  route({
    method: 'POST',
    path: '/chats/{id}/messages',
    chain: ['chat.messages.send'],
    answers: { single: MESSAGE },
    description: 'SendMessage: text and/or a file of the app, optionally a reply in a thread; <@member_id> mentions',
    rateLimits: [POSTING_LIMIT],
    validate: {
      params: Joi.idParams('id'),
      payload: Joi.object({
        body: Joi.string().max(10000).allow(''),
        parent_id: id(),
        file: Joi.object({ file_key: Joi.string().min(1).max(1024).required(), filename: Joi.string().trim().min(1).max(255) }),
      }),
    },
    async handler(request, ctx) {
      const message = await sendMessage(ctx, request.params.id, request.payload);
      return ctx.respond.single(presentMessage(message, []), { self: `/chats/${request.params.id}/messages/${message.id}` });
    },
  }),
  route({
    method: 'POST',
    path: '/chats/{id}/uploads',
    chain: ['chat.messages.send'],
    answers: { single: UPLOAD },
    description: 'Gives a signed link (PUT, 15 minutes) to upload a file to share in the chat',
    validate: {
      params: Joi.idParams('id'),
      payload: Joi.object({
        filename: Joi.string().trim().min(1).max(255).required(),
        content_type: Joi.string().max(255).pattern(/^[\w.+-]+\/[\w.+-]+$/).messages({ 'string.pattern.base': '{#label} must be a media type (type/subtype)' }),
        size_bytes: Joi.number().integer().min(1),
      }),
    },
    async handler(request, ctx) {
      return ctx.respond.single(await createUpload(ctx, request.params.id, request.payload));
    },
  }),
  route({
    method: 'DELETE',
    path: '/chats/{id}/messages',
    chain: ['chat.chats.read'],
    answers: { single: CLEARED },
    description: "Clears the chat's history for everyone (its owner, or chat.chats.manage)",
    validate: { params: Joi.idParams('id') },
    async handler(request, ctx) {
      return ctx.respond.single(await clearHistory(ctx, request.params.id));
    },
  }),
  route({
    method: 'PATCH',
    path: '/chats/{id}/messages/{msg_id}',
    chain: ['chat.messages.send'],
    answers: { single: MESSAGE },
    description: "EditMessage: the sender changes the message's text",
    validate: { params: Joi.idParams('id', 'msg_id'), payload: Joi.object({ body: Joi.string().max(10000).allow('').required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(await presentOne(ctx, await editMessage(ctx, request.params.id, request.params.msg_id, request.payload.body)));
    },
  }),
  route({
    method: 'DELETE',
    path: '/chats/{id}/messages/{msg_id}',
    chain: ['chat.messages.send'],
    answers: { single: MESSAGE },
    description: "Deletes a message, leaving a tombstone (its sender, the chat's owner, or chat.messages.delete)",
    validate: { params: Joi.idParams('id', 'msg_id') },
    async handler(request, ctx) {
      return ctx.respond.single(presentMessage(await deleteMessage(ctx, request.params.id, request.params.msg_id), []));
    },
  }),
  route({
    method: 'POST',
    path: '/chats/{id}/messages/{msg_id}/reactions',
    chain: ['chat.messages.send'],
    answers: { single: MESSAGE },
    description: "Adds the caller's reaction to a message (the same emoji twice is one reaction)",
    validate: { params: Joi.idParams('id', 'msg_id'), payload: Joi.object({ emoji: emoji().required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(await addReaction(ctx, request.params.id, request.params.msg_id, request.payload.emoji));
    },
  }),
  route({
    method: 'DELETE',
    path: '/chats/{id}/messages/{msg_id}/reactions/{emoji}',
    chain: ['chat.messages.send'],
    answers: { single: MESSAGE },
    description: "Takes the caller's reaction back",
    validate: { params: Joi.object({ id: id().required(), msg_id: id().required(), emoji: emoji().required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(await removeReaction(ctx, request.params.id, request.params.msg_id, request.params.emoji));
    },
  }),
  route({
    method: 'PUT',
    path: '/chats/{id}/read',
    chain: ['chat.messages.read'],
    answers: { single: READ_POSITION },
    description: "Moves the caller's read position to a message (never backwards); answers the unread count left",
    validate: { params: Joi.idParams('id'), payload: Joi.object({ message_id: id().required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(await markRead(ctx, request.params.id, request.payload.message_id));
    },
  }),
  route({
    method: 'GET',
    path: '/chats/{id}/participants',
    chain: ['chat.chats.read'],
    answers: { collection: PARTICIPANT },
    description: "Lists a chat's participants, owners first",
    validate: { params: Joi.idParams('id'), query: Joi.listQuery() },
    async handler(request, ctx) {
      const { rows, count } = await listParticipants(ctx, request.params.id);
      return ctx.respond.collection(rows, count);
    },
  }),
  route({
    method: 'POST',
    path: '/chats/{id}/participants',
    chain: ['chat.chats.read'],
    answers: { single: PARTICIPANT },
    description: 'Adds a participant, or joins a channel (member_mrn: the caller)',
    validate: { params: Joi.idParams('id'), payload: Joi.object({ member_mrn: Joi.memberMrn().required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(presentParticipant(await addParticipant(ctx, request.params.id, request.payload.member_mrn)));
    },
  }),
  route({
    method: 'PATCH',
    path: '/chats/{id}/participants/{member_mrn}',
    chain: ['chat.chats.read'],
    answers: { single: PARTICIPANT },
    description: "UpdateParticipant: role (the owner) or muted (the participant themselves)",
    validate: { params: Joi.object({ id: id().required(), member_mrn: mrn().required() }), payload: Joi.object({ role: Joi.string().valid(...PARTICIPANT_ROLES), muted: Joi.boolean() }).or('role', 'muted') },
    async handler(request, ctx) {
      return ctx.respond.single(presentParticipant(await updateParticipant(ctx, request.params.id, request.params.member_mrn, request.payload)));
    },
  }),
  route({
    method: 'DELETE',
    path: '/chats/{id}/participants/{member_mrn}',
    chain: ['chat.chats.read'],
    answers: { single: REMOVED_PARTICIPANT },
    description: 'Removes a participant (the owner), or leaves (the participant themselves)',
    validate: { params: Joi.object({ id: id().required(), member_mrn: mrn().required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(await removeParticipant(ctx, request.params.id, request.params.member_mrn));
    },
  }),
  route({
    method: 'GET',
    path: '/chats/lists',
    chain: ['chat.lists.edit'],
    answers: { collection: CHAT_LIST },
    description: "Lists the caller's chat lists",
    validate: { query: Joi.listQuery() },
    async handler(_request, ctx) {
      const { data, count } = await listLists(ctx);
      return ctx.respond.collection(data, count);
    },
  }),
  route({
    method: 'POST',
    path: '/chats/lists',
    chain: ['chat.lists.edit'],
    answers: { single: CHAT_LIST },
    description: 'Creates a personal chat list',
    validate: { payload: Joi.object({ name: listName().required(), position: Joi.number().integer().min(0).max(1000) }) },
    async handler(request, ctx) {
      return ctx.respond.single(await createList(ctx, request.payload));
    },
  }),
  route({
    method: 'PATCH',
    path: '/chats/lists/{list_id}',
    chain: ['chat.lists.edit'],
    answers: { single: CHAT_LIST },
    description: 'UpdateChatList: renames or moves a list',
    validate: { params: Joi.idParams('list_id'), payload: Joi.object({ name: listName(), position: Joi.number().integer().min(0).max(1000) }).or('name', 'position') },
    async handler(request, ctx) {
      return ctx.respond.single(await updateList(ctx, request.params.list_id, request.payload));
    },
  }),
  route({
    method: 'DELETE',
    path: '/chats/lists/{list_id}',
    chain: ['chat.lists.edit'],
    answers: { single: DELETED },
    description: 'Deletes a list (its chats stay)',
    validate: { params: Joi.idParams('list_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteList(ctx, request.params.list_id));
    },
  }),
  route({
    method: 'PUT',
    path: '/chats/{id}/lists/{list_id}',
    chain: ['chat.lists.edit'],
    answers: { single: CHAT_LIST },
    description: 'Puts a chat in one of the caller\'s lists',
    validate: { params: Joi.idParams('id', 'list_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await putInList(ctx, request.params.id, request.params.list_id));
    },
  }),
  route({
    method: 'DELETE',
    path: '/chats/{id}/lists/{list_id}',
    chain: ['chat.lists.edit'],
    answers: { single: CHAT_LIST },
    description: 'Takes a chat out of a list',
    validate: { params: Joi.idParams('id', 'list_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await takeFromList(ctx, request.params.id, request.params.list_id));
    },
  }),
  route({
    method: 'PUT',
    path: '/chats/{id}/favourite',
    chain: ['chat.lists.edit'],
    answers: { single: FAVOURITE },
    description: 'Marks a chat favourite for the caller',
    validate: { params: Joi.idParams('id') },
    async handler(request, ctx) {
      return ctx.respond.single(await favourite(ctx, request.params.id));
    },
  }),
  route({
    method: 'DELETE',
    path: '/chats/{id}/favourite',
    chain: ['chat.lists.edit'],
    answers: { single: FAVOURITE },
    description: 'Unmarks a favourite chat',
    validate: { params: Joi.idParams('id') },
    async handler(request, ctx) {
      return ctx.respond.single(await unfavourite(ctx, request.params.id));
    },
  }),
  route({
    method: 'POST',
    path: '/chats/{id}/call-requests',
    chain: ['chat.calls.create'],
    answers: { single: CALL_REQUEST },
    description: "Asks the chat's participants to join a call (core.chat.call.requested)",
    validate: { params: Joi.idParams('id'), payload: Joi.object({ mode: Joi.string().valid('video', 'audio').required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(await requestCall(ctx, request.params.id, request.payload.mode));
    },
  }),
];
