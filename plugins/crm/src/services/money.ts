import Decimal from 'decimal.js';

/**
 * Exact money: decimal.js in the code, `numeric` in the database, decimal strings in JSON
 * (`"1250.00"`). Line amounts are rounded half away from zero to cents, per line; totals are sums
 * of rounded lines.
 */
export const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Dec = InstanceType<typeof D>;

/** A decimal string (or a stored numeric) as a Decimal. */
export const dec = (value: string | number | Dec): Dec => (value instanceof D ? value : new D(typeof value === 'number' ? String(value) : value));

/** Two decimals, half away from zero. */
export const cents = (value: Dec): string => value.toDecimalPlaces(2, D.ROUND_HALF_UP).toFixed(2);

/** A stored numeric as the API's decimal string with exactly `places` decimals. */
export const money = (value: string | number, places = 2): string => dec(value).toFixed(places);

/** A quantity as answered: no trailing zeros (`"2"`, `"1.5"`). */
export const quantityText = (value: string | number): string => dec(value).toFixed();

/** The sum of decimal strings. */
export const total = (values: string[]): Dec => values.reduce((sum, value) => sum.plus(dec(value)), new D(0));

/** What an amount field accepts: a decimal string, at most 16 digits before the point and 2 after. */
export const MONEY_PATTERN = /^\d{1,16}(\.\d{1,2})?$/;
/** A quantity: at most 14 digits before the point and 4 after. */
export const QUANTITY_PATTERN = /^\d{1,14}(\.\d{1,4})?$/;
/** An ISO 4217 code. */
export const CURRENCY_PATTERN = /^[A-Z]{3}$/;
