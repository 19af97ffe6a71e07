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

/**
 * What the totals read of one line item, as typed: its amount, or (when `unit_price` is given)
 * quantity × unit price − discount, and its taxes (by rate, else by amount).
 */
export interface TotalsItem {
  amount: string;
  quantity?: string;
  unit_price?: string;
  discount?: string;
  taxes: Array<{ rate: string; amount: string | null; reverse_charge: boolean }>;
}

/**
 * A line's amount in millionths, as the server makes it: with a unit price, `quantity` (1 when
 * empty) × unit price rounded to the currency, less the discount (an amount); else the amount
 * typed, rounded (empty counts 0). Null while a field is not a number.
 */
export function lineMicros(currency: string, item: Omit<TotalsItem, 'taxes'>): bigint | null {
  const places = currencyPlaces(currency);
  const typed = (text: string | undefined, empty: bigint): bigint | null => ((text ?? '').trim() === '' ? empty : toMicros(text!));
  if ((item.unit_price ?? '').trim() !== '') {
    const quantity = typed(item.quantity, ONE);
    const price = typed(item.unit_price, 0n);
    const discount = typed(item.discount, 0n);
    if (quantity === null || price === null || discount === null) return null;
    // quantity and unit price have at most 6 decimals each: the product cut past the sixth (toward zero) never crosses a rounding boundary of the currency.
    return roundMicros((quantity * price) / ONE, places) - discount;
  }
  const amount = typed(item.amount, 0n);
  return amount === null ? null : roundMicros(amount, places);
}

/** A line's amount as a decimal string with two decimals (what the server stores), or null while a field is not a number. */
export function lineAmount(currency: string, item: Omit<TotalsItem, 'taxes'>): string | null {
  const value = lineMicros(currency, item);
  return value === null ? null : fromMicros(value, 2);
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

/** The bill's totals in its currency; null while an amount, a rate or an adjustment is not a number. An empty amount counts 0. */
export function billTotals(currency: string, items: TotalsItem[], adjustments: TotalsAdjustment[]): Totals | null {
  const places = currencyPlaces(currency);
  let subtotal = 0n;
  let tax = 0n;
  for (const item of items) {
    const rounded = lineMicros(currency, item);
    if (rounded === null) return null;
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
    if (adjustment.value === null || adjustment.value.trim() === '') {
      const given = adjustment.amount.trim() === '' ? 0n : toMicros(adjustment.amount);
      if (given === null) return null;
      adjusted += roundMicros(given, places);
      continue;
    }
    const percent = toMicros(adjustment.value);
    if (percent === null) return null;
    const magnitude = percentOf(subtotal, percent, places);
    adjusted += adjustment.type === 'discount' ? -magnitude : magnitude;
  }
  // Two decimals, as the server stores them (a line's discount keeps its cents even in a currency without decimals).
  return { subtotal: fromMicros(subtotal, 2), tax: fromMicros(tax, 2), adjustments: fromMicros(adjusted, 2), total: fromMicros(subtotal + tax + adjusted, 2) };
}
