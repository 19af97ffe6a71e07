/**
 * The cost of core's request pipeline. The same list query (one page + a count over a tenant's
 * rows) is served twice, on one database, in one run:
 *   bare      a plain hapi route on a pg pool;
 *   pipeline  a route on the platform runtime: tenancy from the Host, X-Api-Version check,
 *             pagination parsing, collection envelope, error mapping, request logging.
 * autocannon drives each on loopback and the script prints req/s, p99 and their ratio.
 *
 *   npx tsx bench/pipeline.ts                      # embedded database
 *   DATABASE_URL=postgres://... npx tsx bench/pipeline.ts
 * Options (env): BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 10), BENCH_ROWS (default 1000).
 */
import { QueryTypes } from 'sequelize';
import { Runtime, collection, createScratchDatabase, parsePagination } from '@wpk/core';
import { startBareServer } from './lib/bare.js';
import { load, loadAverage, printTable } from './lib/load.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const rows = Number(process.env.BENCH_ROWS ?? 1000);

const PAGE_SQL = 'SELECT id, label, created_at FROM bench_items WHERE workspace_id = $1 ORDER BY id LIMIT $2 OFFSET $3';
const COUNT_SQL = 'SELECT count(*)::int AS total FROM bench_items WHERE workspace_id = $1';

const scratch = await createScratchDatabase();
const runtime = await Runtime.create({ databaseUrl: scratch.url, inMemory: scratch.url === undefined, logLevel: 'silent', port: 0 });
await runtime.migrate();
const workspace = await runtime.workspaces.create({ subdomain: 'bench', name: 'Bench' });
const other = await runtime.workspaces.create({ subdomain: 'other', name: 'Other' });
const sequelize = runtime.db.sequelize;
await sequelize.query(`CREATE TABLE bench_items (id serial PRIMARY KEY, workspace_id uuid NOT NULL, label text NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
  CREATE INDEX bench_items_workspace ON bench_items (workspace_id, id);`);
await sequelize.query(`INSERT INTO bench_items (workspace_id, label) SELECT :ws, 'item ' || n FROM generate_series(1, :rows) n;
  INSERT INTO bench_items (workspace_id, label) SELECT :other, 'other ' || n FROM generate_series(1, :rows) n;`, { replacements: { ws: workspace.id, other: other.id, rows } });

runtime.server.route({
  method: 'GET',
  path: '/bench-items',
  options: { auth: false },
  handler: async (request) => {
    const pagination = parsePagination(request.query);
    const workspaceId = request.app.workspace!.id;
    const [items, [{ total }]] = await Promise.all([
      sequelize.query(PAGE_SQL, { type: QueryTypes.SELECT, bind: [workspaceId, pagination.limit, pagination.offset] }),
      sequelize.query<{ total: number }>(COUNT_SQL, { type: QueryTypes.SELECT, bind: [workspaceId] }),
    ]);
    return collection(request, items, total, pagination);
  },
});
const pipelineUrl = await runtime.start();

// The bare route: same database, same queries, same pool size, no platform.
const bare = await startBareServer(runtime.db.url, runtime.db.isEmbedded ? 4 : 10, workspace.id, PAGE_SQL, COUNT_SQL);

const headers = { host: 'bench.localhost', 'x-api-version': '2026-11-01' };
console.log(`database: ${runtime.db.isEmbedded ? 'embedded (PGlite)' : 'PostgreSQL'}; ${rows} rows per workspace; ${connections} connections; ${seconds}s per run`);
// Warm both up, then measure.
await load({ url: `${bare.url}/bench-items?page=3`, headers }, 2, connections);
await load({ url: `${pipelineUrl}/bench-items?page=3`, headers }, 2, connections);
const bareFigures = await load({ url: `${bare.url}/bench-items?page=3`, headers }, seconds, connections);
const pipelineFigures = await load({ url: `${pipelineUrl}/bench-items?page=3`, headers }, seconds, connections);

printTable([
  { route: 'bare hapi + pg', 'req/s': bareFigures.requestsPerSecond.toFixed(0), 'p50 ms': bareFigures.p50, 'p99 ms': bareFigures.p99, errors: bareFigures.errors + bareFigures.non2xx },
  { route: 'core pipeline', 'req/s': pipelineFigures.requestsPerSecond.toFixed(0), 'p50 ms': pipelineFigures.p50, 'p99 ms': pipelineFigures.p99, errors: pipelineFigures.errors + pipelineFigures.non2xx },
]);
const ratio = pipelineFigures.requestsPerSecond / bareFigures.requestsPerSecond;
console.log(`load average ${loadAverage()}; ratio req/s pipeline/bare: ${ratio.toFixed(2)}; p99 pipeline/bare: ${(pipelineFigures.p99 / Math.max(1, bareFigures.p99)).toFixed(2)}`);

await bare.stop();
await runtime.stop();
await scratch.drop();
console.log(`ratio=${ratio.toFixed(2)}`);
