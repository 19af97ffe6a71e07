import test from 'ava';
import { checkDropMigration, checkMatrixRows, ok, type TestMember } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };
import { startChatWorld } from './helpers/world.js';

const world = await startChatWorld('chatops');
const [ann, bob, cat] = await world.members(3);
world.takeEvents();
test.after.always(() => world.close());

test.serial('a direct chat is one per pair: asking again answers the same chat, with no second event', async (t) => {
  const first = await ann.post('/chats', { type: 'direct', participant_mrns: [bob.mrn] });
  t.is(first.status, 200);
  t.is(first.body.data.type, 'direct');
  t.true(first.body.data.created);
  t.deepEqual(world.takeEvents(), [
    { action: 'core.chat.chat.created', payload: { chat_id: first.body.data.id, type: 'direct', creator_mrn: ann.mrn, participant_mrns: [ann.mrn, bob.mrn] } },
  ]);
  const again = await bob.post('/chats', { type: 'direct', participant_mrns: [ann.mrn] });
  t.is(again.status, 200);
  t.is(again.body.data.id, first.body.data.id);
  t.false(again.body.data.created);
  t.deepEqual(world.takeEvents(), []);
  const bad = await ann.post('/chats', { type: 'direct', participant_mrns: [bob.mrn, cat.mrn] });
  t.deepEqual([bad.status, bad.body], [400, { error: 'participant_mrns: a direct chat has exactly one other participant' }]);
  const badMrn = await ann.post('/chats', { type: 'group', participant_mrns: ['bob'] });
  t.deepEqual([badMrn.status, badMrn.body], [400, { error: 'participant_mrns[0] must be a member MRN (mrn:account:member:<id>)', field: 'participant_mrns[0]' }]);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('messages: send, thread reply, mention, edit, tombstone; unread counts follow the read position', async (t) => {
  const group = (await ann.post('/chats', { type: 'group', name: 'Launch', participant_mrns: [bob.mrn, cat.mrn] })).body.data;
  world.takeEvents();
  const sent = await ann.post(`/chats/${group.id}/messages`, { body: `Hello <@${bob.id}>, ready?` });
  t.is(sent.status, 200);
  const message = sent.body.data;
  t.like(message, { seq: 1, sender_mrn: ann.mrn, body: `Hello <@${bob.id}>, ready?`, mention_mrns: [bob.mrn], deleted: false, parent_id: null });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.chat.message.sent', payload: { chat_id: group.id, message_id: message.id, sender_mrn: ann.mrn, content_preview: `Hello <@${bob.id}>, ready?`, has_media: false } },
    {
      action: 'core.member.mentioned',
      payload: { source: 'chat', mentioned_mrn: bob.mrn, mentioner_mrn: ann.mrn, resource_mrn: `mrn:chat:message:${message.id}`, link: `/chats/${group.id}/messages?after=0`, preview: `Hello <@${bob.id}>, ready?` },
    },
  ]);
  const reply = await bob.post(`/chats/${group.id}/messages`, { body: 'Yes', parent_id: message.id });
  t.is(reply.status, 200);
  const thread = await cat.get(`/chats/${group.id}/messages?parent_id=${message.id}`);
  t.deepEqual(thread.body.data.map((row: { body: string }) => row.body), ['Yes']);
  const nested = await cat.post(`/chats/${group.id}/messages`, { body: 'x', parent_id: reply.body.data.id });
  t.deepEqual([nested.status, nested.body], [400, { error: "parent_id: reply to the thread's first message (threads are one level deep)" }]);

  let list = await cat.get('/chats?type=group');
  t.like(list.body.data[0], { id: group.id, unread_count: 1 });
  t.is((await cat.put(`/chats/${group.id}/read`, { message_id: message.id })).body.data.unread_count, 0);

  const notMine = await bob.patch(`/chats/${group.id}/messages/${message.id}`, { body: 'hijack' });
  t.deepEqual([notMine.status, notMine.body], [403, { error: 'Only the sender may edit a message' }]);
  const edited = await ann.patch(`/chats/${group.id}/messages/${message.id}`, { body: 'Hello all' });
  t.is(edited.status, 200);
  t.is(edited.body.data.body, 'Hello all');
  t.truthy(edited.body.data.edited_at);
  world.takeEvents();
  const deleted = await ann.delete(`/chats/${group.id}/messages/${message.id}`);
  t.like(deleted.body.data, { id: message.id, deleted: true, body: null, file: null });
  t.deepEqual(world.takeEvents(), [{ action: 'core.chat.message.deleted', payload: { chat_id: group.id, message_id: message.id, sender_mrn: ann.mrn } }]);
  const page = await cat.get(`/chats/${group.id}/messages`);
  t.deepEqual(page.body.data.map((row: { id: string; deleted: boolean }) => [row.id, row.deleted]), [[message.id, true]]);
  list = await cat.get('/chats?type=group');
  t.is(list.body.data[0].unread_count, 0);
});

