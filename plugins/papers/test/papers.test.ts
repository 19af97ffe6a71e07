import test from 'ava';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_VERSION, listenForSockets, quiet, startWorld, subscribeChannel as subscribe, type TestCaller, type TestMember } from '@wpk/testing';
import { chromiumExecutable, DOCX_STYLE_MAP, richTextFromFragment, writeRichText, type RichTextNode } from '@wpk/sdk';
import * as docx from 'docx';
import mammoth from 'mammoth';
import * as Y from 'yjs';
import app from '../src/index.js';

const ALL = ['papers.papers.read', 'papers.papers.create', 'papers.papers.edit', 'papers.comments.create'];
// Workers is loaded (not installed) so that its core.workers.* events, which feed department shares, have their emitter on the bus.
const world = await startWorld({ app: { app, dir: fileURLToPath(new URL('..', import.meta.url)) }, subdomain: 'paperstest', memberKeys: ALL, apps: [fileURLToPath(new URL('../../workers', import.meta.url))], firstParty: ['papers', 'workers'] });
const sockets = await listenForSockets(world);
const [ann, bob, cay] = await world.members(3);
const reader = await world.member(['papers.papers.read']);
const suggester = await world.member(['papers.papers.read', 'papers.papers.suggest', 'papers.comments.create']);
test.after.always(() => world.close());

const encode = (update: Uint8Array) => Buffer.from(update).toString('base64');
const doc = (...paragraphs: string[]) => ({ type: 'doc', content: paragraphs.map((text) => (text ? { type: 'paragraph', content: [{ type: 'text', text }] } : { type: 'paragraph' })) });

