import test from 'ava';
import { checkDropMigration, checkMatrixRows, ok, type TestMember } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };
import { ALL_KEYS, roomsWorld } from './helpers/world.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000abc';
const path = (roomId: string, member: TestMember | string) => `/rooms/${roomId}/members/${encodeURIComponent(typeof member === 'string' ? member : member.mrn)}`;

const { world, ann, bob, cid } = await roomsWorld('rooms');
test.after.always(() => world.close());

test.serial('POST /rooms creates a room with the caller as owner and the named members; room.created and one member.added each', async (t) => {
  world.takeEvents();
  const reply = await ann.post('/rooms', { name: '  Design review ', description: 'Weekly', members: [{ member_mrn: bob.mrn, role: 'moderator' }, { member_mrn: cid.mrn }] });
  t.is(reply.status, 200);
  const room = reply.body.data;
  t.deepEqual(reply.body.links, { self: `/rooms/${room.id}` });
  t.deepEqual(room, {
    id: room.id, name: 'Design review', description: 'Weekly', visibility: 'workspace', locked: false, max_participants: 12,
    creator_mrn: ann.mrn, role: 'owner', member_count: 3, present_mrns: [], created_at: room.created_at, updated_at: room.updated_at,
  });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.rooms.room.created', payload: { room_id: room.id, name: 'Design review', visibility: 'workspace', creator_mrn: ann.mrn } },
    { action: 'core.rooms.member.added', payload: { room_id: room.id, member_mrn: ann.mrn, role: 'owner', added_by_mrn: ann.mrn } },
    { action: 'core.rooms.member.added', payload: { room_id: room.id, member_mrn: bob.mrn, role: 'moderator', added_by_mrn: ann.mrn } },
    { action: 'core.rooms.member.added', payload: { room_id: room.id, member_mrn: cid.mrn, role: 'member', added_by_mrn: ann.mrn } },
  ]);
  const members = await bob.get(`/rooms/${room.id}/members`);
  t.deepEqual(members.body.data.map((row: any) => [row.member_mrn, row.role, row.present, row.added_by_mrn]), [
    [ann.mrn, 'owner', false, ann.mrn],
    [bob.mrn, 'moderator', false, ann.mrn],
    [cid.mrn, 'member', false, ann.mrn],
  ]);
  t.deepEqual((await cid.get(`/rooms/${room.id}`)).body.data.role, 'member');
});

test.serial('bad input names the field; a name is unique in the workspace whatever its case; capacity is bounded by the setting; nothing is written', async (t) => {
  ok(await ann.post('/rooms', { name: 'Standup' }));
  world.takeEvents();
  const cases: Array<[unknown, number, string, string?]> = [
    [{}, 400, 'name is required', 'name'],
    [{ name: '   ' }, 400, 'name is not allowed to be empty', 'name'],
    [{ name: 'x'.repeat(101) }, 400, 'name length must be less than or equal to 100 characters long', 'name'],
    [{ name: 'STANDUP' }, 400, 'name: a room named STANDUP already exists'],
    [{ name: 'Other', visibility: 'secret' }, 400, 'visibility must be one of [workspace, private]', 'visibility'],
    [{ name: 'Other', max_participants: 1 }, 400, 'max_participants must be greater than or equal to 2', 'max_participants'],
    [{ name: 'Other', max_participants: 26 }, 400, "max_participants: at most 25 (the workspace's setting)"],
    [{ name: 'Other', members: [{ member_mrn: 'bob' }] }, 400, 'members[0].member_mrn must be a member MRN (mrn:account:member:<id>)', 'members[0].member_mrn'],
    [{ name: 'Other', members: [{ member_mrn: bob.mrn }, { member_mrn: bob.mrn }] }, 400, `members[1].member_mrn: ${bob.mrn} is named twice`],
    [{ name: 'Other', members: [{ member_mrn: bob.mrn, role: 'king' }] }, 400, 'members[0].role must be one of [owner, moderator, member]', 'members[0].role'],
  ];
  for (const [body, status, error, field] of cases) {
    const reply = await ann.post('/rooms', body);
    t.deepEqual([reply.status, reply.body], [status, field === undefined ? { error } : { error, field }], JSON.stringify(body));
  }
  t.deepEqual(world.takeEvents(), []);
  t.deepEqual(await world.platform.query("SELECT count(*)::int AS n FROM app_rooms.rooms WHERE workspace_id = :w AND name = 'Other'", { w: world.workspace.id }), [{ n: 0 }]);
});

