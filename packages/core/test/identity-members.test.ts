import test from 'ava';
import { QueryTypes } from 'sequelize';
import type { Browser } from './helpers/identity-http.js';
import { linkIn } from './helpers/identity-mail.js';
import { startIdentityRuntime, signIn, type IdentityTestRuntime } from './helpers/identity-runtime.js';

// Invitations, members, custom roles, avatars, and the events they stage.
let env: IdentityTestRuntime;
let workspaceId: string;
let ownerId: string;
let owner: Browser;

const OWNER = { email: 'olive@acme.test', password: 'olive-owner-password' };

test.before(async () => {
  env = await startIdentityRuntime({ scryptLogN: 10 });
  const created = await env.runtime.identity.createWorkspaceWithOwner({ subdomain: 'acme', name: 'Acme', ownerEmail: OWNER.email, ownerPassword: OWNER.password, ownerName: 'Olive Owner' });
  workspaceId = created.workspaceId;
  ownerId = created.memberId;
  owner = env.browser();
  await signIn(owner, 'acme', OWNER.email, OWNER.password);
});

test.after.always(async () => {
  await env?.close();
});

const eventsSince = (start: number) => env.events.slice(start).map((event) => [event.emitter, event.action, event.payload]);

async function invite(email: string, body: Record<string, unknown> = {}, by: Browser = owner) {
  const answer = await by.post('acme', '/invitations', { email, ...body });
  if (answer.status !== 200) throw new Error(`invite ${email}: ${answer.status} ${answer.text}`);
  const mail = await env.smtp.waitFor(email, (candidate) => candidate.text.includes('/invitations/') && !usedLinks.has(linkIn(candidate)));
  usedLinks.add(linkIn(mail));
  return { answer, link: linkIn(mail) };
}
const usedLinks = new Set<string>();

test.serial('an admin invites by email; the mailed link joins with a password (invited → joined) and signs in', async (t) => {
  const start = env.events.length;
  const { answer, link } = await invite('Ivy@Example.test', { platform_role: 'member' });
  t.like(answer.body.data, { email: 'ivy@example.test', state: 'invited', platform_role: 'member', role_ids: [], joined_at: null });
  const memberId = answer.body.data.id;
  t.deepEqual(eventsSince(start), [['account', 'core.account.member.invited', { email: 'ivy@example.test', invited_by: ownerId, platform_role: 'member' }]]);
  t.regex(link, /^http:\/\/acme\.localhost(:\d+)?\/invitations\/[A-Za-z0-9_-]{43}$/);

  const listed = await owner.get('acme', '/members?state=invited');
  t.deepEqual(listed.body.data.map((member: { id: string }) => member.id), [memberId]);

  const path = new URL(link).pathname;
  const ivy = env.browser();
  const short = await ivy.put('acme', path, { password: 'short' });
  t.deepEqual([short.status, short.body], [400, { error: 'password length must be at least 8 characters long', field: 'password' }]);
  const badTotp = await ivy.put('acme', path, { password: 'ivy-password', totp: '12345' });
  t.deepEqual([badTotp.status, badTotp.body], [400, { error: 'totp length must be at least 6 characters long', field: 'totp' }]);
  const longTotp = await ivy.put('acme', path, { password: 'ivy-password', totp: '123456789' });
  t.deepEqual([longTotp.status, longTotp.body], [400, { error: 'totp length must be less than or equal to 8 characters long', field: 'totp' }]);

  const joinStart = env.events.length;
  const joined = await ivy.put('acme', path, { password: 'ivy-password', name: 'Ivy Ingram' });
  t.is(joined.status, 200, joined.text);
  t.like(joined.body.data.member, { id: memberId, state: 'joined', name: 'Ivy Ingram', initials: 'II' });
  t.truthy(ivy.session);
  t.is((await ivy.get('acme', '/me')).body.data.member.id, memberId);
  t.deepEqual(eventsSince(joinStart), [['system', 'system.workspace.member.added', { member_id: memberId, role: 'member' }]]);

  // The link works once; the password is now the sign-in credential.
  const again = await env.browser().put('acme', path, { password: 'another-password' });
  t.deepEqual([again.status, again.body], [404, { error: 'This invitation link is invalid, expired or already used' }]);
  await signIn(env.browser(), 'acme', 'ivy@example.test', 'ivy-password');
  // A link is bound to its workspace.
  await env.runtime.identity.createWorkspaceWithOwner({ subdomain: 'globex', name: 'Globex', ownerEmail: 'gus@globex.test', ownerPassword: 'gus-password' });
  const second = await invite('walt@example.test');
  const elsewhere = await env.browser().put('globex', new URL(second.link).pathname, { password: 'walt-password' });
  t.is(elsewhere.status, 404);
});

