/**
 * Distribution by workspace (docs/scale-out.md): every table of core and of every app of the root
 * wpk.config.json follows the rules a distributed PostgreSQL (Citus) needs to shard by
 * workspace_id; an app table that breaks one is named with the breach; the keys' migration goes
 * down and up over a seeded workspace, losing nothing; and docs/scale-out.md lists exactly the
 * plan `wpk db distribution-plan` prints.
 */
import test from 'ava';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { QueryTypes } from 'sequelize';
import { defineApp, tenantTable } from '@wpk/sdk';
import { checkDistribution, tableKind } from '@wpk/sdk/tooling';
import { distributionCatalog, distributionProblems, migrateDown as migrateDownNow, migrateUp as migrateUpNow, platformDistributionPlan, platformMigrations, PLATFORM_DISTRIBUTION, StatementRecorder } from '../src/index.js';
import { elevatedOwnerSession, ROOT_DIR, seedWorkspace, startGuardRuntime, type GuardRuntime, type SeededWorkspace } from './helpers/guard.js';
import { startTestRuntime } from './helpers/runtime.js';

// Migrations span tenants by nature: the query-shape check does not look at them (as for the runtime's own).
const migrating = <T>(fn: () => Promise<T>): Promise<T> => (StatementRecorder.current ? StatementRecorder.current.during('migrations', fn) : fn());
const migrateDown = (...args: Parameters<typeof migrateDownNow>) => migrating(() => migrateDownNow(...args));
const migrateUp = (...args: Parameters<typeof migrateUpNow>) => migrating(() => migrateUpNow(...args));

let env: GuardRuntime;
let seeded: SeededWorkspace;
let session: Record<string, string>;

test.before(async () => {
  env = await startGuardRuntime();
  seeded = await seedWorkspace(env, 'spread');
  session = await elevatedOwnerSession(env, seeded);
});

test.after.always(async () => {
  await env?.close();
});

/** The tenant tables of core and the tasks app when the rules were set (issue 26), less the tasks app's member directory, dropped since (issue 36). */
const TENANT_TABLES = [
  'app_tasks.board_members', 'app_tasks.boards', 'app_tasks.deliverables', 'app_tasks.schedules',
  'app_tasks.task_assignees', 'app_tasks.task_comments', 'app_tasks.tasks', 'app_tasks.topics', 'app_tasks.views',
  'platform.activity', 'platform.admin_audit', 'platform.api_key_audit', 'platform.api_keys', 'platform.app_installations',
  'platform.app_requests', 'platform.event_dedupe', 'platform.event_deliveries', 'platform.events', 'platform.invitations',
  'platform.member_roles', 'platform.members', 'platform.notifications', 'platform.roles', 'platform.search_records',
  'platform.search_words', 'platform.sessions',
];

test.serial('every table of core and of the root config\'s apps can be distributed by workspace', async (t) => {
  const sequelize = env.runtime.db.sequelize;
  t.deepEqual(await distributionProblems(sequelize), []);
  const catalog = await distributionCatalog(sequelize);
  const kinds = new Map(catalog.map((table) => [table.name, tableKind(table.name, PLATFORM_DISTRIBUTION)]));
  for (const table of TENANT_TABLES) t.is(kinds.get(table), 'distributed', table);
  t.deepEqual(
    [...kinds].filter(([, kind]) => kind === 'reference').map(([name]) => name).sort(),
    ['platform.accounts', 'platform.coupons', 'platform.event_actions', 'platform.event_participants', 'platform.event_settings', 'platform.event_subscriptions', 'platform.operators', 'platform.preview_apps', 'platform.release_notes', 'platform.workspaces'],
  );
  // Every reason is a sentence, not a placeholder.
  for (const list of [PLATFORM_DISTRIBUTION.reference, PLATFORM_DISTRIBUTION.coordinator, PLATFORM_DISTRIBUTION.identity ?? {}]) {
    for (const [name, reason] of Object.entries(list)) t.true(reason.length > 40, name);
  }
});

