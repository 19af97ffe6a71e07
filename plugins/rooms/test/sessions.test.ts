import test from 'ava';
import { listenForSockets, ok, type TestMember } from '@wpk/testing';
import { roomsWorld } from './helpers/world.js';

const { world, ann, bob, cid } = await roomsWorld('roomcalls');
const sockets = await listenForSockets(world);
test.after.always(() => world.close());

const join = (member: TestMember, roomId: string) => member.post(`/rooms/${roomId}/sessions`, {});

test.serial('POST /rooms/{id}/sessions answers the signaling ticket and who is present, records the caller once; session.joined once', async (t) => {
  const room = ok(await ann.post('/rooms', { name: 'Daily', members: [{ member_mrn: bob.mrn }] }));
  world.takeEvents();
  const first = ok(await join(ann, room.id));
  t.deepEqual(first, {
    room_id: room.id,
    member_mrn: ann.mrn,
    joined_at: first.joined_at,
    signaling: { url: first.signaling.url, session: `rooms/rooms/${room.id}`, ice_servers: first.signaling.ice_servers },
    present_mrns: [ann.mrn],
  });
  t.regex(first.signaling.url, /^wss?:\/\/roomcalls\.[^/]+\/signaling$/);
  t.true(Array.isArray(first.signaling.ice_servers));
  const again = ok(await join(ann, room.id));
  t.is(again.joined_at, first.joined_at);
  const second = ok(await join(bob, room.id));
  t.deepEqual(second.present_mrns, [ann.mrn, bob.mrn]);
  t.deepEqual(ok(await ann.get(`/rooms/${room.id}`)).present_mrns, [ann.mrn, bob.mrn]);
  t.deepEqual(ok(await ann.get(`/rooms/${room.id}/members`)).map((row: any) => [row.member_mrn, row.present]), [[ann.mrn, true], [bob.mrn, true]]);
  t.deepEqual(world.takeEvents(), [
    { action: 'core.rooms.session.joined', payload: { room_id: room.id, member_mrn: ann.mrn } },
    { action: 'core.rooms.session.joined', payload: { room_id: room.id, member_mrn: bob.mrn } },
  ]);
});

test.serial('a room open to the workspace lets anyone who sees it join; a private one is a 404 to others; a locked one admits owners and moderators only; a full one nobody new', async (t) => {
  const open = ok(await ann.post('/rooms', { name: 'Open floor', max_participants: 2 }));
  const priv = ok(await ann.post('/rooms', { name: 'Private call', visibility: 'private' }));
  const locked = ok(await ann.post('/rooms', { name: 'Locked call', locked: true, members: [{ member_mrn: bob.mrn, role: 'moderator' }, { member_mrn: cid.mrn }] }));
  world.takeEvents();
  t.deepEqual(ok(await join(cid, open.id)).present_mrns, [cid.mrn]);
  t.deepEqual(ok(await join(bob, open.id)).present_mrns, [cid.mrn, bob.mrn]);
  const full = await join(ann, open.id);
  t.deepEqual([full.status, full.body], [409, { error: 'Room Open floor is full: 2 of 2 people are in its session' }]);
  const hidden = await join(cid, priv.id);
  t.deepEqual([hidden.status, hidden.body], [404, { error: `Room ${priv.id} not found` }]);
  const refused = await join(cid, locked.id);
  t.deepEqual([refused.status, refused.body], [403, { error: 'Room Locked call is locked: only its owners and moderators may join' }]);
  t.is((await join(bob, locked.id)).status, 200);
  t.deepEqual(world.takeEvents().map((event) => [event.payload.member_mrn, event.payload.room_id]), [[cid.mrn, open.id], [bob.mrn, open.id], [bob.mrn, locked.id]]);
});