test.serial('GET /rooms lists the rooms open to the workspace and the caller\'s private ones, by name; mine, q and visibility narrow it', async (t) => {
  const secret = ok(await bob.post('/rooms', { name: 'Zeta private', visibility: 'private' }));
  const open = ok(await bob.post('/rooms', { name: 'Alpha open' }));
  const names = async (member: TestMember, query = '') => (await member.get(`/rooms?per_page=100${query}`)).body.data.map((room: any) => room.name);
  t.deepEqual(await names(bob), ['Alpha open', 'Design review', 'Standup', 'Zeta private']);
  t.deepEqual(await names(ann), ['Alpha open', 'Design review', 'Standup']);
  t.deepEqual(await names(bob, '&mine=true'), ['Alpha open', 'Design review', 'Zeta private']);
  t.deepEqual(await names(bob, '&q=PRIV'), ['Zeta private']);
  t.deepEqual(await names(bob, '&visibility=private'), ['Zeta private']);
  const hidden = await ann.get(`/rooms/${secret.id}`);
  t.deepEqual([hidden.status, hidden.body], [404, { error: `Room ${secret.id} not found` }]);
  t.deepEqual([(await ann.get(`/rooms/${UNKNOWN}`)).status, (await ann.get('/rooms/not-an-id')).status], [404, 404]);
  t.like((await ann.get(`/rooms/${open.id}`)).body.data, { name: 'Alpha open', role: null, member_count: 1 });
  // The workspace's owner moderates every room, private ones included.
  t.deepEqual(await names(world.owner), ['Alpha open', 'Design review', 'Standup', 'Zeta private']);
});

test.serial('UpdateRoom: moderators change name, lock and capacity, only owners the visibility; room.updated carries the new values once', async (t) => {
  const room = ok(await ann.post('/rooms', { name: 'Planning', members: [{ member_mrn: bob.mrn, role: 'moderator' }, { member_mrn: cid.mrn }] }));
  world.takeEvents();
  const byMember = await cid.patch(`/rooms/${room.id}`, { locked: true });
  t.deepEqual([byMember.status, byMember.body], [403, { error: "Only the room's owners and moderators may change it" }]);
  const updated = ok(await bob.patch(`/rooms/${room.id}`, { name: 'Planning room', locked: true, max_participants: 4, description: '' }));
  t.like(updated, { name: 'Planning room', locked: true, max_participants: 4, role: 'moderator' });
  const visibility = await bob.patch(`/rooms/${room.id}`, { visibility: 'private' });
  t.deepEqual([visibility.status, visibility.body], [403, { error: "Only the room's owners may change its visibility" }]);
  const clash = await ann.patch(`/rooms/${room.id}`, { name: 'standup' });
  t.deepEqual([clash.status, clash.body], [400, { error: 'name: a room named standup already exists' }]);
  t.like(ok(await ann.patch(`/rooms/${room.id}`, { visibility: 'private', locked: true })), { visibility: 'private', locked: true });
  const empty = await ann.patch(`/rooms/${room.id}`, {});
  t.deepEqual([empty.status, empty.body], [400, { error: 'body must contain at least one of [name, description, visibility, locked, max_participants]' }]);
  t.deepEqual(world.takeEvents(), [
    { action: 'core.rooms.room.updated', payload: { room_id: room.id, changes: { name: 'Planning room', locked: true, max_participants: 4 }, updated_by_mrn: bob.mrn } },
    { action: 'core.rooms.room.updated', payload: { room_id: room.id, changes: { visibility: 'private' }, updated_by_mrn: ann.mrn } },
  ]);
});

