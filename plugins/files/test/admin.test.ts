import test from 'ava';
import { checkDropMigration } from '@wpk/testing';
import { filesWorld } from './helpers/world.js';

const world = await filesWorld('offboard');
const [leaver, heir, colleague] = await world.members(3);
test.after.always(() => world.close());

test.serial('file stats: quota, usage by member and by type, largest first', async (t) => {
  await world.upload(leaver, { name: 'a.txt' }, 'aaaa', 'text/plain');
  await world.upload(heir, { name: 'b.csv' }, 'x,y\n1,2\n', 'text/csv');
  const stats = await world.owner.get('/admin/file-stats');
  t.is(stats.status, 200);
  t.deepEqual(stats.body.data, {
    plan: 'free',
    quota_bytes: 2 * 1024 * 1024 * 1024,
    used_bytes: 12,
    available_bytes: 2 * 1024 * 1024 * 1024 - 12,
    max_file_bytes: 25 * 1024 * 1024,
    files: 2,
    folders: 0,
    trashed_items: 0,
    by_member: [
      { member_id: heir.id, member_mrn: heir.mrn, bytes: 8, versions: 1 },
      { member_id: leaver.id, member_mrn: leaver.mrn, bytes: 4, versions: 1 },
    ],
    by_type: [
      { type: 'spreadsheet', bytes: 8, versions: 1 },
      { type: 'text', bytes: 4, versions: 1 },
    ],
  });
  await world.owner.put('/apps/files/settings', { max_file_bytes: 104857600, quota_bytes: 14, max_versions: 10, link_seconds: 900 });
  const full = await leaver.post('/uploads', { name: 'c.txt', size_bytes: 3 });
  t.is(full.status, 409);
  t.is(full.body.error, "The workspace's storage quota is full: 12 of 14 bytes used, 3 more asked; empty the trash or delete files first");
  await world.owner.put('/apps/files/settings', { max_file_bytes: 104857600, quota_bytes: 10737418240, max_versions: 10, link_seconds: 900 });
});

test.serial('member listings are collection envelopes of what the member owns, trash included', async (t) => {
  const folder = (await world.owner.post('/folders', { name: 'Owner stuff' })).body.data;
  const docs = (await leaver.post('/folders', { name: 'Docs' })).body.data;
  await leaver.post('/folders', { name: 'Old' }).then((r) => leaver.delete(`/files/${r.body.data.id}`));
  const folders = await world.owner.get(`/admin/file-members/${encodeURIComponent(leaver.mrn)}/folders`);
  t.is(folders.status, 200);
  t.deepEqual(folders.body.data.map((item: { name: string; trashed: boolean }) => [item.name, item.trashed]), [['Docs', false], ['Old', true]]);
  t.like(folders.body.pagination, { page: 1, per_page: 25, total: 2, pages: 1 });
  t.is(folders.body.data[0].id, docs.id);
  const files = await world.owner.get(`/admin/file-members/${encodeURIComponent(leaver.mrn)}/files?per_page=1`);
  t.deepEqual(files.body.data.map((item: { name: string }) => item.name), ['a.txt']);
  t.like(files.body.pagination, { per_page: 1, total: 1 });
  const bad = await world.owner.get('/admin/file-members/alice/files');
  t.is(bad.status, 400);
  t.is(bad.body.error, 'path parameter member_mrn must be a member MRN (mrn:account:member:<id>)');
  const stranger = await world.owner.get(`/admin/file-members/${encodeURIComponent('mrn:account:member:00000000-0000-4000-8000-000000000000')}/files`);
  t.deepEqual([stranger.status, stranger.body], [400, { error: 'path parameter member_mrn mrn:account:member:00000000-0000-4000-8000-000000000000 is not a member of this workspace' }]);
  t.is((await leaver.get(`/admin/file-members/${encodeURIComponent(leaver.mrn)}/files`)).status, 403);
  await world.owner.delete(`/files/${folder.id}`);
});

