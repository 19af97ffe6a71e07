// Scratch databases copied from a run's migrated templates (TEST_DATABASE_TEMPLATES): one template
// per set of apps, each copy migrated as the runtime would migrate it, and the templates named with
// the prefix only.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { defineApp } from '@wpk/sdk';
import { createScratchDatabase, Runtime, type ScratchDatabase } from '../src/index.js';

const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
const NOTES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/apps/notes');
const PREFIX = `wpk_tpl_t${randomBytes(4).toString('hex')}`;

async function query<T>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as T[];
  } finally {
    await client.end();
  }
}

const templates = () => query<{ datname: string }>(serverUrl!, 'SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname', [`${PREFIX}_`]).then((rows) => rows.map((row) => row.datname));

/** Apps given as code, the same app and migration names, each migration's source its own. */
const SCRIBBLES = { slug: 'scribbles', name: 'Scribbles', version: '0.1.0', description: 'A test fixture.', permissions: [], authorization: [] } as never;
const inline = {
  a: defineApp(SCRIBBLES, { migrations: [{ name: '0001-init', up: ({ query: run }) => run('CREATE TABLE first_table (id int)').then(() => undefined) }] }),
  b: defineApp(SCRIBBLES, { migrations: [{ name: '0001-init', up: ({ query: run }) => run('CREATE TABLE second_table (id int)').then(() => undefined) }] }),
};

if (!serverUrl) {
  test('scratch templates: on PostgreSQL only (DATABASE_URL is not set)', (t) => {
    const why = 'the embedded database runs in memory, one per runtime: there is no server to hold a template; run with DATABASE_URL to see these tests';
    console.log(`scratch-templates: ${why}`);
    t.pass(why);
  });
} else {
  const made: ScratchDatabase[] = [];
  test.before(() => {
    process.env.TEST_DATABASE_TEMPLATES = PREFIX;
  });
  test.after.always(async () => {
    for (const scratch of made) await scratch.drop();
    for (const name of await templates()) await query(serverUrl, `DROP DATABASE "${name}" WITH (FORCE)`);
  });

  test.serial('two scratch databases for the same apps are copies of one template, migrated: the runtime finds nothing pending', async (t) => {
    const runtime = { apps: [{ dir: NOTES_DIR, firstParty: true }], configFile: false as const };
    made.push(await createScratchDatabase(serverUrl, runtime), await createScratchDatabase(serverUrl, runtime));
    t.is((await templates()).length, 1);
    const sets = await Runtime.migrationSetsOf(runtime);
    t.deepEqual(
      sets.map((set) => set.schema),
      ['platform', 'app_notes'],
    );
    for (const scratch of made) {
      const notes = await query<{ name: string }>(scratch.url!, 'SELECT name FROM app_notes.migrations ORDER BY name');
      t.deepEqual(
        notes.map((row) => row.name),
        sets[1].migrations.map((migration) => migration.name),
      );
    }
    const booted = await Runtime.create({ ...runtime, logLevel: 'silent', port: 0, databaseUrl: made[1].url });
    try {
      t.deepEqual(await booted.migrate(), { platform: [], app_notes: [] });
    } finally {
      await booted.stop();
    }
  });

  test.serial('an app given as code gets a template of its own migrations: the same names with other source are another template', async (t) => {
    const before = (await templates()).length;
    const first = await createScratchDatabase(serverUrl, { apps: [{ app: inline.a, firstParty: true }], configFile: false });
    const second = await createScratchDatabase(serverUrl, { apps: [{ app: inline.b, firstParty: true }], configFile: false });
    made.push(first, second);
    t.is((await templates()).length, before + 2);
    const tables = (scratch: ScratchDatabase) => query<{ table_name: string }>(scratch.url!, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'app_scribbles' AND table_name <> 'migrations'").then((rows) => rows.map((row) => row.table_name));
    t.deepEqual(await tables(first), ['first_table']);
    t.deepEqual(await tables(second), ['second_table']);
  });

  test.serial('without a runtime to migrate for, a scratch database is empty', async (t) => {
    const scratch = await createScratchDatabase(serverUrl);
    made.push(scratch);
    t.deepEqual(await query(scratch.url!, "SELECT schema_name FROM information_schema.schemata WHERE schema_name IN ('platform', 'app_notes')"), []);
  });
}
