import { Joi, recordSchema } from '@wpk/sdk';
import type { ObjectSchema } from 'joi';

/** The records `GET /messages` and `GET /messages/{thread_id}` answer with. */

const instant = () => Joi.date().iso();

const THREAD_FIELDS = {
  id: Joi.string().description('A UUID for a workspace thread; `release-{version}` for the release notes of a version'),
  topic: Joi.string().valid('billing', 'release'),
  subject: Joi.string(),
  message_count: Joi.number().integer().min(0),
  last_message_at: instant(),
};

export const MESSAGE_THREAD: ObjectSchema = recordSchema(THREAD_FIELDS).id('MessageThread');

export const MESSAGE_THREAD_DETAIL: ObjectSchema = recordSchema({
  ...THREAD_FIELDS,
  messages: Joi.array().items(
    recordSchema({
      id: Joi.string().guid(),
      body: Joi.string(),
      title: Joi.string().allow(null),
      link: Joi.string().allow(null),
      created_at: instant(),
    }),
  ),
}).id('MessageThreadDetail');
