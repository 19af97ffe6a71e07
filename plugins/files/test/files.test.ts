import test from 'ava';
import { filesWorld, type Caller } from './helpers/world.js';

const world = await filesWorld('drive');
const [alice, bob] = await world.members(2);
const reader = await world.member(['files.files.read']);
world.takeEvents();
test.after.always(() => world.close());

const names = (body: { data: Array<{ name: string }> }) => body.data.map((item) => item.name);

test.serial('folders and uploads make a member space; listings put folders first, then files, by name', async (t) => {
  const docs = await alice.post('/folders', { name: 'Docs' });
  t.is(docs.status, 200);
  t.like(docs.body.data, { kind: 'folder', name: 'Docs', parent_id: null, owner_mrn: alice.mrn, type: 'folder', size_bytes: 0 });
  t.is((await alice.post('/folders', { name: 'docs' })).status, 409);
  const note = await world.upload(alice, { name: 'note.txt' }, 'hello world', 'text/plain');
  t.is(note.status, 200);
  t.like(note.body.data, { kind: 'file', name: 'note.txt', size_bytes: 11, content_type: 'text/plain', type: 'text', version_number: 1, created: true });
  const inner = await world.upload(alice, { name: 'plan.txt', folder_id: docs.body.data.id }, 'v1', 'text/plain');
  t.is(inner.body.data.parent_id, docs.body.data.id);
  await alice.post('/folders', { name: 'Archive' });

  const root = await alice.get('/files');
  t.deepEqual(names(root.body), ['Archive', 'Docs', 'note.txt']);
  t.like(root.body.pagination, { page: 1, total: 3 });
  t.deepEqual(names((await alice.get(`/files?folder_id=${docs.body.data.id}`)).body), ['plan.txt']);
  t.deepEqual(names((await bob.get('/files')).body), [], "another member's space is their own");
  t.is((await bob.get(`/files/${note.body.data.id}`)).status, 404);
  t.is(await world.download(alice, note.body.data.id), 'hello world');

  const events = world.takeEvents();
  t.deepEqual(events.map((event) => event.action), ['core.files.folder.created', 'core.files.file.created', 'core.files.file.created', 'core.files.folder.created']);
  t.like(events[1].payload, { item_id: note.body.data.id, name: 'note.txt', owner_mrn: alice.mrn, created_by: alice.mrn, size_bytes: 11, content_type: 'text/plain' });
});

test.serial('a file is downloaded under the exact name it was given: quotes, accents and emoji travel in filename* (RFC 6266) beside an ASCII fallback', async (t) => {
  for (const [name, fallback, encoded] of [
    ['Q3 "final" report.txt', 'Q3 _final_ report.txt', 'Q3%20%22final%22%20report.txt'],
    ["Zoë's plan (v2) 📎.csv", "Zo_'s plan (v2) _.csv", 'Zo%C3%AB%27s%20plan%20%28v2%29%20%F0%9F%93%8E.csv'],
  ]) {
    const uploaded = await world.upload(alice, { name }, 'the numbers', name.endsWith('.txt') ? 'text/plain' : 'text/csv');
    t.is(uploaded.status, 200, name);
    const link = await alice.get(`/files/${uploaded.body.data.id}/download`);
    t.is(link.status, 200, `${name}: ${JSON.stringify(link.body)}`);
    const file = await world.platform.follow(link.body.data.url);
    t.is(file.status, 200, name);
    t.is(file.bytes.toString('utf8'), 'the numbers');
    t.is(file.headers['content-disposition'], `${name.endsWith('.txt') ? 'inline' : 'attachment'}; filename="${fallback}"; filename*=UTF-8''${encoded}`, name);
  }
  world.takeEvents();
});

