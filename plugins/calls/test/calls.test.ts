import test from 'ava';
import { fileURLToPath } from 'node:url';
import { checkDropMigration, checkMatrixRows, type TestMember } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };
import { MEMBER_KEYS, callsWorld } from './helpers/world.js';

/** The chat app, loaded from its directory (no import crosses the plugins): its call requests reach calls through the bus. */
const CHAT_DIR = fileURLToPath(new URL('../../chat', import.meta.url));
const CHAT_KEYS = ['chat.chats.create', 'chat.chats.read', 'chat.calls.create', 'chat.messages.read'];
/** The meetings app's events as its manifest declares them (the app is built on another branch; its contract is this). */
const MEETING = { type: 'object', properties: { meeting_id: { type: 'string' }, meeting_mrn: { type: 'string' }, title: { type: 'string' }, starts_at: { type: 'string' }, ends_at: { type: 'string' }, organizer_mrn: { type: 'string' }, attendee_mrns: { type: 'array', items: { type: 'string' } } }, required: ['meeting_id'] };

const world = await callsWorld('calls', { apps: [CHAT_DIR] });
await world.workspace.install('chat', { access_policy: 'roles' });
world.platform.runtime.events.registerParticipant({
  slug: 'meetings',
  firstParty: true,
  address: null,
  emits: ['scheduled', 'updated', 'cancelled'].map((verb) => ({ action: `core.meetings.meeting.${verb}`, description: `A meeting was ${verb}.`, schema: MEETING })),
});
const [ann, bob, cyd] = await world.members(3, [...MEMBER_KEYS, ...CHAT_KEYS]);
test.after.always(() => world.close());

const WEBM = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x87, 0x42, 0x82, 0x84, 0x77, 0x65, 0x62, 0x6d]), Buffer.alloc(3000, 7)]);

async function newCall(by: TestMember, body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const response = await by.post('/calls', { title: 'Standup', participant_mrns: [bob.mrn], ...body });
  if (response.status !== 200) throw new Error(`POST /calls: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

test.serial('POST /calls starts a call the caller hosts: call.created with exactly the catalog fields, no source, no time', async (t) => {
  const mark = world.mark();
  const response = await ann.post('/calls', { title: '  Standup ', mode: 'audio', participant_mrns: [bob.mrn, bob.mrn, ann.mrn] });
  t.is(response.status, 200);
  const call = response.body.data;
  t.like(call, { type: 'instant', mode: 'audio', title: 'Standup', status: 'waiting', creator_mrn: ann.mrn, source_mrn: null, scheduled_at: null, started_at: null, participant_count: 0, join_url: `http://calls.localhost/calls/${call.id}` });
  t.deepEqual(call.participants.map((row: any) => [row.member_mrn, row.role, row.in_session]), [[ann.mrn, 'host', false], [bob.mrn, 'participant', false]]);
  t.deepEqual(world.eventsSince(mark), [['core.calls.call.created', { call_id: call.id, type: 'instant', mode: 'audio', title: 'Standup', creator_mrn: ann.mrn }]]);
  t.deepEqual(response.body.links, { self: `/calls/${call.id}`, sessions: `/calls/${call.id}/sessions` });
});

test.serial('POST /calls may name what the call is made from (source_mrn: a deck presented in it); it is stored and carried by its events', async (t) => {
  const mark = world.mark();
  const deckMrn = 'mrn:slides:deck:6f0c1d8e-2b1a-4c55-9d3e-1a2b3c4d5e6f';
  const call = (await ann.post('/calls', { title: 'Deck review', source_mrn: deckMrn })).body.data;
  t.like(call, { title: 'Deck review', source_mrn: deckMrn });
  t.deepEqual(world.eventsSince(mark), [['core.calls.call.created', { call_id: call.id, type: 'instant', mode: 'video', title: 'Deck review', creator_mrn: ann.mrn, source_mrn: deckMrn }]]);
  t.deepEqual((await ann.get(`/calls?source_mrn=${deckMrn}`)).body.data.map((row: any) => row.id), [call.id]);
});

