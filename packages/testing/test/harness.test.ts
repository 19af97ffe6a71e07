import test from 'ava';
import { DataTypes, defineApp, defineModel, definePublicRoute, defineRoute, Joi } from '@wpk/sdk';
import { createTestPlatform, type TestPlatform, type TestWorkspace } from '../src/index.js';

// A small third-party app, defined inline, exercised through everything the harness offers.
const manifest = {
  slug: 'counter',
  publisher: 'test',
  name: 'Counter',
  version: '1.0.0',
  permissions: [
    { key: 'ext.test.counter.counters.read', label: 'Read counters', category: 'Counters' },
    { key: 'ext.test.counter.counters.create', label: 'Create counters', category: 'Counters' },
  ],
  authorization: [
    { method: 'GET', path: '/counters', chain: ['ext.test.counter.counters.read'] },
    { method: 'POST', path: '/counters', chain: ['ext.test.counter.counters.create'] },
    { method: 'GET', path: '/ping', public: true },
  ],
  events: [{ action: 'ext.test.counter.counter.created', description: 'A counter was created.', schema: { type: 'object', properties: { counter_id: { type: 'string' }, name: { type: 'string' } }, required: ['counter_id'] } }],
  subscriptions: [{ action: 'system.app.installed', handler: '/events/system-app-installed' }],
  search: [{ type: 'counter', label: 'Counters', permissions: ['ext.test.counter.counters.read'], names: ['name'], details: [] }],
};

const models = {
  counters: defineModel<{ id: string; name: string }>('counters', {
    id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
    name: { type: DataTypes.STRING(100), allowNull: false },
  }),
};

const app = defineApp(manifest, {
  models,
  migrations: [
    {
      name: '0001-create-counters',
      async up({ query }) {
        await query('CREATE TABLE counters (id uuid PRIMARY KEY, workspace_id uuid NOT NULL, name varchar(100) NOT NULL, created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now())');
      },
      async down({ query }) {
        await query('DROP TABLE counters');
      },
    },
  ],
  routes: [
    defineRoute<typeof models>({ method: 'GET', path: '/counters', handler: async (_request, ctx) => ctx.respond.collection(await ctx.db.counters.findAll({ order: [['name', 'ASC']] }), await ctx.db.counters.count()) }),
    defineRoute<typeof models>({
      method: 'POST',
      path: '/counters',
      validate: { payload: Joi.object({ name: Joi.string().min(1).max(100).required() }) },
      handler: async (request, ctx) => {
        const counter = await ctx.db.counters.create({ name: request.payload.name });
        ctx.events.stage('ext.test.counter.counter.created', { counter_id: counter.id, name: counter.name });
        ctx.search.upsert({ type: 'counter', id: counter.id, title: counter.name, url: `/counters/${counter.id}`, names: [counter.name] });
        return ctx.respond.single({ id: counter.id, name: counter.name });
      },
    }),
    definePublicRoute({ method: 'GET', path: '/ping', handler: () => ({ pong: true }) }),
  ],
  subscriptions: {
    'system.app.installed': async (event, ctx) => {
      if (event.payload.app_slug === 'ext.test.counter') await ctx.db.counters.create({ name: 'first' });
    },
  },
  search: { counter: {} },
});

let platform: TestPlatform;
let ws: TestWorkspace;

test.before(async () => {
  platform = await createTestPlatform({ apps: [app] });
  ws = await platform.workspace('acme');
  await ws.install('ext.test.counter');
});

test.after.always(async () => {
  await platform?.close();
});

test('routes of a third-party app are served under its prefix', (t) => {
  t.is(platform.path('ext.test.counter', '/counters'), '/ext/test/counter/counters');
  t.deepEqual(platform.apps, ['ext.test.counter']);
});

test('a member holding a permission may act; one without is refused with the missing key', async (t) => {
  const writer = await ws.member({ permissions: ['ext.test.counter.counters.create', 'ext.test.counter.counters.read'] });
  const reader = await ws.member({ permissions: ['ext.test.counter.counters.read'] });
  const created = await writer.post('/ext/test/counter/counters', { name: 'visits' });
  t.is(created.status, 200);
  t.is(created.body.data.name, 'visits');
  const refused = await reader.post('/ext/test/counter/counters', { name: 'nope' });
  t.is(refused.status, 403);
  t.deepEqual(refused.body, { error: 'Missing permission: ext.test.counter.counters.create' });
  const outsider = await ws.member();
  t.deepEqual((await outsider.get('/ext/test/counter/counters')).body, { error: "You don't have access to this app" });
});

