import test from 'ava';
import { QueryTypes } from 'sequelize';
import type { Browser } from './helpers/identity-http.js';
import { startIdentityRuntime, signIn, type IdentityTestRuntime } from './helpers/identity-runtime.js';
import { independentTotp } from './helpers/identity-totp.js';

// Elevation (admin mode), the admin audit with coalesced views, the activity trail and its CSV
// export, and the owner-only operations that need admin mode.
let env: IdentityTestRuntime;
let workspaceId: string;
let ownerId: string;
let adminId: string;
let memberId: string;
let owner: Browser;

const OWNER = { email: 'owen@acme.test', password: 'owen-owner-password' };
const ADMIN = { email: 'ada@acme.test', password: 'ada-admin-password' };
const MEMBER = { email: 'max@acme.test', password: 'max-member-password' };

test.before(async () => {
  env = await startIdentityRuntime({ elevationMinutes: 5, scryptLogN: 10 });
  const created = await env.runtime.identity.createWorkspaceWithOwner({ subdomain: 'acme', name: 'Acme', ownerEmail: OWNER.email, ownerPassword: OWNER.password });
  workspaceId = created.workspaceId;
  ownerId = created.memberId;
  adminId = (await env.runtime.identity.addMember({ workspaceId, email: ADMIN.email, password: ADMIN.password, platformRole: 'admin' })).memberId;
  memberId = (await env.runtime.identity.addMember({ workspaceId, email: MEMBER.email, password: MEMBER.password, platformRole: 'member' })).memberId;
  owner = env.browser();
  await signIn(owner, 'acme', OWNER.email, OWNER.password);
});

test.after.always(async () => {
  await env?.close();
});

test.serial('deleting the workspace and transferring ownership need admin mode, even for the owner', async (t) => {
  const transfer = await owner.post('acme', `/workspaces/${workspaceId}/ownership`, { member_id: adminId });
  t.deepEqual([transfer.status, transfer.body], [403, { error: 'Admin mode is required to transfer ownership: re-authenticate with POST /elevations first' }]);
  const remove = await owner.delete('acme', `/workspaces/${workspaceId}`);
  t.deepEqual([remove.status, remove.body], [403, { error: 'Admin mode is required to delete the workspace: re-authenticate with POST /elevations first' }]);
  const admin = env.browser();
  await signIn(admin, 'acme', ADMIN.email, ADMIN.password);
  const byAdmin = await admin.delete('acme', `/workspaces/${workspaceId}`);
  t.deepEqual([byAdmin.status, byAdmin.body], [403, { error: 'Only the workspace owner can delete the workspace' }]);
  const transferByAdmin = await admin.post('acme', `/workspaces/${workspaceId}/ownership`, { member_id: adminId });
  t.deepEqual([transferByAdmin.status, transferByAdmin.body], [403, { error: 'Only the workspace owner can transfer ownership' }]);
});

