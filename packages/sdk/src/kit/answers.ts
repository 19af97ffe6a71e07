import type { Schema } from 'joi';
import { Joi } from '../input/joi.js';

/**
 * Building blocks of the records a route answers with (`answers` of a route, built with
 * `recordSchema`): the same few field shapes every app uses, written once. Each returns a new
 * joi schema, so `.allow(null)` and `.description(...)` can be added freely.
 */
export const field = {
  /** A UUID id. */
  uuid: (): Schema => Joi.string().guid(),
  /** An instant, sent as an ISO 8601 string. */
  instant: (): Schema => Joi.date().iso(),
  /** An instant or null. */
  optionalInstant: (): Schema => Joi.date().iso().allow(null),
  /** A `YYYY-MM-DD` calendar date. */
  date: (): Schema => Joi.string().pattern(/^\d{4}-\d{2}-\d{2}$/),
  /** `mrn:account:member:{id}`. */
  memberMrn: (): Schema => Joi.string().pattern(/^mrn:account:member:/),
  /** An MRN of any app's record (`mrn:{app}:{resource}:{id}`). */
  mrn: (): Schema => Joi.string().pattern(/^mrn:[a-z0-9][a-z0-9._-]*:[a-z0-9][a-z0-9._-]*:[^:]+$/),
  /** A whole number of at least 0. */
  count: (): Schema => Joi.number().integer().min(0),
  /** An exact decimal amount as a string (`"1250.00"`): money is never a float. */
  decimal: (): Schema => Joi.string().pattern(/^-?\d+(\.\d+)?$/),
  /** One of a closed set of values. */
  oneOf: (values: readonly string[]): Schema => Joi.string().valid(...values),
};
