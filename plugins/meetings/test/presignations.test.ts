import test from 'ava';
import type { TestMember } from '@wpk/testing';
import { ok } from '@wpk/testing';
import { meetingsWorld } from './helpers/world.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000abc';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

const world = await meetingsWorld('grants');
const [ann, bob, cid] = await world.members(3);
test.after.always(() => world.close());

const meeting = async (attendees: unknown[] = [{ member_mrn: bob.mrn }]) => ok(await ann.post('/meetings', { title: 'Recorded sync', starts_at: '2030-05-06T09:00:00Z', ends_at: '2030-05-06T10:00:00Z', attendees }));
const grantFor = (member: TestMember, meetingId: string, body: Record<string, unknown> = {}) =>
  member.post(`/meetings/${meetingId}/presignations`, { purpose: 'recording', filename: 'sync.pdf', content_type: 'application/pdf', size_bytes: 4096, ...body });
const upload = (url: string, body: Buffer | string, contentType = 'application/pdf') => world.platform.follow(url, { method: 'PUT', body, headers: { 'content-type': contentType } });

test.serial('a grant: a signed PUT link for one file of the declared type and size, until it expires; completing it files the upload with the meeting once', async (t) => {
  const m = await meeting();
  world.takeEvents();
  const reply = await grantFor(bob, m.id, { expires_in_seconds: 600 });
  t.is(reply.status, 200);
  const grant = reply.body.data;
  t.deepEqual(reply.body.links, { self: `/presignations/${grant.id}` });
  t.deepEqual(grant, {
    id: grant.id, meeting_id: m.id, purpose: 'recording', filename: 'sync.pdf', content_type: 'application/pdf', max_bytes: 4096, status: 'open',
    expires_at: grant.expires_at, created_by_mrn: bob.mrn, used_at: null, revoked_at: null, revoked_by_mrn: null, file_id: null, created_at: grant.created_at,
    upload: { url: grant.upload.url, method: 'PUT', headers: { 'content-type': 'application/pdf' } },
  });
  const life = (Date.parse(grant.expires_at) - world.platform.clock.now().getTime()) / 1000;
  t.true(life > 590 && life <= 600, String(life));
  t.deepEqual(world.takeEvents(), [{ action: 'core.meetings.presignation.created', payload: { presignation_id: grant.id, meeting_id: m.id, purpose: 'recording', max_bytes: 4096, expires_at: grant.expires_at, created_by_mrn: bob.mrn } }]);
  // The listing never shows the link.
  t.deepEqual(ok(await ann.get(`/meetings/${m.id}/presignations`)).map((row: any) => [row.id, 'upload' in row]), [[grant.id, false]]);
  const early = await bob.post(`/presignations/${grant.id}/completion`, {});
  t.deepEqual([early.status, early.body], [409, { error: `Nothing was uploaded through presignation ${grant.id} yet` }]);
  // The link checks the declared type and the size.
  t.is((await upload(grant.upload.url, 'just text', 'text/plain')).status, 415);
  t.is((await upload(grant.upload.url, Buffer.concat([PDF, Buffer.alloc(4096)]))).status, 413);
  t.is((await upload(grant.upload.url, PDF)).status, 200);
  const file = ok(await bob.post(`/presignations/${grant.id}/completion`, {}));
  t.deepEqual(file, {
    id: file.id, meeting_id: m.id, presignation_id: grant.id, purpose: 'recording', filename: 'sync.pdf', content_type: 'application/pdf', size_bytes: PDF.length,
    sha256: file.sha256, uploaded_by_mrn: bob.mrn, uploaded_at: file.uploaded_at,
  });
  t.deepEqual(world.takeEvents(), [
    {
      action: 'core.meetings.file.uploaded',
      payload: { file_id: file.id, meeting_id: m.id, meeting_mrn: m.mrn, presignation_id: grant.id, purpose: 'recording', filename: 'sync.pdf', content_type: 'application/pdf', size_bytes: PDF.length, storage_key: `meetings/${m.id}/files/${file.id}`, uploaded_by_mrn: bob.mrn },
    },
  ]);
  const again = await bob.post(`/presignations/${grant.id}/completion`, {});
  t.deepEqual([again.status, again.body], [409, { error: 'Cannot complete a presignation in state used: complete moves from open to used' }]);
  // Uploading through the link again changes nothing the meeting holds.
  t.is((await upload(grant.upload.url, PDF)).status, 200);
  const read = ok(await ann.get(`/meetings/${m.id}`));
  t.deepEqual(read.files, [file]);
  const download = ok(await bob.get(`/meetings/${m.id}/files/${file.id}`));
  t.like(download, { id: file.id, download: { method: 'GET' } });
  const fetched = await world.platform.follow(download.download.url);
  t.deepEqual([fetched.status, fetched.bytes.equals(PDF)], [200, true]);
  t.like(ok(await ann.get(`/meetings/${m.id}/presignations`)), [{ id: grant.id, status: 'used', file_id: file.id }]);
  const outsider = await cid.get(`/meetings/${m.id}/files/${file.id}`);
  t.deepEqual([outsider.status, outsider.body], [404, { error: `Meeting ${m.id} not found` }]);
});

