import path from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { ok, startWorld, type World } from '@wpk/testing';
import app from '../src/index.js';

// Configuration as code: GET /settings/export, POST /settings/imports (the plan), POST /settings/imports/{plan_id}/apply.

const HELLO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../examples/ext-hello');
let world: World;
/** The custom role the world's setup made (every workspace of the harness has one per member made). */
let salesId: string;

test.before(async () => {
  // ext.acme.hello is loaded but not installed in the workspace: an import naming it is refused.
  world = await startWorld({ app, subdomain: 'config', apps: [HELLO] });
  salesId = await world.workspace.role('Sales', { settings: ['settings.locations.read'] });
});
test.after.always(() => world?.close());

/** The whole document, as exported now. */
const exported = (): Promise<any> => ok(world.owner.get('/settings/export'));
const plan = (document: unknown, caller = world.owner) => caller.request('POST', '/settings/imports', { document });
const apply = (planId: string, caller = world.owner) => caller.request('POST', `/settings/imports/${planId}/apply`);
const part = (changes: unknown[] = [], unchanged = 0) => ({ changes, unchanged });
/** The platform's events (every emitter) since the last call, as [action, payload]. */
const events = () => world.platform.takeEvents().map((event) => [event.action, event.payload] as [string, Record<string, unknown>]);

test.serial('export: one versioned document by name in a stable order; importing it unchanged plans no change', async (t) => {
  const document = await exported();
  t.deepEqual(document, {
    format: 'wpk.settings/1',
    organization: { legal_name: 'config workspace', logo_key: null, base_currency: 'USD', timezone: 'UTC', locale: 'en-US', week_start: 'monday', fiscal_year_start_month: 1 },
    locations: {},
    calendars: {},
    roles: { Sales: { permissions: { settings: ['settings.locations.read'] } } },
    apps: { settings: { access_policy: 'roles', allowed_roles: [], redlist: [], settings: { holiday_import_years_ahead: 2 } } },
  });
  t.deepEqual(Object.keys(document), ['format', 'organization', 'locations', 'calendars', 'roles', 'apps']);
  t.deepEqual(await exported(), document);

  events();
  const start = world.platform.clock.now().getTime();
  const reply = await plan(document);
  const end = world.platform.clock.now().getTime();
  t.is(reply.status, 200);
  t.deepEqual(reply.body.data, {
    id: reply.body.data.id,
    organization: part([], 1),
    locations: part(),
    calendars: part(),
    roles: part([], 1),
    apps: part([], 1),
    total_changes: 0,
    expires_at: reply.body.data.expires_at,
    applied_at: null,
  });
  const expires = Date.parse(reply.body.data.expires_at);
  t.true(expires >= start + 3_600_000 && expires <= end + 3_600_000, reply.body.data.expires_at);
  t.deepEqual(reply.body.links, { self: `/settings/imports/${reply.body.data.id}`, apply: `/settings/imports/${reply.body.data.id}/apply` });
  t.deepEqual(events(), []);
});