test.serial('inviting someone who already has an account asks for their current password (and TOTP when on)', async (t) => {
  const { link } = await invite('gus@globex.test');
  const gus = env.browser();
  const wrong = await gus.put('acme', new URL(link).pathname, { password: 'not-gus-password' });
  t.deepEqual([wrong.status, wrong.body], [401, { error: 'This email already has an account: send its current password' }]);
  const right = await gus.put('acme', new URL(link).pathname, { password: 'gus-password' });
  t.is(right.status, 200);
  // The same account is now a member of both workspaces, with one password.
  await signIn(env.browser(), 'globex', 'gus@globex.test', 'gus-password');
  await signIn(env.browser(), 'acme', 'gus@globex.test', 'gus-password');
});

test.serial('invitation rules: admins only; only the owner invites admins; members already joined are a 409; bounds are 400', async (t) => {
  await env.runtime.identity.addMember({ workspaceId, email: 'adam@acme.test', password: 'adam-password', platformRole: 'admin', name: 'Adam Admin' });
  await env.runtime.identity.addMember({ workspaceId, email: 'mia@acme.test', password: 'mia-password', platformRole: 'member', name: 'Mia Member' });
  const admin = env.browser();
  await signIn(admin, 'acme', 'adam@acme.test', 'adam-password');
  const member = env.browser();
  await signIn(member, 'acme', 'mia@acme.test', 'mia-password');

  const byMember = await member.post('acme', '/invitations', { email: 'x@example.test' });
  t.deepEqual([byMember.status, byMember.body], [403, { error: 'Only workspace owners and admins can invite members' }]);
  const adminInvitesAdmin = await admin.post('acme', '/invitations', { email: 'x@example.test', platform_role: 'admin' });
  t.deepEqual([adminInvitesAdmin.status, adminInvitesAdmin.body], [403, { error: 'Only the workspace owner can invite admins' }]);
  const adminInvitesMember = await admin.post('acme', '/invitations', { email: 'x@example.test' });
  t.is(adminInvitesMember.status, 200);
  const already = await owner.post('acme', '/invitations', { email: 'MIA@acme.test' });
  t.deepEqual([already.status, already.body], [409, { error: 'mia@acme.test is already a member of this workspace', field: 'email' }]);

  const cases: Array<[unknown, string, string]> = [
    [{}, 'email is required', 'email'],
    [{ email: 'nope' }, 'email must be a valid email', 'email'],
    [{ email: 'a@b.test', platform_role: 'owner' }, 'platform_role must be one of [admin, member]', 'platform_role'],
    [{ email: 'a@b.test', role_ids: 'x' }, 'role_ids must be an array', 'role_ids'],
    [{ email: 'a@b.test', role_ids: ['not-a-role'] }, 'role_ids: not-a-role is not a role of this workspace', 'role_ids'],
    [{ email: 'a@b.test', role_ids: Array.from({ length: 101 }, (_, index) => `r${index}`) }, 'role_ids must contain less than or equal to 100 items', 'role_ids'],
  ];
  for (const [json, error, field] of cases) {
    const answer = await owner.post('acme', '/invitations', json);
    t.deepEqual([answer.status, answer.body], [400, { error, field }], JSON.stringify(json).slice(0, 80));
  }
});

