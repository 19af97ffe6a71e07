import test from 'ava';
import { body, startAppsRuntime, TestWorkspace, type AppsTestRuntime, type TestCaller } from './helpers/apps.js';

// Layers 4 (app access) and 5 (app permission) on the routes of the fixture apps, for sessions
// and for API keys (through the test authenticator; the API-key concern owns the real one).

let env: AppsTestRuntime;
let acme: TestWorkspace;
const roles: Record<string, string> = {};
const people: Record<string, TestCaller> = {};
let workspaces = 0;

const DENIED = { error: "You don't have access to this app" };
const json = { 'content-type': 'application/json' };

const call = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
  env.runtime.server.inject({ method, url, headers: payload === undefined ? headers : { ...headers, ...json }, payload: payload as object | undefined });

/** A workspace of its own for tests that change the installation. */
async function freshWorkspace(): Promise<TestWorkspace> {
  workspaces += 1;
  return TestWorkspace.create(env, `fresh${workspaces}`);
}

test.before(async () => {
  env = await startAppsRuntime();
  acme = await TestWorkspace.create(env, 'acme');
  roles.readers = await acme.role('Readers', { notes: ['notes.notes.read'] });
  roles.writers = await acme.role('Writers', { notes: ['notes.notes.read', 'notes.notes.create'] });
  roles.everything = await acme.role('Everything', { notes: ['notes.*'] });
  roles.deleters = await acme.role('Deleters', { notes: ['notes.notes.read', 'notes.notes.delete'] });
  roles.misplaced = await acme.role('Misplaced', { 'ext.acme.vault': ['notes.notes.read'], tasks: ['notes.notes.read', 'notes.*'] });
  roles.unlisted = await acme.role('Unlisted', { notes: ['notes.notes.read'] });
  await acme.install('notes', { access_policy: 'roles', allowed_roles: [roles.readers, roles.writers, roles.everything, roles.deleters, roles.misplaced] });
  people.reader = await acme.member('member', [roles.readers]);
  people.writer = await acme.member('member', [roles.writers]);
  people.writer2 = await acme.member('member', [roles.writers]);
  people.wild = await acme.member('member', [roles.everything]);
  people.deleter = await acme.member('member', [roles.deleters]);
  people.misplaced = await acme.member('member', [roles.misplaced]);
  people.unlisted = await acme.member('member', [roles.unlisted]);
  people.outsider = await acme.member('member');
  people.admin = await acme.member('admin');
});

test.after.always(async () => {
  await env?.close();
});

test('an app that is not installed refuses everyone, the owner included', async (t) => {
  for (const headers of [acme.owner.headers(), people.admin.headers(), people.reader.headers()]) {
    const response = await call('GET', '/ext/acme/vault/secrets', headers);
    t.is(response.statusCode, 403);
    t.deepEqual(body(response), DENIED);
  }
});

test('policy roles lets in only members holding one of the allowed roles', async (t) => {
  const inside = await call('GET', '/notes', people.reader.headers());
  t.is(inside.statusCode, 200);
  for (const member of [people.outsider, people.unlisted]) {
    const outside = await call('GET', '/notes', member.headers());
    t.is(outside.statusCode, 403);
    t.deepEqual(body(outside), DENIED);
  }
});

test('owners and admins pass layers 4 and 5 without any custom role', async (t) => {
  for (const headers of [acme.owner.headers(), people.admin.headers()]) {
    t.is((await call('GET', '/notes/export', headers)).statusCode, 200);
  }
});

test('a missing permission is named in the 403', async (t) => {
  const response = await call('POST', '/notes', people.reader.headers(), { title: 'x' });
  t.is(response.statusCode, 403);
  t.deepEqual(body(response), { error: 'Missing permission: notes.notes.create' });
});

test('every key of a chain is required, and the first one missing is named', async (t) => {
  const response = await call('GET', '/notes/export', people.reader.headers());
  t.is(response.statusCode, 403);
  t.deepEqual(body(response), { error: 'Missing permission: notes.notes.export' });
});

test('the access layers answer before validation and before the handler', async (t) => {
  const response = await call('POST', '/notes', people.reader.headers(), { title: 42 });
  t.is(response.statusCode, 403);
  t.deepEqual(body(response), { error: 'Missing permission: notes.notes.create' });
});

test('{slug}.* grants every key of the app', async (t) => {
  t.is((await call('POST', '/notes', people.wild.headers(), { title: 'wild' })).statusCode, 200);
  t.is((await call('GET', '/notes/export', people.wild.headers())).statusCode, 200);
  const context = body(await call('GET', '/notes/context', people.wild.headers()));
  t.deepEqual(context.permissions, ['notes.notes.read', 'notes.notes.create', 'notes.notes.delete', 'notes.notes.export']);
});

