import { defineCorePlugin, inputs, plugins } from '../core-plugin.js';
import { NotificationService } from './notification-service.js';
import { FcmPhonePushProvider, LocalPhonePushProvider, type PhonePushProvider } from './phone-push.js';
import { PreferenceService } from './preferences.js';
import { PushRegistrations } from './registrations.js';
import { notificationEndpoints } from './routes.js';
import { installNotificationSenders } from './senders.js';
import { loadVapidKeys } from './vapid.js';
import { WebPushSender } from './web-push.js';

declare module '@hapi/hapi' {
  interface PluginProperties {
    notifications: {
      /** Notify members (stored, mailed, pushed as their preferences say). */
      service: NotificationService;
      /** The phone-push provider in use (the local one keeps what it was given: `sent`). */
      phonePush: PhonePushProvider;
      /** Web push: the VAPID public key and the sender. */
      webPush: WebPushSender;
    };
  }
}

/**
 * Notifications: the store and its fan-out (in-app rows, mail through the platform mailer, web
 * push with the VAPID keys of the data directory, phone push through the configured provider),
 * each member's preferences per channel, the push registrations, and the senders that notify
 * members of the events that concern them (mentions, chats, calls, tasks, billing, security, system),
 * and each member's live channel (`account/notifications/{member_id}`: the bell's unread count).
 */
export const notificationsPlugin = defineCorePlugin({
  name: 'notifications',
  deps: { config: inputs.config, logger: inputs.logger, seams: inputs.seams, db: plugins.db, events: plugins.events, mail: plugins.mail, live: plugins.live },
  after: ['server'],
  async register(server, { config, logger, seams, db, events, mail, live }) {
    const sequelize = db.database.sequelize;
    const keys = await loadVapidKeys(config.push.vapidKeys, config.dataDir);
    const webPush = new WebPushSender({ sequelize, logger, keys, subject: config.push.vapidSubject, ttlSeconds: config.push.ttlSeconds, allowHttp: config.push.allowHttpEndpoints });
    const phonePush: PhonePushProvider = seams.phonePush ?? (config.push.fcm ? new FcmPhonePushProvider(config.push.fcm) : new LocalPhonePushProvider());
    const preferences = new PreferenceService(sequelize);
    const service = new NotificationService({ sequelize, logger, mailer: mail.mailer, preferences, webPush, phonePush, live: live.publisher, publicUrl: config.publicUrl });
    server.route(notificationEndpoints({ sequelize, sink: events.bus.sink, notifications: service, preferences, registrations: new PushRegistrations(sequelize), webPush }));
    // Every channel but `apps` is fed by events of the catalog (senders.ts).
    installNotificationSenders(events.bus, service, logger);
    return { service, phonePush, webPush };
  },
});
