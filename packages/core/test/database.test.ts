import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { DataTypes, Model, QueryTypes } from 'sequelize';
import { DataDirectoryLockedError, EmbeddedPostgres, lockDataDirectory, migrateDown, migrateUp, pendingMigrations, scopeToWorkspace } from '../src/index.js';
import { beginTransaction, commitTransaction, Database, parseTimestamptz, rollbackTransaction, statement } from '../src/db/index.js';
import { scopedPlainModel } from '../src/apps/models.js';
import { joinSql, sql } from '@wpk/sdk';
import { pino } from 'pino';
import { startTestRuntime, type TestRuntime } from './helpers/runtime.js';

let env: TestRuntime;

test.before(async () => {
  env = await startTestRuntime();
});

test.after.always(async () => {
  await env?.close();
});

test('the platform schema is migrated and its extensions are loaded', async (t) => {
  const [rows] = await env.runtime.db.sequelize.query(`SELECT extname FROM pg_extension WHERE extname IN ('pg_trgm', 'fuzzystrmatch', 'unaccent') ORDER BY extname`);
  t.deepEqual(rows, [{ extname: 'fuzzystrmatch' }, { extname: 'pg_trgm' }, { extname: 'unaccent' }]);
  const [distance] = await env.runtime.db.sequelize.query(`SELECT levenshtein('kitten', 'sitting') AS d, similarity('hello', 'hallo') > 0 AS similar`);
  t.deepEqual(distance, [{ d: 3, similar: true }]);
});

test('the embedded database keeps planner statistics itself (no autovacuum there); PostgreSQL leaves it to autovacuum', async (t) => {
  const statistics = env.runtime.server.plugins.db.statistics;
  if (!env.runtime.db.isEmbedded) {
    t.is(statistics, null);
    return;
  }
  const lastAnalyze = async () => {
    const [row] = await env.runtime.db.sequelize.query<{ last_analyze: Date | null }>("SELECT last_analyze FROM pg_stat_user_tables WHERE schemaname = 'platform' AND relname = 'api_keys'", { type: QueryTypes.SELECT });
    return row.last_analyze;
  };
  t.is(await lastAnalyze(), null, 'a runtime that did not start its server has not run a pass yet');
  await statistics!.run();
  t.true((await lastAnalyze()) instanceof Date);
});

test('each migration set gets its own schema and bookkeeping table, up and down', async (t) => {
  const sequelize = env.runtime.db.sequelize;
  const set = {
    schema: 'app_fixture',
    migrations: [
      { name: '0001-notes', up: async () => void (await sequelize.query('CREATE TABLE app_fixture.notes (id serial PRIMARY KEY)')), down: async () => void (await sequelize.query('DROP TABLE app_fixture.notes')) },
      { name: '0002-tags', up: async () => void (await sequelize.query('CREATE TABLE app_fixture.tags (id serial PRIMARY KEY)')), down: async () => void (await sequelize.query('DROP TABLE app_fixture.tags')) },
    ],
  };
  t.deepEqual(await migrateUp(sequelize, set), ['0001-notes', '0002-tags']);
  t.deepEqual(await migrateUp(sequelize, set), []);
  const [applied] = await sequelize.query('SELECT name FROM app_fixture.migrations ORDER BY name');
  t.deepEqual(applied, [{ name: '0001-notes' }, { name: '0002-tags' }]);
  t.deepEqual(await migrateDown(sequelize, set), ['0002-tags', '0001-notes']);
  const tables = await sequelize.query(`SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = 'app_fixture' ORDER BY 1`, { type: QueryTypes.SELECT });
  t.deepEqual(tables, [{ name: 'migrations' }]);
});

test('a failing migration leaves nothing half-applied', async (t) => {
  const sequelize = env.runtime.db.sequelize;
  const set = {
    schema: 'app_broken',
    migrations: [
      { name: '0001-ok', up: async () => void (await sequelize.query('CREATE TABLE app_broken.ok (id int)')) },
      { name: '0002-fails', up: async () => void (await sequelize.query('CREATE TABLE app_broken.ok (id int)')) },
    ],
  };
  await t.throwsAsync(() => migrateUp(sequelize, set), { name: 'MigrationError', message: 'Migration 0002-fails (up) failed: Original error: relation "ok" already exists' });
  const tables = await sequelize.query(`SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = 'app_broken'`, { type: QueryTypes.SELECT });
  t.deepEqual(tables, []);
});