test.serial('transfer: everything moves in one go; root collisions get a suffix; shares and versions follow; a retry moves nothing', async (t) => {
  // leaver: a.txt (v1), Docs/, Old/ (trash); now a second version, a nested file, a share.
  const a = (await leaver.get('/files')).body.data.find((item: { name: string }) => item.name === 'a.txt');
  await world.upload(leaver, { file_id: a.id }, 'AAAAA', 'text/plain');
  const docs = (await leaver.get('/files')).body.data.find((item: { name: string }) => item.name === 'Docs');
  const nested = (await world.upload(leaver, { name: 'inner.txt', folder_id: docs.id }, 'inner', 'text/plain')).body.data;
  await leaver.put(`/files/${docs.id}/shares/${colleague.id}`, { role: 'edit' });
  await leaver.put(`/files/${docs.id}/shares/${heir.id}`, { role: 'read' });
  // heir already has a.txt? No: b.csv. Give heir a Docs folder and an "a.txt" to collide with.
  await heir.post('/folders', { name: 'docs' });
  await world.upload(heir, { name: 'A.txt' }, 'z', 'text/plain');
  await world.upload(heir, { name: 'a (2).txt' }, 'z', 'text/plain');
  const pending = await leaver.post('/uploads', { name: 'pending.txt', size_bytes: 1 });
  world.takeEvents();

  t.is((await leaver.post('/admin/file-transfers', { from_mrn: leaver.mrn, to_mrn: heir.mrn })).status, 403);
  t.is((await world.owner.post('/admin/file-transfers', { from_mrn: leaver.mrn, to_mrn: leaver.mrn })).body.error, 'from_mrn and to_mrn must name two different members');
  t.is((await world.owner.post('/admin/file-transfers', { from_mrn: 'bob', to_mrn: heir.mrn })).body.error, 'from_mrn must be a member MRN (mrn:account:member:<id>)');
  t.is((await world.owner.post('/admin/file-transfers', { to_mrn: heir.mrn })).status, 400);

  const transfer = await world.owner.post('/admin/file-transfers', { from_mrn: leaver.mrn, to_mrn: heir.mrn });
  t.is(transfer.status, 200);
  const { transfer_id: transferId, ...rest } = transfer.body.data;
  t.regex(transferId, /^[0-9a-f-]{36}$/);
  t.deepEqual(rest, {
    from_mrn: leaver.mrn,
    to_mrn: heir.mrn,
    folders: 2,
    files: 2,
    renamed: [
      { item_id: docs.id, from_name: 'Docs', to_name: 'Docs (2)' },
      { item_id: a.id, from_name: 'a.txt', to_name: 'a (3).txt' },
    ],
  });
  t.deepEqual(world.takeEvents(), [{ action: 'core.files.transfer.completed', payload: { transfer_id: transferId, ...rest, transferred_by: world.owner.mrn } }]);

  const heirRoot = (await heir.get('/files')).body.data.map((item: { name: string }) => item.name);
  t.deepEqual(heirRoot, ['docs', 'Docs (2)', 'a (2).txt', 'a (3).txt', 'A.txt', 'b.csv']);
  t.deepEqual((await leaver.get('/files')).body.data, []);
  t.deepEqual((await heir.get('/trash')).body.data.map((item: { name: string }) => item.name), ['Old']);
  t.is(await world.download(heir, nested.id), 'inner');
  t.deepEqual((await heir.get(`/files/${a.id}/versions`)).body.data.map((v: { number: number }) => v.number), [2, 1]);
  t.deepEqual((await heir.get(`/files/${docs.id}/shares`)).body.data.map((s: { member_id: string; role: string }) => [s.member_id, s.role]), [[colleague.id, 'edit']], "the share with the heir went: it is theirs now");
  t.is((await colleague.get(`/files/${nested.id}`)).body.data.owner_mrn, heir.mrn);
  t.is((await leaver.post(`/uploads/${pending.body.data.id}/completion`)).status, 404, 'open uploads are cancelled');
  const hits = await heir.get('/search?app=files&q=inner');
  t.deepEqual(hits.body.data.map((hit: { title: string }) => hit.title), ['inner.txt']);
  t.deepEqual((await leaver.get('/search?app=files&q=inner')).body.data, []);
  const stats = (await world.owner.get('/admin/file-stats')).body.data;
  t.deepEqual(stats.by_member.map((entry: { member_id: string }) => entry.member_id), [heir.id]);

  const again = await world.owner.post('/admin/file-transfers', { from_mrn: leaver.mrn, to_mrn: heir.mrn });
  t.deepEqual(again.body.data, { transfer_id: null, from_mrn: leaver.mrn, to_mrn: heir.mrn, folders: 0, files: 0, renamed: [] });
  t.deepEqual(world.takeEvents(), []);
});

