import test from 'ava';
import { listenForSockets, openSocket, quiet, subscribeChannel as subscribe, type TestSocket } from '@wpk/testing';
import { startChatWorld } from './helpers/world.js';

const world = await startChatWorld('livechat');
const sockets = await listenForSockets(world);
const [ann, bob] = await world.members(2);
test.after.always(() => world.close());

async function newChat(): Promise<string> {
  return (await ann.post('/chats', { type: 'group', name: 'Live', participant_mrns: [bob.mrn] })).body.data.id;
}

test.serial('the upgrade is authenticated like any request: no credential, a bad key, a session cookie', async (t) => {
  t.deepEqual(await openSocket(sockets.url, 'livechat', { headers: {} }), { status: 401, body: { error: 'Authentication required' } });
  t.deepEqual(await openSocket(sockets.url, 'livechat', { headers: { authorization: 'Bearer slk_nothing' } }), { status: 401, body: { error: 'Invalid, revoked, or expired API key' } });
  const { cookie } = ann;
  const foreign = await openSocket(sockets.url, 'livechat', { headers: { cookie, origin: 'https://evil.example' } });
  t.is((foreign as { status: number }).status, 403);
  const client = await openSocket(sockets.url, 'livechat', { headers: { cookie } });
  t.true('socket' in client);
  const welcome = await (client as TestSocket).next();
  t.like(welcome, { type: 'welcome', protocol: 'wpk.live.1', member_id: ann.id });
  (client as TestSocket).close();
});

test.serial('a participant receives the chat\'s events in order; a non-participant and a bad channel are refused', async (t) => {
  const chatId = await newChat();
  const outsider = await world.member();
  const outsiderClient = await sockets.connect(outsider);
  t.like(await subscribe(outsiderClient, `chat/chats/${chatId}`), { type: 'error', status: 403, error: `You may not follow chat/chats/${chatId}` });
  t.like(await subscribe(outsiderClient, 'chat/boards/1'), { type: 'error', status: 404 });
  t.like(await subscribe(outsiderClient, 'nonsense'), { type: 'error', status: 400 });
  outsiderClient.close();

  const client = await sockets.connect(bob);
  t.like(await subscribe(client, `chat/chats/${chatId}`), { type: 'subscribed', channel: `chat/chats/${chatId}`, last_id: '0' });
  for (const text of ['one', 'two', 'three', 'four']) t.is((await ann.post(`/chats/${chatId}/messages`, { body: text })).status, 200);
  const bad = await ann.post(`/chats/${chatId}/messages`, { body: '' });
  t.is(bad.status, 400);
  const received: Array<[string, string, string]> = [];
  while (received.length < 4) {
    const message = await client.until((candidate) => candidate.type === 'event');
    received.push([message.id, message.event, message.data.body]);
  }
  t.deepEqual(received, [
    ['1', 'message.sent', 'one'],
    ['2', 'message.sent', 'two'],
    ['3', 'message.sent', 'three'],
    ['4', 'message.sent', 'four'],
  ]);
  t.deepEqual((await quiet(client)).filter((message) => message.type === 'event'), []);
  client.close();
});

test.serial('a client resumes from the last event id it saw, without gaps, also for events too large for NOTIFY', async (t) => {
  const chatId = await newChat();
  let client = await sockets.connect(bob);
  await subscribe(client, `chat/chats/${chatId}`);
  await ann.post(`/chats/${chatId}/messages`, { body: 'before' });
  const seen = await client.until((message) => message.type === 'event');
  t.is(seen.id, '1');
  client.close();
  await client.closed;
  const big = '€'.repeat(3500);
  for (const body of ['missed 1', big, 'missed 3']) await ann.post(`/chats/${chatId}/messages`, { body });
  client = await sockets.connect(bob);
  t.like(await subscribe(client, `chat/chats/${chatId}`, seen.id), { type: 'subscribed', last_id: '4' });
  const replay = [await client.next(), await client.next(), await client.next()];
  t.deepEqual(replay.map((message) => [message.id, message.data.body]), [['2', 'missed 1'], ['3', big], ['4', 'missed 3']]);
  await ann.post(`/chats/${chatId}/messages`, { body: big });
  const live = await client.until((message) => message.type === 'event');
  t.deepEqual([live.id, live.data.body], ['5', big]);
  client.close();
});

test.serial('typing and presence reach the other subscribers', async (t) => {
  const chatId = await newChat();
  const annClient = await sockets.connect(ann);
  await subscribe(annClient, `chat/chats/${chatId}`);
  const bobClient = await sockets.connect(bob);
  const subscribed = await subscribe(bobClient, `chat/chats/${chatId}`);
  t.deepEqual([...subscribed.presence].sort(), [ann.id, bob.id].sort());
  t.like(await annClient.until((message) => message.type === 'presence'), { channel: `chat/chats/${chatId}`, member_id: bob.id, state: 'online' });
  bobClient.send({ type: 'typing', channel: `chat/chats/${chatId}` });
  t.like(await annClient.until((message) => message.type === 'typing'), { channel: `chat/chats/${chatId}`, member_id: bob.id });
  bobClient.send({ type: 'signal', channel: `chat/chats/${chatId}`, ref: 'sig', data: { cursor: 1 } });
  t.deepEqual(await bobClient.until((message) => message.ref === 'sig'), { type: 'error', ref: 'sig', channel: `chat/chats/${chatId}`, status: 403, error: 'Channels of kind chats do not relay signals' }, 'signals are for kinds that declare them');
  bobClient.close();
  t.like(await annClient.until((message) => message.type === 'presence'), { member_id: bob.id, state: 'offline' });
  annClient.close();
});

