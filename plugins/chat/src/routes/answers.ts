import { Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { CHAT_TYPES, PARTICIPANT_ROLES } from '../models/index.js';

/**
 * The records the Chat app answers with (services/present.ts builds them), as the routes declare
 * them (`answers`): they go into the OpenAPI document and the typed client, and the test harness
 * checks every answer of the app's tests against them.
 */

const uuid = () => Joi.string().guid();
const instant = () => Joi.date().iso();
const memberMrn = () => Joi.string().pattern(/^mrn:account:member:/);

const CHAT_KEYS = {
  id: uuid(),
  type: Joi.string().valid(...CHAT_TYPES),
  name: Joi.string().allow('', null),
  topic: Joi.string().allow('', null),
  creator_mrn: memberMrn(),
  last_seq: Joi.number().integer().min(0).description('The seq of the newest message (0: none yet)'),
  last_message_at: instant().allow(null),
  created_at: instant(),
  updated_at: instant(),
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

const REACTION = recordSchema({ emoji: Joi.string(), count: Joi.number().integer().min(1), member_mrns: Joi.array().items(memberMrn()) });
const FILE = recordSchema({ file_key: Joi.string(), filename: Joi.string(), content_type: Joi.string(), size_bytes: Joi.number().integer().min(0) });

export const MESSAGE: JoiObjectSchema = recordSchema({
  id: uuid(),
  chat_id: uuid(),
  seq: Joi.number().integer().min(1),
  sender_mrn: memberMrn(),
  body: Joi.string().allow('', null).description('Null once deleted'),
  parent_id: uuid().allow(null).description('The thread a reply belongs to'),
  reply_count: Joi.number().integer().min(0),
  file: FILE.allow(null),
  mention_mrns: Joi.array().items(memberMrn()),
  reactions: Joi.array().items(REACTION),
  deleted: Joi.boolean(),
  edited_at: instant().allow(null),
  deleted_at: instant().allow(null),
  created_at: instant(),
}).id('ChatMessage');

export const PARTICIPANT: JoiObjectSchema = recordSchema({
  member_mrn: memberMrn(),
  member_id: uuid(),
  role: Joi.string().valid(...PARTICIPANT_ROLES),
  muted: Joi.boolean(),
  last_read_seq: Joi.number().integer().min(0),
  joined_at: instant(),
}).id('ChatParticipant');

export const CHAT_LIST: JoiObjectSchema = recordSchema({
  id: uuid(),
  name: Joi.string(),
  position: Joi.number().integer().min(0),
  chat_ids: Joi.array().items(uuid()),
  created_at: instant(),
  updated_at: instant(),
}).id('ChatList');

export const DELETED: JoiObjectSchema = recordSchema({ id: uuid(), deleted: Joi.boolean().valid(true) }).id('ChatDeleted');
export const CLEARED: JoiObjectSchema = recordSchema({ chat_id: uuid(), deleted_messages: Joi.number().integer().min(0) }).id('ChatHistoryCleared');
export const READ_POSITION: JoiObjectSchema = recordSchema({ chat_id: uuid(), last_read_seq: Joi.number().integer().min(0), unread_count: Joi.number().integer().min(0) }).id('ChatReadPosition');
export const REMOVED_PARTICIPANT: JoiObjectSchema = recordSchema({ member_mrn: memberMrn(), removed: Joi.boolean().valid(true) }).id('ChatParticipantRemoved');
export const FAVOURITE: JoiObjectSchema = recordSchema({ chat_id: uuid(), favourite: Joi.boolean() }).id('ChatFavourite');
export const UPLOAD: JoiObjectSchema = recordSchema({
  file_key: Joi.string().description('Send it as `file.file_key` of a message once the file is uploaded'),
  filename: Joi.string(),
  upload: recordSchema({ url: Joi.string().uri(), method: Joi.string().valid('PUT'), expires_at: instant() }),
}).id('ChatUpload');
export const CALL_REQUEST: JoiObjectSchema = recordSchema({
  chat_id: uuid(),
  chat_name: Joi.string(),
  participant_mrns: Joi.array().items(memberMrn()),
  mode: Joi.string().valid('video', 'audio'),
  requested_by: memberMrn(),
}).id('ChatCallRequest');
