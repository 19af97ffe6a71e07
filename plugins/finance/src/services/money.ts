import Decimal from 'decimal.js';

/**
 * Exact money. Every amount is a decimal.js `Decimal` in the code and `numeric` in PostgreSQL;
 * JSON carries amounts as decimal strings (`"1234.50"`), never floats. A request's JSON numbers
 * are read through their shortest decimal spelling (`0.1` is exactly `0.1`).
 *
 * The rounding rule: every computed amount is rounded **half away from zero** (`ROUND_HALF_UP`
 * in decimal.js, which rounds the magnitude) to the currency's minor unit, **per line**: each
 * item's amount, each tax line, each adjustment, and each journal line converted to the base
 * currency. Totals are sums of rounded lines (never rounded again). When converting a bill to the
 * base currency makes its debits and credits differ by rounding, the difference is posted to the
 * rounding account (system role `rounding`), as ERPNext posts its round-off.
 */
export const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Dec = InstanceType<typeof D>;

/**
 * ISO 4217 codes the app accepts, with their number of decimals (minor unit). Amounts are stored
 * with two decimals, so currencies with three (BHD, KWD, ...) are not offered yet.
 */
export const CURRENCIES: Readonly<Record<string, number>> = Object.freeze({
  AED: 2, ARS: 2, AUD: 2, BGN: 2, BRL: 2, CAD: 2, CHF: 2, CLP: 0, CNY: 2, COP: 2, CZK: 2, DKK: 2, EGP: 2, EUR: 2, GBP: 2,
  HKD: 2, HUF: 2, IDR: 2, ILS: 2, INR: 2, ISK: 0, JPY: 0, KES: 2, KRW: 0, MAD: 2, MXN: 2, MYR: 2, NGN: 2, NOK: 2,
  NZD: 2, PHP: 2, PKR: 2, PLN: 2, QAR: 2, RON: 2, SAR: 2, SEK: 2, SGD: 2, THB: 2, TRY: 2, TWD: 2, UAH: 2, USD: 2,
  VND: 0, ZAR: 2,
});
export const CURRENCY_CODES = Object.keys(CURRENCIES);

/** Decimals of a currency (2 for one the table does not know). */
export const minorUnit = (currency: string): number => CURRENCIES[currency] ?? 2;

/** A JSON number (or a decimal string from storage) as an exact decimal. */
export const dec = (value: number | string | Dec): Dec => (value instanceof D ? value : new D(typeof value === 'number' ? String(value) : value));

/** Rounded to `currency`'s minor unit, half away from zero. */
export const round = (value: Dec, currency: string): Dec => value.toDecimalPlaces(minorUnit(currency), D.ROUND_HALF_UP);

/** A stored/returned decimal string with exactly `places` decimals (`"12.50"`). */
export const fixed = (value: Dec, places = 2): string => value.toFixed(places);

/** Sum of decimals. */
export const sum = (values: Dec[]): Dec => values.reduce((total, value) => total.plus(value), new D(0));

/** Decimal places written in a JSON number (`12.345` → 3). */
export const places = (value: number): number => new D(String(value)).decimalPlaces();
