import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { Database, migrateUp, StatementRecorder } from './db/index.js';
import { projectOf, Runtime, type RuntimeOptions } from './runtime.js';

/** A database made for one test run, and how to get rid of it. */
export interface ScratchDatabase {
  /** The URL to give the runtime; undefined means "use an in-memory embedded database". */
  url: string | undefined;
  drop(): Promise<void>;
}

/** What the runtime on a scratch database will load: with a template prefix, the database starts migrated for it. */
export type ScratchFor = Pick<RuntimeOptions, 'apps' | 'projectDir' | 'configFile'>;

/**
 * A fresh database for one test file. With a server URL (`TEST_DATABASE_URL` or `DATABASE_URL`),
 * it creates a new database on that server and drops it afterwards, so test files running side by
 * side never share tables. Without one, the runtime runs the embedded database in memory.
 *
 * Given `runtime` (the apps and project the runtime will load) and a prefix in
 * `TEST_DATABASE_TEMPLATES`, the database is a copy of a template database migrated once for that
 * set of apps, so a run whose test files each boot a platform migrates each set once instead of
 * once a file (a copy takes ~0.2 s, the migrations ~1.2 s). The runtime's `migrate()` then finds
 * nothing pending. A template is known by the project, the app entries and, for an app given as
 * code (`{ app }`), its manifest and its migrations' names and source text (a migration that reads
 * a variable its text does not show, a closure's, is known by its text only). Templates are a run's:
 * whoever sets the prefix drops the databases named with it afterwards (`.ci/run` does), for a
 * template is not rebuilt when code a migration calls (the SDK's `tenantTable`, say) changes.
 */
export async function createScratchDatabase(serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL, runtime?: ScratchFor): Promise<ScratchDatabase> {
  if (!serverUrl) return { url: undefined, drop: async () => {} };
  const name = `wpk_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const prefix = process.env.TEST_DATABASE_TEMPLATES;
  const template = prefix && runtime ? await templateFor(serverUrl, prefix, runtime) : undefined;
  await onServer(serverUrl, (admin) => admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`));
  return {
    url: urlOf(serverUrl, name),
    async drop() {
      await onServer(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

function urlOf(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function onServer<T>(serverUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/**
 * The name of the template database migrated for `runtime`, built when the run has none yet
 * (under an advisory lock, so test files starting together build it once).
 */
async function templateFor(serverUrl: string, prefix: string, runtime: ScratchFor): Promise<string> {
  if (!/^[a-z][a-z0-9_]{0,29}$/.test(prefix)) throw new Error(`TEST_DATABASE_TEMPLATES must be a database name prefix of at most 30 lower-case letters, digits and _; got ${JSON.stringify(prefix)}`);
  // An app given as code is known by its manifest and its migrations' names and source text.
  const apps = (runtime.apps ?? []).map((entry) =>
    typeof entry === 'object' && 'app' in entry
      ? { ...entry, app: { manifest: entry.app.manifest, migrations: entry.app.migrations.map((migration) => [migration.name, String(migration.up), String(migration.down)]) } }
      : entry,
  );
  const key = createHash('sha256').update(JSON.stringify({ project: projectOf(runtime), apps })).digest('hex').slice(0, 16);
  const template = `${prefix}_${key}`;
  return onServer(serverUrl, async (admin) => {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [template]);
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (rowCount === 0) {
      // Built under another name and renamed once migrated: a build that fails leaves no template.
      const sets = await Runtime.migrationSetsOf(runtime);
      const building = `${template}_b${randomBytes(4).toString('hex')}`;
      await admin.query(`CREATE DATABASE "${building}"`);
      const database = await Database.open({ databaseUrl: urlOf(serverUrl, building) });
      try {
        // Outside the query-shape check, as the runtime's own migrate() is (migrations span tenants).
        const migrate = async () => {
          for (const set of sets) await migrateUp(database.sequelize, set);
        };
        await (StatementRecorder.current ? StatementRecorder.current.during('migrations', migrate) : migrate());
      } finally {
        await database.close();
      }
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
    }
    await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [template]);
    return template;
  });
}
