import { isUuid, NotFoundError } from '@wpk/sdk';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Logger } from 'pino';
import { currentTransaction, outsideTransaction } from '../db/index.js';
import type { Mailer } from '../mail/index.js';
import type { Pagination } from '../server/index.js';
import { isHostPath, publicOrigin } from '../tenancy/index.js';
import { channelOfKind, type NotificationChannel } from './channels.js';
import type { PhonePushProvider, PhonePlatform } from './phone-push.js';
import type { PreferenceService } from './preferences.js';
import type { PushMessage } from './push-payload.js';
import type { WebPushSender } from './web-push.js';

/** One notification as its recipient lists it. */
export interface NotificationView {
  id: string;
  kind: string;
  channel: string;
  title: string;
  body: string;
  link: string | null;
  data: Record<string, unknown>;
  read: boolean;
  read_at: string | null;
  created_at: string;
}

/** What to tell someone. */
export interface NotificationInput {
  /** Machine-readable kind, e.g. `app.install_requested`. */
  kind: string;
  /** The channel whose preferences apply (default: from the kind, see `channelOfKind`). */
  channel?: NotificationChannel;
  title: string;
  body?: string;
  link?: string | null;
  data?: Record<string, unknown>;
  /** The event this notification is sent for: a redelivery of it stores and sends nothing again. */
  sourceEventId?: string;
}

/** A recipient: a member and the address mail goes to. */
export interface Recipient {
  member_id: string;
  email: string;
  name: string;
}

/** A mail to send once the request's transaction has committed. */
export interface PendingMail {
  to: string;
  subject: string;
  text: string;
}

/** What to deliver once the request's transaction has committed: mails and pushes. */
export type PendingDelivery =
  | { via: 'mail'; mail: PendingMail }
  | { via: 'push'; workspaceId: string; memberId: string; message: PushMessage }
  | { via: 'live'; workspaceId: string; memberId: string; notificationId: string };

/** Where the live bell hears of a member's notifications: `account/notifications/{member_id}` on the `/live` socket. */
export const notificationChannel = (memberId: string) => `account/notifications/${memberId}`;

/** What the live channel goes through (the live plugin's publisher). */
export interface NotificationLive {
  publish(workspaceId: string, publications: ReadonlyArray<{ channel: string; type: string; data: unknown; audience: string[] | null; revoke: string[] }>): Promise<void>;
}

interface Row {
  id: string;
  kind: string;
  channel: string;
  title: string;
  body: string;
  link: string | null;
  data: Record<string, unknown>;
  read_at: Date | null;
  created_at: Date;
}

const present = (row: Row): NotificationView => ({
  id: row.id,
  kind: row.kind,
  channel: row.channel,
  title: row.title,
  body: row.body,
  link: row.link,
  data: row.data,
  read: row.read_at !== null,
  read_at: row.read_at ? new Date(row.read_at).toISOString() : null,
  created_at: new Date(row.created_at).toISOString(),
});

/**
 * A notification's link as a mail carries it: a path of the workspace's pages (`/app/...`) under
 * the workspace's configured origin; anything else (already absolute, or none) as it is.
 */
export function mailLinkOf(publicUrl: string, subdomain: string, link: string): string {
  return isHostPath(link) ? `${publicOrigin(publicUrl, subdomain)}${link}` : link;
}

/** What the notification service is made of. */
export interface NotificationServiceParts {
  sequelize: Sequelize;
  logger: Logger;
  mailer: Mailer;
  preferences: PreferenceService;
  webPush: WebPushSender;
  phonePush: PhonePushProvider;
  /** The live channel of each member's notifications (absent: no live announcements). */
  live?: NotificationLive;
  /** The configured public URL (`PUBLIC_URL`): a mail's link is the workspace's origin under it plus the notification's path, never from a request's headers. */
  publicUrl: string;
}

/**
 * Notifications and their fan-out: rows per recipient (listed by that recipient only), a mail
 * through the platform mailer, and a push to the recipient's browsers and phones, each as the
 * recipient's preferences for the notification's channel say. Writes join the caller's
 * transaction; mails and pushes are returned for `deliver` after commit, so a failed request
 * neither stores a notification nor sends anything.
 */
export class NotificationService {
  private readonly sequelize: Sequelize;
  private readonly logger: Logger;

  constructor(private readonly parts: NotificationServiceParts) {
    this.sequelize = parts.sequelize;
    this.logger = parts.logger;
  }

