import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { CALL_MODES, CALL_STATUSES, CALL_TYPES, PARTICIPANT_ROLES, RECORDING_STATUSES } from '../models/index.js';

/**
 * The records the app answers with (services/present.ts builds them), declared on the routes
 * (`answers`) for the OpenAPI document, the typed client and the harness's response checks.
 */

export const PARTICIPANT: JoiObjectSchema = recordSchema({
  member_mrn: field.memberMrn(),
  role: Joi.string().valid(...PARTICIPANT_ROLES),
  in_session: Joi.boolean().description('True while the member is in the call'),
  joined_at: field.optionalInstant(),
  left_at: field.optionalInstant(),
}).id('CallsParticipant');

export const CALL: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  type: Joi.string().valid(...CALL_TYPES),
  mode: Joi.string().valid(...CALL_MODES),
  title: Joi.string(),
  status: Joi.string().valid(...CALL_STATUSES),
  creator_mrn: field.memberMrn(),
  source_mrn: Joi.string().allow(null).description('The chat or meeting the call was made for'),
  scheduled_at: field.optionalInstant(),
  started_at: field.optionalInstant(),
  ended_at: field.optionalInstant(),
  duration_seconds: Joi.number().integer().allow(null),
  participant_count: Joi.number().integer().description('Members who took part (set when the call ends)'),
  join_url: Joi.string(),
  participants: Joi.array().items(PARTICIPANT),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('CallsCall');

const ICE_SERVER = Joi.object({ urls: Joi.array().items(Joi.string()), username: Joi.string(), credential: Joi.string() });

export const SIGNALING_TICKET: JoiObjectSchema = recordSchema({
  url: Joi.string().description('The signaling websocket (docs/live-updates.md, "Signaling")'),
  session: Joi.string().description('Send it in the socket\'s join message'),
  ice_servers: Joi.array().items(ICE_SERVER),
}).id('CallsSignalingTicket');

export const JOINED: JoiObjectSchema = recordSchema({
  call: CALL,
  signaling: SIGNALING_TICKET,
  joined: Joi.boolean().description('False when the caller was in the call already'),
}).id('CallsJoined');

export const DELETED_CALL: JoiObjectSchema = recordSchema({ id: field.uuid(), deleted: Joi.boolean(), recordings_deleted: Joi.number().integer() }).id('CallsDeletedCall');

export const REMOVED_PARTICIPANT: JoiObjectSchema = recordSchema({ call_id: field.uuid(), member_mrn: field.memberMrn(), removed: Joi.boolean() }).id('CallsRemovedParticipant');

export const RECORDING: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  call_id: field.uuid(),
  status: Joi.string().valid(...RECORDING_STATUSES),
  storage_key: Joi.string(),
  content_type: Joi.string(),
  recorder_mrn: field.memberMrn(),
  duration_seconds: Joi.number().integer().allow(null),
  size_bytes: Joi.number().integer().allow(null),
  completed_at: field.optionalInstant(),
  download_url: Joi.string().allow(null).description('A signed link (five minutes) to a ready recording'),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('CallsRecording');

export const STARTED_RECORDING: JoiObjectSchema = RECORDING.keys({
  upload: Joi.object({ url: Joi.string(), method: Joi.string(), expires_at: Joi.string() }).required().description('PUT the file to url, then complete the recording'),
}).id('CallsStartedRecording');

export const DELETED_RECORDING: JoiObjectSchema = recordSchema({ id: field.uuid(), call_id: field.uuid(), deleted: Joi.boolean(), file_deleted: Joi.boolean() }).id('CallsDeletedRecording');

/** The caller's own permission keys in the app (`GET /calls/me/permissions`): what the front-end offers. */
export const MY_PERMISSIONS: JoiObjectSchema = recordSchema({ keys: Joi.array().items(Joi.string()).description('The calls.* keys the caller holds, sorted') }).id('CallsMyPermissions');
