import test from 'ava';
import pg from 'pg';
import { QueryTypes } from 'sequelize';
import { LazyWork, transactionGate, type WorkGate } from '../src/server/index.js';
import { apiHeaders } from './helpers/runtime.js';
import { body, injectCall, startAppsRuntime, TestWorkspace, type AppsTestRuntime } from './helpers/apps.js';

// What an app handler gets (ctx) and what happens around it: one transaction per request,
// staged events and search changes leaving only on 2xx, tenant scoping, public routes, the
// /ext/{publisher}/{slug} prefix, and subscription handlers reached through the event bus.

let env: AppsTestRuntime;
let acme: TestWorkspace;
let globex: TestWorkspace;

const call = (method: string, url: string, headers: Record<string, string>, payload?: unknown) => injectCall(env, method, url, headers, payload);

test.before(async () => {
  env = await startAppsRuntime();
  acme = await TestWorkspace.create(env, 'acme');
  globex = await TestWorkspace.create(env, 'globex');
  await acme.install('notes', { access_policy: 'everyone' });
  await globex.install('notes', { access_policy: 'everyone' });
});

test.after.always(async () => {
  await env?.close();
});

test('a 2xx answer commits the writes with the staged event and the search change', async (t) => {
  const response = await call('POST', '/notes', acme.owner.headers(), { title: 'Committed', body: 'text' });
  t.is(response.statusCode, 200);
  const { id } = body(response).data;
  const event = env.events.find((staged) => staged.payload.note_id === id);
  t.deepEqual(event, {
    emitter: 'notes',
    action: 'core.notes.note.created',
    payload: { note_id: id, title: 'Committed', author_id: acme.owner.memberId },
    metadata: { source: 'fixture', workspace_id: acme.id },
    workspaceId: acme.id,
  });
  t.deepEqual(
    env.search.filter((operation) => operation.op === 'upsert' && operation.document.id === id),
    [{ op: 'upsert', document: { type: 'note', id, badge: '', title: 'Committed', url: `/notes/${id}`, names: ['Committed'], details: ['text'], filters: { author: acme.owner.memberId } }, workspaceId: acme.id, app: 'notes' }],
  );
  const [row] = await env.runtime.db.sequelize.query<{ count: number }>("SELECT count(*)::int AS count FROM platform.events WHERE emitter = 'notes' AND payload->>'note_id' = :id", { type: QueryTypes.SELECT, replacements: { id } });
  t.is(row.count, 1, 'the event is in the outbox');
});

test('a failed request leaves no row, no event and no search change', async (t) => {
  const response = await call('POST', '/notes/failing', acme.owner.headers());
  t.is(response.statusCode, 400);
  t.deepEqual(body(response), { error: 'title "doomed" is refused after writing' });
  const [row] = await env.runtime.db.sequelize.query<{ count: number }>("SELECT count(*)::int AS count FROM app_notes.notes WHERE title = 'doomed'", { type: QueryTypes.SELECT });
  t.is(row.count, 0);
  t.false(env.events.some((event) => event.payload.title === 'doomed'));
  t.false(env.search.some((operation) => operation.op === 'upsert' && operation.document.title === 'doomed'));
  const [outbox] = await env.runtime.db.sequelize.query<{ count: number }>("SELECT count(*)::int AS count FROM platform.events WHERE payload->>'title' = 'doomed'", { type: QueryTypes.SELECT });
  t.is(outbox.count, 0);
});