test.serial('presence left by a process that died without closing its sockets is swept after three missed heartbeats, and announced offline', async (t) => {
  const chatId = await newChat();
  const channel = `chat/chats/${chatId}`;
  const { sequelize } = world.platform.runtime.db;
  // Bob's socket on a process that then died: its row stays, and no heartbeat vouches for it any more.
  await sequelize.query("INSERT INTO platform.live_presence (workspace_id, channel, connection_id, member_id, process_id, seen_at) VALUES ($1, $2, gen_random_uuid(), $3, gen_random_uuid(), $4)", {
    bind: [world.workspace.id, channel, bob.id, world.platform.clock.now()],
  });
  const annClient = await sockets.connect(ann);
  t.deepEqual([...(await subscribe(annClient, channel)).presence].sort(), [ann.id, bob.id].sort());
  world.platform.clock.advance({ seconds: 91 });
  // Stale rows no longer count for a newcomer, even before the sweep.
  const second = await sockets.connect(ann);
  t.deepEqual((await subscribe(second, channel)).presence, [ann.id]);
  await world.platform.runtime.server.plugins.live.hub.tendPresence();
  t.like(await annClient.until((message) => message.type === 'presence' && message.member_id === bob.id), { channel, state: 'offline' });
  const rows = await sequelize.query<{ member_id: string }>('SELECT member_id FROM platform.live_presence WHERE workspace_id = $1 AND channel = $2', { type: 'SELECT' as never, bind: [world.workspace.id, channel] });
  t.deepEqual(rows.map((row) => row.member_id), [ann.id, ann.id], "ann's two sockets were vouched for by the heartbeat and stay");
  annClient.close();
  second.close();
});

test.serial('access lost mid-stream stops delivery at the next event: removed from the chat, app access revoked, key revoked', async (t) => {
  // Removed from the chat: the subscription ends with `revoked`, the next message is not delivered.
  let chatId = await newChat();
  let client = await sockets.connect(bob);
  await subscribe(client, `chat/chats/${chatId}`);
  t.is((await ann.delete(`/chats/${chatId}/participants/${encodeURIComponent(bob.mrn)}`)).status, 200);
  t.like(await client.until((message) => message.type === 'revoked'), { channel: `chat/chats/${chatId}` });
  await ann.post(`/chats/${chatId}/messages`, { body: 'secret' });
  t.deepEqual((await quiet(client)).filter((message) => message.type === 'event'), []);
  client.close();

  // The app closed to the member's roles: the next event is refused at layer 4.
  const carol = await world.member();
  chatId = (await world.owner.post('/chats', { type: 'group', participant_mrns: [carol.mrn] })).body.data.id;
  client = await sockets.connect(carol);
  await subscribe(client, `chat/chats/${chatId}`);
  const access = (await world.platform.runtime.apps.installations.find(world.workspace.id, 'chat'))!;
  t.is((await world.owner.put('/applications/chat/access', { access_policy: 'roles', allowed_roles: [], redlist: [] })).status, 200);
  t.is((await world.owner.post(`/chats/${chatId}/messages`, { body: 'after the door closed' })).status, 200);
  t.like(await client.until((message) => message.type === 'revoked' || message.type === 'event'), { type: 'revoked', error: "You don't have access to this app" });
  t.deepEqual((await quiet(client)).filter((message) => message.type === 'event'), []);
  client.close();
  t.is((await world.owner.put('/applications/chat/access', { access_policy: access.access_policy, allowed_roles: access.allowed_roles, redlist: access.redlist })).status, 200);

  // The key revoked: the socket is closed (4401) and hears nothing more.
  const dave = await world.member();
  chatId = (await ann.post('/chats', { type: 'group', participant_mrns: [dave.mrn] })).body.data.id;
  client = await sockets.connect(dave);
  await subscribe(client, `chat/chats/${chatId}`);
  const [key] = await world.platform.query<{ id: string }>('SELECT id FROM platform.api_keys WHERE member_id = :member', { member: dave.id });
  t.is((await world.owner.delete(`/api-keys/${key.id}`)).status, 200);
  await ann.post(`/chats/${chatId}/messages`, { body: 'not for dave' });
  const closed = await client.closed;
  t.is(closed.code, 4401);
  t.deepEqual(client.pending().filter((message) => message.type === 'event'), []);
});

test.serial('a mention reaches the member\'s own channel', async (t) => {
  const chatId = await newChat();
  const client = await sockets.connect(bob);
  t.like(await subscribe(client, `chat/members/${bob.id}`), { type: 'subscribed' });
  t.like(await subscribe(client, `chat/members/${ann.id}`), { type: 'error', status: 403 });
  await ann.post(`/chats/${chatId}/messages`, { body: `ping <@${bob.id}>` });
  t.like(await client.until((message) => message.type === 'event'), { event: 'mention', data: { chat_id: chatId, mentioner_mrn: ann.mrn } });
  client.close();
});