test.serial('uploads: a name in use is a 409, the size is bounded by settings and plan, the link refuses more than declared, and no bytes means no file', async (t) => {
  const taken = await alice.post('/uploads', { name: 'NOTE.TXT', size_bytes: 3 });
  t.is(taken.status, 409);
  t.is(taken.body.error, 'A file or folder named NOTE.TXT already exists in this folder; upload with file_id to add a version');
  const plan = await alice.post('/uploads', { name: 'big.bin', size_bytes: 25 * 1024 * 1024 + 1 });
  t.is(plan.status, 413);
  t.is(plan.body.error, `size_bytes ${25 * 1024 * 1024 + 1} is larger than ${25 * 1024 * 1024} bytes, the largest file this workspace accepts`);
  t.is((await alice.post('/uploads', { name: 'x', folder_id: 'nope', size_bytes: 1 })).status, 404);
  t.is((await alice.post('/uploads', { name: 'a/b', size_bytes: 1 })).body.error, 'name must not contain / or \\');
  t.is((await alice.post('/uploads', { size_bytes: 1 })).body.error, 'name is required (or file_id, for a new version of a file)');

  const started = await alice.post('/uploads', { name: 'short.txt', size_bytes: 4 });
  t.is(started.status, 200);
  t.like(started.body.data, { name: 'short.txt', size_bytes: 4, method: 'PUT', folder_id: null, file_id: null });
  const early = await alice.post(`/uploads/${started.body.data.id}/completion`);
  t.is(early.status, 409);
  t.is(early.body.error, `No bytes have arrived for upload ${started.body.data.id} yet: PUT the file to its upload_url first`);
  const tooMuch = await world.platform.follow(started.body.data.upload_url, { method: 'PUT', body: 'five!' });
  t.is(tooMuch.status, 413);
  t.is((await bob.post(`/uploads/${started.body.data.id}/completion`)).status, 404, "another member's upload is not theirs to finish");
  t.deepEqual(await alice.delete(`/uploads/${started.body.data.id}`).then((r) => r.body.data), { id: started.body.data.id, deleted: true });
  t.is((await alice.post(`/uploads/${started.body.data.id}/completion`)).status, 404);

  const settings = await world.owner.put('/apps/files/settings', { max_file_bytes: 5, quota_bytes: 10737418240, max_versions: 2, link_seconds: 900 });
  t.is(settings.status, 200);
  t.is((await alice.post('/uploads', { name: 'six.txt', size_bytes: 6 })).status, 413);
  await world.owner.put('/apps/files/settings', { max_file_bytes: 104857600, quota_bytes: 10737418240, max_versions: 2, link_seconds: 900 });
  t.deepEqual(world.takeEvents(), []);
});

test.serial('overwrites make versions: listed newest first, older ones downloadable and restorable, the oldest beyond max_versions dropped', async (t) => {
  const file = await world.upload(alice, { name: 'report.txt' }, 'one', 'text/plain');
  const id = file.body.data.id;
  world.takeEvents();
  const two = await world.upload(alice, { file_id: id }, 'two!', 'text/plain');
  t.like(two.body.data, { id, version_number: 2, size_bytes: 4, created: false });
  await world.upload(alice, { file_id: id }, 'three', 'text/plain');
  const versions = await alice.get(`/files/${id}/versions`);
  t.deepEqual(versions.body.data.map((v: { number: number; current: boolean }) => [v.number, v.current]), [[3, true], [2, false]], 'max_versions is 2: version 1 is gone');
  t.is(await world.download(alice, id), 'three');
  const old = versions.body.data[1];
  const oldLink = await alice.get(`/files/${id}/versions/${old.id}/download`);
  t.is((await world.platform.follow(oldLink.body.data.url)).bytes.toString(), 'two!');
  const restored = await alice.post(`/files/${id}/versions/${old.id}/restoration`);
  t.like(restored.body.data, { version_number: 4, size_bytes: 4 });
  t.is(await world.download(alice, id), 'two!');
  t.is((await alice.post(`/files/${id}/versions/${restored.body.data.version_id}/restoration`)).status, 409);
  const events = world.takeEvents();
  t.deepEqual(events.map((event) => [event.action, event.payload.number]), [['core.files.version.created', 2], ['core.files.version.created', 3], ['core.files.version.created', 4]]);
  t.is(events[2].payload.restored_from, old.id);
});

