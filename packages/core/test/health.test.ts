import test from 'ava';
import { startTestRuntime } from './helpers/runtime.js';

test('/health answers 503 with an error body once the database is unreachable', async (t) => {
  const env = await startTestRuntime();
  t.teardown(() => env.close());
  const before = await env.runtime.server.inject({ url: '/health' });
  t.is(before.statusCode, 200);
  t.deepEqual(JSON.parse(before.payload), { status: 'ok', database: 'ok' });

  await env.runtime.db.sequelize.close(); // the pool is gone: no query can reach the database
  const after = await env.runtime.server.inject({ url: '/health' });
  t.is(after.statusCode, 503);
  t.deepEqual(JSON.parse(after.payload), { error: 'Database unreachable', database: 'unreachable' });
});
