import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A database made for one test run, and how to get rid of it. */
export interface ScratchDatabase {
  /** The URL to give the runtime; undefined means "use an in-memory embedded database". */
  url: string | undefined;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one test file. With a server URL (`TEST_DATABASE_URL` or
 * `DATABASE_URL`), it creates a new database on that server and drops it afterwards, so test
 * files running side by side never share tables. Without one, the runtime runs the embedded
 * database in memory.
 */
export async function createScratchDatabase(serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL): Promise<ScratchDatabase> {
  if (!serverUrl) return { url: undefined, drop: async () => {} };
  const name = `wpk_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
