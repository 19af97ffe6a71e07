import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/**
 * A work location; it has a geofence when latitude, longitude and radius_m are all set. Either the
 * app's own (`source: 'attendance'`) or the copy of a Settings location (`source: 'settings'`, same
 * id, name/address/time zone from its events, the geofence the app's; `deleted_at` once Settings
 * deleted it: it takes no clock-ins but keeps its attendances).
 */
export type Location = DeclaredRow<typeof locations>;

export const LOCATION_SOURCES = ['attendance', 'settings'] as const;

export const locations = defineModel('locations', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(200),
  address: column.string(500).nullable(),
  latitude: column.double().nullable(),
  longitude: column.double().nullable(),
  radius_m: column.integer().nullable(),
  timezone: column.string(100).nullable(),
  /** Who created an own location; null for a Settings copy. */
  creator_id: column.uuid().nullable(),
  source: column.enum(LOCATION_SOURCES, 10).default('attendance'),
  /** A Settings copy's revision (the highest event applied); null for an own location. */
  revision: column.integer().nullable(),
  deleted_at: column.date().nullable(),
});

/** Where a member was when clocking (as the device reported it), and how far from the location's centre. */
export interface Position {
  latitude: number;
  longitude: number;
  accuracy_m?: number;
  distance_m?: number;
}

/** One stretch of work of a member: clocked in (open) until clocked out. */
export type Attendance = DeclaredRow<typeof attendances>;

export const attendances = defineModel('attendances', {
  id: column.uuid().primaryKey().defaultRandom(),
  member_id: column.uuid(),
  member_name: column.string(200).nullable(),
  location_id: column.uuid().nullable(),
  location_name: column.string(200).nullable(),
  /** The time zone whose calendar `work_date` is read in (the location's, else the settings'). */
  timezone: column.string(64),
  /** The calendar day the attendance counts on: its check-in's date in `timezone`. */
  work_date: column.dateOnly(),
  check_in_at: column.date(),
  check_out_at: column.date().nullable(),
  check_in_position: column.json<Position>().nullable(),
  check_out_position: column.json<Position>().nullable(),
  source: column.string(10).of<'clock' | 'manual'>(),
  corrected: column.boolean().default(false),
});

/** A break inside an attendance (open while end_at is null). */
export type Break = DeclaredRow<typeof breaks>;

export const breaks = defineModel('breaks', {
  id: column.uuid().primaryKey().defaultRandom(),
  attendance_id: column.uuid(),
  start_at: column.date(),
  end_at: column.date().nullable(),
});

/** The times of an attendance as a correction saw them (ISO instants). */
export interface AttendanceTimes {
  check_in_at: string;
  check_out_at: string | null;
  location_id: string | null;
  breaks: Array<{ start_at: string; end_at: string | null }>;
}

/** One manager correction: the times before and after, who and why (the audit trail; never edited). */
export type Correction = DeclaredRow<typeof corrections>;

export const corrections = defineModel('corrections', {
  id: column.uuid().primaryKey().defaultRandom(),
  attendance_id: column.uuid(),
  member_id: column.uuid(),
  kind: column.string(10).of<'edited' | 'created'>(),
  before: column.json<AttendanceTimes>().nullable(),
  after: column.json<AttendanceTimes>(),
  changed_fields: column.json<string[]>(),
  reason: column.string(500),
  corrected_by: column.uuid(),
});

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { locations, attendances, breaks, corrections };

export type Models = typeof models;