test('a bookkeeping table made by umzug 3 (SequelizeStorage) reads as applied', async (t) => {
  const sequelize = env.runtime.db.sequelize;
  // What umzug 3.8.3's SequelizeStorage ran through Sequelize 6 (model sync, then one create per migration).
  await sequelize.query('CREATE SCHEMA app_legacy');
  await sequelize.query('CREATE TABLE IF NOT EXISTS "app_legacy"."migrations" ("name" VARCHAR(255) NOT NULL UNIQUE , PRIMARY KEY ("name"));');
  for (const name of ['0002-b', '0000-gone', '0001-a']) await sequelize.query('INSERT INTO "app_legacy"."migrations" ("name") VALUES ($1) RETURNING "name";', { bind: [name] });
  const calls: string[] = [];
  const step = (name: string) => ({ name, up: async () => void calls.push(`up ${name}`), down: async () => void calls.push(`down ${name}`) });
  const set = { schema: 'app_legacy', migrations: [step('0001-a'), step('0002-b'), step('0003-c'), { name: '0004-d', up: async () => void calls.push('up 0004-d') }] };
  t.deepEqual(await pendingMigrations(sequelize, set), ['0003-c', '0004-d']);
  const progress: string[] = [];
  t.deepEqual(await migrateUp(sequelize, set, (p) => progress.push(`${p.schema} ${p.name} ${p.phase}`)), ['0003-c', '0004-d']);
  t.deepEqual(progress, ['app_legacy 0003-c started', 'app_legacy 0003-c applied', 'app_legacy 0004-d started', 'app_legacy 0004-d applied']);
  t.deepEqual(await pendingMigrations(sequelize, set), []);
  const names = async () => (await sequelize.query<{ name: string }>('SELECT name FROM app_legacy.migrations ORDER BY name', { type: QueryTypes.SELECT })).map((row) => row.name);
  t.deepEqual(await names(), ['0000-gone', '0001-a', '0002-b', '0003-c', '0004-d']);
  await t.throwsAsync(() => migrateDown(sequelize, set, '0000-gone'), { message: `Couldn't find migration to apply with name "0000-gone"` });
  await t.throwsAsync(() => migrateDown(sequelize, set), { name: 'MigrationError', message: 'Migration 0004-d (down) failed: Original error: Migration app_legacy/0004-d cannot be reverted' });
  const revertible = { ...set, migrations: set.migrations.slice(0, 3) };
  t.deepEqual(await migrateDown(sequelize, revertible, '0002-b'), ['0003-c', '0002-b']);
  t.deepEqual(calls, ['up 0003-c', 'up 0004-d', 'down 0003-c', 'down 0002-b']);
  t.deepEqual(await names(), ['0000-gone', '0001-a', '0004-d']);
  t.deepEqual(await pendingMigrations(sequelize, set), ['0002-b', '0003-c']);
  const columns = await sequelize.query(
    `SELECT column_name::text AS name, data_type::text AS type, character_maximum_length::int AS length, is_nullable::text AS nullable FROM information_schema.columns WHERE table_schema = 'app_legacy' AND table_name = 'migrations'`,
    { type: QueryTypes.SELECT },
  );
  t.deepEqual(columns, [{ name: 'name', type: 'character varying', length: 255, nullable: 'NO' }]);
});

test('tenant-scoped models never see or touch another workspace', async (t) => {
  const { runtime } = env;
  const a = await runtime.workspaces.create({ subdomain: 'scope-a', name: 'A' });
  const b = await runtime.workspaces.create({ subdomain: 'scope-b', name: 'B' });
  const sequelize = runtime.db.sequelize;
  await sequelize.query('CREATE TABLE public.scoped_notes (id uuid PRIMARY KEY, workspace_id uuid NOT NULL, body text NOT NULL)');
  class Note extends Model {
    declare id: string;
    declare workspace_id: string;
    declare body: string;
  }
  Note.init(
    { id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 }, workspace_id: { type: DataTypes.UUID, allowNull: false }, body: DataTypes.TEXT },
    { sequelize, tableName: 'scoped_notes', timestamps: false },
  );
  const notesA = scopeToWorkspace(Note, a.id);
  const notesB = scopeToWorkspace(Note, b.id);
  const first = await notesA.create({ body: 'a1' } as never);
  await notesA.create({ body: 'a2' } as never);
  const other = await notesB.create({ body: 'b1' } as never);
  t.is(first.workspace_id, a.id);
  t.deepEqual((await notesA.findAll({ order: [['body', 'ASC']] })).map((note) => note.body), ['a1', 'a2']);
  t.is(await notesB.count(), 1);
  t.is(await notesA.findById(other.id), null);
  // A filter naming another workspace does not widen the scope.
  t.is(await notesA.count({ where: { workspace_id: b.id } }), 0);
  t.is(await notesA.update({ body: 'changed' }, { where: { id: other.id } }), 0);
  t.is(await notesA.destroy({ where: { id: other.id } }), 0);
  t.is((await Note.findByPk(other.id))?.body, 'b1');
});