test.serial('DELETE /rooms/{id}/sessions: the caller leaves; a moderator disconnects someone; leaving twice is a 404; session.left once each', async (t) => {
  const room = ok(await ann.post('/rooms', { name: 'Leaving', members: [{ member_mrn: bob.mrn, role: 'moderator' }, { member_mrn: cid.mrn }] }));
  for (const member of [ann, bob, cid]) ok(await join(member, room.id));
  world.takeEvents();
  const byMember = await cid.delete(`/rooms/${room.id}/sessions?member_mrn=${encodeURIComponent(bob.mrn)}`);
  t.deepEqual([byMember.status, byMember.body], [403, { error: "Only the room's owners and moderators may disconnect someone else" }]);
  t.deepEqual(ok(await bob.delete(`/rooms/${room.id}/sessions?member_mrn=${encodeURIComponent(cid.mrn)}`)), { room_id: room.id, member_mrn: cid.mrn, left: true, present_mrns: [ann.mrn, bob.mrn] });
  t.deepEqual(ok(await ann.delete(`/rooms/${room.id}/sessions`)), { room_id: room.id, member_mrn: ann.mrn, left: true, present_mrns: [bob.mrn] });
  const twice = await ann.delete(`/rooms/${room.id}/sessions`);
  t.deepEqual([twice.status, twice.body], [404, { error: "You are not in room Leaving's session" }]);
  const absent = await bob.delete(`/rooms/${room.id}/sessions?member_mrn=${encodeURIComponent(cid.mrn)}`);
  t.deepEqual([absent.status, absent.body], [404, { error: `member_mrn: ${cid.mrn} is not in room Leaving's session` }]);
  t.deepEqual(world.takeEvents(), [
    { action: 'core.rooms.session.left', payload: { room_id: room.id, member_mrn: cid.mrn, by_mrn: bob.mrn } },
    { action: 'core.rooms.session.left', payload: { room_id: room.id, member_mrn: ann.mrn } },
  ]);
});

test.serial('removing a present member, turning the room private, or the workspace removing them takes them out of the session too', async (t) => {
  const room = ok(await ann.post('/rooms', { name: 'Shrinking', members: [{ member_mrn: bob.mrn }] }));
  const dave = await world.member();
  for (const member of [ann, bob, cid, dave]) ok(await join(member, room.id));
  world.takeEvents();
  ok(await ann.delete(`/rooms/${room.id}/members/${encodeURIComponent(bob.mrn)}`));
  ok(await ann.patch(`/rooms/${room.id}`, { visibility: 'private' }));
  t.deepEqual(world.takeEvents(), [
    { action: 'core.rooms.member.removed', payload: { room_id: room.id, member_mrn: bob.mrn, removed_by_mrn: ann.mrn } },
    { action: 'core.rooms.session.left', payload: { room_id: room.id, member_mrn: bob.mrn, by_mrn: ann.mrn } },
    { action: 'core.rooms.room.updated', payload: { room_id: room.id, changes: { visibility: 'private' }, updated_by_mrn: ann.mrn } },
    ...[cid, dave].map((member) => ({ action: 'core.rooms.session.left', payload: { room_id: room.id, member_mrn: member.mrn, by_mrn: ann.mrn } })),
  ]);
  const other = ok(await ann.post('/rooms', { name: 'Other call', members: [{ member_mrn: dave.mrn }] }));
  ok(await join(dave, other.id));
  world.takeEvents();
  await world.platform.deliver(world.workspace, 'core.account.member.removed', { member_id: dave.id });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.rooms.session.left', payload: { room_id: other.id, member_mrn: dave.mrn } },
    { action: 'core.rooms.member.removed', payload: { room_id: other.id, member_mrn: dave.mrn } },
  ]);
  t.deepEqual(ok(await ann.get(`/rooms/${other.id}`)).present_mrns, []);
});

