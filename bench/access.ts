/**
 * The cost of all five access layers. One list endpoint (a page of items + their count) served
 * twice on one database, in one run:
 *   bare      a plain hapi route on a pg pool, same two queries;
 *   platform  an app route (bench/apps/items) called with a member's full-access API key: tenancy,
 *             version check, layer 1 (key look-up), 2 (membership), 4 (installation + policy +
 *             roles), 5 (the app's slice of the member's role permissions + the route's chain),
 *             the app context, the request transaction, the envelope, the last-used stamp.
 * Goal: platform req/s >= 0.7 x bare, and platform p99 <= 2 x bare p99.
 *
 *   npx tsx bench/access.ts                       # embedded database
 *   DATABASE_URL=postgres://... npx tsx bench/access.ts
 * Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 10), BENCH_ROWS (default 1000).
 */
import { fileURLToPath } from 'node:url';
import { Runtime, createScratchDatabase, type RuntimeOptions } from '@wpk/core';
import { startBareServer } from './lib/bare.js';
import { load, printTable } from './lib/load.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const rows = Number(process.env.BENCH_ROWS ?? 1000);
const APP_DIR = fileURLToPath(new URL('./apps/items', import.meta.url));

const scratch = await createScratchDatabase();
const runtime = await Runtime.create({ databaseUrl: scratch.url, inMemory: scratch.url === undefined, logLevel: 'silent', port: 0, configFile: false, apps: [{ dir: APP_DIR, firstParty: true }] } as RuntimeOptions);
await runtime.migrate();
const owner = await runtime.identity.createWorkspaceWithOwner({ subdomain: 'bench', name: 'Bench', ownerEmail: 'owner@bench.test', ownerPassword: 'bench-owner-password' });
const other = await runtime.identity.createWorkspaceWithOwner({ subdomain: 'other', name: 'Other', ownerEmail: 'owner@other.test', ownerPassword: 'other-owner-password' });
const ownerKey = (await runtime.apiKeys.issueFullAccessKey(owner.workspaceId, owner.memberId, 'setup')).secret;

const headers = { host: 'bench.localhost', 'x-api-version': '2026-11-01' };
async function call(method: string, url: string, payload?: object) {
  const response = await runtime.server.inject({ method, url, headers: { ...headers, authorization: `Bearer ${ownerKey}`, ...(payload ? { 'content-type': 'application/json' } : {}) }, payload });
  if (response.statusCode !== 200) throw new Error(`${method} ${url} answered ${response.statusCode}: ${response.payload}`);
  return JSON.parse(response.payload);
}
await call('POST', '/applications/bench/installations', {});
const role = (await call('POST', '/roles', { name: 'Readers', permissions: { bench: ['bench.items.read'] } })).data.id as string;
await call('PUT', '/applications/bench/access', { access_policy: 'roles', allowed_roles: [role] });
const member = await runtime.identity.addMember({ workspaceId: owner.workspaceId, email: 'reader@bench.test', password: 'reader-password', platformRole: 'member' });
await call('PATCH', `/members/${member.memberId}`, { role_ids: [role] });
const memberKey = (await runtime.apiKeys.issueFullAccessKey(owner.workspaceId, member.memberId, 'bench')).secret;

const sequelize = runtime.db.sequelize;
await sequelize.query(`INSERT INTO app_bench.items (workspace_id, label) SELECT :ws, 'item ' || n FROM generate_series(1, :rows) n;
  INSERT INTO app_bench.items (workspace_id, label) SELECT :other, 'other ' || n FROM generate_series(1, :rows) n;`, { replacements: { ws: owner.workspaceId, other: other.workspaceId, rows } });
const platformUrl = await runtime.start();

const PAGE_SQL = 'SELECT id, label, created_at FROM app_bench.items WHERE workspace_id = $1 ORDER BY id LIMIT $2 OFFSET $3';
const COUNT_SQL = 'SELECT count(*)::int AS total FROM app_bench.items WHERE workspace_id = $1';
const bare = await startBareServer(runtime.db.url, runtime.db.isEmbedded ? 4 : 10, owner.workspaceId, PAGE_SQL, COUNT_SQL);

const keyHeaders = { ...headers, authorization: `Bearer ${memberKey}` };
console.log(`database: ${runtime.db.isEmbedded ? 'embedded (PGlite)' : 'PostgreSQL'}; ${rows} rows per workspace; ${connections} connections; ${seconds}s per run; member's full-access key`);
await load(`${bare.url}/bench-items?page=3`, headers, 2, connections);
await load(`${platformUrl}/bench-items?page=3`, keyHeaders, 2, connections);
const bareFigures = await load(`${bare.url}/bench-items?page=3`, headers, seconds, connections);
const platformFigures = await load(`${platformUrl}/bench-items?page=3`, keyHeaders, seconds, connections);

printTable([
  { route: 'bare hapi + pg', 'req/s': bareFigures.requestsPerSecond.toFixed(0), 'p50 ms': bareFigures.p50, 'p99 ms': bareFigures.p99, errors: bareFigures.errors + bareFigures.non2xx },
  { route: 'five layers (API key)', 'req/s': platformFigures.requestsPerSecond.toFixed(0), 'p50 ms': platformFigures.p50, 'p99 ms': platformFigures.p99, errors: platformFigures.errors + platformFigures.non2xx },
]);
const ratio = platformFigures.requestsPerSecond / bareFigures.requestsPerSecond;
const p99Ratio = platformFigures.p99 / Math.max(1, bareFigures.p99);
console.log(`ratio req/s platform/bare: ${ratio.toFixed(2)} (goal >= 0.70); p99 platform/bare: ${p99Ratio.toFixed(2)} (goal <= 2.00)`);

await bare.stop();
await runtime.stop();
await scratch.drop();
