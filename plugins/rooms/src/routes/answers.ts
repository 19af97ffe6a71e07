import { Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { ROOM_ROLES, VISIBILITIES } from '../models/index.js';

/** The records the app answers with (services/present.ts builds them), for OpenAPI, the client and the tests' checks. */

const uuid = () => Joi.string().guid();
const instant = () => Joi.date().iso();
const memberMrn = () => Joi.string().pattern(/^mrn:account:member:/);

export const ROOM: JoiObjectSchema = recordSchema({
  id: uuid(),
  name: Joi.string(),
  description: Joi.string().allow(''),
  visibility: Joi.string().valid(...VISIBILITIES),
  locked: Joi.boolean().description('Only owners and moderators may join its session'),
  max_participants: Joi.number().integer(),
  creator_mrn: memberMrn(),
  role: Joi.string().valid(...ROOM_ROLES).allow(null).description("The caller's role in the room; null: not a member"),
  member_count: Joi.number().integer(),
  present_mrns: Joi.array().items(memberMrn()).description("Who is in the room's session, by when they joined"),
  created_at: instant(),
  updated_at: instant(),
}).id('RoomsRoom');

export const ROOM_DELETED: JoiObjectSchema = recordSchema({ id: uuid(), deleted: Joi.boolean().valid(true) }).id('RoomsRoomDeleted');

export const ROOM_MEMBER: JoiObjectSchema = recordSchema({
  room_id: uuid(),
  member_id: uuid(),
  member_mrn: memberMrn(),
  role: Joi.string().valid(...ROOM_ROLES),
  present: Joi.boolean().description("In the room's session now"),
  added_by_mrn: memberMrn().allow(null),
  added_at: instant(),
  updated_at: instant(),
}).id('RoomsMember');

export const ROOM_MEMBER_REMOVED: JoiObjectSchema = recordSchema({ room_id: uuid(), member_mrn: memberMrn(), removed: Joi.boolean().valid(true) }).id('RoomsMemberRemoved');

const ICE_SERVER = Joi.object({ urls: Joi.array().items(Joi.string()).required(), username: Joi.string(), credential: Joi.string() });

export const SESSION_JOINED: JoiObjectSchema = recordSchema({
  room_id: uuid(),
  member_mrn: memberMrn(),
  joined_at: instant(),
  signaling: Joi.object({ url: Joi.string().required(), session: Joi.string().required(), ice_servers: Joi.array().items(ICE_SERVER).required() }).description('Open the signaling socket at url and join session'),
  present_mrns: Joi.array().items(memberMrn()),
}).id('RoomsSessionJoined');

export const SESSION_LEFT: JoiObjectSchema = recordSchema({ room_id: uuid(), member_mrn: memberMrn(), left: Joi.boolean().valid(true), present_mrns: Joi.array().items(memberMrn()) }).id('RoomsSessionLeft');
