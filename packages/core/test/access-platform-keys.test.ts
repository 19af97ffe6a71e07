import test from 'ava';
import { randomUUID } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { PLATFORM_PERMISSIONS, isPlatformPermissionKey } from '../src/access/index.js';
import { body, startAppsRuntime, TestWorkspace, type AppsTestRuntime, type TestCaller } from './helpers/apps.js';

// The platform's own operations under the reserved `account` slug: a scoped key's scope list is
// its entire permission set on platform routes too (spec, Authentication › API keys rule 5).

let env: AppsTestRuntime;
let acme: TestWorkspace;
let plain: TestCaller;
let roleId: string;
let keyId: string;

const call = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
  env.runtime.server.inject({ method, url, headers: payload === undefined ? headers : { 'content-type': 'application/json', ...headers }, payload: payload as object | undefined });

const missing = (key: string) => ({ error: `Missing permission: ${key}` });

/** The reads of the member directory and its neighbours, with the key each needs. */
const READS: Array<[string, string]> = [
  ['/members', 'account.members.read'],
  ['/roles', 'account.roles.read'],
  ['/activity', 'account.activities.read'],
  ['/admin-audit', 'account.audit_entries.read'],
  ['/admin/activity-exports', 'account.activities.export'],
  ['/notifications', 'account.notifications.read'],
  ['/applications/notes/status', 'account.apps.read'],
  ['/apps/notes/settings', 'account.apps.read'],
];

test.before(async () => {
  env = await startAppsRuntime();
  acme = await TestWorkspace.create(env, 'acme');
  await acme.install('notes', { access_policy: 'everyone' });
  plain = await acme.member('member');
  roleId = await acme.role('Readers', { notes: ['notes.notes.read'] });
  const created = await call('POST', '/api-keys', await acme.owner.key({ fullAccess: true }), { name: 'target' });
  if (created.statusCode !== 200) throw new Error(`POST /api-keys answered ${created.statusCode} ${created.payload}`);
  keyId = body(created).data.id;
});

test.after.always(async () => {
  await env?.close();
});

/** Every credentialed route that is not an app's, as `METHOD /path` with its declaration. */
function platformRoutes() {
  return env.runtime.server
    .table()
    // hapi keeps `auth: false` as given, though its types do not say so.
    .filter((route) => (route.settings.auth as unknown) !== false && !route.settings.app?.wpkApp)
    .map((route) => ({ method: route.method.toUpperCase(), path: route.path, access: route.settings.app?.platformAccess }));
}

test('every credentialed platform route declares its platform key, or why it needs none', (t) => {
  const routes = platformRoutes();
  t.deepEqual(routes.filter((route) => route.access === undefined).map((route) => `${route.method} ${route.path}`), []);
  const exempt = routes
    .filter((route) => !isPlatformPermissionKey(route.access))
    .map((route) => `${route.access} ${route.method} ${route.path}`)
    .sort();
  t.deepEqual(exempt, [
    'app GET /search',
    'app POST /ai/commands',
    'app POST /search',
    'caller GET /live',
    'caller GET /me',
    'caller GET /signaling',
    'full-access DELETE /api-keys/{key_id}',
    'full-access GET /api-keys',
    'full-access GET /api-keys/{key_id}',
    'full-access POST /api-keys',
    'full-access PUT /api-keys/{key_id}',
    'full-access PUT /api-keys/{key_id}/secret',
    'session DELETE /sessions',
    'session DELETE /totps',
    'session DELETE /workspaces/{id}',
    'session GET /me/workspaces',
    'session POST /app-tokens',
    'session POST /elevations',
    'session POST /totps',
    'session POST /workspaces/{id}/ownership',
    'session PUT /totps',
  ]);
  // No key is declared that no route needs.
  const used = new Set(routes.map((route) => route.access));
  t.deepEqual(PLATFORM_PERMISSIONS.filter((permission) => !used.has(permission.key)).map((permission) => permission.key), []);
});