test.serial('members: a room open to the workspace may be joined; adding others takes a moderator, the owner role an owner; twice is a 409', async (t) => {
  const room = ok(await ann.post('/rooms', { name: 'Lounge', members: [{ member_mrn: bob.mrn, role: 'moderator' }] }));
  const priv = ok(await ann.post('/rooms', { name: 'Board room', visibility: 'private' }));
  world.takeEvents();
  t.like(ok(await cid.post(`/rooms/${room.id}/members`, { member_mrn: cid.mrn })), { member_mrn: cid.mrn, role: 'member', added_by_mrn: cid.mrn, present: false });
  const asModerator = await cid.post(`/rooms/${room.id}/members`, { member_mrn: cid.mrn, role: 'moderator' });
  t.deepEqual([asModerator.status, asModerator.body], [403, { error: "Only the room's owners and moderators may add members" }]);
  const again = await cid.post(`/rooms/${room.id}/members`, { member_mrn: cid.mrn });
  t.deepEqual([again.status, again.body], [409, { error: `member_mrn: ${cid.mrn} is already a member of this room` }]);
  const twice = await bob.post(`/rooms/${room.id}/members`, { member_mrn: cid.mrn });
  t.deepEqual([twice.status, twice.body], [409, { error: `member_mrn: ${cid.mrn} is already a member of this room` }]);
  const hidden = await cid.post(`/rooms/${priv.id}/members`, { member_mrn: cid.mrn });
  t.deepEqual([hidden.status, hidden.body], [404, { error: `Room ${priv.id} not found` }]);
  const owner = await bob.post(`/rooms/${priv.id}/members`, { member_mrn: cid.mrn });
  t.is(owner.status, 404);
  const dave = await world.member();
  const makeOwner = await bob.post(`/rooms/${room.id}/members`, { member_mrn: dave.mrn, role: 'owner' });
  t.deepEqual([makeOwner.status, makeOwner.body], [403, { error: "Only the room's owners may make someone an owner" }]);
  t.like(ok(await bob.post(`/rooms/${room.id}/members`, { member_mrn: dave.mrn, role: 'moderator' })), { role: 'moderator', added_by_mrn: bob.mrn });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.rooms.member.added', payload: { room_id: room.id, member_mrn: cid.mrn, role: 'member', added_by_mrn: cid.mrn } },
    { action: 'core.rooms.member.added', payload: { room_id: room.id, member_mrn: dave.mrn, role: 'moderator', added_by_mrn: bob.mrn } },
  ]);
});

test.serial('UpdateMember: only owners change roles; the last owner cannot step down; an unknown member is a 404', async (t) => {
  const room = ok(await ann.post('/rooms', { name: 'Roles', members: [{ member_mrn: bob.mrn, role: 'moderator' }, { member_mrn: cid.mrn }] }));
  world.takeEvents();
  const byModerator = await bob.patch(path(room.id, cid), { role: 'moderator' });
  t.deepEqual([byModerator.status, byModerator.body], [403, { error: "Only the room's owners may change roles" }]);
  const last = await ann.patch(path(room.id, ann), { role: 'member' });
  t.deepEqual([last.status, last.body], [400, { error: 'role: a room keeps at least one owner; make someone else owner first' }]);
  const nobody = await ann.patch(path(room.id, `mrn:account:member:${UNKNOWN}`), { role: 'member' });
  t.deepEqual([nobody.status, nobody.body], [404, { error: `member_mrn: mrn:account:member:${UNKNOWN} is not a member of this room` }]);
  const bad = await ann.patch(path(room.id, 'bob'), { role: 'member' });
  t.deepEqual([bad.status, bad.body], [400, { error: 'member_mrn must be a member MRN (mrn:account:member:<id>)' }]);
  t.like(ok(await ann.patch(path(room.id, bob), { role: 'owner' })), { member_mrn: bob.mrn, role: 'owner' });
  t.like(ok(await ann.patch(path(room.id, bob), { role: 'owner' })), { role: 'owner' });
  t.like(ok(await bob.patch(path(room.id, ann), { role: 'member' })), { role: 'member' });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.rooms.member.updated', payload: { room_id: room.id, member_mrn: bob.mrn, role: 'owner', updated_by_mrn: ann.mrn } },
    { action: 'core.rooms.member.updated', payload: { room_id: room.id, member_mrn: ann.mrn, role: 'member', updated_by_mrn: bob.mrn } },
  ]);
});

test.serial('removing members: anyone leaves, moderators remove members only, owners anyone; the last owner stays', async (t) => {
  const dave = await world.member();
  const room = ok(await ann.post('/rooms', { name: 'Removals', members: [{ member_mrn: bob.mrn, role: 'moderator' }, { member_mrn: cid.mrn }, { member_mrn: dave.mrn, role: 'moderator' }] }));
  world.takeEvents();
  const modOnMod = await bob.delete(path(room.id, dave));
  t.deepEqual([modOnMod.status, modOnMod.body], [403, { error: "A moderator may remove members only; the room's owners remove moderators and owners" }]);
  const memberOnMember = await cid.delete(path(room.id, dave));
  t.deepEqual([memberOnMember.status, memberOnMember.body], [403, { error: "Only the room's owners and moderators may remove members" }]);
  t.deepEqual(ok(await bob.delete(path(room.id, cid))), { room_id: room.id, member_mrn: cid.mrn, removed: true });
  t.deepEqual(ok(await dave.delete(path(room.id, dave))), { room_id: room.id, member_mrn: dave.mrn, removed: true });
  const lastOwner = await ann.delete(path(room.id, ann));
  t.deepEqual([lastOwner.status, lastOwner.body], [400, { error: 'The last owner cannot leave the room: make someone else owner first, or delete the room' }]);
  t.deepEqual(ok(await ann.delete(path(room.id, bob))), { room_id: room.id, member_mrn: bob.mrn, removed: true });
  const gone = await ann.delete(path(room.id, bob));
  t.deepEqual([gone.status, gone.body], [404, { error: `member_mrn: ${bob.mrn} is not a member of this room` }]);
  t.deepEqual(world.takeEvents(), [
    { action: 'core.rooms.member.removed', payload: { room_id: room.id, member_mrn: cid.mrn, removed_by_mrn: bob.mrn } },
    { action: 'core.rooms.member.removed', payload: { room_id: room.id, member_mrn: dave.mrn, removed_by_mrn: dave.mrn } },
    { action: 'core.rooms.member.removed', payload: { room_id: room.id, member_mrn: bob.mrn, removed_by_mrn: ann.mrn } },
  ]);
});