test.serial('bad input is a 400 naming the field, and writes nothing', async (t) => {
  const mark = world.mark();
  const cases: Array<[Record<string, unknown>, string, string?]> = [
    [{}, 'title is required', 'title'],
    [{ title: '   ' }, 'title is not allowed to be empty', 'title'],
    [{ title: 'x', mode: 'hologram' }, 'mode must be one of [video, audio]', 'mode'],
    [{ title: 'x', participant_mrns: ['bob'] }, 'participant_mrns[0] must be a member MRN (mrn:account:member:<id>)', 'participant_mrns[0]'],
    [{ title: 'x', scheduled_at: '2020-01-01T00:00:00Z' }, 'scheduled_at must be in the future (leave it out to start the call now)'],
    [{ title: 'x', source_mrn: 'deck-1' }, 'source_mrn must be an MRN (mrn:<app>:<resource>:<id>)', 'source_mrn'],
  ];
  for (const [body, error, field] of cases) {
    const response = await ann.post('/calls', body);
    t.deepEqual([response.status, response.body], [400, field === undefined ? { error } : { error, field }], JSON.stringify(body));
  }
  t.deepEqual(world.eventsSince(mark), []);
});

test.serial('a call is visible to its participants and to calls.calls.manage; others get 404', async (t) => {
  const call = await newCall(ann);
  t.is((await bob.get(`/calls/${call.id}`)).status, 200);
  t.deepEqual((await cyd.get(`/calls/${call.id}`)).body, { error: `No call ${call.id}` });
  t.is((await cyd.get(`/calls/${call.id}`)).status, 404);
  t.is((await world.owner.get(`/calls/${call.id}`)).status, 200);
  const mine = await cyd.get('/calls');
  t.false(mine.body.data.some((row: any) => row.id === call.id));
  const bobs = await bob.get(`/calls?status=waiting`);
  t.true(bobs.body.data.some((row: any) => row.id === call.id));
});

test.serial("GET /calls/me/permissions: the caller's own calls.* keys, sorted (an owner holds them all; without calls.calls.read, 403)", async (t) => {
  t.deepEqual((await ann.get('/calls/me/permissions')).body, { data: { keys: ['calls.calls.create', 'calls.calls.join', 'calls.calls.read', 'calls.recordings.create'] }, links: { self: '/calls/me/permissions' } });
  t.deepEqual((await world.owner.get('/calls/me/permissions')).body.data.keys, manifest.permissions.map((permission) => permission.key).sort());
  const viewer = await world.member(['calls.calls.read']);
  t.deepEqual((await viewer.get('/calls/me/permissions')).body.data, { keys: ['calls.calls.read'] });
  t.is((await (await world.member(['calls.calls.join'])).get('/calls/me/permissions')).status, 403);
});

test.serial('UpdateCall is for hosts: title, mode, invitees; status ends or cancels with the right state', async (t) => {
  const call = await newCall(ann);
  t.deepEqual((await bob.patch(`/calls/${call.id}`, { title: 'Mine now' })).body, { error: 'Cannot update this call: only its hosts may' });
  const mark = world.mark();
  const updated = await ann.patch(`/calls/${call.id}`, { title: 'Retro', mode: 'audio', participant_mrns: [cyd.mrn] });
  t.is(updated.status, 200);
  t.like(updated.body.data, { title: 'Retro', mode: 'audio' });
  t.deepEqual(updated.body.data.participants.map((row: any) => row.member_mrn), [ann.mrn, bob.mrn, cyd.mrn]);
  t.deepEqual(world.eventsSince(mark), []);
  t.deepEqual((await ann.patch(`/calls/${call.id}`, { status: 'ended' })).body, { error: 'Cannot end a call in state waiting: end moves from active to ended' });
  const cancelled = await ann.patch(`/calls/${call.id}`, { status: 'cancelled' });
  t.is(cancelled.body.data.status, 'cancelled');
  const again = world.mark();
  t.deepEqual((await ann.patch(`/calls/${call.id}`, { status: 'cancelled' })).body.data, cancelled.body.data, 'cancelling a cancelled call changes nothing');
  t.deepEqual(world.eventsSince(again), []);
  t.deepEqual((await ann.patch(`/calls/${call.id}`, { status: 'ended' })).body, { error: 'Cannot end a call in state cancelled: end moves from active to ended' });
  t.deepEqual((await ann.patch(`/calls/${call.id}`, { title: 'Again' })).body, { error: 'This call is cancelled: it can no longer change' });
  t.is((await ann.patch(`/calls/${call.id}`, {})).status, 400);
});

