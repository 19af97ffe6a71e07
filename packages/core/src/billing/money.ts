/**
 * Exact money: amounts are integer minor units (cents) held as bigint, written as decimal strings
 * with two places (`"96.00"`, `"-3.87"`). Nothing here goes through a binary float.
 */

const DECIMAL = /^-?(0|[1-9][0-9]{0,11})(\.[0-9]{1,2})?$/;

/** `"12.5"` → 1250n. Throws on anything but a plain decimal with at most two places. */
export function parseAmount(text: string): bigint {
  if (!DECIMAL.test(text)) throw new Error(`not an amount with at most two decimal places: ${JSON.stringify(text)}`);
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const cents = BigInt(whole) * 100n + BigInt((fraction + '00').slice(0, 2));
  return negative ? -cents : cents;
}

/** 1250n → `"12.50"`. */
export function formatAmount(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  return `${negative ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/**
 * `numerator / denominator` rounded to the nearest integer, halves away from zero (the
 * commercial rule). The proration of a line is `roundHalfUp(cents × remaining_ms, period_ms)`.
 */
export function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  const negative = numerator < 0n;
  const abs = negative ? -numerator : numerator;
  const rounded = (abs * 2n + denominator) / (denominator * 2n);
  return negative ? -rounded : rounded;
}

/** The instant `months` calendar months after `from` (UTC), clamped to the month's last day (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(from: Date, months: number): Date {
  const year = from.getUTCFullYear();
  const month = from.getUTCMonth() + months;
  const target = new Date(Date.UTC(year, month, 1, from.getUTCHours(), from.getUTCMinutes(), from.getUTCSeconds(), from.getUTCMilliseconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(from.getUTCDate(), lastDay));
  return target;
}
