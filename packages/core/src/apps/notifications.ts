import { isUuid, NotFoundError } from '@wpk/sdk';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Logger } from 'pino';
import type { Pagination } from '../server/index.js';

/** One notification as its recipient lists it. */
export interface NotificationView {
  id: string;
  kind: string;
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
  title: string;
  body?: string;
  link?: string | null;
  data?: Record<string, unknown>;
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

interface Row {
  id: string;
  kind: string;
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
  title: row.title,
  body: row.body,
  link: row.link,
  data: row.data,
  read: row.read_at !== null,
  read_at: row.read_at ? new Date(row.read_at).toISOString() : null,
  created_at: new Date(row.created_at).toISOString(),
});

/**
 * The in-app notification store: rows per recipient, listed by that recipient only. Writes join
 * the caller's transaction; the matching mails are returned for sending after commit, so a
 * failed request neither stores a notification nor sends a mail.
 */
export class NotificationService {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly logger: Logger,
  ) {}

  /** The joined, active owners and admins of a workspace. */
  async ownersAndAdmins(workspaceId: string): Promise<Recipient[]> {
    return this.sequelize.query<Recipient>(
      `SELECT m.id AS member_id, a.email, a.name
         FROM platform.members m JOIN platform.accounts a ON a.id = m.account_id
        WHERE m.workspace_id = :workspaceId AND m.platform_role IN ('owner', 'admin') AND m.state = 'joined' AND m.deactivated_at IS NULL
        ORDER BY m.created_at, m.id`,
      { type: QueryTypes.SELECT, replacements: { workspaceId } },
    );
  }

  /** Stores one notification per recipient; returns the mails to send after commit. */
  async notify(workspaceId: string, recipients: Recipient[], input: NotificationInput): Promise<PendingMail[]> {
    for (const recipient of recipients) {
      await this.sequelize.query(
        `INSERT INTO platform.notifications (workspace_id, member_id, kind, title, body, link, data)
         VALUES (:workspaceId, :memberId, :kind, :title, :body, :link, CAST(:data AS jsonb))`,
        {
          replacements: { workspaceId, memberId: recipient.member_id, kind: input.kind, title: input.title.slice(0, 200), body: (input.body ?? '').slice(0, 2000), link: input.link ?? null, data: JSON.stringify(input.data ?? {}) },
        },
      );
    }
    this.logger.debug({ workspace_id: workspaceId, kind: input.kind, recipients: recipients.length }, 'notified');
    const text = [input.body ?? '', input.link ? `\n${input.link}` : ''].join('').trim();
    return recipients.map((recipient) => ({ to: recipient.email, subject: input.title, text: text || input.title }));
  }

  /** One page of the recipient's notifications, newest first. */
  async list(workspaceId: string, memberId: string, pagination: Pagination, unreadOnly = false): Promise<{ rows: NotificationView[]; total: number }> {
    const filter = `workspace_id = :workspaceId AND member_id = :memberId${unreadOnly ? ' AND read_at IS NULL' : ''}`;
    const replacements = { workspaceId, memberId, limit: pagination.limit, offset: pagination.offset };
    const rows = await this.sequelize.query<Row>(`SELECT id, kind, title, body, link, data, read_at, created_at FROM platform.notifications WHERE ${filter} ORDER BY created_at DESC, seq DESC LIMIT :limit OFFSET :offset`, {
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
        RETURNING id, kind, title, body, link, data, read_at, created_at`,
      { type: QueryTypes.SELECT, replacements: { id, workspaceId, memberId, read } },
    );
    if (rows.length === 0) throw new NotFoundError(`No notification ${id}`);
    return present(rows[0]);
  }
}
