import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/** A call started at once, or one set for a time. */
export const CALL_TYPES = ['instant', 'scheduled'] as const;
export type CallType = (typeof CALL_TYPES)[number];
export const CALL_MODES = ['video', 'audio'] as const;
export type CallMode = (typeof CALL_MODES)[number];
/** `waiting`: nobody joined yet; `active`: someone is in; `ended`; `cancelled` (before it started). */
export const CALL_STATUSES = ['waiting', 'active', 'ended', 'cancelled'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

/** A call. `source_key` makes a call asked for by another app's event idempotent (`chat-request:{event id}`, `meeting:{id}`). */
export type Call = DeclaredRow<typeof calls>;

export const calls = defineModel('calls', {
  id: column.uuid().primaryKey().defaultRandom(),
  type: column.enum(CALL_TYPES, 10),
  mode: column.enum(CALL_MODES, 10),
  title: column.string(200),
  status: column.enum(CALL_STATUSES, 10).default('waiting'),
  creator_id: column.uuid(),
  source_mrn: column.string(200).nullable(),
  source_key: column.string(200).nullable(),
  scheduled_at: column.date().nullable(),
  started_at: column.date().nullable(),
  ended_at: column.date().nullable(),
  participant_count: column.integer().default(0),
});

export const PARTICIPANT_ROLES = ['host', 'participant'] as const;
export type ParticipantRole = (typeof PARTICIPANT_ROLES)[number];

/** A member invited to a call; `joined_at` is set while they are in its session. */
export type Participant = DeclaredRow<typeof participants>;

export const participants = defineModel('participants', {
  call_id: column.uuid().primaryKey(),
  member_id: column.uuid().primaryKey(),
  role: column.enum(PARTICIPANT_ROLES, 12).default('participant'),
  joined_at: column.date().nullable(),
  first_joined_at: column.date().nullable(),
  left_at: column.date().nullable(),
});

/** `uploading` until completed (`ready`) or aborted. */
export const RECORDING_STATUSES = ['uploading', 'ready', 'aborted'] as const;
export type RecordingStatus = (typeof RECORDING_STATUSES)[number];
export const RECORDING_TYPES = ['video/webm', 'audio/webm', 'video/mp4', 'audio/mp4', 'audio/ogg'] as const;

/** A recording of a call: a file of the app's storage under `storage_key`. */
export type Recording = DeclaredRow<typeof recordings>;

export const recordings = defineModel('recordings', {
  id: column.uuid().primaryKey().defaultRandom(),
  call_id: column.uuid(),
  status: column.enum(RECORDING_STATUSES, 10).default('uploading'),
  storage_key: column.string(300),
  content_type: column.string(40),
  recorder_id: column.uuid(),
  duration_seconds: column.integer().nullable(),
  size_bytes: column.bigint().nullable(),
  completed_at: column.date().nullable(),
});

export const models = { calls, participants, recordings };
export type Models = typeof models;
