import test from 'ava';
import { defineApp, defineRoute, Joi } from '@wpk/sdk';
import { API_VERSION, createTestPlatform, TestClock, type TestPlatform, type TestWorkspace } from '../src/index.js';

// The platform's clock moves for everyone on it: these tests run one after another.

const app = defineApp(
  {
    slug: 'gate',
    publisher: 'test',
    name: 'Gate',
    version: '1.0.0',
    permissions: [{ key: 'ext.test.gate.doors.use', label: 'Use doors', category: 'Doors' }],
    authorization: [
      { method: 'GET', path: '/doors', chain: ['ext.test.gate.doors.use'] },
      // A check no caller passes: a permission matrix over this table must fail.
      { method: 'POST', path: '/doors', chain: ['ext.test.gate.doors.use', { check: 'never' }] },
    ],
  },
  {
    checks: { never: () => ({ deny: 'The doors stay shut' }) },
    routes: [
      defineRoute({ method: 'GET', path: '/doors', chain: ['ext.test.gate.doors.use'], handler: (_request, ctx) => ctx.respond.single({ open: true }) }),
      defineRoute({ method: 'POST', path: '/doors', chain: ['ext.test.gate.doors.use', { check: 'never' }], validate: { payload: Joi.object({}) }, handler: (_request, ctx) => ctx.respond.single({ opened: true }) }),
    ],
  },
);

let platform: TestPlatform;
let ws: TestWorkspace;
const start = new Date('2030-01-01T09:00:00Z');

test.before(async () => {
  platform = await createTestPlatform({ apps: [app], clock: new TestClock(start) });
  ws = await platform.workspace('gate');
  await ws.install('ext.test.gate', { access_policy: 'everyone' });
});

test.after.always(async () => {
  await platform?.close();
});

test.serial('the runtime reads the harness clock: events are stamped with it', (t) => {
  const [installed] = ws.events('system.app.installed');
  const stamped = new Date(installed.metadata.emitted_at as string).getTime();
  t.true(stamped >= start.getTime() && stamped < start.getTime() + 60_000, `emitted_at ${String(installed.metadata.emitted_at)}`);
});

test.serial('an API key expires when the clock passes its expiry', async (t) => {
  const response = await ws.owner.post('/api-keys', { name: 'short-lived', full_access: true, expires_at: new Date(platform.clock.now().getTime() + 3_600_000).toISOString() });
  t.is(response.status, 200);
  const key = response.body.data.secret as string;
  const asKey = { host: `gate.${platform.runtime.config.baseDomain}`, 'x-api-version': API_VERSION, authorization: `Bearer ${key}` };
  t.is((await platform.runtime.server.inject({ method: 'GET', url: '/ext/test/gate/doors', headers: asKey })).statusCode, 200);
  platform.clock.advance({ hours: 2 });
  const expired = await platform.runtime.server.inject({ method: 'GET', url: '/ext/test/gate/doors', headers: asKey });
  t.is(expired.statusCode, 401);
});

test.serial('a throttle window opens again when the clock moves past it', async (t) => {
  const signup = (subdomain: string) =>
    platform.runtime.server.inject({
      method: 'POST',
      url: '/signup',
      headers: { host: platform.runtime.config.baseDomain, 'x-api-version': API_VERSION, 'content-type': 'application/json' },
      payload: { email: 'eager@example.test', name: 'Eager', workspace_name: 'Eager', subdomain },
    });
  for (let attempt = 1; attempt <= 5; attempt += 1) t.is((await signup(`eager${attempt}`)).statusCode, 200, `attempt ${attempt}`);
  const refused = await signup('eager6');
  t.is(refused.statusCode, 429);
  t.deepEqual(JSON.parse(refused.payload), { error: 'Too many mails requested for this address; try again later' });
  platform.clock.advance({ minutes: 61 });
  t.is((await signup('eager7')).statusCode, 200);
});

test.serial('the clock only moves forward', (t) => {
  t.throws(() => platform.clock.set(start), { message: 'TestClock.set: the clock only moves forward' });
  t.throws(() => platform.clock.advance(-1), { message: 'TestClock.advance: the clock only moves forward' });
});

test.serial('the permission matrix fails naming the route a holder of its keys cannot pass', async (t) => {
  const error = await t.throwsAsync(ws.permissionMatrix('ext.test.gate'));
  t.is(error!.message, 'The permission matrix of ext.test.gate does not hold:\n  POST /doors: a member holding ext.test.gate.doors.use was refused at layer 5: The doors stay shut');
});

// Last: the owner's session ends too.
test.serial('a session ends when the clock passes its lifetime', async (t) => {
  const member = await ws.member({ permissions: ['ext.test.gate.doors.use'] });
  t.is((await member.get('/ext/test/gate/doors')).status, 200);
  platform.clock.advance({ days: 15 });
  t.is((await member.get('/ext/test/gate/doors')).status, 401);
});