test('a scoped key with no scopes is refused on every platform route but GET /me, GET /live and GET /signaling, naming the missing key', async (t) => {
  const empty = await acme.owner.key({ fullAccess: false, scopes: [] });
  const params: Record<string, string> = { id: acme.id, member_id: plain.memberId, role_id: roleId, key_id: keyId, slug: 'notes', notification_id: randomUUID(), invoice_id: randomUUID(), thread_id: 'release-1.0.0', payment_method_id: randomUUID() };
  const others: Record<string, string> = {
    'DELETE /sessions': 'An API key cannot sign out: use a browser session',
    'POST /totps': 'An API key cannot change two-factor settings: use a browser session',
    'PUT /totps': 'An API key cannot change two-factor settings: use a browser session',
    'DELETE /totps': 'An API key cannot change two-factor settings: use a browser session',
    'POST /elevations': 'An API key cannot enter admin mode: use a browser session',
    'POST /app-tokens': 'App tokens are handed out to a browser session only',
    'GET /me/workspaces': "An API key cannot list the account's other workspaces (they belong to other tenants): use a browser session",
    'DELETE /workspaces/{id}': 'A scoped API key cannot delete the workspace: it holds only its scopes',
    'POST /workspaces/{id}/ownership': 'A scoped API key cannot transfer ownership: it holds only its scopes',
    'GET /search': "You don't have access to this app",
    'POST /search': "You don't have access to this app",
    'POST /ai/commands': "You don't have access to this app",
  };
  // Routes that judge API keys in their handler get a valid body, so that validation passes first.
  const bodies: Record<string, unknown> = {
    'POST /api-keys': { name: 'escalate', full_access: true },
    'POST /elevations': { reason: 'just looking' },
    'POST /app-tokens': { app: 'notes' },
    'PUT /totps': { code: '123456' },
    'DELETE /totps': { password: 'owner-password-1' },
    'POST /workspaces/{id}/ownership': { member_id: plain.memberId },
    'POST /search': { app: 'notes', q: 'x' },
    'POST /ai/commands': { app: 'notes', q: 'x' },
  };
  const events = env.events.length;
  const [{ count: membersBefore }] = await env.runtime.db.sequelize.query<{ count: number }>('SELECT count(*)::int AS count FROM platform.members', { type: QueryTypes.SELECT });
  const routes = platformRoutes();
  let judged = 0;
  for (const route of routes) {
    const name = `${route.method} ${route.path}`;
    const url = route.path.replace(/\{(\w+)\}/g, (_match, param: string) => params[param]) + (route.path === '/search' ? '?app=notes&q=x' : '');
    const payload = name in bodies ? bodies[name] : route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
    const headers = route.path.startsWith('/avatars/') && route.method === 'POST' ? { ...empty, 'content-type': 'image/png' } : empty;
    const response = await call(route.method, url, headers, route.path.startsWith('/avatars/') && route.method === 'POST' ? Buffer.from('png') : payload);
    // Any credential may ask who it is, and open a live or signaling socket (each channel or session is judged when joined).
    if (name === 'GET /me' || name === 'GET /live' || name === 'GET /signaling') {
      t.is(response.statusCode, 200, name);
      continue;
    }
    judged += 1;
    t.is(response.statusCode, 403, `${name}: ${response.payload}`);
    if (isPlatformPermissionKey(route.access)) t.deepEqual(body(response), missing(route.access), name);
    else if (route.access === 'full-access') t.deepEqual(body(response), { error: 'A scoped API key cannot manage API keys: it holds only its scopes' }, name);
    else t.deepEqual(body(response), { error: others[name] }, name);
  }
  t.is(judged, routes.length - 3);
  t.is(env.events.length, events);
  const [{ count: membersAfter }] = await env.runtime.db.sequelize.query<{ count: number }>('SELECT count(*)::int AS count FROM platform.members', { type: QueryTypes.SELECT });
  t.is(membersAfter, membersBefore);
});

test('a key scoped to exactly account.members.read reads the member directory and nothing else', async (t) => {
  const reader = await acme.owner.key({ fullAccess: false, scopes: ['account.members.read'] });
  const list = await call('GET', '/members', reader);
  t.is(list.statusCode, 200);
  t.deepEqual(body(list).data.map((member: { id: string }) => member.id).sort(), [acme.owner.memberId, plain.memberId].sort());
  const one = await call('GET', `/members/${plain.memberId}`, reader);
  t.is(one.statusCode, 200);
  t.is(body(one).data.id, plain.memberId);
  for (const [url, key] of [...READS.slice(1), [`/workspaces/${acme.id}`, 'account.workspaces.read'], [`/roles/${roleId}`, 'account.roles.read']] as Array<[string, string]>) {
    const response = await call('GET', url, reader);
    t.is(response.statusCode, 403, url);
    t.deepEqual(body(response), missing(key), url);
  }
  t.deepEqual(body(await call('POST', '/invitations', reader, { email: 'new@acme.test' })), missing('account.members.invite'));
});

test('sessions and full-access keys read exactly as before; layer 3 still refuses members the admin reads', async (t) => {
  const workspaceRead = `/workspaces/${acme.id}`;
  for (const headers of [acme.owner.headers(), await acme.owner.key({ fullAccess: true })]) {
    for (const url of [...READS.map(([path]) => path), workspaceRead]) t.is((await call('GET', url, headers)).statusCode, 200, url);
  }
  for (const headers of [plain.headers(), await plain.key({ fullAccess: true })]) {
    for (const url of ['/members', '/roles', '/activity', '/notifications', '/applications/notes/status', '/apps/notes/settings', workspaceRead]) t.is((await call('GET', url, headers)).statusCode, 200, url);
    t.deepEqual(body(await call('GET', '/admin-audit', headers)), { error: 'Only workspace owners and admins can read the admin audit' });
    t.deepEqual(body(await call('GET', '/admin/activity-exports', headers)), { error: 'Only workspace owners and admins can export the audit trail' });
  }
});

