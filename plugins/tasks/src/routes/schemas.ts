import { Joi, type JoiArraySchema, type JoiObjectSchema, type JoiStringSchema } from '@wpk/sdk';
import { BOARD_ROLES, PRIORITIES } from '../models/index.js';

/**
 * joi fragments every route of the app shares, so one field has one rule everywhere. Bounds
 * the specification gives are kept verbatim; the others are the app's decisions
 * (docs/decisions/0125-tasks-boards.md, 0126-tasks-tasks.md).
 * Return types are spelled out so the published package's declarations name @wpk/sdk, not joi.
 */

/** An id (of any shape: the platform's id rule; an unknown one is a 404 or a 400 naming the field, from the service). */
export const id = (): JoiStringSchema => Joi.id();

/** A `YYYY-MM-DD` date that exists on the calendar (the platform's date rule). */
export const isoDate = (): JoiStringSchema => Joi.calendarDate();

/** A title: 1-200 characters once trimmed (a blank title would be an empty search result). */
export const title = (): JoiStringSchema => Joi.string().trim().min(1).max(200);

/** A board's canvas grid; `mode` is a closed set the specification leaves unlisted. */
export const grid = (): JoiObjectSchema =>
  Joi.object({
    mode: Joi.string().valid('none', 'dots', 'lines'),
    spacing: Joi.number().integer().min(4).max(200),
    snap: Joi.boolean(),
    background: Joi.string().max(200).allow(''),
    default_sticky_color: Joi.string().max(50),
  });

/** A board's lanes: 1-20 distinct names of 1-80 characters. */
export const lanes = (): JoiArraySchema => Joi.array().items(Joi.string().min(1).max(80)).min(1).max(20).unique();

/** A task priority. */
export const priority = (): JoiStringSchema => Joi.string().valid(...PRIORITIES);

/** A board member role (`owner`, `editor`, `viewer`). */
export const boardRole = (): JoiStringSchema => Joi.string().valid(...BOARD_ROLES);

/** A topic colour, `#rrggbb`. */
export const color = (): JoiStringSchema =>
  Joi.string()
    .pattern(/^#[0-9a-fA-F]{6}$/)
    .messages({ 'string.pattern.base': '{#label} must be a colour in #rrggbb form' });

/** Free-text search in a list (`q`). */
export const q = (): JoiStringSchema => Joi.string().max(200).allow('');