test.serial('a changed document plans exactly its diff; apply makes it so (read back through the normal APIs), emits each event once and is audited', async (t) => {
  const document = await exported();
  document.organization.base_currency = 'eur';
  document.organization.timezone = 'Europe/Berlin';
  document.locations = { 'Berlin HQ': { timezone: 'Europe/Berlin', address: { city: 'Berlin', country: 'DE' } } };
  document.calendars = { Germany: { working_days: [5, 1, 2, 3, 4], hours_per_day: 8, region: 'de', holidays: [{ date: '2026-12-25', name: 'Christmas Day' }] } };
  document.roles.Support = { permissions: { settings: ['settings.calendars.read', 'settings.locations.read'] } };
  document.roles.Sales.permissions.settings = ['settings.*'];
  document.apps.settings = { access_policy: 'roles', allowed_roles: ['Support', 'Sales'], redlist: [], settings: { holiday_import_years_ahead: 5 } };

  const made = ok(await plan(document));
  t.deepEqual(made, {
    id: made.id,
    organization: part([{ path: 'organization', op: 'update', fields: ['base_currency', 'timezone'] }]),
    locations: part([{ path: 'locations.Berlin HQ', op: 'create' }]),
    calendars: part([{ path: 'calendars.Germany', op: 'create' }]),
    roles: part([{ path: 'roles.Sales', op: 'update', fields: ['permissions'] }, { path: 'roles.Support', op: 'create' }]),
    apps: part([
      { path: 'apps.settings.access', op: 'update', fields: ['allowed_roles'] },
      { path: 'apps.settings.settings', op: 'update', fields: ['holiday_import_years_ahead'] },
    ]),
    total_changes: 7,
    expires_at: made.expires_at,
    applied_at: null,
  });
  t.deepEqual(await ok(world.owner.get(`/settings/imports/${made.id}`)), made);
  // The plan wrote nothing but itself.
  t.is((await ok(world.owner.get('/settings/organization'))).base_currency, 'USD');
  t.deepEqual(events(), []);

  const start = world.platform.clock.now().getTime();
  const applied = ok(await apply(made.id));
  t.deepEqual(applied, { ...made, applied_at: applied.applied_at });
  const appliedAt = Date.parse(applied.applied_at);
  t.true(appliedAt >= start && appliedAt <= world.platform.clock.now().getTime(), applied.applied_at);

  const organization = await ok(world.owner.get('/settings/organization'));
  t.like(organization, { base_currency: 'EUR', timezone: 'Europe/Berlin', revision: 1 });
  const [location] = (await world.owner.get('/settings/locations')).body.data;
  t.like(location, { name: 'Berlin HQ', timezone: 'Europe/Berlin', address: { street: null, city: 'Berlin', region: null, postal_code: null, country: 'DE' } });
  const [calendar] = (await world.owner.get('/settings/calendars')).body.data;
  t.like(calendar, { name: 'Germany', working_days: [1, 2, 3, 4, 5], hours_per_day: 8, region: 'DE' });
  t.deepEqual((await world.owner.get(`/settings/calendars/${calendar.id}/holidays`)).body.data.map((holiday: { date: string; name: string }) => [holiday.date, holiday.name]), [['2026-12-25', 'Christmas Day']]);
  const roles = (await world.owner.get('/roles')).body.data as Array<{ id: string; name: string; permissions: Record<string, string[]> }>;
  const support = roles.find((role) => role.name === 'Support')!;
  t.deepEqual(
    roles.map((role) => [role.name, role.permissions]),
    [
      ['Sales', { settings: ['settings.*'] }],
      ['Support', { settings: ['settings.calendars.read', 'settings.locations.read'] }],
    ],
  );
  const access = await ok(world.owner.get('/applications/settings/status'));
  t.deepEqual([access.access_policy, [...access.allowed_roles].sort()], ['roles', [salesId, support.id].sort()]);
  t.deepEqual(await ok(world.owner.get('/apps/settings/settings')), { holiday_import_years_ahead: 5 });

  const emitted = events();
  t.deepEqual(
    emitted.map(([action]) => action),
    [
      'core.settings.organization.updated',
      'core.settings.location.created',
      'core.settings.calendar.created',
      'core.settings.holiday.created',
      'core.account.role.created',
      'system.security.role.created',
      'core.account.role.updated',
      'core.settings.import.applied',
    ],
  );
  t.deepEqual(emitted.at(-1), [
    'core.settings.import.applied',
    {
      plan_id: made.id,
      changes: ['update organization', 'create locations.Berlin HQ', 'create calendars.Germany', 'update roles.Sales', 'create roles.Support', 'update apps.settings.access', 'update apps.settings.settings'],
      applied_by: world.owner.id,
    },
  ]);
  t.deepEqual(emitted[4], ['core.account.role.created', { role_id: support.id, role_name: 'Support', created_by: world.owner.id }]);
  const audit = await world.query<{ kind: string; action: string; target: string; status: number }>('SELECT kind, action, target, status FROM platform.admin_audit WHERE workspace_id = :id', { id: world.workspaceId });
  t.deepEqual(audit, [
    {
      kind: 'change',
      action: 'POST /settings/imports/{plan_id}/apply',
      target: `/settings/imports/${made.id}/apply: update organization, create locations.Berlin HQ, create calendars.Germany, update roles.Sales, create roles.Support, update apps.settings.access, update apps.settings.settings`,
      status: 200,
    },
  ]);

  // Export → import of the workspace as it is now plans no change; applying twice is refused.
  const again = ok(await plan(await exported()));
  t.is(again.total_changes, 0);
  const twice = await apply(made.id);
  t.is(twice.status, 409);
  t.regex(twice.body.error, new RegExp(`^The plan ${made.id} was already applied at `));
  t.deepEqual(events(), []);
});