test.serial('UpdateParticipant changes roles; a call keeps one host; participants may leave the invitation, others may not remove them', async (t) => {
  const call = await newCall(ann, { participant_mrns: [bob.mrn, cyd.mrn] });
  const encoded = encodeURIComponent(bob.mrn);
  t.deepEqual((await bob.patch(`/calls/${call.id}/participants/${encoded}`, { role: 'host' })).body, { error: "Cannot change this call's participants: only its hosts may" });
  t.deepEqual((await ann.patch(`/calls/${call.id}/participants/${encodeURIComponent(ann.mrn)}`, { role: 'participant' })).body, { error: 'A call keeps at least one host: make another participant host first' });
  const promoted = await ann.patch(`/calls/${call.id}/participants/${encoded}`, { role: 'host' });
  t.deepEqual(promoted.body.data, { member_mrn: bob.mrn, role: 'host', in_session: false, joined_at: null, left_at: null });
  t.is((await ann.patch(`/calls/${call.id}/participants/${encodeURIComponent(ann.mrn)}`, { role: 'participant' })).status, 200);
  t.deepEqual((await bob.patch(`/calls/${call.id}/participants/mrn%3Aaccount%3Amember%3Anobody`, { role: 'host' })).body, { error: 'path parameter member_mrn must be a member MRN (mrn:account:member:<id>)', field: 'member_mrn' });
  t.deepEqual((await cyd.delete(`/calls/${call.id}/participants/${encodeURIComponent(ann.mrn)}`)).body, { error: "Cannot remove this participant: only the call's hosts may remove others" });
  const left = await cyd.delete(`/calls/${call.id}/participants/${encodeURIComponent(cyd.mrn)}`);
  t.deepEqual(left.body.data, { call_id: call.id, member_mrn: cyd.mrn, removed: true });
  t.is((await cyd.get(`/calls/${call.id}`)).status, 404);
  t.deepEqual((await bob.delete(`/calls/${call.id}/participants/${encodeURIComponent(cyd.mrn)}`)).body, { error: `No participant ${cyd.mrn} in call ${call.id}` });
});

test.serial('joining starts the call (call.started, participant.joined); joining again is the same answer with no event; the last to leave ends it (call.ended)', async (t) => {
  const call = await newCall(ann, { participant_mrns: [bob.mrn] });
  t.deepEqual((await cyd.post(`/calls/${call.id}/sessions`, {})).body, { error: `No call ${call.id}` });
  t.deepEqual((await bob.delete(`/calls/${call.id}/sessions`)).body, { error: 'You are not in this call' });
  const mark = world.mark();
  const joined = await ann.post(`/calls/${call.id}/sessions`, {});
  t.is(joined.status, 200);
  t.deepEqual(joined.body.data.signaling, { url: 'ws://calls.localhost/signaling', session: `calls/calls/${call.id}`, ice_servers: [] });
  t.like(joined.body.data, { joined: true, call: { status: 'active' } });
  const again = await ann.post(`/calls/${call.id}/sessions`, {});
  t.false(again.body.data.joined);
  await bob.post(`/calls/${call.id}/sessions`, {});
  const annLeft = await ann.delete(`/calls/${call.id}/sessions`);
  t.is(annLeft.body.data.status, 'active');
  const bobLeft = await bob.delete(`/calls/${call.id}/sessions`);
  t.like(bobLeft.body.data, { status: 'ended', participant_count: 2 });
  const events = world.eventsSince(mark);
  const ended = events.find(([action]) => action === 'core.calls.call.ended')![1];
  t.deepEqual(events.map(([action, payload]) => [action, payload.member_mrn ?? null]), [
    ['core.calls.call.started', null],
    ['core.calls.participant.joined', ann.mrn],
    ['core.calls.participant.joined', bob.mrn],
    ['core.calls.participant.left', ann.mrn],
    ['core.calls.participant.left', bob.mrn],
    ['core.calls.call.ended', null],
  ]);
  t.deepEqual(events[0][1], { call_id: call.id, join_url: `http://calls.localhost/calls/${call.id}`, title: 'Standup', mode: 'video', participant_mrns: [ann.mrn, bob.mrn], creator_mrn: ann.mrn });
  t.deepEqual(Object.keys(ended).sort(), ['call_id', 'duration_seconds', 'participant_count']);
  t.like(ended, { call_id: call.id, participant_count: 2 });
  t.true(Number.isInteger(ended.duration_seconds) && (ended.duration_seconds as number) >= 0);
  t.deepEqual((await ann.post(`/calls/${call.id}/sessions`, {})).body, { error: 'This call is ended' });
});

