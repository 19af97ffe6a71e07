import test from 'ava';
import { QueryTypes } from 'sequelize';
import type { MailMessage } from '../src/mail/index.js';
import { body, startAppsRuntime, TestWorkspace, type AppsTestRuntime } from './helpers/apps.js';

// The platform's app endpoints: status, install requests, installation and uninstallation,
// access requests, access policy, the access overview, settings, role slices, notifications.

let env: AppsTestRuntime;
const mails: MailMessage[] = [];
let counter = 0;

const json = { 'content-type': 'application/json' };
const call = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
  env.runtime.server.inject({ method, url, headers: payload === undefined ? headers : { ...headers, ...json }, payload: payload as object | undefined });

async function workspace(): Promise<TestWorkspace> {
  counter += 1;
  return TestWorkspace.create(env, `inst${counter}`);
}

/** Mail leaves after the commit, without holding the answer back. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

test.before(async () => {
  env = await startAppsRuntime({
    seams: {
      mailer: {
        async send(message) {
          mails.push(message);
          return { messageId: `test-${mails.length}` };
        },
        close() {},
      },
    },
  });
});

test.after.always(async () => {
  await env?.close();
});

test('status tells whether the app is installed and whether the caller can open it', async (t) => {
  const ws = await workspace();
  const member = await ws.member();
  const before = await call('GET', '/applications/notes/status', member.headers());
  t.is(before.statusCode, 200);
  t.deepEqual(body(before), {
    data: { slug: 'notes', name: 'Notes', version: '1.0.0', first_party: true, status: 'not_installed', installed: false, access_policy: null, allowed_roles: [], redlist: [], installed_at: null, installed_by: null, uninstalled_at: null, can_open: false },
    links: { self: '/applications/notes/status' },
  });
  await ws.install('notes');
  const after = body(await call('GET', '/applications/notes/status', member.headers())).data;
  t.like(after, { status: 'installed', installed: true, access_policy: 'roles', allowed_roles: [], can_open: false, installed_by: ws.owner.memberId });
  t.true(body(await call('GET', '/applications/notes/status', ws.owner.headers())).data.can_open);
  const ext = body(await call('GET', '/applications/ext.acme.vault/status', member.headers())).data;
  t.like(ext, { slug: 'ext.acme.vault', first_party: false, status: 'not_installed' });
});

test('an unknown app is a 404', async (t) => {
  const ws = await workspace();
  const response = await call('GET', '/applications/nope/status', ws.owner.headers());
  t.is(response.statusCode, 404);
  t.deepEqual(body(response), { error: 'No app nope on this platform' });
});

test('any member may request an install; every owner and admin is notified in the app and by mail', async (t) => {
  const ws = await workspace();
  const admin = await ws.member('admin');
  const requester = await ws.member('member', [], 'Robin');
  const response = await call('POST', '/applications/notes/requests', requester.headers());
  t.is(response.statusCode, 200);
  t.like(body(response).data, { kind: 'install', app_slug: 'notes', member_id: requester.memberId, notified: 2 });
  for (const recipient of [ws.owner, admin]) {
    const list = body(await call('GET', '/notifications', recipient.headers()));
    t.is(list.pagination.total, 1);
    t.like(list.data[0], { kind: 'app.install_requested', title: 'Robin asks to install Notes', link: '/admin/apps#app-notes', read: false, data: { app_slug: 'notes', member_id: requester.memberId } });
  }
  t.is(body(await call('GET', '/notifications', requester.headers())).pagination.total, 0);
  await settle();
  const sent = mails.filter((mail) => mail.subject === 'Robin asks to install Notes').map((mail) => mail.to).sort();
  t.deepEqual(sent, [admin.email, ws.owner.email].sort());
  t.true(mails.find((mail) => mail.to === admin.email && mail.subject === 'Robin asks to install Notes')!.text.includes(`asks you to install Notes in ${ws.subdomain} inc`));
});

test('an install request for an installed app is a conflict', async (t) => {
  const ws = await workspace();
  await ws.install('notes');
  const member = await ws.member();
  const response = await call('POST', '/applications/notes/requests', member.headers());
  t.is(response.statusCode, 409);
  t.deepEqual(body(response), { error: 'App notes is already installed' });
});

test('only owners and admins install; a scoped key needs account.apps.manage and an owner or admin behind it', async (t) => {
  const ws = await workspace();
  const member = await ws.member();
  const refused = await call('POST', '/applications/notes/installations', member.headers(), {});
  t.is(refused.statusCode, 403);
  t.deepEqual(body(refused), { error: 'Only workspace owners and admins can install apps' });
  const scoped = await call('POST', '/applications/notes/installations', await ws.owner.key({ fullAccess: false, scopes: [] }), {});
  t.is(scoped.statusCode, 403);
  t.deepEqual(body(scoped), { error: 'Missing permission: account.apps.manage' });
  const membersKey = await call('POST', '/applications/notes/installations', await member.key({ fullAccess: false, scopes: ['account.apps.manage'] }), {});
  t.is(membersKey.statusCode, 403);
  t.deepEqual(body(membersKey), { error: 'Only workspace owners and admins can install apps' });
  t.like(env.logs.filter((line) => line.msg === 'access denied' && line.member_id === member.memberId).at(-1), { layer: 3, route: 'POST /applications/{slug}/installations' });
  const admin = await ws.member('admin');
  const installed = await call('POST', '/applications/notes/installations', admin.headers());
  t.is(installed.statusCode, 200);
  t.like(body(installed).data, { status: 'installed', access_policy: 'roles', allowed_roles: [], redlist: [], installed_by: admin.memberId });
});

test('an install stages system.app.installed and core.account.application.installed', async (t) => {
  const ws = await workspace();
  await ws.install('notes');
  const staged = env.events.filter((event) => event.workspaceId === ws.id && event.emitter === 'system').map(({ action, payload }) => ({ action, payload }));
  t.deepEqual(staged.filter((event) => event.action.includes('install')), [
    { action: 'system.app.installed', payload: { app_slug: 'notes', installed_by: ws.owner.memberId } },
    { action: 'core.account.application.installed', payload: { app_slug: 'notes', app_name: 'Notes', installed_by: ws.owner.memberId } },
  ]);
});

test('installation bounds: policy values, role ids of this workspace, no second install', async (t) => {
  const ws = await workspace();
  const other = await workspace();
  const foreignRole = await other.role('Elsewhere');
  const role = await ws.role('Readers', { notes: ['notes.notes.read'] });
  const cases: Array<[unknown, number, string, string?]> = [
    [{ access_policy: 'open' }, 400, 'access_policy must be one of [everyone, roles, approval]', 'access_policy'],
    [{ allowed_roles: ['not-a-uuid'] }, 400, 'allowed_roles[0]: no role not-a-uuid in this workspace'],
    [{ allowed_roles: [role, foreignRole] }, 400, `allowed_roles[1]: no role ${foreignRole} in this workspace`],
  ];
  for (const [payload, status, error, field] of cases) {
    const response = await call('POST', '/applications/notes/installations', ws.owner.headers(), payload);
    t.is(response.statusCode, status, JSON.stringify(payload));
    t.deepEqual(body(response), field === undefined ? { error } : { error, field });
  }
  t.is(body(await call('GET', '/applications/notes/status', ws.owner.headers())).data.status, 'not_installed');
  const installed = await call('POST', '/applications/notes/installations', ws.owner.headers(), { access_policy: 'everyone', allowed_roles: [role] });
  t.like(body(installed).data, { access_policy: 'everyone', allowed_roles: [] });
  const again = await call('POST', '/applications/notes/installations', ws.owner.headers(), {});
  t.is(again.statusCode, 409);
  t.deepEqual(body(again), { error: 'App notes is already installed' });
});

test('uninstall closes the app and keeps its data and settings for a reinstall', async (t) => {
  const ws = await workspace();
  await ws.install('notes', { access_policy: 'everyone' });
  t.is((await call('POST', '/notes', ws.owner.headers(), { title: 'survivor' })).statusCode, 200);
  t.is((await call('PUT', '/apps/notes/settings', ws.owner.headers(), { default_title: 'Kept' })).statusCode, 200);
  const member = await ws.member();
  t.is((await call('DELETE', '/applications/notes/installations', member.headers())).statusCode, 403);
  const removed = await call('DELETE', '/applications/notes/installations', ws.owner.headers());
  t.is(removed.statusCode, 200);
  t.like(body(removed).data, { status: 'uninstalled', installed: false, access_policy: null });
  t.like(env.events.filter((event) => event.workspaceId === ws.id).at(-1), { action: 'core.account.application.uninstalled', payload: { app_slug: 'notes', app_name: 'Notes', uninstalled_by: ws.owner.memberId } });
  t.deepEqual(body(await call('GET', '/notes', ws.owner.headers())), { error: "You don't have access to this app" });
  t.deepEqual(body(await call('DELETE', '/applications/notes/installations', ws.owner.headers())), { error: 'App notes is not installed' });

  await ws.install('notes');
  const notes = body(await call('GET', '/notes', ws.owner.headers()));
  t.deepEqual(notes.data.map((note: { title: string }) => note.title), ['survivor']);
  t.deepEqual(body(await call('GET', '/apps/notes/settings', ws.owner.headers())).data, { default_title: 'Kept' });
  t.like(body(await call('GET', '/applications/notes/status', ws.owner.headers())).data, { access_policy: 'roles', allowed_roles: [] });
});

test('access requests: bounds and states', async (t) => {
  const ws = await workspace();
  const member = await ws.member();
  const notInstalled = await call('POST', '/applications/notes/access-requests', member.headers(), { message: 'please' });
  t.is(notInstalled.statusCode, 409);
  t.deepEqual(body(notInstalled), { error: 'App notes is not installed' });
  await ws.install('notes');
  const tooLong = await call('POST', '/applications/notes/access-requests', member.headers(), { message: 'x'.repeat(281) });
  t.is(tooLong.statusCode, 400);
  t.deepEqual(body(tooLong), { error: 'message length must be less than or equal to 280 characters long', field: 'message' });
  const owner = await call('POST', '/applications/notes/access-requests', ws.owner.headers(), {});
  t.is(owner.statusCode, 409);
  t.deepEqual(body(owner), { error: 'You already have access to this app' });
  await call('PUT', '/applications/notes/access', ws.owner.headers(), { access_policy: 'everyone' });
  const open = await call('POST', '/applications/notes/access-requests', member.headers(), {});
  t.is(open.statusCode, 409);
  t.deepEqual(body(open), { error: 'App notes is open to everyone: there is no access to request' });
});

test('an access request notifies every owner and admin with the message', async (t) => {
  const ws = await workspace();
  const admins = [await ws.member('admin'), await ws.member('admin')];
  const member = await ws.member('member', [], 'Sam');
  await ws.install('notes', { access_policy: 'approval' });
  const message = 'x'.repeat(270) + ' I need it';
  const response = await call('POST', '/applications/notes/access-requests', member.headers(), { message });
  t.is(response.statusCode, 200);
  t.like(body(response).data, { kind: 'access', app_slug: 'notes', member_id: member.memberId, message, notified: 3 });
  for (const recipient of [ws.owner, ...admins]) {
    const [notification] = body(await call('GET', '/notifications', recipient.headers())).data;
    t.like(notification, { kind: 'app.access_requested', title: 'Sam asks for access to Notes', link: '/admin/apps#app-notes', data: { message } });
    t.true(notification.body.endsWith(`"${message}"`));
  }
  await settle();
  t.is(mails.filter((mail) => mail.subject === 'Sam asks for access to Notes').length, 3);
});

test('PUT access: admin only; everyone clears allowed_roles; the redlist is stored', async (t) => {
  const ws = await workspace();
  const role = await ws.role('Readers');
  const member = await ws.member();
  const notInstalled = await call('PUT', '/applications/notes/access', ws.owner.headers(), { access_policy: 'everyone' });
  t.is(notInstalled.statusCode, 409);
  await ws.install('notes');
  const refused = await call('PUT', '/applications/notes/access', member.headers(), { access_policy: 'everyone' });
  t.is(refused.statusCode, 403);
  t.deepEqual(body(refused), { error: 'Only workspace owners and admins can change app access' });
  t.deepEqual(body(await call('PUT', '/applications/notes/access', ws.owner.headers(), { allowed_roles: [] })), { error: 'access_policy is required', field: 'access_policy' });
  const roles = body(await call('PUT', '/applications/notes/access', ws.owner.headers(), { access_policy: 'roles', allowed_roles: [role.toUpperCase(), role], redlist: ['someone'] })).data;
  t.like(roles, { access_policy: 'roles', allowed_roles: [role], redlist: ['someone'] });
  const everyone = body(await call('PUT', '/applications/notes/access', ws.owner.headers(), { access_policy: 'everyone', allowed_roles: [role] })).data;
  t.like(everyone, { access_policy: 'everyone', allowed_roles: [], redlist: [] });
});

test('GET /apps/{slug}/access: tile access, permission matrix, config and exception grants', async (t) => {
  const ws = await workspace();
  const readers = await ws.role('Readers', { notes: ['notes.notes.read'], tasks: ['tasks.tasks.read'] });
  const all = await ws.role('All', { notes: ['notes.*'] });
  const admin = await ws.member('admin', [], 'Ada');
  const member = await ws.member();
  await ws.install('notes', { access_policy: 'roles', allowed_roles: [readers] });
  t.is((await call('GET', '/apps/notes/access', member.headers())).statusCode, 403);
  const response = await call('GET', '/apps/notes/access', admin.headers());
  t.is(response.statusCode, 200);
  const data = body(response).data;
  t.deepEqual(data.app, { slug: 'notes', name: 'Notes', version: '1.0.0', tile: { name: 'Notes', icon: 'note' }, meters: [{ name: 'words', description: 'One word of a note kept' }, { name: 'exports', description: 'One note exported' }], platform_requests: false });
  // An app that calls the workspace's API as a member says so before it is installed (its manifest's platform_requests).
  const vault = await call('GET', '/apps/ext.acme.vault/access', admin.headers());
  t.is(vault.statusCode, 200);
  t.like(body(vault).data, { app: { slug: 'ext.acme.vault', platform_requests: true }, tile_access: { installed: false, status: 'not_installed' } });
  t.deepEqual(data.tile_access, { installed: true, status: 'installed', access_policy: 'roles', allowed_roles: [{ id: readers, name: 'Readers' }], redlist: [] });
  t.deepEqual(
    data.permission_matrix.permissions.map((permission: { key: string }) => permission.key),
    ['notes.notes.read', 'notes.notes.create', 'notes.notes.delete', 'notes.notes.export'],
  );
  t.deepEqual(data.permission_matrix.roles, [
    { id: all, name: 'All', can_open: false, wildcard: true, granted: ['notes.*'], permissions: ['notes.notes.read', 'notes.notes.create', 'notes.notes.delete', 'notes.notes.export'] },
    { id: readers, name: 'Readers', can_open: true, wildcard: false, granted: ['notes.notes.read'], permissions: ['notes.notes.read'] },
  ]);
  t.deepEqual(data.config.document, { default_title: 'Untitled', max_notes: 100 });
  t.is(data.config.schema.required[0], 'default_title');
  t.deepEqual(
    data.exception_grants.map((grant: { member_id: string; platform_role: string }) => [grant.member_id, grant.platform_role]),
    [[ws.owner.memberId, 'owner'], [admin.memberId, 'admin']],
  );
});

test('settings: effective document, read by those who can open the app, saved whole by admins, validated with every failing path named', async (t) => {
  const ws = await workspace();
  const role = await ws.role('Writers', { notes: ['notes.notes.read', 'notes.notes.create'] });
  const writer = await ws.member('member', [role]);
  const outsider = await ws.member();
  await ws.install('notes', { access_policy: 'roles', allowed_roles: [role] });
  t.deepEqual(body(await call('GET', '/apps/notes/settings', writer.headers())), { data: { default_title: 'Untitled', max_notes: 100 }, links: { self: '/apps/notes/settings' } });
  const hidden = await call('GET', '/apps/notes/settings', outsider.headers());
  t.is(hidden.statusCode, 403);
  t.deepEqual(body(hidden), { error: "You don't have access to this app" });
  t.deepEqual(body(await call('PUT', '/apps/notes/settings', writer.headers(), { default_title: 'Mine' })), { error: 'Only workspace owners and admins can change app settings' });

  const invalid = await call('PUT', '/apps/notes/settings', ws.owner.headers(), { default_title: 'x'.repeat(51), max_notes: 1.5, color: 'red' });
  t.is(invalid.statusCode, 400);
  t.deepEqual(body(invalid), { error: 'color: is not allowed here; default_title: must NOT have more than 50 characters; max_notes: must be integer' });
  t.deepEqual(body(await call('PUT', '/apps/notes/settings', ws.owner.headers(), {})), { error: 'default_title: is required' });
  t.deepEqual(body(await call('PUT', '/apps/notes/settings', ws.owner.headers(), [1])), { error: 'body must be of type object' });

  const saved = await call('PUT', '/apps/notes/settings', ws.owner.headers(), { default_title: 'Memo' });
  t.is(saved.statusCode, 200);
  t.deepEqual(body(saved).data, { default_title: 'Memo' });
  t.deepEqual(body(await call('GET', '/apps/notes/settings', writer.headers())).data, { default_title: 'Memo' });
  const created = body(await call('POST', '/notes', writer.headers(), {}));
  t.is(created.data.title, 'Memo');
  t.deepEqual(body(await call('PUT', '/apps/ext.acme.vault/settings', ws.owner.headers(), { a: 1 })), { error: 'App ext.acme.vault declares no settings' });
});

test("PUT role permissions replaces only that app's slice", async (t) => {
  const ws = await workspace();
  const role = await ws.role('Mixed', { notes: ['notes.notes.read'], tasks: ['tasks.tasks.read'], 'ext.acme.vault': ['ext.acme.vault.secrets.read'] });
  const slices = async () => {
    const [row] = await env.runtime.db.sequelize.query<{ permissions: Record<string, string[]> }>('SELECT permissions FROM platform.roles WHERE id = :role', { type: QueryTypes.SELECT, replacements: { role } });
    return row.permissions;
  };
  const response = await call('PUT', `/apps/notes/roles/${role}/permissions`, ws.owner.headers(), { permissions: ['notes.notes.create', 'notes.notes.create', 'notes.notes.export'] });
  t.is(response.statusCode, 200);
  t.deepEqual(body(response).data, { role_id: role, role_name: 'Mixed', app_slug: 'notes', permissions: ['notes.notes.create', 'notes.notes.export'] });
  t.deepEqual(await slices(), { notes: ['notes.notes.create', 'notes.notes.export'], tasks: ['tasks.tasks.read'], 'ext.acme.vault': ['ext.acme.vault.secrets.read'] });
  t.like(env.events.filter((event) => event.workspaceId === ws.id).at(-1), { action: 'core.account.role.updated', payload: { role_id: role, role_name: 'Mixed', changed_fields: ['permissions.notes'], updated_by: ws.owner.memberId } });

  t.is((await call('PUT', `/apps/ext.acme.vault/roles/${role}/permissions`, ws.owner.headers(), { permissions: ['ext.acme.vault.*'] })).statusCode, 200);
  t.is((await call('PUT', `/apps/notes/roles/${role}/permissions`, ws.owner.headers(), { permissions: [] })).statusCode, 200);
  t.deepEqual(await slices(), { tasks: ['tasks.tasks.read'], 'ext.acme.vault': ['ext.acme.vault.*'] });
});

test('role permission bounds: declared keys or the wildcard only, roles of this workspace, admins only', async (t) => {
  const ws = await workspace();
  const other = await workspace();
  const role = await ws.role('Readers');
  const foreign = await other.role('Theirs');
  const member = await ws.member();
  const put = (roleId: string, permissions: unknown, headers = ws.owner.headers()) => call('PUT', `/apps/notes/roles/${roleId}/permissions`, headers, { permissions });
  t.deepEqual(body(await put(role, ['notes.notes.read', 'notes.notes.fly'])), { error: 'permissions[1]: "notes.notes.fly" is not a permission of app notes (declared keys or notes.*)' });
  t.deepEqual(body(await put(role, ['ext.acme.vault.secrets.read'])), { error: 'permissions[0]: "ext.acme.vault.secrets.read" is not a permission of app notes (declared keys or notes.*)' });
  t.deepEqual(body(await put(role, ['*'])), { error: 'permissions[0]: "*" is not a permission of app notes (declared keys or notes.*)' });
  t.deepEqual(body(await call('PUT', `/apps/notes/roles/${role}/permissions`, ws.owner.headers(), {})), { error: 'permissions is required', field: 'permissions' });
  const unknown = await put(foreign, ['notes.notes.read']);
  t.is(unknown.statusCode, 404);
  t.deepEqual(body(unknown), { error: `No role ${foreign} in this workspace` });
  // Ids are strings: a role id of any shape that names no role is the same 404.
  const shapeless = await put('nope', ['notes.notes.read']);
  t.deepEqual([shapeless.statusCode, body(shapeless)], [404, { error: 'No role nope in this workspace' }]);
  t.deepEqual(body(await put(role, ['notes.*'], member.headers())), { error: 'Only workspace owners and admins can change role permissions' });
  t.is((await put(role, ['notes.*'])).statusCode, 200);
});

test('notifications are listed by their recipient only, newest first, and can be marked read', async (t) => {
  const ws = await workspace();
  const first = await ws.member('member', [], 'First');
  const second = await ws.member('member', [], 'Second');
  await call('POST', '/applications/notes/requests', first.headers());
  await call('POST', '/applications/notes/requests', second.headers());
  const list = body(await call('GET', '/notifications?per_page=1', ws.owner.headers()));
  t.deepEqual(list.pagination, { page: 1, per_page: 1, total: 2, pages: 2 });
  t.is(list.data[0].title, 'Second asks to install Notes');
  const id = list.data[0].id;
  const stranger = await call('PATCH', `/notifications/${id}`, first.headers(), { read: true });
  t.is(stranger.statusCode, 404);
  t.deepEqual(body(stranger), { error: `No notification ${id}` });
  const read = body(await call('PATCH', `/notifications/${id}`, ws.owner.headers(), { read: true })).data;
  t.like(read, { id, read: true });
  const unread = body(await call('GET', '/notifications?unread=true', ws.owner.headers()));
  t.deepEqual(unread.data.map((notification: { title: string }) => notification.title), ['First asks to install Notes']);
});