  /** The joined, active owners and admins of a workspace. */
  async ownersAndAdmins(workspaceId: string): Promise<Array<Recipient & { role?: string }>> {
    return this.sequelize.query<Recipient & { role?: string }>(
      `SELECT m.id AS member_id, a.email, a.name, m.platform_role AS role
         FROM platform.members m JOIN platform.accounts a ON a.id = m.account_id
        WHERE m.workspace_id = :workspaceId AND m.platform_role IN ('owner', 'admin') AND m.state = 'joined' AND m.deactivated_at IS NULL
        ORDER BY m.created_at, m.id`,
      { type: QueryTypes.SELECT, replacements: { workspaceId } },
    );
  }

  /** Joined, active members by id (others are left out), with the address mail goes to. */
  async membersByIds(workspaceId: string, memberIds: readonly string[]): Promise<Recipient[]> {
    const ids = [...new Set(memberIds.filter((id) => isUuid(id)))];
    if (ids.length === 0) return [];
    return this.sequelize.query<Recipient>(
      `SELECT m.id AS member_id, a.email, a.name
         FROM platform.members m JOIN platform.accounts a ON a.id = m.account_id
        WHERE m.workspace_id = :workspaceId AND m.id IN (:ids) AND m.state = 'joined' AND m.deactivated_at IS NULL
        ORDER BY m.created_at, m.id`,
      { type: QueryTypes.SELECT, replacements: { workspaceId, ids } },
    );
  }

  /** The workspace's owner (billing is the owner's). */
  async owners(workspaceId: string): Promise<Recipient[]> {
    return (await this.ownersAndAdmins(workspaceId)).filter((recipient) => recipient.role === 'owner').map(({ role: _role, ...recipient }) => recipient);
  }

  /**
   * Stores one notification per recipient whose channel is enabled; returns the mails (every
   * stored one) and pushes (where the channel's `push` is on) to deliver after commit.
   */
  async notify(workspaceId: string, recipients: Recipient[], input: NotificationInput): Promise<PendingDelivery[]> {
    const channel = input.channel ?? channelOfKind(input.kind);
    const pending: PendingDelivery[] = [];
    const preferences = await this.parts.preferences.forChannel(workspaceId, recipients.map((recipient) => recipient.member_id), channel);
    const [workspace] = await this.sequelize.query<{ subdomain: string }>('SELECT subdomain FROM platform.workspaces WHERE id = :workspaceId', { type: QueryTypes.SELECT, replacements: { workspaceId } });
    const title = input.title.slice(0, 200);
    const body = (input.body ?? '').slice(0, 2000);
    // A mail is read outside the workspace's pages, so its link is absolute (a stored or pushed one stays the path the web opens).
    const mailLink = input.link && workspace ? mailLinkOf(this.parts.publicUrl, workspace.subdomain, input.link) : input.link;
    const text = [body, mailLink ? `\n${mailLink}` : ''].join('').trim();
    let stored = 0;
    for (const recipient of recipients) {
      const wanted = preferences.get(recipient.member_id)!;
      if (!wanted.enabled) continue;
      const [row] = await this.sequelize.query<{ id: string }>(
        `INSERT INTO platform.notifications (workspace_id, member_id, kind, channel, title, body, link, data, source_event_id)
         VALUES (:workspaceId, :memberId, :kind, :channel, :title, :body, :link, CAST(:data AS jsonb), :sourceEventId)
         ON CONFLICT (workspace_id, member_id, source_event_id) WHERE source_event_id IS NOT NULL DO NOTHING RETURNING id`,
        {
          type: QueryTypes.SELECT,
          replacements: { workspaceId, memberId: recipient.member_id, kind: input.kind, channel, title, body, link: input.link ?? null, data: JSON.stringify(input.data ?? {}), sourceEventId: input.sourceEventId ?? null },
        },
      );
      // Already sent for this event (a redelivery).
      if (!row) continue;
      stored += 1;
      pending.push({ via: 'live', workspaceId, memberId: recipient.member_id, notificationId: row.id });
      pending.push({ via: 'mail', mail: { to: recipient.email, subject: input.title, text: text || input.title } });
      if (wanted.push) {
        pending.push({
          via: 'push',
          workspaceId,
          memberId: recipient.member_id,
          message: { id: row.id, kind: input.kind, channel, title, body, link: input.link ?? null, sound: wanted.sound, workspace: workspace?.subdomain ?? '' },
        });
      }
    }
    this.logger.debug({ workspace_id: workspaceId, kind: input.kind, channel, recipients: recipients.length, stored }, 'notified');
    return pending;
  }

  /**
   * Sends what `notify` returned once the work that stored it has committed: best effort (the
   * notification is stored; a mail or push failure is logged, never fails the request). Called
   * after a request's commit it sends at once; called inside a transaction (an event's handler)
   * it sends after that commit, outside it, so a rolled-back delivery mails nobody and the sends'
   * own statements (push subscriptions read in parallel) never share the transaction's one
   * connection. Resolves when all is sent, or at once when it waits for a commit.
   */
  async deliver(pending: readonly PendingDelivery[]): Promise<void> {
    if (pending.length === 0) return;
    const transaction = currentTransaction();
    if (transaction) transaction.afterCommit(() => outsideTransaction(() => this.send(pending)));
    else await this.send(pending);
  }