test.serial('a host ends an active call for everyone: participant.left for each still in, then call.ended', async (t) => {
  const call = await newCall(ann, { participant_mrns: [bob.mrn] });
  await ann.post(`/calls/${call.id}/sessions`, {});
  await bob.post(`/calls/${call.id}/sessions`, {});
  const mark = world.mark();
  t.deepEqual((await bob.patch(`/calls/${call.id}`, { status: 'ended' })).body, { error: 'Cannot update this call: only its hosts may' });
  const ended = await ann.patch(`/calls/${call.id}`, { status: 'ended' });
  t.like(ended.body.data, { status: 'ended', participant_count: 2 });
  t.deepEqual(world.eventsSince(mark).map(([action, payload]) => [action, payload.member_mrn ?? payload.participant_count]), [
    ['core.calls.participant.left', ann.mrn],
    ['core.calls.participant.left', bob.mrn],
    ['core.calls.call.ended', 2],
  ]);
});

test.serial('removing a participant who is in the call: participant.left; the last one out ends the call', async (t) => {
  const call = await newCall(ann, { participant_mrns: [bob.mrn] });
  await bob.post(`/calls/${call.id}/sessions`, {});
  const mark = world.mark();
  await ann.delete(`/calls/${call.id}/participants/${encodeURIComponent(bob.mrn)}`);
  t.deepEqual(world.eventsSince(mark).map(([action]) => action), ['core.calls.participant.left', 'core.calls.call.ended']);
  t.is((await ann.get(`/calls/${call.id}`)).body.data.status, 'ended');
});

test.serial('DELETE /calls/{id}: hosts only; an active call ends first; its recordings and their files go too', async (t) => {
  const call = await newCall(ann, { participant_mrns: [bob.mrn] });
  await ann.post(`/calls/${call.id}/sessions`, {});
  const started = await ann.post(`/calls/${call.id}/recordings`, {});
  await world.platform.follow(started.body.data.upload.url, { method: 'PUT', body: WEBM, headers: { 'content-type': 'video/webm' } });
  t.deepEqual((await bob.delete(`/calls/${call.id}`)).body, { error: 'Cannot delete this call: only its hosts may' });
  const mark = world.mark();
  const deleted = await ann.delete(`/calls/${call.id}`);
  t.deepEqual(deleted.body.data, { id: call.id, deleted: true, recordings_deleted: 1 });
  t.deepEqual(world.eventsSince(mark).map(([action]) => action), ['core.calls.participant.left', 'core.calls.call.ended']);
  t.is((await ann.get(`/calls/${call.id}`)).status, 404);
  t.deepEqual(await world.platform.query('SELECT count(*)::int AS n FROM platform.storage_objects WHERE namespace = :app AND key LIKE :key', { app: 'calls', key: `recordings/${call.id}/%` }), [{ n: 0 }]);
});