test.serial('a plan made stale by a later change is refused (409 naming the part) and changes nothing', async (t) => {
  const document = await exported();
  document.locations['Paris'] = { timezone: 'Europe/Paris', address: {} };
  delete document.roles.Support;
  document.apps.settings.allowed_roles = ['Sales'];
  const first = ok(await plan(document));
  t.deepEqual([first.locations.changes, first.roles.changes], [[{ path: 'locations.Paris', op: 'create' }], [{ path: 'roles.Support', op: 'delete' }]]);
  ok(await world.owner.request('PUT', '/settings/organization', { legal_name: 'Acme GmbH' }));
  const second = ok(await plan(document));
  await world.owner.request('PUT', '/applications/settings/access', { access_policy: 'everyone' });
  events();
  const before = await exported();

  const stale = await apply(first.id);
  t.deepEqual([stale.status, stale.body], [409, { error: 'The plan is stale: organization, apps changed since it was made; make a new plan' }]);
  const staleToo = await apply(second.id);
  t.deepEqual([staleToo.status, staleToo.body], [409, { error: 'The plan is stale: apps changed since it was made; make a new plan' }]);
  t.deepEqual(await exported(), before);
  t.deepEqual(events(), []);
  t.is((await ok(world.owner.get(`/settings/imports/${first.id}`))).applied_at, null);

  // A new plan of the document (with the organisation as it is now) applies; the role goes with its events.
  document.organization = (await exported()).organization;
  const fresh = ok(await plan(document));
  t.deepEqual(fresh.apps.changes, [{ path: 'apps.settings.access', op: 'update', fields: ['access_policy', 'allowed_roles'] }]);
  ok(await apply(fresh.id));
  t.deepEqual(
    events().map(([action]) => action),
    ['core.settings.location.created', 'core.account.role.deleted', 'core.settings.import.applied'],
  );
  t.deepEqual(Object.keys((await exported()).roles), ['Sales']);
});

test.serial('an expired plan is refused (409) and changes nothing', async (t) => {
  const document = await exported();
  document.organization.week_start = 'sunday';
  const made = ok(await plan(document));
  world.platform.clock.advance(3_600_000);
  const expired = await apply(made.id);
  t.deepEqual([expired.status, expired.body], [409, { error: `The plan ${made.id} expired at ${made.expires_at}; make a new plan` }]);
  t.is((await ok(world.owner.get('/settings/organization'))).week_start, 'monday');
});

