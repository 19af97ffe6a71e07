// Creates or drops the PostgreSQL database a CI run tests against: node .ci/db.mjs create|drop NAME;
// node .ci/db.mjs drop-prefix PREFIX drops every database named PREFIX_... (the run's migrated
// templates, TEST_DATABASE_TEMPLATES, and any left half-built).
import { createRequire } from 'node:module';

const require = createRequire(new URL('../packages/core/package.json', import.meta.url));
const pg = require('pg');
const [action, name] = process.argv.slice(2);
if (!/^[a-z0-9_]+$/.test(name ?? '') || !['create', 'drop', 'drop-prefix'].includes(action)) {
  console.error('usage: node .ci/db.mjs create|drop NAME, or node .ci/db.mjs drop-prefix PREFIX');
  process.exit(2);
}
const client = new pg.Client({ connectionString: process.env.CI_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
await client.connect();
try {
  if (action === 'create') await client.query(`CREATE DATABASE "${name}"`);
  else {
    const names = action === 'drop' ? [name] : (await client.query("SELECT datname FROM pg_database WHERE starts_with(datname, $1 || '_')", [name])).rows.map((row) => row.datname);
    for (const database of names) await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  }
} finally {
  await client.end();
}