test.serial('rename, move within the space, never into itself; copy brings a folder with its files', async (t) => {
  const projects = (await alice.post('/folders', { name: 'Projects' })).body.data;
  const sub = (await alice.post('/folders', { name: 'Sub', parent_id: projects.id })).body.data;
  const file = (await world.upload(alice, { name: 'a.txt', folder_id: sub.id }, 'aaa', 'text/plain')).body.data;
  world.takeEvents();
  const renamed = await alice.patch(`/files/${file.id}`, { name: 'b.txt' });
  t.is(renamed.body.data.name, 'b.txt');
  const moved = await alice.patch(`/files/${file.id}`, { parent_id: null });
  t.is(moved.body.data.parent_id, null);
  const loop = await alice.patch(`/files/${projects.id}`, { parent_id: sub.id });
  t.is(loop.status, 400);
  t.is(loop.body.error, 'parent_id: Projects cannot move into itself or a folder inside it');
  t.is((await alice.patch(`/files/${file.id}`, { name: 'note.txt' })).status, 409);
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload.changed_fields]), [['core.files.item.updated', ['name']], ['core.files.item.updated', ['parent_id']]]);

  await alice.patch(`/files/${file.id}`, { parent_id: sub.id });
  world.takeEvents();
  const copy = await alice.post(`/files/${projects.id}/copies`, {});
  t.is(copy.status, 200);
  t.like(copy.body.data, { name: 'Copy of Projects', kind: 'folder', parent_id: null });
  const copiedSub = (await alice.get(`/files?folder_id=${copy.body.data.id}`)).body.data[0];
  t.is(copiedSub.name, 'Sub');
  const copiedFile = (await alice.get(`/files?folder_id=${copiedSub.id}`)).body.data[0];
  t.like(copiedFile, { name: 'b.txt', size_bytes: 3, version_number: 1 });
  t.is(await world.download(alice, copiedFile.id), 'aaa');
  t.is((await alice.post(`/files/${projects.id}/copies`, {})).body.data.name, 'Copy of Projects (2)');
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.files.item.copied', 'core.files.item.copied']);
});

test.serial('trash: delete hides the item and what it holds; restore brings them back (suffixed when the name was taken); purge frees the bytes', async (t) => {
  const box = (await alice.post('/folders', { name: 'Box' })).body.data;
  const inside = (await world.upload(alice, { name: 'in.txt', folder_id: box.id }, '12345', 'text/plain')).body.data;
  world.takeEvents();
  const trashed = await alice.delete(`/files/${box.id}`);
  t.like(trashed.body.data, { trashed: true });
  t.is((await alice.get(`/files/${inside.id}`)).status, 404);
  t.false(names((await alice.get('/files')).body).includes('Box'));
  t.deepEqual(names((await alice.get('/trash')).body), ['Box']);
  await alice.post('/folders', { name: 'Box' });
  const restored = await alice.post(`/trash/${box.id}/restoration`);
  t.like(restored.body.data, { name: 'Box (2)', trashed: false });
  t.is((await alice.get(`/files/${inside.id}`)).body.data.name, 'in.txt');

  const before = (await world.owner.get('/admin/file-stats')).body.data.used_bytes;
  await alice.delete(`/files/${box.id}`);
  t.is((await bob.delete(`/trash/${box.id}`)).status, 404, "another member's trash");
  const purged = await alice.delete(`/trash/${box.id}`);
  t.deepEqual(purged.body.data, { id: box.id, purged: true, freed_bytes: 5 });
  t.is((await world.owner.get('/admin/file-stats')).body.data.used_bytes, before - 5);
  t.is((await alice.get('/trash')).body.pagination.total, 0);
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.files.item.trashed', 'core.files.folder.created', 'core.files.item.restored', 'core.files.item.trashed', 'core.files.item.purged']);
});

