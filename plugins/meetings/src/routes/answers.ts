import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { MEETING_STATUSES, PRESIGNATION_STATUSES, PURPOSES, RSVP_STATUSES } from '../models/index.js';

/** The records the app answers with (services/present.ts builds them), for OpenAPI, the client and the tests' checks. */


export const ATTENDEE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  meeting_id: field.uuid(),
  member_mrn: field.memberMrn().allow(null).description('Null: an outside attendee, known by email'),
  email: Joi.string().allow(null).description('The address invitations go to, when given (outside attendees always)'),
  name: Joi.string().allow(null),
  status: Joi.string().valid(...RSVP_STATUSES),
  responded_at: field.optionalInstant(),
  added_by_mrn: field.memberMrn(),
  added_at: field.instant(),
}).id('MeetingsAttendee');

export const FILE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  meeting_id: field.uuid(),
  presignation_id: field.uuid(),
  purpose: Joi.string().valid(...PURPOSES),
  filename: Joi.string(),
  content_type: Joi.string(),
  size_bytes: Joi.number().integer(),
  sha256: Joi.string(),
  uploaded_by_mrn: field.memberMrn(),
  uploaded_at: field.instant(),
}).id('MeetingsFile');

export const FILE_DOWNLOAD: JoiObjectSchema = FILE.keys({ download: Joi.object({ url: Joi.string().required(), method: Joi.string().valid('GET').required(), expires_at: field.instant().required() }).required() }).id('MeetingsFileDownload');

export const MEETING: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  mrn: Joi.string().pattern(/^mrn:meetings:meeting:/),
  title: Joi.string(),
  description: Joi.string().allow(''),
  location: Joi.string().allow(''),
  source_mrn: Joi.string().allow(null).description("What the meeting is for: another app's record, named when it was scheduled"),
  starts_at: field.instant(),
  ends_at: field.instant(),
  status: Joi.string().valid(...MEETING_STATUSES),
  sequence: Joi.number().integer().description('The iCalendar SEQUENCE of the last invitation, update or cancellation mailed'),
  organizer_mrn: field.memberMrn(),
  attendees: Joi.array().items(ATTENDEE),
  call: Joi.object({ call_id: Joi.string().required(), join_url: Joi.string().allow(null).required(), scheduled_at: field.optionalInstant().required() }).allow(null).description("The meeting's call, once the calls app made it"),
  files: Joi.array().items(FILE),
  cancelled_at: field.optionalInstant(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('MeetingsMeeting');

export const ATTENDEE_REMOVED: JoiObjectSchema = recordSchema({ meeting_id: field.uuid(), attendee_id: field.uuid(), removed: Joi.boolean().valid(true), sequence: Joi.number().integer() }).id('MeetingsAttendeeRemoved');

export const PRESIGNATION: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  meeting_id: field.uuid(),
  purpose: Joi.string().valid(...PURPOSES),
  filename: Joi.string(),
  content_type: Joi.string(),
  max_bytes: Joi.number().integer(),
  status: Joi.string().valid(...PRESIGNATION_STATUSES),
  expires_at: field.instant(),
  created_by_mrn: field.memberMrn(),
  used_at: field.optionalInstant(),
  revoked_at: field.optionalInstant(),
  revoked_by_mrn: field.memberMrn().allow(null),
  file_id: field.uuid().allow(null),
  created_at: field.instant(),
}).id('MeetingsPresignation');

export const PRESIGNATION_WITH_LINK: JoiObjectSchema = PRESIGNATION.keys({
  upload: Joi.object({ url: Joi.string().required(), method: Joi.string().valid('PUT').required(), headers: Joi.object({ 'content-type': Joi.string().required() }).required() }).required().description('PUT the file to url with these headers; the link is shown this once'),
}).id('MeetingsPresignationWithLink');
