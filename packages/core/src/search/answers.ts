import { Joi, recordSchema } from '@wpk/sdk';
import type { ObjectSchema } from 'joi';

/** One result of `GET`/`POST /search`, already ranked. */
export const SEARCH_HIT: ObjectSchema = recordSchema({
  type: Joi.string().description('The searchable type, e.g. task'),
  id: Joi.string().allow('').description("The record's badge (T-42); may be empty"),
  title: Joi.string().allow(''),
  subtitle: Joi.string().allow(''),
  url: Joi.string().description("Where the record opens in the app"),
  score: Joi.number(),
}).id('SearchHit');
