import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import { InvalidError, Joi } from '@wpk/sdk';
import type { Sequelize } from 'sequelize';
import { credentialsOf } from '../access/index.js';
import type { EventSink } from '../events/index.js';
import { collection, parsePagination, runInRequestTransaction, single } from '../server/index.js';
import { NOTIFICATION, NOTIFICATION_PREFERENCES, PUSH_DEVICE, PUSH_KEY, PUSH_SUBSCRIPTION } from './answers.js';
import { NOTIFICATION_CHANNELS, type ChannelPreferences, type NotificationChannel } from './channels.js';
import type { NotificationService } from './notification-service.js';
import { PHONE_PLATFORMS, type PhonePlatform } from './phone-push.js';
import type { PreferenceService } from './preferences.js';
import type { PushRegistrations } from './registrations.js';
import type { WebPushSender } from './web-push.js';

/** What the notification endpoints need. */
export interface NotificationEndpointServices {
  sequelize: Sequelize;
  sink: EventSink;
  notifications: NotificationService;
  preferences: PreferenceService;
  registrations: PushRegistrations;
  webPush: WebPushSender;
}

const api = { wpk: { kind: 'api' as const, scope: 'workspace' as const } };

/** A sound name: letters, digits, `-` and `_` (`none` is silent). */
const SOUND = Joi.string().min(1).max(50).pattern(/^[A-Za-z0-9_-]+$/, 'sound name (letters, digits, - and _)');

const base64urlBytes = (value: string) => (/^[A-Za-z0-9_-]+={0,2}$/.test(value) ? Buffer.from(value, 'base64url') : null);

/**
 * The caller's notifications (`GET /notifications`, `PATCH /notifications/{id}`), preferences
 * (`GET`/`PATCH /me/notification-preferences`), and push registration: the VAPID public key
 * browsers subscribe with (`GET /push-subscriptions/key`), `POST /push-subscriptions`,
 * `POST /push-devices`. Every route acts on the caller's own rows only.
 */
