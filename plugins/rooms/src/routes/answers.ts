import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { ROOM_ROLES, VISIBILITIES } from '../models/index.js';

/** The records the app answers with (services/present.ts builds them), for OpenAPI, the client and the tests' checks. */

export const ROOM: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  name: Joi.string(),
  description: Joi.string().allow(''),
  visibility: Joi.string().valid(...VISIBILITIES),
  locked: Joi.boolean().description('Only owners and moderators may join its session'),
  max_participants: Joi.number().integer(),
  creator_mrn: field.memberMrn(),
  role: Joi.string().valid(...ROOM_ROLES).allow(null).description("The caller's role in the room; null: not a member"),
  member_count: Joi.number().integer(),
  present_mrns: Joi.array().items(field.memberMrn()).description("Who is in the room's session, by when they joined"),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('RoomsRoom');

export const ROOM_DELETED: JoiObjectSchema = recordSchema({ id: field.uuid(), deleted: Joi.boolean().valid(true) }).id('RoomsRoomDeleted');

export const ROOM_MEMBER: JoiObjectSchema = recordSchema({
  room_id: field.uuid(),
  member_id: field.uuid(),
  member_mrn: field.memberMrn(),
  role: Joi.string().valid(...ROOM_ROLES),
  present: Joi.boolean().description("In the room's session now"),
  added_by_mrn: field.memberMrn().allow(null),
  added_at: field.instant(),
  updated_at: field.instant(),
}).id('RoomsMember');

export const ROOM_MEMBER_REMOVED: JoiObjectSchema = recordSchema({ room_id: field.uuid(), member_mrn: field.memberMrn(), removed: Joi.boolean().valid(true) }).id('RoomsMemberRemoved');

const ICE_SERVER = Joi.object({ urls: Joi.array().items(Joi.string()).required(), username: Joi.string(), credential: Joi.string() });

export const SESSION_JOINED: JoiObjectSchema = recordSchema({
  room_id: field.uuid(),
  member_mrn: field.memberMrn(),
  joined_at: field.instant(),
  signaling: Joi.object({ url: Joi.string().required(), session: Joi.string().required(), ice_servers: Joi.array().items(ICE_SERVER).required() }).description('Open the signaling socket at url and join session'),
  present_mrns: Joi.array().items(field.memberMrn()),
}).id('RoomsSessionJoined');

export const SESSION_LEFT: JoiObjectSchema = recordSchema({ room_id: field.uuid(), member_mrn: field.memberMrn(), left: Joi.boolean().valid(true), present_mrns: Joi.array().items(field.memberMrn()) }).id('RoomsSessionLeft');