test('a scoped upsert inserts or updates in one statement, in its own workspace only; update: [] keeps the row as it is', async (t) => {
  const { runtime } = env;
  const a = await runtime.workspaces.create({ subdomain: 'upsert-a', name: 'A' });
  const b = await runtime.workspaces.create({ subdomain: 'upsert-b', name: 'B' });
  const sequelize = runtime.db.sequelize;
  await sequelize.query(`CREATE TABLE public.upsert_members (workspace_id uuid NOT NULL, member_id text NOT NULL, role text NOT NULL, note text,
    created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL, PRIMARY KEY (workspace_id, member_id))`);
  class Membership extends Model {
    declare workspace_id: string;
    declare member_id: string;
    declare role: string;
    declare note: string | null;
    declare created_at: Date;
    declare updated_at: Date;
  }
  Membership.init(
    { member_id: { type: DataTypes.TEXT, primaryKey: true }, workspace_id: { type: DataTypes.UUID, allowNull: false }, role: DataTypes.TEXT, note: DataTypes.TEXT },
    { sequelize, tableName: 'upsert_members', underscored: true, createdAt: 'created_at', updatedAt: 'updated_at' },
  );
  const inA = scopeToWorkspace(Membership, a.id);
  const inB = scopeToWorkspace(Membership, b.id);
  const statements: string[] = [];
  const first = await inA.upsert({ member_id: 'm1', role: 'viewer', note: 'first', workspace_id: b.id } as never, { conflictFields: ['member_id'] });
  t.deepEqual([first.workspace_id, first.role, first.note], [a.id, 'viewer', 'first'], 'workspace_id is forced, whatever the values say');
  const second = await sequelize.transaction(() =>
    inA.upsert({ member_id: 'm1', role: 'editor' } as never, { conflictFields: ['member_id'] }),
  );
  t.deepEqual([second.role, second.note, second.created_at.getTime()], ['editor', 'first', first.created_at.getTime()], 'a conflict updates the given columns only');
  t.true(second.updated_at.getTime() >= first.updated_at.getTime());
  const other = await inB.upsert({ member_id: 'm1', role: 'owner' } as never, { conflictFields: ['member_id'] });
  t.is(other.workspace_id, b.id);
  const rows = await sequelize.query<{ ws: string; role: string }>('SELECT workspace_id AS ws, role FROM public.upsert_members ORDER BY role', { type: QueryTypes.SELECT });
  t.deepEqual(rows, [{ ws: a.id, role: 'editor' }, { ws: b.id, role: 'owner' }], "the same key in another workspace is another row; A's is untouched");

  const kept = await inA.upsert({ member_id: 'm1', role: 'admin', note: 'ignored' } as never, { conflictFields: ['member_id'], update: [] });
  t.deepEqual([kept.role, kept.note, kept.updated_at.getTime()], ['editor', 'first', second.updated_at.getTime()], 'update: [] returns the stored row unchanged');
  const fresh = await inA.upsert({ member_id: 'm2', role: 'viewer' } as never, { conflictFields: ['member_id'], update: [] });
  t.deepEqual([fresh.workspace_id, fresh.member_id, fresh.role], [a.id, 'm2', 'viewer'], 'update: [] still inserts a new row');

  // Other tests of this file run alongside: count only the statements on this table.
  const options = (sequelize as unknown as { options: { logging: unknown } }).options;
  options.logging = (sql: string) => void (sql.includes('upsert_members') && statements.push(sql));
  try {
    await inA.upsert({ member_id: 'm3', role: 'viewer' } as never, { conflictFields: ['member_id'] });
  } finally {
    options.logging = false;
  }
  t.is(statements.length, 1, 'one statement');
  t.regex(statements[0], /INSERT INTO "upsert_members" .* ON CONFLICT \("workspace_id","member_id"\) DO UPDATE SET/);

  await t.throwsAsync(() => inA.upsert({ member_id: 'm1', role: 'x' } as never, { conflictFields: ['workspace_id'] }), { instanceOf: TypeError, message: `${Membership.name}.upsert: workspace_id is always part of the key and is never updated; do not name it` });
  await t.throwsAsync(() => inA.upsert({ member_id: 'm1', role: 'x' } as never, { conflictFields: ['nope'] }), { instanceOf: TypeError, message: `${Membership.name}.upsert: nope is not a column of ${Membership.name}` });
  await t.throwsAsync(() => inA.upsert({ role: 'x' } as never, { conflictFields: ['member_id'] }), { instanceOf: TypeError, message: `${Membership.name}.upsert: values must give member_id (a conflict field)` });
  await t.throwsAsync(() => inA.upsert({ member_id: 'm1', role: 'x' } as never, { conflictFields: ['role'] }), { message: `${Membership.name}.upsert: the table needs a primary key or unique index on exactly (workspace_id, role)` });
});