test.serial('sharing: read lets a member see and download, edit lets them upload and rename; only the owner shares; the member may leave', async (t) => {
  const shared = (await alice.post('/folders', { name: 'Shared' })).body.data;
  const doc = (await world.upload(alice, { name: 'doc.txt', folder_id: shared.id }, 'shared text', 'text/plain')).body.data;
  world.takeEvents();
  t.is((await bob.get(`/files/${doc.id}`)).status, 404);
  const put = await alice.put(`/files/${shared.id}/shares/${bob.id}`, { role: 'read' });
  t.like(put.body.data, { member_id: bob.id, role: 'read', created: true });
  t.deepEqual(names((await bob.get('/shared-files')).body), ['Shared']);
  t.is((await bob.get(`/files/${doc.id}`)).body.data.access, 'read');
  t.is(await world.download(bob, doc.id), 'shared text');
  const denied = await bob.patch(`/files/${doc.id}`, { name: 'mine.txt' });
  t.is(denied.status, 403);
  t.is(denied.body.error, 'doc.txt is shared with you read-only');
  t.is((await bob.put(`/files/${shared.id}/shares/${reader.id}`, { role: 'read' })).status, 403);

  await alice.put(`/files/${shared.id}/shares/${bob.id}`, { role: 'edit' });
  t.is((await bob.patch(`/files/${doc.id}`, { name: 'doc2.txt' })).status, 200);
  const added = await world.upload(bob, { name: 'from-bob.txt', folder_id: shared.id }, 'bob', 'text/plain');
  t.like(added.body.data, { owner_mrn: alice.mrn, created_by: bob.id }, "what an editor adds belongs to the folder's owner (Nextcloud)");
  t.is((await bob.delete(`/files/${shared.id}`)).status, 400, 'an editor cannot delete the shared item itself');
  t.deepEqual((await alice.get(`/files/${shared.id}/shares`)).body.data.map((s: { member_id: string; role: string }) => [s.member_id, s.role]), [[bob.id, 'edit']]);
  t.deepEqual((await bob.delete(`/files/${shared.id}/shares/${bob.id}`)).body.data, { file_id: shared.id, member_id: bob.id, deleted: true });
  t.is((await bob.get(`/files/${doc.id}`)).status, 404);
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.files.share.created', 'core.files.share.updated', 'core.files.item.updated', 'core.files.file.created', 'core.files.share.deleted']);
});

test.serial('sharing names members of this workspace: a newcomer at once, before they open Files; a random id or another workspace\'s member is a 400 naming the field', async (t) => {
  const folder = (await alice.post('/folders', { name: 'For newcomers' })).body.data;
  const elsewhere = (await world.otherWorkspace('files-elsewhere')).owner;
  world.takeEvents();
  for (const [id, who] of [['00000000-0000-4000-8000-000000000000', 'a random id'], [elsewhere.id, "another workspace's member"]]) {
    const refused = await alice.put(`/files/${folder.id}/shares/${id}`, { role: 'read' });
    t.deepEqual([refused.status, refused.body], [400, { error: `path parameter member_id ${id} is not a member of this workspace` }], who);
  }
  const malformed = await alice.put(`/files/${folder.id}/shares/bob`, { role: 'read' });
  t.deepEqual([malformed.status, malformed.body], [400, { error: 'path parameter member_id must be the id of a member of this workspace', field: 'member_id' }]);
  t.deepEqual(world.takeEvents(), [], 'a refused share emits nothing');
  const quiet = await world.workspace.member({ permissions: ['files.files.read'] });
  t.is((await alice.put(`/files/${folder.id}/shares/${quiet.id}`, { role: 'read' })).status, 200);
  t.is((await quiet.get(`/files/${folder.id}`)).status, 200);
  world.takeEvents();
});

