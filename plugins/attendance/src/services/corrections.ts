import { ConflictError, InvalidError, Op, parseInstant } from '@wpk/sdk';
import type { Attendance, AttendanceTimes, Break, Location } from '../models/index.js';
import type { AttendanceContext } from '../kit.js';
import { assertOpen } from './locations.js';
import { breaksOf, locationField, readAttendance, readableMember, requireAttendance, zoneFor, currentSecond } from './attendances.js';
import { presentCorrection } from './present.js';
import { localDate } from './time.js';

/** A break as a correction gives it: both ends. */
export interface BreakInput {
  start_at: string;
  end_at: string;
}

/** What a correction may change, and why. */
export interface CorrectionInput {
  check_in_at?: string;
  check_out_at?: string;
  location_id?: string | null;
  breaks?: BreakInput[];
  reason: string;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function timesOf(attendance: Pick<Attendance, 'check_in_at' | 'check_out_at' | 'location_id'>, rows: Array<Pick<Break, 'start_at' | 'end_at'>>): AttendanceTimes {
  return {
    check_in_at: attendance.check_in_at.toISOString(),
    check_out_at: iso(attendance.check_out_at),
    location_id: attendance.location_id,
    breaks: [...rows].sort((a, b) => a.start_at.getTime() - b.start_at.getTime()).map((row) => ({ start_at: row.start_at.toISOString(), end_at: iso(row.end_at) })),
  };
}

/**
 * Checks corrected times: nothing in the future, check-out after check-in, breaks closed, none
 * ending before it starts (a zero-length one is kept), inside the attendance and not overlapping
 * each other, and no overlap with the member's other attendances.
 */
async function checkTimes(ctx: AttendanceContext, memberId: string, exceptId: string | null, checkIn: Date, checkOut: Date | null, rows: Array<{ start_at: Date; end_at: Date | null }>): Promise<void> {
  const now = currentSecond(ctx);
  if (checkIn.getTime() > now.getTime()) throw new InvalidError('check_in_at must not be in the future');
  if (checkOut && checkOut.getTime() > now.getTime()) throw new InvalidError('check_out_at must not be in the future');
  if (checkOut && checkOut.getTime() <= checkIn.getTime()) throw new InvalidError('check_out_at must be after check_in_at');
  const end = checkOut ?? now;
  const sorted = [...rows].sort((a, b) => a.start_at.getTime() - b.start_at.getTime());
  sorted.forEach((row, index) => {
    const stop = row.end_at ?? end;
    if (row.start_at.getTime() < checkIn.getTime() || stop.getTime() > end.getTime()) throw new InvalidError(`breaks[${index}] (${row.start_at.toISOString()}) lies outside the attendance; give breaks that fit the corrected times`);
    // A zero-length break is allowed: times are kept to the second, so a break ended within the
    // second it started is stored so, and a correction must be able to keep it (it counts 0 s).
    if (row.end_at && row.end_at.getTime() < row.start_at.getTime()) throw new InvalidError(`breaks[${index}]: end_at must not be before start_at`);
    const next = sorted[index + 1];
    if (next && next.start_at.getTime() < stop.getTime()) throw new InvalidError(`breaks[${index + 1}] overlaps breaks[${index}]`);
  });
  const overlap = await ctx.db.attendances.findOne({
    where: {
      member_id: memberId,
      ...(exceptId ? { id: { [Op.ne]: exceptId } } : {}),
      check_in_at: { [Op.lt]: checkOut ?? new Date('9999-12-31T00:00:00Z') },
      [Op.or]: [{ check_out_at: null }, { check_out_at: { [Op.gt]: checkIn } }],
    },
  });
  if (overlap) throw new ConflictError(`The corrected times overlap the member's attendance ${overlap.id} (${overlap.check_in_at.toISOString()} – ${iso(overlap.check_out_at) ?? 'open'})`);
}

function changedFields(before: AttendanceTimes | null, after: AttendanceTimes): string[] {
  const fields: string[] = [];
  if (before?.check_in_at !== after.check_in_at) fields.push('check_in_at');
  if (before?.check_out_at !== after.check_out_at) fields.push('check_out_at');
  if ((before?.location_id ?? null) !== after.location_id && (before !== null || after.location_id !== null)) fields.push('location_id');
  if (JSON.stringify(before?.breaks ?? []) !== JSON.stringify(after.breaks)) fields.push('breaks');
  return fields;
}

const parseBreaks = (input: BreakInput[]) => input.map((row) => ({ start_at: parseInstant(row.start_at)!, end_at: parseInstant(row.end_at)! as Date | null }));

async function replaceBreaks(ctx: AttendanceContext, attendanceId: string, rows: Array<{ start_at: Date; end_at: Date | null }>): Promise<void> {
  await ctx.db.breaks.destroy({ where: { attendance_id: attendanceId } });
  for (const row of rows) await ctx.db.breaks.create({ attendance_id: attendanceId, start_at: row.start_at, end_at: row.end_at });
}

/**
 * Corrects an attendance (a manager): its check-in, check-out (closing an open one), location or
 * breaks (replaced whole). The times before and after, who and why go to the audit trail.
 */
export async function correctAttendance(ctx: AttendanceContext, id: string, input: CorrectionInput) {
  const found = await requireAttendance(ctx, id);
  await ctx.lock(`member:${found.member_id}`);
  const attendance = (await ctx.db.attendances.findById(id, { lock: 'update' }))!;
  const currentBreaks = (await breaksOf(ctx, [id])).get(id)!;
  const before = timesOf(attendance, currentBreaks);
  const checkIn = input.check_in_at !== undefined ? parseInstant(input.check_in_at)! : attendance.check_in_at;
  const checkOut = input.check_out_at !== undefined ? parseInstant(input.check_out_at)! : attendance.check_out_at;
  let location: Location | null = null;
  if (input.location_id) {
    location = await locationField(ctx, input.location_id);
    if (location.id !== attendance.location_id) assertOpen(location);
  }
  else if (input.location_id === undefined && attendance.location_id) location = await ctx.db.locations.findById(attendance.location_id);
  const locationId = input.location_id === undefined ? attendance.location_id : (location?.id ?? null);
  const rows = input.breaks ? parseBreaks(input.breaks) : currentBreaks.map((row) => ({ start_at: row.start_at, end_at: row.end_at }));
  // An open break of an attendance being closed ends with it.
  const closedRows = rows.map((row) => ({ ...row, end_at: row.end_at ?? (checkOut && !attendance.check_out_at ? checkOut : null) }));
  await checkTimes(ctx, attendance.member_id, id, checkIn, checkOut, closedRows);
  const after = timesOf({ check_in_at: checkIn, check_out_at: checkOut, location_id: locationId }, closedRows);
  const changed = changedFields(before, after);
  if (changed.length === 0) throw new InvalidError('The correction changes nothing');
  const timezone = input.location_id !== undefined ? zoneFor(ctx, location) : attendance.timezone;
  const locationName = input.location_id === undefined ? attendance.location_name : (location?.name ?? null);
  await ctx.db.attendances.update({ check_in_at: checkIn, check_out_at: checkOut, location_id: locationId, location_name: locationName, timezone, work_date: localDate(checkIn, timezone), corrected: true }, { where: { id } });
  if (changed.includes('breaks')) await replaceBreaks(ctx, id, closedRows);
  const correction = await ctx.db.corrections.create({ attendance_id: id, member_id: attendance.member_id, kind: 'edited', before, after, changed_fields: changed, reason: input.reason, corrected_by: ctx.member.id });
  ctx.events.stage('core.attendance.attendance.corrected', { correction_id: correction.id, attendance_id: id, member_id: attendance.member_id, kind: 'edited', changed_fields: changed, reason: input.reason, corrected_by: ctx.member.id });
  return readAttendance(ctx, id);
}

/** Adds an attendance a member forgot to clock (a manager), closed, with its breaks; audited like a correction. */
export async function addAttendance(ctx: AttendanceContext, input: CorrectionInput & { member_id: string; check_in_at: string; check_out_at: string }) {
  await ctx.lock(`member:${input.member_id}`);
  const checkIn = parseInstant(input.check_in_at)!;
  const checkOut = parseInstant(input.check_out_at)!;
  const location = input.location_id ? await locationField(ctx, input.location_id) : null;
  const rows = parseBreaks(input.breaks ?? []);
  await checkTimes(ctx, input.member_id, null, checkIn, checkOut, rows);
  const timezone = zoneFor(ctx, location);
  // The route checked that member_id names a member of the workspace (a former one too).
  const member = await ctx.members.get(input.member_id);
  const attendance = await ctx.db.attendances.create({
    member_id: input.member_id,
    member_name: member?.name || null,
    location_id: location?.id ?? null,
    location_name: location?.name ?? null,
    timezone,
    work_date: localDate(checkIn, timezone),
    check_in_at: checkIn,
    check_out_at: checkOut,
    check_in_position: null,
    check_out_position: null,
    source: 'manual',
    corrected: true,
  });
  await replaceBreaks(ctx, attendance.id, rows);
  const after = timesOf(attendance, rows);
  const changed = changedFields(null, after);
  const correction = await ctx.db.corrections.create({ attendance_id: attendance.id, member_id: input.member_id, kind: 'created', before: null, after, changed_fields: changed, reason: input.reason, corrected_by: ctx.member.id });
  ctx.events.stage('core.attendance.attendance.corrected', { correction_id: correction.id, attendance_id: attendance.id, member_id: input.member_id, kind: 'created', changed_fields: changed, reason: input.reason, corrected_by: ctx.member.id });
  return readAttendance(ctx, attendance.id);
}

/** One page of the audit trail, newest first: every correction with the read key, else those of the caller's own attendances. */
export async function listCorrections(ctx: AttendanceContext, filters: { member_id?: string; attendance_id?: string }) {
  const member = readableMember(ctx, filters.member_id);
  const where: Record<string, unknown> = {};
  if (member) where.member_id = member;
  if (filters.attendance_id) where.attendance_id = filters.attendance_id;
  const { rows, count } = await ctx.db.corrections.findAndCountAll({ where, order: [['created_at', 'DESC'], ['id', 'ASC']], offset: ctx.page.offset, limit: ctx.page.limit });
  return { rows: rows.map(presentCorrection), count };
}