test.serial('reactions group by emoji; taking one back that was never given is a 404', async (t) => {
  const group = (await ann.post('/chats', { type: 'group', participant_mrns: [bob.mrn] })).body.data;
  const message = (await ann.post(`/chats/${group.id}/messages`, { body: 'ship it' })).body.data;
  await bob.post(`/chats/${group.id}/messages/${message.id}/reactions`, { emoji: '👍' });
  const twice = await ann.post(`/chats/${group.id}/messages/${message.id}/reactions`, { emoji: '👍' });
  await ann.post(`/chats/${group.id}/messages/${message.id}/reactions`, { emoji: '👍' });
  t.deepEqual(twice.body.data.reactions, [{ emoji: '👍', count: 2, member_mrns: [bob.mrn, ann.mrn] }]);
  const removed = await bob.delete(`/chats/${group.id}/messages/${message.id}/reactions/${encodeURIComponent('👍')}`);
  t.deepEqual(removed.body.data.reactions, [{ emoji: '👍', count: 1, member_mrns: [ann.mrn] }]);
  const again = await bob.delete(`/chats/${group.id}/messages/${message.id}/reactions/${encodeURIComponent('👍')}`);
  t.deepEqual([again.status, again.body], [404, { error: 'You did not react with 👍 to this message' }]);
});

test.serial('participants: channel joins, owner-only removal, removal emits; a stranger sees a private chat as missing', async (t) => {
  const channel = (await ann.post('/chats', { type: 'channel', name: 'general', topic: 'Everything' })).body.data;
  world.takeEvents();
  const join = await cat.post(`/chats/${channel.id}/participants`, { member_mrn: cat.mrn });
  t.is(join.status, 200);
  const byOther = await cat.delete(`/chats/${channel.id}/participants/${encodeURIComponent(ann.mrn)}`);
  t.deepEqual([byOther.status, byOther.body], [403, { error: "Only the chat's owner may remove others" }]);
  const removed = await ann.delete(`/chats/${channel.id}/participants/${encodeURIComponent(cat.mrn)}`);
  t.is(removed.status, 200);
  t.deepEqual(world.takeEvents(), [
    { action: 'core.chat.participant.added', payload: { chat_id: channel.id, member_mrn: cat.mrn, added_by_mrn: cat.mrn } },
    { action: 'core.chat.participant.removed', payload: { chat_id: channel.id, member_mrn: cat.mrn, removed_by_mrn: ann.mrn } },
  ]);
  const names = await ann.get(`/chats/${channel.id}/participants`);
  t.deepEqual(names.body.data.map((row: { member_mrn: string; role: string }) => [row.member_mrn, row.role]), [[ann.mrn, 'owner']]);
  const direct = (await ann.post('/chats', { type: 'direct', participant_mrns: [bob.mrn] })).body.data;
  const hidden = await cat.get(`/chats/${direct.id}`);
  t.deepEqual([hidden.status, hidden.body], [404, { error: `Chat ${direct.id} not found` }]);

  const renamed = await ann.patch(`/chats/${channel.id}`, { name: 'announcements' });
  t.is(renamed.status, 200, JSON.stringify(renamed.body));
  t.is(renamed.body.data.name, 'announcements');
  t.deepEqual(world.takeEvents(), [{ action: 'core.chat.chat.updated', payload: { chat_id: channel.id, changes: { name: 'announcements' }, updated_by: ann.mrn } }]);
});