test.serial('the keys migration goes down and up over a seeded workspace, keeping every row and the credentials working', async (t) => {
  const sequelize = env.runtime.db.sequelize;
  const count = async () => {
    const counts: Record<string, number> = {};
    for (const table of await distributionCatalog(sequelize)) {
      if (table.name.endsWith('.migrations')) continue;
      const [row] = await sequelize.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table.name}`, { type: QueryTypes.SELECT });
      counts[table.name] = row.n;
    }
    return counts;
  };
  // Core's migrations after 0600 (notifications, ...) go down first and come back up with it.
  const later = platformMigrations.migrations.map((migration) => migration.name).filter((name) => name > '0600-distribution-keys');
  if (later.length > 0) t.deepEqual((await migrateDown(sequelize, platformMigrations, later[0])).sort(), later);
  // So do the tasks app's migrations after its 0002 (task keys, the member directory's drop).
  const tasksLater = tasksMigrations().migrations.map((migration) => migration.name).filter((name) => name > '0002-distribution-keys');
  if (tasksLater.length > 0) t.deepEqual((await migrateDown(sequelize, tasksMigrations(), tasksLater[0])).sort(), tasksLater);
  const before = await count();
  for (const table of ['platform.members', 'platform.sessions', 'platform.api_keys', 'platform.events', 'platform.search_records', 'app_tasks.tasks', 'app_tasks.topics']) {
    t.true(before[table] > 0, `${table} is seeded`);
  }
  const keyCount = before['platform.api_keys'];
  // Every live session and key is in the directory, under its workspace (an ended session's row may linger until pruned).
  const [unlisted] = await sequelize.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM platform.sessions s WHERE NOT EXISTS (SELECT 1 FROM platform.credential_hashes c WHERE c.hash = s.token_hash AND c.workspace_id = s.workspace_id AND c.kind = 'session'))
          + (SELECT count(*) FROM platform.api_keys k WHERE NOT EXISTS (SELECT 1 FROM platform.credential_hashes c WHERE c.hash = k.secret_hash AND c.workspace_id = k.workspace_id AND c.kind = 'api_key')) AS n`,
    { type: QueryTypes.SELECT },
  );
  t.is(Number(unlisted.n), 0);
  const constraint = async (name: string) => {
    const [row] = await sequelize.query<{ def: string }>('SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = $1', { type: QueryTypes.SELECT, bind: [name] });
    return row?.def ?? null;
  };

  t.deepEqual(await migrateTasksDown(), ['0002-distribution-keys']);
  t.deepEqual(await migrateDown(sequelize, platformMigrations, '0600-distribution-keys'), ['0600-distribution-keys']);
  t.is(await constraint('members_pkey'), 'PRIMARY KEY (id)');
  t.is(await constraint('tasks_topic_id_fkey'), 'FOREIGN KEY (topic_id) REFERENCES app_tasks.topics(id) ON DELETE SET NULL');
  const [triggers] = await sequelize.query(`SELECT tgname FROM pg_trigger WHERE tgrelid = 'platform.search_records'::regclass AND NOT tgisinternal ORDER BY 1`);
  t.deepEqual(triggers, [{ tgname: 'search_words_on_insert' }, { tgname: 'search_words_on_update' }]);
  const { 'platform.credential_hashes': _directory, ...withoutDirectory } = before;
  t.deepEqual(await count(), withoutDirectory);
  t.true((await distributionProblems(sequelize)).length > 40);

  const started = performance.now();
  t.deepEqual(await migrateUp(sequelize, platformMigrations), ['0600-distribution-keys', ...later]);
  t.deepEqual(await migrateTasksUp(), ['0002-distribution-keys', ...tasksLater]);
  t.log(`0600 + tasks 0002 up on the seeded database: ${Math.round(performance.now() - started)} ms`);
  t.is(await constraint('members_pkey'), 'PRIMARY KEY (id, workspace_id)');
  t.is(await constraint('tasks_topic_id_fkey'), 'FOREIGN KEY (workspace_id, topic_id) REFERENCES app_tasks.topics(workspace_id, id)');
  const after = await count();
  // The tables of the later migrations are back, empty; the task keys' up counts the seeded tasks again (one workspace's counter).
  const recreated = Object.fromEntries(Object.keys(after).filter((name) => !(name in before)).map((name) => [name, name === 'app_tasks.task_key_counters' ? 1 : 0]));
  // The tasks app's old member directory, re-created empty by its drop's down, is dropped again.
  t.deepEqual(Object.keys(before).filter((name) => !(name in after)), ['app_tasks.member_directory']);
  const { 'app_tasks.member_directory': _memberDirectory, ...kept } = before;
  t.deepEqual(after, { ...kept, ...recreated, 'platform.credential_hashes': before['platform.sessions'] + keyCount });
  const [directory] = await sequelize.query<{ sessions: number; keys: number }>(
    `SELECT count(*) FILTER (WHERE kind = 'session')::int AS sessions, count(*) FILTER (WHERE kind = 'api_key')::int AS keys FROM platform.credential_hashes`,
    { type: QueryTypes.SELECT },
  );
  t.deepEqual(directory, { sessions: before['platform.sessions'], keys: keyCount });
  t.deepEqual(await distributionProblems(sequelize), []);

  // The credentials still open the workspace, and the app still writes.
  const headers = seeded.as(seeded.ownerKey, { 'content-type': 'application/json' });
  const board = await env.inject({ method: 'POST', url: '/boards', headers, payload: JSON.stringify({ title: 'After the round trip' }) });
  t.is(board.statusCode, 200, board.payload);
  const members = await env.inject({ method: 'GET', url: '/members', headers: session });
  t.is(members.statusCode, 200, members.payload);
});

