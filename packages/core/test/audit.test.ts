import test from 'ava';
import { body, startAppsRuntime, TestWorkspace, type AppsTestRuntime } from './helpers/apps.js';

// GET /audit: the workspace's audit trail as a collection, with filters; owners and admins only.

let env: AppsTestRuntime;
let ws: TestWorkspace;
let other: TestWorkspace;
let actorId: string;

const get = (url: string, headers: Record<string, string>) => env.runtime.server.inject({ method: 'GET', url, headers });

async function entry(workspaceId: string, at: string, action: string, actor: string | null, target: [string, string] | null, details: Record<string, unknown> = {}) {
  await env.runtime.db.sequelize.query(
    `INSERT INTO platform.activity (workspace_id, actor_member_id, actor_email, action, target_type, target_id, details, created_at)
     VALUES (:workspaceId, :actor, :email, :action, :targetType, :targetId, CAST(:details AS jsonb), :at)`,
    { replacements: { workspaceId, actor, email: actor ? 'actor@audit.test' : null, action, targetType: target?.[0] ?? null, targetId: target?.[1] ?? null, details: JSON.stringify(details), at } },
  );
}

test.before(async () => {
  env = await startAppsRuntime();
  ws = await TestWorkspace.create(env, 'audit1');
  other = await TestWorkspace.create(env, 'audit2');
  const actor = await ws.member('admin');
  actorId = actor.memberId;
  await env.runtime.db.sequelize.query('DELETE FROM platform.activity WHERE workspace_id IN (:ids)', { replacements: { ids: [ws.id, other.id] } });
  await entry(ws.id, '2026-01-01T10:00:00Z', 'member.invited', actorId, ['member', 'm-1'], { email: 'a@audit.test' });
  await entry(ws.id, '2026-01-02T10:00:00Z', 'system.security.role.created', actorId, ['role', 'r-1'], { role_name: 'Agents' });
  await entry(ws.id, '2026-01-03T10:00:00Z', 'system.security.permission.denied', null, ['permission', 'notes.notes.read']);
  await entry(ws.id, '2026-01-04T10:00:00Z', 'session.created', ws.owner.memberId, null);
  await entry(other.id, '2026-01-02T12:00:00Z', 'system.security.role.created', other.owner.memberId, ['role', 'r-9']);
});

test.after.always(async () => {
  await env?.close();
});

const actions = (answer: { payload: string }) => body(answer).data.map((row: { action: string }) => row.action);

test.serial('the whole trail of this workspace, newest first, in the collection envelope', async (t) => {
  const answer = await get('/audit?per_page=2', ws.owner.headers());
  t.is(answer.statusCode, 200);
  const page = body(answer);
  t.deepEqual(page.data[0], {
    id: page.data[0].id,
    occurred_at: '2026-01-04T10:00:00.000Z',
    actor_member_id: ws.owner.memberId,
    actor_email: 'actor@audit.test',
    action: 'session.created',
    target_type: null,
    target_id: null,
    details: {},
    ip: null,
  });
  t.deepEqual(actions(answer), ['session.created', 'system.security.permission.denied']);
  t.deepEqual(page.pagination, { page: 1, per_page: 2, total: 4, pages: 2 });
  t.is(page.links.next, '/audit?page=2&per_page=2');
  t.deepEqual(actions(await get(page.links.next, ws.owner.headers())), ['system.security.role.created', 'member.invited']);
});

test.serial('filters: action (exact or prefix*), actor, target_type, target_id, after, before; combined', async (t) => {
  const h = ws.owner.headers();
  t.deepEqual(actions(await get('/audit?action=member.invited', h)), ['member.invited']);
  t.deepEqual(actions(await get('/audit?action=system.security.*', h)), ['system.security.permission.denied', 'system.security.role.created']);
  t.deepEqual(actions(await get(`/audit?actor=${actorId}`, h)), ['system.security.role.created', 'member.invited']);
  t.deepEqual(actions(await get('/audit?target_type=role', h)), ['system.security.role.created']);
  t.deepEqual(actions(await get('/audit?target_id=notes.notes.read', h)), ['system.security.permission.denied']);
  t.deepEqual(actions(await get('/audit?after=2026-01-02T10:00:00Z&before=2026-01-04', h)), ['system.security.permission.denied']);
  const combined = await get(`/audit?action=system.*&actor=${actorId}&per_page=1`, h);
  t.deepEqual(actions(combined), ['system.security.role.created']);
  t.deepEqual(body(combined).pagination, { page: 1, per_page: 1, total: 1, pages: 1 });
  t.is(body(combined).links.self, `/audit?action=system.*&actor=${actorId}&page=1&per_page=1`);
  t.deepEqual(body(await get('/audit?action=nothing.like.this', h)).data, []);
  t.deepEqual(body(await get('/audit?actor=someone', h)).data, []);
});

test.serial('bad filters are refused naming the parameter', async (t) => {
  const h = ws.owner.headers();
  const cases: Array<[string, string, string]> = [
    ['/audit?after=yesterday', 'query parameter after must be a real date (YYYY-MM-DD) or ISO 8601 instant, for example 2027-01-31T09:30:00Z', 'after'],
    ['/audit?action=DROP%20TABLE', 'query parameter action with value DROP TABLE fails to match the action (letters, digits, dots; a trailing * matches a prefix) pattern', 'action'],
    [`/audit?target_type=${'x'.repeat(51)}`, 'query parameter target_type length must be less than or equal to 50 characters long', 'target_type'],
  ];
  for (const [url, error, field] of cases) {
    const answer = await get(url, h);
    t.is(answer.statusCode, 400, url);
    t.deepEqual(body(answer), { error, field }, url);
  }
});

test.serial('owners and admins only; a scoped key needs account.audit_entries.read', async (t) => {
  const member = await ws.member();
  const refused = await get('/audit', member.headers());
  t.is(refused.statusCode, 403);
  t.deepEqual(body(refused), { error: 'Only workspace owners and admins can read the audit trail' });
  const admin = await ws.member('admin');
  t.is((await get('/audit', admin.headers())).statusCode, 200);
  const narrow = await admin.key({ fullAccess: false, scopes: ['account.members.read'] });
  t.deepEqual(body(await get('/audit', narrow)), { error: 'Missing permission: account.audit_entries.read' });
  const scoped = await admin.key({ fullAccess: false, scopes: ['account.audit_entries.read'] });
  t.is((await get('/audit', scoped)).statusCode, 200);
});
