import { InvalidError, toCsv } from '@wpk/sdk';
import type { Attendance } from '../models/index.js';
import { attendanceWhere, breaksOf, readableMember, currentSecond } from './attendances.js';
import type { AttendanceContext } from '../kit.js';
import { durations } from './present.js';
import { dayCount, daysBetween, localParts } from './time.js';

/** The longest period a timesheet covers (a quarter). */
export const MAX_TIMESHEET_DAYS = 92;

/** The longest period an export covers (a year), and the most rows it holds. */
export const MAX_EXPORT_DAYS = 366;
export const MAX_EXPORT_ROWS = 20_000;

function checkPeriod(from: string, to: string, max: number): void {
  if (from > to) throw new InvalidError('from must not be after to');
  if (dayCount(from, to) + 1 > max) throw new InvalidError(`The period may cover at most ${max} days`);
}

/**
 * A member's timesheet for a period (calendar days, inclusive): every day with its attendances'
 * worked time, breaks and net time (worked minus breaks), and the totals. An attendance counts on
 * its work date (its check-in's day in the location's time zone, else the settings'), whole, even
 * past midnight; an open one counts up to now.
 */
export async function timesheet(ctx: AttendanceContext, query: { member_id?: string; from: string; to: string }) {
  checkPeriod(query.from, query.to, MAX_TIMESHEET_DAYS);
  const member = readableMember(ctx, query.member_id) ?? ctx.member.id;
  const rows = await ctx.db.attendances.findAll({ where: attendanceWhere({ member_id: member, from: query.from, to: query.to }), order: [['check_in_at', 'ASC'], ['id', 'ASC']] });
  const breaks = await breaksOf(ctx, rows.map((row) => row.id));
  const now = currentSecond(ctx);
  const days = new Map(daysBetween(query.from, query.to).map((date) => [date, { date, attendances: 0, worked_seconds: 0, break_seconds: 0, net_seconds: 0 }]));
  const totals = { attendances: 0, worked_seconds: 0, break_seconds: 0, net_seconds: 0 };
  for (const row of rows) {
    const spent = durations(row, breaks.get(row.id)!, now);
    for (const bucket of [days.get(row.work_date)!, totals]) {
      bucket.attendances += 1;
      bucket.worked_seconds += spent.worked_seconds;
      bucket.break_seconds += spent.break_seconds;
      bucket.net_seconds += spent.net_seconds;
    }
  }
  return { member_id: member, from: query.from, to: query.to, open: rows.some((row) => row.check_out_at === null), days: [...days.values()], totals };
}

const minutes = (seconds: number) => Math.round(seconds / 60);

/** The CSV export's columns, in order. */
export const EXPORT_COLUMNS = ['attendance_id', 'member_id', 'member_name', 'location', 'work_date', 'timezone', 'check_in', 'check_out', 'worked_minutes', 'break_minutes', 'net_minutes', 'source', 'corrected'];

/**
 * Attendances of a period (work dates, inclusive) as CSV (RFC 4180, spreadsheet-safe): one row
 * per attendance by day and check-in; times are local to the attendance's time zone; an
 * open attendance has no check-out and counts up to now.
 */
export async function exportCsv(ctx: AttendanceContext, query: { from: string; to: string; member_id?: string; location_id?: string }) {
  checkPeriod(query.from, query.to, MAX_EXPORT_DAYS);
  const where = attendanceWhere(query);
  const count = await ctx.db.attendances.count({ where });
  if (count > MAX_EXPORT_ROWS) throw new InvalidError(`The export would hold ${count} attendances, more than ${MAX_EXPORT_ROWS}: narrow the period or filter by member or location`);
  const rows: Attendance[] = await ctx.db.attendances.findAll({ where, order: [['work_date', 'ASC'], ['check_in_at', 'ASC'], ['id', 'ASC']] });
  const breaks = await breaksOf(ctx, rows.map((row) => row.id));
  const now = currentSecond(ctx);
  const local = (instant: Date | null, zone: string) => {
    if (!instant) return null;
    const parts = localParts(instant, zone);
    return `${parts.date} ${parts.time}`;
  };
  const lines = rows.map((row) => {
    const spent = durations(row, breaks.get(row.id)!, now);
    return [row.id, row.member_id, row.member_name, row.location_name, row.work_date, row.timezone, local(row.check_in_at, row.timezone), local(row.check_out_at, row.timezone), minutes(spent.worked_seconds), minutes(spent.break_seconds), minutes(spent.worked_seconds) - minutes(spent.break_seconds), row.source, row.corrected];
  });
  return { csv: toCsv(EXPORT_COLUMNS, lines), filename: `attendance-${query.from}-to-${query.to}.csv` };
}