test("keys stored under another app's slice are never loaded for this app", async (t) => {
  const response = await call('GET', '/notes', people.misplaced.headers());
  t.is(response.statusCode, 403);
  t.deepEqual(body(response), { error: 'Missing permission: notes.notes.read' });
});

test("a named check lets a note's author delete it without the delete permission", async (t) => {
  const created = body(await call('POST', '/notes', people.writer.headers(), { title: 'mine' }));
  const other = await call('DELETE', `/notes/${created.data.id}`, people.writer2.headers());
  t.is(other.statusCode, 403);
  t.deepEqual(body(other), { error: 'Cannot delete this note' });
  const own = await call('DELETE', `/notes/${created.data.id}`, people.writer.headers());
  t.is(own.statusCode, 200);
  t.deepEqual(body(own), { deleted: 1 });
});

test('the delete permission lets a member delete notes of others', async (t) => {
  const created = body(await call('POST', '/notes', people.writer.headers(), { title: 'theirs' }));
  const response = await call('DELETE', `/notes/${created.data.id}`, people.deleter.headers());
  t.is(response.statusCode, 200);
  t.deepEqual(body(response), { deleted: 1 });
});

test("a failing check answers with the check's own message", async (t) => {
  const created = body(await call('POST', '/notes', people.writer.headers(), { title: 'keep out' }));
  const response = await call('PUT', `/notes/${created.data.id}`, people.writer2.headers(), { title: 'taken over' });
  t.is(response.statusCode, 403);
  t.deepEqual(body(response), { error: 'Only the author can change this note' });
  const own = await call('PUT', `/notes/${created.data.id}`, people.writer.headers(), { title: 'still mine' });
  t.is(own.statusCode, 200);
  t.is(body(own).data.title, 'still mine');
});

test('a check sees raw parameters and may refuse what validation would reject later', async (t) => {
  const response = await call('DELETE', '/notes/not-a-uuid', people.writer.headers());
  t.is(response.statusCode, 403);
  t.deepEqual(body(response), { error: 'Cannot delete this note' });
});

test('policy everyone lets every member in; approval behaves as roles with an empty list', async (t) => {
  const ws = await freshWorkspace();
  const role = await ws.role('Readers', { notes: ['notes.notes.read'] });
  const member = await ws.member('member', [role]);
  const admin = await ws.member('admin');
  await ws.install('notes', { access_policy: 'everyone' });
  t.is((await call('GET', '/notes', member.headers())).statusCode, 200);

  const put = await call('PUT', '/applications/notes/access', ws.owner.headers(), { access_policy: 'approval', allowed_roles: [role] });
  t.is(put.statusCode, 200);
  const refused = await call('GET', '/notes', member.headers());
  t.is(refused.statusCode, 403);
  t.deepEqual(body(refused), DENIED);
  t.is((await call('GET', '/notes', admin.headers())).statusCode, 200);
  t.is((await call('GET', '/notes', ws.owner.headers())).statusCode, 200);
});

test('the redlist shuts out listed members and roles, never owners and admins', async (t) => {
  const ws = await freshWorkspace();
  const role = await ws.role('Readers', { notes: ['notes.notes.read'] });
  const listedRole = await ws.role('Interns', { notes: ['notes.notes.read'] });
  const kept = await ws.member('member', [role]);
  const listedByMember = await ws.member('member', [role]);
  const listedByRole = await ws.member('member', [role, listedRole]);
  const admin = await ws.member('admin');
  await ws.install('notes', { access_policy: 'everyone' });
  const put = await call('PUT', '/applications/notes/access', ws.owner.headers(), { access_policy: 'everyone', redlist: [listedByMember.memberId, listedRole, admin.memberId, ws.owner.memberId] });
  t.is(put.statusCode, 200);
  t.is((await call('GET', '/notes', kept.headers())).statusCode, 200);
  for (const member of [listedByMember, listedByRole]) {
    const response = await call('GET', '/notes', member.headers());
    t.is(response.statusCode, 403);
    t.deepEqual(body(response), DENIED);
  }
  t.is((await call('GET', '/notes', admin.headers())).statusCode, 200);
  t.is((await call('GET', '/notes', ws.owner.headers())).statusCode, 200);
});

