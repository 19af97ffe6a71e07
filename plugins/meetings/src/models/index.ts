import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

export const MEETING_STATUSES = ['scheduled', 'cancelled'] as const;
export type MeetingStatus = (typeof MEETING_STATUSES)[number];

/** An attendee's answer (iCalendar PARTSTAT, lower case). */
export const RSVP_STATUSES = ['needs_action', 'accepted', 'declined', 'tentative'] as const;
export type RsvpStatus = (typeof RSVP_STATUSES)[number];

/** What an upload grant is for. */
export const PURPOSES = ['recording', 'attachment'] as const;
export type Purpose = (typeof PURPOSES)[number];

/**
 * A scheduled meeting. `sequence` is the iCalendar SEQUENCE of the invitations: 0 when scheduled,
 * one more at each update and cancellation the organizer sends out.
 */
export type Meeting = DeclaredRow<typeof meetings>;

export const meetings = defineModel('meetings', {
  id: column.uuid().primaryKey().defaultRandom(),
  title: column.string(200),
  description: column.text().default(''),
  location: column.string(500).default(''),
  starts_at: column.date(),
  ends_at: column.date(),
  organizer_id: column.uuid(),
  organizer_name: column.string(200),
  organizer_email: column.string(254),
  status: column.enum(MEETING_STATUSES, 10).default('scheduled'),
  sequence: column.integer().default(0),
  cancelled_at: column.date().nullable(),
  /** What the meeting is for: another app's record (`mrn:crm:deal:{id}`), set when it is scheduled. */
  source_mrn: column.string(300).nullable(),
});

/** Someone invited: a member of the workspace (`member_id`), or an outside address (`email` only). */
export type Attendee = DeclaredRow<typeof attendees>;

export const attendees = defineModel('attendees', {
  id: column.uuid().primaryKey().defaultRandom(),
  meeting_id: column.uuid(),
  member_id: column.uuid().nullable(),
  email: column.string(254).nullable(),
  name: column.string(200).nullable(),
  /** Invitation order within the meeting. */
  position: column.integer().default(0),
  status: column.enum(RSVP_STATUSES, 12).default('needs_action'),
  responded_at: column.date().nullable(),
  added_by: column.uuid(),
});

/** The app's copy of a call of the calls app (fed by its events); `meeting_id` set when the call is a meeting's. */
export type MeetingCall = DeclaredRow<typeof meetingCalls>;

export const meetingCalls = defineModel('meeting_calls', {
  call_id: column.string(100).primaryKey(),
  meeting_id: column.uuid().nullable(),
  join_url: column.string(2000).nullable(),
  scheduled_at: column.date().nullable(),
});

export const PRESIGNATION_STATUSES = ['open', 'used', 'revoked'] as const;
export type PresignationStatus = (typeof PRESIGNATION_STATUSES)[number];

/**
 * An upload grant: a signed link to PUT one file to `storage_key` (a key of this grant alone)
 * until `expires_at`. Completing it moves the file to the meeting's files (used); revoking it
 * deletes whatever arrived (revoked). The link itself is never stored.
 */
export type Presignation = DeclaredRow<typeof presignations>;

export const presignations = defineModel('presignations', {
  id: column.uuid().primaryKey().defaultRandom(),
  meeting_id: column.uuid(),
  purpose: column.enum(PURPOSES, 12),
  filename: column.string(255),
  content_type: column.string(255),
  max_bytes: column.bigint(),
  storage_key: column.string(1024),
  expires_at: column.date(),
  status: column.enum(PRESIGNATION_STATUSES, 10).default('open'),
  created_by: column.uuid(),
  used_at: column.date().nullable(),
  revoked_at: column.date().nullable(),
  revoked_by: column.uuid().nullable(),
  file_id: column.uuid().nullable(),
});

/** A file filed with a meeting through a grant (a recording, an attachment). */
export type MeetingFile = DeclaredRow<typeof meetingFiles>;

export const meetingFiles = defineModel('meeting_files', {
  id: column.uuid().primaryKey().defaultRandom(),
  meeting_id: column.uuid(),
  presignation_id: column.uuid(),
  purpose: column.enum(PURPOSES, 12),
  filename: column.string(255),
  content_type: column.string(255),
  size_bytes: column.bigint(),
  sha256: column.string(64),
  storage_key: column.string(1024),
  uploaded_by: column.uuid(),
});

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { meetings, attendees, meetingCalls, presignations, meetingFiles };

export type Models = typeof models;