test.serial('custom roles: create, list, update, delete, with their catalog events; names unique per workspace', async (t) => {
  const start = env.events.length;
  const created = await owner.post('acme', '/roles', { name: 'Editors', permissions: { tasks: ['tasks.tasks.create', 'tasks.tasks.read', 'tasks.tasks.read'], 'ext.acme.hello': ['ext.acme.hello.*'] } });
  t.is(created.status, 200, created.text);
  const role = created.body.data;
  t.like(role, { name: 'Editors', member_count: 0, permissions: { tasks: ['tasks.tasks.create', 'tasks.tasks.read'], 'ext.acme.hello': ['ext.acme.hello.*'] } });
  t.deepEqual(eventsSince(start), [
    ['account', 'core.account.role.created', { role_id: role.id, role_name: 'Editors', created_by: ownerId }],
    ['system', 'system.security.role.created', { role_id: role.id, role_name: 'Editors', created_by: ownerId }],
  ]);
  const duplicate = await owner.post('acme', '/roles', { name: 'editors' });
  t.deepEqual([duplicate.status, duplicate.body], [409, { error: 'A role named "editors" already exists', field: 'name' }]);

  const members = (await owner.get('acme', '/members?per_page=100')).body.data as Array<{ id: string; email: string }>;
  const mia = members.find((member) => member.email === 'mia@acme.test')!;
  const assigned = await owner.patch('acme', `/members/${mia.id}`, { role_ids: [role.id] });
  t.is(assigned.status, 200);
  t.deepEqual(assigned.body.data.role_ids, [role.id]);

  const updateStart = env.events.length;
  const updated = await owner.patch('acme', `/roles/${role.id}`, { name: 'Writers', permissions: { tasks: ['tasks.*'] } });
  t.is(updated.status, 200);
  t.like(updated.body.data, { name: 'Writers', permissions: { tasks: ['tasks.*'] }, member_count: 1 });
  t.deepEqual(eventsSince(updateStart), [['account', 'core.account.role.updated', { role_id: role.id, role_name: 'Writers', changed_fields: ['name', 'permissions'], updated_by: ownerId }]]);
  const unchanged = await owner.patch('acme', `/roles/${role.id}`, { name: 'Writers' });
  t.is(unchanged.status, 200);
  t.is(env.events.length, updateStart + 1);

  const listed = await owner.get('acme', '/roles');
  t.deepEqual(listed.body.pagination, { page: 1, per_page: 25, total: 1, pages: 1 });
  t.is((await owner.get('acme', `/roles/${role.id}`)).body.data.name, 'Writers');

  const member = env.browser();
  await signIn(member, 'acme', 'mia@acme.test', 'mia-password');
  t.is((await member.get('acme', '/roles')).status, 200);
  const denied = await member.post('acme', '/roles', { name: 'Mine' });
  t.deepEqual([denied.status, denied.body], [403, { error: 'Only workspace owners and admins can manage roles' }]);

  const deleteStart = env.events.length;
  const deleted = await owner.delete('acme', `/roles/${role.id}`);
  t.is(deleted.status, 200);
  t.deepEqual(eventsSince(deleteStart), [['account', 'core.account.role.deleted', { role_id: role.id, role_name: 'Writers', deleted_by: ownerId, affected_members: [mia.id] }]]);
  t.deepEqual((await owner.get('acme', `/members/${mia.id}`)).body.data.role_ids, []);
  t.is((await owner.get('acme', `/roles/${role.id}`)).status, 404);

  const cases: Array<[unknown, string, string]> = [
    [{}, 'name is required', 'name'],
    [{ name: '' }, 'name is not allowed to be empty', 'name'],
    [{ name: 'n'.repeat(101) }, 'name length must be less than or equal to 100 characters long', 'name'],
    [{ name: 'R', permissions: [] }, 'permissions must be of type object', 'permissions'],
    [{ name: 'R', permissions: { tasks: 'tasks.tasks.read' } }, 'permissions.tasks must be an array', 'permissions.tasks'],
    [{ name: 'R', permissions: { tasks: ['chat.messages.read'] } }, 'permissions.tasks: "chat.messages.read" is not a permission key of tasks ({slug}.{resource}.{action} or tasks.*)', 'permissions.tasks'],
    [{ name: 'R', permissions: { tasks: ['tasks.read'] } }, 'permissions.tasks: "tasks.read" is not a permission key of tasks ({slug}.{resource}.{action} or tasks.*)', 'permissions.tasks'],
    [{ name: 'R', permissions: { 'Not A Slug': ['x'] } }, 'permissions: "Not A Slug" is not an app slug', 'permissions'],
    // The SDK's grammar, the one apps are validated against: words joined by _, never -.
    [{ name: 'R', permissions: { 'my-app': ['my-app.notes.read'] } }, 'permissions: "my-app" is not an app slug', 'permissions'],
    [{ name: 'R', permissions: { tasks: ['tasks.task-lists.read'] } }, 'permissions.tasks: "tasks.task-lists.read" is not a permission key of tasks ({slug}.{resource}.{action} or tasks.*)', 'permissions.tasks'],
  ];
  for (const [json, error, field] of cases) {
    const answer = await owner.post('acme', '/roles', json);
    t.deepEqual([answer.status, answer.body], [400, { error, field }], JSON.stringify(json));
  }
});