test.serial('POST /elevations: bounds, the proof rules, and a new session id with a bounded window', async (t) => {
  const bounds: Array<[unknown, string, string?]> = [
    [{ password: OWNER.password }, 'reason is required', 'reason'],
    [{ reason: 'ab', password: OWNER.password }, 'reason length must be at least 3 characters long', 'reason'],
    [{ reason: 'r'.repeat(501), password: OWNER.password }, 'reason length must be less than or equal to 500 characters long', 'reason'],
    [{ reason: 'audit', code: '12345' }, 'code length must be 6 characters long', 'code'],
    [{ reason: 'audit', totp: '12345' }, 'totp length must be at least 6 characters long', 'totp'],
    [{ reason: 'audit', totp: '12345678901' }, 'totp length must be less than or equal to 10 characters long', 'totp'],
    [{ reason: 'audit' }, 'password is required (two-factor authentication is off for this account)', 'password'],
    [{ reason: 'audit', code: '123456' }, 'Two-factor authentication is off for this account: send your password (password)'],
  ];
  for (const [json, error, field] of bounds) {
    const answer = await owner.post('acme', '/elevations', json);
    t.deepEqual([answer.status, answer.body], [400, field === undefined ? { error } : { error, field }], JSON.stringify(json));
  }
  const wrong = await owner.post('acme', '/elevations', { reason: 'rotate keys', password: 'not it' });
  t.deepEqual([wrong.status, wrong.body], [403, { error: 'Invalid password' }]);

  const member = env.browser();
  await signIn(member, 'acme', MEMBER.email, MEMBER.password);
  const byMember = await member.post('acme', '/elevations', { reason: 'curious', password: MEMBER.password });
  t.deepEqual([byMember.status, byMember.body], [403, { error: 'Only workspace owners and admins can enter admin mode' }]);

  const before = owner.session;
  const started = Date.now();
  const elevated = await owner.post('acme', '/elevations', { reason: 'Transfer to Ada', password: OWNER.password });
  t.is(elevated.status, 200, elevated.text);
  t.is(elevated.body.data.proof, 'password');
  const until = Date.parse(elevated.body.data.elevated_until);
  t.true(until >= started + 5 * 60_000 - 1000 && until <= Date.now() + 5 * 60_000 + 1000, elevated.body.data.elevated_until);
  t.not(owner.session, before);
  const stale = await env.browser().call('acme', 'GET', '/me', { headers: { cookie: `wpk_session=${before}` } });
  t.is(stale.status, 401);
  t.is((await owner.get('acme', '/me')).body.data.elevated_until, elevated.body.data.elevated_until);
});

test.serial('while elevated, views coalesce into one audit row whose hits count them, even when concurrent', async (t) => {
  const views = 25;
  const answers = await Promise.all(Array.from({ length: views }, () => owner.get('acme', '/members?per_page=5')));
  t.true(answers.every((answer) => answer.status === 200));
  await owner.get('acme', `/members/${memberId}`);
  const audit = await owner.get('acme', '/admin-audit');
  t.is(audit.status, 200);
  const rows = audit.body.data as Array<{ kind: string; action: string; target: string; hits: number; reason: string | null; actor_member_id: string; actor_email: string }>;
  const members = rows.find((row) => row.action === 'GET /members');
  t.like(members, { kind: 'view', target: '/members', hits: views, actor_member_id: ownerId, actor_email: OWNER.email });
  t.like(rows.find((row) => row.action === 'GET /members/{member_id}'), { kind: 'view', target: `/members/${memberId}`, hits: 1 });
  t.like(rows.find((row) => row.kind === 'elevation'), { reason: 'Transfer to Ada', actor_member_id: ownerId });
  // Newest first: the audit view itself is not recorded before it answers, so the single member view leads.
  t.is(rows[0].action, 'GET /members/{member_id}');
  t.is(rows[rows.length - 1].kind, 'elevation');
  const again = await owner.get('acme', '/admin-audit');
  t.like((again.body.data as typeof rows).find((row) => row.action === 'GET /admin-audit'), { hits: 1 });
  const [{ count }] = await env.runtime.db.sequelize.query<{ count: number }>(`SELECT count(*)::int AS count FROM platform.admin_audit WHERE action = 'GET /members'`, { type: QueryTypes.SELECT });
  t.is(count, 1);
});

