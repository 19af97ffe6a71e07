import test from 'ava';
import { QueryTypes } from 'sequelize';
import { body, startAppsRuntime, TestWorkspace, type AppsTestRuntime } from './helpers/apps.js';

// Strict mode: each app runs under a database role with rights on its own schema only. The
// fixture route /notes/smuggle plays an app that smuggles SQL into a where clause (without
// strict mode the same query succeeds: see apps-context.test.ts).

let strict: AppsTestRuntime;
let ws: TestWorkspace;
let notesRole: string;
let vaultRole: string;

const json = { 'content-type': 'application/json' };

test.before(async () => {
  strict = await startAppsRuntime({ strictAppRoles: true });
  ws = await TestWorkspace.create(strict, 'acme');
  await ws.install('notes', { access_policy: 'everyone' });
  await ws.install('ext.acme.vault');
  await strict.runtime.db.sequelize.query("INSERT INTO ext_acme_vault.secrets (workspace_id, value) VALUES (:id, 'the recipe')", { replacements: { id: ws.id } });
  notesRole = strict.runtime.apps.strictRoleOf('notes')!;
  vaultRole = strict.runtime.apps.strictRoleOf('ext.acme.vault')!;
});

test.after.always(async () => {
  await strict?.runtime.apps.dropStrictRoles();
  await strict?.close();
});

test('each app has a role of its own, named after the database and its schema', (t) => {
  t.regex(notesRole, /^wpk_[0-9a-f]{8}_app_notes$/);
  t.regex(vaultRole, /^wpk_[0-9a-f]{8}_ext_acme_vault$/);
});

test("app A's role cannot read app B's tables, nor the platform's; it can use its own", async (t) => {
  const { sequelize } = strict.runtime.db;
  const as = (role: string, sql: string) =>
    sequelize.transaction(async () => {
      await sequelize.query(`SET LOCAL ROLE "${role}"`);
      return sequelize.query(sql, { type: QueryTypes.SELECT });
    });
  await t.throwsAsync(as(notesRole, 'SELECT value FROM ext_acme_vault.secrets'), { message: /permission denied for schema ext_acme_vault/ });
  await t.throwsAsync(as(notesRole, 'SELECT email FROM platform.accounts'), { message: /permission denied for schema platform/ });
  await t.throwsAsync(as(vaultRole, 'SELECT title FROM app_notes.notes'), { message: /permission denied for schema app_notes/ });
  t.deepEqual(await as(vaultRole, 'SELECT value FROM ext_acme_vault.secrets'), [{ value: 'the recipe' }]);
  t.deepEqual(await as(notesRole, 'SELECT count(*)::int AS count FROM app_notes.notes WHERE false'), [{ count: 0 }]);
});

test("ctx.platform.request leaves the app's role for the call and takes it back after: the target runs under its own role", async (t) => {
  const relay = await strict.runtime.server.inject({
    method: 'POST',
    url: '/ext/acme/vault/relay',
    headers: { ...ws.owner.headers(), ...json },
    payload: { member: ws.owner.memberId, scopes: ['notes.notes.create'], method: 'POST', path: '/notes', payload: { title: 'strict relay' } },
  });
  t.is(relay.statusCode, 200);
  t.like(body(relay).data, { status: 200, body: { data: { title: 'strict relay', author_id: ws.owner.memberId } } });
  const [row] = await strict.runtime.db.sequelize.query<{ count: number }>("SELECT count(*)::int AS count FROM app_notes.notes WHERE title = 'strict relay'", { type: QueryTypes.SELECT });
  t.is(row.count, 1);
});

test('an app works normally under its role: writes, named checks, events, search', async (t) => {
  const created = await strict.runtime.server.inject({ method: 'POST', url: '/notes', headers: { ...ws.owner.headers(), ...json }, payload: { title: 'strict' } });
  t.is(created.statusCode, 200);
  const { id } = body(created).data;
  t.true(strict.events.some((event) => event.payload.note_id === id), 'the event reached the outbox after the role was dropped');
  t.true(strict.search.some((operation) => operation.op === 'upsert' && operation.document.id === id));
  const member = await ws.member('member');
  const refused = await strict.runtime.server.inject({ method: 'DELETE', url: `/notes/${id}`, headers: member.headers() });
  t.is(refused.statusCode, 403);
  t.deepEqual(body(refused), { error: 'Cannot delete this note' }, 'the named check ran under the app role');
  const removed = await strict.runtime.server.inject({ method: 'DELETE', url: `/notes/${id}`, headers: ws.owner.headers() });
  t.deepEqual(body(removed), { deleted: 1 });
  t.is(await strict.runtime.apps.dispatch('notes', { action: 'system.app.installed', payload: { app_slug: 'notes', installed_by: ws.owner.memberId }, metadata: { workspace_id: ws.id } }), 'handled');
});

test('SQL smuggled into a query cannot reach another schema in strict mode', async (t) => {
  for (const [target, schema] of [['vault', 'ext_acme_vault'], ['platform', 'platform']]) {
    const before = strict.logs.length;
    const response = await strict.runtime.server.inject({ method: 'GET', url: `/notes/smuggle?target=${target}`, headers: ws.owner.headers() });
    t.is(response.statusCode, 500);
    const fault = strict.logs.slice(before).find((line) => line.msg === 'request failed');
    t.regex(JSON.stringify(fault), new RegExp(`permission denied for schema ${schema}`));
  }
});

test("ctx.usage.record writes the platform's ledger in strict mode, which the app's role cannot reach: the call steps back to the runtime's role", async (t) => {
  const record = (payload: Record<string, unknown>) => strict.runtime.server.inject({ method: 'POST', url: '/notes/metered', headers: { ...ws.owner.headers(), ...json }, payload });
  const recorded = await record({ meter: 'words', microns: 42, key: 'strict-1' });
  t.is(recorded.statusCode, 200);
  t.deepEqual(body(recorded), { data: { recorded: true } });
  // Recorded, then the work fails: nothing stays.
  t.is((await record({ meter: 'words', microns: 43, key: 'strict-2', fail: true })).statusCode, 400);
  const rows = await strict.runtime.db.sequelize.query('SELECT app, meter, microns::int AS microns, idempotency_key FROM platform.metered_usage WHERE workspace_id = :id ORDER BY recorded_at', { type: QueryTypes.SELECT, replacements: { id: ws.id } });
  t.deepEqual(rows, [{ app: 'notes', meter: 'words', microns: 42, idempotency_key: 'strict-1' }]);
});
