/**
 * The cost of all five access layers, read and write. Served on one database, in one run,
 * bare and platform interleaved (several rounds, so a change of load on the machine hits both):
 *   bare read       a plain hapi route on a pg pool: one page of items + their count;
 *   platform read   the same list as an app route (bench/apps/items) called with a member's
 *                   full-access API key: tenancy, version check, layer 1 (key look-up),
 *                   2 (membership), 4 (installation + policy + roles), 5 (the app's slice of the
 *                   member's role permissions + the route's chain), the app context, ctx.db, the
 *                   envelope;
 *   bare write      a plain route inserting an item and its event's outbox row in one transaction;
 *   platform write  POST of the app: the five layers, then ctx.db.items.create + ctx.events.stage
 *                   in the request's transaction.
 * Goals: read req/s >= 0.7 x bare and read p99 <= 2 x bare p99; write req/s >= 0.5 x bare.
 *
 *   npx tsx bench/access.ts                       # embedded database
 *   DATABASE_URL=postgres://... npx tsx bench/access.ts
 * Env: BENCH_SECONDS per run (default 5), BENCH_RUNS rounds (default 5), BENCH_CONNECTIONS
 * (default 10), BENCH_ROWS (default 1000), BENCH_TRACE=1 prints the statements of one request,
 * and the CPU per request over BENCH_TRACE_REQUESTS (default 200) sequential ones (with BENCH_ONLY,
 * of the read or the write pair only), then the same figure with bare and platform interleaved,
 * BENCH_BUILT=1 runs @wpk/core as it is published (built by tsup first; bench/lib/core.ts),
 * BENCH_ONLY='platform write' drives that route alone, and with BENCH_PROFILE=<file> writes the CPU
 * profile of that load alone (no set-up in it), with BENCH_HEAP=<file> its sampled allocations
 * (a .heapprofile, short-lived objects included; with BENCH_HEAP_SURVIVORS=1 only those that
 * outlived a young-generation collection).
 * Ends with one line: `ratio=<read req/s ratio> p99_ratio=<...> write_ratio=<...>`.
 */
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import inspector from 'node:inspector';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createHash } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import type { RuntimeOptions } from '@wpk/core';
import { startBareServer } from './lib/bare.js';
import { loadCore } from './lib/core.js';
import { databaseServerCpuMs, load, loadAverage, median, printTable, type LoadFigures, type LoadTarget } from './lib/load.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const rows = Number(process.env.BENCH_ROWS ?? 1000);
const APP_DIR = fileURLToPath(new URL('./apps/items', import.meta.url));

const { ACCESS_STATEMENTS, Runtime, createScratchDatabase } = await loadCore();
const scratch = await createScratchDatabase();
// No in-process broker: the events staged by the write pile up in the outbox exactly as the bare
// write's rows do; delivering them is bench/events.ts's concern.
const runtime = await Runtime.create({ databaseUrl: scratch.url, inMemory: scratch.url === undefined, logLevel: 'silent', port: 0, configFile: false, apps: [{ dir: APP_DIR, firstParty: true }], events: { broker: false } } as RuntimeOptions);
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
const role = (await call('POST', '/roles', { name: 'Writers', permissions: { bench: ['bench.items.read', 'bench.items.create'] } })).data.id as string;
await call('PUT', '/applications/bench/access', { access_policy: 'roles', allowed_roles: [role] });
const member = await runtime.identity.addMember({ workspaceId: owner.workspaceId, email: 'reader@bench.test', password: 'reader-password', platformRole: 'member' });
await call('PATCH', `/members/${member.memberId}`, { role_ids: [role] });
const memberKey = (await runtime.apiKeys.issueFullAccessKey(owner.workspaceId, member.memberId, 'bench')).secret;

const sequelize = runtime.db.sequelize;
await sequelize.query(`INSERT INTO app_bench.items (workspace_id, label) SELECT :ws, 'item ' || n FROM generate_series(1, :rows) n;
  INSERT INTO app_bench.items (workspace_id, label) SELECT :other, 'other ' || n FROM generate_series(1, :rows) n;`, { replacements: { ws: owner.workspaceId, other: other.workspaceId, rows } });
