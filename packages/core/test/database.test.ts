import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { DataTypes, Model, QueryTypes } from 'sequelize';
import { DataDirectoryLockedError, lockDataDirectory, migrateDown, migrateUp, scopeToWorkspace } from '../src/index.js';
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
  await t.throwsAsync(() => migrateUp(sequelize, set));
  const tables = await sequelize.query(`SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = 'app_broken'`, { type: QueryTypes.SELECT });
  t.deepEqual(tables, []);
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
