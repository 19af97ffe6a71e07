import test from 'ava';
import { defineApp, defineRoute } from '@wpk/sdk';
import { listenForSockets, openSocket, startWorld, subscribeChannel, type World, type WorldSockets } from '../src/index.js';

// listenForSockets: the world's server listening, and welcomed sockets as its members with one
// API key each; subscribeChannel's answer; a member's session cookie opens a socket too.

const READ = 'ext.test.pulse.beats.read';
const routes = [defineRoute({ method: 'GET', path: '/beats', chain: [READ], handler: (_request, ctx) => ctx.respond.single({ beats: 0 }) })];
const app = defineApp(
  {
    slug: 'pulse',
    publisher: 'test',
    name: 'Pulse',
    version: '1.0.0',
    permissions: [{ key: READ, label: 'Read beats', category: 'Beats' }],
    authorization: routes.map(({ method, path, chain }) => ({ method, path, chain })),
  },
  { routes },
);

let world: World;
let sockets: WorldSockets;

test.before(async () => {
  world = await startWorld({ app, subdomain: 'pulse', memberKeys: [READ] });
  sockets = await listenForSockets(world);
});
test.after.always(() => world?.close());

test.serial('connect opens a welcomed /live socket as the member with one API key, made once; the welcome is kept', async (t) => {
  const ann = await world.member();
  const first = await sockets.connect(ann);
  const second = await sockets.connect(ann);
  t.like(first.welcome, { type: 'welcome', protocol: 'wpk.live.1', member_id: ann.id });
  t.not(first.welcome.connection_id, second.welcome.connection_id);
  t.is(await sockets.keyOf(ann), await sockets.keyOf(ann));
  t.deepEqual(await world.query('SELECT count(*)::int AS keys FROM platform.api_keys WHERE member_id = :id', { id: ann.id }), [{ keys: 1 }]);
  t.deepEqual(await subscribeChannel(first, 'nonsense'), { type: 'error', ref: 's1', status: 400, error: 'channel must be {app}/{kind}/{id} (letters, digits, - and _)' });
  first.close();
  second.close();
});

test.serial("connect opens /signaling when asked; the member's session cookie opens a socket as that member", async (t) => {
  const bob = await world.member();
  const signaling = await sockets.connect(bob, { path: '/signaling' });
  t.like(signaling.welcome, { type: 'welcome', protocol: 'wpk.signaling.1', member_id: bob.id });
  signaling.close();
  const opened = await openSocket(sockets.url, 'pulse', { headers: { cookie: bob.cookie } });
  if (!('socket' in opened)) return t.fail(`refused: ${opened.status}`);
  t.like(await opened.next(), { type: 'welcome', member_id: bob.id });
  opened.close();
});