test.serial('DELETE /rooms/{id}: owners (or rooms.rooms.manage) only; the room, its members and its index entry go', async (t) => {
  const room = ok(await ann.post('/rooms', { name: 'Short lived', members: [{ member_mrn: bob.mrn, role: 'moderator' }] }));
  world.takeEvents();
  const before = world.platform.search.length;
  const byModerator = await bob.delete(`/rooms/${room.id}`);
  t.deepEqual([byModerator.status, byModerator.body], [403, { error: "Only the room's owners may delete it" }]);
  t.deepEqual(ok(await ann.delete(`/rooms/${room.id}`)), { id: room.id, deleted: true });
  t.deepEqual(world.takeEvents(), [{ action: 'core.rooms.room.deleted', payload: { room_id: room.id, deleted_by_mrn: ann.mrn } }]);
  t.deepEqual(world.platform.search.slice(before).map((change) => [change.op, change.op === 'remove' ? change.id : change.document.id]), [['remove', room.id]]);
  t.is((await ann.get(`/rooms/${room.id}`)).status, 404);
  t.deepEqual(await world.platform.query('SELECT count(*)::int AS n FROM app_rooms.room_members WHERE workspace_id = :w AND room_id = :r', { w: world.workspace.id, r: room.id }), [{ n: 0 }]);
  const manager = await world.member(['rooms.rooms.read', 'rooms.rooms.manage']);
  const other = ok(await bob.post('/rooms', { name: 'Moderated away', visibility: 'private' }));
  t.deepEqual(ok(await manager.delete(`/rooms/${other.id}`)), { id: other.id, deleted: true });
});

test.serial('search: a room open to the workspace is found by everyone, a private one by its members only (its readers follow them)', async (t) => {
  const before = world.platform.search.length;
  const townHall = ok(await ann.post('/rooms', { name: 'Town hall', description: 'All hands' }));
  const quiet = ok(await ann.post('/rooms', { name: 'Quiet corner', visibility: 'private', members: [{ member_mrn: bob.mrn }] }));
  ok(await ann.patch(`/rooms/${townHall.id}`, { visibility: 'private' }));
  ok(await ann.post(`/rooms/${quiet.id}/members`, { member_mrn: cid.mrn }));
  ok(await ann.delete(`/rooms/${quiet.id}/members/${encodeURIComponent(bob.mrn)}`));
  const sorted = (...members: TestMember[]) => members.map((member) => member.id).sort();
  t.deepEqual(world.platform.search.slice(before).map((change) => (change.op === 'upsert' ? [change.document.id, change.document.title, change.document.details, change.document.readers] : ['remove', change.id])), [
    [townHall.id, 'Town hall', ['All hands'], null],
    [quiet.id, 'Quiet corner', [''], sorted(ann, bob)],
    [townHall.id, 'Town hall', ['All hands'], [ann.id]],
    [quiet.id, 'Quiet corner', [''], sorted(ann, bob, cid)],
    [quiet.id, 'Quiet corner', [''], sorted(ann, cid)],
  ]);
  const all = (await world.platform.query<{ n: number }>('SELECT count(*)::int AS n FROM app_rooms.rooms WHERE workspace_id = :w', { w: world.workspace.id }))[0].n;
  const reindexed = await world.platform.runtime.reindexSearch({ app: 'rooms', workspaceId: world.workspace.id });
  t.deepEqual(reindexed.map((row) => [row.app, row.type, row.documents]), [['rooms', 'room', all]]);
});