test('nothing is cached: slices, policies and installation are read on every request', async (t) => {
  const ws = await freshWorkspace();
  const role = await ws.role('Readers', { notes: ['notes.notes.read'] });
  const member = await ws.member('member', [role]);
  await ws.install('notes', { access_policy: 'roles', allowed_roles: [role] });
  t.is((await call('GET', '/notes', member.headers())).statusCode, 200);

  t.is((await call('PUT', `/apps/notes/roles/${role}/permissions`, ws.owner.headers(), { permissions: [] })).statusCode, 200);
  t.deepEqual(body(await call('GET', '/notes', member.headers())), { error: 'Missing permission: notes.notes.read' });

  t.is((await call('PUT', `/apps/notes/roles/${role}/permissions`, ws.owner.headers(), { permissions: ['notes.*'] })).statusCode, 200);
  t.is((await call('POST', '/notes', member.headers(), { title: 'now allowed' })).statusCode, 200);

  t.is((await call('PUT', '/applications/notes/access', ws.owner.headers(), { access_policy: 'roles', allowed_roles: [] })).statusCode, 200);
  t.deepEqual(body(await call('GET', '/notes', member.headers())), DENIED);

  t.is((await call('DELETE', '/applications/notes/installations', ws.owner.headers())).statusCode, 200);
  t.deepEqual(body(await call('GET', '/notes', ws.owner.headers())), DENIED);
});

test('every denial is logged with its layer and reason', async (t) => {
  const outsider = await acme.member('member');
  const reader = await acme.member('member', [roles.readers]);
  await call('GET', '/notes', outsider.headers());
  await call('POST', '/notes', reader.headers(), { title: 'x' });
  const denials = env.logs.filter((line) => line.msg === 'access denied' && (line.member_id === outsider.memberId || line.member_id === reader.memberId));
  t.is(denials.length, 2);
  t.like(denials[0], { level: 40, layer: 4, member_id: outsider.memberId, app: 'notes', route: 'GET /notes', permission: null });
  t.regex(String(denials[0].reason), /^policy roles: none of the member's roles \(none\) is allowed/);
  t.regex(String(denials[0].explain), /^layer 4: /);
  t.like(denials[1], { level: 40, layer: 5, member_id: reader.memberId, app: 'notes', route: 'POST /notes', permission: 'notes.notes.create' });
  t.regex(String(denials[1].reason), /^lacks notes\.notes\.create; holds notes\.notes\.read \(member .* \(member, session\); chain of POST \/notes\)$/);
});

test('a scoped key holds exactly its scopes: no roles, no admin bypass', async (t) => {
  const ownerRead = await acme.owner.key({ fullAccess: false, scopes: ['notes.notes.read'] });
  t.is((await call('GET', '/notes', ownerRead)).statusCode, 200);
  t.deepEqual(body(await call('POST', '/notes', ownerRead, { title: 'x' })), { error: 'Missing permission: notes.notes.create' });

  const ws = await freshWorkspace();
  await ws.install('notes');
  await ws.install('ext.acme.vault');
  const ownerElsewhere = await ws.owner.key({ fullAccess: false, scopes: ['ext.acme.vault.secrets.read'] });
  const refused = await call('GET', '/notes', ownerElsewhere);
  t.is(refused.statusCode, 403);
  t.deepEqual(body(refused), DENIED);
  t.is((await call('GET', '/ext/acme/vault/secrets', ownerElsewhere)).statusCode, 200);

  const empty = await acme.owner.key({ fullAccess: false, scopes: [] });
  t.deepEqual(body(await call('GET', '/notes', empty)), DENIED);
});

test("a scoped key passes layer 4 by holding one of the app's keys, whatever the member's roles", async (t) => {
  const outsiderKey = await people.outsider.key({ fullAccess: false, scopes: ['notes.notes.read'] });
  t.is((await call('GET', '/notes', outsiderKey)).statusCode, 200);
  const wildcard = await people.outsider.key({ fullAccess: false, scopes: ['notes.*'] });
  t.is((await call('GET', '/notes/export', wildcard)).statusCode, 200);
});

test("a full-access key has exactly its member's permissions", async (t) => {
  const readerKey = await people.reader.key({ fullAccess: true });
  t.is((await call('GET', '/notes', readerKey)).statusCode, 200);
  t.deepEqual(body(await call('POST', '/notes', readerKey, { title: 'x' })), { error: 'Missing permission: notes.notes.create' });
  t.deepEqual(body(await call('GET', '/notes', await people.outsider.key({ fullAccess: true }))), DENIED);
  const ownerKey = await acme.owner.key({ fullAccess: true });
  t.is((await call('GET', '/notes/export', ownerKey)).statusCode, 200);
  const context = body(await call('GET', '/notes/context', ownerKey));
  t.deepEqual(context.key, { id: context.key.id, full_access: true });
  t.is(context.member.id, acme.owner.memberId);
});

test('a member of another workspace is refused at layer 2', async (t) => {
  const globex = await freshWorkspace();
  const response = await call('GET', '/notes', { ...globex.owner.headers(), host: 'acme.localhost' });
  t.is(response.statusCode, 403);
  t.deepEqual(body(response), { error: 'You are not a member of this workspace' });
});