test.serial('call requests emit core.chat.call.requested with exactly the catalog fields', async (t) => {
  const group = (await ann.post('/chats', { type: 'group', name: 'Standup', participant_mrns: [bob.mrn] })).body.data;
  world.takeEvents();
  const bad = await ann.post(`/chats/${group.id}/call-requests`, { mode: 'hologram' });
  t.deepEqual([bad.status, bad.body], [400, { error: 'mode must be one of [video, audio]', field: 'mode' }]);
  const response = await bob.post(`/chats/${group.id}/call-requests`, { mode: 'audio' });
  t.is(response.status, 200);
  const events = world.takeEvents();
  t.deepEqual(events, [{ action: 'core.chat.call.requested', payload: { chat_id: group.id, chat_name: 'Standup', participant_mrns: [ann.mrn, bob.mrn].sort(), mode: 'audio', requested_by: bob.mrn } }]);
  t.deepEqual(Object.keys(events[0].payload).sort(), ['chat_id', 'chat_name', 'mode', 'participant_mrns', 'requested_by']);
});

test.serial('favourites and personal lists filter the chat list', async (t) => {
  const group = (await ann.post('/chats', { type: 'group', name: 'Design', participant_mrns: [bob.mrn] })).body.data;
  t.deepEqual((await ann.put(`/chats/${group.id}/favourite`)).body.data, { chat_id: group.id, favourite: true });
  t.deepEqual((await ann.get('/chats?favourite=true')).body.data.map((row: { id: string }) => row.id), [group.id]);
  const list = (await ann.post('/chats/lists', { name: 'Work' })).body.data;
  const dup = await ann.post('/chats/lists', { name: 'work' });
  t.deepEqual([dup.status, dup.body], [400, { error: 'name: you already have a list named work' }]);
  t.deepEqual((await ann.put(`/chats/${group.id}/lists/${list.id}`)).body.data.chat_ids, [group.id]);
  t.deepEqual((await ann.get(`/chats?list_id=${list.id}`)).body.data.map((row: { id: string }) => row.id), [group.id]);
  t.is((await bob.get(`/chats/lists/${list.id}`)).status, 404);
  t.is((await bob.patch(`/chats/lists/${list.id}`, { name: 'Mine' })).status, 404);
  t.is((await ann.patch(`/chats/lists/${list.id}`, { name: 'Projects' })).body.data.name, 'Projects');
  t.deepEqual((await ann.delete(`/chats/${group.id}/lists/${list.id}`)).body.data.chat_ids, []);
  t.deepEqual((await ann.delete(`/chats/lists/${list.id}`)).body.data, { id: list.id, deleted: true });
  t.deepEqual((await ann.delete(`/chats/${group.id}/favourite`)).body.data, { chat_id: group.id, favourite: false });
});

test.serial('a member removed from the workspace leaves every chat (events fed by the platform)', async (t) => {
  const dan = await world.member();
  const group = (await ann.post('/chats', { type: 'group', participant_mrns: [dan.mrn] })).body.data;
  t.is((await world.owner.delete(`/members/${dan.id}`)).status, 200);
  world.takeEvents();
  await world.platform.deliver(world.workspace.id, 'core.account.member.removed', { member_id: dan.id, removed_by: ann.id });
  t.deepEqual(world.takeEvents(), [{ action: 'core.chat.participant.removed', payload: { chat_id: group.id, member_mrn: dan.mrn, removed_by_mrn: ann.mrn } }]);
  const again = await ann.post(`/chats/${group.id}/participants`, { member_mrn: dan.mrn });
  t.deepEqual([again.status, again.body], [400, { error: `member_mrn ${dan.mrn} is no longer a member of this workspace` }]);
});