test.serial('recordings: a participant of an active call starts one, uploads through the signed link, completes it: recording.ready with the storage key, duration and size', async (t) => {
  const call = await newCall(ann, { participant_mrns: [bob.mrn] });
  t.deepEqual((await ann.post(`/calls/${call.id}/recordings`, {})).body, { error: 'A call is recorded while it is under way: nobody has joined it yet, or it is over' });
  await ann.post(`/calls/${call.id}/sessions`, {});
  t.deepEqual((await ann.post(`/calls/${call.id}/recordings`, { content_type: 'image/png' })).body, { error: 'content_type must be one of [video/webm, audio/webm, video/mp4, audio/mp4, audio/ogg]', field: 'content_type' });
  const started = await bob.post(`/calls/${call.id}/recordings`, {});
  t.is(started.status, 200);
  const recording = started.body.data;
  t.like(recording, { call_id: call.id, status: 'uploading', content_type: 'video/webm', recorder_mrn: bob.mrn, storage_key: `recordings/${call.id}/${recording.id}.webm`, size_bytes: null });
  t.is(recording.upload.method, 'PUT');
  t.deepEqual((await bob.put(`/calls/${call.id}/recordings/${recording.id}`, { duration_seconds: 12 })).body, { error: "Upload the recording's file (PUT it to the upload link) before completing it" });
  // An empty file (a browser that recorded nothing) is not completed; the link takes the real file after it.
  t.is((await world.platform.follow(recording.upload.url, { method: 'PUT', body: Buffer.alloc(0), headers: { 'content-type': 'video/webm' } })).status, 200);
  const empty = await bob.put(`/calls/${call.id}/recordings/${recording.id}`, { duration_seconds: 12 });
  t.is(empty.status, 409);
  t.deepEqual(empty.body, { error: "The recording's file is empty (0 bytes): upload what was recorded, or abort the recording" });
  const upload = await world.platform.follow(recording.upload.url, { method: 'PUT', body: WEBM, headers: { 'content-type': 'video/webm' } });
  t.is(upload.status, 200);
  t.deepEqual((await cyd.put(`/calls/${call.id}/recordings/${recording.id}`, { duration_seconds: 12 })).body, { error: `No call ${call.id}` });
  const mark = world.mark();
  const completed = await bob.put(`/calls/${call.id}/recordings/${recording.id}`, { duration_seconds: 12 });
  t.like(completed.body.data, { status: 'ready', duration_seconds: 12, size_bytes: WEBM.length });
  t.deepEqual(world.eventsSince(mark), [['core.calls.recording.ready', { call_id: call.id, recording_id: recording.id, storage_key: recording.storage_key, duration_seconds: 12, size_bytes: WEBM.length }]]);
  t.deepEqual((await bob.put(`/calls/${call.id}/recordings/${recording.id}`, { duration_seconds: 12 })).body, { error: 'Cannot complete a recording in state ready: complete moves from uploading to ready' });
  t.deepEqual((await bob.patch(`/calls/${call.id}/recordings/${recording.id}`, {})).body, { error: 'Cannot abort a recording in state ready: abort moves from uploading to aborted' });
  const listed = await ann.get(`/calls/${call.id}/recordings`);
  t.is(listed.body.pagination.total, 1);
  const download = await world.platform.follow(listed.body.data[0].download_url);
  t.deepEqual([download.status, download.bytes.equals(WEBM)], [200, true]);
  const deleted = await ann.delete(`/calls/${call.id}/recordings/${recording.id}`);
  t.deepEqual(deleted.body.data, { id: recording.id, call_id: call.id, deleted: true, file_deleted: true });
  t.is((await world.platform.follow(listed.body.data[0].download_url)).status, 404);
  t.is((await ann.get(`/calls/${call.id}/recordings`)).body.pagination.total, 0);
});