test.serial('transfer to a member who left is refused at once (before any event reaches the app), and nothing moves', async (t) => {
  const gone = await world.member();
  t.is((await world.owner.delete(`/members/${gone.id}`)).status, 200);
  world.takeEvents();
  const refused = await world.owner.post('/admin/file-transfers', { from_mrn: heir.mrn, to_mrn: gone.mrn });
  t.is(refused.status, 400);
  t.is(refused.body.error, `to_mrn ${gone.mrn} is no longer a member of this workspace`);
  t.is((await heir.get('/files')).body.pagination.total, 6);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('transfer names members of this workspace only: a random id or another workspace\'s member is a 400 naming the field, and nothing moves', async (t) => {
  const elsewhere = (await world.otherWorkspace('offboard-elsewhere')).owner;
  const random = 'mrn:account:member:7d0c8a52-3f0e-4c55-9d1e-0b6f4c1e2a90';
  for (const [mrn, who] of [[random, 'a random id'], [elsewhere.mrn, "another workspace's member"]]) {
    const to = await world.owner.post('/admin/file-transfers', { from_mrn: heir.mrn, to_mrn: mrn });
    t.deepEqual([to.status, to.body], [400, { error: `to_mrn ${mrn} is not a member of this workspace` }], who);
    const from = await world.owner.post('/admin/file-transfers', { from_mrn: mrn, to_mrn: heir.mrn });
    t.deepEqual([from.status, from.body], [400, { error: `from_mrn ${mrn} is not a member of this workspace` }], who);
  }
  t.is((await heir.get('/files')).body.pagination.total, 6);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('a member who joined a moment ago is accepted at once as the recipient of a transfer, and one who left as its source (issue 38 item 12)', async (t) => {
  const leaving = await world.member();
  await world.upload(leaving, { name: 'handover.txt' }, 'notes', 'text/plain');
  t.is((await world.owner.delete(`/members/${leaving.id}`)).status, 200);
  // Joined just now, never opened Files, no event delivered to the app: the platform knows them.
  const newcomer = await world.workspace.member({ permissions: ['files.files.read'] });
  world.takeEvents();
  const transfer = await world.owner.post('/admin/file-transfers', { from_mrn: leaving.mrn, to_mrn: newcomer.mrn });
  t.is(transfer.status, 200);
  t.like(transfer.body.data, { from_mrn: leaving.mrn, to_mrn: newcomer.mrn, folders: 0, files: 1, renamed: [] });
  t.deepEqual((await newcomer.get('/files')).body.data.map((item: { name: string }) => item.name), ['handover.txt']);
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.files.transfer.completed']);
});

test.serial('migration 0003 drops the private member directory; down re-creates it empty, up drops it again, the files stay', async (t) => {
  const [{ n: items }] = await world.query<{ n: number }>('SELECT count(*)::int AS n FROM app_files.items');
  await checkDropMigration(t, world, '0003-drop-member-directory', 'app_files.member_directory', 'member_id, removed_at, removed_by');
  t.deepEqual(await world.query('SELECT count(*)::int AS n FROM app_files.items'), [{ n: items }]);
  t.is((await heir.get('/files')).status, 200);
});