test('concurrent upserts of one key all succeed and leave one row (on PostgreSQL, forced to collide)', async (t) => {
  const { runtime } = env;
  const ws = await runtime.workspaces.create({ subdomain: 'upsert-race', name: 'Race' });
  const sequelize = runtime.db.sequelize;
  await sequelize.query('CREATE TABLE public.upsert_race (workspace_id uuid NOT NULL, k text NOT NULL, n int NOT NULL, PRIMARY KEY (workspace_id, k))');
  class Counter extends Model {
    declare k: string;
    declare n: number;
  }
  Counter.init({ k: { type: DataTypes.TEXT, primaryKey: true }, workspace_id: { type: DataTypes.UUID, allowNull: false }, n: DataTypes.INTEGER }, { sequelize, tableName: 'upsert_race', timestamps: false });
  const scoped = scopeToWorkspace(Counter, ws.id);
  // The gate holds every insert until all three transactions are waiting on it, then lets them collide.
  const gate = runtime.db.isEmbedded ? null : await sequelize.transaction();
  if (gate) await sequelize.query('LOCK TABLE public.upsert_race IN SHARE MODE', { transaction: gate });
  const racers = [1, 2, 3].map((n) => sequelize.transaction(() => scoped.upsert({ k: 'same', n } as never, { conflictFields: ['k'] })));
  if (gate) {
    for (;;) {
      const [{ waiting }] = await sequelize.query<{ waiting: number }>(
        "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        { type: QueryTypes.SELECT },
      );
      if (waiting >= 3) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await gate.commit();
  }
  const results = await Promise.allSettled(racers);
  t.deepEqual(results.map((result) => result.status), ['fulfilled', 'fulfilled', 'fulfilled']);
  const rows = await sequelize.query<{ k: string }>('SELECT k FROM public.upsert_race', { type: QueryTypes.SELECT });
  t.deepEqual(rows, [{ k: 'same' }]);
});

test('a second opener of an embedded data directory gets a clear error; a dead owner\'s lock is taken over', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-lock-'));
  const release = lockDataDirectory(dir);
  fs.writeFileSync(path.join(dir, 'wpk.lock'), String(process.ppid)); // a live process that is not us
  const error = t.throws(() => lockDataDirectory(dir), { instanceOf: DataDirectoryLockedError });
  t.is(error?.message, `The data directory ${dir} is in use by another wpk process (pid ${process.ppid}). Stop it first, or pass another --data-dir.`);
  fs.writeFileSync(path.join(dir, 'wpk.lock'), '999999999'); // no such process
  const again = lockDataDirectory(dir);
  t.is(fs.readFileSync(path.join(dir, 'wpk.lock'), 'utf8'), String(process.pid));
  again();
  t.false(fs.existsSync(path.join(dir, 'wpk.lock')));
  release();
});

