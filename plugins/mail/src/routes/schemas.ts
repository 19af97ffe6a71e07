import { Joi, type JoiArraySchema, type JoiObjectSchema, type JoiStringSchema } from '@wpk/sdk';

/** An id (any shape; an unknown one is a 404 or a 400 naming the field). */
export const id = (): JoiStringSchema => Joi.id();

/** A name of 1-100 characters. */
export const name = (max = 100): JoiStringSchema => Joi.string().trim().min(1).max(max);

/** A list of recipients: `{address, name?}`, at most 100. */
export const recipients = (): JoiArraySchema =>
  Joi.array()
    .items(Joi.object({ address: Joi.string().trim().lowercase().email({ tlds: false }).max(320).required(), name: Joi.string().max(200) }))
    .max(100);

/** What a member writes (a draft, a message). */
export const composition = {
  to: recipients(),
  cc: recipients(),
  bcc: recipients(),
  subject: Joi.string().max(998).allow(''),
  text: Joi.string().max(1_000_000).allow(''),
  html: Joi.string().max(1_000_000).allow(''),
  in_reply_to: Joi.string().max(998).allow(''),
  attachments: Joi.array().items(Joi.object({ file_key: Joi.string().max(500).required(), filename: Joi.string().trim().min(1).max(255) })).max(20),
};

/** A folder name: 1-40 characters. */
export const folder = (): JoiStringSchema => Joi.string().trim().min(1).max(40);

/** Free-text search in a list. */
export const q = (): JoiStringSchema => Joi.string().max(200).allow('');

/** A group member's tier. */
export const tier = (): JoiStringSchema => Joi.string().valid('owner', 'manager', 'member');

/** One condition of a filter. */
export const filterCondition = (): JoiObjectSchema =>
  Joi.object({ field: Joi.string().valid('from', 'to', 'subject', 'body').required(), operator: Joi.string().valid('contains', 'equals', 'ends_with').required(), value: Joi.string().min(1).max(500).required() });

/** One action of a filter. */
export const filterAction = (): JoiObjectSchema => Joi.object({ type: Joi.string().valid('move', 'mark_seen', 'flag', 'discard').required(), folder: folder() });

/** The answer to a DELETE. */
export const deleted = (id: string) => ({ id, deleted: true });
