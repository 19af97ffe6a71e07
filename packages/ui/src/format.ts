/**
 * Dates and amounts in the member's locale and time zone, through `Intl` (no library, no data to
 * ship). The kit's `wpk-date` and `wpk-money` use these; so can any app code.
 */

/** How a date is shown: `date` (12 Mar 2027), `datetime` (12 Mar 2027, 14:05), `time`, `relative` (in 3 days). */
export type DateStyle = 'date' | 'datetime' | 'time' | 'relative';

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Formats an ISO instant or a `YYYY-MM-DD` day. A day has no time zone: it is shown as the same
 * calendar day everywhere (a due date of 2027-03-12 is the 12th in Tokyo and in Lima).
 */
export function formatDate(value: string | Date, options: { locale: string; timeZone: string; style?: DateStyle; now?: Date }): string {
  const style = options.style ?? 'date';
  const day = typeof value === 'string' && DAY_ONLY.test(value);
  const date = typeof value === 'string' ? new Date(day ? `${value}T00:00:00Z` : value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  const timeZone = day ? 'UTC' : options.timeZone;
  if (style === 'relative') return relative(date, options.now ?? new Date(), options.locale, day);
  const parts: Intl.DateTimeFormatOptions =
    style === 'time' ? { timeStyle: 'short' } : style === 'datetime' && !day ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' };
  return new Intl.DateTimeFormat(options.locale, { ...parts, timeZone }).format(date);
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

function relative(date: Date, now: Date, locale: string, day: boolean): string {
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  let delta = date.getTime() - now.getTime();
  if (day) {
    // Whole calendar days between today (UTC) and the day.
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    delta = date.getTime() - today;
    return format.format(Math.round(delta / 86_400_000), 'day');
  }
  for (const [unit, size] of UNITS) if (Math.abs(delta) >= size) return format.format(Math.round(delta / size), unit);
  return format.format(Math.round(delta / 1000), 'second');
}

/**
 * Formats an amount of money. The platform sends amounts as decimal strings (`"1234.50"`, never
 * floats): `Intl.NumberFormat` formats the string as it is, without a round trip through a
 * binary float, so `"0.10"` never becomes `0.1000000000000000055`.
 */
export function formatMoney(amount: string | number, currency: string, options: { locale: string; display?: 'symbol' | 'code' }): string {
  const format = new Intl.NumberFormat(options.locale, { style: 'currency', currency, currencyDisplay: options.display ?? 'symbol' });
  // Intl.NumberFormat takes decimal strings exactly (ECMA-402, NumberFormat v3); its typings lag.
  return format.format(amount as unknown as number);
}

/** A count of bytes as `1.5 MB` in the locale. */
export function formatBytes(bytes: number, locale: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
    // Whole bytes read in full ("26 bytes"): the short form of a byte is "byte" whatever the count.
  return new Intl.NumberFormat(locale, { style: 'unit', unit: units[unit], unitDisplay: unit === 0 ? 'long' : 'short', maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value);
}