test.serial('every participant a chat stores is a member of this workspace: a random id, another workspace\'s member and a removed member are a 400 naming the field, nothing written; a newcomer is accepted at once', async (t) => {
  const channel = (await ann.post('/chats', { type: 'channel', name: 'checked' })).body.data;
  const elsewhere = (await world.otherWorkspace('chat-elsewhere')).owner;
  const gone = await world.member();
  t.is((await world.owner.delete(`/members/${gone.id}`)).status, 200);
  const stranger = 'mrn:account:member:00000000-0000-4000-8000-000000000abc';
  const chats = async () => (await world.query<{ n: number }>('SELECT count(*)::int AS n FROM app_chat.chats WHERE workspace_id = :w', { w: world.workspaceId }))[0].n;
  const before = await chats();
  world.takeEvents();
  for (const [mrn, why] of [[stranger, 'is not a member of this workspace'], [elsewhere.mrn, 'is not a member of this workspace'], [gone.mrn, 'is no longer a member of this workspace']]) {
    for (const type of ['direct', 'group']) {
      const started = await ann.post('/chats', { type, participant_mrns: [mrn] });
      t.deepEqual([started.status, started.body], [400, { error: `participant_mrns ${mrn} ${why}` }], `${type} with ${mrn}`);
    }
    const added = await ann.post(`/chats/${channel.id}/participants`, { member_mrn: mrn });
    t.deepEqual([added.status, added.body], [400, { error: `member_mrn ${mrn} ${why}` }]);
  }
  t.is(await chats(), before);
  t.deepEqual(world.takeEvents(), []);

  const newcomer = await world.member();
  t.like(ok(await ann.post(`/chats/${channel.id}/participants`, { member_mrn: newcomer.mrn })), { member_mrn: newcomer.mrn, role: 'member' });
  const direct = ok(await ann.post('/chats', { type: 'direct', participant_mrns: [(await world.member()).mrn] }));
  t.true(direct.created);
});

test.serial('migration 0002 drops the app\'s old copy of the member directory; down re-creates it empty, up drops it again, the chats untouched', async (t) => {
  const chats = async () => (await world.query<{ n: number }>('SELECT count(*)::int AS n FROM app_chat.chats WHERE workspace_id = :w', { w: world.workspaceId }))[0].n;
  const before = await chats();
  await checkDropMigration(t, world, '0002-drop-member-directory', 'app_chat.member_directory');
  t.is(await chats(), before);
});

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

test('concurrent posts to one chat get distinct consecutive seqs; the chat and each sender\'s read position end at theirs', async (t) => {
  const senders = await world.members(3);
  const [dee, eve, fay] = senders;
  const group = (await dee.post('/chats', { type: 'group', name: 'Rush', participant_mrns: [eve.mrn, fay.mrn] })).body.data;
  const answers = await Promise.all(Array.from({ length: 15 }, (_, index) => senders[index % 3].post(`/chats/${group.id}/messages`, { body: `r${index}` })));
  t.deepEqual(answers.map((answer) => answer.status), Array(15).fill(200));
  const seqs = answers.map((answer) => answer.body.data.seq as number);
  t.deepEqual([...seqs].sort((a, b) => a - b), Array.from({ length: 15 }, (_, index) => index + 1));
  const listed = (await dee.get(`/chats/${group.id}/messages?per_page=50`)).body.data as Array<{ seq: number; body: string }>;
  t.deepEqual(listed.map((message) => [message.seq, message.body]), answers.map((answer, index) => [seqs[index], `r${index}`]).sort((a, b) => Number(b[0]) - Number(a[0])));
  t.is((await dee.get(`/chats/${group.id}`)).body.data.last_seq, 15);
  const lastOf = (index: number) => Math.max(...seqs.filter((_, at) => at % 3 === index));
  const positions = (await dee.get(`/chats/${group.id}/participants`)).body.data as Array<{ member_id: string; last_read_seq: number }>;
  t.deepEqual(Object.fromEntries(positions.map((row) => [row.member_id, row.last_read_seq])), { [dee.id]: lastOf(0), [eve.id]: lastOf(1), [fay.id]: lastOf(2) });
  // Replies at once to one message: each is counted on it.
  const first = answers[0].body.data.id as string;
  const replies = await Promise.all(Array.from({ length: 6 }, (_, index) => senders[index % 3].post(`/chats/${group.id}/messages`, { body: `re${index}`, parent_id: first })));
  t.deepEqual(replies.map((answer) => answer.status), Array(6).fill(200));
  const thread = (await dee.get(`/chats/${group.id}/messages?per_page=50`)).body.data as Array<{ id: string; reply_count: number }>;
  t.is(thread.find((message) => message.id === first)!.reply_count, 6);
});

