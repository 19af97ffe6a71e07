/**
 * The notification channels a member sets preferences for (`PATCH /me/notification-preferences`).
 * Every notification belongs to exactly one; the kind's first segment names it when the sender
 * does not (`app.install_requested` is `apps`).
 */
export const NOTIFICATION_CHANNELS = ['apps', 'mentions', 'chat', 'calls', 'tasks', 'billing', 'security', 'system'] as const;

export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** A member's preferences on one channel. */
export interface ChannelPreferences {
  /** Off: nothing of this channel reaches the member (no in-app row, no mail, no push). */
  enabled: boolean;
  /** Show a toast in the open app when one arrives (read by the clients). */
  toast: boolean;
  /** Send it to the member's browsers and phones. */
  push: boolean;
  /** The sound the clients play (`none`: silent). */
  sound: string;
}

/** What a channel is set to until the member changes it. */
export const DEFAULT_PREFERENCES: Readonly<ChannelPreferences> = Object.freeze({ enabled: true, toast: true, push: true, sound: 'default' });

/** The channel of a notification kind: `apps` for `app.*`, else the kind's first segment when it is a channel, else `system`. */
export function channelOfKind(kind: string): NotificationChannel {
  const head = kind.split('.')[0];
  if (head === 'app') return 'apps';
  return (NOTIFICATION_CHANNELS as readonly string[]).includes(head) ? (head as NotificationChannel) : 'system';
}