test.serial('PATCH /members: admins change roles; only the owner promotes or demotes admins; the owner role moves only by transfer', async (t) => {
  const members = (await owner.get('acme', '/members?per_page=100')).body.data as Array<{ id: string; email: string }>;
  const mia = members.find((member) => member.email === 'mia@acme.test')!;
  const adam = members.find((member) => member.email === 'adam@acme.test')!;
  const admin = env.browser();
  await signIn(admin, 'acme', 'adam@acme.test', 'adam-password');

  const promoteByAdmin = await admin.patch('acme', `/members/${mia.id}`, { platform_role: 'admin' });
  t.deepEqual([promoteByAdmin.status, promoteByAdmin.body], [403, { error: 'Only the workspace owner can promote or demote admins' }]);
  const ownerByAdmin = await admin.patch('acme', `/members/${ownerId}`, { platform_role: 'member' });
  t.deepEqual([ownerByAdmin.status, ownerByAdmin.body], [403, { error: "The owner's platform role changes only through an ownership transfer (POST /workspaces/{id}/ownership)" }]);
  const badRole = await owner.patch('acme', `/members/${mia.id}`, { platform_role: 'owner' });
  t.deepEqual([badRole.status, badRole.body], [400, { error: 'platform_role must be one of [admin, member]', field: 'platform_role' }]);
  const unknown = await owner.patch('acme', '/members/00000000-0000-4000-8000-000000000000', { platform_role: 'admin' });
  t.deepEqual([unknown.status, unknown.body], [404, { error: 'No member 00000000-0000-4000-8000-000000000000 in this workspace' }]);

  const start = env.events.length;
  const promoted = await owner.patch('acme', `/members/${mia.id}`, { platform_role: 'admin' });
  t.is(promoted.status, 200);
  t.is(promoted.body.data.platform_role, 'admin');
  t.deepEqual(eventsSince(start), [['account', 'core.account.member.role_changed', { member_id: mia.id, from_role: 'member', to_role: 'admin', changed_by: ownerId }]]);
  const demoted = await owner.patch('acme', `/members/${mia.id}`, { platform_role: 'member' });
  t.is(demoted.body.data.platform_role, 'member');
  t.not(adam.id, mia.id);
});

test.serial('DELETE /members deactivates: that member’s session stops working on the very next request', async (t) => {
  await env.runtime.identity.addMember({ workspaceId, email: 'leo@acme.test', password: 'leo-password', platformRole: 'member' });
  const leo = env.browser();
  await signIn(leo, 'acme', 'leo@acme.test', 'leo-password');
  const me = await leo.get('acme', '/me');
  t.is(me.status, 200);
  const leoId = me.body.data.member.id;

  const member = env.browser();
  await signIn(member, 'acme', 'mia@acme.test', 'mia-password');
  const byMember = await member.delete('acme', `/members/${leoId}`);
  t.deepEqual([byMember.status, byMember.body], [403, { error: 'Only workspace owners and admins can remove members' }]);
  const theOwner = await owner.delete('acme', `/members/${ownerId}`);
  t.deepEqual([theOwner.status, theOwner.body], [403, { error: 'The owner cannot be removed; transfer ownership first' }]);

  const start = env.events.length;
  const removed = await owner.delete('acme', `/members/${leoId}`);
  t.is(removed.status, 200);
  t.truthy(removed.body.data.deactivated_at);
  t.deepEqual(eventsSince(start), [
    ['account', 'core.account.member.removed', { member_id: leoId, removed_by: ownerId }],
    ['system', 'system.workspace.member.removed', { member_id: leoId, removed_by: ownerId }],
  ]);
  const after = await leo.get('acme', '/me');
  t.deepEqual([after.status, after.body], [401, { error: 'Authentication required' }]);
  const signInAgain = await env.browser().post('acme', '/sessions', { email: 'leo@acme.test', password: 'leo-password' });
  t.deepEqual([signInAgain.status, signInAgain.body], [401, { error: 'Invalid email or password' }]);
  const twice = await owner.delete('acme', `/members/${leoId}`);
  t.deepEqual([twice.status, twice.body], [409, { error: 'This member is already deactivated' }]);
  // Re-inviting brings them back through a new link.
  const { link } = await invite('leo@acme.test');
  t.is((await env.browser().put('acme', new URL(link).pathname, { password: 'leo-password' })).status, 200);
});

test.serial('GET /members is the collection envelope over every member, oldest first', async (t) => {
  const first = await owner.get('acme', '/members?per_page=2');
  t.is(first.status, 200);
  const [{ total }] = await env.runtime.db.sequelize.query<{ total: number }>('SELECT count(*)::int AS total FROM platform.members WHERE workspace_id = :workspaceId', { type: QueryTypes.SELECT, replacements: { workspaceId } });
  t.deepEqual(first.body.pagination, { page: 1, per_page: 2, total, pages: Math.ceil(total / 2) });
  t.is(first.body.data[0].id, ownerId);
  t.is(first.body.links.next, '/members?page=2&per_page=2');
  t.deepEqual(Object.keys(first.body.data[0]).sort(), ['account_id', 'avatar_url', 'created_at', 'deactivated_at', 'email', 'id', 'initials', 'joined_at', 'mrn', 'name', 'platform_role', 'role_ids', 'state', 'workspace_id']);
  t.is(first.body.data[0].mrn, `mrn:account:member:${ownerId}`);
});

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4c20000000049454e44ae426082', 'hex');

