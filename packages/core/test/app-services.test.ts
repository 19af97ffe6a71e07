import test from 'ava';
import { defineApp, defineRoute, Joi, type AppServiceHost } from '@wpk/sdk';
import { startAppsRuntime, TestWorkspace, type AppsTestRuntime } from './helpers/apps.js';

// ctx.secrets (each app's own key) and app services (long-lived parts started with the runtime,
// working in one workspace at a time through their host).

function secretsApp(slug: string) {
  const permission = `ext.acme.${slug}.secrets.manage`;
  return defineApp(
    {
      slug,
      publisher: 'acme',
      name: `Secrets fixture ${slug}`,
      version: '1.0.0',
      permissions: [{ key: permission, label: 'Manage', category: 'Secrets' }],
      authorization: [
        { method: 'POST', path: '/seal', chain: [permission] },
        { method: 'POST', path: '/open', chain: [permission] },
      ],
      events: [{ action: `ext.acme.${slug}.tick.recorded`, description: 'A service tick', schema: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } }],
    },
    {
      routes: [
        defineRoute({ method: 'POST', path: '/seal', chain: [permission], validate: { payload: Joi.object({ text: Joi.string().required() }) }, handler: (request, ctx) => ({ data: { sealed: ctx.secrets.seal((request.payload as { text: string }).text) } }) }),
        defineRoute({ method: 'POST', path: '/open', chain: [permission], validate: { payload: Joi.object({ sealed: Joi.string().required() }) }, handler: (request, ctx) => ({ data: { text: ctx.secrets.open((request.payload as { sealed: string }).sealed) } }) }),
      ],
      // A session kind, so a service can hand out tickets and end sessions (ctx.signaling).
      signaling: { rooms: { permission } },
      services: {
        ticker: {
          start(host: AppServiceHost) {
            hosts.set(slug, host);
            started.push(slug);
          },
          stop() {
            stopped.push(slug);
          },
        },
      },
    },
  );
}

const hosts = new Map<string, AppServiceHost>();
const started: string[] = [];
const stopped: string[] = [];

let env: AppsTestRuntime;
let ws: TestWorkspace;
test.before(async () => {
  env = await startAppsRuntime({ apps: [{ app: secretsApp('one') }, { app: secretsApp('two') }] });
  ws = await TestWorkspace.create(env, 'services');
  await ws.install('ext.acme.one', { access_policy: 'everyone' });
  await ws.install('ext.acme.two', { access_policy: 'everyone' });
});
test.after.always(async () => {
  await env?.close();
});

const post = async (path: string, payload: object) => {
  const response = await env.runtime.server.inject({ method: 'POST', url: path, headers: ws.owner.headers({ 'content-type': 'application/json' }), payload });
  return { status: response.statusCode, body: JSON.parse(response.payload) };
};

test.serial("ctx.secrets seals with a key of the app's own: it opens what it sealed, and another app cannot", async (t) => {
  const sealed = (await post('/ext/acme/one/seal', { text: 'imap-password' })).body.data.sealed as string;
  t.regex(sealed, /^v1\./);
  t.false(sealed.includes('imap-password'));
  t.deepEqual((await post('/ext/acme/one/open', { sealed })).body.data, { text: 'imap-password' });
  t.is((await post('/ext/acme/two/open', { sealed })).status, 500, 'the other app holds another key: the seal does not open');
});

test.serial('services start with runtime.apps.startServices (once), work in a workspace through host.run, and stop with the runtime', async (t) => {
  t.deepEqual(started, []);
  await env.runtime.apps.startServices();
  await env.runtime.apps.startServices();
  t.deepEqual(started, ['one', 'two']);
  const host = hosts.get('one')!;
  t.deepEqual(host.app.id, 'ext.acme.one');
  t.deepEqual(await host.workspaces(), [ws.id]);
  const seen = await host.run(ws.id, async (ctx) => {
    ctx.events.stage('ext.acme.one.tick.recorded', { n: 1 });
    return { workspace: ctx.workspace.subdomain, opened: ctx.secrets.open(ctx.secrets.seal('x')) };
  });
  t.deepEqual(seen, { workspace: 'services', opened: 'x' });
  const [row] = await env.runtime.db.sequelize.query<{ action: string }>("SELECT action FROM platform.events WHERE action = 'ext.acme.one.tick.recorded'", { type: 'SELECT' as never });
  t.is(row?.action, 'ext.acme.one.tick.recorded');
  // ctx.signaling works in a service too: a ticket now, an end queued for after the commit.
  const ticket = await host.run(ws.id, async (ctx) => {
    ctx.signaling.end('rooms', 'r1');
    return ctx.signaling.session('rooms', 'r1');
  });
  t.like(ticket, { session: 'ext.acme.one/rooms/r1' });
  t.regex(ticket!.url, /^wss?:\/\/services\.[^/]+\/signaling$/);
  await t.throwsAsync(host.run(ws.id, async (ctx) => ctx.signaling.session('calls', 'c1')), { message: 'ext.acme.one has no signaling session kind calls (it declares rooms)' });
  await t.throwsAsync(host.run(ws.id, async () => { throw new Error('rolled back'); }), { message: 'rolled back' });
  t.is(await host.run('00000000-0000-4000-8000-000000000000', async () => 'never'), null);
  await env.runtime.apps.stopServices();
  t.deepEqual(stopped, ['two', 'one']);
});