test.serial('AbortRecording stops an uploading recording and removes its file; only its recorder, the hosts or calls.recordings.delete may delete one', async (t) => {
  const call = await newCall(ann, { participant_mrns: [bob.mrn, cyd.mrn] });
  await ann.post(`/calls/${call.id}/sessions`, {});
  const recording = (await bob.post(`/calls/${call.id}/recordings`, { content_type: 'video/webm' })).body.data;
  await world.platform.follow(recording.upload.url, { method: 'PUT', body: WEBM, headers: { 'content-type': 'video/webm' } });
  t.deepEqual((await cyd.patch(`/calls/${call.id}/recordings/${recording.id}`, {})).body, { error: "Cannot abort this recording: only its recorder and the call's hosts may" });
  const mark = world.mark();
  const aborted = await bob.patch(`/calls/${call.id}/recordings/${recording.id}`, {});
  t.like(aborted.body.data, { status: 'aborted', size_bytes: null });
  t.deepEqual(world.eventsSince(mark), []);
  t.deepEqual(await world.platform.query('SELECT count(*)::int AS n FROM platform.storage_objects WHERE namespace = :app AND key = :key', { app: 'calls', key: recording.storage_key }), [{ n: 0 }]);
  t.deepEqual((await bob.put(`/calls/${call.id}/recordings/${recording.id}`, { duration_seconds: 3 })).body, { error: 'Cannot complete a recording in state aborted: complete moves from uploading to ready' });
  t.deepEqual((await cyd.delete(`/calls/${call.id}/recordings/${recording.id}`)).body, { error: "Cannot delete this recording: only its recorder, the call's hosts and members with calls.recordings.delete may" });
  t.deepEqual((await bob.delete(`/calls/${call.id}/recordings/${recording.id}`)).body.data, { id: recording.id, call_id: call.id, deleted: true, file_deleted: false });
  t.deepEqual((await bob.delete(`/calls/${call.id}/recordings/${recording.id}`)).body, { error: `No recording ${recording.id} of call ${call.id}` });
});

test.serial("a chat's call request makes an instant call for the chat's participants (source_mrn the chat), once however often it is delivered", async (t) => {
  const chat = (await ann.post('/chats', { type: 'group', name: 'Design', participant_mrns: [bob.mrn] })).body.data;
  const mark = world.mark();
  t.is((await bob.post(`/chats/${chat.id}/call-requests`, { mode: 'audio' })).status, 200);
  const request = world.platform.events.slice(mark).find((event) => event.action === 'core.chat.call.requested')!;
  const outcomes = (await world.platform.deliverDue(world.workspace)).filter(({ event }) => event.id === request.id).map(({ outcomes }) => outcomes.calls);
  t.deepEqual(outcomes, ['handled']);
  const calls = (await bob.get(`/calls?source_mrn=mrn:chat:chat:${chat.id}`)).body.data;
  t.is(calls.length, 1);
  t.like(calls[0], { type: 'instant', mode: 'audio', title: 'Design', status: 'waiting', creator_mrn: bob.mrn, source_mrn: `mrn:chat:chat:${chat.id}` });
  t.deepEqual(calls[0].participants.map((row: any) => [row.member_mrn, row.role]), [[bob.mrn, 'host'], [ann.mrn, 'participant']]);
  t.deepEqual(world.eventsSince(mark), [['core.calls.call.created', { call_id: calls[0].id, type: 'instant', mode: 'audio', title: 'Design', creator_mrn: bob.mrn, source_mrn: `mrn:chat:chat:${chat.id}` }]]);
  // A redelivery (at least once) carries the same event: the same body, signed, posted twice more.
  const again = world.platform.runtime.events.deliveryRequest({ subscriber: 'calls', handler: '/events/core-chat-call-requested', workspaceId: world.workspace.id, action: 'core.chat.call.requested', payload: request.payload, emitter: 'chat' });
  for (let attempt = 0; attempt < 2; attempt++) {
    const answer = await world.platform.runtime.server.inject({ method: 'POST', url: again.path, headers: again.headers, payload: again.body, remoteAddress: '127.0.0.1' });
    t.deepEqual(JSON.parse(answer.payload), { received: true });
  }
  t.is((await bob.get(`/calls?source_mrn=mrn:chat:chat:${chat.id}`)).body.pagination.total, 2, 'the redelivered event made one more call, once');
  t.deepEqual(world.eventsSince(mark).map(([action]) => action), ['core.calls.call.created', 'core.calls.call.created']);
});

