import { ConflictError, ForbiddenError, InvalidError, NotFoundError, Op } from '@wpk/sdk';
import type { Attendance, Break, Location, Position } from '../models/index.js';
import type { AttendanceContext } from '../kit.js';
import { judgePosition } from './geo.js';
import { assertOpen, locations } from './locations.js';
import { durations, presentAttendance, presentCorrection } from './present.js';
import { isTimeZone, localDate } from './time.js';

/** A position as a device reports it (the accuracy radius in metres is optional). */
export interface PositionInput {
  latitude?: number;
  longitude?: number;
  accuracy_m?: number;
}

/** The platform's clock now, to the whole second (attendance times are kept to the second). */
export function currentSecond(ctx: { now(): Date }): Date {
  return new Date(Math.floor(ctx.now().getTime() / 1000) * 1000);
}

/** The time zone of the workspace's settings (UTC when the setting names no zone this runtime knows). */
export function settingsZone(ctx: AttendanceContext): string {
  const zone = String(ctx.settings.timezone ?? 'UTC');
  return isTimeZone(zone) ? zone : 'UTC';
}

/** The zone an attendance at `location` counts its day in: the location's, else the settings'. */
export function zoneFor(ctx: AttendanceContext, location: Location | null): string {
  return location?.timezone && isTimeZone(location.timezone) ? location.timezone : settingsZone(ctx);
}

/** A location named by a body field: 400 when the workspace has none by that id. */
export async function locationField(ctx: AttendanceContext, id: string): Promise<Location> {
  const location = await locations.find(ctx, id);
  if (!location) throw new InvalidError(`location_id: no location ${id} in this workspace`);
  return location;
}

/**
 * Judges where the caller clocks: at a location with a geofence the position is required and must
 * pass the accuracy rule (geo.ts); elsewhere a given position is only recorded.
 */
function checkedPosition(ctx: AttendanceContext, location: Location | null, input: PositionInput, what: 'clock in' | 'clock out'): Position | null {
  const given = input.latitude !== undefined && input.longitude !== undefined;
  const position: Position | null = given ? { latitude: input.latitude!, longitude: input.longitude!, ...(input.accuracy_m !== undefined ? { accuracy_m: input.accuracy_m } : {}) } : null;
  if (!location || location.radius_m === null || location.latitude === null || location.longitude === null) return position;
  if (!position) throw new InvalidError(`latitude and longitude are required to ${what} at ${location.name}: it has a geofence`);
  const max = Number(ctx.settings.max_accuracy_m ?? 100);
  const verdict = judgePosition({ latitude: location.latitude, longitude: location.longitude, radius_m: location.radius_m }, position, max);
  if (!verdict.inside) {
    if (verdict.reason === 'imprecise') throw new ForbiddenError(`Your position is too imprecise to ${what} at ${location.name}: accuracy ${position.accuracy_m} m, at most ${max} m is accepted`);
    throw new ForbiddenError(`You are ${Math.round(verdict.distance_m)} m from ${location.name}, outside its ${location.radius_m} m geofence: you cannot ${what} here`);
  }
  return { ...position, distance_m: verdict.distance_m };
}

async function openAttendance(ctx: AttendanceContext, memberId: string): Promise<Attendance | null> {
  return ctx.db.attendances.findOne({ where: { member_id: memberId, check_out_at: null } });
}

async function requireOpen(ctx: AttendanceContext): Promise<Attendance> {
  const open = await openAttendance(ctx, ctx.member.id);
  if (!open) throw new ConflictError('You are not clocked in');
  return open;
}