test('in-memory embedded databases start from the kept image of a fresh cluster, each with its own data', async (t) => {
  const first = await EmbeddedPostgres.start();
  const kept = fs.readdirSync(os.tmpdir()).filter((name) => /^wpk-pglite-\d+\.\d+\.\d+-fresh-cluster\.tar$/.test(name));
  t.is(kept.length, 1, 'one image, named by the PGlite version');
  const second = await EmbeddedPostgres.start();
  const clients = [new pg.Client({ connectionString: first.url }), new pg.Client({ connectionString: second.url })];
  try {
    for (const client of clients) await client.connect();
    await clients[0].query('CREATE TABLE only_in_first (id int)');
    const tables = async (client: pg.Client) => (await client.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'")).rows.map((row) => row.name);
    t.deepEqual(await tables(clients[0]), ['only_in_first']);
    t.deepEqual(await tables(clients[1]), []);
    // The extensions load in a cluster started from the image.
    await clients[1].query('CREATE EXTENSION pg_trgm');
    t.is((await clients[1].query<{ s: number }>("SELECT similarity('platform', 'platfrom')::float AS s")).rows[0].s > 0.3, true);
  } finally {
    for (const client of clients) await client.end().catch(() => {});
    await first.stop();
    await second.stop();
  }
});

// Serial: it times a wait on one embedded database, and this file's other tests run their own
// embedded databases (PGlite's WebAssembly) in this same thread, which can hold the statement off
// the queue for over a second (it waited under the threshold once in CI, and no warning came).
test.serial('the embedded database states its limit: a statement that waited past the threshold for its one session is a warning, once an interval', async (t) => {
  const warnings: Array<{ msg: string; waited_ms: number; queued: number }> = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line)) });
  const database = await Database.open({ inMemory: true, logger, embeddedWaitWarnMs: 300 });
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  const clients: pg.PoolClient[] = [];
  try {
    const holder = await pool.connect();
    const other = await pool.connect();
    clients.push(holder, other);
    // A quick statement while the session is free is not a warning.
    t.deepEqual((await other.query('SELECT 1 AS n')).rows, [{ n: 1 }]);
    t.deepEqual(warnings, []);
    // A transaction holds the one session: the other connection's statement waits for its end.
    // The hold is well past the 300 ms threshold: on a busy machine the statement can reach the
    // queue late (PGlite runs in this thread, so other work delays the socket's reads).
    await holder.query('BEGIN');
    const sent = performance.now();
    const waiting = other.query('SELECT 2 AS n');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await holder.query('COMMIT');
    t.deepEqual((await waiting).rows, [{ n: 2 }]);
    const held = performance.now() - sent;
    t.is(warnings.length, 1);
    t.true(warnings[0].waited_ms >= 300 && warnings[0].waited_ms <= held + 50, `waited ${warnings[0].waited_ms} ms of the ${Math.round(held)} ms held`);
    t.is(warnings[0].queued, 0);
    t.regex(warnings[0].msg, /^the embedded database is at its limit: a statement waited \d+ ms for its one session \(0 more queued\); it runs one statement at a time, so under this load requests slow down\. Run on PostgreSQL \(DATABASE_URL\) for more \(docs\/self-hosting\.md\)$/);
    // A second wait within the minute is not repeated.
    await holder.query('BEGIN');
    const again = other.query('SELECT 3 AS n');
    await new Promise((resolve) => setTimeout(resolve, 400));
    await holder.query('COMMIT');
    t.deepEqual((await again).rows, [{ n: 3 }]);
    t.is(warnings.length, 1);
  } finally {
    // Released even when an assertion failed: pool.end() waits for every client checked out.
    for (const client of clients) client.release();
    await pool.end();
    await database.close();
  }
});

test('many connections running parameterised queries and transactions side by side never interfere', async (t) => {
  const pool = new pg.Pool({ connectionString: env.runtime.db.url, max: 6 });
  t.teardown(() => pool.end());
  await pool.query('CREATE TABLE IF NOT EXISTS public.counter_rows (worker int NOT NULL, n int NOT NULL)');
  const worker = async (id: number) => {
    for (let n = 0; n < 25; n++) {
      const { rows } = await pool.query('SELECT $1::int * 2 AS doubled, $2::text AS label', [n, `w${id}`]);
      if (rows[0].doubled !== n * 2 || rows[0].label !== `w${id}`) throw new Error(`worker ${id} got ${JSON.stringify(rows[0])}`);
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('INSERT INTO public.counter_rows (worker, n) VALUES ($1, $2)', [id, n]);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    }
  };
  await Promise.all([0, 1, 2, 3, 4, 5].map(worker));
  const { rows } = await pool.query('SELECT worker, count(*)::int AS rows FROM public.counter_rows GROUP BY worker ORDER BY worker');
  t.deepEqual(rows, [0, 1, 2, 3, 4, 5].map((worker) => ({ worker, rows: 25 })));
});

