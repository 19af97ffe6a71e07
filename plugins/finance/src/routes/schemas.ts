import { Joi, parseMrn, type JoiObjectSchema, type JoiSchema, type JoiStringSchema } from '@wpk/sdk';
import { ACCOUNT_TYPES, NORMAL_BALANCES } from '../models/index.js';
import { CURRENCY_CODES, places as places_ } from '../services/money.js';

/**
 * joi fragments shared by the routes. The specification's bounds are kept verbatim (code 1-20,
 * name 1-200, description max 1000, display_name max 200, idempotency_key max 100, memo max 5000,
 * notes max 2000, dates of at least 10 characters — here exactly `YYYY-MM-DD`); the others are the
 * app's decisions (docs/decisions/0134-finance-accounts.md to 0136-finance-ledger.md).
 */

export const id = (): JoiStringSchema => Joi.id();
export const isoDate = (): JoiStringSchema => Joi.calendarDate();
/** A JSON number with at most `places` decimals, in [min, max]. */
export const decimal = (min: number, max: number, places: number, exclusiveMin = false): JoiSchema =>
  (exclusiveMin ? Joi.number().greater(min) : Joi.number().min(min))
    .max(max)
    .custom((value: number, helpers) => (places_(value) > places ? helpers.error('number.places', { places }) : value))
    .messages({ 'number.places': `{#label} must have at most {#places} decimal places` });

/** An amount of money: 0 to 10^12, at most 2 decimals. */
export const money = (): JoiSchema => decimal(0, 1e12, 2);

/** An MRN (`mrn:{app}:{resource}:{id}`), at most 300 characters. */
export const mrn = (): JoiStringSchema =>
  Joi.string()
    .max(300)
    .custom((value: string, helpers) => (parseMrn(value) ? value : helpers.error('string.mrn')))
    .messages({ 'string.mrn': '{#label} must be an MRN (mrn:{app}:{resource}:{id})' });

export const currency = (): JoiStringSchema => Joi.string().valid(...CURRENCY_CODES).messages({ 'any.only': `{#label} must be an ISO 4217 currency code the app supports (${CURRENCY_CODES.join(', ')})` });

/** Department, location and project: each a string of at most 200 characters ("" or null: none). */
export const dimensions = (): JoiObjectSchema =>
  Joi.object({ department: Joi.string().max(200).allow('', null), location: Joi.string().max(200).allow('', null), project: Joi.string().max(200).allow('', null) });

export const accountType = (): JoiStringSchema => Joi.string().valid(...ACCOUNT_TYPES);
export const normalBalance = (): JoiStringSchema => Joi.string().valid(...NORMAL_BALANCES);

const tax = Joi.object({
  name: Joi.string().trim().min(1).max(100),
  rate: decimal(0, 100, 4),
  amount: money(),
  reverse_charge: Joi.boolean(),
});

const item = Joi.object({
  description: Joi.string().max(1000).allow(''),
  quantity: decimal(0, 1e6, 6),
  unit_price: decimal(0, 1e9, 6),
  discount: money(),
  amount: money(),
  account_code: Joi.string().min(1).max(20),
  product_mrn: mrn(),
  taxes: Joi.array().items(tax).max(10),
});

const adjustment = Joi.object({
  label: Joi.string().trim().min(1).max(200),
  type: Joi.string().valid('discount', 'charge').required(),
  value: decimal(0, 100, 4),
  amount: money(),
  account_code: Joi.string().min(1).max(20),
});

/** The bill body; `create` adds the required fields, `sources` and `idempotency_key`. */
export function billBody(create: boolean): JoiObjectSchema {
  const body = {
    date: create ? isoDate().required() : isoDate(),
    items: Joi.array().items(item).max(200),
    company_mrn: create ? mrn() : mrn().allow(null),
    contact_mrn: create ? mrn() : mrn().allow(null),
    currency: create ? currency().required() : currency(),
    exchange_rate: decimal(0, 1e6, 10, true),
    due_date: create ? isoDate() : isoDate().allow(null),
    memo: Joi.string().max(5000).allow(''),
    tags: Joi.array().items(Joi.string().trim().min(1).max(50)).max(50).unique(),
    adjustments: Joi.array().items(adjustment).max(20),
    dimensions: dimensions(),
  };
  if (!create) return Joi.object(body);
  return Joi.object({ ...body, sources: Joi.array().items(Joi.string().min(1).max(500)).max(50), idempotency_key: Joi.string().min(1).max(100) });
}

/** The budget body (POST: the starred fields required; PATCH: nothing required). */
export function budgetBody(create: boolean): JoiObjectSchema {
  const required = (schema: JoiSchema) => (create ? schema.required() : schema);
  return Joi.object({
    account_id: required(Joi.id()),
    period_start: required(isoDate()),
    period_end: required(isoDate()),
    amount: required(money()),
    dimensions: dimensions(),
    notes: Joi.string().max(2000).allow(''),
  });
}

/** `format=json` (default) or `csv`. */
export const format = (): JoiStringSchema => Joi.string().valid('json', 'csv');