function tasksMigrations() {
  return env.runtime.migrationSets().find((candidate) => candidate.schema === 'app_tasks')!;
}

async function migrateTasksDown(): Promise<string[]> {
  return migrateDown(env.runtime.db.sequelize, tasksMigrations(), '0002-distribution-keys');
}

async function migrateTasksUp(): Promise<string[]> {
  return migrateUp(env.runtime.db.sequelize, tasksMigrations());
}

test.serial('docs/scale-out.md lists exactly the plan wpk db distribution-plan prints', async (t) => {
  const plan = await platformDistributionPlan(env.runtime.db.sequelize);
  const doc = await readFile(path.join(ROOT_DIR, 'docs/scale-out.md'), 'utf8');
  const block = /<!-- distribution-plan:start -->\n```sql\n([\s\S]*?)```\n<!-- distribution-plan:end -->/.exec(doc);
  t.truthy(block, 'docs/scale-out.md has the distribution-plan block');
  t.deepEqual(block![1].trimEnd().split('\n'), plan);
  const first = plan.indexOf('-- Tenant tables: sharded by workspace_id, co-located.') + 1;
  t.is(plan[first], "SELECT create_distributed_table('platform.members', 'workspace_id');");
  // A table comes after every table it references.
  const at = (table: string) => plan.findIndex((line) => line.includes(`('${table}'`));
  t.true(at('platform.workspaces') < at('platform.members'));
  t.true(at('app_tasks.boards') < at('app_tasks.topics') && at('app_tasks.topics') < at('app_tasks.tasks') && at('app_tasks.tasks') < at('app_tasks.task_comments'));
  t.true(at('platform.events') < at('platform.event_deliveries'));
});

/**
 * A new app whose tables break each rule once: the check names every breach, table by table
 * (the tables tenantTable writes, next to them, pass), and the plan refuses to print.
 */
const breaker = defineApp(
  { slug: 'breaker', name: 'Breaker', version: '0.1.0', description: 'A test fixture: one table per broken distribution rule.', permissions: [], authorization: [] } as never,
  {
    migrations: [
      {
        name: '0001-broken-tables',
        async up({ query }) {
          await query(`
            ${tenantTable('fine', { columns: { id: 'uuid NOT NULL', code: 'text NOT NULL' }, unique: [['lower(code)']] })}
            ${tenantTable('fine_child', { columns: { id: 'uuid NOT NULL', fine_id: 'uuid' }, references: { fine_id: { table: 'fine', onDelete: 'no action' } } })}
            CREATE TABLE no_tenant (id uuid PRIMARY KEY);
            CREATE TABLE nullable_tenant (workspace_id uuid, id uuid NOT NULL);
            CREATE TABLE key_by_id (workspace_id uuid NOT NULL, id uuid PRIMARY KEY, code text NOT NULL);
            CREATE UNIQUE INDEX key_by_id_code ON key_by_id (lower(code));
            CREATE TABLE by_id_ref (workspace_id uuid NOT NULL, id uuid NOT NULL, fine_id uuid REFERENCES key_by_id(id) ON DELETE SET NULL, PRIMARY KEY (workspace_id, id));
            CREATE TABLE crossed (workspace_id uuid NOT NULL, id uuid NOT NULL, other uuid, PRIMARY KEY (workspace_id, id),
              FOREIGN KEY (other, workspace_id) REFERENCES fine (workspace_id, id) ON UPDATE CASCADE);
            CREATE TABLE to_coordinator (workspace_id uuid NOT NULL, id uuid NOT NULL, signup_id uuid REFERENCES platform.signups(id), PRIMARY KEY (workspace_id, id));
            CREATE TABLE counted (workspace_id uuid NOT NULL, id bigint GENERATED ALWAYS AS IDENTITY, PRIMARY KEY (workspace_id, id));
            CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
            CREATE TRIGGER counted_touch BEFORE INSERT ON counted FOR EACH ROW EXECUTE FUNCTION touch();
          `);
        },
      },
    ],
  },
);