test.serial("a request's direct transaction commits, rolls back, nests a savepoint, and runs afterCommit hooks only after a COMMIT that succeeded", async (t) => {
  const sequelize = env.runtime.db.sequelize;
  await sequelize.query(`CREATE TABLE public.direct_rows (id int NOT NULL, CONSTRAINT direct_rows_unique UNIQUE (id) DEFERRABLE INITIALLY DEFERRED)`);
  const ids = async () => (await sequelize.query<{ id: number }>('SELECT id FROM public.direct_rows ORDER BY id', { type: QueryTypes.SELECT })).map((row) => row.id);
  const hooks: string[] = [];
  // (No statement runs outside a transaction while it is open: the embedded database serves every
  // connection from one session.)
  const committed = await beginTransaction(sequelize);
  committed.afterCommit(() => void hooks.push('first'));
  await sequelize.query('INSERT INTO public.direct_rows VALUES (1)', { transaction: committed });
  // A savepoint of Sequelize's own nests in it, on its connection.
  await t.throwsAsync(() => sequelize.transaction({ transaction: committed }, () => sequelize.query('INSERT INTO public.direct_rows VALUES (1, 2)', { transaction: committed })));
  await commitTransaction(committed);
  t.deepEqual(await ids(), [1]);
  t.deepEqual(hooks, ['first']);
  await t.throwsAsync(() => commitTransaction(committed), { message: 'Transaction cannot be committed because it has been finished with state: commit' });

  const rolledBack = await beginTransaction(sequelize);
  rolledBack.afterCommit(() => void hooks.push('rolled back'));
  await sequelize.query('INSERT INTO public.direct_rows VALUES (2)', { transaction: rolledBack });
  await rollbackTransaction(rolledBack);
  t.deepEqual(await ids(), [1]);

  // The deferred unique check fails at COMMIT: the error reaches the caller, the hook does not run.
  const failing = await beginTransaction(sequelize);
  failing.afterCommit(() => void hooks.push('failed commit'));
  await sequelize.query('INSERT INTO public.direct_rows VALUES (1)', { transaction: failing });
  await t.throwsAsync(() => commitTransaction(failing), { message: /direct_rows_unique/ });
  t.deepEqual(hooks, ['first'], 'no hook after a rolled-back or failed transaction');
  t.deepEqual(await ids(), [1]);
  // The pool still serves: the failed transaction's connection was destroyed, not given back in an unknown state.
  const again = await beginTransaction(sequelize);
  await sequelize.query('INSERT INTO public.direct_rows VALUES (3)', { transaction: again });
  await commitTransaction(again);
  t.deepEqual(await ids(), [1, 3]);
  await sequelize.query('DROP TABLE public.direct_rows');
});

test("the runtime's sessions run without JIT, and the planner keeps 1,000 statistics elements on the search words index", async (t) => {
  const sequelize = env.runtime.db.sequelize;
  const [{ jit }] = await sequelize.query<{ jit: string }>('SHOW jit', { type: QueryTypes.SELECT });
  t.is(jit, 'off');
  const [{ target }] = await sequelize.query<{ target: number }>(
    `SELECT a.attstattarget::int AS target FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'platform' AND c.relname = 'search_records_words' AND a.attnum = 1`,
    { type: QueryTypes.SELECT },
  );
  t.is(target, 1000);
});

