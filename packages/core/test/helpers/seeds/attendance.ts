/**
 * The Attendance app's records for the route-table guards: a geofenced location, and an
 * attendance of the owner there (clocked in from inside the fence, a break, clocked out) with a
 * manager's correction, so every attendance route has a record of each workspace to name.
 */

/** What the Attendance app seeds. */
export type AttendanceSeedKind = 'location' | 'attendance';

/** Path parameters of the app's routes, by first path segment (`/attendance/locations/{id}`). */
export const ATTENDANCE_PARAM_KINDS: Record<string, Record<string, AttendanceSeedKind>> = {
  attendance: { id: 'location', attendance_id: 'attendance' },
};

/** Body fields naming the app's records. */
export const ATTENDANCE_FIELD_KINDS: Record<string, AttendanceSeedKind> = { location_id: 'location', attendance_id: 'attendance' };

type Call = (method: string, url: string, body?: unknown) => Promise<any>;

export async function seedAttendance(call: Call, marker: string): Promise<Record<AttendanceSeedKind, string>> {
  await call('POST', '/applications/attendance/installations', {});
  const here = { latitude: 48.8584, longitude: 2.2945 };
  const location = (await call('POST', '/attendance/locations', { name: `${marker} location`, address: `${marker} address`, geofence: { ...here, radius_m: 100 } })).id as string;
  const attendance = (await call('POST', '/attendance/clock-ins', { location_id: location, ...here, accuracy_m: 10 })).id as string;
  await call('POST', '/attendance/break-starts', {});
  await call('POST', '/attendance/break-ends', {});
  const out = await call('POST', '/attendance/clock-outs', here);
  // The seed clocks in and out within a second: the correction gives the attendance an hour.
  const checkIn = new Date(Date.parse(out.check_out_at) - 3_600_000).toISOString();
  await call('PATCH', `/attendance/attendances/${attendance}`, { check_in_at: checkIn, breaks: [], reason: `${marker} correction` });
  return { location, attendance };
}