test('a new app table that breaks a rule is named with each breach, and no plan is printed', async (t) => {
  const own = await startTestRuntime({ configFile: false, apps: [{ app: breaker, firstParty: true }] } as never);
  try {
    const problems = (await distributionProblems(own.runtime.db.sequelize)).filter((problem) => problem.table.startsWith('app_breaker.'));
    t.deepEqual(problems, [
      { table: 'app_breaker.by_id_ref', problem: 'foreign key by_id_ref_fine_id_fkey (fine_id) → app_breaker.key_by_id (id) must carry workspace_id at the same position on both sides' },
      { table: 'app_breaker.by_id_ref', problem: 'foreign key by_id_ref_fine_id_fkey is ON DELETE SET NULL: clear the reference in code instead' },
      { table: 'app_breaker.counted', problem: 'trigger counted_touch is not listed with a reason' },
      { table: 'app_breaker.counted', problem: 'identity or sequence column id is not listed with a reason' },
      { table: 'app_breaker.crossed', problem: 'foreign key crossed_other_workspace_id_fkey (other, workspace_id) → app_breaker.fine (workspace_id, id) must carry workspace_id at the same position on both sides' },
      { table: 'app_breaker.crossed', problem: 'foreign key crossed_other_workspace_id_fkey is ON UPDATE CASCADE' },
      { table: 'app_breaker.key_by_id', problem: 'unique index key_by_id_code (<expression>) must include workspace_id' },
      { table: 'app_breaker.key_by_id', problem: 'primary key key_by_id_pkey (id) must include workspace_id' },
      { table: 'app_breaker.no_tenant', problem: 'has no workspace_id column (a tenant table needs workspace_id uuid NOT NULL; or list the table as reference or coordinator-only, with the reason)' },
      { table: 'app_breaker.nullable_tenant', problem: 'workspace_id must be uuid NOT NULL (it is uuid, nullable)' },
      { table: 'app_breaker.to_coordinator', problem: 'foreign key to_coordinator_signup_id_fkey points at the coordinator-only table platform.signups' },
    ]);
    const error = await t.throwsAsync(() => platformDistributionPlan(own.runtime.db.sequelize));
    t.regex(error!.message, /^The schema cannot be distributed by workspace yet: 11 problem\(s\)\n/);
  } finally {
    await own.close();
  }
});

test('the lists are checked too: an entry naming nothing, or without a reason, is a problem', (t) => {
  const table = { name: 'platform.things', workspaceColumn: { type: 'uuid', notNull: true }, uniques: [], foreignKeys: [], triggers: [], identity: [] };
  t.deepEqual(checkDistribution([table], { reference: { 'platform.gone': 'It was the catalog of something long removed from the platform.' }, coordinator: { 'platform.things': ' ' } }), [
    { table: 'platform.gone', problem: 'the reference list names it, but the database has no such table' },
    { table: 'platform.things', problem: 'the coordinator list gives no reason for it' },
  ]);
  // An entry of a schema the database does not have (an app not loaded here) is not judged; one
  // of a schema it has must still name something.
  t.deepEqual(checkDistribution([table], { reference: {}, coordinator: {}, triggers: { 'app_absent.entries.entries_immutable': 'An app this database does not load.', 'platform.things.gone_trigger': 'Removed.' } }), [
    { table: 'platform.things.gone_trigger', problem: 'the triggers list names it, but the database has no such trigger' },
  ]);
});
