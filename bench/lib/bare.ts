import Hapi from '@hapi/hapi';
import pg from 'pg';

/** A plain hapi server on a pg pool, serving one page + count of a tenant's rows: the baseline. */
export interface BareServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the bare baseline: `GET /bench-items` runs `pageSql` ($1 workspace, $2 limit,
 * $3 offset) and `countSql` ($1 workspace) on its own pool, with the same pool size the
 * platform uses, and answers `{data, total}`.
 */
export async function startBareServer(databaseUrl: string, poolSize: number, workspaceId: string, pageSql: string, countSql: string): Promise<BareServer> {
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
  await server.start();
  return {
    url: server.info.uri,
    async stop() {
      await server.stop();
      await pool.end();
    },
  };
}
