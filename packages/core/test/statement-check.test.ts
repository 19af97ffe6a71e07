import test from 'ava';
import pg from 'pg';
import { CROSS_TENANT_STATEMENTS, StatementRecorder } from '../src/index.js';
import { countMembersAcrossTenants, countMembersInWorkspace, deliveriesJoinedById } from './fixtures/cross-tenant-statement.js';
import { startTestRuntime, type TestRuntime } from './helpers/runtime.js';
import { statementRecorder } from './helpers/statements.js';

// The query-shape check itself: it judges statements by the real PostgreSQL parser, it catches a
// bad statement sent by product code (through Sequelize or raw pg), and it lets through the
// statements that constrain workspace_id and those declared as spanning tenants.

let env: TestRuntime;
let recorder: StatementRecorder;

test.before(async () => {
  env = await startTestRuntime();
  recorder = (await statementRecorder()) ?? StatementRecorder.current!;
});

test.after.always(async () => {
  await env?.close();
});

const TENANT = ['platform.members', 'platform.events', 'platform.event_deliveries', 'platform.api_keys', 'app_tasks.tasks'];

test('a statement is judged per occurrence of a tenant table: each must constrain workspace_id', (t) => {
  const check = StatementRecorder.install({ parse: () => ({ stmts: [] }) });
  t.is(check, recorder, 'one recorder per process');
  const tables = (sql: string) => {
    recorder.setTenantTables(TENANT);
    return recorder.check(sql);
  };
  // Fine: constrained by a value, a parameter, = ANY, IN, a row comparison, a co-located join.
  t.deepEqual(tables(`SELECT * FROM platform.members WHERE workspace_id = $1 AND id = $2`), []);
  t.deepEqual(tables(`SELECT * FROM "platform"."members" AS "Member" WHERE "Member"."workspace_id" = 'w' AND "Member"."id" = 'x'`), []);
  t.deepEqual(tables(`SELECT * FROM platform.events WHERE workspace_id = ANY($1::uuid[])`), []);
  t.deepEqual(tables(`SELECT * FROM platform.events WHERE (workspace_id, id) IN (SELECT * FROM unnest($1::uuid[], $2::uuid[]))`), []);
  t.deepEqual(tables(`SELECT d.id FROM platform.event_deliveries d JOIN platform.events e ON e.workspace_id = d.workspace_id AND e.id = d.event_id WHERE d.workspace_id = $1`), []);
  t.deepEqual(tables(`UPDATE platform.api_keys SET name = $3 WHERE workspace_id = $1::uuid AND id = $2`), []);
  t.deepEqual(tables(`INSERT INTO platform.events (id, workspace_id) VALUES ($1, $2)`), []);
  t.deepEqual(tables(`SELECT * FROM platform.accounts WHERE id = $1`), [], 'a table without workspace_id is no tenant table');
  t.deepEqual(tables(`BEGIN; SET LOCAL synchronous_commit TO off`), []);
  t.deepEqual(tables(`CREATE INDEX x ON platform.members (id)`), [], 'DDL is not judged');

  // Bad: no predicate at all, a join on ids alone, an OR that lets other tenants in, an INSERT
  // without the tenant, a subquery, a CTE, a DELETE … USING.
  t.deepEqual(tables(`SELECT * FROM platform.members WHERE id = $1`), ['platform.members']);
  t.deepEqual(tables(`SELECT d.id FROM platform.event_deliveries d JOIN platform.events e ON e.id = d.event_id WHERE d.workspace_id = $1`), ['platform.events']);
  t.deepEqual(tables(`SELECT * FROM platform.members WHERE workspace_id = $1 OR id = $2`), ['platform.members']);
  t.deepEqual(tables(`INSERT INTO platform.events (id, action) VALUES ($1, $2)`), ['platform.events']);
  t.deepEqual(tables(`SELECT * FROM platform.members m WHERE m.workspace_id = $1 AND EXISTS (SELECT 1 FROM app_tasks.tasks t WHERE t.id = m.id)`), ['app_tasks.tasks']);
  t.deepEqual(tables(`WITH x AS (UPDATE platform.events SET status = 'accepted' WHERE id = $1 RETURNING id) SELECT * FROM x`), ['platform.events']);
  t.deepEqual(tables(`DELETE FROM platform.api_keys k USING platform.members m WHERE k.workspace_id = $1 AND m.id = k.member_id`), ['platform.members']);
  t.deepEqual(tables(`SELECT e.id FROM platform.events e ORDER BY seq LIMIT 200 FOR UPDATE SKIP LOCKED`), ['platform.events'], 'the old relay claim');
});

test('declared cross-tenant statements pass, and each names its reason', (t) => {
  recorder.setTenantTables(TENANT);
  t.deepEqual(
    recorder.check(
      `SELECT workspace_id FROM platform.events e
        WHERE status = 'pending'
          AND NOT EXISTS (SELECT 1 FROM unnest($2::text[], $3::text[]) AS w(emitter, action) WHERE w.emitter = e.emitter AND w.action = e.action)
        GROUP BY workspace_id ORDER BY min(seq) LIMIT $1`,
    ),
    [],
  );
  for (const entry of CROSS_TENANT_STATEMENTS) {
    t.true(entry.name.length > 0 && entry.reason.length > 40, `${entry.name} says why it spans tenants`);
  }
});

test('a bad statement sent by product code fails the file: through Sequelize and through raw pg, with where it came from', async (t) => {
  await loadTenantTablesAgain();
  recorder.take();
  const workspace = await env.runtime.workspaces.create({ subdomain: 'shapes', name: 'Shapes' });
  t.is(await countMembersInWorkspace(env.runtime, workspace.id, 'nobody@shapes.test'), 0);
  t.deepEqual(recorder.take(), [], 'the workspace-constrained count passes');

  t.is(await countMembersAcrossTenants(env.runtime, 'nobody@shapes.test'), 0);
  const pool = new pg.Pool({ connectionString: env.runtime.db.url, max: 1 });
  try {
    await deliveriesJoinedById((sql) => pool.query(sql));
  } finally {
    await pool.end();
  }
  const violations = recorder.take();
  t.deepEqual(
    violations.map((violation) => [violation.table, violation.origin?.split(' < ')[0].replace(/:\d+$/, '').split('/test/')[1]]),
    [
      ['platform.members', 'fixtures/cross-tenant-statement.ts'],
      ['platform.events', 'fixtures/cross-tenant-statement.ts'],
    ],
  );

  // The same record makes close() throw, naming the statement.
  await countMembersAcrossTenants(env.runtime, 'nobody@shapes.test');
  const error = t.throws(() => recorder.assertClean());
  t.regex(error!.message, /^1 statement\(s\) reach a tenant table with no workspace_id predicate/);
  // The TypeScript line that sent it (the call at line 7), not the transformed code's.
  t.regex(error!.message, /platform\.members \(×1\) from \/\S*\/test\/fixtures\/cross-tenant-statement\.ts:7:\n/);
  t.deepEqual(recorder.take(), [], 'assertClean() consumed the record');
});

async function loadTenantTablesAgain(): Promise<void> {
  await recorder.loadTenantTables((sql) => env.runtime.db.sequelize.query(sql, { type: 'SELECT' as never }) as never);
}
