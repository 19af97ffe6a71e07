import { DataTypes, defineModel } from '@wpk/sdk';

/** A work location; it has a geofence when latitude, longitude and radius_m are all set. */
export interface Location {
  id: string;
  name: string;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  radius_m: number | null;
  timezone: string | null;
  creator_id: string;
  created_at: Date;
  updated_at: Date;
}

export const locations = defineModel<Location>('locations', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  name: { type: DataTypes.STRING(100), allowNull: false },
  address: { type: DataTypes.STRING(500), allowNull: true },
  latitude: { type: DataTypes.DOUBLE, allowNull: true },
  longitude: { type: DataTypes.DOUBLE, allowNull: true },
  radius_m: { type: DataTypes.INTEGER, allowNull: true },
  timezone: { type: DataTypes.STRING(64), allowNull: true },
  creator_id: { type: DataTypes.UUID, allowNull: false },
});

/** Where a member was when clocking (as the device reported it), and how far from the location's centre. */
export interface Position {
  latitude: number;
  longitude: number;
  accuracy_m?: number;
  distance_m?: number;
}

/** One stretch of work of a member: clocked in (open) until clocked out. */
export interface Attendance {
  id: string;
  member_id: string;
  member_name: string | null;
  location_id: string | null;
  location_name: string | null;
  /** The time zone whose calendar `work_date` is read in (the location's, else the settings'). */
  timezone: string;
  /** The calendar day the attendance counts on: its check-in's date in `timezone`. */
  work_date: string;
  check_in_at: Date;
  check_out_at: Date | null;
  check_in_position: Position | null;
  check_out_position: Position | null;
  source: 'clock' | 'manual';
  corrected: boolean;
  created_at: Date;
  updated_at: Date;
}

export const attendances = defineModel<Attendance>('attendances', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  member_id: { type: DataTypes.UUID, allowNull: false },
  member_name: { type: DataTypes.STRING(200), allowNull: true },
  location_id: { type: DataTypes.UUID, allowNull: true },
  location_name: { type: DataTypes.STRING(100), allowNull: true },
  timezone: { type: DataTypes.STRING(64), allowNull: false },
  work_date: { type: DataTypes.DATEONLY, allowNull: false },
  check_in_at: { type: DataTypes.DATE, allowNull: false },
  check_out_at: { type: DataTypes.DATE, allowNull: true },
  check_in_position: { type: DataTypes.JSONB, allowNull: true },
  check_out_position: { type: DataTypes.JSONB, allowNull: true },
  source: { type: DataTypes.STRING(10), allowNull: false },
  corrected: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
});

/** A break inside an attendance (open while end_at is null). */
export interface Break {
  id: string;
  attendance_id: string;
  start_at: Date;
  end_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const breaks = defineModel<Break>('breaks', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  attendance_id: { type: DataTypes.UUID, allowNull: false },
  start_at: { type: DataTypes.DATE, allowNull: false },
  end_at: { type: DataTypes.DATE, allowNull: true },
});

/** The times of an attendance as a correction saw them (ISO instants). */
export interface AttendanceTimes {
  check_in_at: string;
  check_out_at: string | null;
  location_id: string | null;
  breaks: Array<{ start_at: string; end_at: string | null }>;
}

/** One manager correction: the times before and after, who and why (the audit trail; never edited). */
export interface Correction {
  id: string;
  attendance_id: string;
  member_id: string;
  kind: 'edited' | 'created';
  before: AttendanceTimes | null;
  after: AttendanceTimes;
  changed_fields: string[];
  reason: string;
  corrected_by: string;
  created_at: Date;
  updated_at: Date;
}

export const corrections = defineModel<Correction>('corrections', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
  attendance_id: { type: DataTypes.UUID, allowNull: false },
  member_id: { type: DataTypes.UUID, allowNull: false },
  kind: { type: DataTypes.STRING(10), allowNull: false },
  before: { type: DataTypes.JSONB, allowNull: true },
  after: { type: DataTypes.JSONB, allowNull: false },
  changed_fields: { type: DataTypes.JSONB, allowNull: false },
  reason: { type: DataTypes.STRING(500), allowNull: false },
  corrected_by: { type: DataTypes.UUID, allowNull: false },
});

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { locations, attendances, breaks, corrections };

export type Models = typeof models;