test("timestamptz columns are read by the runtime's own parser on its connections, to the same Dates; pg's global parser is left to other users", async (t) => {
  const manager = (env.runtime.db.sequelize as unknown as { connectionManager: { getTypeParser(oid: number): unknown } }).connectionManager;
  t.is(manager.getTypeParser(1184), parseTimestamptz);
  t.not(pg.types.getTypeParser(1184, 'text'), parseTimestamptz);
  const at = new Date('2026-11-27T06:18:01.015Z');
  const [row] = await env.runtime.db.fast.rows<{ at: Date; shifted: Date; early: Date; infinite: number }>(
    statement(`SELECT $1::timestamptz AS at, '2026-11-27 12:00:00+05:30'::timestamptz AS shifted, '0050-06-01 00:00:00+00'::timestamptz AS early, 'infinity'::timestamptz AS infinite`),
    [at],
  );
  t.true(row.at instanceof Date);
  t.is(row.at.toISOString(), '2026-11-27T06:18:01.015Z');
  t.is(row.shifted.toISOString(), '2026-11-27T06:30:00.000Z');
  t.is(row.early.getUTCFullYear(), 50);
  t.is(row.infinite, Infinity);
  const [viaSequelize] = await env.runtime.db.sequelize.query<{ at: Date }>('SELECT $1::timestamptz AS at', { type: QueryTypes.SELECT, bind: [at] });
  t.is(viaSequelize.at.getTime(), at.getTime());
});

test('scoped reads take sql fragments: values bound, the workspace kept even under an OR, ordered by an expression, counted', async (t) => {
  const { runtime } = env;
  const a = await runtime.workspaces.create({ subdomain: 'frag-a', name: 'A' });
  const b = await runtime.workspaces.create({ subdomain: 'frag-b', name: 'B' });
  const sequelize = runtime.db.sequelize;
  await sequelize.query('CREATE TABLE public.frag_rows (workspace_id uuid NOT NULL, id integer NOT NULL, data jsonb NOT NULL, PRIMARY KEY (workspace_id, id))');
  class FragRow extends Model {}
  FragRow.init({ id: { type: DataTypes.INTEGER, primaryKey: true }, workspace_id: { type: DataTypes.UUID, primaryKey: true }, data: DataTypes.JSONB }, { sequelize, tableName: 'frag_rows', timestamps: false });
  const rows = [[a.id, 1, { name: "O'Brien", amount: '10.50' }], [a.id, 2, { name: 'ann', amount: '9.9' }], [a.id, 3, { name: 'Bob' }], [b.id, 4, { name: "O'Brien", amount: '1' }]] as const;
  for (const [workspace, id, data] of rows) await FragRow.create({ workspace_id: workspace, id, data });
  const inA = scopedPlainModel(FragRow, a.id);
  const key = 'name';
  const named = sql`data ->> ${key}::text = ${"O'Brien"}::text`;
  t.deepEqual((await inA.findAll({ where: named })).map((row) => row.id), [1]);
  t.deepEqual((await inA.findAll({ where: joinSql([named, sql`true`], ' OR '), order: sql`id DESC` })).map((row) => row.id), [3, 2, 1], "an OR never reaches B's row");
  const amount = sql`(data ->> ${'amount'}::text)::numeric`;
  t.deepEqual((await inA.findAll({ where: sql`${amount} > ${'9.95'}::numeric OR ${amount} IS NULL`, order: sql`${amount} ASC NULLS LAST`, attributes: ['id'] })), [{ id: 1 }, { id: 3 }]);
  t.deepEqual((await inA.findAll({ order: sql`${amount} DESC NULLS LAST, id`, limit: 2, offset: 1 })).map((row) => row.id), [2, 3]);
  t.is(await inA.count({ where: sql`data ? ${'amount'}::text` }), 2);
  t.is(await scopedPlainModel(FragRow, b.id).count({ where: sql`true` }), 1);
  await t.throwsAsync(() => inA.findAll({ where: sql`true`, lock: 'update' } as never), { instanceOf: TypeError, message: `${FragRow.name}.findAll: a read with sql fragments takes where, order, limit, offset, attributes only, not lock` });
  await t.throwsAsync(() => inA.findAll({ where: { id: 1 }, order: sql`id` } as never), { instanceOf: TypeError, message: `${FragRow.name}.findAll: with an sql fragment, where and order are both sql fragments (or absent)` });
  t.throws(() => inA.findOne({ where: sql`true` } as never), { instanceOf: TypeError, message: `${FragRow.name}.findOne: sql fragments are taken by findAll and count only` });
  t.throws(() => sql(['a', 'b'], 1, 2), { instanceOf: TypeError, message: 'sql: the text must surround the values (use it as a tagged template)' });
  // A grouped count: one entry per distinct value (absent is a key of its own), in the order asked, this workspace only.
  await FragRow.create({ workspace_id: a.id, id: 5, data: { name: 'ann' } });
  const byName = sql`data -> ${key}::text`;
  t.deepEqual(await inA.countBy({ by: byName, order: sql`"count" DESC, "key"::text COLLATE "C"` }), [{ key: 'ann', count: 2 }, { key: 'Bob', count: 1 }, { key: "O'Brien", count: 1 }]);
  t.deepEqual(await inA.countBy({ where: joinSql([sql`id > ${1}::int`, sql`true`], ' OR '), by: sql`data -> ${'amount'}::text`, order: sql`"key" IS NULL, "key"::text` }), [{ key: '10.50', count: 1 }, { key: '9.9', count: 1 }, { key: null, count: 2 }], "an OR never reaches B's row");
  t.deepEqual(await scopedPlainModel(FragRow, b.id).countBy({ by: byName }), [{ key: "O'Brien", count: 1 }]);
  await t.throwsAsync(() => inA.countBy({ by: 'name' } as never), { instanceOf: TypeError, message: `${FragRow.name}.countBy: by must be an sql fragment` });
  await t.throwsAsync(() => inA.countBy({ by: byName, limit: 1 } as never), { instanceOf: TypeError, message: `${FragRow.name}.countBy: takes where, by and order only, not limit` });
});

