import { Joi, recordSchema } from '@wpk/sdk';
import type { ObjectSchema } from 'joi';

/** One entry of `GET /audit`. */
export const AUDIT_ENTRY: ObjectSchema = recordSchema({
  id: Joi.string().guid(),
  occurred_at: Joi.date().iso(),
  actor_member_id: Joi.string().guid().allow(null),
  actor_email: Joi.string().allow(null),
  action: Joi.string(),
  target_type: Joi.string().allow(null),
  target_id: Joi.string().allow(null),
  details: Joi.object().unknown(true),
  ip: Joi.string().allow(null),
}).id('AuditEntry');