/** The breaks of some attendances, by attendance id. */
export async function breaksOf(ctx: AttendanceContext, ids: string[]): Promise<Map<string, Break[]>> {
  const found = new Map<string, Break[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return found;
  for (const row of await ctx.db.breaks.findAll({ where: { attendance_id: { [Op.in]: ids } }, order: [['start_at', 'ASC'], ['id', 'ASC']] })) found.get(row.attendance_id)?.push(row);
  return found;
}

/** One attendance as the API shows it. */
export async function showAttendance(ctx: AttendanceContext, attendance: Attendance) {
  return presentAttendance(attendance, (await breaksOf(ctx, [attendance.id])).get(attendance.id)!, currentSecond(ctx));
}

/**
 * Clocks the caller in, now: one open attendance per member (409 while one is open); at a location
 * with a geofence only from inside it. `require_location` (settings) makes the location mandatory.
 */
export async function clockIn(ctx: AttendanceContext, input: PositionInput & { location_id?: string }) {
  const now = currentSecond(ctx);
  await ctx.lock(`member:${ctx.member.id}`);
  const open = await openAttendance(ctx, ctx.member.id);
  if (open) throw new ConflictError(`You are already clocked in since ${open.check_in_at.toISOString()}${open.location_name ? ` at ${open.location_name}` : ''}`);
  if (!input.location_id && ctx.settings.require_location) throw new InvalidError('location_id is required: this workspace clocks in at a location');
  const location = input.location_id ? await locationField(ctx, input.location_id) : null;
  if (location) assertOpen(location);
  const position = checkedPosition(ctx, location, input, 'clock in');
  const timezone = zoneFor(ctx, location);
  const attendance = await ctx.db.attendances.create({
    member_id: ctx.member.id,
    member_name: ctx.member.name || null,
    location_id: location?.id ?? null,
    location_name: location?.name ?? null,
    timezone,
    work_date: localDate(now, timezone),
    check_in_at: now,
    check_out_at: null,
    check_in_position: position,
    check_out_position: null,
    source: 'clock',
    corrected: false,
  });
  // Attendances added before the app read names from the member directory get the name now.
  if (ctx.member.name) await ctx.db.attendances.update({ member_name: ctx.member.name }, { where: { member_id: ctx.member.id, member_name: null } });
  ctx.events.stage('core.attendance.attendance.started', { attendance_id: attendance.id, member_id: ctx.member.id, location_id: location?.id ?? null, check_in_at: now.toISOString(), position });
  return presentAttendance(attendance, [], now);
}

/** Clocks the caller out, now (an open break ends with it); inside the geofence of the attendance's location when it has one. */
export async function clockOut(ctx: AttendanceContext, input: PositionInput) {
  const now = currentSecond(ctx);
  await ctx.lock(`member:${ctx.member.id}`);
  const open = await requireOpen(ctx);
  const location = open.location_id ? await ctx.db.locations.findById(open.location_id) : null;
  const position = checkedPosition(ctx, location, input, 'clock out');
  const rows = (await breaksOf(ctx, [open.id])).get(open.id)!;
  for (const row of rows.filter((candidate) => candidate.end_at === null)) {
    await ctx.db.breaks.update({ end_at: now }, { where: { id: row.id } });
    row.end_at = now;
    ctx.events.stage('core.attendance.break.ended', { break_id: row.id, attendance_id: open.id, member_id: ctx.member.id, start_at: row.start_at.toISOString(), end_at: now.toISOString() });
  }
  await ctx.db.attendances.update({ check_out_at: now, check_out_position: position }, { where: { id: open.id } });
  const closed = (await ctx.db.attendances.findById(open.id))!;
  const spent = durations(closed, rows, now);
  ctx.events.stage('core.attendance.attendance.ended', {
    attendance_id: open.id,
    member_id: ctx.member.id,
    location_id: closed.location_id,
    check_in_at: closed.check_in_at.toISOString(),
    check_out_at: now.toISOString(),
    worked_seconds: spent.worked_seconds,
    break_seconds: spent.break_seconds,
    position,
  });
  return presentAttendance(closed, rows, now);
}

/** Starts a break in the caller's open attendance (409 when not clocked in or already on one). */
export async function startBreak(ctx: AttendanceContext) {
  const now = currentSecond(ctx);
  await ctx.lock(`member:${ctx.member.id}`);
  const open = await requireOpen(ctx);
  const current = await ctx.db.breaks.findOne({ where: { attendance_id: open.id, end_at: null } });
  if (current) throw new ConflictError(`You are already on a break since ${current.start_at.toISOString()}`);
  const row = await ctx.db.breaks.create({ attendance_id: open.id, start_at: now, end_at: null });
  ctx.events.stage('core.attendance.break.started', { break_id: row.id, attendance_id: open.id, member_id: ctx.member.id, start_at: now.toISOString() });
  return showAttendance(ctx, open);
}

/** Ends the caller's current break (409 when not on one). */
export async function endBreak(ctx: AttendanceContext) {
  const now = currentSecond(ctx);
  await ctx.lock(`member:${ctx.member.id}`);
  const open = await requireOpen(ctx);
  const current = await ctx.db.breaks.findOne({ where: { attendance_id: open.id, end_at: null } });
  if (!current) throw new ConflictError('You are not on a break');
  await ctx.db.breaks.update({ end_at: now }, { where: { id: current.id } });
  ctx.events.stage('core.attendance.break.ended', { break_id: current.id, attendance_id: open.id, member_id: ctx.member.id, start_at: current.start_at.toISOString(), end_at: now.toISOString() });
  return showAttendance(ctx, open);
}

/** The caller's state: clocked in or not, on a break or not, and the open attendance. */
export async function status(ctx: AttendanceContext) {
  const open = await openAttendance(ctx, ctx.member.id);
  const attendance = open ? await showAttendance(ctx, open) : null;
  return { member_id: ctx.member.id, clocked_in: open !== null, on_break: attendance?.on_break ?? false, attendance };
}

/** True when the caller may see every member's attendances (else only their own). */
export const seesEveryone = (ctx: AttendanceContext) => ctx.permissions.has('attendance.attendances.read');

/** The member a read is about: the caller's own unless they hold the read key (403 naming it otherwise). */
export function readableMember(ctx: AttendanceContext, memberId: string | undefined): string | undefined {
  if (seesEveryone(ctx)) return memberId;
  if (memberId !== undefined && memberId !== ctx.member.id) throw new ForbiddenError("Missing permission: attendance.attendances.read (needed for another member's attendances)");
  return ctx.member.id;
}

/** Filters of the attendance list. */
export interface AttendanceFilters {
  member_id?: string;
  location_id?: string;
  from?: string;
  to?: string;
  open?: boolean;
}

/** The where clause of a period and member filter (work dates, inclusive). */
export function attendanceWhere(filters: AttendanceFilters): Record<string | symbol, unknown> {
  const where: Record<string | symbol, unknown> = {};
  if (filters.member_id) where.member_id = filters.member_id;
  if (filters.location_id) where.location_id = filters.location_id;
  if (filters.from || filters.to) where.work_date = { ...(filters.from ? { [Op.gte]: filters.from } : {}), ...(filters.to ? { [Op.lte]: filters.to } : {}) };
  if (filters.open !== undefined) where.check_out_at = filters.open ? null : { [Op.ne]: null };
  return where;
}

/** One page of attendances, newest check-in first: the caller's own, or anyone's with the read key. */
export async function listAttendances(ctx: AttendanceContext, filters: AttendanceFilters) {
  if (filters.from && filters.to && filters.from > filters.to) throw new InvalidError('from must not be after to');
  const where = attendanceWhere({ ...filters, member_id: readableMember(ctx, filters.member_id) });
  const { rows, count } = await ctx.db.attendances.findAndCountAll({ where, order: [['check_in_at', 'DESC'], ['id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
  const breaks = await breaksOf(ctx, rows.map((row) => row.id));
  const now = currentSecond(ctx);
  return { rows: rows.map((row) => presentAttendance(row, breaks.get(row.id)!, now)), count };
}

/** An attendance the caller may see (404 otherwise: another member's without the read key). */
export async function requireAttendance(ctx: AttendanceContext, id: string, lock = false): Promise<Attendance> {
  const attendance = await ctx.db.attendances.findById(id, lock ? { lock: 'update' } : {});
  if (!attendance || (!seesEveryone(ctx) && !ctx.permissions.has('attendance.attendances.manage') && attendance.member_id !== ctx.member.id)) throw new NotFoundError(`Attendance ${id} not found`);
  return attendance;
}

/** One attendance with its breaks and its corrections (oldest first). */
export async function readAttendance(ctx: AttendanceContext, id: string) {
  const attendance = await requireAttendance(ctx, id);
  const trail = await ctx.db.corrections.findAll({ where: { attendance_id: id }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
  return { ...(await showAttendance(ctx, attendance)), corrections: trail.map(presentCorrection) };
}