test('scoped descendants read a tree below some rows in one recursive query, in its own workspace only, nearest first, bounded by depth, ending a path at a cycle', async (t) => {
  const { runtime } = env;
  const a = await runtime.workspaces.create({ subdomain: 'tree-a', name: 'A' });
  const b = await runtime.workspaces.create({ subdomain: 'tree-b', name: 'B' });
  const sequelize = runtime.db.sequelize;
  await sequelize.query('CREATE TABLE public.tree_nodes (workspace_id uuid NOT NULL, id uuid NOT NULL, parent_id uuid, PRIMARY KEY (workspace_id, id))');
  class TreeNode extends Model {}
  TreeNode.init({ id: { type: DataTypes.UUID, primaryKey: true }, workspace_id: { type: DataTypes.UUID, primaryKey: true }, parent_id: DataTypes.UUID }, { sequelize, tableName: 'tree_nodes', timestamps: false });
  const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  // A: 1 → 2 → 4, 1 → 3; 5 ⇄ 6 (a cycle). B: 7 under A's 1 (another workspace: never reached).
  const rows = [[a.id, 1, null], [a.id, 2, 1], [a.id, 3, 1], [a.id, 4, 2], [a.id, 5, 6], [a.id, 6, 5], [b.id, 7, 1]] as const;
  for (const [workspace, n, parent] of rows) await TreeNode.create({ workspace_id: workspace, id: id(n), parent_id: parent === null ? null : id(parent) });
  const inA = scopedPlainModel(TreeNode, a.id);
  t.deepEqual(await inA.descendants({ from: [id(1)], parent: 'parent_id' }), [{ id: id(2), depth: 1 }, { id: id(3), depth: 1 }, { id: id(4), depth: 2 }]);
  t.deepEqual(await inA.descendants({ from: [id(1)], parent: 'parent_id', depth: 1 }), [{ id: id(2), depth: 1 }, { id: id(3), depth: 1 }]);
  t.deepEqual(await inA.descendants({ from: [id(5)], parent: 'parent_id' }), [{ id: id(6), depth: 1 }, { id: id(5), depth: 2 }], 'a cycle ends the path');
  t.deepEqual(await inA.descendants({ from: ['not-a-uuid'], parent: 'parent_id' }), []);
  t.deepEqual(await scopedPlainModel(TreeNode, b.id).descendants({ from: [id(1)], parent: 'parent_id' }), [{ id: id(7), depth: 1 }], "B reads its own rows only, even under A's id");
  await t.throwsAsync(() => inA.descendants({ from: [id(1)], parent: 'nope' }), { instanceOf: TypeError, message: `${TreeNode.name}.descendants: parent must name a column of the model` });
  await t.throwsAsync(() => inA.descendants({ from: [id(1)], parent: 'parent_id', depth: 0 }), { instanceOf: TypeError, message: `${TreeNode.name}.descendants: depth must be a whole number of at least 1` });
});