test('the context holds the app, the caller, its own models and nothing that reaches the database', async (t) => {
  const context = body(await call('GET', '/notes/context', acme.owner.headers()));
  t.deepEqual(context.context, ['ai', 'app', 'claims', 'configuration', 'db', 'events', 'key', 'live', 'lock', 'log', 'mail', 'member', 'members', 'now', 'page', 'permissions', 'platform', 'respond', 'search', 'secrets', 'settings', 'signaling', 'storage', 'transaction', 'usage', 'workspace']);
  t.deepEqual(context.db, ['notes']);
  t.deepEqual(context.model, ['count', 'countBy', 'create', 'descendants', 'destroy', 'findAll', 'findAndCountAll', 'findById', 'findOne', 'update', 'upsert']);
  t.deepEqual(context.handles, []);
  // ctx.db's models are its only accessors, and they are the same functions in every request.
  t.deepEqual(context.accessors.names, ['ctx.db.notes']);
  const again = body(await call('GET', '/notes/context', acme.owner.headers()));
  t.deepEqual(again.accessors, { names: ['ctx.db.notes'], shared_with_previous_request: true });
  t.deepEqual(context.app, { slug: 'notes', id: 'notes', name: 'Notes', version: '1.0.0' });
  t.deepEqual(context.workspace, { id: acme.id, subdomain: 'acme', name: 'acme inc', plan: 'free', origin: `http://acme.${env.runtime.config.baseDomain}` });
  t.deepEqual(context.member, { id: acme.owner.memberId, mrn: `mrn:account:member:${acme.owner.memberId}`, name: 'Owner of acme', email: 'owner@acme.test', platform_role: 'owner' });
  t.is(context.key, null);
  t.deepEqual(context.settings, { default_title: 'Untitled', max_notes: 100 });
});

test("ctx.db sees only the request's workspace", async (t) => {
  await call('POST', '/notes', acme.owner.headers(), { title: 'acme only' });
  await call('POST', '/notes', globex.owner.headers(), { title: 'globex only' });
  const titles = async (ws: TestWorkspace) => body(await call('GET', '/notes?per_page=100', ws.owner.headers())).data.map((note: { title: string }) => note.title);
  t.true((await titles(acme)).includes('acme only'));
  t.false((await titles(acme)).includes('globex only'));
  t.true((await titles(globex)).includes('globex only'));
  t.false((await titles(globex)).includes('acme only'));
  const theirs = body(await call('POST', '/notes', globex.owner.headers(), { title: 'not yours' })).data.id;
  const attempt = await call('PUT', `/notes/${theirs}`, acme.owner.headers(), { title: 'taken' });
  t.is(attempt.statusCode, 200, 'the owner passes the chain');
  t.is(body(attempt).data, null, 'but the row of another workspace is not found');
  const [row] = await env.runtime.db.sequelize.query<{ title: string }>('SELECT title FROM app_notes.notes WHERE id = :id', { type: QueryTypes.SELECT, replacements: { id: theirs } });
  t.is(row.title, 'not yours');
});

