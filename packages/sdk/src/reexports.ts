/**
 * What app code needs from the libraries the platform is built on, re-exported so an app
 * imports only `@wpk/sdk` (and always gets the same copies the runtime uses).
 */
import { col, DataTypes as SequelizeDataTypes, fn, Op as SequelizeOp } from 'sequelize';
import type OpTypes from 'sequelize/types/operators';
import { Joi as PlatformJoi } from './input/joi.js';

/**
 * joi, for route validation (`validate: { payload: Joi.object({...}) }`), with the platform's
 * input rules built in: every `Joi.string()` refuses NUL and unpaired surrogates, and
 * `Joi.id()`, `Joi.calendarDate()` and `Joi.instant()` are the one rule for ids and dates.
 */
export const Joi = PlatformJoi;

/** Sequelize column types, for `defineModel` (`DataTypes.STRING(200)`). */
export const DataTypes = SequelizeDataTypes;

/** Sequelize operators, for `where` clauses (`{ title: { [Op.iLike]: '%x%' } }`). */
export const Op: typeof OpTypes = SequelizeOp;

/**
 * `SUM(column)` for a read's `attributes` (`[[sumOf('amount'), 'total']]`): summed in SQL, exact on
 * a numeric column (the answer is a string; never add money in JavaScript floats). Built by the
 * same Sequelize the runtime's models use, which an aggregate must be.
 */
export const sumOf = (column: string): unknown => fn('SUM', col(column));

/** `COUNT(column)` for a read's `attributes`, as `sumOf`. */
export const countOf = (column: string): unknown => fn('COUNT', col(column));

/** Types of joi schemas an app may need in signatures. */
export type { ArraySchema as JoiArraySchema, Schema as JoiSchema, ObjectSchema as JoiObjectSchema, StringSchema as JoiStringSchema } from 'joi';
/** Sequelize types for model columns and query options (`where`, `order`). */
export type { DataType, FindOptions, ModelAttributeColumnOptions, Order, WhereOptions } from 'sequelize';