test.serial("a meeting's events schedule its call, move it with its reminder, update its invitees and cancel it", async (t) => {
  const startsAt = new Date(Math.ceil((Date.now() + 2 * 3600_000) / 1000) * 1000);
  const meeting = { meeting_id: 'meeting-1', meeting_mrn: 'mrn:meetings:meeting:meeting-1', title: 'Quarterly review', starts_at: startsAt.toISOString(), ends_at: new Date(startsAt.getTime() + 3600_000).toISOString(), organizer_mrn: ann.mrn, attendee_mrns: [bob.mrn] };
  const mark = world.mark();
  await world.deliver('core.meetings.meeting.scheduled', meeting);
  await world.deliver('core.meetings.meeting.scheduled', meeting);
  const [call] = (await ann.get('/calls?source_mrn=mrn:meetings:meeting:meeting-1')).body.data;
  t.like(call, { type: 'scheduled', title: 'Quarterly review', status: 'waiting', creator_mrn: ann.mrn, scheduled_at: startsAt.toISOString(), source_mrn: 'mrn:meetings:meeting:meeting-1' });
  t.deepEqual(world.eventsSince(mark).map(([action]) => action), ['core.calls.call.created', 'core.calls.call.scheduled', 'core.calls.call.reminder']);
  const later = new Date(startsAt.getTime() + 3600_000);
  const moved = world.mark();
  await world.deliver('core.meetings.meeting.updated', { ...meeting, title: 'Quarterly review (moved)', starts_at: later.toISOString(), attendee_mrns: [cyd.mrn] });
  const after = (await ann.get(`/calls/${call.id}`)).body.data;
  t.like(after, { title: 'Quarterly review (moved)', scheduled_at: later.toISOString() });
  t.deepEqual(after.participants.map((row: any) => row.member_mrn), [ann.mrn, cyd.mrn]);
  t.deepEqual(world.eventsSince(moved).map(([action, payload]) => [action, payload.scheduled_at, payload.title]), [
    ['core.calls.call.scheduled', later.toISOString(), 'Quarterly review (moved)'],
    ['core.calls.call.reminder', later.toISOString(), 'Quarterly review (moved)'],
  ]);
  const reminders = world.platform.events.filter((event) => event.action === 'core.calls.call.reminder' && event.payload.call_id === call.id);
  t.deepEqual(reminders.map((event) => event.withdrawn ?? false), [true, false]);
  await world.deliver('core.meetings.meeting.cancelled', { meeting_id: 'meeting-1', meeting_mrn: 'mrn:meetings:meeting:meeting-1' });
  t.is((await ann.get(`/calls/${call.id}`)).body.data.status, 'cancelled');
  t.true(world.platform.events.filter((event) => event.action === 'core.calls.call.reminder' && event.payload.call_id === call.id).every((event) => event.withdrawn));
});

test.serial('a member who leaves the workspace leaves the calls not over yet (participant.left when in one) and cannot be invited again until they rejoin', async (t) => {
  const dan = await world.member();
  const call = await newCall(ann, { participant_mrns: [dan.mrn, bob.mrn] });
  await dan.post(`/calls/${call.id}/sessions`, {});
  await bob.post(`/calls/${call.id}/sessions`, {});
  const removal = world.mark();
  t.is((await world.owner.delete(`/members/${dan.id}`)).status, 200);
  const removed = world.platform.events.slice(removal).find((event) => event.action === 'core.account.member.removed')!;
  t.deepEqual(removed.payload, { member_id: dan.id, removed_by: world.owner.id });
  const mark = world.mark();
  await world.deliver(removed.action, removed.payload);
  t.deepEqual(world.eventsSince(mark), [['core.calls.participant.left', { call_id: call.id, member_mrn: dan.mrn }]]);
  t.deepEqual((await ann.get(`/calls/${call.id}`)).body.data.participants.map((row: any) => row.member_mrn), [ann.mrn, bob.mrn]);
  t.deepEqual((await ann.post('/calls', { title: 'x', participant_mrns: [dan.mrn] })).body, { error: `participant_mrns ${dan.mrn} is no longer a member of this workspace` });
  const back = await world.member([], { email: dan.email });
  t.is(back.id, dan.id, 'the same member, rejoined');
  t.is((await ann.post('/calls', { title: 'x', participant_mrns: [dan.mrn] })).status, 200);
});

