import { DataTypes, defineModel } from '@wpk/sdk';

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
export interface Meeting {
  id: string;
  title: string;
  description: string;
  location: string;
  starts_at: Date;
  ends_at: Date;
  organizer_id: string;
  organizer_name: string;
  organizer_email: string;
  status: MeetingStatus;
  sequence: number;
  cancelled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const meetings = defineModel<Meeting>('meetings', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  title: { type: DataTypes.STRING(200), allowNull: false },
  description: { type: DataTypes.TEXT, allowNull: false, defaultValue: '' },
  location: { type: DataTypes.STRING(500), allowNull: false, defaultValue: '' },
  starts_at: { type: DataTypes.DATE, allowNull: false },
  ends_at: { type: DataTypes.DATE, allowNull: false },
  organizer_id: { type: DataTypes.UUID, allowNull: false },
  organizer_name: { type: DataTypes.STRING(200), allowNull: false },
  organizer_email: { type: DataTypes.STRING(254), allowNull: false },
  status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'scheduled' },
  sequence: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
  cancelled_at: { type: DataTypes.DATE, allowNull: true },
});

/** Someone invited: a member of the workspace (`member_id`), or an outside address (`email` only). */
export interface Attendee {
  id: string;
  meeting_id: string;
  member_id: string | null;
  email: string | null;
  name: string | null;
  /** Invitation order within the meeting. */
  position: number;
  status: RsvpStatus;
  responded_at: Date | null;
  added_by: string;
  created_at: Date;
  updated_at: Date;
}

export const attendees = defineModel<Attendee>('attendees', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  meeting_id: { type: DataTypes.UUID, allowNull: false },
  member_id: { type: DataTypes.UUID, allowNull: true },
  email: { type: DataTypes.STRING(254), allowNull: true },
  name: { type: DataTypes.STRING(200), allowNull: true },
  position: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
  status: { type: DataTypes.STRING(12), allowNull: false, defaultValue: 'needs_action' },
  responded_at: { type: DataTypes.DATE, allowNull: true },
  added_by: { type: DataTypes.UUID, allowNull: false },
});

/** The app's copy of a call of the calls app (fed by its events); `meeting_id` set when the call is a meeting's. */
export interface MeetingCall {
  call_id: string;
  meeting_id: string | null;
  join_url: string | null;
  scheduled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const meetingCalls = defineModel<MeetingCall>('meeting_calls', {
  call_id: { type: DataTypes.STRING(100), primaryKey: true },
  meeting_id: { type: DataTypes.UUID, allowNull: true },
  join_url: { type: DataTypes.STRING(2000), allowNull: true },
  scheduled_at: { type: DataTypes.DATE, allowNull: true },
});

export const PRESIGNATION_STATUSES = ['open', 'used', 'revoked'] as const;
export type PresignationStatus = (typeof PRESIGNATION_STATUSES)[number];

/**
 * An upload grant: a signed link to PUT one file to `storage_key` (a key of this grant alone)
 * until `expires_at`. Completing it moves the file to the meeting's files (used); revoking it
 * deletes whatever arrived (revoked). The link itself is never stored.
 */
export interface Presignation {
  id: string;
  meeting_id: string;
  purpose: Purpose;
  filename: string;
  content_type: string;
  max_bytes: number;
  storage_key: string;
  expires_at: Date;
  status: PresignationStatus;
  created_by: string;
  used_at: Date | null;
  revoked_at: Date | null;
  revoked_by: string | null;
  file_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export const presignations = defineModel<Presignation>('presignations', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  meeting_id: { type: DataTypes.UUID, allowNull: false },
  purpose: { type: DataTypes.STRING(12), allowNull: false },
  filename: { type: DataTypes.STRING(255), allowNull: false },
  content_type: { type: DataTypes.STRING(255), allowNull: false },
  max_bytes: { type: DataTypes.BIGINT, allowNull: false, get(this: { getDataValue(key: string): unknown }) { return Number(this.getDataValue('max_bytes')); } },
  storage_key: { type: DataTypes.STRING(1024), allowNull: false },
  expires_at: { type: DataTypes.DATE, allowNull: false },
  status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'open' },
  created_by: { type: DataTypes.UUID, allowNull: false },
  used_at: { type: DataTypes.DATE, allowNull: true },
  revoked_at: { type: DataTypes.DATE, allowNull: true },
  revoked_by: { type: DataTypes.UUID, allowNull: true },
  file_id: { type: DataTypes.UUID, allowNull: true },
});

/** A file filed with a meeting through a grant (a recording, an attachment). */
export interface MeetingFile {
  id: string;
  meeting_id: string;
  presignation_id: string;
  purpose: Purpose;
  filename: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  storage_key: string;
  uploaded_by: string;
  created_at: Date;
  updated_at: Date;
}

export const meetingFiles = defineModel<MeetingFile>('meeting_files', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  meeting_id: { type: DataTypes.UUID, allowNull: false },
  presignation_id: { type: DataTypes.UUID, allowNull: false },
  purpose: { type: DataTypes.STRING(12), allowNull: false },
  filename: { type: DataTypes.STRING(255), allowNull: false },
  content_type: { type: DataTypes.STRING(255), allowNull: false },
  size_bytes: { type: DataTypes.BIGINT, allowNull: false, get(this: { getDataValue(key: string): unknown }) { return Number(this.getDataValue('size_bytes')); } },
  sha256: { type: DataTypes.STRING(64), allowNull: false },
  storage_key: { type: DataTypes.STRING(1024), allowNull: false },
  uploaded_by: { type: DataTypes.UUID, allowNull: false },
});

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { meetings, attendees, meetingCalls, presignations, meetingFiles };

export type Models = typeof models;