test.serial('search: a file is found by its owner and the members it is shared with, with every picker filter', async (t) => {
  const photos = (await alice.post('/folders', { name: 'Photos' })).body.data;
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a3d4e2e10000000049454e44ae426082', 'hex');
  const image = (await world.upload(alice, { name: 'sunset-beach.png', folder_id: photos.id }, png, 'image/png')).body.data;
  t.like(image, { content_type: 'image/png', type: 'image' });
  const search = (caller: Caller, query: string) => caller.get(`/search?app=files&${query}`).then((response) => response.body.data.map((hit: { title: string }) => hit.title));
  t.deepEqual(await search(alice, 'q=sunset'), ['sunset-beach.png']);
  t.deepEqual(await search(bob, 'q=sunset'), [], 'not shared with bob');
  t.deepEqual(await search(world.owner, 'q=sunset'), [], "the owner of the workspace does not see a member's files in search either");
  await alice.put(`/files/${photos.id}/shares/${bob.id}`, { role: 'read' });
  t.deepEqual(await search(bob, 'q=sunset'), ['sunset-beach.png'], 'shared through its folder');

  t.deepEqual(await search(alice, 'q=sunset&type=image'), ['sunset-beach.png']);
  t.deepEqual(await search(alice, 'q=sunset&type=pdf'), []);
  t.deepEqual(await search(alice, `q=sunset&owner=${encodeURIComponent(alice.mrn)}`), ['sunset-beach.png']);
  t.deepEqual(await search(alice, `q=sunset&owner=${encodeURIComponent(bob.mrn)}`), []);
  t.deepEqual(await search(alice, `q=sunset&min_size=${png.length}&max_size=${png.length}`), ['sunset-beach.png']);
  t.deepEqual(await search(alice, `q=sunset&min_size=${png.length + 1}`), []);
  t.deepEqual(await search(alice, 'q=sunset&after=2000-01-01&before=2999-01-01'), ['sunset-beach.png']);
  t.deepEqual(await search(alice, 'q=sunset&after=2999-01-01'), []);
  t.deepEqual(await search(alice, 'q=sunset&content_type=image/png'), ['sunset-beach.png']);
  t.is((await alice.get('/search?app=files&q=sunset&min_size=-1')).status, 400);

  await alice.delete(`/files/${image.id}`);
  t.deepEqual(await search(alice, 'q=sunset'), [], 'the trash is not searched');
  await alice.post(`/trash/${image.id}/restoration`);
  t.deepEqual(await search(alice, 'q=sunset'), ['sunset-beach.png']);
  const hits = await alice.get('/search?app=files&q=sunset');
  t.like(hits.body.data[0], { type: 'file', title: 'sunset-beach.png', subtitle: 'Photos', url: `/files/${image.id}` });

  // A full re-index (wpk search reindex) rebuilds the same documents, readers included.
  await world.platform.runtime.reindexSearch({ app: 'files', workspaceId: world.workspaceId });
  t.deepEqual(await search(bob, 'q=sunset&type=image'), ['sunset-beach.png']);
  t.deepEqual(await search(world.owner, 'q=sunset'), []);
});

test.serial('member events: a removed member loses what was shared with them and cannot be shared with', async (t) => {
  const folder = (await alice.post('/folders', { name: 'Team' })).body.data;
  const leaving = await world.member(['files.files.read']);
  await alice.put(`/files/${folder.id}/shares/${leaving.id}`, { role: 'read' });
  t.is((await world.owner.delete(`/members/${leaving.id}`)).status, 200);
  await world.deliver('core.account.member.removed', { member_id: leaving.id, removed_by: world.owner.id });
  t.deepEqual((await alice.get(`/files/${folder.id}/shares`)).body.data, []);
  world.takeEvents();
  const refused = await alice.put(`/files/${folder.id}/shares/${leaving.id}`, { role: 'read' });
  t.is(refused.status, 400);
  t.is(refused.body.error, `path parameter member_id ${leaving.id} is no longer a member of this workspace`);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('permissions: each route asks its key; the admin routes refuse members whatever they hold', async (t) => {
  const rows = await world.workspace.permissionMatrix('files', {});
  t.true(rows.length > 0);
  const holder = await world.member(['files.files.read', 'files.files.upload', 'files.files.edit', 'files.files.delete', 'files.files.share']);
  const stats = await holder.get('/admin/file-stats');
  t.is(stats.status, 403);
  t.is(stats.body.error, 'Only workspace owners and admins may do this');
  const admin = await world.member(['files.files.read'], { platformRole: 'admin' });
  t.is((await admin.get('/admin/file-stats')).status, 200);
  const noUpload = await reader.post('/uploads', { name: 'x', size_bytes: 1 });
  t.is(noUpload.status, 403);
  t.is(noUpload.body.error, 'Missing permission: files.files.upload');
});
