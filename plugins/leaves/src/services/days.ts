import type { Half, Unit } from '../models/index.js';

/** `YYYY-MM-DD` plus `days` (negative: back), by the UTC calendar. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The ISO weekday of a day: 1 = Monday … 7 = Sunday. */
export function isoWeekday(day: string): number {
  const weekday = new Date(`${day}T00:00:00.000Z`).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

/** The whole days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00.000Z`) - Date.parse(`${from}T00:00:00.000Z`)) / 86_400_000) + 1;
}

/** What a duration is counted against: the working days of the worker's calendar and its holidays. */
export interface WorkingCalendar {
  working_days: number[];
  hours_per_day: number;
  /** The calendar's public holidays, `YYYY-MM-DD`. */
  holidays: ReadonlySet<string>;
}

/** The calendar a given day of a worker is counted on (contracts may change it from one day to the next). */
export type CalendarOn = (day: string) => WorkingCalendar;

/** The calendar of a workspace without one: Monday to Friday, 8 hours, no holiday. */
export const STANDARD_WEEK: WorkingCalendar = { working_days: [1, 2, 3, 4, 5], hours_per_day: 8, holidays: new Set() };

/** A request's span: from a day's half to a day's half (and, for an hourly type, the hours of its one day). */
export interface Span {
  from_date: string;
  from_half: Half;
  to_date: string;
  to_half: Half;
  hours?: number | null;
}

/** Every half day a span covers, in order (weekends and holidays too: a request holds its whole span). */
export function halfDays(span: Span): Array<{ day: string; half: Half }> {
  const out: Array<{ day: string; half: Half }> = [];
  for (let day = span.from_date; day <= span.to_date; day = addDays(day, 1)) {
    for (const half of ['am', 'pm'] as const) {
      if (day === span.from_date && half === 'am' && span.from_half === 'pm') continue;
      if (day === span.to_date && half === 'pm' && span.to_half === 'am') continue;
      out.push({ day, half });
    }
  }
  return out;
}

/** Whether a day counts: a working day of the calendar and (when the type excludes them) not a holiday. */
export function counts(day: string, calendar: WorkingCalendar, holidaysExcluded: boolean): boolean {
  return calendar.working_days.includes(isoWeekday(day)) && !(holidaysExcluded && calendar.holidays.has(day));
}

/**
 * A span's duration in hundredths of the type's unit: for days and half days, 50 per half day that
 * counts (weekends and holidays count 0); for hours, the hours asked if their day counts.
 */
export function durationOf(unit: Unit, span: Span, calendarOn: CalendarOn, holidaysExcluded: boolean): number {
  if (unit === 'hour') return counts(span.from_date, calendarOn(span.from_date), holidaysExcluded) ? Math.round((span.hours ?? 0) * 100) : 0;
  return halfDays(span).filter((slot) => counts(slot.day, calendarOn(slot.day), holidaysExcluded)).length * 50;
}

/** Hundredths as the API answers them: `150` → `1.5`. */
export const units = (hundredths: number): number => hundredths / 100;

/** A number of the API in hundredths: `1.5` → `150`. */
export const hundredths = (value: number): number => Math.round(value * 100);