export function notificationEndpoints(services: NotificationEndpointServices): ServerRoute[] {
  const { notifications, preferences, registrations, webPush } = services;
  const workspaceId = (request: Request) => request.app.workspace!.id;
  const write = (request: Request, h: ResponseToolkit, work: () => Promise<unknown>) => runInRequestTransaction(services.sequelize, services.sink, request, h, work);

  return [
    {
      method: 'GET',
      path: '/notifications',
      options: { app: { ...api, answers: { collection: NOTIFICATION }, platformAccess: 'account.notifications.read' }, validate: { query: Joi.object({ unread: Joi.boolean() }).unknown(true) } },
      handler: async (request) => {
        const caller = credentialsOf(request).member;
        const pagination = parsePagination(request.query as Record<string, unknown>);
        const { rows, total } = await notifications.list(workspaceId(request), caller.id, pagination, (request.query as { unread?: boolean }).unread === true);
        return collection(request, rows, total, pagination);
      },
    },
    {
      method: 'PATCH',
      path: '/notifications/{notification_id}',
      options: { app: { ...api, answers: { single: NOTIFICATION }, platformAccess: 'account.notifications.edit' }, validate: { params: Joi.object({ notification_id: Joi.id().required() }), payload: Joi.object({ read: Joi.boolean().required() }) } },
      handler: async (request, h) => {
        const caller = credentialsOf(request).member;
        const id = String(request.params.notification_id);
        const answer = await write(request, h, async () => single(request, await notifications.setRead(workspaceId(request), caller.id, id, (request.payload as { read: boolean }).read)));
        // Committed: the member's other pages move their unread count.
        await notifications.announce(workspaceId(request), caller.id, 'notification.read', id).catch(() => undefined);
        return answer;
      },
    },
    {
      method: 'GET',
      path: '/me/notification-preferences',
      options: { app: { ...api, answers: { collection: NOTIFICATION_PREFERENCES }, platformAccess: 'account.notification_preferences.read' } },
      handler: async (request) => {
        const rows = await preferences.list(workspaceId(request), credentialsOf(request).member.id);
        const pagination = { page: 1, perPage: rows.length, limit: rows.length, offset: 0 };
        return collection(request, rows, rows.length, pagination);
      },
    },
    {
      method: 'PATCH',
      path: '/me/notification-preferences',
      options: {
        app: { ...api, answers: { anyOf: [{ single: NOTIFICATION_PREFERENCES }, { collection: NOTIFICATION_PREFERENCES }] }, platformAccess: 'account.notification_preferences.edit' },
        validate: {
          payload: Joi.object({
            channel: Joi.string().valid(...NOTIFICATION_CHANNELS),
            patch: Joi.object({ enabled: Joi.boolean(), toast: Joi.boolean(), push: Joi.boolean(), sound: SOUND }).unknown(true).required(),
          }).unknown(true),
        },
      },
      handler: (request, h) =>
        write(request, h, async () => {
          const { channel, patch } = request.payload as { channel?: NotificationChannel; patch: Partial<ChannelPreferences> };
          const known = { enabled: patch.enabled, toast: patch.toast, push: patch.push, sound: patch.sound };
          const given = Object.fromEntries(Object.entries(known).filter(([, value]) => value !== undefined)) as Partial<ChannelPreferences>;
          if (Object.keys(given).length === 0) throw new InvalidError('patch must set at least one of enabled, toast, push, sound');
          const memberId = credentialsOf(request).member.id;
          if (channel !== undefined) return single(request, await preferences.patch(workspaceId(request), memberId, channel, given));
          // Without a channel (the specification leaves it optional) the patch applies to every channel.
          for (const each of NOTIFICATION_CHANNELS) await preferences.patch(workspaceId(request), memberId, each, given);
          const rows = await preferences.list(workspaceId(request), memberId);
          return collection(request, rows, rows.length, { page: 1, perPage: rows.length, limit: rows.length, offset: 0 });
        }),
    },
    {
      method: 'GET',
      path: '/push-subscriptions/key',
      options: { app: { ...api, answers: { single: PUSH_KEY }, platformAccess: 'account.push_subscriptions.create' } },
      handler: (request) => single(request, { public_key: webPush.publicKey, content_encoding: 'aes128gcm' }),
    },
    {
      method: 'POST',
      path: '/push-subscriptions',
      options: {
        app: { ...api, answers: { single: PUSH_SUBSCRIPTION }, platformAccess: 'account.push_subscriptions.create' },
        validate: {
          payload: Joi.object({
            endpoint: Joi.string().min(10).max(2000).required(),
            keys: Joi.object({ p256dh: Joi.string().min(1).max(200).required(), auth: Joi.string().min(1).max(100).required() }).unknown(true).required(),
          }).unknown(true),
        },
      },
      handler: (request, h) =>
        write(request, h, async () => {
          const { endpoint, keys } = request.payload as { endpoint: string; keys: { p256dh: string; auth: string } };
          if (!webPush.acceptsEndpoint(endpoint)) throw new InvalidError('endpoint must be the https URL of a push service');
          const point = base64urlBytes(keys.p256dh);
          if (!point || point.length !== 65 || point[0] !== 4) throw new InvalidError('keys.p256dh must be the base64url of an uncompressed P-256 public key (65 bytes)');
          const secret = base64urlBytes(keys.auth);
          if (!secret || secret.length !== 16) throw new InvalidError('keys.auth must be the base64url of a 16-byte secret');
          return single(request, await registrations.subscribe(workspaceId(request), credentialsOf(request).member.id, { endpoint, p256dh: keys.p256dh, auth: keys.auth }));
        }),
    },
    {
      method: 'POST',
      path: '/push-devices',
      options: {
        app: { ...api, answers: { single: PUSH_DEVICE }, platformAccess: 'account.push_devices.create' },
        validate: {
          payload: Joi.object({
            token: Joi.string().min(20).max(4096).required(),
            platform: Joi.string()
              .valid(...PHONE_PLATFORMS)
              .required(),
          }).unknown(true),
        },
      },
      handler: (request, h) =>
        write(request, h, async () => {
          const { token, platform } = request.payload as { token: string; platform: PhonePlatform };
          if (/\s/.test(token)) throw new InvalidError('token must not contain spaces');
          return single(request, await registrations.register(workspaceId(request), credentialsOf(request).member.id, { token, platform }));
        }),
    },
  ];
}