test.serial('revoking: the creator or the organizer revokes an open grant; the upload is deleted and completion refused; revoking twice or after use is a 409', async (t) => {
  const m = await meeting();
  const grant = (await grantFor(bob, m.id)).body.data;
  t.is((await upload(grant.upload.url, PDF)).status, 200);
  world.takeEvents();
  const revoked = ok(await ann.delete(`/presignations/${grant.id}`));
  t.like(revoked, { id: grant.id, status: 'revoked', revoked_by_mrn: ann.mrn });
  t.false('upload' in revoked);
  t.deepEqual(world.takeEvents(), [{ action: 'core.meetings.presignation.revoked', payload: { presignation_id: grant.id, meeting_id: m.id, revoked_by_mrn: ann.mrn } }]);
  const complete = await bob.post(`/presignations/${grant.id}/completion`, {});
  t.deepEqual([complete.status, complete.body], [409, { error: 'Cannot complete a presignation in state revoked: complete moves from open to used' }]);
  const twice = await bob.delete(`/presignations/${grant.id}`);
  t.deepEqual([twice.status, twice.body], [409, { error: 'Cannot revoke a presignation in state revoked: revoke moves from open to revoked' }]);
  t.deepEqual(await world.platform.query("SELECT count(*)::int AS n FROM platform.storage_objects WHERE workspace_id = :w AND namespace = 'meetings' AND key = :key", { w: world.workspace.id, key: `grants/${grant.id}/upload` }), [{ n: 0 }]);
  // Another attendee may not revoke bob's grant; someone outside the meeting does not see it.
  const dave = await world.member();
  const m2 = await meeting([{ member_mrn: bob.mrn }, { member_mrn: dave.mrn }]);
  const other = (await grantFor(bob, m2.id)).body.data;
  const byAttendee = await dave.delete(`/presignations/${other.id}`);
  t.deepEqual([byAttendee.status, byAttendee.body], [403, { error: "Only the grant's creator or the meeting's organizer may do this" }]);
  const byOutsider = await cid.delete(`/presignations/${other.id}`);
  t.deepEqual([byOutsider.status, byOutsider.body], [404, { error: `Presignation ${other.id} not found` }]);
  t.deepEqual([(await bob.delete(`/presignations/${UNKNOWN}`)).status, (await bob.delete('/presignations/x')).status], [404, 404]);
  t.is((await upload(other.upload.url, PDF)).status, 200);
  ok(await bob.post(`/presignations/${other.id}/completion`, {}));
  const afterUse = await bob.delete(`/presignations/${other.id}`);
  t.deepEqual([afterUse.status, afterUse.body], [409, { error: 'Cannot revoke a presignation in state used: revoke moves from open to revoked' }]);
});

test.serial('bounds: life from 1 s up to the setting (default 900 s), size up to the setting, a real file name and media type; only who takes part, on a meeting not cancelled', async (t) => {
  const m = await meeting();
  const cases: Array<[Record<string, unknown>, string, string?]> = [
    [{ expires_in_seconds: 0 }, 'expires_in_seconds must be greater than or equal to 1', 'expires_in_seconds'],
    [{ expires_in_seconds: 86401 }, "expires_in_seconds: at most 86400 (the workspace's setting)"],
    [{ size_bytes: 0 }, 'size_bytes must be greater than or equal to 1', 'size_bytes'],
    [{ size_bytes: 524288001 }, "size_bytes: at most 524288000 (the workspace's setting)"],
    [{ filename: '../x.pdf' }, 'filename must be a file name (no /, \\ or control characters)', 'filename'],
    [{ filename: '..' }, 'filename must be a file name (no /, \\ or control characters)', 'filename'],
    [{ content_type: 'pdf' }, 'content_type must be a media type (type/subtype)', 'content_type'],
    [{ purpose: 'backup' }, 'purpose must be one of [recording, attachment]', 'purpose'],
  ];
  world.takeEvents();
  for (const [body, error, field] of cases) {
    const reply = await grantFor(ann, m.id, body);
    t.deepEqual([reply.status, reply.body], [400, field === undefined ? { error } : { error, field }], JSON.stringify(body));
  }
  t.deepEqual(world.takeEvents(), []);
  const byDefault = (await grantFor(ann, m.id)).body.data;
  const life = (Date.parse(byDefault.expires_at) - world.platform.clock.now().getTime()) / 1000;
  t.true(life > 890 && life <= 900, String(life));
  const outsider = await grantFor(cid, m.id);
  t.deepEqual([outsider.status, outsider.body], [404, { error: `Meeting ${m.id} not found` }]);
  ok(await ann.delete(`/meetings/${m.id}`));
  const cancelled = await grantFor(bob, m.id);
  t.deepEqual([cancelled.status, cancelled.body], [409, { error: 'Meeting Recorded sync is cancelled' }]);
});

// Real time: storage links are signed and checked against the wall clock, not the harness clock.
test.serial('an expired grant (real time, one second): its link refuses the upload, and nothing can be completed', async (t) => {
  const m = await meeting();
  const grant = (await grantFor(bob, m.id, { expires_in_seconds: 1 })).body.data;
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const late = await upload(grant.upload.url, PDF);
  t.deepEqual([late.status, late.body], [403, { error: 'This storage link has expired' }]);
  const complete = await bob.post(`/presignations/${grant.id}/completion`, {});
  t.deepEqual([complete.status, complete.body], [409, { error: `Nothing was uploaded through presignation ${grant.id} yet` }]);
});