test.serial('avatars: PNG, JPEG or WebP up to 2 MiB, served back; DELETE reverts to initials', async (t) => {
  const start = env.events.length;
  const uploaded = await owner.call('acme', 'POST', `/avatars/${ownerId}`, { raw: PNG, headers: { 'content-type': 'image/png' } });
  t.is(uploaded.status, 200, uploaded.text);
  const url: string = uploaded.body.data.avatar_url;
  t.regex(url, new RegExp(`^/avatars/${ownerId}\\?v=\\d+$`));
  t.deepEqual(eventsSince(start), [['account', 'core.account.member.avatar_updated', { member_id: ownerId, avatar_url: url }]]);
  // Served like a page: an <img> sends the cookie but no X-Api-Version.
  const image = await owner.call('acme', 'GET', url, { headers: { 'x-api-version': '' } });
  t.is(image.status, 200);
  t.is(image.headers['content-type'], 'image/png');
  t.is(image.text.length > 0, true);

  const wrongType = await owner.call('acme', 'POST', `/avatars/${ownerId}`, { raw: Buffer.from('GIF89a'), headers: { 'content-type': 'image/gif' } });
  t.deepEqual([wrongType.status, wrongType.body], [415, { error: 'Unsupported Media Type' }]);
  const lying = await owner.call('acme', 'POST', `/avatars/${ownerId}`, { raw: Buffer.from('plain text, not a picture'), headers: { 'content-type': 'image/jpeg' } });
  t.deepEqual([lying.status, lying.body], [400, { error: 'The body is not a JPEG image' }]);
  const empty = await owner.call('acme', 'POST', `/avatars/${ownerId}`, { raw: Buffer.alloc(0), headers: { 'content-type': 'image/webp' } });
  t.deepEqual([empty.status, empty.body], [400, { error: 'The avatar image is empty' }]);
  const huge = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
  const tooBig = await owner.call('acme', 'POST', `/avatars/${ownerId}`, { raw: huge, headers: { 'content-type': 'image/png' } });
  t.deepEqual([tooBig.status, tooBig.body], [413, { error: 'Avatar images must be at most 2 MiB (2097152 bytes)' }]);

  const members = (await owner.get('acme', '/members?per_page=100')).body.data as Array<{ id: string; email: string }>;
  const mia = members.find((member) => member.email === 'mia@acme.test')!;
  const member = env.browser();
  await signIn(member, 'acme', 'mia@acme.test', 'mia-password');
  const others = await member.call('acme', 'POST', `/avatars/${ownerId}`, { raw: PNG, headers: { 'content-type': 'image/png' } });
  t.deepEqual([others.status, others.body], [403, { error: "Only admins can change another member's avatar" }]);
  const own = await member.call('acme', 'POST', `/avatars/${mia.id}`, { raw: PNG, headers: { 'content-type': 'image/png' } });
  t.is(own.status, 200);

  const cleared = await owner.delete('acme', `/avatars/${ownerId}`);
  t.is(cleared.status, 200);
  t.like(cleared.body.data, { avatar_url: null, initials: 'OO' });
  const gone = await owner.get('acme', `/avatars/${ownerId}`);
  t.deepEqual([gone.status, gone.body], [404, { error: 'This member has no avatar; show their initials' }]);
  t.deepEqual(env.events.at(-1)!.payload, { member_id: ownerId, avatar_url: null });
});

test.serial('a failed request leaves no partial rows and emits no event', async (t) => {
  const start = env.events.length;
  const [{ before }] = await env.runtime.db.sequelize.query<{ before: number }>('SELECT count(*)::int AS before FROM platform.roles', { type: QueryTypes.SELECT });
  const answer = await owner.post('acme', '/roles', { name: 'Broken', permissions: { tasks: ['nope'] } });
  t.is(answer.status, 400);
  const [{ after }] = await env.runtime.db.sequelize.query<{ after: number }>('SELECT count(*)::int AS after FROM platform.roles', { type: QueryTypes.SELECT });
  t.is(after, before);
  t.is(env.events.length, start);
});
