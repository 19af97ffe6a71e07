import { QueryTypes, type Sequelize } from 'sequelize';

/** One entry of a workspace's activity trail. */
export interface ActivityEntry {
  workspaceId: string;
  actor?: { memberId: string | null; email: string | null } | null;
  /** What happened: `session.created`, `member.invited`, ... */
  action: string;
  targetType?: string | null;
  targetId?: string | null;
  details?: Record<string, unknown>;
  ip?: string | null;
}

/** An activity row as the API and the CSV export show it. */
export interface PresentedActivity {
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

interface ActivityRow {
  id: string;
  seq: string;
  created_at: Date;
  actor_member_id: string | null;
  actor_email: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  details: Record<string, unknown>;
  ip: string | null;
}

/** Filters of a listing or an export. `after` and `before` are exclusive bounds. */
export interface ActivityFilter {
  actorMemberId?: string;
  after?: Date;
  before?: Date;
}

const present = (row: ActivityRow): PresentedActivity => ({
  id: row.id,
  occurred_at: new Date(row.created_at).toISOString(),
  actor_member_id: row.actor_member_id,
  actor_email: row.actor_email,
  action: row.action,
  target_type: row.target_type,
  target_id: row.target_id,
  details: row.details ?? {},
  ip: row.ip,
});

function whereClause(workspaceId: string, filter: ActivityFilter): { sql: string; replacements: Record<string, unknown> } {
  const conditions = ['workspace_id = :workspaceId'];
  const replacements: Record<string, unknown> = { workspaceId };
  if (filter.actorMemberId) {
    conditions.push('actor_member_id = :actorMemberId');
    replacements.actorMemberId = filter.actorMemberId;
  }
  if (filter.after) {
    conditions.push('created_at > :after');
    replacements.after = filter.after;
  }
  if (filter.before) {
    conditions.push('created_at < :before');
    replacements.before = filter.before;
  }
  return { sql: conditions.join(' AND '), replacements };
}

/** The workspace activity trail: written by identity's operations, read by GET /activity and the CSV export. */
export class ActivityLog {
  constructor(private readonly sequelize: Sequelize) {}

  async record(entry: ActivityEntry): Promise<void> {
    await this.sequelize.query(
      `INSERT INTO platform.activity (workspace_id, actor_member_id, actor_email, action, target_type, target_id, details, ip)
       VALUES (:workspaceId, :actorMemberId, :actorEmail, :action, :targetType, :targetId, CAST(:details AS jsonb), :ip)`,
      {
        replacements: {
          workspaceId: entry.workspaceId,
          actorMemberId: entry.actor?.memberId ?? null,
          actorEmail: entry.actor?.email ?? null,
          action: entry.action,
          targetType: entry.targetType ?? null,
          targetId: entry.targetId ?? null,
          details: JSON.stringify(entry.details ?? {}),
          ip: entry.ip ?? null,
        },
      },
    );
  }

  /** One page, newest first. */
  async list(workspaceId: string, filter: ActivityFilter, page: { limit: number; offset: number }): Promise<{ rows: PresentedActivity[]; total: number }> {
    const where = whereClause(workspaceId, filter);
    const rows = await this.sequelize.query<ActivityRow>(`SELECT * FROM platform.activity WHERE ${where.sql} ORDER BY created_at DESC, seq DESC LIMIT :limit OFFSET :offset`, {
      type: QueryTypes.SELECT,
      replacements: { ...where.replacements, limit: page.limit, offset: page.offset },
    });
    const [{ total }] = await this.sequelize.query<{ total: number }>(`SELECT count(*)::int AS total FROM platform.activity WHERE ${where.sql}`, { type: QueryTypes.SELECT, replacements: where.replacements });
    return { rows: rows.map(present), total };
  }

  /** Every matching entry, oldest first, read in batches (for the CSV export). */
  async *iterate(workspaceId: string, filter: ActivityFilter, batchSize = 500): AsyncGenerator<PresentedActivity> {
    const where = whereClause(workspaceId, filter);
    let last: { createdAt: Date; seq: string } | null = null;
    for (;;) {
      const after: string = last ? 'AND (created_at, seq) > (:lastAt, :lastSeq)' : '';
      const rows: ActivityRow[] = await this.sequelize.query<ActivityRow>(`SELECT * FROM platform.activity WHERE ${where.sql} ${after} ORDER BY created_at, seq LIMIT :limit`, {
        type: QueryTypes.SELECT,
        replacements: { ...where.replacements, limit: batchSize, lastAt: last?.createdAt ?? null, lastSeq: last?.seq ?? null },
      });
      for (const row of rows) yield present(row);
      if (rows.length < batchSize) return;
      const tail: ActivityRow = rows[rows.length - 1];
      last = { createdAt: tail.created_at, seq: tail.seq };
    }
  }
}