// What autovacuum would have done to a database in service (and what pgbench does after seeding):
// statistics for the planner and visibility maps for every table the set-up wrote, so neither side
// is measured on a freshly written database's planner guesses and per-row visibility checks.
await sequelize.query('VACUUM ANALYZE');
const platformUrl = await runtime.start();

const PAGE_SQL = 'SELECT id, label, created_at FROM app_bench.items WHERE workspace_id = $1 ORDER BY id LIMIT $2 OFFSET $3';
const COUNT_SQL = 'SELECT count(*)::int AS total FROM app_bench.items WHERE workspace_id = $1';
const bare = await startBareServer(runtime.db.url, runtime.db.isEmbedded ? 4 : 10, owner.workspaceId, PAGE_SQL, COUNT_SQL, {
  itemSql: 'INSERT INTO app_bench.items (workspace_id, label) VALUES ($1, $2) RETURNING id, label, created_at',
  outboxSql: 'INSERT INTO platform.events (id, workspace_id, emitter, action, payload, metadata) VALUES ($1, $2, $3, $4, $5, $6)',
  emitter: 'bench',
  action: 'core.bench.item.created',
});

/** The label of every row the write routes insert (removed after each write run). */
const WRITTEN_LABEL = 'a new item';
const keyHeaders = { ...headers, authorization: `Bearer ${memberKey}` };
const targets: Record<string, LoadTarget> = {
  'bare read': { url: `${bare.url}/bench-items?page=3`, headers },
  'platform read': { url: `${platformUrl}/bench-items?page=3`, headers: keyHeaders },
  'bare write': { url: `${bare.url}/bench-items`, headers, method: 'POST', body: { label: WRITTEN_LABEL } },
  'platform write': { url: `${platformUrl}/bench-items`, headers: keyHeaders, method: 'POST', body: { label: WRITTEN_LABEL } },
};