test.serial('?member_mrn= names a member of this workspace: a stranger is a 400; one removed a moment ago (before the app heard of it) can still be disconnected', async (t) => {
  const erin = await world.member();
  const room = ok(await ann.post('/rooms', { name: 'Farewell', members: [{ member_mrn: erin.mrn }] }));
  ok(await join(erin, room.id));
  const stranger = `mrn:account:member:${'00000000-0000-4000-8000-000000000abc'}`;
  const refused = await ann.delete(`/rooms/${room.id}/sessions?member_mrn=${encodeURIComponent(stranger)}`);
  t.deepEqual([refused.status, refused.body], [400, { error: `query parameter member_mrn ${stranger} is not a member of this workspace` }]);
  t.is((await world.owner.delete(`/members/${erin.id}`)).status, 200);
  world.takeEvents();
  t.deepEqual(ok(await ann.delete(`/rooms/${room.id}/sessions?member_mrn=${encodeURIComponent(erin.mrn)}`)), { room_id: room.id, member_mrn: erin.mrn, left: true, present_mrns: [] });
  t.deepEqual(world.takeEvents(), [{ action: 'core.rooms.session.left', payload: { room_id: room.id, member_mrn: erin.mrn, by_mrn: ann.mrn } }]);
});

test.serial('the signaling socket admits to a room\'s session only who joined it over HTTP; disconnecting and deleting the room reach the peers', async (t) => {
  const room = ok(await ann.post('/rooms', { name: 'Wired', members: [{ member_mrn: bob.mrn, role: 'moderator' }] }));
  const priv = ok(await bob.post('/rooms', { name: 'Wired private', visibility: 'private' }));
  const session = `rooms/rooms/${room.id}`;
  const annSocket = await sockets.connect(ann, { path: '/signaling' });
  const bobSocket = await sockets.connect(bob, { path: '/signaling' });
  const cidSocket = await sockets.connect(cid, { path: '/signaling' });
  try {
    annSocket.send({ type: 'join', session, ref: 'early' });
    t.deepEqual(await annSocket.next(), { type: 'error', ref: 'early', session, status: 403, error: `You may not join ${session}` });
    cidSocket.send({ type: 'join', session: `rooms/rooms/${priv.id}`, ref: 'p' });
    t.like(await cidSocket.next(), { type: 'error', status: 403 });
    ok(await join(ann, room.id));
    ok(await join(bob, room.id));
    annSocket.send({ type: 'join', session, ref: 'a' });
    const joined = await annSocket.next();
    t.like(joined, { type: 'joined', ref: 'a', session, peers: [] });
    bobSocket.send({ type: 'join', session, ref: 'b' });
    t.like(await bobSocket.next(), { type: 'joined', session, peers: [{ peer_id: joined.peer_id, member_id: ann.id }] });
    t.like(await annSocket.next(), { type: 'peer.joined', session, member_id: bob.id });
    ok(await bob.delete(`/rooms/${room.id}/sessions?member_mrn=${encodeURIComponent(ann.mrn)}`));
    t.deepEqual(await annSocket.until((message) => message.type === 'removed'), { type: 'removed', session });
    t.like(await bobSocket.until((message) => message.type === 'peer.left'), { type: 'peer.left', session, member_id: ann.id });
    ok(await ann.delete(`/rooms/${room.id}`));
    t.like(await bobSocket.until((message) => message.type === 'ended'), { type: 'ended', session });
  } finally {
    for (const socket of [annSocket, bobSocket, cidSocket]) socket.close();
  }
});

test.serial('concurrent joins never overfill a room: with one place left, one of three joins gets in', async (t) => {
  const room = ok(await ann.post('/rooms', { name: 'Race', max_participants: 2 }));
  ok(await join(ann, room.id));
  const others = [bob, cid, await world.member()];
  const replies = await Promise.all(others.map((member) => join(member, room.id)));
  t.deepEqual(replies.map((reply) => reply.status).sort(), [200, 409, 409]);
  t.is(ok(await ann.get(`/rooms/${room.id}`)).present_mrns.length, 2);
});