test.serial('transferring ownership while elevated: the old owner becomes admin, the new owner holds the only owner row', async (t) => {
  const bounds = await owner.post('acme', `/workspaces/${workspaceId}/ownership`, {});
  t.deepEqual([bounds.status, bounds.body], [400, { error: 'member_id is required', field: 'member_id' }]);
  const unknown = await owner.post('acme', `/workspaces/${workspaceId}/ownership`, { member_id: '00000000-0000-4000-8000-000000000000' });
  t.deepEqual([unknown.status, unknown.body], [404, { error: 'No member 00000000-0000-4000-8000-000000000000 in this workspace' }]);
  const otherWorkspace = await owner.post('acme', '/workspaces/00000000-0000-4000-8000-000000000000/ownership', { member_id: adminId });
  t.deepEqual([otherWorkspace.status, otherWorkspace.body], [404, { error: 'No workspace 00000000-0000-4000-8000-000000000000 here' }]);

  const start = env.events.length;
  const moved = await owner.post('acme', `/workspaces/${workspaceId}/ownership`, { member_id: adminId });
  t.is(moved.status, 200, moved.text);
  t.like(moved.body.data, { id: workspaceId, owner_member_id: adminId, member_count: 3 });
  t.deepEqual(
    env.events.slice(start).map((event) => [event.action, event.payload]),
    [
      ['core.account.member.role_changed', { member_id: ownerId, from_role: 'owner', to_role: 'admin', changed_by: ownerId }],
      ['core.account.member.role_changed', { member_id: adminId, from_role: 'admin', to_role: 'owner', changed_by: ownerId }],
    ],
  );
  const roles = await env.runtime.db.sequelize.query<{ id: string; platform_role: string }>(`SELECT id, platform_role FROM platform.members WHERE workspace_id = :workspaceId AND platform_role = 'owner'`, { type: QueryTypes.SELECT, replacements: { workspaceId } });
  t.deepEqual(roles, [{ id: adminId, platform_role: 'owner' }]);
  // The change itself is in the admin audit (a change row, not coalesced).
  const audit = (await owner.get('acme', '/admin-audit')).body.data as Array<{ kind: string; action: string; status: number }>;
  t.like(audit.find((row) => row.action === 'POST /workspaces/{id}/ownership' && row.status === 200), { kind: 'change' });
  // The former owner is an admin now: deleting the workspace is no longer theirs to do.
  const remove = await owner.delete('acme', `/workspaces/${workspaceId}`);
  t.deepEqual([remove.status, remove.body], [403, { error: 'Only the workspace owner can delete the workspace' }]);
});

test.serial('the elevated window ends: after it, owner-only operations are refused again', async (t) => {
  const ada = env.browser();
  await signIn(ada, 'acme', ADMIN.email, ADMIN.password);
  const elevated = await ada.post('acme', '/elevations', { reason: 'handing back', password: ADMIN.password });
  t.is(elevated.status, 200);
  await env.runtime.db.sequelize.query(`UPDATE platform.sessions SET elevated_until = now() - interval '1 second' WHERE member_id = :adaId AND elevated_until IS NOT NULL`, { replacements: { adaId: adminId } });
  const expired = await ada.post('acme', `/workspaces/${workspaceId}/ownership`, { member_id: ownerId });
  t.deepEqual([expired.status, expired.body], [403, { error: 'Admin mode is required to transfer ownership: re-authenticate with POST /elevations first' }]);
  t.is((await ada.get('acme', '/me')).body.data.elevated_until, null);
});

test.serial('elevation with 2FA on takes a TOTP code (code or totp) or a recovery code (totp), never the password alone', async (t) => {
  const max = env.browser();
  await env.runtime.db.sequelize.query(`UPDATE platform.members SET platform_role = 'admin' WHERE id = :memberId`, { replacements: { memberId } });
  await signIn(max, 'acme', MEMBER.email, MEMBER.password);
  const secret = (await max.post('acme', '/totps')).body.data.secret as string;
  const step = Math.floor(Date.now() / 30_000);
  const enabled = await max.put('acme', '/totps', { code: independentTotp(secret, step * 30_000 + 1000) });
  t.is(enabled.status, 200);
  const recovery: string[] = enabled.body.data.recovery_codes;

  const passwordOnly = await max.post('acme', '/elevations', { reason: 'need admin mode', password: MEMBER.password });
  t.deepEqual([passwordOnly.status, passwordOnly.body], [400, { error: 'Two-factor authentication is on: send a TOTP code (code or totp) or a recovery code (totp)' }]);
  const recoveryInCode = await max.post('acme', '/elevations', { reason: 'need admin mode', code: recovery[0].slice(0, 6) });
  t.deepEqual([recoveryInCode.status, recoveryInCode.body], [403, { error: 'Invalid TOTP or recovery code' }]);
  const byCode = await max.post('acme', '/elevations', { reason: 'need admin mode', code: independentTotp(secret, (step + 1) * 30_000 + 1000) });
  t.is(byCode.status, 200, byCode.text);
  t.is(byCode.body.data.proof, 'totp');
  const byRecovery = await max.post('acme', '/elevations', { reason: 'lost my phone', totp: recovery[1] });
  t.is(byRecovery.status, 200, byRecovery.text);
  t.is(byRecovery.body.data.proof, 'recovery-code');
  const reused = await max.post('acme', '/elevations', { reason: 'lost my phone', totp: recovery[1] });
  t.deepEqual([reused.status, reused.body], [403, { error: 'Invalid TOTP or recovery code' }]);
});

