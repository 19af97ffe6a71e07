import test from 'ava';
import { startWorld, type World } from '@wpk/testing';
import app from '../src/index.js';

// GET /settings/explain: the permission explainer for admins, checked against real requests.

let world: World;

test.before(async () => {
  world = await startWorld({ app, subdomain: 'explain' });
});
test.after.always(() => world?.close());

const explain = (caller: { get(path: string): Promise<{ status: number; body: any }> }, memberMrn: string, action: string) =>
  caller.get(`/settings/explain?member_mrn=${encodeURIComponent(memberMrn)}&action=${encodeURIComponent(action)}`);

test('an admin sees the five layers and which decides; the verdicts agree with real requests by the member', async (t) => {
  const reader = await world.member(['settings.locations.read']);
  const admin = await world.workspace.member({ platformRole: 'admin' });
  const cases: Array<[string, string, unknown, string, number | null]> = [
    ['GET /settings/locations', 'GET', undefined, 'allowed', null],
    ['POST /settings/locations', 'POST', { name: 'Lyon', timezone: 'Europe/Paris' }, 'refused', 5],
    ['settings.locations.read', 'GET', undefined, 'allowed', null],
  ];
  for (const [action, method, payload, decision, decidedBy] of cases) {
    const reply = await explain(admin, reader.mrn, action);
    t.is(reply.status, 200, action);
    t.deepEqual([reply.body.data.decision, reply.body.data.decided_by], [decision, decidedBy], action);
    const real = await reader.request(method, '/settings/locations', payload);
    t.is(real.status >= 200 && real.status < 300, decision === 'allowed', `${action}: real ${real.status}`);
  }
  const refused = await explain(world.owner, reader.mrn, 'POST /settings/locations');
  t.deepEqual(refused.body, {
    data: {
      member: { id: reader.id, mrn: reader.mrn, name: reader.name, email: reader.email, platform_role: 'member', active: true },
      action: 'POST /settings/locations',
      app: 'settings',
      operation: 'POST /settings/locations',
      chain: ['settings.locations.create'],
      layers: [
        { layer: 1, name: 'authentication', passed: null, reason: 'not judged: authentication is per request (the member has 1 active session and 0 active API keys now)' },
        { layer: 2, name: 'membership', passed: true, reason: 'member of the workspace (member)' },
        { layer: 3, name: 'platform_role', passed: null, reason: "not applied: it gates workspace-management routes, not an app's actions (platform role member)" },
        { layer: 4, name: 'app_access', passed: true, reason: refused.body.data.layers[3].reason },
        { layer: 5, name: 'app_permission', passed: false, reason: refused.body.data.layers[4].reason },
      ],
      decision: 'refused',
      decided_by: 5,
    },
    links: { self: '/settings/explain' },
  });
  t.regex(refused.body.data.layers[3].reason, /^access policy is roles and the member holds Harness role \d+: settings\.locations\.read$/);
  t.regex(refused.body.data.layers[4].reason, /^lacks settings\.locations\.create; holds settings\.locations\.read via role Harness role \d+: settings\.locations\.read$/);

  const owner = await explain(admin, world.owner.mrn, 'DELETE /settings/locations/{location_id}');
  t.deepEqual([owner.body.data.decision, owner.body.data.layers[4].reason], ['allowed', 'owners and admins hold every key']);
});

test('only holders of settings.explanations.read may ask (owners and admins hold it)', async (t) => {
  const member = await world.member(['settings.locations.read']);
  const denied = await explain(member, member.mrn, 'settings.locations.read');
  t.deepEqual([denied.status, denied.body], [403, { error: 'Missing permission: settings.explanations.read' }]);
  const helpdesk = await world.member(['settings.explanations.read']);
  t.is((await explain(helpdesk, member.mrn, 'settings.locations.read')).status, 200);
});

test('400 naming member_mrn or action when malformed; 404 when the member is not in the workspace', async (t) => {
  const member = await world.member();
  const cases: Array<[string, string]> = [
    ['/settings/explain?action=settings.locations.read', 'member_mrn'],
    [`/settings/explain?member_mrn=${encodeURIComponent(member.mrn)}`, 'action'],
    ['/settings/explain?member_mrn=ann&action=settings.locations.read', 'member_mrn'],
    [`/settings/explain?member_mrn=${encodeURIComponent(member.mrn)}&action=settings.locations.fly`, 'action'],
    [`/settings/explain?member_mrn=${encodeURIComponent(member.mrn)}&action=${encodeURIComponent('GET /nowhere')}`, 'action'],
  ];
  for (const [path, field] of cases) {
    const reply = await world.owner.get(path);
    t.is(reply.status, 400, path);
    t.regex(reply.body.error, new RegExp(`^(query parameter )?${field}\\b`), path);
  }
  // A member of another workspace, and an id nobody has.
  const elsewhere = await (await world.otherWorkspace('explain-other')).member();
  for (const mrn of [elsewhere.mrn, 'mrn:account:member:00000000-0000-4000-8000-000000000abc']) {
    const missing = await explain(world.owner, mrn, 'settings.locations.read');
    t.deepEqual([missing.status, missing.body], [404, { error: `member_mrn ${mrn} is not a member of this workspace` }]);
  }
  // A member without access to the app is explained (layer 4 decides), not hidden.
  const outsider = await world.outsider();
  const explained = await explain(world.owner, outsider.mrn, 'settings.locations.read');
  t.deepEqual([explained.status, explained.body.data.decision, explained.body.data.decided_by], [200, 'refused', 4]);
});
