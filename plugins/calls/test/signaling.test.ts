import test from 'ava';
import { listenForSockets, openSocket, type TestMember, type TestSocket } from '@wpk/testing';
import { callsWorld } from './helpers/world.js';

const world = await callsWorld('signal');
const sockets = await listenForSockets(world);
const [ann, bob, cyd] = await world.members(3);
test.after.always(() => world.close());

const connect = (member: TestMember) => sockets.connect(member, { path: '/signaling' });

async function join(client: TestSocket, session: string): Promise<Record<string, any>> {
  client.send({ type: 'join', session, ref: 'j' });
  return client.until((message) => message.type === 'joined' || message.type === 'error');
}

async function activeCall(): Promise<string> {
  const call = (await ann.post('/calls', { title: 'Signal', participant_mrns: [bob.mrn, cyd.mrn] })).body.data;
  await ann.post(`/calls/${call.id}/sessions`, {});
  await bob.post(`/calls/${call.id}/sessions`, {});
  return call.id;
}

test.serial('the upgrade is judged like any request: no credential, a bad key, another site with the cookie; welcome names the peer', async (t) => {
  t.deepEqual(await openSocket(sockets.url, 'signal', { path: '/signaling', headers: {} }), { status: 401, body: { error: 'Authentication required' } });
  t.deepEqual(await openSocket(sockets.url, 'signal', { path: '/signaling', headers: { authorization: 'Bearer slk_nothing' } }), { status: 401, body: { error: 'Invalid, revoked, or expired API key' } });
  const { cookie } = ann;
  const foreign = await openSocket(sockets.url, 'signal', { path: '/signaling', headers: { cookie, origin: 'https://evil.example' } });
  t.deepEqual(foreign, { status: 403, body: { error: 'Origin "https://evil.example" may not open a signaling socket with this site\'s session' } });
  const client = await openSocket(sockets.url, 'signal', { path: '/signaling', headers: { cookie } });
  t.true('socket' in client);
  t.like(await (client as TestSocket).next(), { type: 'welcome', protocol: 'wpk.signaling.1', member_id: ann.id });
  (client as TestSocket).close();
});

test.serial('join is refused without the permission, for a call one did not join, a bad session or an unknown kind', async (t) => {
  const id = await activeCall();
  const session = `calls/calls/${id}`;
  const stranger = await world.member(['calls.calls.read']);
  const strangerClient = await connect(stranger);
  t.like(await join(strangerClient, session), { type: 'error', ref: 'j', status: 403, error: 'Missing permission: calls.calls.join' });
  const cydClient = await connect(cyd);
  t.like(await join(cydClient, session), { type: 'error', status: 403, error: `You may not join ${session}` });
  t.like(await join(cydClient, 'calls/rooms/x'), { type: 'error', status: 404, error: 'No signaling session kind rooms in app calls' });
  t.like(await join(cydClient, 'not a session'), { type: 'error', status: 400 });
  cydClient.send({ type: 'signal', to: 'x', data: {} });
  t.like(await cydClient.next(), { type: 'error', status: 409, error: 'Join a session before sending signals' });
  strangerClient.close();
  cydClient.close();
});

test.serial('peers of one session hear each other join and leave, and signals reach only the peer named', async (t) => {
  const id = await activeCall();
  const session = `calls/calls/${id}`;
  const annClient = await connect(ann);
  const bobClient = await connect(bob);
  const annJoined = await join(annClient, session);
  t.like(annJoined, { type: 'joined', ref: 'j', session, peers: [] });
  const bobJoined = await join(bobClient, session);
  t.deepEqual(bobJoined.peers, [{ peer_id: annJoined.peer_id, member_id: ann.id, name: ann.name }]);
  t.like(await annClient.next(), { type: 'peer.joined', session, peer_id: bobJoined.peer_id, member_id: bob.id });
  const offer = { sdp: { type: 'offer', sdp: 'v=0…' } };
  annClient.send({ type: 'signal', to: bobJoined.peer_id, data: offer });
  t.deepEqual(await bobClient.next(), { type: 'signal', session, from: annJoined.peer_id, member_id: ann.id, data: offer });
  annClient.send({ type: 'signal', to: 'someone-else', data: {} });
  t.like(await annClient.next(), { type: 'error', status: 404, error: `No peer "someone-else" in session ${session}` });
  bobClient.send({ type: 'join', session });
  t.like(await bobClient.next(), { type: 'error', status: 409 });

  // Leaving the call over HTTP takes the member's peers out of the session.
  t.is((await bob.delete(`/calls/${id}/sessions`)).status, 200);
  t.like(await bobClient.next(), { type: 'removed', session });
  t.like(await annClient.next(), { type: 'peer.left', session, peer_id: bobJoined.peer_id, member_id: bob.id });
  // The last one out ends the call: the session closes for everyone.
  t.is((await ann.delete(`/calls/${id}/sessions`)).status, 200);
  t.like(await annClient.next(), { type: 'removed', session });
  annClient.close();
  bobClient.close();
});

test.serial('a host ending the call ends the session for every peer; a frame over 64 kB closes the socket', async (t) => {
  const id = await activeCall();
  const session = `calls/calls/${id}`;
  const bobClient = await connect(bob);
  await join(bobClient, session);
  t.is((await ann.patch(`/calls/${id}`, { status: 'ended' })).status, 200);
  t.like(await bobClient.until((message) => message.type === 'ended'), { type: 'ended', session });
  bobClient.send({ type: 'ping', ref: 'p' });
  t.deepEqual(await bobClient.next(), { type: 'pong', ref: 'p' });
  bobClient.send({ type: 'signal', to: 'x', data: 'y'.repeat(70_000) });
  t.is((await bobClient.closed).code, 1009);
});
