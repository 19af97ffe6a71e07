import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { RUN_STATUSES, STEP_STATUSES, WAND_STATUSES } from '../models/index.js';

/** A wand: its draft definition, status and the version its runs execute. */
export const WAND: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  name: Joi.string(),
  owner_id: field.uuid(),
  status: field.oneOf(WAND_STATUSES),
  status_reason: Joi.string().allow(null).description('Why the platform paused (an overrun) or suspended it'),
  triggers: Joi.array().items(Joi.object().unknown(true)),
  steps: Joi.array().items(Joi.object().unknown(true)),
  scopes: Joi.array().items(Joi.string()),
  version: Joi.number().integer().min(1).allow(null).description('The version frozen at the last activation'),
  revision: Joi.number().integer().min(1),
  webhooks: Joi.object().unknown(true).description('New webhook triggers\' paths, by trigger id: shown once'),
  created_at: field.instant(),
  updated_at: field.instant(),
}, { optional: ['webhooks'] }).id('WandsWand');

export const DELETED_WAND: JoiObjectSchema = recordSchema({ id: field.uuid(), deleted: Joi.boolean().valid(true) }).id('WandsDeletedWand');

const STEP_LOG = Joi.object({
  position: Joi.number().integer(),
  step: Joi.number().integer(),
  type: Joi.string(),
  status: field.oneOf(STEP_STATUSES),
  attempt: Joi.number().integer(),
  output: Joi.any(),
  error: Joi.string().allow(null),
  microns: Joi.number().integer(),
});

/** A run: the version it pinned, its input, and (read alone) its per-step log, secrets redacted. */
export const RUN: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  wand_id: field.uuid(),
  version: Joi.number().integer().min(0).description('0: a dry run of the draft'),
  status: field.oneOf(RUN_STATUSES),
  dry_run: Joi.boolean(),
  trigger_id: Joi.string(),
  trigger_kind: Joi.string(),
  input: Joi.object().unknown(true),
  vars: Joi.object().unknown(true),
  next_step: Joi.number().integer(),
  error: Joi.string().allow(null),
  rerun_of: field.uuid().allow(null),
  microns: Joi.number().integer(),
  finished_at: field.instant().allow(null),
  created_at: field.instant(),
  steps: Joi.array().items(STEP_LOG),
}, { optional: ['steps'] }).id('WandsRun');

export const HOOK: JoiObjectSchema = recordSchema({ run_id: field.uuid(), status: field.oneOf(RUN_STATUSES), duplicate: Joi.boolean() }).id('WandsWebhookRun');

export const USAGE: JoiObjectSchema = recordSchema({
  period: Joi.string(),
  microns: Joi.number().integer(),
  allowance: Joi.number().integer(),
  remaining: Joi.number().integer(),
  by_wand: Joi.array().items(Joi.object({ wand_id: field.uuid(), microns: Joi.number().integer() })),
}).id('WandsUsage');
