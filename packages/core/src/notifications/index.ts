export { channelOfKind, DEFAULT_PREFERENCES, NOTIFICATION_CHANNELS, type ChannelPreferences, type NotificationChannel } from './channels.js';
export { NotificationService, type NotificationInput, type NotificationView, type PendingDelivery, type PendingMail, type Recipient } from './notification-service.js';
export { FcmPhonePushProvider, LocalPhonePushProvider, PHONE_PLATFORMS, type FcmServiceAccount, type PhoneDevice, type PhonePlatform, type PhonePushOutcome, type PhonePushProvider } from './phone-push.js';
export type { PushMessage } from './push-payload.js';
export { loadVapidKeys, VAPID_KEYS_FILE, type VapidKeys } from './vapid.js';
export { WebPushSender, type WebPushOutcome } from './web-push.js';
export { installNotificationSenders, memberIdOf, NOTIFICATION_SENDERS, type NotificationSender } from './senders.js';
