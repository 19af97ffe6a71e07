// Creates or drops the PostgreSQL database a CI run tests against: node .ci/db.mjs create|drop NAME
import { createRequire } from 'node:module';

const require = createRequire(new URL('../packages/core/package.json', import.meta.url));
const pg = require('pg');
const [action, name] = process.argv.slice(2);
if (!/^[a-z0-9_]+$/.test(name ?? '') || !['create', 'drop'].includes(action)) {
  console.error('usage: node .ci/db.mjs create|drop NAME');
  process.exit(2);
}
const client = new pg.Client({ connectionString: process.env.CI_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
await client.connect();
try {
  await client.query(action === 'create' ? `CREATE DATABASE "${name}"` : `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
} finally {
  await client.end();
}