test('events written to the outbox and search changes are captured per workspace', async (t) => {
  const other = await platform.workspace();
  await other.install('ext.test.counter', { access_policy: 'everyone' });
  const response = await other.owner.post('/ext/test/counter/counters', { name: 'elsewhere' });
  const id = response.body.data.id;
  t.deepEqual(other.events('ext.test.counter.counter.created').map((event) => event.payload), [{ counter_id: id, name: 'elsewhere' }]);
  t.false(ws.events('ext.test.counter.counter.created').some((event) => event.payload.counter_id === id));
  t.like(platform.search.find((change) => change.op === 'upsert' && change.document.id === id), { workspaceId: other.id, app: 'ext.test.counter' });
  t.true(other.events('system.app.installed').length === 1);
});

test('a failed request captures nothing', async (t) => {
  const before = platform.events.length;
  const response = await ws.owner.post('/ext/test/counter/counters', { name: '' });
  t.is(response.status, 400);
  t.deepEqual(response.body, { error: 'name is not allowed to be empty' });
  t.is(platform.events.length, before);
});

test('deliver hands an event to every subscribed app, skipping workspaces without it', async (t) => {
  const bare = await platform.workspace();
  t.deepEqual(await platform.deliver(bare, 'system.app.installed', { app_slug: 'ext.test.counter', installed_by: bare.owner.id }), { 'ext.test.counter': 'skipped' });
  const fresh = await platform.workspace();
  await fresh.install('ext.test.counter', { access_policy: 'everyone' });
  t.deepEqual(await platform.deliver(fresh, 'system.app.installed', { app_slug: 'ext.test.counter', installed_by: fresh.owner.id }), { 'ext.test.counter': 'handled' });
  const rows = await platform.query<{ name: string }>('SELECT name FROM ext_test_counter.counters WHERE workspace_id = :id', { id: fresh.id });
  t.deepEqual(rows, [{ name: 'first' }]);
});

test('API keys: a scoped key holds its scopes only; a full-access key is its member', async (t) => {
  const scoped = await ws.owner.apiKey({ scopes: ['ext.test.counter.counters.read'] });
  t.true(scoped.secret.startsWith('slk_'));
  t.is((await scoped.get('/ext/test/counter/counters')).status, 200);
  t.deepEqual((await scoped.post('/ext/test/counter/counters', { name: 'x' })).body, { error: 'Missing permission: ext.test.counter.counters.create' });
  const full = await ws.owner.apiKey();
  t.is((await full.post('/ext/test/counter/counters', { name: 'by key' })).status, 200);
});

test('public routes answer the anonymous caller', async (t) => {
  const response = await ws.anonymous.get('/ext/test/counter/ping');
  t.is(response.status, 200);
  t.deepEqual(response.body, { pong: true });
});

test('roles can be built from keys and given to members', async (t) => {
  const role = await ws.role('Readers', ['ext.test.counter.counters.read']);
  await ws.allow('ext.test.counter', role);
  const member = await ws.member({ roles: [role] });
  t.is((await member.get('/ext/test/counter/counters')).status, 200);
  await t.throwsAsync(ws.role('Typos', ['ext.test.counter.counter.read']), { message: /is not a permission of app ext\.test\.counter/ });
  await t.throwsAsync(ws.role('Strangers', ['tasks.tasks.read']), { message: 'tasks.tasks.read is not a key of any app loaded in this test platform (ext.test.counter)' });
});

test.serial("an app's migrations go down and up", async (t) => {
  t.deepEqual(await platform.migrateDown('ext.test.counter'), ['0001-create-counters']);
  t.deepEqual(await platform.migrateUp('ext.test.counter'), ['0001-create-counters']);
});

test('an invalid app stops the harness with the problems named', async (t) => {
  const broken = defineApp({ ...manifest, permissions: [] }, {});
  const error = await t.throwsAsync(createTestPlatform({ apps: [broken] }));
  t.regex(error!.message, /^Cannot start: /);
  t.regex(error!.message, /authorization\[0\]\.chain\[0\]: "ext\.test\.counter\.counters\.read" is not a permission this app declares/);
});