async function newPaper(member: TestMember, title = 'Plan', content?: unknown): Promise<string> {
  const response = await member.post('/papers', { title, ...(content ? { content } : {}) });
  if (response.status !== 200) throw new Error(`paper not created: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data.id;
}

/** A client's replica of a paper, loaded over HTTP. */
async function replica(member: TestMember, paperId: string): Promise<Y.Doc> {
  const replicaDoc = new Y.Doc();
  const response = await member.get(`/papers/${paperId}/document`);
  Y.applyUpdate(replicaDoc, Buffer.from(response.body.data.update, 'base64'));
  return replicaDoc;
}
/** The update of one local change to the replica. */
function change(replicaDoc: Y.Doc, edit: (fragment: Y.XmlFragment) => void): string {
  const updates: Uint8Array[] = [];
  const listener = (update: Uint8Array) => updates.push(update);
  replicaDoc.on('update', listener);
  replicaDoc.transact(() => edit(replicaDoc.getXmlFragment('default')));
  replicaDoc.off('update', listener);
  return encode(Y.mergeUpdates(updates));
}
const firstText = (fragment: Y.XmlFragment) => (fragment.get(0) as Y.XmlElement).get(0) as Y.XmlText;

test.serial('a paper is created in a folder, read with its JSON snapshot, listed, renamed, trashed, restored and purged, each with its one event', async (t) => {
  world.takeEvents();
  const folder = await ann.post('/papers/folders', { name: ' Specs ' });
  t.is(folder.status, 200);
  t.like(folder.body.data, { name: 'Specs', parent_id: null, owner_id: ann.id });
  const created = await ann.post('/papers', { title: ' Launch plan ', folder_id: folder.body.data.id, content: doc('Ship on Friday.') });
  t.is(created.status, 200);
  const id = created.body.data.id;
  t.like(created.body.data, { title: 'Launch plan', folder_id: folder.body.data.id, owner_id: ann.id, owner_mrn: ann.mrn, status: 'active', level: 'owner' });
  t.deepEqual(world.takeEvents(), [{ action: 'core.papers.paper.created', payload: { paper_id: id, title: 'Launch plan', folder_id: folder.body.data.id, owner_mrn: ann.mrn } }]);

  const read = await ann.get(`/papers/${id}`);
  t.deepEqual(read.body.data.content, doc('Ship on Friday.'));
  t.is(read.body.data.text, 'Ship on Friday.');
  t.is(read.body.links.document, `/papers/${id}/document`);
  t.deepEqual((await bob.get(`/papers/${id}`)).body, { error: `Paper ${id} not found` }, 'not shared: not there');
  t.deepEqual((await ann.get(`/papers?folder_id=${folder.body.data.id}`)).body.data.map((p: { id: string }) => p.id), [id]);
  t.is((await bob.get('/papers')).body.pagination.total, 0);

  t.deepEqual((await ann.post('/papers', { title: 'x', folder_id: '00000000-0000-4000-8000-000000000000' })).body, { error: 'folder_id: no folder of yours has the id 00000000-0000-4000-8000-000000000000' });
  t.deepEqual((await ann.post('/papers', { title: 'x', content: { type: 'doc', content: [{ type: 'script' }] } })).body, { error: 'content: the node type "script" is not one of paragraph, heading, blockquote, bulletList, orderedList, listItem, taskList, taskItem, codeBlock, horizontalRule, hardBreak, table, tableRow, tableHeader, tableCell, image, mention, record' });
  t.deepEqual((await ann.post('/papers', { title: 'x', content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: '' }] }] } })).body, { error: 'content.content[0].content[0].text: a text node holds a non-empty string' });
  const badChip = await ann.post('/papers', { title: 'x', content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'record', attrs: { mrn: 'mrn:wiki:page' } }] }] } });
  t.deepEqual([badChip.status, badChip.body], [400, { error: 'content: a record\'s mrn must be mrn:{app}:{resource}:{id} (a label at most 500 characters); "mrn:wiki:page" is not' }]);
  t.deepEqual(world.takeEvents(), [], 'refused creations emit nothing');

  const renamed = await ann.patch(`/papers/${id}`, { title: 'Launch', folder_id: null });
  t.like(renamed.body.data, { title: 'Launch', folder_id: null });
  t.deepEqual(world.takeEvents(), [{ action: 'core.papers.paper.updated', payload: { paper_id: id, changed_fields: ['title', 'folder_id'], updated_by: ann.mrn } }]);
  t.is((await ann.patch(`/papers/${id}`, { title: 'Launch' })).status, 200);
  t.deepEqual(world.takeEvents(), [], 'a PATCH that changes nothing emits nothing');

  t.is((await ann.get('/search?app=papers&q=Friday')).body.data.length, 1, 'found by its text');
  t.deepEqual((await ann.delete(`/papers/folders/${folder.body.data.id}`)).body, { data: { id: folder.body.data.id, deleted: true }, links: { self: `/papers/folders/${folder.body.data.id}` } });

  t.deepEqual((await ann.post(`/papers/${id}/purge`)).body, { error: `Paper ${id} must be in the trash before it is purged (DELETE /papers/${id} first)` });
  const trashed = await ann.delete(`/papers/${id}`);
  t.like(trashed.body.data, { id, status: 'trashed' });
  t.deepEqual(world.takeEvents(), [{ action: 'core.papers.paper.deleted', payload: { paper_id: id, title: 'Launch', permanent: false, deleted_by: ann.mrn } }]);
  t.is((await ann.get('/papers')).body.pagination.total, 0);
  t.deepEqual((await ann.get('/papers?status=trashed')).body.data.map((p: { id: string }) => p.id), [id]);
  t.is((await ann.get('/search?app=papers&q=Friday')).body.data.length, 0, 'a trashed paper leaves the index');
  t.like((await ann.post(`/papers/${id}/restore`)).body.data, { status: 'active', trashed_at: null });
  t.deepEqual(world.takeEvents(), [{ action: 'core.papers.paper.updated', payload: { paper_id: id, changed_fields: ['status'], updated_by: ann.mrn } }]);
  await ann.delete(`/papers/${id}`);
  world.takeEvents();
  t.deepEqual((await ann.post(`/papers/${id}/purge`)).body, { data: { id, deleted: true }, links: { self: `/papers/${id}/purge` } });
  t.deepEqual(world.takeEvents(), [{ action: 'core.papers.paper.deleted', payload: { paper_id: id, title: 'Launch', permanent: true, deleted_by: ann.mrn } }]);
  t.is((await ann.get(`/papers/${id}`)).status, 404);
});

test.serial('folders nest, never into themselves, and only empty ones are deleted', async (t) => {
  const top = (await ann.post('/papers/folders', { name: 'Top' })).body.data;
  const inner = (await ann.post('/papers/folders', { name: 'Inner', parent_id: top.id })).body.data;
  t.deepEqual((await ann.patch(`/papers/folders/${top.id}`, { parent_id: inner.id })).body, { error: 'parent_id: a folder cannot move into itself or a folder inside it' });
  t.deepEqual((await ann.delete(`/papers/folders/${top.id}`)).body, { error: `Folder ${top.id} is not empty: it holds 0 paper(s) and 1 folder(s)` });
  t.like((await ann.patch(`/papers/folders/${inner.id}`, { name: 'Renamed', parent_id: null })).body.data, { name: 'Renamed', parent_id: null });
  t.deepEqual((await ann.get('/papers/folders')).body.data.map((f: { name: string }) => f.name), ['Renamed', 'Top']);
  t.is((await bob.patch(`/papers/folders/${top.id}`, { name: 'Mine' })).status, 404, 'another member\'s folder is not there');
});

test.serial('Yjs updates are validated, stored, relayed live and kept as a JSON snapshot; compaction loses nothing', async (t) => {
  const id = await newPaper(ann, 'Live', doc('ab'));
  await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'member', principal_id: bob.id, level: 'edit' }, { principal_type: 'member', principal_id: cay.id, level: 'comment' }] });
  const socket = await sockets.connect(ann);
  const channel = `papers/papers/${id}`;
  await subscribe(socket, channel);
  world.takeEvents();

  const bobDoc = await replica(bob, id);
  const update = change(bobDoc, (fragment) => firstText(fragment).insert(1, 'X'));
  const applied = await bob.post(`/papers/${id}/updates`, { update });
  t.deepEqual(applied.body.data, { paper_id: id, applied: true, text_length: 3 });
  const event = await socket.until((message) => message.type === 'event');
  t.like(event, { channel, event: 'doc.updated', data: { update, member_id: bob.id } });
  t.is((await ann.get(`/papers/${id}`)).body.data.text, 'aXb');
  t.deepEqual(world.takeEvents(), [{ action: 'core.papers.paper.updated', payload: { paper_id: id, changed_fields: ['content'], updated_by: bob.mrn } }]);
  t.deepEqual((await bob.post(`/papers/${id}/updates`, { update })).body.data, { paper_id: id, applied: false, text_length: 3 }, 'an update already applied is not stored again');

  // Debounced: further edits within updated_event_seconds emit nothing.
  for (let i = 0; i < 60; i += 1) t.is((await bob.post(`/papers/${id}/updates`, { update: change(bobDoc, (fragment) => firstText(fragment).insert(0, 'z')) })).status, 200);
  t.deepEqual(world.takeEvents(), []);
  const read = await ann.get(`/papers/${id}`);
  t.is(read.body.data.text, `${'z'.repeat(60)}aXb`, 'after a compaction (50 updates) the snapshot holds every update');
  const annDoc = await replica(ann, id);
  t.is(firstText(annDoc.getXmlFragment('default')).toString(), `${'z'.repeat(60)}aXb`);

  const bad = new Y.Doc();
  Y.applyUpdate(bad, Y.encodeStateAsUpdate(annDoc));
  t.deepEqual((await bob.post(`/papers/${id}/updates`, { update: change(bad, (fragment) => fragment.insert(0, [new Y.XmlElement('script')])) })).body, { error: 'update: the node type "script" is not one of paragraph, heading, blockquote, bulletList, orderedList, listItem, taskList, taskItem, codeBlock, horizontalRule, hardBreak, table, tableRow, tableHeader, tableCell, image, mention, record' });
  const other = new Y.Doc();
  Y.applyUpdate(other, Y.encodeStateAsUpdate(annDoc));
  const updates: Uint8Array[] = [];
  other.on('update', (bytes: Uint8Array) => updates.push(bytes));
  other.getMap('evil').set('a', 1);
  t.deepEqual((await bob.post(`/papers/${id}/updates`, { update: encode(updates[0]) })).body, { error: 'update: this document\'s roots are default; the update writes "evil"' });
  t.deepEqual((await bob.post(`/papers/${id}/updates`, { update: '/////w==' })).body, { error: 'update: not a Yjs update (it could not be decoded)' });
  t.deepEqual((await cay.post(`/papers/${id}/updates`, { update })).body, { error: 'You may not edit this paper (it is shared with you to comment)' });
  const chip = (mrn: string) => {
    const element = new Y.XmlElement('record');
    element.setAttribute('mrn', mrn);
    element.setAttribute('label', 'Leave policy');
    return element;
  };
  const withBadChip = new Y.Doc();
  Y.applyUpdate(withBadChip, Y.encodeStateAsUpdate(annDoc));
  const badRecord = await bob.post(`/papers/${id}/updates`, { update: change(withBadChip, (fragment) => (fragment.get(0) as Y.XmlElement).insert(1, [chip('javascript:alert(1)')])) });
  t.deepEqual([badRecord.status, badRecord.body], [400, { error: 'update: a record\'s mrn must be mrn:{app}:{resource}:{id} (a label at most 500 characters); "javascript:alert(1)" is not' }]);
  t.is((await ann.get(`/papers/${id}`)).body.data.text, `${'z'.repeat(60)}aXb`, 'refused updates changed nothing');
  t.deepEqual(world.takeEvents(), []);
  // An MRN chip is kept, and its label is in the snapshot's text (what search reads).
  const withChip = new Y.Doc();
  Y.applyUpdate(withChip, Y.encodeStateAsUpdate(annDoc));
  t.is((await bob.post(`/papers/${id}/updates`, { update: change(withChip, (fragment) => (fragment.get(0) as Y.XmlElement).insert(1, [chip('mrn:wiki:page:0b6f')])) })).status, 200);
  const chipped = (await ann.get(`/papers/${id}`)).body.data;
  t.is(chipped.text, `${'z'.repeat(60)}aXbLeave policy`);
  t.deepEqual(chipped.content.content[0].content[1], { type: 'record', attrs: { label: 'Leave policy', mrn: 'mrn:wiki:page:0b6f' } });
  world.takeEvents();
  socket.close();
});

test.serial('sharing: members and roles at view, comment or edit; links by token with expiry; access follows', async (t) => {
  const id = await newPaper(ann, 'Shared', doc('hello'));
  world.takeEvents();
  t.deepEqual((await bob.put(`/papers/${id}/shares`, { shares: [] })).body, { error: `Paper ${id} not found` });
  const put = await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'member', principal_id: bob.id, level: 'view' }, { principal_type: 'role', principal_id: 'admin', level: 'edit' }] });
  t.deepEqual(put.body.data, { paper_id: id, shares: [{ principal_type: 'member', principal_id: bob.id, level: 'view' }, { principal_type: 'role', principal_id: 'admin', level: 'edit' }], links: [] });
  t.deepEqual(world.takeEvents(), [{ action: 'core.papers.paper.shared', payload: { paper_id: id, shares: [{ principal_type: 'member', principal_id: bob.id, level: 'view' }, { principal_type: 'role', principal_id: 'admin', level: 'edit' }], shared_by: ann.mrn } }]);
  t.is((await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'member', principal_id: bob.id, level: 'view' }, { principal_type: 'role', principal_id: 'admin', level: 'edit' }] })).status, 200);
  t.deepEqual(world.takeEvents(), [], 'the same shares again: nothing');
  t.deepEqual((await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'role', principal_id: 'boss', level: 'edit' }] })).body, { error: 'shares[0].principal_id: a role is owner, admin or member' });
  t.deepEqual((await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'member', principal_id: bob.id, level: 'view' }, { principal_type: 'member', principal_id: bob.id, level: 'edit' }] })).body, { error: `shares[1]: member:${bob.id} is named twice` });

  t.like((await bob.get(`/papers/${id}`)).body.data, { level: 'view', text: 'hello' });
  t.is((await bob.get('/papers?scope=shared')).body.data[0].id, id, 'most recently changed first');
  t.deepEqual((await bob.patch(`/papers/${id}`, { title: 'Mine now' })).body, { error: 'You may not rename this paper (it is shared with you to view)' });
  t.is((await reader.get(`/papers/${id}`)).status, 404);

  // A link: its token answered once, stored hashed; redeemed by a member, it shares at its level.
  t.deepEqual((await ann.post(`/papers/${id}/links`, { level: 'comment', expires_at: '2001-01-01T00:00:00Z' })).body, { error: 'expires_at: must be in the future' });
  t.deepEqual((await ann.post(`/papers/${id}/links`, { level: 'comment', expires_at: new Date(Date.now() + 100 * 86_400_000).toISOString() })).body, { error: 'expires_at: a link lasts at most 90 days' });
  const link = await ann.post(`/papers/${id}/links`, { level: 'comment' });
  t.is(link.status, 200);
  t.like(link.body.data, { paper_id: id, level: 'comment', created_by: ann.id });
  t.regex(link.body.data.token, /^[A-Za-z0-9_-]{32}$/);
  t.deepEqual((await ann.get(`/papers/${id}/shares`)).body.data.links.map((l: { id: string }) => l.id), [link.body.data.id]);
  t.false(JSON.stringify((await ann.get(`/papers/${id}/shares`)).body).includes(link.body.data.token), 'the token is never answered again');
  t.deepEqual((await bob.get(`/papers/${id}/shares`)).body.data.links, [], 'only the owner sees links');
  world.takeEvents();
  const redeemed = await reader.post('/papers/links/redeem', { token: link.body.data.token });
  t.like(redeemed.body.data, { id, level: 'comment' });
  t.deepEqual(world.takeEvents(), [{ action: 'core.papers.paper.shared', payload: { paper_id: id, shares: [{ principal_type: 'member', principal_id: reader.id, level: 'comment' }], shared_by: ann.mrn } }]);
  t.like((await reader.get(`/papers/${id}`)).body.data, { level: 'comment' });
  t.deepEqual((await reader.post(`/papers/${id}/comments`, { body: 'Hi' })).body, { error: 'Missing permission: papers.comments.create' }, 'the keys stay a ceiling');
  t.deepEqual((await bob.delete(`/papers/links/${link.body.data.id}`)).body, { error: `Link ${link.body.data.id} not found` });
  t.deepEqual((await ann.delete(`/papers/links/${link.body.data.id}`)).body.data, { id: link.body.data.id, deleted: true });
  t.deepEqual((await cay.post('/papers/links/redeem', { token: link.body.data.token })).body, { error: 'This link is unknown, withdrawn or expired' });

  // Removing a share takes the access away.
  await ann.put(`/papers/${id}/shares`, { shares: [] });
  t.is((await bob.get(`/papers/${id}`)).status, 404);
  t.is((await reader.get(`/papers/${id}`)).status, 404);
  // A role share: every member.
  await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'role', principal_id: 'member', level: 'comment' }] });
  t.like((await cay.get(`/papers/${id}`)).body.data, { level: 'comment' });
});

test.serial('a share to a role names its members (member: every member, owner and admins included), through a key scoped without papers.papers.manage too: search finds the paper for exactly those who may open it', async (t) => {
  const id = await newPaper(ann, 'Town hall', doc('Quarterly numbers for everyone.'));
  const [ownerKey, adminKey] = await Promise.all([world.owner.apiKey({ scopes: ['papers.papers.read'] }), (await world.member(['papers.papers.read'], { platformRole: 'admin' })).apiKey({ scopes: ['papers.papers.read'] })]);
  const seen = async (caller: TestCaller) => {
    const [opened, found, shared] = await Promise.all([caller.get(`/papers/${id}`), caller.get('/search?app=papers&q=quarterly'), caller.get('/papers?scope=shared&per_page=100')]);
    return { opens: opened.status, found: found.body.data.some((hit: { url: string }) => hit.url === `/papers/${id}`), shared: shared.body.data.some((paper: { id: string }) => paper.id === id) };
  };
  const callers = { ownerKey, adminKey, cay };
  const all = async () => Object.fromEntries(await Promise.all(Object.entries(callers).map(async ([name, caller]) => [name, await seen(caller)])));
  const none = { opens: 404, found: false, shared: false };
  t.deepEqual(await all(), { ownerKey: none, adminKey: none, cay: none }, 'not shared: neither opened nor found by a key without papers.papers.manage');

  await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'role', principal_id: 'member', level: 'view' }] });
  const every = { opens: 200, found: true, shared: true };
  t.deepEqual(await all(), { ownerKey: every, adminKey: every, cay: every }, 'shared with every member: whoever finds it opens it');
  t.like((await ownerKey.get(`/papers/${id}`)).body.data, { level: 'view' });

  // A share to the admin role: the admins open and find it, the owner (a role of its own) and members do not.
  await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'role', principal_id: 'admin', level: 'view' }] });
  t.deepEqual(await all(), { ownerKey: none, adminKey: every, cay: none }, 'shared with the admins');
  await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'role', principal_id: 'owner', level: 'view' }] });
  t.deepEqual(await all(), { ownerKey: every, adminKey: none, cay: none }, 'shared with the owners');

  await ann.put(`/papers/${id}/shares`, { shares: [] });
  t.deepEqual(await all(), { ownerKey: none, adminKey: none, cay: none }, 'unshared: gone from search as from the paper');
});

test.serial('comment threads anchored by Yjs relative positions follow the text; reply, resolve, reopen, delete', async (t) => {
  const id = await newPaper(ann, 'Review', doc('The quick fox'));
  await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'member', principal_id: bob.id, level: 'comment' }, { principal_type: 'member', principal_id: cay.id, level: 'view' }] });
  const annDoc = await replica(ann, id);
  const text = firstText(annDoc.getXmlFragment('default'));
  const from = encode(Y.encodeRelativePosition(Y.createRelativePositionFromTypeIndex(text, 4)));
  const to = encode(Y.encodeRelativePosition(Y.createRelativePositionFromTypeIndex(text, 9)));
  world.takeEvents();
  const thread = await bob.post(`/papers/${id}/comments`, { body: 'Which fox?', anchor: { from, to }, quote: 'quick' });
  t.is(thread.status, 200);
  t.like(thread.body.data, { paper_id: id, thread_id: thread.body.data.id, body: 'Which fox?', anchor: { from, to }, quote: 'quick', author_mrn: bob.mrn, resolved_at: null });
  t.deepEqual(world.takeEvents(), [{ action: 'core.papers.paper.commented', payload: { paper_id: id, comment_id: thread.body.data.id, thread_id: thread.body.data.id, author_mrn: bob.mrn } }]);
  t.deepEqual((await cay.post(`/papers/${id}/comments`, { body: 'x' })).body, { error: 'You may not comment on this paper (it is shared with you to view)' });
  t.deepEqual((await bob.post(`/papers/${id}/comments`, { body: 'x', anchor: { from: 'nope', to } })).body, { error: 'anchor.from: must be a Yjs relative position (base64 of Y.encodeRelativePosition)' });
  const reply = await ann.post(`/papers/${id}/comments`, { body: 'The brown one', thread_id: thread.body.data.id });
  t.like(reply.body.data, { thread_id: thread.body.data.id, anchor: null, quote: '' });

  // Someone types before the range: the anchor still resolves to "quick".
  const update = change(annDoc, (fragment) => firstText(fragment).insert(0, 'Look: '));
  t.is((await ann.post(`/papers/${id}/updates`, { update })).status, 200);
  const fresh = await replica(bob, id);
  const resolve = (value: string) => Y.createAbsolutePositionFromRelativePosition(Y.decodeRelativePosition(Buffer.from(value, 'base64')), fresh)!.index;
  t.is(firstText(fresh.getXmlFragment('default')).toString().slice(resolve(from), resolve(to)), 'quick');

  t.deepEqual((await ann.patch(`/papers/comments/${thread.body.data.id}`, { body: 'Edited' })).body, { error: 'Only its author may edit a comment' });
  t.like((await ann.patch(`/papers/comments/${reply.body.data.id}`, { resolved: true })).body.data, { id: reply.body.data.id });
  t.deepEqual((await bob.get(`/papers/${id}/comments?status=resolved`)).body.data.map((c: { id: string }) => c.id), [thread.body.data.id, reply.body.data.id], 'resolving acts on the thread');
  t.deepEqual((await bob.get(`/papers/${id}/comments?status=open`)).body.data, []);
  t.like((await bob.patch(`/papers/comments/${thread.body.data.id}`, { resolved: false, body: 'Which fox, exactly?' })).body.data, { resolved_at: null, body: 'Which fox, exactly?' });
  t.deepEqual((await cay.delete(`/papers/comments/${thread.body.data.id}`)).body, { error: "Only its author or the paper's owner may delete a comment" });
  t.deepEqual((await ann.delete(`/papers/comments/${thread.body.data.id}`)).body.data, { id: thread.body.data.id, deleted: true });
  t.deepEqual((await bob.get(`/papers/${id}/comments`)).body.data, [], 'the thread went with its replies');
});

test.serial('comment mentions: a comment (or an edit adding one) tells each member it mentions who may open the paper, once; not the author, not for a kept mention, never for a refusal', async (t) => {
  const id = await newPaper(ann, 'Comment mentions', doc('Text'));
  await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'member', principal_id: bob.id, level: 'comment' }, { principal_type: 'member', principal_id: cay.id, level: 'view' }] });
  const told = (who: TestMember, by: TestMember, commentId: string, preview: string) => ({ action: 'core.member.mentioned', payload: { source: 'papers', mentioned_mrn: who.mrn, mentioner_mrn: by.mrn, resource_mrn: `mrn:papers:comment:${commentId}`, link: `/papers/${id}?comment=${commentId}`, preview } });
  const commented = (commentId: string, threadId: string, by: TestMember) => ({ action: 'core.papers.paper.commented', payload: { paper_id: id, comment_id: commentId, thread_id: threadId, author_mrn: by.mrn } });
  world.takeEvents();

  // bob mentions ann (the owner), cay (view), himself and reader (the paper is not shared with reader).
  const thread = await bob.post(`/papers/${id}/comments`, { body: `Ask <@${ann.id}> and <@${cay.id.toUpperCase()}>, not <@${reader.id}> or <@${bob.id}>.` });
  t.is(thread.status, 200);
  const threadId = thread.body.data.id;
  t.deepEqual(world.takeEvents(), [commented(threadId, threadId, bob), told(ann, bob, threadId, 'Ask @ and @, not @ or @.'), told(cay, bob, threadId, 'Ask @ and @, not @ or @.')]);

  t.deepEqual((await cay.post(`/papers/${id}/comments`, { body: `Hey <@${ann.id}>` })).body, { error: 'You may not comment on this paper (it is shared with you to view)' });
  t.deepEqual((await ann.patch(`/papers/comments/${threadId}`, { body: `Hey <@${cay.id}>` })).body, { error: 'Only its author may edit a comment' });
  t.deepEqual(world.takeEvents(), [], 'refusals tell no one');

  // An edit keeping ann and adding the workspace's owner (papers.papers.manage: told though not shared) tells only the owner.
  t.is((await bob.patch(`/papers/comments/${threadId}`, { body: `Ask <@${ann.id}> and <@${world.owner.id}>.` })).status, 200);
  t.deepEqual(world.takeEvents(), [told(world.owner, bob, threadId, 'Ask @ and @.')]);
  t.is((await bob.patch(`/papers/comments/${threadId}`, { body: `Ask <@${ann.id}> and <@${world.owner.id}> today.`, resolved: true })).status, 200);
  t.deepEqual(world.takeEvents(), [], 'an edit that keeps the mentions, and a resolution, tell no one');

  const reply = await ann.post(`/papers/${id}/comments`, { body: `<@${bob.id}> done`, thread_id: threadId });
  t.deepEqual(world.takeEvents(), [commented(reply.body.data.id, threadId, ann), told(bob, ann, reply.body.data.id, '@ done')]);
});

test.serial('versions: automatic on creation, named, diffed, restored as one live edit', async (t) => {
  const id = await newPaper(ann, 'Versions', doc('one', 'two'));
  const named = await ann.post(`/papers/${id}/versions`, { name: 'First draft' });
  t.like(named.body.data, { paper_id: id, kind: 'named', name: 'First draft', created_by: ann.id });
  const annDoc = await replica(ann, id);
  await ann.post(`/papers/${id}/updates`, { update: change(annDoc, (fragment) => {
    (fragment.get(1) as Y.XmlElement).delete(0, 1);
    const paragraph = new Y.XmlElement('paragraph');
    fragment.insert(2, [paragraph]);
    paragraph.insert(0, [new Y.XmlText('three')]);
  }) });
  t.is((await ann.get(`/papers/${id}`)).body.data.text, 'one\nthree');
  const diff = await ann.get(`/papers/${id}/versions/${named.body.data.id}/diff`);
  t.deepEqual(diff.body.data, { from: named.body.data.id, to: 'current', lines: [{ op: 'equal', text: 'one' }, { op: 'delete', text: 'two' }, { op: 'insert', text: 'three' }], inserted: 1, deleted: 1 });
  const listed = await ann.get(`/papers/${id}/versions`);
  t.deepEqual(listed.body.data.map((v: { kind: string }) => v.kind), ['named', 'auto']);
  const auto = listed.body.data[1].id;
  t.deepEqual((await ann.get(`/papers/${id}/versions/${auto}/diff?to=${named.body.data.id}`)).body.data.lines, [{ op: 'equal', text: 'one' }, { op: 'equal', text: 'two' }]);
  t.deepEqual((await ann.get(`/papers/${id}/versions/${auto}/diff?to=00000000-0000-4000-8000-000000000000`)).body, { error: 'to: no version of this paper has the id 00000000-0000-4000-8000-000000000000' });

  const socket = await sockets.connect(bob);
  await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'member', principal_id: bob.id, level: 'view' }] });
  await subscribe(socket, `papers/papers/${id}`);
  const bobDoc = await replica(bob, id);
  t.deepEqual((await bob.post(`/papers/${id}/versions/${named.body.data.id}/restore`)).body, { error: 'You may not restore this paper (it is shared with you to view)' });
  world.takeEvents();
  const restored = await ann.post(`/papers/${id}/versions/${named.body.data.id}/restore`);
  t.like(restored.body.data, { kind: 'restore', name: 'Restored: First draft' });
  t.deepEqual(world.takeEvents(), [{ action: 'core.papers.paper.updated', payload: { paper_id: id, changed_fields: ['content'], updated_by: ann.mrn } }]);
  const event = await socket.until((message) => message.type === 'event' && message.event === 'doc.updated');
  Y.applyUpdate(bobDoc, Buffer.from(event.data.update, 'base64'));
  t.is(bobDoc.getXmlFragment('default').toJSON(), annDocAfter(await replica(ann, id)));
  t.deepEqual((await ann.get(`/papers/${id}`)).body.data.content, doc('one', 'two'));
  socket.close();
});

const annDocAfter = (replicaDoc: Y.Doc) => replicaDoc.getXmlFragment('default').toJSON();

test.serial('suggestion mode: papers.papers.suggest without papers.papers.edit suggests but never edits; the owner accepts or rejects', async (t) => {
  const id = await newPaper(ann, 'Suggested', doc('Hello world'));
  await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'member', principal_id: suggester.id, level: 'edit' }] });
  const fork = await replica(suggester, id);
  const update = change(fork, (fragment) => firstText(fragment).insert(5, ' dear'));
  world.takeEvents();
  t.deepEqual((await suggester.post(`/papers/${id}/updates`, { update })).body, { error: 'You may only suggest changes to this paper, not edit it: papers.papers.edit is needed' });
  t.deepEqual((await suggester.patch(`/papers/${id}`, { title: 'Mine' })).body, { error: 'You may only suggest changes to this paper, not rename it: papers.papers.edit is needed' });
  t.is((await ann.get(`/papers/${id}`)).body.data.text, 'Hello world', 'the refused update changed nothing');

  const made = await suggester.post(`/papers/${id}/suggestions`, { update, note: 'Warmer' });
  t.is(made.status, 200);
  t.like(made.body.data, { paper_id: id, note: 'Warmer', text: 'Hello dear world', status: 'open', author_id: suggester.id, decided_by: null });
  t.is((await ann.get(`/papers/${id}`)).body.data.text, 'Hello world', 'a suggestion is kept apart');
  t.deepEqual((await suggester.post(`/papers/${id}/suggestions`, { update: encode(Y.encodeStateAsUpdate(new Y.Doc())) })).body, { error: 'update: it changes nothing in the paper' });
  t.deepEqual((await suggester.post(`/papers/suggestions/${made.body.data.id}/accept`)).body, { error: 'You may only suggest changes to this paper, not accept suggestions to it: papers.papers.edit is needed' });

  // The owner edits meanwhile; accepting merges both.
  const annDoc = await replica(ann, id);
  await ann.post(`/papers/${id}/updates`, { update: change(annDoc, (fragment) => firstText(fragment).insert(11, '!')) });
  const accepted = await ann.post(`/papers/suggestions/${made.body.data.id}/accept`);
  t.like(accepted.body.data, { status: 'accepted', decided_by: ann.id });
  t.is((await ann.get(`/papers/${id}`)).body.data.text, 'Hello dear world!');
  t.deepEqual((await ann.post(`/papers/suggestions/${made.body.data.id}/reject`)).body, { error: `Suggestion ${made.body.data.id} was already accepted` });

  const second = await suggester.post(`/papers/${id}/suggestions`, { update: change(await replica(suggester, id), (fragment) => firstText(fragment).delete(0, 6)) });
  t.like((await ann.post(`/papers/suggestions/${second.body.data.id}/reject`)).body.data, { status: 'rejected' });
  t.is((await ann.get(`/papers/${id}`)).body.data.text, 'Hello dear world!');
  t.deepEqual((await ann.get(`/papers/${id}/suggestions?status=open`)).body.data, []);
  t.deepEqual((await ann.get(`/papers/${id}/suggestions`)).body.data.map((s: { status: string }) => s.status), ['accepted', 'rejected']);
  t.deepEqual((await cay.post(`/papers/${id}/suggestions`, { update })).body, { error: `Paper ${id} not found` });
});

test.serial('mentions: an edit that adds a mention tells that member once (core.member.mentioned, source papers); not the author, not one who cannot open the paper, never for a refused update', async (t) => {
  const id = await newPaper(ann, 'Mentions', doc('Intro.'));
  await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'member', principal_id: bob.id, level: 'edit' }, { principal_type: 'member', principal_id: reader.id, level: 'view' }] });
  const mention = (who: TestMember, label: string) => ({ type: 'mention', attrs: { id: who.id, label } });
  const paragraph = (...content: unknown[]) => ({ type: 'paragraph', content: content.map((part) => (typeof part === 'string' ? { type: 'text', text: part } : part)) });
  /** An update from `member`'s replica that makes the paper's text exactly `paragraphs`. */
  const rewrite = async (member: TestMember, ...paragraphs: unknown[]) => change(await replica(member, id), (fragment) => writeRichText(fragment, { type: 'doc', content: paragraphs } as RichTextNode));
  const told = (who: TestMember, by: TestMember, preview: string) => ({ action: 'core.member.mentioned', payload: { source: 'papers', mentioned_mrn: who.mrn, mentioner_mrn: by.mrn, resource_mrn: `mrn:papers:paper:${id}`, link: `/papers/${id}`, preview } });
  const mentions = () => world.takeEvents().filter((event) => event.action === 'core.member.mentioned');
  world.takeEvents();

  // bob mentions ann (the owner), reader (view), himself, and cay (the paper is not shared with cay).
  const asking = paragraph('Ask ', mention(ann, 'Ann'), ', ', mention(reader, 'Rex'), ', ', mention(bob, 'Bob'), ' and ', mention(cay, 'Cay'), ' about it.');
  t.is((await bob.post(`/papers/${id}/updates`, { update: await rewrite(bob, paragraph('Intro.'), asking) })).status, 200);
  t.deepEqual(mentions(), [told(ann, bob, 'Ask @Ann, @Rex, @Bob and @Cay about it.'), told(reader, bob, 'Ask @Ann, @Rex, @Bob and @Cay about it.')]);

  t.is((await bob.post(`/papers/${id}/updates`, { update: await rewrite(bob, paragraph('Intro.'), asking, paragraph('More.')) })).status, 200);
  t.deepEqual(mentions(), [], 'an edit that keeps the mentions tells no one again');

  t.is((await ann.post(`/papers/${id}/updates`, { update: await rewrite(ann, paragraph('Intro, ', mention(ann, 'Ann'), '.'), asking, paragraph('More.')) })).status, 200);
  t.deepEqual(mentions(), [], 'a self-mention tells no one');

  const refused = await reader.post(`/papers/${id}/updates`, { update: await rewrite(reader, paragraph('Hi ', mention(world.owner, 'Olga'))) });
  t.deepEqual(refused.body, { error: 'You may not edit this paper (it is shared with you to view)' });
  t.deepEqual(world.takeEvents(), [], 'a refused update emits nothing');

  // Removed, then written again: a new mention, told again. The workspace's owner holds papers.papers.manage: told though not shared.
  t.is((await bob.post(`/papers/${id}/updates`, { update: await rewrite(bob, paragraph('Intro.')) })).status, 200);
  t.deepEqual(mentions(), []);
  const long = 'x'.repeat(250);
  t.is((await bob.post(`/papers/${id}/updates`, { update: await rewrite(bob, paragraph('Back: ', mention(ann, 'Ann')), paragraph(mention(world.owner, 'Olga'), ` ${long}`)) })).status, 200);
  t.deepEqual(mentions(), [told(ann, bob, 'Back: @Ann'), told(world.owner, bob, `@Olga ${long}`.slice(0, 199) + '…')]);

  // A suggestion's mention tells when it is accepted (by the member who accepts it), not when suggested.
  await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'member', principal_id: suggester.id, level: 'edit' }, { principal_type: 'member', principal_id: bob.id, level: 'edit' }] });
  world.takeEvents();
  const suggested = await suggester.post(`/papers/${id}/suggestions`, { update: await rewrite(suggester, paragraph('Intro, ', mention(bob, 'Bob'))) });
  t.is(suggested.status, 200);
  t.deepEqual(mentions(), []);
  t.is((await ann.post(`/papers/suggestions/${suggested.body.data.id}/accept`)).status, 200);
  t.deepEqual(mentions(), [told(bob, ann, 'Intro, @Bob')]);

  // Restoring a version that mentions a member the paper no longer mentions tells them (the restorer mentions).
  const version = await ann.post(`/papers/${id}/versions`, { name: 'With Bob' });
  t.is(version.status, 200);
  t.is((await ann.post(`/papers/${id}/updates`, { update: await rewrite(ann, paragraph('Intro.')) })).status, 200);
  t.deepEqual(mentions(), []);
  t.is((await ann.post(`/papers/${id}/versions/${version.body.data.id}/restore`)).status, 200);
  t.deepEqual(mentions(), [told(bob, ann, 'Intro, @Bob')]);
});

const text = (value: string, ...marks: string[]) => (marks.length ? { type: 'text', text: value, marks: marks.map((type) => ({ type })) } : { type: 'text', text: value });

const MARKDOWN = '# Launch *plan*\n\nShip **today**, ask @Bob.\n\n- [ ] check\n  - [x] **book**\n- [x] sign\n\n| Who | When |\n| --- | --- |\n| Ann | Friday |\n';
const taskItem = (checked: boolean, ...content: unknown[]) => ({ type: 'taskItem', attrs: { checked }, content });
const cell = (type: string, value: string) => ({ type, attrs: { colspan: 1, rowspan: 1 }, content: [{ type: 'paragraph', content: [text(value)] }] });

test.serial('Markdown import: a paper whose document is the Markdown converted (task lists and tables as the editor holds them), titled by its first heading unless named; one event; bad input leaves nothing', async (t) => {
  const folder = (await ann.post('/papers/folders', { name: 'Imported' })).body.data;
  world.takeEvents();
  const imported = await ann.post('/papers/imports', { markdown: MARKDOWN });
  t.is(imported.status, 200);
  const id = imported.body.data.id;
  t.like(imported.body.data, { title: 'Launch plan', folder_id: null, owner_id: ann.id, level: 'owner' });
  t.is(imported.body.links.self, `/papers/${id}`);
  t.deepEqual(world.takeEvents(), [{ action: 'core.papers.paper.created', payload: { paper_id: id, title: 'Launch plan', owner_mrn: ann.mrn } }], 'a null folder_id is left out');
  const content = {
    type: 'doc',
    content: [
      { type: 'heading', attrs: { level: 1 }, content: [text('Launch '), text('plan', 'italic')] },
      { type: 'paragraph', content: [text('Ship '), text('today', 'bold'), text(', ask @Bob.')] },
      {
        type: 'taskList',
        content: [
          taskItem(false, { type: 'paragraph', content: [text('check')] }, { type: 'taskList', content: [taskItem(true, { type: 'paragraph', content: [text('book', 'bold')] })] }),
          taskItem(true, { type: 'paragraph', content: [text('sign')] }),
        ],
      },
      { type: 'table', content: [{ type: 'tableRow', content: [cell('tableHeader', 'Who'), cell('tableHeader', 'When')] }, { type: 'tableRow', content: [cell('tableCell', 'Ann'), cell('tableCell', 'Friday')] }] },
    ],
  };
  const read = await ann.get(`/papers/${id}`);
  t.deepEqual(read.body.data.content, content, 'no mention is made of @Bob');
  t.is(read.body.data.text, 'Launch plan\nShip today, ask @Bob.\n[ ] check\n[x] book\n[x] sign\nWho\tWhen\nAnn\tFriday');
  t.is((await ann.get(`/papers/${id}/export?format=markdown`)).body, MARKDOWN, 'exported back as it came');
  // The editor opens the Yjs state: the same document.
  t.deepEqual(richTextFromFragment((await replica(ann, id)).getXmlFragment('default')), content);
  t.deepEqual((await ann.get(`/papers/${id}/versions`)).body.data.map((version: { kind: string }) => version.kind), ['auto']);

  const named = await ann.post('/papers/imports', { title: ' Notes ', folder_id: folder.id, markdown: '' });
  t.like(named.body.data, { title: 'Notes', folder_id: folder.id });
  t.deepEqual((await ann.get(`/papers/${named.body.data.id}`)).body.data.content, { type: 'doc', content: [{ type: 'paragraph' }] }, 'nothing to import: the empty paper');
  t.is((await ann.post('/papers/imports', { markdown: 'Just text.' })).body.data.title, 'Untitled');
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.papers.paper.created', 'core.papers.paper.created']);

  const before = (await ann.get('/papers')).body.pagination.total;
  const stranger = crypto.randomUUID();
  const refusals: Array<[TestMember, unknown, number, string]> = [
    [ann, {}, 400, 'markdown, docx or file_key is required'],
    [ann, { markdown: '# A', docx: 'UEsFBg==' }, 400, 'give one of markdown, docx or file_key'],
    [ann, { markdown: 42 }, 400, 'markdown must be a string'],
    [ann, { title: '', markdown: '# A' }, 400, 'title is not allowed to be empty'],
    [ann, { markdown: 'x'.repeat(500_001) }, 400, 'markdown length must be less than or equal to 500000 characters long'],
    [ann, { markdown: '# A', folder_id: stranger }, 400, `folder_id: no folder of yours has the id ${stranger}`],
    [bob, { markdown: '# A', folder_id: folder.id }, 400, `folder_id: no folder of yours has the id ${folder.id}`],
    [reader, { markdown: '# A' }, 403, ''],
  ];
  for (const [member, payload, status, error] of refusals) {
    const answer = await member.post('/papers/imports', payload);
    t.is(answer.status, status, JSON.stringify(answer.body));
    if (error) t.is(answer.body.error, error);
  }
  const huge = await ann.post('/papers/imports', { markdown: 'x'.repeat(1_100_000) });
  t.is(huge.status, 413);
  t.is(huge.body.error, 'Payload content length greater than maximum allowed: 1048576');
  t.is((await ann.get('/papers')).body.pagination.total, before, 'no paper made');
  t.deepEqual(world.takeEvents(), [], 'no event');
});

test.serial('export: Markdown and HTML files named by the title, for anyone who may open the paper; mentions as @Label and the editor\'s span; checklists and tables; an unknown format is a 400 naming the formats', async (t) => {
  const content = {
    type: 'doc',
    content: [
      { type: 'heading', attrs: { level: 2 }, content: [text('Q3 goals')] },
      { type: 'paragraph', content: [text('Ask '), { type: 'mention', attrs: { id: bob.id, label: 'Bob' } }, text(' about '), text('<pricing>', 'bold'), text(' and '), text('old', 'strike')] },
      { type: 'bulletList', content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [text('one')] }] }] },
      { type: 'taskList', content: [taskItem(true, { type: 'paragraph', content: [text('done')] }), taskItem(false, { type: 'paragraph', content: [text('open')] })] },
      { type: 'table', content: [{ type: 'tableRow', content: [cell('tableHeader', 'Who')] }, { type: 'tableRow', content: [cell('tableCell', '<Ann>')] }] },
    ],
  };
  const id = await newPaper(ann, 'Q3/Q4: "plan" é', content);
  await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'member', principal_id: reader.id, level: 'view' }] });
  world.takeEvents();

  const markdown = await reader.get(`/papers/${id}/export?format=markdown`);
  t.is(markdown.status, 200);
  t.is(markdown.headers['content-type'], 'text/markdown; charset=utf-8');
  t.is(markdown.headers['content-disposition'], `attachment; filename="Q3-Q4- -plan- _.md"; filename*=UTF-8''Q3-Q4-%20-plan-%20%C3%A9.md`);
  t.is(markdown.body, '## Q3 goals\n\nAsk @Bob about **<pricing>** and ~~old~~\n\n- one\n\n- [x] done\n- [ ] open\n\n| Who |\n| --- |\n| <Ann> |\n');

  const html = await reader.get(`/papers/${id}/export?format=html`);
  t.is(html.status, 200);
  t.is(html.headers['content-type'], 'text/html; charset=utf-8');
  t.is(html.headers['content-disposition'], `attachment; filename="Q3-Q4- -plan- _.html"; filename*=UTF-8''Q3-Q4-%20-plan-%20%C3%A9.html`);
  t.is(
    html.body,
    [
      '<!DOCTYPE html>',
      '<html>',
      '<head>',
      '<meta charset="utf-8">',
      '<title>Q3/Q4: &quot;plan&quot; é</title>',
      '</head>',
      '<body>',
      '<h2>Q3 goals</h2>',
      `<p>Ask <span data-type="mention" data-id="${bob.id}">@Bob</span> about <strong>&lt;pricing&gt;</strong> and <s>old</s></p>`,
      '<ul><li>one</li></ul>',
      '<ul><li>☑ done</li><li>☐ open</li></ul>',
      '<table><thead><tr><th scope="col">Who</th></tr></thead><tbody><tr><td>&lt;Ann&gt;</td></tr></tbody></table>',
      '</body>',
      '</html>',
      '',
    ].join('\n'),
  );

  const odt = await reader.get(`/papers/${id}/export?format=odt`);
  t.deepEqual([odt.status, odt.body], [400, { error: 'query parameter format must be one of [markdown, html, docx, pdf]', field: 'format' }]);
  const none = await reader.get(`/papers/${id}/export`);
  t.deepEqual([none.status, none.body], [400, { error: 'query parameter format is required', field: 'format' }]);
  const hidden = await cay.get(`/papers/${id}/export?format=markdown`);
  t.deepEqual([hidden.status, hidden.body], [404, { error: `Paper ${id} not found` }]);
  const empty = await newPaper(ann, 'Blank');
  t.is((await ann.get(`/papers/${empty}/export?format=markdown`)).body, '\n', 'a new paper: one empty paragraph');
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.papers.paper.created'], 'exports emit nothing');
});

/** A file answer's bytes (the test client reads answers as JSON). */
async function download(member: TestMember, url: string) {
  const response = await world.platform.runtime.server.inject({ method: 'GET', url, headers: { host: `paperstest.${world.platform.runtime.config.baseDomain}`, 'x-api-version': API_VERSION, cookie: member.cookie } });
  return { status: response.statusCode, headers: response.headers, bytes: response.rawPayload };
}

/** A 1 × 1 PNG as a data URL. */
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const para = (...content: unknown[]) => ({ type: 'paragraph', content });
const item = (...content: unknown[]) => ({ type: 'listItem', content });
const link = (value: string, href: string) => ({ type: 'text', text: value, marks: [{ type: 'link', attrs: { href } }] });
/** A paper with every node type and mark the editor makes. */
const EVERY_NODE = {
  type: 'doc',
  content: [
    { type: 'heading', attrs: { level: 1 }, content: [text('Report')] },
    { type: 'heading', attrs: { level: 3 }, content: [text('Scope')] },
    para(text('plain '), text('bold', 'bold'), text(' '), text('it', 'italic'), text(' '), text('under', 'underline'), text(' '), text('gone', 'strike'), text(' '), text('x()', 'code'), text(' '), text('hi', 'highlight'), text(' '), link('site', 'https://example.com/a?b=1'), { type: 'hardBreak' }, text('next '), { type: 'mention', attrs: { id: '0b8f6f4e-5a55-4f3c-9d31-7d4f1c1e2a10', label: 'Bob' } }),
    { type: 'bulletList', content: [item(para(text('b1')), { type: 'bulletList', content: [item(para(text('b1a')))] }), item(para(text('b2')))] },
    { type: 'orderedList', content: [item(para(text('o1')), { type: 'orderedList', content: [item(para(text('o1a')))] }), item(para(text('o2')))] },
    { type: 'taskList', content: [taskItem(true, para(text('done'))), taskItem(false, para(text('open')))] },
    { type: 'codeBlock', attrs: { language: 'js' }, content: [text('if (a < b)\n  go();')] },
    { type: 'blockquote', content: [para(text('quoted'))] },
    { type: 'horizontalRule' },
    { type: 'table', content: [{ type: 'tableRow', content: [cell('tableHeader', 'Who'), cell('tableHeader', 'When')] }, { type: 'tableRow', content: [{ ...cell('tableCell', 'Ann, Friday'), attrs: { colspan: 2, rowspan: 1 } }] }] },
    { type: 'image', attrs: { alt: 'dot', src: PNG } },
    { type: 'image', attrs: { alt: 'remote picture', src: 'https://example.com/a.png' } },
    para(text('end')),
  ],
};

test.serial('DOCX export: every node type and mark as Word has them (mammoth reads the same structure back), images embedded, named by the title; the import reads it back; no event', async (t) => {
  const id = await newPaper(ann, 'Q3/Q4: "plan" é', EVERY_NODE);
  await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'member', principal_id: reader.id, level: 'view' }] });
  world.takeEvents();
  const file = await download(reader, `/papers/${id}/export?format=docx`);
  t.is(file.status, 200);
  t.is(file.headers['content-type'], 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  t.is(file.headers['content-disposition'], `attachment; filename="Q3-Q4- -plan- _.docx"; filename*=UTF-8''Q3-Q4-%20-plan-%20%C3%A9.docx`);
  t.is(file.bytes.subarray(0, 2).toString(), 'PK', 'a ZIP');
  const read = await mammoth.convertToHtml({ buffer: file.bytes }, { styleMap: DOCX_STYLE_MAP });
  // The only thing mammoth leaves: the glyphs a checkbox shows (the box's state is read from its control).
  t.deepEqual(read.messages.map((message) => message.message), ['A w:sym element with an unsupported character was ignored: char 2612 in font MS Gothic', 'A w:sym element with an unsupported character was ignored: char 2610 in font MS Gothic'], 'mammoth knows every style');
  t.is(
    read.value,
    [
      '<h1>Report</h1><h3>Scope</h3>',
      '<p>plain <strong>bold</strong> <em>it</em> <u>under</u> <s>gone</s> <code>x()</code> <mark>hi</mark> <a href="https://example.com/a?b=1">site</a><br />next @Bob</p>',
      '<ul><li>b1<ul><li>b1a</li></ul></li><li>b2</li></ul>',
      '<ol><li>o1<ol><li>o1a</li></ol></li><li>o2</li></ol>',
      '<ul><li><input type="checkbox" checked="checked" /> done</li><li><input type="checkbox" /> open</li></ul>',
      '<pre>if (a &lt; b)<br />  go();</pre>',
      '<blockquote><p>quoted</p></blockquote>',
      '<hr />',
      '<table><thead><tr><th><p>Who</p></th><th><p>When</p></th></tr></thead><tbody><tr><td colspan="2"><p>Ann, Friday</p></td></tr></tbody></table>',
      `<p><img alt="dot" src="${PNG}" /></p>`,
      '<p>remote picture</p>',
      '<p>end</p>',
    ].join(''),
  );

  const again = await ann.post('/papers/imports', { docx: file.bytes.toString('base64'), filename: 'Q3.docx' });
  t.is(again.status, 200, JSON.stringify(again.body));
  t.is(again.body.data.title, 'Report', 'titled by the first heading');
  const lossy = structuredClone(EVERY_NODE) as RichTextNode;
  // What DOCX does not keep: a mention is its text; a code block's language; a picture only linked is its alt text.
  lossy.content![2]!.content!.splice(-2, 2, text('next @Bob') as RichTextNode);
  delete lossy.content![6]!.attrs;
  lossy.content![11] = para(text('remote picture')) as RichTextNode;
  t.deepEqual((await ann.get(`/papers/${again.body.data.id}`)).body.data.content, lossy);
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.papers.paper.created'], 'the import only');
});

test.serial('DOCX import: a Word document (made with docx) becomes the paper\'s JSON, sanitized to what a paper holds; titled by its first heading, else the file name; one event; bad files leave nothing', async (t) => {
  const { CheckBox, Document, ExternalHyperlink, HeadingLevel, ImageRun, Packer, Paragraph, Table, TableCell, TableRow, TextRun } = docx;
  const word = new Document({
    sections: [
      {
        children: [
          new Paragraph({ heading: HeadingLevel.HEADING_2, children: [new TextRun({ text: 'Minutes', bold: true })] }),
          new Paragraph({
            children: [
              new TextRun('We '),
              new TextRun({ text: 'agreed', italics: true, underline: {} }),
              new TextRun(' on '),
              new ExternalHyperlink({ link: 'https://example.org/plan', children: [new TextRun({ text: 'the plan', style: 'Hyperlink' })] }),
              new TextRun(' and '),
              new ExternalHyperlink({ link: 'javascript:alert(1)', children: [new TextRun('nothing else')] }),
              new TextRun({ text: '.', superScript: true }),
            ],
          }),
          new Paragraph({ text: 'first', bullet: { level: 0 } }),
          new Paragraph({ text: 'inner', bullet: { level: 1 } }),
          new Paragraph({ text: 'second', bullet: { level: 0 } }),
          new Paragraph({ children: [new CheckBox({ checked: true }), new TextRun(' call Ann')], bullet: { level: 0 } }),
          new Paragraph({ children: [new CheckBox({ checked: false }), new TextRun(' book room')], bullet: { level: 0 } }),
          new Table({
            rows: [
              new TableRow({ tableHeader: true, children: [new TableCell({ children: [new Paragraph('Item')] }), new TableCell({ children: [new Paragraph('Owner')] })] }),
              new TableRow({ children: [new TableCell({ children: [new Paragraph('Budget')] }), new TableCell({ children: [new Paragraph({ children: [new TextRun({ text: 'Cay', strike: true })] })] })] }),
            ],
          }),
          new Paragraph({ children: [new ImageRun({ type: 'png', data: Buffer.from(PNG.split(',')[1]!, 'base64'), transformation: { width: 10, height: 10 }, altText: { name: 'dot', description: 'a dot', title: 'dot' } })] }),
          new Paragraph(''),
        ],
      },
    ],
  });
  const bytes = await Packer.toBuffer(word);
  world.takeEvents();
  const imported = await ann.post('/papers/imports', { docx: bytes.toString('base64'), filename: 'minutes-2026.docx' });
  t.is(imported.status, 200, JSON.stringify(imported.body));
  const id = imported.body.data.id;
  t.like(imported.body.data, { title: 'Minutes', owner_id: ann.id, level: 'owner' });
  t.deepEqual(world.takeEvents(), [{ action: 'core.papers.paper.created', payload: { paper_id: id, title: 'Minutes', owner_mrn: ann.mrn } }]);
  t.deepEqual((await ann.get(`/papers/${id}`)).body.data.content, {
    type: 'doc',
    content: [
      { type: 'heading', attrs: { level: 2 }, content: [text('Minutes', 'bold')] },
      para(text('We '), { type: 'text', text: 'agreed', marks: [{ type: 'italic' }, { type: 'underline' }] }, text(' on '), link('the plan', 'https://example.org/plan'), text(' and nothing else.')),
      { type: 'bulletList', content: [item(para(text('first')), { type: 'bulletList', content: [item(para(text('inner')))] }), item(para(text('second')))] },
      // The checkbox items go on the same Word list: they become a checklist of their own.
      { type: 'taskList', content: [taskItem(true, para(text('call Ann'))), taskItem(false, para(text('book room')))] },
      { type: 'table', content: [{ type: 'tableRow', content: [cell('tableHeader', 'Item'), cell('tableHeader', 'Owner')] }, { type: 'tableRow', content: [cell('tableCell', 'Budget'), { ...cell('tableCell', ''), content: [para(text('Cay', 'strike'))] }] }] },
      { type: 'image', attrs: { alt: 'a dot', src: PNG } },
    ],
  });

  const untitled = await ann.post('/papers/imports', { docx: (await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('Only text')] }] }))).toString('base64'), filename: 'Budget notes.docx', folder_id: null });
  t.like(untitled.body.data, { title: 'Budget notes' });
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.papers.paper.created']);

  const before = (await ann.get('/papers')).body.pagination.total;
  const emptyZip = Buffer.from(`504b0506${'00'.repeat(18)}`, 'hex');
  let nested: InstanceType<typeof Table> | InstanceType<typeof Paragraph> = new Paragraph('deep');
  for (let level = 0; level < 20; level += 1) nested = new Table({ rows: [new TableRow({ children: [new TableCell({ children: [nested] })] })] });
  const tooDeep = await Packer.toBuffer(new Document({ sections: [{ children: [nested] }] }));
  const refusals: Array<[unknown, number, string]> = [
    [{ docx: 'not base64!' }, 400, "docx: must be the file's bytes in base64"],
    [{ docx: '' }, 400, 'docx is not allowed to be empty'],
    [{ docx: Buffer.from('Hello, this is text.').toString('base64') }, 400, 'docx: not a DOCX file (a DOCX is a ZIP archive; these bytes are not one)'],
    [{ docx: emptyZip.toString('base64') }, 400, 'docx: not a DOCX file (the archive holds no word/document.xml)'],
    [{ docx: bytes.subarray(0, Math.floor(bytes.length / 2)).toString('base64') }, 400, "docx: a damaged DOCX file (Corrupted zip: can't find end of central directory)"],
    [{ docx: Buffer.alloc(750_001, 1).toString('base64') }, 400, 'docx: the file is 750001 bytes; at most 750000 are imported (a larger one, up to 20971520, through POST /papers/imports/uploads and file_key)'],
    [{ docx: tooDeep.toString('base64') }, 400, 'docx: the document nests more than 50 levels deep (tables or lists within each other)'],
  ];
  for (const [payload, status, error] of refusals) {
    const answer = await ann.post('/papers/imports', payload);
    t.deepEqual([answer.status, answer.body.error], [status, error]);
  }
  t.is((await reader.post('/papers/imports', { docx: bytes.toString('base64') })).status, 403);
  t.is((await ann.get('/papers')).body.pagination.total, before, 'no paper made');
  t.deepEqual(world.takeEvents(), [], 'no event');
});

test.serial('large DOCX import: a Word document over the request limit goes up through a signed link (POST /papers/imports/uploads) and is imported by its file_key, then removed; over 20 MB, someone else\'s key or nothing uploaded: a 400 naming it, nothing made', async (t) => {
  const { Document, HeadingLevel, ImageRun, Packer, Paragraph } = docx;
  // A picture whose bytes do not compress: a 1×1 PNG followed by 1.2 MB of random bytes (after its IEND, ignored by viewers).
  const png = Buffer.concat([Buffer.from(PNG.split(',')[1]!, 'base64'), randomBytes(1_200_000)]);
  const bytes = await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph({ text: 'Handbook', heading: HeadingLevel.HEADING_1 }), new Paragraph('Welcome aboard.'), new Paragraph({ children: [new ImageRun({ type: 'png', data: png, transformation: { width: 64, height: 64 }, altText: { name: 'noise', description: 'noise', title: 'noise' } })] })] }] }));
  t.true(bytes.length > 1024 * 1024, `a DOCX over 1 MB (${bytes.length} bytes)`);
  t.is((await ann.post('/papers/imports', { docx: bytes.toString('base64') })).status, 413, 'too large for the JSON body');
  world.takeEvents();
  const before = (await ann.get('/papers')).body.pagination.total;

  t.deepEqual((await ann.post('/papers/imports/uploads', { size_bytes: 20 * 1024 * 1024 + 1 })).body, { error: 'size_bytes: a Word document imported is at most 20971520 bytes (20 MB)', field: 'size_bytes' });
  t.is((await reader.post('/papers/imports/uploads', { size_bytes: bytes.length })).status, 403);
  const upload = await ann.post('/papers/imports/uploads', { size_bytes: bytes.length, filename: 'Handbook.docx' });
  t.is(upload.status, 200, JSON.stringify(upload.body));
  const key: string = upload.body.data.file_key;
  t.regex(key, new RegExp(`^imports/${ann.id}/[0-9a-f-]{36}$`));
  t.deepEqual(world.takeEvents(), [{ action: 'core.papers.upload.expired', payload: { file_key: key } }], 'only the upload\'s own wake-up, a day later (see the sweep\'s test)');
  t.like(upload.body.data, { max_bytes: 20 * 1024 * 1024, upload: { method: 'PUT' } });
  t.deepEqual((await ann.post('/papers/imports', { file_key: key })).body, { error: `file_key: nothing was uploaded at ${key}`, field: 'file_key' });

  const put = await world.platform.follow(upload.body.data.upload.url, { method: 'PUT', body: bytes, headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' } });
  t.is(put.status, 200, JSON.stringify(put.body));
  t.deepEqual((await bob.post('/papers/imports', { file_key: key })).body, { error: 'file_key: must be a file_key answered to you by POST /papers/imports/uploads', field: 'file_key' }, 'another member\'s upload');
  t.deepEqual((await ann.post('/papers/imports', { file_key: 'imports/../secrets' })).body, { error: 'file_key: must be a file_key answered to you by POST /papers/imports/uploads', field: 'file_key' });
  t.is((await ann.get('/papers')).body.pagination.total, before, 'no paper made');
  t.deepEqual(world.takeEvents(), [], 'no event');

  const imported = await ann.post('/papers/imports', { file_key: key, filename: 'Handbook.docx' });
  t.is(imported.status, 200, JSON.stringify(imported.body));
  t.like(imported.body.data, { title: 'Handbook', owner_id: ann.id, level: 'owner' });
  t.deepEqual(world.takeEvents(), [{ action: 'core.papers.paper.created', payload: { paper_id: imported.body.data.id, title: 'Handbook', owner_mrn: ann.mrn } }]);
  const content = (await ann.get(`/papers/${imported.body.data.id}`)).body.data.content;
  t.deepEqual(content.content.slice(0, 2), [{ type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Handbook' }] }, { type: 'paragraph', content: [{ type: 'text', text: 'Welcome aboard.' }] }]);
  t.is(content.content[2].attrs.src, `data:image/png;base64,${png.toString('base64')}`, 'the image, byte for byte');
  t.deepEqual((await ann.post('/papers/imports', { file_key: key })).body, { error: `file_key: nothing was uploaded at ${key}`, field: 'file_key' }, 'the upload is removed once imported');
});

test.serial('PDF export: printed by Chromium (a real PDF holding the text); without Chromium a 503 saying what to set', async (t) => {
  const id = await newPaper(ann, 'Printed', EVERY_NODE);
  world.takeEvents();
  const configured = process.env.CHROMIUM_PATH;
  process.env.CHROMIUM_PATH = '/nonexistent/chromium';
  try {
    const missing = await ann.get(`/papers/${id}/export?format=pdf`);
    t.deepEqual([missing.status, missing.body], [503, { error: 'PDF export needs Chromium: CHROMIUM_PATH (/nonexistent/chromium) is not a file' }]);
  } finally {
    if (configured === undefined) delete process.env.CHROMIUM_PATH;
    else process.env.CHROMIUM_PATH = configured;
  }
  if (!chromiumExecutable()) {
    t.log('no Chromium on this machine: the PDF itself is not checked');
    return;
  }
  const file = await download(ann, `/papers/${id}/export?format=pdf`);
  t.is(file.status, 200);
  t.is(file.headers['content-type'], 'application/pdf');
  t.is(file.headers['content-disposition'], `attachment; filename="Printed.pdf"; filename*=UTF-8''Printed.pdf`);
  t.is(file.bytes.subarray(0, 5).toString(), '%PDF-');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'papers-pdf-'));
  try {
    writeFileSync(path.join(dir, 'paper.pdf'), file.bytes);
    const lines = execFileSync('pdftotext', [path.join(dir, 'paper.pdf'), '-'], { encoding: 'utf8' }).split('\n').map((line) => line.trim()).filter(Boolean);
    // pdftotext reads the table's second header cell last.
    t.deepEqual(lines, ['Report', 'Scope', 'plain bold it under gone x() hi site', 'next @Bob', 'b1', 'b1a', 'b2', '1. o1', '1. o1a', '2. o2', '☑ done', '☐ open', 'if (a < b)', 'go();', 'quoted', 'Who', 'Ann, Friday', 'remote picture', 'end', 'When']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  t.deepEqual(world.takeEvents(), [], 'exports emit nothing');
});

/** How many of Papers' stored objects a paper's images are. */
const storedImages = async (paperId: string) => (await world.query<{ n: number }>("SELECT count(*)::int AS n FROM platform.storage_objects WHERE workspace_id = :ws AND namespace = 'papers' AND key LIKE :key", { ws: world.workspaceId, key: `papers/${paperId}/images/%` }))[0]!.n;

test.serial('images: uploaded by one who may edit (type by the bytes, size bounded), read through the API by anyone who may open the paper, named by image nodes the server checks, embedded in the exports, deleted with the paper; no event', async (t) => {
  const id = await newPaper(ann, 'Pictures');
  const other = await newPaper(ann, 'Other');
  await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'member', principal_id: bob.id, level: 'edit' }, { principal_type: 'member', principal_id: reader.id, level: 'view' }] });
  world.takeEvents();
  const png = PNG.slice('data:image/png;base64,'.length);
  const gif = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

  const uploaded = await bob.post(`/papers/${id}/images`, { data: png });
  t.is(uploaded.status, 200, JSON.stringify(uploaded.body));
  const imageId = uploaded.body.data.id;
  const src = `/papers/${id}/images/${imageId}`;
  t.like(uploaded.body.data, { paper_id: id, src, content_type: 'image/png', size_bytes: Buffer.from(png, 'base64').length, created_by: bob.id });
  t.is(uploaded.body.links.self, src);
  t.is((await ann.post(`/papers/${id}/images`, { data: gif })).body.data.content_type, 'image/gif', 'sniffed, not declared');

  t.deepEqual([(await reader.post(`/papers/${id}/images`, { data: png })).status, (await reader.post(`/papers/${id}/images`, { data: png })).body], [403, { error: 'You may not add images to this paper (it is shared with you to view)' }]);
  t.deepEqual((await cay.post(`/papers/${id}/images`, { data: png })).body, { error: `Paper ${id} not found` });
  t.deepEqual((await bob.post(`/papers/${id}/images`, { data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64') })).body, { error: 'data: not a PNG, JPEG, GIF or WebP image (by its first bytes)' });
  t.deepEqual((await bob.post(`/papers/${id}/images`, { data: 'not base64!' })).body, { error: 'data: must be the image in base64' });
  const big = Buffer.concat([Buffer.from(png, 'base64'), Buffer.alloc(750_001 - Buffer.from(png, 'base64').length)]);
  const tooBig = await bob.post(`/papers/${id}/images`, { data: big.toString('base64') });
  t.deepEqual([tooBig.status, tooBig.body], [400, { error: 'data: an image is at most 750000 bytes; this one is 750001' }]);

  const read = await download(reader, src);
  t.deepEqual([read.status, read.headers['content-type'], read.bytes.equals(Buffer.from(png, 'base64'))], [200, 'image/png', true]);
  t.is((await download(cay, src)).status, 404, 'not shared: not there');
  t.deepEqual((await reader.get(`/papers/${other}/images/${imageId}`)).status, 404, 'only under its own paper');
  t.deepEqual((await reader.get(`/papers/${id}/images/00000000-0000-4000-8000-000000000000`)).body, { error: `Image 00000000-0000-4000-8000-000000000000 not found on paper ${id}` });

  const addImage = async (member: TestMember, paperId: string, imageSrc: string) => {
    const local = await replica(member, paperId);
    const update = change(local, (fragment) => {
      const image = new Y.XmlElement('image');
      image.setAttribute('src', imageSrc);
      image.setAttribute('alt', 'dot');
      fragment.insert(fragment.length, [image]);
    });
    return member.post(`/papers/${paperId}/updates`, { update });
  };
  t.is((await addImage(bob, id, src)).status, 200);
  t.deepEqual((await ann.get(`/papers/${id}`)).body.data.content.content.at(-1), { type: 'image', attrs: { src, alt: 'dot' } });
  const refusal = (bad: string) => ({ error: `update: an image's src must name one of this paper's images (/papers/${id}/images/{image_id}, uploaded by POST /papers/${id}/images) or be an https: URL or a data URL of a PNG, JPEG, GIF or WebP; ${JSON.stringify(bad)} is neither` });
  t.deepEqual((await addImage(bob, id, `/papers/${other}/images/${imageId}`)).body, refusal(`/papers/${other}/images/${imageId}`), "another paper's image");
  t.deepEqual((await addImage(bob, id, 'javascript:alert(1)')).body, refusal('javascript:alert(1)'));
  t.deepEqual((await addImage(bob, id, `/papers/${id}/images/00000000-0000-4000-8000-000000000000`)).body, { error: `update: the image /papers/${id}/images/00000000-0000-4000-8000-000000000000 was not uploaded to this paper` });
  t.deepEqual((await ann.post('/papers', { title: 'x', content: { type: 'doc', content: [{ type: 'image', attrs: { src } }] } })).body.error.slice(0, 50), "content: an image's src must name one of this pape", 'a new paper holds none yet');
  t.deepEqual((await ann.get(`/papers/${id}`)).body.data.content.content.filter((node: { type: string }) => node.type === 'image').length, 1, 'refused updates changed nothing');

  const html = await reader.get(`/papers/${id}/export?format=html`);
  t.true(String(html.body).includes(`<img src="${PNG}" alt="dot">`), String(html.body));
  t.true(String((await reader.get(`/papers/${id}/export?format=markdown`)).body).includes(`![dot](${src})`), 'Markdown keeps the path');
  const word = await download(reader, `/papers/${id}/export?format=docx`);
  t.true((await mammoth.convertToHtml({ buffer: word.bytes })).value.includes(`<img alt="dot" src="${PNG}" />`), 'embedded in the Word file');
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.papers.paper.updated'], 'the edit only: uploads and refusals emit nothing');

  t.is(await storedImages(id), 2);
  await ann.delete(`/papers/${id}`);
  t.is((await ann.post(`/papers/${id}/purge`)).status, 200);
  t.is(await storedImages(id), 0, 'the purge deletes the bytes');
});

test.serial('templates: a paper made a template is listed apart with its merge fields; a paper from it has them filled; a missing required or unknown value is a 400 naming it, leaving nothing', async (t) => {
  const letter = {
    type: 'doc',
    content: [
      { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Offer for {{customer}}' }] },
      { type: 'paragraph', content: [{ type: 'text', text: 'Dear ' }, { type: 'text', text: '{{contact}}', marks: [{ type: 'bold' }] }, { type: 'text', text: ', we offer {{amount}}.{{ps?}}' }] },
      { type: 'paragraph', content: [{ type: 'text', text: '{{ps?}}' }] },
    ],
  };
  const created = await ann.post('/papers', { title: 'Offer letter', content: letter, template: true });
  t.like(created.body.data, { title: 'Offer letter', template: true, level: 'owner' });
  const templateId = created.body.data.id;
  const plain = await newPaper(ann, 'Not a template', doc('{{x}}'));
  t.false((await ann.get('/papers')).body.data.some((paper: { id: string }) => paper.id === templateId), 'templates are not in the list of papers');
  const listed = await ann.get('/papers/templates');
  t.is(listed.status, 200);
  t.deepEqual(listed.body.data.map((row: { id: string; template: boolean; fields: unknown }) => [row.id, row.template, row.fields]), [[templateId, true, [{ name: 'customer', required: true }, { name: 'contact', required: true }, { name: 'amount', required: true }, { name: 'ps', required: false }]]]);
  t.is((await bob.get('/papers/templates')).body.pagination.total, 0, 'not shared: not listed');
  world.takeEvents();

  t.deepEqual((await bob.post('/papers', { template_id: templateId, merge: {} })).body, { error: `template_id: no template you may open has the id ${templateId}` });
  t.deepEqual((await ann.post('/papers', { template_id: plain, merge: {} })).body, { error: `template_id: paper ${plain} is not a template` });
  t.deepEqual((await ann.post('/papers', { template_id: templateId, merge: { customer: 'Acme', contact: 'Ada' } })).body, { error: 'merge.amount: a value is required by the template' });
  t.deepEqual((await ann.post('/papers', { template_id: templateId, merge: { customer: 'Acme', contact: 'Ada', amount: '5 €', price: '1' } })).body, { error: 'merge.price: the template has no merge field price (its fields: customer, contact, amount, ps)' });
  const both = await ann.post('/papers', { title: 'x', template_id: templateId, content: doc('y') });
  t.is(both.status, 400);
  t.deepEqual(world.takeEvents(), [], 'refused: no event');
  const before = (await ann.get('/papers')).body.pagination.total;

  const made = await ann.post('/papers', { template_id: templateId, merge: { customer: 'Acme', contact: 'Ada', amount: '5 €' } });
  t.is(made.status, 200);
  t.like(made.body.data, { title: 'Offer letter', template: false, owner_id: ann.id });
  t.deepEqual(world.takeEvents(), [{ action: 'core.papers.paper.created', payload: { paper_id: made.body.data.id, title: 'Offer letter', owner_mrn: ann.mrn } }]);
  const read = (await ann.get(`/papers/${made.body.data.id}`)).body.data;
  t.deepEqual(read.content, {
    type: 'doc',
    content: [
      { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Offer for Acme' }] },
      { type: 'paragraph', content: [{ type: 'text', text: 'Dear ' }, { type: 'text', text: 'Ada', marks: [{ type: 'bold' }] }, { type: 'text', text: ', we offer 5 €.' }] },
      { type: 'paragraph' },
    ],
  });
  t.is((await ann.get('/papers')).body.pagination.total, before + 1);

  // Shared, a template is open to others; the owner may turn it back into a paper.
  await ann.put(`/papers/${templateId}/shares`, { shares: [{ principal_type: 'member', principal_id: bob.id, level: 'view' }] });
  const bobs = await bob.post('/papers', { title: 'Bob offer', template_id: templateId, merge: { customer: 'Bcme', contact: 'Bo', amount: '1', ps: ' PS.' } });
  t.is(bobs.status, 200);
  t.is((await bob.get(`/papers/${bobs.body.data.id}`)).body.data.text.split('\n')[1], 'Dear Bo, we offer 1. PS.');
  t.deepEqual((await bob.patch(`/papers/${templateId}`, { template: false })).body, { error: 'You may not make a template of this paper (it is shared with you to view)' });
  world.takeEvents();
  t.like((await ann.patch(`/papers/${templateId}`, { template: false })).body.data, { template: false });
  t.deepEqual(world.takeEvents(), [{ action: 'core.papers.paper.updated', payload: { paper_id: templateId, changed_fields: ['template'], updated_by: ann.mrn } }]);
  t.is((await ann.get('/papers/templates')).body.pagination.total, 0);
});

test.serial('signature requests: one who may edit sends the paper printed to PDF with its signers (members by MRN, others by name and e-mail); core.papers.paper.signature_requested once; bad signers and lower levels refused with nothing emitted', async (t) => {
  const id = await newPaper(ann, 'Service agreement', doc('The parties agree.'));
  await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'member', principal_id: bob.id, level: 'view' }] });
  world.takeEvents();
  const path_ = `/papers/${id}/signature-requests`;
  t.deepEqual((await ann.post(path_, { signers: [] })).body, { error: 'signers must contain at least 1 items', field: 'signers' });
  t.deepEqual((await ann.post(path_, { signers: [{ name: 'Ada' }] })).body, { error: 'a signer is a member_mrn, or a name and an email', field: 'signers[0]' });
  t.deepEqual((await ann.post(path_, { signers: [{ member_mrn: bob.mrn, name: 'Ada' }] })).body, { error: 'a signer is a member_mrn, or a name and an email', field: 'signers[0]' });
  t.deepEqual((await ann.post(path_, { signers: [{ member_mrn: bob.mrn, name: 'Ada', email: 'ada@client.test' }] })).body, { error: 'a signer is a member_mrn, or a name and an email, not both', field: 'signers[0]' });
  t.is((await ann.post(path_, { signers: [{ member_mrn: 'mrn:account:member:00000000-0000-4000-8000-000000000000' }] })).status, 400);
  t.deepEqual((await bob.post(path_, { signers: [{ name: 'Ada', email: 'ada@client.test' }] })).body, { error: 'You may not request signatures on this paper (it is shared with you to view)' });
  t.deepEqual((await cay.post(path_, { signers: [{ name: 'Ada', email: 'ada@client.test' }] })).body, { error: `Paper ${id} not found` });
  t.deepEqual(world.takeEvents(), [], 'refused: nothing emitted');
  if (!chromiumExecutable()) {
    t.log('no Chromium on this machine: the request itself is not checked');
    return;
  }
  const sent = await ann.post(path_, { message: 'Please sign', signers: [{ member_mrn: bob.mrn, role: 'approver' }, { name: ' Ada Client ', email: 'ada@client.test', group: 2 }] });
  t.is(sent.status, 200);
  const signers = [{ name: bob.name, email: bob.email, member_id: bob.id, role: 'approver', group: 1 }, { name: 'Ada Client', email: 'ada@client.test', role: 'signer', group: 2 }];
  t.like(sent.body.data, { paper_id: id, source_mrn: `mrn:papers:paper:${id}`, title: 'Service agreement', filename: 'Service agreement.pdf', signers });
  const events = world.takeEvents();
  t.is(events.length, 1);
  const { document, ...rest } = events[0]!.payload as { document: { data_base64: string; sha256: string; filename: string; content_type: string } };
  t.deepEqual(rest, { paper_id: id, source_mrn: `mrn:papers:paper:${id}`, requested_by: ann.id, title: 'Service agreement', message: 'Please sign', signers });
  t.is(events[0]!.action, 'core.papers.paper.signature_requested');
  const bytes = Buffer.from(document.data_base64, 'base64');
  t.is(bytes.subarray(0, 5).toString(), '%PDF-');
  t.like(document, { filename: 'Service agreement.pdf', content_type: 'application/pdf', sha256: sent.body.data.sha256 });
  t.is(sent.body.data.size_bytes, bytes.length);
});

test.serial('department shares: a share to a department of the Workers app (the app\'s copy, fed by core.workers.*) gives its members and those of the departments below it the level; unknown departments are a 400; a terminated worker loses it', async (t) => {
  const eng = '0d000000-0000-4000-8000-000000000001';
  const platform = '0d000000-0000-4000-8000-000000000002';
  const sales = '0d000000-0000-4000-8000-000000000003';
  const worker = '0e000000-0000-4000-8000-000000000001';
  await world.deliver('core.workers.department.created', { department_id: eng, mrn: `mrn:workers:department:${eng}`, name: 'Engineering', revision: 1 });
  await world.deliver('core.workers.department.announced', { department_id: platform, mrn: `mrn:workers:department:${platform}`, name: 'Platform', parent_id: eng, revision: 1, for_app: 'papers' });
  await world.deliver('core.workers.department.created', { department_id: sales, mrn: `mrn:workers:department:${sales}`, name: 'Sales', revision: 1 });
  await world.deliver('core.workers.department.deleted', { department_id: sales, mrn: `mrn:workers:department:${sales}`, name: 'Sales', revision: 2 });
  const hired = { worker_id: worker, mrn: `mrn:workers:worker:${worker}`, name: 'Cay', work_email: 'cay@example.com', member_id: cay.id, department_id: platform, status: 'active', revision: 1 };
  await world.deliver('core.workers.worker.hired', hired);

  const id = await newPaper(ann, 'Engineering handbook', doc('Deploy with care.'));
  world.takeEvents();
  t.deepEqual((await reader.get('/papers/departments')).body.data, [{ id: eng, name: 'Engineering', parent_id: null }, { id: platform, name: 'Platform', parent_id: eng }], 'the departments a share may name (Sales is deleted)');
  t.deepEqual((await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'department', principal_id: 'eng' }] })).status, 400);
  t.deepEqual((await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'department', principal_id: 'eng', level: 'view' }] })).body, { error: 'shares[0].principal_id: must be a department id (of the Workers app)' });
  t.deepEqual((await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'department', principal_id: sales, level: 'view' }] })).body, { error: `shares[0].principal_id: no department of the Workers app has the id ${sales}` }, 'a deleted department');
  t.deepEqual((await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'member', principal_id: bob.id, level: 'view' }, { principal_type: 'department', principal_id: worker, level: 'view' }] })).body, { error: `shares[1].principal_id: no department of the Workers app has the id ${worker}` });
  t.deepEqual(world.takeEvents(), [], 'refused: nothing');
  t.deepEqual((await ann.get(`/papers/${id}/shares`)).body.data.shares, [], 'refused: no partial shares');

  t.is((await cay.get(`/papers/${id}`)).status, 404, 'not shared yet');
  const put = await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'department', principal_id: eng.toUpperCase(), level: 'comment' }] });
  t.deepEqual(put.body.data.shares, [{ principal_type: 'department', principal_id: eng, level: 'comment' }]);
  t.deepEqual(world.takeEvents(), [{ action: 'core.papers.paper.shared', payload: { paper_id: id, shares: [{ principal_type: 'department', principal_id: eng, level: 'comment' }], shared_by: ann.mrn } }]);
  t.like((await cay.get(`/papers/${id}`)).body.data, { level: 'comment', text: 'Deploy with care.' }, 'a member of a department below the one shared');
  const sharedWithCay = async () => (await cay.get('/papers?scope=shared&per_page=100')).body.data.map((paper: { id: string }) => paper.id);
  t.true((await sharedWithCay()).includes(id));
  t.is((await cay.get('/search?app=papers&q=handbook')).body.data.length, 1, 'found by a member of the department');
  t.deepEqual((await cay.patch(`/papers/${id}`, { title: 'Mine' })).body, { error: 'You may not rename this paper (it is shared with you to comment)' });
  t.is((await bob.get(`/papers/${id}`)).status, 404, 'not in the department');

  // Terminated (a later revision): out of the department, the paper is gone for them; an older revision changes nothing.
  await world.deliver('core.workers.worker.terminated', { ...hired, status: 'terminated', revision: 3 });
  await world.deliver('core.workers.worker.updated', { ...hired, revision: 2, changed_fields: ['title'] });
  t.is((await cay.get(`/papers/${id}`)).status, 404);
  t.false((await sharedWithCay()).includes(id));
  t.is((await cay.get('/search?app=papers&q=handbook')).body.data.length, 0, 'the index follows the copy');
});

test.serial('a department leaver loses the live channel of a paper shared only with the department at once (revoked, no more doc.updated); one who stays, or keeps another share, still receives', async (t) => {
  const support = '0d000000-0000-4000-8000-000000000011';
  const billing = '0d000000-0000-4000-8000-000000000012';
  await world.deliver('core.workers.department.created', { department_id: support, mrn: `mrn:workers:department:${support}`, name: 'Support', revision: 1 });
  await world.deliver('core.workers.department.created', { department_id: billing, mrn: `mrn:workers:department:${billing}`, name: 'Billing', revision: 1 });
  const [dee, eve, fay] = await world.members(3, ALL);
  const hire = (member: TestMember, n: number) => ({ worker_id: `0e000000-0000-4000-8000-00000000001${n}`, mrn: `mrn:workers:worker:0e000000-0000-4000-8000-00000000001${n}`, name: `Worker ${n}`, work_email: `worker${n}@example.com`, member_id: member.id, department_id: support, status: 'active', revision: 1 });
  for (const [n, member] of [dee, eve, fay].entries()) await world.deliver('core.workers.worker.hired', hire(member, n));
  const id = await newPaper(ann, 'Support rota', doc('Mondays.'));
  await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'department', principal_id: support, level: 'view' }, { principal_type: 'member', principal_id: fay.id, level: 'view' }] });
  const channel = `papers/papers/${id}`;
  const [leaver, stayer, shared] = await Promise.all([dee, eve, fay].map((member) => sockets.connect(member)));
  for (const socket of [leaver, stayer, shared]) t.like(await subscribe(socket, channel), { type: 'subscribed', channel });

  // Dee and Fay move to Billing: Dee no longer reaches the paper, Fay still does (shared with her by name).
  await world.deliver('core.workers.worker.department_changed', { ...hire(dee, 0), department_id: billing, revision: 2 });
  await world.deliver('core.workers.worker.department_changed', { ...hire(fay, 2), department_id: billing, revision: 2 });
  t.deepEqual(await leaver.until((message) => message.type === 'revoked'), { type: 'revoked', channel, error: `You no longer follow ${channel}` });
  t.is((await dee.get(`/papers/${id}`)).status, 404);

  const annDoc = await replica(ann, id);
  t.is((await ann.post(`/papers/${id}/updates`, { update: change(annDoc, (fragment) => firstText(fragment).insert(0, 'On ')) })).status, 200);
  t.like(await stayer.until((message) => message.type === 'event' && message.event === 'doc.updated'), { channel, data: { member_id: ann.id } });
  t.like(await shared.until((message) => message.type === 'event' && message.event === 'doc.updated'), { channel, data: { member_id: ann.id } });
  t.deepEqual((await quiet(leaver)).filter((message) => message.type === 'event'), [], 'the leaver receives nothing more');
  t.false((await quiet(stayer)).some((message) => message.type === 'revoked'));
  for (const socket of [leaver, stayer, shared]) socket.close();
});

test.serial('removing a role share revokes the live channel of each member it let open the paper (revoked, no more doc.updated); one who keeps a direct share still receives', async (t) => {
  const [gus, hal] = await world.members(2, ALL);
  const id = await newPaper(ann, 'All hands', doc('Agenda.'));
  await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'role', principal_id: 'member', level: 'view' }, { principal_type: 'member', principal_id: hal.id, level: 'view' }] });
  const channel = `papers/papers/${id}`;
  const [roleOnly, direct] = await Promise.all([gus, hal].map((member) => sockets.connect(member)));
  for (const socket of [roleOnly, direct]) t.like(await subscribe(socket, channel), { type: 'subscribed', channel });

  t.is((await ann.put(`/papers/${id}/shares`, { shares: [{ principal_type: 'member', principal_id: hal.id, level: 'view' }] })).status, 200);
  t.deepEqual(await roleOnly.until((message) => message.type === 'revoked'), { type: 'revoked', channel, error: `You no longer follow ${channel}` });
  t.is((await gus.get(`/papers/${id}`)).status, 404);

  const annDoc = await replica(ann, id);
  t.is((await ann.post(`/papers/${id}/updates`, { update: change(annDoc, (fragment) => firstText(fragment).insert(0, 'New ')) })).status, 200);
  t.like(await direct.until((message) => message.type === 'event' && message.event === 'doc.updated'), { channel, data: { member_id: ann.id } });
  t.deepEqual((await quiet(roleOnly)).filter((message) => message.type === 'event'), [], 'the role member receives nothing more');
  t.false((await quiet(direct)).some((message) => message.type === 'revoked'), 'kept through the direct share');
  for (const socket of [roleOnly, direct]) socket.close();
});

/** A GET without any credential, as a script calling the API (withVersion false: without X-Api-Version). */
async function anonymousGet(url: string, withVersion = true) {
  const response = await world.platform.runtime.server.inject({ method: 'GET', url, headers: { host: `paperstest.${world.platform.runtime.config.baseDomain}`, ...(withVersion ? { 'x-api-version': API_VERSION } : {}) } });
  return { status: response.statusCode, headers: response.headers, text: response.payload, body: String(response.headers['content-type']).startsWith('application/json') ? JSON.parse(response.payload) : undefined };
}

test.serial('anonymous view links: a view-only link opens the paper read-only on the front-end\'s public page, which reads a public JSON route without signing in; withdrawn, expired or trashed: 404; nothing else reachable', async (t) => {
  const id = await newPaper(ann, 'Public <notes>', doc('Open to <all>.', ''));
  world.takeEvents();
  t.deepEqual((await ann.post(`/papers/${id}/links`, { level: 'edit', anonymous: true })).body, { error: 'anonymous: an anonymous link is view only (level view)' });
  t.deepEqual((await bob.post(`/papers/${id}/links`, { level: 'view', anonymous: true })).body, { error: `Paper ${id} not found` });
  const made = await ann.post(`/papers/${id}/links`, { level: 'view', anonymous: true });
  t.is(made.status, 200);
  t.like(made.body.data, { paper_id: id, level: 'view', anonymous: true });
  const token = made.body.data.token;
  t.is(made.body.data.url, `${new URL(made.body.data.url).origin}/public/apps/papers/shared.html?token=${token}`);
  t.regex(new URL(made.body.data.url).host, new RegExp(`^paperstest\\.${world.platform.runtime.config.baseDomain.replace(/\./g, '\\.')}(:\\d+)?$`), 'on the workspace\'s origin');
  t.deepEqual(world.takeEvents(), [], 'a link emits nothing until redeemed');

  // The link's page is a static page of the front-end (sandboxed like every app page): it reads the public JSON route.
  const page = await anonymousGet(new URL(made.body.data.url).pathname + new URL(made.body.data.url).search, false);
  t.is(page.status, 200);
  t.is(page.headers['content-type'], 'text/html; charset=utf-8');
  t.true(page.text.includes('<html lang="en">'));
  t.true(page.text.includes('<meta name="viewport" content="width=device-width, initial-scale=1">'));
  t.true(page.text.includes('<script src="/public/apps/papers/shared.js"></script>'));
  t.regex(String(page.headers['content-security-policy']), /^sandbox /);
  t.is((await anonymousGet('/public/apps/papers/shared.js', false)).status, 200);

  const shared = await anonymousGet(`/papers/shared/${token}`);
  t.is(shared.status, 200);
  t.deepEqual(shared.body.data, { title: 'Public <notes>', html: '<p>Open to &lt;all&gt;.</p>\n<p></p>', content: doc('Open to <all>.', ''), expires_at: made.body.data.expires_at });
  const unversioned = await anonymousGet(`/papers/shared/${token}`, false);
  t.deepEqual([unversioned.status, unversioned.body], [400, { error: `X-Api-Version header is required (a date, YYYY-MM-DD); supported versions: ${API_VERSION}` }], 'an API route like any other: the header is required');

  // Nothing else of the workspace: the paper's API, its document, the list, another token.
  t.is((await anonymousGet(`/papers/${id}`)).status, 401);
  t.is((await anonymousGet(`/papers/${id}/document`)).status, 401);
  t.is((await anonymousGet('/papers')).status, 401);
  const member = await ann.post(`/papers/${id}/links`, { level: 'view' });
  t.false(member.body.data.anonymous);
  t.is(member.body.data.url, undefined);
  t.deepEqual([(await anonymousGet(`/papers/shared/${member.body.data.token}`)).status, JSON.parse((await anonymousGet(`/papers/shared/${member.body.data.token}`)).text)], [404, { error: 'Link not found or expired' }], 'a members\' link is not public');
  t.is((await anonymousGet('/papers/shared/not-a-token-at-all')).status, 404);

  // Trashed, the page is gone; restored, back; withdrawn or expired: 404.
  await ann.delete(`/papers/${id}`);
  t.is((await anonymousGet(`/papers/shared/${token}`)).status, 404);
  await ann.post(`/papers/${id}/restore`, {});
  t.is((await anonymousGet(`/papers/shared/${token}`)).status, 200);
  await world.query('UPDATE app_papers.links SET expires_at = now() - interval \'1 minute\' WHERE id = :id', { id: made.body.data.id });
  t.is((await anonymousGet(`/papers/shared/${token}`)).status, 404, 'expired');
  const again = await ann.post(`/papers/${id}/links`, { level: 'view', anonymous: true });
  t.is((await anonymousGet(`/papers/shared/${again.body.data.token}`)).status, 200);
  t.is((await ann.delete(`/papers/links/${again.body.data.id}`)).status, 200);
  t.is((await anonymousGet(`/papers/shared/${again.body.data.token}`)).status, 404, 'withdrawn');
});

// Last: it moves the platform's clock a day and a half forward, for good.
test.serial('abandoned import uploads: a day after its link was made, an upload never imported is deleted from storage (core.papers.upload.expired, delivered then); a fresh one and an imported one are untouched', async (t) => {
  const clock = world.platform.clock;
  const bytes = await docx.Packer.toBuffer(new docx.Document({ sections: [{ children: [new docx.Paragraph('Kept for later.')] }] }));
  const stored = async (key: string) => (await world.platform.query<{ n: number }>("SELECT count(*)::int AS n FROM platform.storage_objects WHERE workspace_id = :ws AND namespace = 'papers' AND key = :key", { ws: world.workspaceId, key }))[0]!.n;
  const upload = async () => {
    const made = await ann.post('/papers/imports/uploads', { size_bytes: bytes.length });
    t.is(made.status, 200);
    t.is((await world.platform.follow(made.body.data.upload.url, { method: 'PUT', body: bytes, headers: { 'content-type': 'application/octet-stream' } })).status, 200);
    return made.body.data.file_key as string;
  };
  /** Delivers what is due; answers the wake-ups delivered, each with Papers' outcome. */
  const sweep = async () => (await world.platform.deliverDue(world.workspace)).filter((done) => done.event.action === 'core.papers.upload.expired').map((done) => [done.event.payload.file_key, done.outcomes.papers]);
  world.takeEvents();

  const made = clock.now().getTime();
  const abandoned = await upload();
  const imported = await upload();
  const paper = await ann.post('/papers/imports', { file_key: imported });
  t.is(paper.status, 200);
  const wakeUps = world.platform.emitted('core.papers.upload.expired').map((event) => [event.payload.file_key, event.deliverAt!.getTime() - made]);
  t.deepEqual(wakeUps.map(([key]) => key), [abandoned, imported]);
  for (const [, delay] of wakeUps) t.true((delay as number) >= 86_400_000 && (delay as number) < 86_400_000 + 60_000, `delivered a day later (${delay} ms)`);
  t.deepEqual(await sweep(), [], 'nothing is due yet');

  clock.advance({ hours: 12 });
  const fresh = await upload();
  clock.advance({ hours: 12, minutes: 1 });
  t.deepEqual(await sweep(), [[abandoned, 'handled'], [imported, 'handled']], 'the day-old wake-ups are delivered, not the fresh one');
  t.is(await stored(abandoned), 0, 'the abandoned upload is gone');
  t.deepEqual((await ann.post('/papers/imports', { file_key: abandoned })).body, { error: `file_key: nothing was uploaded at ${abandoned}`, field: 'file_key' });
  t.is(await stored(fresh), 1, 'the fresh upload is kept');
  t.like((await ann.get(`/papers/${paper.body.data.id}`)).body.data, { text: 'Kept for later.' }, 'the imported paper is untouched');
  t.like((await ann.post('/papers/imports', { file_key: fresh, title: 'Fresh' })).body.data, { title: 'Fresh' }, 'the fresh upload still imports');

  clock.advance({ hours: 12 });
  t.deepEqual(await sweep(), [[fresh, 'handled']], 'its own wake-up finds it imported and deletes nothing');
  t.deepEqual(world.takeEvents().filter((event) => event.action !== 'core.papers.upload.expired').map((event) => event.action), ['core.papers.paper.created', 'core.papers.paper.created'], 'the sweep emits nothing');
});