test.serial('an invalid document is a 400 naming every failing path, and nothing is stored', async (t) => {
  const plans = async () => (await world.query<{ n: number }>('SELECT count(*)::int AS n FROM app_settings.import_plans WHERE workspace_id = :id', { id: world.workspaceId }))[0].n;
  const before = await plans();
  const document = await exported();
  document.apps.settings.settings = { holiday_import_years_ahead: 11 };
  document.apps['ext.acme.hello'] = { access_policy: 'everyone', allowed_roles: [], redlist: [], settings: null };
  document.apps.tasks = { access_policy: 'everyone', allowed_roles: [], redlist: [], settings: null };
  document.roles.Sales.permissions.settings = ['settings.locations.fly'];
  document.roles.Partners = { permissions: { crm: ['crm deals'] } };
  document.organization.base_currency = 'XYZ';
  document.locations.Paris.timezone = 'Mars/Olympus';
  document.apps.settings.allowed_roles = ['Nobody'];
  const reply = await plan(document);
  t.is(reply.status, 400);
  t.deepEqual(reply.body.error.split('; '), [
    'organization.base_currency: XYZ is not an ISO 4217 currency code (such as EUR or USD)',
    'locations.Paris.timezone: Mars/Olympus is not an IANA time zone (such as Europe/Paris or UTC)',
    'roles.Sales.permissions.settings[0]: "settings.locations.fly" is not a permission of app settings (declared keys or settings.*)',
    'roles.Partners.permissions.crm: "crm deals" is not a permission key of crm ({slug}.{resource}.{action} or crm.*)',
    'apps.settings.allowed_roles[0]: no role "Nobody" in the document\'s roles',
    'apps.settings.settings.holiday_import_years_ahead: must be <= 10',
    'apps.ext.acme.hello: not installed in this workspace (an import does not install apps: install it first with POST /applications/ext.acme.hello/installations, then import again)',
    'apps.tasks: no such app in this workspace (an import does not install apps: install it first with POST /applications/tasks/installations, then import again)',
  ]);
  const format = await plan({ ...(await exported()), format: 'wpk.settings/2' });
  t.is(format.status, 400);
  t.regex(format.body.error, /format/);
  t.is(await plans(), before);
});

test.serial('only owners and admins (settings.imports.manage / exports.read by default) may export and import', async (t) => {
  const member = await world.member(['settings.locations.read']);
  const delegated = await world.member(['settings.exports.read', 'settings.imports.manage']);
  const document = await exported();
  for (const [reply, key] of [
    [await member.get('/settings/export'), 'settings.exports.read'],
    [await plan(document, member), 'settings.imports.manage'],
  ] as const) {
    t.deepEqual([reply.status, reply.body], [403, { error: `Missing permission: ${key}` }]);
  }
  // A member given the keys still cannot reach the platform's part: layer 3.
  const refused = await delegated.get('/settings/export');
  t.deepEqual([refused.status, refused.body], [403, { error: 'Only workspace owners and admins can manage the workspace configuration' }]);
  const admin = await world.workspace.member({ platformRole: 'admin' });
  t.deepEqual(ok(await admin.get('/settings/export')), document);
  const made = ok(await plan(document, admin));
  t.is(made.total_changes, 0);
  t.is((await apply(made.id, member)).status, 403);
  const layer3 = { error: 'Only workspace owners and admins can manage the workspace configuration' };
  for (const reply of [await plan(document, delegated), await delegated.get(`/settings/imports/${made.id}`), await apply(made.id, delegated)]) t.deepEqual([reply.status, reply.body], [403, layer3]);
  t.is((await ok(world.owner.get(`/settings/imports/${made.id}`))).applied_at, null);
});

test.serial("a role's slice of an app this runtime does not load goes through: export → import plans no change, and a new one is created", async (t) => {
  t.is((await world.owner.request('POST', '/roles', { name: 'Partners', permissions: { crm: ['crm.deals.read'] } })).status, 200);
  const document = await exported();
  t.deepEqual(document.roles.Partners, { permissions: { crm: ['crm.deals.read'] } });
  t.is(ok(await plan(document)).total_changes, 0);
  document.roles.Resellers = { permissions: { crm: ['crm.*'] } };
  const made = ok(await plan(document));
  t.deepEqual(made.roles.changes, [{ path: 'roles.Resellers', op: 'create' }]);
  ok(await apply(made.id));
  t.deepEqual((await exported()).roles.Resellers, { permissions: { crm: ['crm.*'] } });
});

test.serial('migration 0003 goes down (the plans with it) and up again', async (t) => {
  t.deepEqual(await world.migrateAppDown('0003-import-plans'), ['0003-import-plans']);
  t.deepEqual(await world.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'app_settings' AND table_name = 'import_plans'"), []);
  t.deepEqual(await world.migrateAppUp(), ['0003-import-plans']);
  t.is(ok(await plan(await exported())).total_changes, 0);
});
