import test from 'ava';
import { DataTypes, NotFoundError, defineApp, defineModel, definePublicRoute, defineRoute, Joi, RetryDeliveryError } from '@wpk/sdk';
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
    { method: 'POST', path: '/counters/{counter_id}/ticks', chain: ['ext.test.counter.counters.create'] },
    { method: 'GET', path: '/counters/{counter_id}', chain: [{ any_of: ['ext.test.counter.counters.read', 'ext.test.counter.counters.create'] }] },
  ],
  events: [
    { action: 'ext.test.counter.counter.created', description: 'A counter was created.', schema: { type: 'object', properties: { counter_id: { type: 'string' }, name: { type: 'string' } }, required: ['counter_id'] } },
    {
      action: 'ext.test.counter.counter.reminded',
      description: 'A reminder about a counter came due.',
      schema: { type: 'object', properties: { counter_id: { type: 'string' }, secret: { type: 'string' } }, required: ['counter_id'], additionalProperties: false },
      redact: ['secret'],
    },
  ],
  subscriptions: [
    { action: 'system.app.installed', handler: '/events/system-app-installed' },
    { action: 'ext.test.counter.counter.reminded', handler: '/events/reminded' },
  ],
  search: [{ type: 'counter', label: 'Counters', permissions: ['ext.test.counter.counters.read'], names: ['name'], details: [] }],
};

const models = {
  counters: defineModel<{ id: string; name: string }>('counters', {
    id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
    name: { type: DataTypes.STRING(100), allowNull: false },
  }),
};

/** What the reminder handler saw, to check the delivered payload (redacted fields arrive in clear). */
const reminders: Array<Record<string, unknown>> = [];

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
    defineRoute<typeof models>({ method: 'GET', path: '/counters', chain: ['ext.test.counter.counters.read'], handler: async (_request, ctx) => ctx.respond.collection(await ctx.db.counters.findAll({ order: [['name', 'ASC']] }), await ctx.db.counters.count()) }),
    defineRoute<typeof models>({
      method: 'POST',
      path: '/counters',
      chain: ['ext.test.counter.counters.create'],
      validate: { payload: Joi.object({ name: Joi.string().min(1).max(100).required() }) },
      handler: async (request, ctx) => {
        const counter = await ctx.db.counters.create({ name: request.payload.name });
        ctx.events.stage('ext.test.counter.counter.created', { counter_id: counter.id, name: counter.name });
        if (request.payload.name === 'remind me') ctx.events.stage('ext.test.counter.counter.reminded', { counter_id: counter.id, secret: 's3cret', unused: null }, {}, { deliverAt: new Date(Date.now() + 3_600_000) });
        // A payload that breaks the declared schema: counter_id is a number, and `extra` is not declared.
        if (request.payload.name === 'bad event') ctx.events.stage('ext.test.counter.counter.reminded', { counter_id: 42, extra: true });
        ctx.search.upsert({ type: 'counter', id: counter.id, title: counter.name, url: `/counters/${counter.id}`, names: [counter.name] });
        return ctx.respond.single({ id: counter.id, name: counter.name });
      },
    }),
    definePublicRoute({ method: 'GET', path: '/ping', handler: () => ({ pong: true }) }),
    defineRoute<typeof models>({ method: 'POST', path: '/counters/{counter_id}/ticks', chain: ['ext.test.counter.counters.create'], handler: async (request, ctx) => ctx.respond.single({ counter_id: request.params.counter_id }) }),
    defineRoute<typeof models>({
      method: 'GET',
      path: '/counters/{counter_id}',
      chain: [{ any_of: ['ext.test.counter.counters.read', 'ext.test.counter.counters.create'] }],
      handler: async (request, ctx) => {
        const counter = await ctx.db.counters.findById(request.params.counter_id);
        if (!counter) throw new NotFoundError(`No counter ${request.params.counter_id}`);
        return ctx.respond.single(counter);
      },
    }),
  ],
  subscriptions: {
    'system.app.installed': async (event, ctx) => {
      if (event.payload.app_slug === 'ext.test.counter') await ctx.db.counters.create({ name: 'first' });
      if (event.payload.app_slug === 'fail') throw new Error('this handler fails for good');
      if (event.payload.app_slug === 'retry') throw new RetryDeliveryError('not now');
    },
    'ext.test.counter.counter.reminded': async (event, ctx) => {
      reminders.push(event.payload);
      await ctx.db.counters.create({ name: `reminded ${String(event.payload.counter_id)}` });
      ctx.mail.send({ to: 'owner@example.test', subject: `Reminder: counter ${String(event.payload.counter_id)}`, text: 'Your counter is due.', attachments: [{ filename: 'counter.txt', contentType: 'text/plain', content: 'due' }] });
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
  const still = await platform.workspace();
  await still.install('ext.test.counter', { access_policy: 'everyone' });
  const before = still.events().length;
  const response = await still.owner.post('/ext/test/counter/counters', { name: '' });
  t.is(response.status, 400);
  t.deepEqual(response.body, { error: 'name is not allowed to be empty', field: 'name' });
  t.is(still.events().length, before);
});

