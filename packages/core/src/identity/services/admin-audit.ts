import { QueryTypes, type Sequelize } from 'sequelize';

/** An admin-audit row as GET /admin-audit shows it. */
export interface PresentedAuditEntry {
  id: string;
  actor_member_id: string;
  actor_email: string | null;
  kind: 'elevation' | 'view' | 'change';
  action: string;
  target: string;
  reason: string | null;
  status: number | null;
  hits: number;
  first_at: string;
  last_at: string;
}

/** A row as the database returns it: the instants are still dates. */
type AuditRow = Omit<PresentedAuditEntry, 'first_at' | 'last_at'> & { first_at: Date; last_at: Date };

/**
 * What admins did while elevated. Views (GET) coalesce: the same actor, action and target make
 * one row whose `hits` counts them, bumped with one atomic upsert so concurrent views never lose
 * a count. Changes and elevations get one row each.
 */
export class AdminAudit {
  constructor(private readonly sequelize: Sequelize) {}

  async recordElevation(workspaceId: string, actorMemberId: string, reason: string, until: Date): Promise<void> {
    await this.sequelize.query(
      `INSERT INTO platform.admin_audit (workspace_id, actor_member_id, kind, action, target, reason, status)
       VALUES (:workspaceId, :actorMemberId, 'elevation', 'POST /elevations', :target, :reason, 200)`,
      { replacements: { workspaceId, actorMemberId, reason, target: `admin mode until ${until.toISOString()}` } },
    );
  }

  async recordView(workspaceId: string, actorMemberId: string, action: string, target: string, status: number): Promise<void> {
    await this.sequelize.query(
      `INSERT INTO platform.admin_audit AS audit (workspace_id, actor_member_id, kind, action, target, status)
       VALUES (:workspaceId, :actorMemberId, 'view', :action, :target, :status)
       ON CONFLICT (workspace_id, actor_member_id, action, target) WHERE kind = 'view'
       DO UPDATE SET hits = audit.hits + 1, last_at = clock_timestamp(), status = EXCLUDED.status`,
      { replacements: { workspaceId, actorMemberId, action: action.slice(0, 300), target: target.slice(0, 1000), status } },
    );
  }

  async recordChange(workspaceId: string, actorMemberId: string, action: string, target: string, status: number): Promise<void> {
    await this.sequelize.query(
      `INSERT INTO platform.admin_audit (workspace_id, actor_member_id, kind, action, target, status)
       VALUES (:workspaceId, :actorMemberId, 'change', :action, :target, :status)`,
      { replacements: { workspaceId, actorMemberId, action: action.slice(0, 300), target: target.slice(0, 1000), status } },
    );
  }

  /** One page, newest first (by the latest hit). */
  async list(workspaceId: string, page: { limit: number; offset: number }): Promise<{ rows: PresentedAuditEntry[]; total: number }> {
    const rows = await this.sequelize.query<AuditRow>(
      `SELECT audit.*, accounts.email AS actor_email
         FROM platform.admin_audit audit
         LEFT JOIN platform.members members ON members.workspace_id = audit.workspace_id AND members.id = audit.actor_member_id
         LEFT JOIN platform.accounts accounts ON accounts.id = members.account_id
        WHERE audit.workspace_id = :workspaceId
        ORDER BY audit.last_at DESC, audit.id DESC
        LIMIT :limit OFFSET :offset`,
      { type: QueryTypes.SELECT, replacements: { workspaceId, limit: page.limit, offset: page.offset } },
    );
    const [{ total }] = await this.sequelize.query<{ total: number }>('SELECT count(*)::int AS total FROM platform.admin_audit WHERE workspace_id = :workspaceId', {
      type: QueryTypes.SELECT,
      replacements: { workspaceId },
    });
    return {
      total,
      rows: rows.map((row) => ({
        id: row.id,
        actor_member_id: row.actor_member_id,
        actor_email: row.actor_email,
        kind: row.kind,
        action: row.action,
        target: row.target,
        reason: row.reason,
        status: row.status,
        hits: row.hits,
        first_at: new Date(row.first_at).toISOString(),
        last_at: new Date(row.last_at).toISOString(),
      })),
    };
  }
}