// Serial, so it runs before this file's other requests (on the embedded database a statement is
// PREPAREd by the first request of its shape, then EXECUTEd by name).
test.serial('findAndCountAll sends one prepared statement: the page with the count of every matching row', async (t) => {
  const ws = await TestWorkspace.create(env, 'counted');
  await ws.install('notes', { access_policy: 'everyone' });
  for (const title of ['kept', 'other', 'kept', 'kept', 'other']) await call('POST', '/notes', ws.owner.headers(), { title });
  await call('POST', '/notes', acme.owner.headers(), { title: 'kept' });
  const { sent, restore } = notesStatements();
  try {
    const first = body(await call('GET', '/notes?title=kept&per_page=2', ws.owner.headers()));
    t.deepEqual(first.pagination, { page: 1, per_page: 2, total: 3, pages: 2 });
    t.deepEqual(first.data.map((note: { title: string }) => note.title), ['kept', 'kept']);
    t.is(sent.length, 1, 'one statement for the page and its count');
    t.regex(sent[0], /\(SELECT count\(\*\) AS "count" FROM "app_notes"\."notes"/, 'the count is a subquery');
    t.false(sent[0].includes('OVER ()'), 'not a window count');
    const second = body(await call('GET', '/notes?title=kept&per_page=2&page=2', ws.owner.headers()));
    t.deepEqual(second.pagination, { page: 2, per_page: 2, total: 3, pages: 2 });
    t.deepEqual(second.data.map((note: { title: string }) => note.title), ['kept']);
    sent.length = 0;
    const beyond = body(await call('GET', '/notes?title=kept&per_page=2&page=3', ws.owner.headers()));
    t.deepEqual(beyond.data, []);
    t.deepEqual(beyond.pagination, { page: 3, per_page: 2, total: 3, pages: 2 }, 'an empty page past the end still counts');
    t.is(sent.length, 2, 'the page, then a count');
    const none = body(await call('GET', '/notes?title=absent', ws.owner.headers()));
    t.deepEqual(none.pagination, { page: 1, per_page: 25, total: 0, pages: 0 });
  } finally {
    restore();
  }
});

test.serial('a locking read and an update are prepared: FOR UPDATE, then one UPDATE, within the workspace, stamping updated_at', async (t) => {
  const ws = await TestWorkspace.create(env, 'updated');
  await ws.install('notes', { access_policy: 'everyone' });
  const mine = body(await call('POST', '/notes', ws.owner.headers(), { title: 'before' })).data.id as string;
  const theirs = body(await call('POST', '/notes', acme.owner.headers(), { title: 'untouched' })).data.id as string;
  const stamp = async (id: string) => (await env.runtime.db.sequelize.query<{ title: string; updated_at: Date }>('SELECT title, updated_at FROM app_notes.notes WHERE id = :id', { replacements: { id }, type: QueryTypes.SELECT }))[0];
  const was = await stamp(mine);
  const { sent, restore } = notesStatements();
  try {
    const answer = await call('PUT', `/notes/${mine}`, ws.owner.headers(), { title: 'after' });
    t.is(answer.statusCode, 200);
    t.is(body(answer).data.title, 'after');
    const updates = sent.filter((text) => text.startsWith('UPDATE'));
    t.deepEqual(updates, [`UPDATE "app_notes"."notes" AS "app_notes.notes" SET "title" = $1, "updated_at" = $2 WHERE ("app_notes.notes"."workspace_id" = $3 AND "app_notes.notes"."id" = $4)`]);
    t.is(sent.length, 3, 'the locking read, the update, then the read of the answer');
    t.regex(sent[0], /^SELECT .* FROM "app_notes"\."notes" AS "app_notes\.notes" WHERE \("app_notes\.notes"\."workspace_id" = \$1 AND "app_notes\.notes"\."id" = \$2\) LIMIT \$3 FOR UPDATE$/, 'the lock is a prepared read with placeholders');
    t.false(sent[2].includes('FOR UPDATE'), 'a read of the same row without a lock is its own statement');
    const now = await stamp(mine);
    t.is(now.title, 'after');
    t.true(now.updated_at.getTime() > was.updated_at.getTime(), 'updated_at moved');
    // Another workspace's note by its id: the same statement changes nothing.
    const attempt = await call('PUT', `/notes/${theirs}`, ws.owner.headers(), { title: 'taken' });
    t.deepEqual([attempt.statusCode, body(attempt).data], [200, null]);
    t.is((await stamp(theirs)).title, 'untouched');
  } finally {
    restore();
  }
});

test.serial('a write transaction sends BEGIN with its first statement and COMMIT with its outbox insert: each in the same round trip once the statement is prepared on the connection, never on its own twice', async (t) => {
  const onPostgres = Boolean(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL);
  // Each query pg submits: its text, whether it carried BEGIN or COMMIT along (one query, one
  // round trip), and whether its named statement was prepared on that connection before.
  const submitted: Array<{ text: string; withBegin: boolean; withCommit: boolean; prepared: boolean }> = [];
  const Query = pg.Query as unknown as { prototype: { submit(connection: { parsedStatements: Record<string, string> }): unknown } };
  const original = Query.prototype.submit;
  Query.prototype.submit = function (this: { text: string; name?: string; carriesBegin?: boolean; carriesCommit?: boolean }, connection) {
    submitted.push({ text: this.text, withBegin: this.carriesBegin === true, withCommit: this.carriesCommit === true, prepared: this.name !== undefined && connection.parsedStatements[this.name] !== undefined });
    return original.call(this, connection);
  };
  const rounds = 12; // more than the pool's 10 connections: some insert meets a connection that prepared it
  const notes = async () => (await env.runtime.db.sequelize.query<{ n: number }>("SELECT count(*)::int AS n FROM app_notes.notes WHERE title IN ('begun', 'doomed')", { type: QueryTypes.SELECT }))[0].n;
  const outbox = async () => (await env.runtime.db.sequelize.query<{ n: number }>("SELECT count(*)::int AS n FROM platform.events WHERE action = 'core.notes.note.created' AND payload->>'title' IN ('begun', 'doomed')", { type: QueryTypes.SELECT }))[0].n;
  const [notesBefore, eventsBefore] = [await notes(), await outbox()];
  try {
    for (let round = 0; round < rounds; round++) {
      t.is((await call('POST', '/notes', acme.owner.headers(), { title: 'begun' })).statusCode, 200);
      t.is((await call('POST', '/notes/failing', acme.owner.headers())).statusCode, 400);
    }
  } finally {
    Query.prototype.submit = original;
  }
  t.is(await notes(), notesBefore + rounds, 'every commit kept its note, every failure rolled its back');
  t.is(await outbox(), eventsBefore + rounds, 'every commit kept its event, every failure rolled its back');
  const begins = submitted.filter(({ text }) => text === 'BEGIN').length;
  const carried = submitted.filter(({ withBegin }) => withBegin);
  t.is(begins + carried.length, 2 * rounds, 'one BEGIN per transaction, never two');
  const committing = submitted.filter(({ withCommit }) => withCommit);
  t.is(submitted.filter(({ text }) => text === 'COMMIT').length + committing.length, rounds, 'one COMMIT per commit, never two');
  t.is(submitted.filter(({ text }) => text === 'ROLLBACK').length, rounds);
  if (onPostgres) {
    // Prepared on its connection: BEGIN rides along; not yet: BEGIN is sent first, on its own.
    const inserts = submitted.filter(({ text }) => text.startsWith('INSERT INTO "app_notes"."notes"'));
    t.is(inserts.length, 2 * rounds);
    t.deepEqual(inserts.map(({ withBegin }) => withBegin), inserts.map(({ prepared }) => prepared));
    t.deepEqual(carried, inserts.filter(({ withBegin }) => withBegin), 'only the transaction\'s first statement carries it');
    t.true(carried.length >= 2 * rounds - 2 * 10, `at most one insert of each route per connection was not prepared (${carried.length} of ${2 * rounds} carried BEGIN)`);
    // The outbox insert ends a committing request: prepared on its connection, COMMIT rides along.
    const events = submitted.filter(({ text }) => text.includes('INSERT INTO platform.events'));
    t.is(events.length, rounds, 'a failing request writes no outbox row');
    t.deepEqual(events.map(({ withCommit }) => withCommit), events.map(({ prepared }) => prepared));
    t.deepEqual(committing, events.filter(({ withCommit }) => withCommit), 'only the outbox insert carries it');
    t.true(committing.length >= rounds - 10, `at most one outbox insert per connection was not prepared (${committing.length} of ${rounds} carried COMMIT)`);
  } else {
    // The embedded database prepares with SQL PREPARE (one session): BEGIN and COMMIT go on their own.
    t.is(carried.length, 0);
    t.is(committing.length, 0);
  }
});

test.serial('an outbox insert that fails with the COMMIT it carries commits nothing, and its connection serves the next request', async (t) => {
  // A trigger refuses one title's event row: the request's last statement (and, once prepared on
  // the connection, the COMMIT travelling with it) fails on the database itself.
  const sequelize = env.runtime.db.sequelize;
  await sequelize.query(`CREATE FUNCTION platform.refuse_test_event() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.payload->>'title' = 'refused' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`);
  await sequelize.query('CREATE TRIGGER refuse_test_event BEFORE INSERT ON platform.events FOR EACH ROW EXECUTE FUNCTION platform.refuse_test_event()');
  const count = async (title: string) => (await sequelize.query<{ notes: number; events: number }>(
    `SELECT (SELECT count(*)::int FROM app_notes.notes WHERE title = :title) AS notes,
            (SELECT count(*)::int FROM platform.events WHERE action = 'core.notes.note.created' AND payload->>'title' = :title) AS events`,
    { replacements: { title }, type: QueryTypes.SELECT },
  ))[0];
  // The refused outbox inserts that carried a COMMIT.
  let carried = 0;
  const Query = pg.Query as unknown as { prototype: { submit(connection: unknown): unknown } };
  const original = Query.prototype.submit;
  Query.prototype.submit = function (this: { text: string; values?: unknown[]; carriesCommit?: boolean }, connection) {
    if (this.carriesCommit && this.text.includes('INSERT INTO platform.events') && String(this.values?.[0]).includes('"refused"')) carried++;
    return original.call(this, connection);
  };
  try {
    for (let round = 0; round < 12; round++) {
      // 12 rounds: more than the pool's 10 connections, so most inserts are prepared and carry the COMMIT.
      t.is((await call('POST', '/notes', acme.owner.headers(), { title: 'refused' })).statusCode, 500);
      t.is((await call('POST', '/notes', acme.owner.headers(), { title: 'accepted' })).statusCode, 200);
    }
  } finally {
    Query.prototype.submit = original;
    await sequelize.query('DROP TRIGGER refuse_test_event ON platform.events');
    await sequelize.query('DROP FUNCTION platform.refuse_test_event()');
  }
  t.deepEqual(await count('refused'), { notes: 0, events: 0 }, 'a failed request leaves no note and no event');
  t.deepEqual(await count('accepted'), { notes: 12, events: 12 }, 'every request after a failure on the same connections committed');
  if (process.env.TEST_DATABASE_URL || process.env.DATABASE_URL) t.true(carried >= 2, `refused inserts carried the COMMIT (${carried} of 12)`);
  else t.is(carried, 0, 'the embedded database sends COMMIT on its own');
});

/**
 * The statements sent on the notes table: by their text on PostgreSQL (named statements carry
 * it), on the embedded database as the EXECUTE of a name PREPAREd with that text.
 */
function notesStatements(): { sent: string[]; restore: () => void } {
  const sent: string[] = [];
  const prepared = new Map<string, string>();
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text: string; name?: string };
    const text = typeof config === 'string' ? config : config.text;
    const preparing = /^PREPARE (\w+) AS ([\s\S]*)$/.exec(text);
    if (preparing) prepared.set(preparing[1], preparing[2]);
    const executing = /^EXECUTE (\w+)\(/.exec(text);
    const statement = executing ? (prepared.get(executing[1]) ?? '') : preparing ? '' : text;
    if (statement.includes('"app_notes"."notes"')) sent.push(statement);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  return { sent, restore: () => (pg.Client.prototype.query = original) };
}

test('collections from ctx.respond follow the envelope and pagination', async (t) => {
  const ws = await TestWorkspace.create(env, 'pages');
  await ws.install('notes', { access_policy: 'everyone' });
  for (const title of ['a', 'b', 'c']) await call('POST', '/notes', ws.owner.headers(), { title });
  const page = body(await call('GET', '/notes?per_page=2&page=2', ws.owner.headers()));
  t.deepEqual(page.pagination, { page: 2, per_page: 2, total: 3, pages: 2 });
  t.deepEqual(page.data.map((note: { title: string }) => note.title), ['c']);
  t.deepEqual(page.links, { self: '/notes?page=2&per_page=2', first: '/notes?page=1&per_page=2', last: '/notes?page=2&per_page=2', next: null, prev: '/notes?page=1&per_page=2' });
});

test('a public route answers without a credential where the app is installed, and 404 elsewhere', async (t) => {
  const open = await call('GET', '/notes-status', apiHeaders('acme'));
  t.is(open.statusCode, 200);
  t.like(body(open), { status: 'ok', member: null });
  const bare = await TestWorkspace.create(env, 'bare');
  const closed = await call('GET', '/notes-status', apiHeaders(bare.subdomain));
  t.is(closed.statusCode, 404);
  t.deepEqual(body(closed), { error: 'App notes is not installed in this workspace' });
});

test('a protected app route without a credential is a 401', async (t) => {
  const response = await call('GET', '/notes', apiHeaders('acme'));
  t.is(response.statusCode, 401);
  t.deepEqual(body(response), { error: 'Authentication required' });
});

test('third-party routes are served under /ext/{publisher}/{slug}, and only there', async (t) => {
  await acme.install('ext.acme.vault');
  const response = await call('GET', '/ext/acme/vault/secrets', acme.owner.headers());
  t.is(response.statusCode, 200);
  t.deepEqual(body(response), { data: [] });
  t.is((await call('GET', '/secrets', acme.owner.headers())).statusCode, 404);
});

test('ctx.platform.request: an app that declares it (a third-party one here) calls the API as a member, narrowed to its scopes, in its own workspace only', async (t) => {
  const ws = await TestWorkspace.create(env, 'initech');
  await ws.install('notes', { access_policy: 'everyone' });
  await ws.install('ext.acme.vault', { access_policy: 'everyone' });
  const writer = await ws.member('member', [await ws.role('Writers', { notes: ['notes.notes.create', 'notes.notes.read'] })]);
  const reader = await ws.member('member', [await ws.role('Readers', { notes: ['notes.notes.read'] })]);
  const relay = async (call: Record<string, unknown>) => {
    const response = await injectCall(env, 'POST', '/ext/acme/vault/relay', ws.owner.headers(), call);
    return [response.statusCode, body(response)];
  };
  const notesOf = async () =>
    (await env.runtime.db.sequelize.query<{ title: string; author_id: string }>('SELECT title, author_id FROM app_notes.notes WHERE workspace_id = :id ORDER BY created_at', { type: QueryTypes.SELECT, replacements: { id: ws.id } })).map((row) => [row.title, row.author_id]);

  // As the member, through the whole chain: the note is theirs, and its event says an app made the call.
  const [status, made] = await relay({ member: writer.memberId, scopes: ['notes.notes.create'], method: 'POST', path: '/notes', payload: { title: 'Via the vault' }, note: 'run 7' });
  t.is(status, 200);
  t.is(made.data.status, 200);
  t.like(made.data.body.data, { title: 'Via the vault', author_id: writer.memberId });
  t.deepEqual(await notesOf(), [['Via the vault', writer.memberId]]);
  const event = env.events.find((staged) => staged.payload.note_id === made.data.body.data.id);
  t.deepEqual(event?.metadata, { source: 'fixture', workspace_id: ws.id, via_app: 'ext.acme.vault', via_note: 'run 7' });
  // A named check runs inside the nested request (a savepoint of the caller's transaction).
  const renamed = await relay({ member: `mrn:account:member:${writer.memberId}`, scopes: ['notes.notes.create'], method: 'PUT', path: `/notes/${made.data.body.data.id}`, payload: { title: 'Renamed' } });
  t.deepEqual([renamed[0], renamed[1].data.status, renamed[1].data.body.data.title], [200, 200, 'Renamed']);

  // Never more than the scopes (an owner holds every key), never more than the member (a reader).
  t.deepEqual(await relay({ member: ws.owner.memberId, scopes: ['notes.notes.read'], method: 'POST', path: '/notes', payload: { title: 'Owner narrowed' } }), [200, { data: { status: 403, body: { error: 'Missing permission: notes.notes.create' } } }]);
  t.deepEqual(await relay({ member: reader.memberId, scopes: ['notes.notes.create'], method: 'POST', path: '/notes', payload: { title: 'Reader widened' } }), [200, { data: { status: 403, body: { error: 'Missing permission: notes.notes.create' } } }]);
  // Scopes of another app only: layer 4 keeps the grant out of notes.
  t.deepEqual(await relay({ member: writer.memberId, scopes: ['ext.acme.vault.secrets.read'], method: 'GET', path: '/notes' }), [200, { data: { status: 403, body: { error: "You don't have access to this app" } } }]);
  // Platform routes: fail closed, as for a scoped key.
  t.deepEqual(await relay({ member: ws.owner.memberId, scopes: ['notes.notes.read'], method: 'GET', path: '/members' }), [200, { data: { status: 403, body: { error: 'Missing permission: account.members.read' } } }]);
  // A 4xx of the target is an answer; its writes are rolled back, the caller's request goes on.
  t.deepEqual(await relay({ member: writer.memberId, scopes: ['notes.notes.create'], method: 'POST', path: '/notes/failing' }), [200, { data: { status: 400, body: { error: 'title "doomed" is refused after writing' } } }]);
  t.deepEqual(await notesOf(), [['Renamed', writer.memberId]]);

  // The workspace is the calling app's: another workspace's member is nobody here, and a host cannot be named.
  await call('POST', '/notes', acme.owner.headers(), { title: 'acme secret' });
  t.deepEqual(await relay({ member: acme.owner.memberId, scopes: ['notes.notes.read'], method: 'GET', path: '/notes' }), [200, { data: { status: 401, body: { error: 'The member this app acts for is not an active member of this workspace' } } }]);
  const listed = await relay({ member: writer.memberId, scopes: ['notes.notes.read'], method: 'GET', path: '/notes?per_page=50' });
  t.deepEqual(listed[1].data.body.data.map((note: { title: string }) => note.title), ['Renamed']);
  for (const path of ['//acme.localhost/notes', 'http://acme.localhost/notes', '/\\acme.localhost/notes', 'notes']) {
    t.deepEqual(await relay({ member: writer.memberId, scopes: ['notes.notes.read'], method: 'GET', path }), [400, { error: "ctx.platform.request: path must be a path of this workspace's API (/tasks), without a host" }], path);
  }
  t.deepEqual(await relay({ member: writer.memberId, scopes: [], method: 'GET', path: '/notes' }), [400, { error: 'ctx.platform.request: scopes must be a list of 1-50 permission keys' }]);
});

// Serial tests run before the others: the broker is stopped again before they start.
test.serial('an install event reaches the subscription handler through the event bus, with the app context', async (t) => {
  await env.runtime.events.startBroker();
  try {
    const ws = await TestWorkspace.create(env, 'subscriber');
    await ws.install('notes', { access_policy: 'everyone' });
    await env.runtime.events.settled(15_000);
    const notes = body(await call('GET', '/notes', ws.owner.headers())).data;
    t.deepEqual(notes.map((note: { title: string; author_id: string }) => [note.title, note.author_id]), [['Welcome', ws.owner.memberId]]);
    const [staged] = await env.runtime.db.sequelize.query<{ count: number }>("SELECT count(*)::int AS count FROM platform.events WHERE emitter = 'notes' AND workspace_id = :id AND payload->>'note_id' = 'welcome'", {
      type: QueryTypes.SELECT,
      replacements: { id: ws.id },
    });
    t.is(staged.count, 1, 'the handler staged its own event');
  } finally {
    await env.runtime.events.stopBroker();
  }
});

test('a delivery to an app not installed in the workspace is skipped', async (t) => {
  const ws = await TestWorkspace.create(env, 'without');
  const event = { action: 'system.app.installed', payload: { app_slug: 'notes', installed_by: ws.owner.memberId }, metadata: { workspace_id: ws.id } };
  t.is(await env.runtime.apps.dispatch('notes', event), 'skipped');
  await ws.install('notes');
  t.is(await env.runtime.apps.dispatch('notes', event), 'handled');
  const [row] = await env.runtime.db.sequelize.query<{ count: number }>("SELECT count(*)::int AS count FROM app_notes.notes WHERE workspace_id = :id AND title = 'Welcome'", { type: QueryTypes.SELECT, replacements: { id: ws.id } });
  t.is(row.count, 1);
});

test('without strict mode SQL smuggled into a query reads another schema (what strict mode prevents)', async (t) => {
  await env.runtime.db.sequelize.query("INSERT INTO ext_acme_vault.secrets (workspace_id, value) VALUES (:id, 'the recipe')", { replacements: { id: globex.id } });
  await call('POST', '/notes', globex.owner.headers(), { title: 'smuggler' });
  const response = await call('GET', '/notes/smuggle?target=vault', globex.owner.headers());
  t.is(response.statusCode, 200);
  t.true(body(response).rows > 0);
  t.is(env.runtime.apps.strictRoleOf('notes'), null);
});

test('the search engine asks the registry who may open an app and which keys they hold', async (t) => {
  const ws = await TestWorkspace.create(env, 'searcher');
  const role = await ws.role('Readers', { notes: ['notes.notes.read'] });
  const reader = await ws.member('member', [role]);
  const stranger = await ws.member('member');
  await ws.install('notes', { access_policy: 'roles', allowed_roles: [role] });
  const workspace = await env.runtime.workspaces.findById(ws.id);
  const requestOf = async (memberId: string) => ({ app: { workspace }, auth: { credentials: { member: await env.runtime.identity.callerForMember(ws.id, memberId), via: { kind: 'session', sessionId: 'x', elevatedUntil: null } } } }) as never;
  const access = env.runtime.apps.searchAccess();
  t.true(await access.canOpenApp(await requestOf(reader.memberId), 'notes'));
  t.false(await access.canOpenApp(await requestOf(stranger.memberId), 'notes'));
  t.false(await access.canOpenApp(await requestOf(reader.memberId), 'ext.acme.vault'));
  t.false(await access.canOpenApp(await requestOf(reader.memberId), 'nope'));
  t.deepEqual(await access.heldKeys(await requestOf(reader.memberId), 'notes'), new Set(['notes.notes.read']));
  t.is(await access.heldKeys(await requestOf(ws.owner.memberId), 'notes'), 'all');
  t.deepEqual(access.searchableTypes('notes'), [{ type: 'note', label: 'Notes', permissions: ['notes.notes.read'], names: ['title'], details: ['body'] }]);
  t.deepEqual(access.searchableTypes('nope'), []);
});

/** Runs `count` statements through `gate` at once (as `Promise.all` over rows would) and answers how many were in flight together at most. */
async function mostAtOnce(gate: WorkGate, run: () => Promise<unknown>, count: number): Promise<number> {
  let active = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: count }, () =>
      gate.read(async () => {
        most = Math.max(most, ++active);
        try {
          return await run();
        } finally {
          active--;
        }
      }),
    ),
  );
  return most;
}

