import { Joi, recordSchema } from '@wpk/sdk';
import type { ObjectSchema } from 'joi';

/** The records the key-management routes answer with (service.ts presents them). */

const instant = () => Joi.date().iso();

export const API_KEY: ObjectSchema = recordSchema({
  id: Joi.string().guid(),
  name: Joi.string(),
  prefix: Joi.string().description('The start of the secret, shown to tell keys apart'),
  full_access: Joi.boolean(),
  scopes: Joi.array().items(Joi.string()),
  status: Joi.string().valid('active', 'revoked', 'expired'),
  expires_at: instant().allow(null),
  never_expires: Joi.boolean(),
  last_used_at: instant().allow(null),
  member: recordSchema({ id: Joi.string().guid(), name: Joi.string().allow(''), email: Joi.string() }),
  created_at: instant(),
  updated_at: instant(),
}).id('ApiKey');

/** A key with its secret: answered once, when the key is created or its secret rotated. */
export const API_KEY_WITH_SECRET: ObjectSchema = API_KEY.keys({ secret: Joi.string().pattern(/^slk_/).required().description('The whole key; shown only in this answer') }).id('ApiKeyWithSecret');

export const DELETED_API_KEY: ObjectSchema = recordSchema({ id: Joi.string(), deleted: Joi.boolean().valid(true) }).id('DeletedApiKey');