test.serial('GET /activity: admins see the workspace trail, newest first; a member sees only their own', async (t) => {
  const all = await owner.get('acme', '/activity?per_page=100');
  t.is(all.status, 200);
  const actions = (all.body.data as Array<{ action: string; occurred_at: string }>).map((row) => row.action);
  for (const expected of ['session.created', 'elevation.started', 'workspace.ownership_transferred', 'two_factor.enabled', 'member.added', 'workspace.created']) t.true(actions.includes(expected), expected);
  const times = (all.body.data as Array<{ occurred_at: string }>).map((row) => Date.parse(row.occurred_at));
  t.deepEqual(times, [...times].sort((a, b) => b - a));
  t.is(actions[actions.length - 1], 'workspace.created');

  await env.runtime.db.sequelize.query(`UPDATE platform.members SET platform_role = 'member' WHERE id = :memberId`, { replacements: { memberId } });
  const plain = env.browser();
  await env.runtime.identity.addMember({ workspaceId, email: 'pia@acme.test', password: 'pia-member-password', platformRole: 'member' });
  await signIn(plain, 'acme', 'pia@acme.test', 'pia-member-password');
  const own = await plain.get('acme', '/activity');
  t.is(own.status, 200);
  t.true((own.body.data as Array<{ actor_email: string }>).length >= 1);
  t.true((own.body.data as Array<{ actor_email: string }>).every((row) => row.actor_email === 'pia@acme.test'));
  const auditByMember = await plain.get('acme', '/admin-audit');
  t.deepEqual([auditByMember.status, auditByMember.body], [403, { error: 'Only workspace owners and admins can read the admin audit' }]);
});

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

