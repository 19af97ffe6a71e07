import type { SearchDocument } from '@wpk/sdk';
import type { Attendance, AttendanceTimes, Break, Correction, Location } from '../models/index.js';

/** A location as the API shows it: `geofence` is null when it has none. */
export function presentLocation(location: Location) {
  const fenced = location.latitude !== null && location.longitude !== null && location.radius_m !== null;
  return {
    id: location.id,
    name: location.name,
    address: location.address,
    geofence: fenced ? { latitude: location.latitude!, longitude: location.longitude!, radius_m: location.radius_m! } : null,
    timezone: location.timezone,
    source: location.source,
    settings_mrn: location.source === 'settings' ? `mrn:settings:location:${location.id}` : null,
    deleted_at: location.deleted_at,
    creator_id: location.creator_id,
    created_at: location.created_at,
    updated_at: location.updated_at,
  };
}

const seconds = (from: Date, to: Date) => Math.max(0, Math.floor((to.getTime() - from.getTime()) / 1000));

/**
 * Worked time of an attendance (check-in to check-out, or to `now` while open), its breaks (each
 * cut to the attendance's end, an open one running to `now`), and the net time: worked minus breaks.
 */
export function durations(attendance: Pick<Attendance, 'check_in_at' | 'check_out_at'>, rows: Array<Pick<Break, 'start_at' | 'end_at'>>, now: Date) {
  const end = attendance.check_out_at ?? now;
  const worked = seconds(attendance.check_in_at, end);
  let paused = 0;
  for (const row of rows) {
    const stop = row.end_at && row.end_at.getTime() < end.getTime() ? row.end_at : end;
    paused += seconds(row.start_at, stop);
  }
  paused = Math.min(paused, worked);
  return { worked_seconds: worked, break_seconds: paused, net_seconds: worked - paused };
}

/** A break as the API shows it. */
export function presentBreak(row: Break, now: Date) {
  return { id: row.id, start_at: row.start_at, end_at: row.end_at, seconds: seconds(row.start_at, row.end_at ?? now) };
}

/** An attendance as the API shows it, with its breaks (oldest first) and its durations so far. */
export function presentAttendance(attendance: Attendance, rows: Break[], now: Date) {
  const sorted = [...rows].sort((a, b) => a.start_at.getTime() - b.start_at.getTime());
  return {
    id: attendance.id,
    member_id: attendance.member_id,
    member_name: attendance.member_name,
    location_id: attendance.location_id,
    location_name: attendance.location_name,
    timezone: attendance.timezone,
    work_date: attendance.work_date,
    check_in_at: attendance.check_in_at,
    check_out_at: attendance.check_out_at,
    check_in_position: attendance.check_in_position,
    check_out_position: attendance.check_out_position,
    open: attendance.check_out_at === null,
    on_break: sorted.some((row) => row.end_at === null),
    breaks: sorted.map((row) => presentBreak(row, now)),
    ...durations(attendance, sorted, now),
    source: attendance.source,
    corrected: attendance.corrected,
    created_at: attendance.created_at,
    updated_at: attendance.updated_at,
  };
}

/** A correction of the audit trail as the API shows it. */
export function presentCorrection(correction: Correction) {
  return {
    id: correction.id,
    attendance_id: correction.attendance_id,
    member_id: correction.member_id,
    kind: correction.kind,
    before: correction.before as AttendanceTimes | null,
    after: correction.after as AttendanceTimes,
    changed_fields: correction.changed_fields,
    reason: correction.reason,
    corrected_by: correction.corrected_by,
    created_at: correction.created_at,
  };
}

/** The search document of a location: found by name; the address as detail. */
export function locationDocument(location: Location): SearchDocument {
  return {
    type: 'location',
    id: location.id,
    title: location.name,
    subtitle: location.address || (location.radius_m !== null ? `Geofence ${location.radius_m} m` : 'Work location'),
    url: `/attendance/locations/${location.id}`,
    names: [location.name],
    details: [location.address ?? ''],
  };
}