test('statements of one transaction take turns (one connection), while reads before it run side by side', async (t) => {
  const sequelize = env.runtime.db.sequelize;
  const work = new LazyWork(sequelize);
  const pause = () => sequelize.query('SELECT pg_sleep(0.01)', { type: QueryTypes.SELECT });
  // No transaction yet: parallel reads take connections of their own.
  t.is(await mostAtOnce(work, pause, 4), 4);
  await work.write(() => sequelize.query('SELECT 1', { type: QueryTypes.SELECT, transaction: work.transaction! }));
  t.truthy(work.transaction);
  // In the transaction: one at a time, each in the transaction, none failing.
  const inside = () => sequelize.query<{ id: string }>('SELECT txid_current()::text AS id', { type: QueryTypes.SELECT, transaction: work.transaction! });
  t.is(await mostAtOnce(work, inside, 5), 1);
  const ids = await Promise.all(Array.from({ length: 3 }, () => work.read(inside)));
  t.is(new Set(ids.map(([row]) => row.id)).size, 1);
  // A statement that fails does not stop the ones behind it.
  const failing = work.read(() => sequelize.query('SELECT no_such_column FROM platform.workspaces', { transaction: work.transaction! }));
  const after = work.read(() => Promise.resolve('ran'));
  await t.throwsAsync(failing);
  t.is(await after, 'ran');
  await work.end(false);

  // An event's unit of work (one transaction from the start) gets the same turns.
  const gate = transactionGate();
  t.is(await mostAtOnce(gate, () => new Promise((resolve) => setTimeout(resolve, 5)), 5), 1);
});
