/**
 * The bill editor's running totals, computed as the server computes a bill (services/compute.ts):
 * per line, rounded half away from zero to the currency's decimals, totals as sums of rounded
 * lines. Exact: amounts are integers of millionths (BigInt), never binary floats. No imports, so
 * the app's tests check it against the server's computation in Node.
 */

/** Currencies without decimals (the others the API takes have two). */
const NO_DECIMALS = new Set(['CLP', 'ISK', 'JPY', 'KRW', 'VND']);
export const currencyPlaces = (currency: string): number => (NO_DECIMALS.has(currency) ? 0 : 2);

const SCALE = 6;
const ONE = 10n ** BigInt(SCALE);
const HUNDRED = 100n * ONE;

/** A decimal string (`"12.5"`) as millionths, rounded half away from zero past the sixth decimal; null when it is not a number. */
export function toMicros(text: string): bigint | null {
  const match = /^\s*(-?)(\d*)(?:\.(\d*))?\s*$/.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return null;
  const fraction = (match[3] ?? '').padEnd(SCALE + 1, '0');
  let units = BigInt(match[2] || '0') * ONE + BigInt(fraction.slice(0, SCALE));
  if (Number(fraction[SCALE]) >= 5) units += 1n;
  return match[1] === '-' ? -units : units;
}

/** Millionths rounded half away from zero to `places` decimals (still in millionths). */
export function roundMicros(units: bigint, places: number): bigint {
  const step = 10n ** BigInt(SCALE - places);
  const sign = units < 0n ? -1n : 1n;
  return sign * (((units * sign + step / 2n) / step) * step);
}

/** Millionths as a decimal string with `places` decimals. */
export function fromMicros(units: bigint, places: number): string {
  const rounded = roundMicros(units, places);
  const sign = rounded < 0n ? '-' : '';
  const magnitude = rounded < 0n ? -rounded : rounded;
  const whole = magnitude / ONE;
  if (places === 0) return `${sign}${whole}`;
  return `${sign}${whole}.${(magnitude % ONE).toString().padStart(SCALE, '0').slice(0, places)}`;
}

/**
 * `amount × percent / 100` rounded to `places`. The product of an amount (at most 2 decimals) and a
 * rate (at most 4) has at most 8 decimals; cutting past the sixth (toward zero) never moves a value
 * across a rounding boundary of 2 decimals, so the result is the exact product rounded.
 */
export function percentOf(amount: bigint, percent: bigint, places: number): bigint {
  return roundMicros((amount * percent) / HUNDRED, places);
}

/** What the totals read of one line item: its amount and its taxes (by rate, else by amount), as typed. */
export interface TotalsItem {
  amount: string;
  taxes: Array<{ rate: string; amount: string | null; reverse_charge: boolean }>;
}

/** An adjustment as a bill holds it: `amount` already signed (a discount negative), `value` the percentage when it was given as one. */
export interface TotalsAdjustment {
  type: 'discount' | 'charge';
  value: string | null;
  amount: string;
}

export interface Totals {
  subtotal: string;
  tax: string;
  adjustments: string;
  total: string;
}

/** The bill's totals in its currency; null while an amount or a rate is not a number. An empty amount counts 0. */
export function billTotals(currency: string, items: TotalsItem[], adjustments: TotalsAdjustment[]): Totals | null {
  const places = currencyPlaces(currency);
  let subtotal = 0n;
  let tax = 0n;
  for (const item of items) {
    const amount = item.amount.trim() === '' ? 0n : toMicros(item.amount);
    if (amount === null) return null;
    const rounded = roundMicros(amount, places);
    subtotal += rounded;
    for (const line of item.taxes) {
      let value: bigint | null;
      if (line.rate.trim() !== '') {
        const rate = toMicros(line.rate);
        value = rate === null ? null : percentOf(rounded, rate, places);
      } else value = line.amount === null ? 0n : toMicros(line.amount);
      if (value === null) return null;
      if (!line.reverse_charge) tax += roundMicros(value, places);
    }
  }
  let adjusted = 0n;
  for (const adjustment of adjustments) {
    if (adjustment.value === null) {
      adjusted += toMicros(adjustment.amount) ?? 0n;
      continue;
    }
    const magnitude = percentOf(subtotal, toMicros(adjustment.value) ?? 0n, places);
    adjusted += adjustment.type === 'discount' ? -magnitude : magnitude;
  }
  return { subtotal: fromMicros(subtotal, places), tax: fromMicros(tax, places), adjustments: fromMicros(adjusted, places), total: fromMicros(subtotal + tax + adjusted, places) };
}