test.serial('a member removed from the workspace leaves every room (member.removed each); a redelivery changes nothing; they cannot be added again until they rejoin', async (t) => {
  const erin = await world.member();
  const one = ok(await ann.post('/rooms', { name: 'Erin one', members: [{ member_mrn: erin.mrn }] }));
  const two = ok(await ann.post('/rooms', { name: 'Erin two', members: [{ member_mrn: erin.mrn, role: 'moderator' }] }));
  t.is((await world.owner.delete(`/members/${erin.id}`)).status, 200);
  world.takeEvents();
  const expected = [one.id, two.id].sort().map((roomId) => ({ action: 'core.rooms.member.removed', payload: { room_id: roomId, member_mrn: erin.mrn } }));
  t.deepEqual(await world.platform.deliver(world.workspace, 'core.account.member.removed', { member_id: erin.id, removed_by: ann.id }), { rooms: 'handled' });
  t.deepEqual(world.takeEvents(), expected);
  await world.platform.deliver(world.workspace, 'core.account.member.removed', { member_id: erin.id, removed_by: ann.id });
  t.deepEqual(world.takeEvents(), []);
  const again = await ann.post(`/rooms/${one.id}/members`, { member_mrn: erin.mrn });
  t.deepEqual([again.status, again.body], [400, { error: `member_mrn ${erin.mrn} is no longer a member of this workspace` }]);
  // Erin rejoins the workspace (the same member, active again): she can be added at once.
  t.is((await world.workspace.member({ email: erin.email, permissions: ALL_KEYS })).id, erin.id);
  t.is((await ann.post(`/rooms/${one.id}/members`, { member_mrn: erin.mrn })).status, 200);
});

test.serial('every member_mrn a room stores names a member of this workspace: a random id, another workspace\'s member and a removed member are a 400 naming the field, nothing written; a newcomer is accepted at once', async (t) => {
  const room = ok(await ann.post('/rooms', { name: 'Checked' }));
  const elsewhere = (await world.otherWorkspace('rooms-elsewhere')).owner;
  const gone = await world.member();
  t.is((await world.owner.delete(`/members/${gone.id}`)).status, 200);
  const stranger = `mrn:account:member:${UNKNOWN}`;
  world.takeEvents();
  const refusals: Array<[string, string]> = [
    [stranger, 'is not a member of this workspace'],
    [elsewhere.mrn, 'is not a member of this workspace'],
    [gone.mrn, 'is no longer a member of this workspace'],
  ];
  for (const [mrn, why] of refusals) {
    const created = await ann.post('/rooms', { name: 'Never', members: [{ member_mrn: bob.mrn }, { member_mrn: mrn }] });
    t.deepEqual([created.status, created.body], [400, { error: `members[].member_mrn ${mrn} ${why}` }]);
    const added = await ann.post(`/rooms/${room.id}/members`, { member_mrn: mrn });
    t.deepEqual([added.status, added.body], [400, { error: `member_mrn ${mrn} ${why}` }]);
  }
  t.deepEqual(world.takeEvents(), []);
  t.deepEqual(await world.platform.query("SELECT count(*)::int AS n FROM app_rooms.rooms WHERE workspace_id = :w AND name = 'Never'", { w: world.workspace.id }), [{ n: 0 }]);
  t.deepEqual(ok(await ann.get(`/rooms/${room.id}/members`)).map((row: any) => row.member_mrn), [ann.mrn]);

  const newcomer = await world.member();
  t.like(ok(await ann.post(`/rooms/${room.id}/members`, { member_mrn: newcomer.mrn })), { member_mrn: newcomer.mrn, role: 'member' });
  t.like(ok(await ann.post('/rooms', { name: 'Welcome', members: [{ member_mrn: (await world.member()).mrn }] })), { member_count: 2 });
});

test('the permission matrix: every route refuses a member without its key with the exact 403, and lets a holder through', async (t) => {
  const rows = await world.workspace.permissionMatrix('rooms', { params: { member_mrn: ann.mrn } });
  t.is(rows.length, manifest.authorization.length);
  checkMatrixRows(t, rows);
});

test.serial('migration 0002 drops the app\'s old copy of the member directory; down re-creates it empty, up drops it again, the rooms untouched', async (t) => {
  const rooms = async () => (await world.query<{ n: number }>('SELECT count(*)::int AS n FROM app_rooms.rooms WHERE workspace_id = :w', { w: world.workspaceId }))[0].n;
  const before = await rooms();
  await checkDropMigration(t, world, '0002-drop-member-directory', 'app_rooms.member_directory');
  t.is(await rooms(), before);
});

test.serial('the schema can be distributed by workspace', async (t) => {
  t.deepEqual(await world.platform.distributionProblems(), []);
});
