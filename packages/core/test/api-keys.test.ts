import test from 'ava';
import { createHash } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { ACCESS_STATEMENTS } from '../src/index.js';
import { JUDGE } from '../src/live/access.js';
import { apiHeaders, type TestRuntime } from './helpers/runtime.js';
import { addMember, json, keyedWorkspace, startKeysRuntime, type KeyedWorkspace } from './helpers/keys.js';

let env: TestRuntime;
let acme: KeyedWorkspace;
let globex: KeyedWorkspace;

const inject = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
  env.runtime.server.inject({ method, url, headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' }, payload: payload as object });

/** Creates a key through the API as `creator` and returns its view and secret. */
async function createKey(workspace: KeyedWorkspace, body: Record<string, unknown>, creator = workspace.ownerKey) {
  const response = await inject('POST', '/api-keys', workspace.as(creator), body);
  if (response.statusCode !== 200) throw new Error(`POST /api-keys answered ${response.statusCode} ${response.payload}`);
  return json(response).data as { id: string; secret: string; prefix: string; scopes: string[]; full_access: boolean; status: string; member: { id: string } };
}

test.before(async () => {
  env = await startKeysRuntime();
  acme = await keyedWorkspace(env, 'acme');
  globex = await keyedWorkspace(env, 'globex');
  for (const workspace of [acme, globex]) {
    const installed = await inject('POST', '/applications/notes/installations', workspace.as(workspace.ownerKey), {});
    if (installed.statusCode !== 200) throw new Error(`install answered ${installed.statusCode} ${installed.payload}`);
  }
});

test.after.always(async () => {
  await env?.close();
});

test('a key is slk_ plus 32 base62 characters, shown once; lists show its first 12 characters and never the secret', async (t) => {
  const created = await createKey(acme, { name: 'CI deploys', scopes: ['notes.notes.read'] });
  t.regex(created.secret, /^slk_[0-9A-Za-z]{32}$/);
  t.is(created.prefix, created.secret.slice(0, 12));
  t.like(created, { full_access: false, scopes: ['notes.notes.read'], status: 'active', member: { id: acme.ownerId } });

  const list = await inject('GET', '/api-keys?per_page=100', acme.as(acme.ownerKey));
  t.is(list.statusCode, 200);
  t.false(list.payload.includes(created.secret));
  t.false(list.payload.includes(created.secret.slice(12)));
  const listed = json(list).data.find((key: { id: string }) => key.id === created.id);
  t.deepEqual(Object.keys(listed).sort(), ['created_at', 'expires_at', 'full_access', 'id', 'last_used_at', 'member', 'name', 'never_expires', 'prefix', 'scopes', 'status', 'updated_at']);
  t.like(listed, { name: 'CI deploys', prefix: created.prefix, scopes: ['notes.notes.read'], status: 'active', expires_at: null, never_expires: true, member: { id: acme.ownerId, email: 'owner@acme.test' } });
  t.like(json(list).pagination, { page: 1, per_page: 100 });

  const [stored] = await env.runtime.db.sequelize.query<{ prefix: string; secret_hash: string }>('SELECT prefix, secret_hash FROM platform.api_keys WHERE id = :id', { type: QueryTypes.SELECT, replacements: { id: created.id } });
  t.is(stored.prefix, created.secret.slice(0, 12));
  t.regex(stored.secret_hash, /^[0-9a-f]{64}$/);
});

test('key management is admin-gated; a scoped key never passes the gate, even an owner\'s', async (t) => {
  const memberId = await addMember(env, acme, 'plain@acme.test');
  const memberKey = await env.runtime.apiKeys.issueFullAccessKey(acme.id, memberId, 'member key');
  const byMember = await inject('GET', '/api-keys', acme.as(memberKey.secret));
  t.is(byMember.statusCode, 403);
  t.deepEqual(json(byMember), { error: 'Only workspace owners and admins can manage API keys' });

  const scoped = await createKey(acme, { name: 'owner scoped', scopes: ['notes.*'] });
  const byScoped = await inject('POST', '/api-keys', acme.as(scoped.secret), { name: 'escalate', full_access: true });
  t.is(byScoped.statusCode, 403);
  t.deepEqual(json(byScoped), { error: 'A scoped API key cannot manage API keys: it holds only its scopes' });
});

test('every payload bound answers 400 with an error naming it', async (t) => {
  const key = await createKey(acme, { name: 'bounds' });
  const cases: Array<[string, string, unknown, string, string?]> = [
    ['POST', '/api-keys', {}, 'name is required', 'name'],
    ['POST', '/api-keys', { name: '' }, 'name is not allowed to be empty', 'name'],
    ['POST', '/api-keys', { name: 'x'.repeat(101) }, 'name length must be less than or equal to 100 characters long', 'name'],
    ['POST', '/api-keys', { name: 'k', expires_at: 'x'.repeat(41) }, 'expires_at length must be less than or equal to 40 characters long', 'expires_at'],
    ['POST', '/api-keys', { name: 'k', expires_at: 'tomorrow' }, 'expires_at must be a real date (YYYY-MM-DD) or ISO 8601 instant, for example 2027-01-31T09:30:00Z', 'expires_at'],
    ['POST', '/api-keys', { name: 'k', expires_at: '2020-01-01T00:00:00Z' }, 'expires_at must be in the future', 'expires_at'],
    ['POST', '/api-keys', { name: 'k', scopes: 'notes.notes.read' }, 'scopes must be an array', 'scopes'],
    ['POST', '/api-keys', { name: 'k', scopes: ['notes.notes.fly'] }, 'scopes: "notes.notes.fly" is not a permission key declared by an app installed in this workspace', 'scopes'],
    ['POST', '/api-keys', { name: 'k', scopes: ['vault.*'] }, 'scopes: "vault.*" names no app installed in this workspace', 'scopes'],
    ['POST', '/api-keys', { name: 'k', full_access: true, scopes: ['notes.notes.read'] }, 'scopes apply only to a scoped key (full_access: false)', 'scopes'],
    ['POST', '/api-keys', { name: 'k', full_access: 'yes' }, 'full_access must be a boolean', 'full_access'],
    ['POST', '/api-keys', { name: 'k', member_id: '00000000-0000-0000-0000-000000000000' }, 'member_id: 00000000-0000-0000-0000-000000000000 is not an active member of this workspace', 'member_id'],
    ['PUT', `/api-keys/${key.id}`, { status: 'paused' }, 'status must be one of [active, revoked]', 'status'],
    ['PUT', `/api-keys/${key.id}`, { name: '' }, 'name is not allowed to be empty', 'name'],
    ['PUT', `/api-keys/${key.id}`, { expires_at: '2999-01-01T00:00:00Z', never_expires: true }, 'give either expires_at or never_expires: true, not both'],
    ['PUT', `/api-keys/${key.id}/secret`, { expires_at: 'x'.repeat(41) }, 'expires_at length must be less than or equal to 40 characters long', 'expires_at'],
  ];
  for (const [method, url, payload, error, field] of cases) {
    const response = await inject(method, url, acme.as(acme.ownerKey), payload);
    t.is(response.statusCode, 400, `${method} ${url} ${JSON.stringify(payload)}`);
    t.deepEqual(json(response), field === undefined ? { error } : { error, field }, `${method} ${url} ${JSON.stringify(payload)}`);
  }
  const [{ count }] = await env.runtime.db.sequelize.query<{ count: number }>(`SELECT count(*)::int AS count FROM platform.api_keys WHERE name = 'k'`, { type: QueryTypes.SELECT });
  t.is(count, 0);
});

test('layer 1: no credential, an invalid key, and a key never retried with the cookie', async (t) => {
  const none = await inject('GET', '/notes', apiHeaders('acme'));
  t.is(none.statusCode, 401);
  t.deepEqual(json(none), { error: 'Authentication required' });
  for (const bad of ['slk_doesnotexist', 'not-a-key', 'slk_']) {
    const response = await inject('GET', '/notes', acme.as(bad));
    t.is(response.statusCode, 401, bad);
    t.deepEqual(json(response), { error: 'Invalid, revoked, or expired API key' }, bad);
  }
  const session = await env.runtime.identity.sessions.start(
    (await env.runtime.db.sequelize.models.Member.findByPk(acme.ownerId)) as never,
    (await env.runtime.db.sequelize.models.Account.findOne({ where: { email: 'owner@acme.test' } })) as never,
  );
  const withCookie = await inject('GET', '/notes', acme.as('slk_doesnotexist', { cookie: `wpk_session=${session.token}` }));
  t.is(withCookie.statusCode, 401);
  t.deepEqual(json(withCookie), { error: 'Invalid, revoked, or expired API key' });
  const cookieAlone = await inject('GET', '/notes', apiHeaders('acme', { cookie: `wpk_session=${session.token}` }));
  t.is(cookieAlone.statusCode, 200);
});

test('revoking, rotating, re-scoping and expiring take effect on the very next request', async (t) => {
  const key = await createKey(acme, { name: 'lifecycle', scopes: ['notes.notes.read'] });
  t.is((await inject('GET', '/notes', acme.as(key.secret))).statusCode, 200);

  const rescoped = await inject('PUT', `/api-keys/${key.id}`, acme.as(acme.ownerKey), { scopes: [] });
  t.is(rescoped.statusCode, 200);
  t.deepEqual(json(rescoped).data.scopes, []);
  const shut = await inject('GET', '/notes', acme.as(key.secret));
  t.is(shut.statusCode, 403);
  t.deepEqual(json(shut), { error: "You don't have access to this app" });
  await inject('PUT', `/api-keys/${key.id}`, acme.as(acme.ownerKey), { scopes: ['notes.notes.read'] });

  const rotated = await inject('PUT', `/api-keys/${key.id}/secret`, acme.as(acme.ownerKey));
  t.is(rotated.statusCode, 200);
  const fresh = json(rotated).data;
  t.is(fresh.id, key.id);
  t.not(fresh.secret, key.secret);
  t.is(fresh.prefix, fresh.secret.slice(0, 12));
  t.is((await inject('GET', '/notes', acme.as(key.secret))).statusCode, 401);
  t.is((await inject('GET', '/notes', acme.as(fresh.secret))).statusCode, 200);

  const soon = new Date(Date.now() + 1500).toISOString();
  t.is((await inject('PUT', `/api-keys/${key.id}`, acme.as(acme.ownerKey), { expires_at: soon })).statusCode, 200);
  t.is((await inject('GET', '/notes', acme.as(fresh.secret))).statusCode, 200);
  await new Promise((resolve) => setTimeout(resolve, 1700));
  const expired = await inject('GET', '/notes', acme.as(fresh.secret));
  t.is(expired.statusCode, 401);
  t.deepEqual(json(expired), { error: 'Invalid, revoked, or expired API key' });
  const shown = json(await inject('GET', `/api-keys/${key.id}`, acme.as(acme.ownerKey))).data;
  t.like(shown, { status: 'expired', never_expires: false });
  t.is((await inject('PUT', `/api-keys/${key.id}`, acme.as(acme.ownerKey), { never_expires: true })).statusCode, 200);
  t.is((await inject('GET', '/notes', acme.as(fresh.secret))).statusCode, 200);

  const revoked = await inject('PUT', `/api-keys/${key.id}`, acme.as(acme.ownerKey), { status: 'revoked' });
  t.is(json(revoked).data.status, 'revoked');
  t.is((await inject('GET', '/notes', acme.as(fresh.secret))).statusCode, 401);
  const back = await inject('PUT', `/api-keys/${key.id}`, acme.as(acme.ownerKey), { status: 'active' });
  t.is(back.statusCode, 409);
  t.deepEqual(json(back), { error: 'A revoked key cannot be made active again: create a new key' });
});

test("deactivating a member stops that member's keys on the next request", async (t) => {
  const memberId = await addMember(env, acme, 'leaver@acme.test');
  const key = await createKey(acme, { name: 'leaver key', member_id: memberId, scopes: ['notes.notes.read'] });
  t.is(key.member.id, memberId);
  t.is((await inject('GET', '/notes', acme.as(key.secret))).statusCode, 200);
  const removed = await inject('DELETE', `/members/${memberId}`, acme.as(acme.ownerKey));
  t.is(removed.statusCode, 200);
  const after = await inject('GET', '/notes', acme.as(key.secret));
  t.is(after.statusCode, 401);
  t.deepEqual(json(after), { error: 'Invalid, revoked, or expired API key' });
});

test('a scoped key holds exactly its scopes: no roles, no admin bypass, {slug}.* expands', async (t) => {
  const empty = await createKey(acme, { name: 'empty' });
  const denied = await inject('GET', '/notes', acme.as(empty.secret));
  t.is(denied.statusCode, 403);
  t.deepEqual(json(denied), { error: "You don't have access to this app" });

  const reader = await createKey(acme, { name: 'reader', scopes: ['notes.notes.read'] });
  t.is((await inject('GET', '/notes', acme.as(reader.secret))).statusCode, 200);
  const write = await inject('POST', '/notes', acme.as(reader.secret), { title: 'nope' });
  t.is(write.statusCode, 403);
  t.deepEqual(json(write), { error: 'Missing permission: notes.notes.create' });

  const all = await createKey(acme, { name: 'all notes', scopes: ['notes.*'] });
  t.is((await inject('POST', '/notes', acme.as(all.secret), { title: 'yes' })).statusCode, 200);
});

test("a full-access key has exactly its member's permissions", async (t) => {
  const role = await inject('POST', '/roles', acme.as(acme.ownerKey), { name: 'Note readers', permissions: { notes: ['notes.notes.read'] } });
  t.is(role.statusCode, 200, role.payload);
  const roleId = json(role).data.id;
  const memberId = await addMember(env, acme, 'reader@acme.test');
  t.is((await inject('PATCH', `/members/${memberId}`, acme.as(acme.ownerKey), { role_ids: [roleId] })).statusCode, 200);
  t.is((await inject('PUT', '/applications/notes/access', acme.as(acme.ownerKey), { access_policy: 'roles', allowed_roles: [roleId] })).statusCode, 200);
  const key = await createKey(acme, { name: 'reader full', full_access: true, member_id: memberId });
  t.is((await inject('GET', '/notes', acme.as(key.secret))).statusCode, 200);
  const write = await inject('POST', '/notes', acme.as(key.secret), { title: 'no' });
  t.is(write.statusCode, 403);
  t.deepEqual(json(write), { error: 'Missing permission: notes.notes.create' });
});

test("an admin manages members' keys but not the owner's", async (t) => {
  const adminId = await addMember(env, acme, 'admin@acme.test', 'admin');
  const adminKey = await env.runtime.apiKeys.issueFullAccessKey(acme.id, adminId, 'admin key');
  const forOwner = await inject('POST', '/api-keys', acme.as(adminKey.secret), { name: 'steal', full_access: true, member_id: acme.ownerId });
  t.is(forOwner.statusCode, 403);
  t.deepEqual(json(forOwner), { error: "Only the workspace owner can manage the owner's API keys" });
  const ownerKeyId = json(await inject('GET', '/api-keys?per_page=100', acme.as(acme.ownerKey))).data.find((key: { name: string }) => key.name === 'owner key').id;
  const rotate = await inject('PUT', `/api-keys/${ownerKeyId}/secret`, acme.as(adminKey.secret));
  t.is(rotate.statusCode, 403);
  const memberId = await addMember(env, acme, 'managed@acme.test');
  const forMember = await inject('POST', '/api-keys', acme.as(adminKey.secret), { name: 'for member', member_id: memberId });
  t.is(forMember.statusCode, 200);
});

test('deleting a key removes it and its audit trail', async (t) => {
  const key = await createKey(acme, { name: 'doomed' });
  await inject('PUT', `/api-keys/${key.id}`, acme.as(acme.ownerKey), { name: 'doomed 2' });
  const count = async () =>
    (await env.runtime.db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM platform.api_key_audit WHERE key_id = :id', { type: QueryTypes.SELECT, replacements: { id: key.id } }))[0].n;
  t.is(await count(), 2);
  const deleted = await inject('DELETE', `/api-keys/${key.id}`, acme.as(acme.ownerKey));
  t.is(deleted.statusCode, 200);
  t.deepEqual(JSON.parse(deleted.payload), { data: { id: key.id, deleted: true }, links: { self: `/api-keys/${key.id}` } });
  t.is(await count(), 0);
  t.is((await inject('GET', `/api-keys/${key.id}`, acme.as(acme.ownerKey))).statusCode, 404);
  t.is((await inject('GET', '/notes', acme.as(key.secret))).statusCode, 401);
});

test('last_used_at is stamped at one-minute resolution, at most once a minute, never for a refused request', async (t) => {
  const key = await createKey(acme, { name: 'usage', scopes: ['notes.notes.read'] });
  const stamp = async () =>
    (await env.runtime.db.sequelize.query<{ last_used_at: Date | null; version: string }>('SELECT last_used_at, xmin::text AS version FROM platform.api_keys WHERE id = :id', { type: QueryTypes.SELECT, replacements: { id: key.id } }))[0];

  t.is((await inject('POST', '/notes', acme.as(key.secret), { title: 'refused' })).statusCode, 403);
  t.is((await stamp()).last_used_at, null);

  t.is((await inject('GET', '/notes', acme.as(key.secret))).statusCode, 200);
  const first = await stamp();
  t.truthy(first.last_used_at);
  t.is(first.last_used_at!.getUTCSeconds(), 0);
  t.is(first.last_used_at!.getUTCMilliseconds(), 0);
  t.true(Date.now() - first.last_used_at!.getTime() < 61_000);

  for (let index = 0; index < 3; index++) await inject('GET', '/notes', acme.as(key.secret));
  const later = await stamp();
  if (later.last_used_at!.getTime() === first.last_used_at!.getTime()) t.is(later.version, first.version, 'no write within the same minute');
  else t.true(later.last_used_at!.getTime() > first.last_used_at!.getTime(), 'a new minute began during the test');
});

test('a credential of one workspace is refused on another and reveals nothing of it', async (t) => {
  const onOther = await inject('GET', '/notes', globex.as(acme.ownerKey));
  t.is(onOther.statusCode, 403);
  t.deepEqual(json(onOther), { error: 'You are not a member of this workspace' });
  const globexKey = await createKey(globex, { name: 'globex only' });
  for (const [method, url] of [['GET', `/api-keys/${globexKey.id}`], ['PUT', `/api-keys/${globexKey.id}`], ['DELETE', `/api-keys/${globexKey.id}`], ['PUT', `/api-keys/${globexKey.id}/secret`]] as const) {
    const response = await inject(method, url, acme.as(acme.ownerKey), method === 'PUT' ? { name: 'x' } : undefined);
    t.is(response.statusCode, 404, `${method} ${url}`);
    t.deepEqual(json(response), { error: `No API key ${globexKey.id} in this workspace` });
  }
  const list = json(await inject('GET', '/api-keys?per_page=100', acme.as(acme.ownerKey)));
  t.false(list.data.some((key: { id: string }) => key.id === globexKey.id));
  t.is(json(await inject('GET', `/api-keys/${globexKey.id}`, globex.as(globex.ownerKey))).data.name, 'globex only');
});

test("a credential is found through its hash's unique index, on requests and live sockets, not by reading the workspace's keys", async (t) => {
  const { sequelize } = env.runtime.db;
  const hash = createHash('sha256').update(acme.ownerKey).digest('hex');
  const now = new Date();
  const statements = [
    { name: 'request with a key', text: ACCESS_STATEMENTS.withKey.text, bind: [acme.subdomain, hash, 'notes', now], index: /api_keys_secret_hash_key/ },
    { name: 'request with a session', text: ACCESS_STATEMENTS.withSession.text, bind: [acme.subdomain, hash, 'notes', now], index: /sessions_token_hash_key/ },
    { name: 'live judgement', text: JUDGE.text, bind: [acme.id, ['api_key', 'session'], [hash, hash], now, 'notes'], index: /api_keys_secret_hash_key[\s\S]*sessions_token_hash_key/ },
  ];
  // With sequential scans priced out, a plan names the hash's index only if the comparison can use it.
  const plans = await sequelize.transaction(async (transaction) => {
    await sequelize.query('SET LOCAL enable_seqscan = off', { transaction });
    const read: string[] = [];
    for (const statement of statements) {
      const rows = await sequelize.query<Record<string, string>>(`EXPLAIN ${statement.text}`, { type: QueryTypes.SELECT, bind: statement.bind, transaction });
      read.push(rows.map((row) => Object.values(row)[0]).join('\n'));
    }
    return read;
  });
  for (const [index, statement] of statements.entries()) t.regex(plans[index], statement.index, statement.name);
});
