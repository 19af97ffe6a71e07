import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { CHAT_TYPES, PARTICIPANT_ROLES } from '../models/index.js';

/**
 * The records the Chat app answers with (services/present.ts builds them), as the routes declare
 * them (`answers`): they go into the OpenAPI document and the typed client, and the test harness
 * checks every answer of the app's tests against them.
 */

const CHAT_KEYS = {
  id: field.uuid(),
  type: Joi.string().valid(...CHAT_TYPES),
  name: Joi.string().allow('', null),
  topic: Joi.string().allow('', null),
  creator_mrn: field.memberMrn(),
  last_seq: Joi.number().integer().min(0).description('The seq of the newest message (0: none yet)'),
  last_message_at: field.instant().allow(null),
  created_at: field.instant(),
  updated_at: field.instant(),
};

/** A chat as `PATCH /chats/{id}` answers it (no per-caller fields). */
export const CHAT: JoiObjectSchema = recordSchema(CHAT_KEYS).id('ChatChat');

/** A chat as the caller sees it: with their role, favourite mark and unread count. */
export const MY_CHAT: JoiObjectSchema = recordSchema({
  ...CHAT_KEYS,
  role: Joi.string().valid(...PARTICIPANT_ROLES).allow(null).description("The caller's role; null in a channel they have not joined"),
  favourite: Joi.boolean(),
  unread_count: Joi.number().integer().min(0),
}).id('ChatChatForMember');

/** `POST /chats`: the chat, and whether it was made now (a direct chat that exists is answered again). */
export const STARTED_CHAT: JoiObjectSchema = MY_CHAT.keys({ created: Joi.boolean().required() }).id('ChatStartedChat');

const REACTION = recordSchema({ emoji: Joi.string(), count: Joi.number().integer().min(1), member_mrns: Joi.array().items(field.memberMrn()) });
const FILE = recordSchema({ file_key: Joi.string(), filename: Joi.string(), content_type: Joi.string(), size_bytes: Joi.number().integer().min(0) });

export const MESSAGE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  chat_id: field.uuid(),
  seq: Joi.number().integer().min(1),
  sender_mrn: field.memberMrn(),
  body: Joi.string().allow('', null).description('Null once deleted'),
  parent_id: field.uuid().allow(null).description('The thread a reply belongs to'),
  reply_count: Joi.number().integer().min(0),
  file: FILE.allow(null),
  mention_mrns: Joi.array().items(field.memberMrn()),
  reactions: Joi.array().items(REACTION),
  deleted: Joi.boolean(),
  edited_at: field.instant().allow(null),
  deleted_at: field.instant().allow(null),
  created_at: field.instant(),
}).id('ChatMessage');

export const PARTICIPANT: JoiObjectSchema = recordSchema({
  member_mrn: field.memberMrn(),
  member_id: field.uuid(),
  role: Joi.string().valid(...PARTICIPANT_ROLES),
  muted: Joi.boolean(),
  last_read_seq: Joi.number().integer().min(0),
  joined_at: field.instant(),
}).id('ChatParticipant');

export const CHAT_LIST: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  name: Joi.string(),
  position: Joi.number().integer().min(0),
  chat_ids: Joi.array().items(field.uuid()),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('ChatList');

export const DELETED: JoiObjectSchema = recordSchema({ id: field.uuid(), deleted: Joi.boolean().valid(true) }).id('ChatDeleted');
export const CLEARED: JoiObjectSchema = recordSchema({ chat_id: field.uuid(), deleted_messages: Joi.number().integer().min(0) }).id('ChatHistoryCleared');
export const READ_POSITION: JoiObjectSchema = recordSchema({ chat_id: field.uuid(), last_read_seq: Joi.number().integer().min(0), unread_count: Joi.number().integer().min(0) }).id('ChatReadPosition');
export const REMOVED_PARTICIPANT: JoiObjectSchema = recordSchema({ member_mrn: field.memberMrn(), removed: Joi.boolean().valid(true) }).id('ChatParticipantRemoved');
export const FAVOURITE: JoiObjectSchema = recordSchema({ chat_id: field.uuid(), favourite: Joi.boolean() }).id('ChatFavourite');
export const UPLOAD: JoiObjectSchema = recordSchema({
  file_key: Joi.string().description('Send it as `file.file_key` of a message once the file is uploaded'),
  filename: Joi.string(),
  upload: recordSchema({ url: Joi.string().uri(), method: Joi.string().valid('PUT'), expires_at: field.instant() }),
}).id('ChatUpload');
export const CALL_REQUEST: JoiObjectSchema = recordSchema({
  chat_id: field.uuid(),
  chat_name: Joi.string(),
  participant_mrns: Joi.array().items(field.memberMrn()),
  mode: Joi.string().valid('video', 'audio'),
  requested_by: field.memberMrn(),
}).id('ChatCallRequest');