test('a payload that breaks its schema fails where it is staged: 500, no row, no event', async (t) => {
  const quiet = await platform.workspace();
  await quiet.install('ext.test.counter', { access_policy: 'everyone' });
  const before = quiet.events().length;
  const response = await quiet.owner.post('/ext/test/counter/counters', { name: 'bad event' });
  t.is(response.status, 500);
  t.deepEqual(await platform.query('SELECT name FROM ext_test_counter.counters WHERE workspace_id = :id', { id: quiet.id }), []);
  t.is(quiet.events().length, before);
});

test('events the platform stages itself are captured too, with their metadata', async (t) => {
  const member = await ws.member();
  const added = ws.events('system.workspace.member.added').find((event) => event.payload.member_id === member.id);
  t.like(added, { emitter: 'system', payload: { member_id: member.id, role: 'member' }, workspaceId: ws.id, deliverAt: null });
  t.is(added!.metadata.event_id, added!.id);
});

test('member({ permissions }) can be called any number of times with the same keys', async (t) => {
  const keys = ['ext.test.counter.counters.read'];
  const [first, second] = await Promise.all([ws.member({ permissions: keys }), ws.member({ permissions: keys })]);
  const third = await ws.member({ permissions: [...keys].reverse() });
  for (const member of [first, second, third]) t.is((await member.get('/ext/test/counter/counters')).status, 200);
  t.is(new Set([first.id, second.id, third.id]).size, 3);
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

test('deliver goes through the signed delivery path: permanent failures answer 200 and count as failed, transient ones ask for a retry', async (t) => {
  const fresh = await platform.workspace();
  await fresh.install('ext.test.counter', { access_policy: 'everyone' });
  t.deepEqual(await platform.deliver(fresh, 'system.app.installed', { app_slug: 'fail', installed_by: fresh.owner.id }), { 'ext.test.counter': 'failed' });
  t.deepEqual(await platform.deliver(fresh, 'system.app.installed', { app_slug: 'retry', installed_by: fresh.owner.id }), { 'ext.test.counter': 'retry' });
  // The broker would reject this event: its payload breaks the catalog's schema.
  await t.throwsAsync(platform.deliver(fresh, 'system.app.installed', { installed_by: 7 }), { message: /^system\.app\.installed: the broker would reject this event: .*app_slug/ });
  // The mounted handler checks the signature as in production.
  const request = platform.runtime.events.deliveryRequest({ subscriber: 'ext.test.counter', handler: '/events/system-app-installed', workspaceId: fresh.id, action: 'system.app.installed', payload: { app_slug: 'x', installed_by: fresh.owner.id } });
  const forged = await platform.runtime.server.inject({ method: 'POST', url: request.path, headers: { ...request.headers, 'x-broker-signature': `sha256=${'0'.repeat(64)}` }, payload: request.body });
  t.is(forged.statusCode, 401);
});

test('delayed events are delivered once the clock reaches them, redacted fields in clear and nulls removed', async (t) => {
  const later = await platform.workspace();
  await later.install('ext.test.counter', { access_policy: 'everyone' });
  // The installation's own event is due at once: delivered, the app creates its first counter.
  const created = await later.owner.post('/ext/test/counter/counters', { name: 'remind me' });
  const counterId = created.body.data.id as string;
  const [reminder] = later.events('ext.test.counter.counter.reminded');
  t.deepEqual(reminder.payload, { counter_id: counterId, secret: 's3cret' });
  t.truthy(reminder.deliverAt);
  const early = await platform.deliverDue(later);
  t.false(early.some((done) => done.event.id === reminder.id));
  platform.clock.advance({ hours: 2 });
  const due = await platform.deliverDue(later);
  t.deepEqual(due.find((done) => done.event.id === reminder.id)?.outcomes, { 'ext.test.counter': 'handled' });
  t.deepEqual(reminders.find((payload) => payload.counter_id === counterId), { counter_id: counterId, secret: 's3cret' });
  t.deepEqual(await platform.query('SELECT name FROM ext_test_counter.counters WHERE workspace_id = :id ORDER BY name', { id: later.id }), [{ name: 'first' }, { name: 'remind me' }, { name: `reminded ${counterId}` }]);
  t.false((await platform.deliverDue(later)).some((done) => done.event.id === reminder.id));
  // The handler's mail left after its delivery committed; drainMail() waits for it.
  const mails = (await platform.drainMail()).filter((mail) => mail.subject === `Reminder: counter ${counterId}`);
  t.deepEqual(mails, [{ to: ['owner@example.test'], subject: `Reminder: counter ${counterId}`, text: 'Your counter is due.', fromName: 'Counter', attachments: [{ filename: 'counter.txt', contentType: 'text/plain', content: Buffer.from('due').toString('base64'), encoding: 'base64' }] }]);
});

test('the permission matrix proves every route of the authorization table', async (t) => {
  const rows = await ws.permissionMatrix('ext.test.counter', { payloads: { 'POST /counters': { name: 'from the matrix' } } });
  t.deepEqual(
    rows.map((row) => [row.route, row.skipped ?? row.without!.status, row.with?.status ?? null]),
    [
      ['GET /counters', 403, 200],
      ['POST /counters', 403, 200],
      ['GET /ping', 'public route', null],
      ['POST /counters/{counter_id}/ticks', 403, 200],
      ['GET /counters/{counter_id}', 403, 404],
    ],
  );
  t.deepEqual(rows[1].without!.body, { error: 'Missing permission: ext.test.counter.counters.create' });
  t.deepEqual(rows[4].without!.body, { error: 'Missing permission: ext.test.counter.counters.create' });
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