  private async send(pending: readonly PendingDelivery[]): Promise<void> {
    await Promise.all(
      pending.map(async (item) => {
        try {
          if (item.via === 'mail') await this.parts.mailer.send(item.mail);
          else if (item.via === 'live') await this.announce(item.workspaceId, item.memberId, 'notification.created', item.notificationId);
          else await this.push(item.workspaceId, item.memberId, item.message);
        } catch (error) {
          this.logger.error({ err: error, via: item.via }, 'notification delivery failed');
        }
      }),
    );
  }

  /**
   * Tells the member's open pages (the bell's unread count) on their live channel, after commit;
   * best effort, like mail and push. `notification.created` or `notification.read`.
   */
  async announce(workspaceId: string, memberId: string, type: 'notification.created' | 'notification.read', notificationId: string): Promise<void> {
    const live = this.parts.live;
    if (!live) return;
    const publish = () => live.publish(workspaceId, [{ channel: notificationChannel(memberId), type, data: { id: notificationId }, audience: [memberId], revoke: [] }]);
    // Called inside a transaction, the announcement waits for its commit.
    const transaction = currentTransaction();
    if (!transaction) return publish();
    transaction.afterCommit(() => {
      publish().catch((error: unknown) => this.logger.error({ err: error }, 'notification delivery failed'));
    });
  }

  /** Pushes one message to every browser and phone of the member; gone subscriptions and devices are removed. */
  async push(workspaceId: string, memberId: string, message: PushMessage): Promise<void> {
    await this.parts.webPush.sendToMember(workspaceId, memberId, message);
    const devices = await this.sequelize.query<{ id: string; token: string; platform: PhonePlatform }>(
      'SELECT id, token, platform FROM platform.push_devices WHERE workspace_id = :workspaceId AND member_id = :memberId ORDER BY created_at, id',
      { type: QueryTypes.SELECT, replacements: { workspaceId, memberId } },
    );
    for (const device of devices) {
      const outcome = await this.parts.phonePush.send({ token: device.token, platform: device.platform }, message);
      if (outcome.status === 'unregistered') {
        await this.sequelize.query('DELETE FROM platform.push_devices WHERE workspace_id = :workspaceId AND id = :id', { replacements: { workspaceId, id: device.id } });
        this.logger.info({ workspace_id: workspaceId, device_id: device.id, provider: this.parts.phonePush.name }, 'push device unregistered: removed');
      } else if (outcome.status === 'failed') {
        this.logger.warn({ workspace_id: workspaceId, device_id: device.id, provider: this.parts.phonePush.name, error: outcome.error }, 'phone push failed');
      }
    }
  }

  /** One page of the recipient's notifications, newest first. */
  async list(workspaceId: string, memberId: string, pagination: Pagination, unreadOnly = false): Promise<{ rows: NotificationView[]; total: number }> {
    const filter = `workspace_id = :workspaceId AND member_id = :memberId${unreadOnly ? ' AND read_at IS NULL' : ''}`;
    const replacements = { workspaceId, memberId, limit: pagination.limit, offset: pagination.offset };
    const rows = await this.sequelize.query<Row>(`SELECT id, kind, channel, title, body, link, data, read_at, created_at FROM platform.notifications WHERE ${filter} ORDER BY created_at DESC, seq DESC LIMIT :limit OFFSET :offset`, {
      type: QueryTypes.SELECT,
      replacements,
    });
    const [{ total }] = await this.sequelize.query<{ total: number }>(`SELECT count(*)::int AS total FROM platform.notifications WHERE ${filter}`, { type: QueryTypes.SELECT, replacements });
    return { rows: rows.map(present), total };
  }

  /** Marks one of the recipient's notifications read or unread. */
  async setRead(workspaceId: string, memberId: string, id: string, read: boolean): Promise<NotificationView> {
    if (!isUuid(id)) throw new NotFoundError(`No notification ${id}`);
    const rows = await this.sequelize.query<Row>(
      `UPDATE platform.notifications SET read_at = CASE WHEN :read THEN coalesce(read_at, now()) ELSE NULL END
        WHERE id = :id AND workspace_id = :workspaceId AND member_id = :memberId
        RETURNING id, kind, channel, title, body, link, data, read_at, created_at`,
      { type: QueryTypes.SELECT, replacements: { id, workspaceId, memberId, read } },
    );
    if (rows.length === 0) throw new NotFoundError(`No notification ${id}`);
    return present(rows[0]);
  }
}