test.serial('GET /admin/activity-exports streams CSV with a header row, bounded by after and before (exclusive), admins only', async (t) => {
  const sequelize = env.runtime.db.sequelize;
  await sequelize.query(`DELETE FROM platform.activity WHERE workspace_id = :workspaceId`, { replacements: { workspaceId } });
  const base = Date.parse('2026-01-01T00:00:00.000Z');
  for (let index = 0; index < 1200; index += 1) {
    await sequelize.query(
      `INSERT INTO platform.activity (workspace_id, actor_member_id, actor_email, action, target_type, target_id, details, created_at)
       VALUES (:workspaceId, :ownerId, 'owen@acme.test', 'fixture.entry', 'fixture', :target, CAST(:details AS jsonb), :at)`,
      { replacements: { workspaceId, ownerId, target: String(index), details: JSON.stringify({ note: index === 0 ? 'comma, "quote"' : `n${index}` }), at: new Date(base + index * 60_000) } },
    );
  }
  // Activity of another workspace never shows up.
  const other = await env.runtime.identity.createWorkspaceWithOwner({ subdomain: 'globex', name: 'Globex', ownerEmail: 'gia@globex.test', ownerPassword: 'gia-owner-password' });
  t.truthy(other.workspaceId);

  const everything = await owner.get('acme', '/admin/activity-exports');
  t.is(everything.status, 200);
  t.regex(String(everything.headers['content-type']), /^text\/csv/);
  t.regex(String(everything.headers['content-disposition']), /^attachment; filename="activity-acme-(\d{4}-\d{2}-\d{2})\.csv"; filename\*=UTF-8''activity-acme-\1\.csv$/);
  const rows = parseCsv(everything.text);
  t.deepEqual(rows[0], ['occurred_at', 'id', 'actor_member_id', 'actor_email', 'action', 'target_type', 'target_id', 'ip', 'details']);
  const fixtures = rows.slice(1).filter((row) => row[4] === 'fixture.entry');
  t.is(fixtures.length, 1200);
  t.deepEqual(fixtures.map((row) => Number(row[6])), Array.from({ length: 1200 }, (_, index) => index));
  t.is(fixtures[0][0], '2026-01-01T00:00:00.000Z');
  t.deepEqual(JSON.parse(fixtures[0][8]), { note: 'comma, "quote"' });

  const after = new Date(base + 10 * 60_000).toISOString();
  const before = new Date(base + 20 * 60_000).toISOString();
  const bounded = parseCsv((await owner.get('acme', `/admin/activity-exports?after=${after}&before=${before}`)).text);
  t.deepEqual(bounded.slice(1).map((row) => row[6]), ['11', '12', '13', '14', '15', '16', '17', '18', '19']);
  const onlyAfter = parseCsv((await owner.get('acme', `/admin/activity-exports?after=${new Date(base + 1190 * 60_000).toISOString()}&before=2026-06-01T00:00:00Z`)).text);
  t.deepEqual(onlyAfter.slice(1).map((row) => row[6]), ['1191', '1192', '1193', '1194', '1195', '1196', '1197', '1198', '1199']);
  const empty = parseCsv((await owner.get('acme', `/admin/activity-exports?before=2025-01-01T00:00:00Z`)).text);
  t.deepEqual(empty, [['occurred_at', 'id', 'actor_member_id', 'actor_email', 'action', 'target_type', 'target_id', 'ip', 'details']]);

  for (const [query, error, field] of [
    ['after=yesterday', 'query parameter after must be a real date (YYYY-MM-DD) or ISO 8601 instant, for example 2027-01-31T09:30:00Z', 'after'],
    [`before=${'2026-01-01T00:00:00.000000000000000000000Z'}`, 'query parameter before length must be less than or equal to 40 characters long', 'before'],
  ]) {
    const answer = await owner.get('acme', `/admin/activity-exports?${query}`);
    t.deepEqual([answer.status, answer.body], [400, { error, field }], query);
  }
  const member = env.browser();
  await signIn(member, 'acme', 'pia@acme.test', 'pia-member-password');
  const denied = await member.get('acme', '/admin/activity-exports');
  t.deepEqual([denied.status, denied.body], [403, { error: 'Only workspace owners and admins can export the audit trail' }]);
});

test.serial('GET /workspaces/{id} for any member; DELETE /workspaces/{id} by the owner in admin mode ends every session there', async (t) => {
  const member = env.browser();
  await signIn(member, 'acme', 'pia@acme.test', 'pia-member-password');
  const read = await member.get('acme', `/workspaces/${workspaceId}`);
  t.is(read.status, 200);
  t.like(read.body.data, { id: workspaceId, subdomain: 'acme', name: 'Acme', status: 'active', owner_member_id: adminId });
  t.is(read.body.links.self, `/workspaces/${workspaceId}`);

  const ada = env.browser();
  await signIn(ada, 'acme', ADMIN.email, ADMIN.password);
  t.is((await ada.post('acme', '/elevations', { reason: 'closing the workspace', password: ADMIN.password })).status, 200);
  const deleted = await ada.delete('acme', `/workspaces/${workspaceId}`);
  t.is(deleted.status, 200, deleted.text);
  t.is(deleted.body.data.status, 'deleted');
  t.is(ada.session, undefined);
  const gone = await member.get('acme', '/me');
  t.deepEqual([gone.status, gone.body], [404, { error: 'No workspace at acme.localhost' }]);
  const [{ sessions }] = await env.runtime.db.sequelize.query<{ sessions: number }>('SELECT count(*)::int AS sessions FROM platform.sessions WHERE workspace_id = :workspaceId', { type: QueryTypes.SELECT, replacements: { workspaceId } });
  t.is(sessions, 0);
  // The subdomain stays reserved.
  const reuse = await env.browser().post(null, '/signup', { email: 'new@example.test', name: 'New', workspace_name: 'New Acme', subdomain: 'acme' });
  t.is(reuse.status, 409);
});
