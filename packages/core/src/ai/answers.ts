import { Joi, recordSchema } from '@wpk/sdk';
import type { ObjectSchema } from 'joi';

/** The answer of `POST /ai/commands`. */
export const AI_ANSWER: ObjectSchema = recordSchema({
  app: Joi.string(),
  q: Joi.string(),
  answer: Joi.string(),
  model: Joi.string().allow(null).description('The model that wrote the answer; null: the listing of matching records'),
  records: Joi.array().items(recordSchema({ type: Joi.string(), id: Joi.string().allow(''), title: Joi.string(), subtitle: Joi.string().allow(''), url: Joi.string() })),
}).id('AiAnswer');