test.serial('participant_mrns must name members of this workspace (a random id, another workspace\'s member, a removed member: 400 naming the field, nothing written); one who joined a moment ago is invited; a path may name a former member', async (t) => {
  const call = await newCall(ann, { participant_mrns: [bob.mrn] });
  const other = await world.otherWorkspace('calls-elsewhere');
  const eve = await world.member();
  const ended = await newCall(ann, { participant_mrns: [eve.mrn] });
  await ann.post(`/calls/${ended.id}/sessions`, {});
  await ann.delete(`/calls/${ended.id}/sessions`);
  t.is((await world.owner.delete(`/members/${eve.id}`)).status, 200);
  const mark = world.mark();
  const stranger = 'mrn:account:member:00000000-0000-4000-8000-000000000abc';
  const refusals: Array<[string, string]> = [
    [stranger, 'is not a member of this workspace'],
    [other.owner.mrn, 'is not a member of this workspace'],
    [eve.mrn, 'is no longer a member of this workspace'],
  ];
  for (const [mrn, why] of refusals) {
    const created = await ann.post('/calls', { title: 'Refused', participant_mrns: [bob.mrn, mrn] });
    t.deepEqual([created.status, created.body], [400, { error: `participant_mrns ${mrn} ${why}` }], mrn);
    const updated = await ann.patch(`/calls/${call.id}`, { title: 'Refused too', participant_mrns: [mrn] });
    t.deepEqual([updated.status, updated.body], [400, { error: `participant_mrns ${mrn} ${why}` }], mrn);
  }
  t.deepEqual(world.eventsSince(mark), []);
  t.deepEqual(await world.query("SELECT count(*)::int AS n FROM app_calls.calls WHERE workspace_id = :w AND title LIKE 'Refused%'", { w: world.workspaceId }), [{ n: 0 }]);
  t.deepEqual((await ann.get(`/calls/${call.id}`)).body.data.participants.map((row: any) => row.member_mrn), [ann.mrn, bob.mrn]);

  const newcomer = await world.member();
  const invited = await ann.patch(`/calls/${call.id}`, { participant_mrns: [newcomer.mrn] });
  t.deepEqual(invited.body.data.participants.map((row: any) => row.member_mrn), [ann.mrn, bob.mrn, newcomer.mrn]);

  // The participant routes name someone already in a call: a former member may still be named (the call's history keeps them).
  const former = await ann.delete(`/calls/${ended.id}/participants/${encodeURIComponent(eve.mrn)}`);
  t.deepEqual([former.status, former.body], [409, { error: 'This call is ended: its participants can no longer change' }]);
  const unknown = await ann.delete(`/calls/${ended.id}/participants/${encodeURIComponent(stranger)}`);
  t.deepEqual([unknown.status, unknown.body], [400, { error: `path parameter member_mrn ${stranger} is not a member of this workspace` }]);
});

test.serial('migration 0002 drops the copy of the members (member_directory); down re-creates it empty, up drops it again', async (t) => {
  await checkDropMigration(t, world, '0002-drop-member-directory', 'app_calls.member_directory');
});

test.serial('every route is guarded by its permission key (the permission matrix)', async (t) => {
  const rows = await world.workspace.permissionMatrix('calls', { params: { member_mrn: 'mrn:account:member:00000000-0000-4000-8000-000000000000' } });
  t.is(rows.length, manifest.authorization.length);
  checkMatrixRows(t, rows.filter((candidate) => !candidate.note && !candidate.skipped));
});

test.serial('every table can be distributed by workspace', async (t) => {
  t.deepEqual(await world.platform.distributionProblems(), []);
});
