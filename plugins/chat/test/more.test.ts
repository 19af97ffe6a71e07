import test from 'ava';
import type { TestMember } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };
import { startWorld, type World } from './helpers/world.js';

let world: World;
let ann: TestMember;
let bob: TestMember;

test.before(async () => {
  world = await startWorld('chatmore');
  ann = await world.member();
  bob = await world.member();
  world.takeEvents();
});
test.after.always(() => world?.close());

test.serial('a file is uploaded through a signed link and shared: core.chat.file.shared carries what storage holds', async (t) => {
  const chat = (await ann.post('/chats', { type: 'direct', participant_mrns: [bob.mrn] })).body.data;
  const upload = await ann.post(`/chats/${chat.id}/uploads`, { filename: 'plan v2.txt', content_type: 'text/plain' });
  t.is(upload.status, 200);
  const { file_key: fileKey, upload: link } = upload.body.data;
  t.regex(fileKey, new RegExp(`^chats/${chat.id}/[0-9a-f-]{36}/plan_v2.txt$`));
  t.is((await world.platform.follow(link.url, { method: 'PUT', body: 'the plan', headers: { 'content-type': 'text/plain' } })).status, 200);
  const foreign = await ann.post(`/chats/${chat.id}/messages`, { file: { file_key: 'elsewhere/x.txt' } });
  t.is(foreign.status, 400);
  world.takeEvents();
  const sent = await ann.post(`/chats/${chat.id}/messages`, { body: 'see attached', file: { file_key: fileKey, filename: 'plan v2.txt' } });
  t.is(sent.status, 200);
  t.deepEqual(sent.body.data.file, { file_key: fileKey, filename: 'plan v2.txt', content_type: 'text/plain', size_bytes: 8 });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.chat.message.sent', payload: { chat_id: chat.id, message_id: sent.body.data.id, sender_mrn: ann.mrn, content_preview: 'see attached', has_media: true } },
    { action: 'core.chat.file.shared', payload: { chat_id: chat.id, message_id: sent.body.data.id, sender_mrn: ann.mrn, file_key: fileKey, filename: 'plan v2.txt', content_type: 'text/plain', size_bytes: 8 } },
  ]);
  const missing = await ann.post(`/chats/${chat.id}/messages`, { file: { file_key: `chats/${chat.id}/nothing.txt` } });
  t.deepEqual([missing.status, missing.body], [400, { error: `file.file_key chats/${chat.id}/nothing.txt names no file of the chat app` }]);
});

test.serial('channel messages are searchable, private ones are not; a deleted message leaves the index', async (t) => {
  const channel = (await ann.post('/chats', { type: 'channel', name: 'releases' })).body.data;
  const group = (await ann.post('/chats', { type: 'group', participant_mrns: [bob.mrn] })).body.data;
  const before = world.platform.search.length;
  const open = (await ann.post(`/chats/${channel.id}/messages`, { body: 'Version nine ships Friday' })).body.data;
  await ann.post(`/chats/${group.id}/messages`, { body: 'private salary talk' });
  await ann.delete(`/chats/${channel.id}/messages/${open.id}`);
  t.deepEqual(world.platform.search.slice(before).map((change) => [change.op, change.op === 'upsert' ? change.document.type : change.type, change.op === 'upsert' ? change.document.id : change.id]), [
    ['upsert', 'message', open.id],
    ['remove', 'message', open.id],
  ]);
});

test.serial('UpdateParticipant: the owner hands over ownership; only the participant mutes; the last owner cannot step down', async (t) => {
  const group = (await ann.post('/chats', { type: 'group', participant_mrns: [bob.mrn] })).body.data;
  const path = (member: TestMember) => `/chats/${group.id}/participants/${encodeURIComponent(member.mrn)}`;
  const lastOwner = await ann.patch(path(ann), { role: 'member' });
  t.deepEqual([lastOwner.status, lastOwner.body], [400, { error: 'role: a chat keeps at least one owner' }]);
  const notTheirs = await bob.patch(path(ann), { muted: true });
  t.deepEqual([notTheirs.status, notTheirs.body], [403, { error: 'Only the participant may mute a chat for themselves' }]);
  t.like((await bob.patch(path(bob), { muted: true })).body.data, { member_mrn: bob.mrn, muted: true, role: 'member' });
  t.like((await ann.patch(path(bob), { role: 'owner' })).body.data, { role: 'owner' });
  t.like((await ann.patch(path(ann), { role: 'member' })).body.data, { role: 'member' });
  const gone = await ann.patch(`/chats/${group.id}/participants/${encodeURIComponent('mrn:account:member:00000000-0000-4000-8000-000000000000')}`, { muted: true });
  t.deepEqual([gone.status, gone.body], [404, { error: 'member_mrn: no such participant in this chat' }]);
});

test.serial("clearing the history and deleting a chat are the owner's; both leave nothing behind", async (t) => {
  const group = (await ann.post('/chats', { type: 'group', name: 'Scratch', participant_mrns: [bob.mrn] })).body.data;
  const first = (await ann.post(`/chats/${group.id}/messages`, { body: 'one' })).body.data;
  await bob.post(`/chats/${group.id}/messages`, { body: 'reply', parent_id: first.id });
  const refused = await bob.delete(`/chats/${group.id}/messages`);
  t.deepEqual([refused.status, refused.body], [403, { error: "Only the chat's owner may clear its history" }]);
  world.takeEvents();
  t.deepEqual((await ann.delete(`/chats/${group.id}/messages`)).body.data, { chat_id: group.id, deleted_messages: 2 });
  t.deepEqual(world.takeEvents(), [{ action: 'core.chat.chat.updated', payload: { chat_id: group.id, changes: { history_cleared: true }, updated_by: ann.mrn } }]);
  t.is((await ann.get(`/chats/${group.id}/messages`)).body.pagination.total, 0);
  t.deepEqual([(await bob.delete(`/chats/${group.id}`)).status], [403]);
  t.deepEqual((await ann.delete(`/chats/${group.id}`)).body.data, { id: group.id, deleted: true });
  t.is((await ann.get(`/chats/${group.id}`)).status, 404);
  t.deepEqual(await world.platform.query('SELECT count(*)::int AS n FROM app_chat.participants WHERE workspace_id = :w AND chat_id = :c', { w: world.workspace.id, c: group.id }), [{ n: 0 }]);
});

test('the permission matrix: every route refuses a member without its key with the exact 403, and lets a holder through', async (t) => {
  const rows = await world.workspace.permissionMatrix('chat', { params: { emoji: '%F0%9F%91%8D', member_mrn: ann.mrn } });
  t.is(rows.length, manifest.authorization.length);
  for (const row of rows) {
    t.deepEqual(row.without, { status: 403, body: { error: `Missing permission: ${row.keys[0]}` } }, row.route);
    t.not(row.with!.status, 403, row.route);
  }
});