test('account.* holds every platform key, and a scoped key never outranks its member at layer 3', async (t) => {
  const ownerAll = await acme.owner.key({ fullAccess: false, scopes: ['account.*'] });
  for (const url of [...READS.map(([path]) => path).filter((path) => path !== '/apps/notes/settings'), `/workspaces/${acme.id}`, '/apps/account/access']) t.is((await call('GET', url, ownerAll)).statusCode, 200, url);
  // An app's settings also need the app open to the caller (layer 4): this key holds no notes key.
  t.deepEqual(body(await call('GET', '/apps/notes/settings', ownerAll)), { error: "You don't have access to this app" });
  // Key management stays out of reach of every scoped key.
  t.deepEqual(body(await call('GET', '/api-keys', ownerAll)), { error: 'A scoped API key cannot manage API keys: it holds only its scopes' });

  const memberAll = await plain.key({ fullAccess: false, scopes: ['account.*'] });
  t.is((await call('GET', '/members', memberAll)).statusCode, 200);
  t.deepEqual(body(await call('GET', '/admin-audit', memberAll)), { error: 'Only workspace owners and admins can read the admin audit' });
  t.deepEqual(body(await call('POST', '/invitations', memberAll, { email: 'sneaky@acme.test' })), { error: 'Only workspace owners and admins can invite members' });

  const auditor = await acme.owner.key({ fullAccess: false, scopes: ['account.audit_entries.read'] });
  t.is((await call('GET', '/admin-audit', auditor)).statusCode, 200);
  t.deepEqual(body(await call('GET', '/admin/activity-exports', auditor)), missing('account.activities.export'));
});

test('platform keys are accepted as scopes; an unknown account key is a 400 naming it and creates nothing', async (t) => {
  const owner = await acme.owner.key({ fullAccess: true });
  const created = await call('POST', '/api-keys', owner, { name: 'directory sync', scopes: ['account.members.read', 'account.*', 'notes.notes.read'] });
  t.is(created.statusCode, 200);
  t.deepEqual(body(created).data.scopes, ['account.members.read', 'account.*', 'notes.notes.read']);

  const count = async () => (await env.runtime.db.sequelize.query<{ count: number }>('SELECT count(*)::int AS count FROM platform.api_keys', { type: QueryTypes.SELECT }))[0].count;
  const before = await count();
  const unknown = await call('POST', '/api-keys', owner, { name: 'typo', scopes: ['account.members.fly'] });
  t.is(unknown.statusCode, 400);
  t.deepEqual(body(unknown), { error: 'scopes: "account.members.fly" is not a platform permission key (GET /apps/account/access lists them)', field: 'scopes' });
  t.is(await count(), before);

  const rescoped = await call('PUT', `/api-keys/${body(created).data.id}`, owner, { scopes: ['account.x.y'] });
  t.is(rescoped.statusCode, 400);
  t.deepEqual(body(rescoped), { error: 'scopes: "account.x.y" is not a platform permission key (GET /apps/account/access lists them)', field: 'scopes' });
  t.deepEqual(body(await call('GET', `/api-keys/${body(created).data.id}`, owner)).data.scopes, ['account.members.read', 'account.*', 'notes.notes.read']);
});

test('GET /apps/account/access lists the platform keys like an app lists its permissions', async (t) => {
  const response = await call('GET', '/apps/account/access', acme.owner.headers());
  t.is(response.statusCode, 200);
  const data = body(response).data;
  t.deepEqual(data.app, { slug: 'account', name: 'Account', version: null, tile: null, meters: [], platform_requests: false });
  t.deepEqual(data.permission_matrix, { permissions: PLATFORM_PERMISSIONS.map(({ key, label, category }) => ({ key, label, category })), roles: [] });
  t.deepEqual(body(await call('GET', '/apps/account/access', plain.headers())), { error: 'Only workspace owners and admins can view app access' });
});

test('custom roles carry no platform keys: the platform role decides', async (t) => {
  const owner = await acme.owner.key({ fullAccess: true });
  const refusal = { error: 'permissions.account: account permissions are not granted through custom roles: every member holds them and the platform role decides (a scoped API key can be given them)', field: 'permissions.account' };
  const created = await call('POST', '/roles', owner, { name: 'Auditors', permissions: { account: ['account.audit_entries.read'] } });
  t.is(created.statusCode, 400);
  t.deepEqual(body(created), refusal);
  const slice = await call('PUT', `/apps/account/roles/${roleId}/permissions`, owner, { permissions: ['account.audit_entries.read'] });
  t.is(slice.statusCode, 400);
  t.deepEqual(body(slice), { error: 'account permissions are not granted through custom roles: every member holds them and the platform role decides (a scoped API key can be given them)' });
});