test('only participants post: a stranger\'s post to a private chat is a 404, to a channel not joined a 403, and a chat that is not there a 404; nothing is written', async (t) => {
  const [gus, hal] = await world.members(2);
  const group = (await gus.post('/chats', { type: 'group', name: 'Inner', participant_mrns: [ann.mrn] })).body.data;
  const channel = (await gus.post('/chats', { type: 'channel', name: 'open-floor' })).body.data;
  const hidden = await hal.post(`/chats/${group.id}/messages`, { body: 'let me in' });
  t.deepEqual([hidden.status, hidden.body], [404, { error: `Chat ${group.id} not found` }]);
  const unjoined = await hal.post(`/chats/${channel.id}/messages`, { body: 'hello?' });
  t.deepEqual([unjoined.status, unjoined.body], [403, { error: 'Join channel open-floor first: only its participants may do this' }]);
  const missing = '00000000-0000-4000-8000-000000000000';
  const gone = await gus.post(`/chats/${missing}/messages`, { body: 'x' });
  t.deepEqual([gone.status, gone.body], [404, { error: `Chat ${missing} not found` }]);
  const malformed = await gus.post('/chats/not-an-id/messages', { body: 'x' });
  t.deepEqual([malformed.status, malformed.body], [404, { error: 'Chat not-an-id not found' }]);
  // The id in capitals names the same chat, and its uploads by the id as stored.
  const shouting = `/chats/${group.id.toUpperCase()}/messages`;
  const empty = await gus.post(shouting, { body: ' ' });
  t.deepEqual([empty.status, empty.body], [400, { error: 'body is required (or a file)' }]);
  const unstored = await gus.post(shouting, { file: { file_key: `chats/${group.id}/nothing.txt` } });
  t.deepEqual([unstored.status, unstored.body], [400, { error: `file.file_key chats/${group.id}/nothing.txt names no file of the chat app` }]);
  t.is((await gus.get(`/chats/${group.id}`)).body.data.last_seq, 0);
  t.is((await gus.get(`/chats/${channel.id}`)).body.data.last_seq, 0);
});

test.serial('a member posts at most 120 messages a minute: the next is 429 with Retry-After, writes nothing and emits nothing; others still post', async (t) => {
  const dan = await world.member();
  const chatId = (await dan.post('/chats', { type: 'group', name: 'Flood', participant_mrns: [ann.mrn] })).body.data.id as string;
  world.takeEvents();
  for (let batch = 0; batch < 12; batch += 1) {
    const answers = await Promise.all(Array.from({ length: 10 }, (_, index) => dan.post(`/chats/${chatId}/messages`, { body: `m${batch * 10 + index}` })));
    t.deepEqual(answers.map((answer) => answer.status), Array(10).fill(200));
  }
  t.is(world.takeEvents().filter((event) => event.action === 'core.chat.message.sent').length, 120);
  const refused = await dan.post(`/chats/${chatId}/messages`, { body: 'one too many' });
  t.deepEqual([refused.status, refused.body], [429, { error: 'You are sending messages too fast; wait a moment and try again' }]);
  t.true(Number(refused.headers['retry-after']) >= 1 && Number(refused.headers['retry-after']) <= 60);
  t.deepEqual(world.takeEvents(), []);
  t.is((await dan.get(`/chats/${chatId}/messages`)).body.pagination.total, 120);
  t.is((await ann.post(`/chats/${chatId}/messages`, { body: 'still here' })).status, 200, 'the counter is the member’s own');
  world.platform.clock.advance({ seconds: 61 });
  t.is((await dan.post(`/chats/${chatId}/messages`, { body: 'a minute later' })).status, 200);
});

test('the permission matrix: every route refuses a member without its key with the exact 403, and lets a holder through', async (t) => {
  const rows = await world.workspace.permissionMatrix('chat', { params: { emoji: '%F0%9F%91%8D', member_mrn: ann.mrn } });
  t.is(rows.length, manifest.authorization.length);
  checkMatrixRows(t, rows);
});

test.serial('the schema can be distributed by workspace', async (t) => {
  t.deepEqual(await world.platform.distributionProblems(), []);
});
