/**
 * The platform's one rule for dates and instants: a calendar date is `YYYY-MM-DD` and must exist
 * (no 2027-02-30, no month 13); an instant is ISO 8601, at most 40 characters, every field in
 * range (no hour 25, no minute 60). Nothing rolls forward, unlike JavaScript's Date parser.
 */

/** The longest instant the specification allows (`expires_at`, `after`, `before`). */
export const MAX_INSTANT_LENGTH = 40;

/** What a refused calendar date answers, after its name. */
export const CALENDAR_DATE_RULE = 'must be a real date in YYYY-MM-DD form';

/** What a refused instant answers, after its name. */
export const INSTANT_RULE = 'must be a real date (YYYY-MM-DD) or ISO 8601 instant, for example 2027-01-31T09:30:00Z';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?)?$/;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : DAYS[month - 1];
}

function dayOf(year: string, month: string, day: string): number | null {
  const [y, m, d] = [Number(year), Number(month), Number(day)];
  if (m < 1 || m > 12 || d < 1 || d > daysIn(y, m)) return null;
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date.getTime();
}

/** A `YYYY-MM-DD` string as that day's UTC midnight; null when the form is wrong or the day does not exist. */
export function parseIsoDate(value: string): Date | null {
  const match = DATE.exec(value);
  if (!match) return null;
  const day = dayOf(match[1], match[2], match[3]);
  return day === null ? null : new Date(day);
}

/**
 * An ISO 8601 date or instant (`2027-01-31`, `2027-01-31T09:30`, `2027-01-31T09:30:00.5+02:00`)
 * as a Date; null when it is longer than 40 characters, malformed, or names a moment the calendar
 * does not have. A date alone is its UTC midnight; an instant without an offset is read as UTC.
 */
export function parseInstant(value: string): Date | null {
  if (value.length > MAX_INSTANT_LENGTH) return null;
  const match = INSTANT.exec(value);
  if (!match) return null;
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '0', , sign, offsetHours = '0', offsetMinutes = '0'] = match;
  const midnight = dayOf(year, month, day);
  if (midnight === null || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  if (Number(offsetHours) > 23 || Number(offsetMinutes) > 59) return null;
  const offset = (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes));
  const milliseconds = Math.floor(Number(`0.${fraction}`) * 1000);
  return new Date(midnight + ((Number(hour) * 60 + Number(minute) - offset) * 60 + Number(second)) * 1000 + milliseconds);
}