/** One request by node:http (fetch may not set Host); resolves to the status. */
function send(target: LoadTarget): Promise<number> {
  const body = target.body ? JSON.stringify(target.body) : undefined;
  return new Promise((resolve, reject) => {
    const request = http.request(target.url, { method: target.method ?? 'GET', headers: { ...target.headers, ...(body ? { 'content-type': 'application/json' } : {}) } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end(body);
  });
}

// The writes insert into the table the reads list: their rows are removed (and the table vacuumed)
// after every write run, so every read run lists the same seeded rows.
async function removeWrittenRows() {
  await sequelize.query('DELETE FROM app_bench.items WHERE label = :label', { replacements: { label: WRITTEN_LABEL } });
  await sequelize.query('VACUUM ANALYZE app_bench.items');
}

if (process.env.BENCH_TRACE === '1') {
  // Every statement each route sends for one request (pg's Client.query sees them all, Sequelize's
  // included), then the mean time of each statement and of the request over 200 sequential ones.
  let statements: Array<{ text: string; ms: number }> = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text: string; name?: string };
    const connection = (this as unknown as { processID?: number }).processID;
    const entry = { text: `[backend ${connection}] ${typeof config === 'string' ? config : `${config.name ? '[prepared] ' : ''}${config.text}`}`, ms: 0 };
    statements.push(entry);
    const start = performance.now();
    const result = (original as (...a: unknown[]) => unknown).apply(this, args) as Promise<unknown> | undefined;
    result?.then?.(
      () => (entry.ms = performance.now() - start),
      () => {},
    );
    return result;
  } as typeof original;
  const traced = Number(process.env.BENCH_TRACE_REQUESTS ?? 200);
  for (const [name, target] of Object.entries(targets)) {
    if (process.env.BENCH_ONLY && !process.env.BENCH_ONLY.includes(name.split(' ')[1])) continue;
    statements = [];
    const status = await send(target);
    console.log(`${name}: ${status}, ${statements.length} statements`);
    for (const { text } of statements) console.log(`  ${text.replace(/\s+/g, ' ').slice(0, 150)}`);
    const sums = new Map<string, number>();
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let index = 0; index < traced; index++) {
      statements = [];
      await send(target);
      for (const { text, ms } of statements) {
        const key = text.replace(/^\[backend \S+\] /, '').replace(/\s+/g, ' ').slice(0, 60);
        sums.set(key, (sums.get(key) ?? 0) + ms);
      }
    }
    const used = process.cpuUsage(cpu);
    if (target.method === 'POST') await removeWrittenRows();
    console.log(`  mean of ${traced} sequential: ${((performance.now() - started) / traced).toFixed(2)} ms per request, ${((used.user + used.system) / 1000 / traced).toFixed(3)} ms of this process's CPU (client included); per statement: ${[...sums].map(([text, ms]) => `${(ms / traced).toFixed(2)} ms ${text}`).join(' | ')}`);
  }
  pg.Client.prototype.query = original;
  // The same CPU figure, bare and platform interleaved in blocks of 20 requests: a change of the
  // machine's load (which moves the cost of every round trip) then weighs on both sides alike.
  for (const kind of ['read', 'write']) {
    if (process.env.BENCH_ONLY && !process.env.BENCH_ONLY.includes(kind)) continue;
    const used = { bare: 0, platform: 0 };
    const server = { bare: 0, platform: 0 };
    for (let done = 0; done < traced; done += 20) {
      for (const side of done % 40 === 0 ? (['bare', 'platform'] as const) : (['platform', 'bare'] as const)) {
        const cpu = process.cpuUsage();
        const serverBefore = databaseServerCpuMs() ?? 0;
        for (let index = 0; index < 20; index++) await send(targets[`${side} ${kind}`]);
        const spent = process.cpuUsage(cpu);
        used[side] += spent.user + spent.system;
        server[side] += (databaseServerCpuMs() ?? 0) - serverBefore;
      }
    }
    if (kind === 'write') await removeWrittenRows();
    const blocks = Math.ceil(traced / 20) * 20;
    const perRequest = (side: 'bare' | 'platform') => used[side] / 1000 / blocks;
    console.log(`${kind}, interleaved: ${perRequest('bare').toFixed(3)} ms CPU per bare request, ${perRequest('platform').toFixed(3)} ms per platform request (x${(perRequest('platform') / perRequest('bare')).toFixed(2)})`);
    // The local PostgreSQL server's share (from /proc, 10 ms ticks: meaningful over 1,000 requests or more).
    if (!runtime.db.isEmbedded && databaseServerCpuMs() !== null) {
      const serverPer = (side: 'bare' | 'platform') => server[side] / blocks;
      console.log(`${kind}, interleaved: the database server's CPU ${serverPer('bare').toFixed(3)} ms per bare request, ${serverPer('platform').toFixed(3)} ms per platform request; both processes ${(perRequest('bare') + serverPer('bare')).toFixed(3)} against ${(perRequest('platform') + serverPer('platform')).toFixed(3)} ms (x${((perRequest('platform') + serverPer('platform')) / (perRequest('bare') + serverPer('bare'))).toFixed(2)})`);
    }
  }
  const plan = await sequelize.query<Record<string, string>>(`EXPLAIN (ANALYZE, BUFFERS) ${ACCESS_STATEMENTS.withKey.text}`, {
    type: QueryTypes.SELECT,
    bind: ['bench', createHash('sha256').update(memberKey).digest('hex'), 'bench', new Date()],
  });
  console.log(`the access statement's plan:\n${plan.map((row) => Object.values(row)[0]).join('\n')}`);
}

console.log(`database: ${runtime.db.isEmbedded ? 'embedded (PGlite)' : 'PostgreSQL'}; ${rows} rows per workspace; ${connections} connections; ${runs} rounds of ${seconds}s per route, interleaved; member's full-access key; Node ${process.version}, core ${process.env.BENCH_BUILT === '1' ? 'built' : 'from sources'}`);
for (const target of Object.values(targets)) await load(target, 1, connections); // warm-up
await removeWrittenRows();

