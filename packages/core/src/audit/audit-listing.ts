import { isUuid } from '@wpk/sdk';
import { QueryTypes, type Sequelize } from 'sequelize';

/** The filters of `GET /audit`. `after` and `before` are exclusive bounds. */
export interface AuditFilter {
  /** An action, or a prefix ending in `*` (`system.security.*`). */
  action?: string;
  /** The member who acted. */
  actor?: string;
  targetType?: string;
  targetId?: string;
  after?: Date;
  before?: Date;
}

/** One entry of the audit trail as `GET /audit` answers it. */
export interface AuditEntry {
  id: string;
  occurred_at: string;
  actor_member_id: string | null;
  actor_email: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  details: Record<string, unknown>;
  ip: string | null;
}

interface Row {
  id: string;
  created_at: Date;
  actor_member_id: string | null;
  actor_email: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  details: Record<string, unknown> | null;
  ip: string | null;
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (character) => `\\${character}`);

/** The workspace's audit trail (`platform.activity`: identity's operations and the `system.security.*` events), filtered, newest first. */
export class AuditListing {
  constructor(private readonly sequelize: Sequelize) {}

  async list(workspaceId: string, filter: AuditFilter, page: { limit: number; offset: number }): Promise<{ rows: AuditEntry[]; total: number }> {
    // Member ids are UUIDs: any other actor matches no entry.
    if (filter.actor !== undefined && !isUuid(filter.actor)) return { rows: [], total: 0 };
    const conditions = ['workspace_id = :workspaceId'];
    const replacements: Record<string, unknown> = { workspaceId };
    if (filter.action !== undefined) {
      if (filter.action.endsWith('*')) {
        conditions.push("action LIKE :actionPrefix ESCAPE '\\'");
        replacements.actionPrefix = `${escapeLike(filter.action.slice(0, -1))}%`;
      } else {
        conditions.push('action = :action');
        replacements.action = filter.action;
      }
    }
    if (filter.actor !== undefined) {
      conditions.push('actor_member_id = :actor');
      replacements.actor = filter.actor;
    }
    if (filter.targetType !== undefined) {
      conditions.push('target_type = :targetType');
      replacements.targetType = filter.targetType;
    }
    if (filter.targetId !== undefined) {
      conditions.push('target_id = :targetId');
      replacements.targetId = filter.targetId;
    }
    if (filter.after !== undefined) {
      conditions.push('created_at > :after');
      replacements.after = filter.after;
    }
    if (filter.before !== undefined) {
      conditions.push('created_at < :before');
      replacements.before = filter.before;
    }
    const where = conditions.join(' AND ');
    const rows = await this.sequelize.query<Row>(
      `SELECT id, created_at, actor_member_id, actor_email, action, target_type, target_id, details, ip FROM platform.activity WHERE ${where} ORDER BY created_at DESC, seq DESC LIMIT :limit OFFSET :offset`,
      { type: QueryTypes.SELECT, replacements: { ...replacements, limit: page.limit, offset: page.offset } },
    );
    const [{ total }] = await this.sequelize.query<{ total: number }>(`SELECT count(*)::int AS total FROM platform.activity WHERE ${where}`, { type: QueryTypes.SELECT, replacements });
    return {
      rows: rows.map((row) => ({
        id: row.id,
        occurred_at: new Date(row.created_at).toISOString(),
        actor_member_id: row.actor_member_id,
        actor_email: row.actor_email,
        action: row.action,
        target_type: row.target_type,
        target_id: row.target_id,
        details: row.details ?? {},
        ip: row.ip,
      })),
      total,
    };
  }
}
