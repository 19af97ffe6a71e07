import { DataTypes, defineModel } from '@wpk/sdk';

/** A call started at once, or one set for a time. */
export const CALL_TYPES = ['instant', 'scheduled'] as const;
export type CallType = (typeof CALL_TYPES)[number];
export const CALL_MODES = ['video', 'audio'] as const;
export type CallMode = (typeof CALL_MODES)[number];
/** `waiting`: nobody joined yet; `active`: someone is in; `ended`; `cancelled` (before it started). */
export const CALL_STATUSES = ['waiting', 'active', 'ended', 'cancelled'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

/** A call. `source_key` makes a call asked for by another app's event idempotent (`chat-request:{event id}`, `meeting:{id}`). */
export interface Call {
  id: string;
  type: CallType;
  mode: CallMode;
  title: string;
  status: CallStatus;
  creator_id: string;
  source_mrn: string | null;
  source_key: string | null;
  scheduled_at: Date | null;
  started_at: Date | null;
  ended_at: Date | null;
  participant_count: number;
  created_at: Date;
  updated_at: Date;
}

export const calls = defineModel<Call>('calls', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  type: { type: DataTypes.STRING(10), allowNull: false },
  mode: { type: DataTypes.STRING(10), allowNull: false },
  title: { type: DataTypes.STRING(200), allowNull: false },
  status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'waiting' },
  creator_id: { type: DataTypes.UUID, allowNull: false },
  source_mrn: { type: DataTypes.STRING(200), allowNull: true },
  source_key: { type: DataTypes.STRING(200), allowNull: true },
  scheduled_at: { type: DataTypes.DATE, allowNull: true },
  started_at: { type: DataTypes.DATE, allowNull: true },
  ended_at: { type: DataTypes.DATE, allowNull: true },
  participant_count: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
});

export const PARTICIPANT_ROLES = ['host', 'participant'] as const;
export type ParticipantRole = (typeof PARTICIPANT_ROLES)[number];

/** A member invited to a call; `joined_at` is set while they are in its session. */
export interface Participant {
  call_id: string;
  member_id: string;
  role: ParticipantRole;
  joined_at: Date | null;
  first_joined_at: Date | null;
  left_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const participants = defineModel<Participant>('participants', {
  call_id: { type: DataTypes.UUID, primaryKey: true },
  member_id: { type: DataTypes.UUID, primaryKey: true },
  role: { type: DataTypes.STRING(12), allowNull: false, defaultValue: 'participant' },
  joined_at: { type: DataTypes.DATE, allowNull: true },
  first_joined_at: { type: DataTypes.DATE, allowNull: true },
  left_at: { type: DataTypes.DATE, allowNull: true },
});

/** `uploading` until completed (`ready`) or aborted. */
export const RECORDING_STATUSES = ['uploading', 'ready', 'aborted'] as const;
export type RecordingStatus = (typeof RECORDING_STATUSES)[number];
export const RECORDING_TYPES = ['video/webm', 'audio/webm', 'video/mp4', 'audio/mp4', 'audio/ogg'] as const;

/** A recording of a call: a file of the app's storage under `storage_key`. */
export interface Recording {
  id: string;
  call_id: string;
  status: RecordingStatus;
  storage_key: string;
  content_type: string;
  recorder_id: string;
  duration_seconds: number | null;
  size_bytes: number | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const recordings = defineModel<Recording>('recordings', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  call_id: { type: DataTypes.UUID, allowNull: false },
  status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'uploading' },
  storage_key: { type: DataTypes.STRING(300), allowNull: false },
  content_type: { type: DataTypes.STRING(40), allowNull: false },
  recorder_id: { type: DataTypes.UUID, allowNull: false },
  duration_seconds: { type: DataTypes.INTEGER, allowNull: true },
  size_bytes: { type: DataTypes.BIGINT, allowNull: true, get(this: { getDataValue(key: string): unknown }) { const value = this.getDataValue('size_bytes'); return value === null ? null : Number(value); } },
  completed_at: { type: DataTypes.DATE, allowNull: true },
});

export const models = { calls, participants, recordings };
export type Models = typeof models;