if (process.env.BENCH_ONLY) {
  // Profiling one route: drive it alone, then stop. With BENCH_PROFILE=<file> the CPU profile
  // covers that load only (not the set-up), so its times divide by the request count printed.
  const target = targets[process.env.BENCH_ONLY];
  if (!target) throw new Error(`BENCH_ONLY must be one of: ${Object.keys(targets).join(', ')}`);
  const profile = process.env.BENCH_PROFILE;
  const heap = process.env.BENCH_HEAP;
  const session = profile || heap ? new inspector.Session() : null;
  const post = (method: string, params?: object) => new Promise<unknown>((resolve, reject) => session!.post(method, params, (error, answer) => (error ? reject(error) : resolve(answer))));
  if (session) session.connect();
  if (profile) {
    await post('Profiler.enable');
    await post('Profiler.start');
  }
  if (heap) {
    // Every allocation of the load, the short-lived ones included (what the collector pays for);
    // with BENCH_HEAP_SURVIVORS=1 only what outlived a young-generation collection (what it copies
    // and promotes: a request's objects should not be there).
    await post('HeapProfiler.enable');
    await post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: !process.env.BENCH_HEAP_SURVIVORS });
  }
  const cpu = process.cpuUsage();
  const result = await load(target, seconds, connections);
  const used = process.cpuUsage(cpu);
  if (profile) {
    const { profile: taken } = (await post('Profiler.stop')) as { profile: object };
    writeFileSync(profile, JSON.stringify(taken));
  }
  if (heap) {
    const { profile: taken } = (await post('HeapProfiler.stopSampling')) as { profile: object };
    writeFileSync(heap, JSON.stringify(taken));
  }
  session?.disconnect();
  const requests = Math.round(result.requestsPerSecond * seconds);
  // This process's CPU per request (client included): unlike req/s, it does not move with the
  // time the scheduler gives the database server's processes instead of this one.
  console.log(`${process.env.BENCH_ONLY}: ${result.requestsPerSecond.toFixed(0)} req/s p99 ${result.p99} ms, ${requests} requests, ${((used.user + used.system) / requests).toFixed(0)} µs of this process's CPU per request (load average ${loadAverage()})`);
  await bare.stop();
  await runtime.stop();
  await scratch.drop();
  process.exit(0);
}

const figures: Record<string, LoadFigures[]> = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
const order = Object.keys(targets);
for (let round = 0; round < runs; round++) {
  // Alternate which of a pair goes first, so neither always runs on the warmer machine.
  const names = round % 2 === 0 ? order : [order[1], order[0], order[3], order[2]];
  const before = loadAverage();
  const line: string[] = [];
  for (const name of names) {
    const result = await load(targets[name], seconds, connections);
    figures[name].push(result);
    if (targets[name].method === 'POST') await removeWrittenRows();
    line.push(`${name} ${result.requestsPerSecond.toFixed(0)} req/s p99 ${result.p99} ms${result.errors + result.non2xx ? ` (${result.errors + result.non2xx} errors)` : ''}`);
  }
  console.log(`round ${round + 1} (load average ${before} -> ${loadAverage()}): ${line.join('; ')}`);
}

const total = (name: string) => figures[name].reduce((sum, run) => sum + run.requestsPerSecond, 0) / runs;
const p99 = (name: string) => median(figures[name].map((run) => run.p99));
printTable(
  Object.keys(targets).map((name) => ({
    route: name,
    'req/s (mean)': total(name).toFixed(0),
    'p50 ms (median)': median(figures[name].map((run) => run.p50)),
    'p99 ms (median)': p99(name),
    errors: figures[name].reduce((sum, run) => sum + run.errors + run.non2xx, 0),
  })),
);
const ratio = total('platform read') / total('bare read');
const p99Ratio = p99('platform read') / Math.max(1, p99('bare read'));
const writeRatio = total('platform write') / total('bare write');
console.log(`load average ${loadAverage()}; read req/s platform/bare ${ratio.toFixed(2)} (goal >= 0.70); read p99 platform/bare ${p99Ratio.toFixed(2)} (goal <= 2.00); write req/s platform/bare ${writeRatio.toFixed(2)} (goal >= 0.50)`);

await bare.stop();
await runtime.stop();
await scratch.drop();
console.log(`ratio=${ratio.toFixed(2)} p99_ratio=${p99Ratio.toFixed(2)} write_ratio=${writeRatio.toFixed(2)}`);
