import { Joi, recordSchema } from '@wpk/sdk';
import type { ObjectSchema } from 'joi';
import { NOTIFICATION_CHANNELS } from './channels.js';
import { PHONE_PLATFORMS } from './phone-push.js';

/** The records the notification routes answer with. */

const instant = () => Joi.date().iso();

export const NOTIFICATION: ObjectSchema = recordSchema({
  id: Joi.string().guid(),
  kind: Joi.string(),
  channel: Joi.string(),
  title: Joi.string(),
  body: Joi.string().allow(''),
  link: Joi.string().allow(null),
  data: Joi.object().unknown(true),
  read: Joi.boolean(),
  read_at: instant().allow(null),
  created_at: instant(),
}).id('Notification');

export const NOTIFICATION_PREFERENCES: ObjectSchema = recordSchema({
  channel: Joi.string().valid(...NOTIFICATION_CHANNELS),
  enabled: Joi.boolean(),
  toast: Joi.boolean(),
  push: Joi.boolean(),
  sound: Joi.string(),
  customized: Joi.boolean().description('False while the channel has its defaults'),
}).id('NotificationPreferences');

export const PUSH_KEY: ObjectSchema = recordSchema({
  public_key: Joi.string().description('The VAPID public key (base64url) to subscribe with'),
  content_encoding: Joi.string().valid('aes128gcm'),
}).id('PushKey');

export const PUSH_SUBSCRIPTION: ObjectSchema = recordSchema({
  id: Joi.string().guid(),
  member_id: Joi.string().guid(),
  endpoint: Joi.string(),
  created_at: instant(),
  updated_at: instant(),
}).id('PushSubscription');

export const PUSH_DEVICE: ObjectSchema = recordSchema({
  id: Joi.string().guid(),
  member_id: Joi.string().guid(),
  platform: Joi.string().valid(...PHONE_PLATFORMS),
  token_suffix: Joi.string().description('The last 8 characters of the token'),
  created_at: instant(),
  updated_at: instant(),
}).id('PushDevice');
