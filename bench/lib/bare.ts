import { randomUUID } from 'node:crypto';
import Hapi from '@hapi/hapi';
import pg from 'pg';

/** A plain hapi server on a pg pool, serving one page + count of a tenant's rows: the baseline. */
export interface BareServer {
  url: string;
  stop(): Promise<void>;
}

/** The bare write: `itemSql` ($1 workspace, $2 label; returns the row) and an outbox row, in one transaction. */
export interface BareWrite {
  itemSql: string;
  /** $1 id, $2 workspace, $3 emitter, $4 action, $5 payload, $6 metadata. */
  outboxSql: string;
  emitter: string;
  action: string;
}

/**
 * Starts the bare baseline: `GET /bench-items` runs `pageSql` ($1 workspace, $2 limit,
 * $3 offset) and `countSql` ($1 workspace) on its own pool, with the same pool size the
 * platform uses, and answers `{data, total}`. With `write`, `POST /bench-items` inserts the item
 * and its event's outbox row in one transaction and answers `{data}`.
 */
export async function startBareServer(databaseUrl: string, poolSize: number, workspaceId: string, pageSql: string, countSql: string, write?: BareWrite): Promise<BareServer> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  const server = Hapi.server({ host: '127.0.0.1', port: 0 });
  server.route({
    method: 'GET',
    path: '/bench-items',
    handler: async (request) => {
      const page = Math.max(1, Number(request.query.page) || 1);
      const perPage = Math.min(100, Math.max(1, Number(request.query.per_page) || 25));
      const [items, count] = await Promise.all([pool.query(pageSql, [workspaceId, perPage, (page - 1) * perPage]), pool.query(countSql, [workspaceId])]);
      return { data: items.rows, total: count.rows[0].total };
    },
  });
  if (write) {
    server.route({
      method: 'POST',
      path: '/bench-items',
      handler: async (request) => {
        const { label } = request.payload as { label: string };
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const item = (await client.query(write.itemSql, [workspaceId, label])).rows[0];
          const id = randomUUID();
          const metadata = { workspace_id: workspaceId, event_id: id, emitter: write.emitter, emitted_at: new Date().toISOString() };
          await client.query(write.outboxSql, [id, workspaceId, write.emitter, write.action, { item_id: item.id, label: item.label }, metadata]);
          await client.query('COMMIT');
          return { data: item };
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        } finally {
          client.release();
        }
      },
    });
  }
  await server.start();
  return {
    url: server.info.uri,
    async stop() {
      await server.stop();
      await pool.end();
    },
  };
}
