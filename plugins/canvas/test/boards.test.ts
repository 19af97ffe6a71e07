import test from 'ava';
import * as Y from 'yjs';
import type { TestMember } from '@wpk/testing';
import { ALL_KEYS, newBoard, newSticky, startCanvasWorld } from './helpers/world.js';

const world = await startCanvasWorld('canvasboards');
const [ann, bob] = await world.members(2);
test.after.always(() => world.close());

const encode = (update: Uint8Array) => Buffer.from(update).toString('base64');

/** A client's replica of a board: loaded over HTTP, and the update of one local change. */
async function replica(member: TestMember, boardId: string): Promise<Y.Doc> {
  const doc = new Y.Doc();
  const response = await member.get(`/canvas/boards/${boardId}/document`);
  Y.applyUpdate(doc, Buffer.from(response.body.data.update, 'base64'));
  return doc;
}
function change(doc: Y.Doc, edit: (objects: Y.Map<any>) => void): string {
  const updates: Uint8Array[] = [];
  const listener = (update: Uint8Array) => updates.push(update);
  doc.on('update', listener);
  doc.transact(() => edit(doc.getMap('objects')));
  doc.off('update', listener);
  return encode(Y.mergeUpdates(updates));
}
function sticky(fields: Record<string, unknown>): Y.Map<unknown> {
  const map = new Y.Map<unknown>();
  for (const [key, value] of Object.entries(fields)) map.set(key, key === 'text' ? new Y.Text(value as string) : value);
  return map;
}

test.serial('a board is created, read, listed, updated (UpdateBoard) and deleted, each with its one event', async (t) => {
  world.takeEvents();
  const created = await ann.post('/canvas/boards', { name: '  Sprint retro ', description: 'What went well' });
  t.is(created.status, 200);
  const id = created.body.data.id;
  t.like(created.body.data, { name: 'Sprint retro', description: 'What went well', object_count: 0, creator_id: ann.id, creator_mrn: ann.mrn });
  t.deepEqual(world.takeEvents(), [{ action: 'core.canvas.board.created', payload: { board_id: id, name: 'Sprint retro', creator_mrn: ann.mrn } }]);

  const read = await bob.get(`/canvas/boards/${id}`);
  t.is(read.status, 200);
  t.is(read.body.links.objects, `/canvas/boards/${id}/objects`);

  const listed = await bob.get('/canvas/boards?q=retro');
  t.true(listed.body.data.some((board: { id: string }) => board.id === id));
  t.is((await bob.get('/canvas/boards?q=nothing-like-this')).body.pagination.total, 0);

  const patched = await bob.patch(`/canvas/boards/${id}`, { name: 'Retro 42' });
  t.is(patched.status, 200);
  t.like(patched.body.data, { name: 'Retro 42', description: 'What went well' });
  t.deepEqual(world.takeEvents(), [{ action: 'core.canvas.board.updated', payload: { board_id: id, changed_fields: ['name'], updated_by: bob.mrn } }]);
  t.is((await bob.patch(`/canvas/boards/${id}`, { name: 'Retro 42' })).status, 200);
  t.deepEqual(world.takeEvents(), [], 'a PATCH that changes nothing emits nothing');
  t.deepEqual((await bob.patch(`/canvas/boards/${id}`, {})).body, { error: 'body must contain at least one of [name, description]' });
  t.deepEqual((await bob.patch(`/canvas/boards/${id}`, { name: ' ' })).body, { error: 'name is not allowed to be empty', field: 'name' });

  t.deepEqual((await bob.delete(`/canvas/boards/${id}`)).body, { error: 'Cannot delete this board' }, 'only its creator, or canvas.boards.delete');
  const deleted = await ann.delete(`/canvas/boards/${id}`);
  t.deepEqual(deleted.body, { data: { id, deleted: true }, links: { self: `/canvas/boards/${id}` } });
  t.deepEqual(world.takeEvents(), [{ action: 'core.canvas.board.deleted', payload: { board_id: id, name: 'Retro 42', deleted_by: ann.mrn } }]);
  t.deepEqual((await ann.get(`/canvas/boards/${id}`)).body, { error: `Board ${id} not found` });
  t.is((await ann.get('/canvas/boards/not-a-board')).status, 404);
});

test.serial('objects are added, read, listed, changed and removed over HTTP: every type, bounds named', async (t) => {
  const boardId = await newBoard(ann);
  world.takeEvents();
  const note = await ann.post(`/canvas/boards/${boardId}/objects`, { type: 'sticky', x: 10, y: 20, width: 200, height: 150, text: 'Ship it', color: '#ffcc00' });
  t.is(note.status, 200);
  t.deepEqual(note.body.data, {
    id: note.body.data.id, type: 'sticky', x: 10, y: 20, width: 200, height: 150, rotation: 0, z: 1, text: 'Ship it', color: '#ffcc00',
    stroke: null, shape: null, font_size: null, end_x: null, end_y: null, from_id: null, to_id: null, arrow: null, file_key: null, alt: null,
  });
  const noteId = note.body.data.id;
  t.deepEqual(world.takeEvents(), [{ action: 'core.canvas.object.created', payload: { board_id: boardId, object_id: noteId, type: 'sticky', created_by: ann.mrn } }]);
  const shape = await ann.post(`/canvas/boards/${boardId}/objects`, { id: 'shape-1', type: 'shape', shape: 'ellipse', x: 400, y: 20, width: 120, height: 80, text: 'Goal' });
  t.like(shape.body.data, { id: 'shape-1', shape: 'ellipse', color: '#ffffff', stroke: '#1f2933', z: 2 });
  const label = await ann.post(`/canvas/boards/${boardId}/objects`, { type: 'text', x: 0, y: -60, text: 'Retro', font_size: 32 });
  t.like(label.body.data, { type: 'text', width: null, font_size: 32, color: '#1f2933' });
  const arrow = await ann.post(`/canvas/boards/${boardId}/objects`, { type: 'connector', x: 0, y: 0, end_x: 400, end_y: 20, from_id: noteId, to_id: 'shape-1' });
  t.like(arrow.body.data, { type: 'connector', from_id: noteId, to_id: 'shape-1', arrow: 'end', width: null });

  t.deepEqual((await ann.post(`/canvas/boards/${boardId}/objects`, { id: 'shape-1', type: 'shape', x: 0, y: 0, width: 1, height: 1 })).body, { error: `Board ${boardId} already has an object shape-1` });
  const post = async (body: Record<string, unknown>) => (await ann.post(`/canvas/boards/${boardId}/objects`, body)).body;
  t.deepEqual(await post({ type: 'sticky', x: 0, y: 0 }), { error: 'width is required for a sticky' });
  t.deepEqual(await post({ type: 'sticky', x: 0, y: 0, width: 10, height: 10, end_x: 4 }), { error: 'end_x: a sticky has no field end_x' });
  t.deepEqual(await post({ type: 'blob', x: 0, y: 0 }), { error: 'type must be one of [sticky, shape, text, connector, image]', field: 'type' });
  t.deepEqual(await post({ type: 'sticky', x: 2e6, y: 0, width: 10, height: 10 }), { error: 'x must be less than or equal to 1000000', field: 'x' });
  t.deepEqual(await post({ type: 'sticky', x: 0, y: 0, width: 10, height: 10, color: 'red' }), { error: 'color must be a colour #rrggbb', field: 'color' });
  t.deepEqual(await post({ type: 'connector', x: 0, y: 0, end_x: 1, end_y: 1, from_id: 'nope' }), { error: 'from_id: no other object nope on this board' });
  t.deepEqual(await post({ type: 'image', x: 0, y: 0, width: 10, height: 10, file_key: 'elsewhere/x.png' }), { error: `file_key: must be the file_key of an image uploaded to this board (POST /canvas/boards/${boardId}/images)` });
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.canvas.object.created', 'core.canvas.object.created', 'core.canvas.object.created'], 'refused requests emit nothing');

  const list = await bob.get(`/canvas/boards/${boardId}/objects`);
  t.deepEqual(list.body.data.map((object: { id: string }) => object.id), [noteId, 'shape-1', label.body.data.id, arrow.body.data.id], 'bottom to top');
  t.is((await bob.get(`/canvas/boards/${boardId}/objects?type=connector`)).body.pagination.total, 1);
  t.is((await bob.get(`/canvas/boards/${boardId}`)).body.data.object_count, 4);

  const moved = await bob.patch(`/canvas/boards/${boardId}/objects/${noteId}`, { x: 50, text: 'Ship it today' });
  t.like(moved.body.data, { x: 50, y: 20, text: 'Ship it today' });
  t.deepEqual(world.takeEvents(), [{ action: 'core.canvas.object.updated', payload: { board_id: boardId, object_id: noteId, changed_fields: ['x', 'text'], updated_by: bob.mrn } }]);
  t.deepEqual((await bob.patch(`/canvas/boards/${boardId}/objects/${noteId}`, { type: 'shape' })).body, { error: 'type: an object\'s type cannot change (it is a sticky)' });
  t.deepEqual((await bob.patch(`/canvas/boards/${boardId}/objects/${noteId}`, { width: null })).body, { error: 'width must be a number', field: 'width' });
  t.deepEqual((await bob.patch(`/canvas/boards/${boardId}/objects/nothing`, { x: 1 })).body, { error: `Object nothing not found on board ${boardId}` });
  t.is((await bob.patch(`/canvas/boards/${boardId}/objects/${noteId}`, { x: 50 })).status, 200);
  t.deepEqual(world.takeEvents(), [], 'a PATCH that changes nothing emits nothing');

  const removed = await bob.delete(`/canvas/boards/${boardId}/objects/${noteId}`);
  t.deepEqual(removed.body.data, { id: noteId, deleted: true, unbound_ids: [arrow.body.data.id] });
  t.deepEqual(world.takeEvents(), [{ action: 'core.canvas.object.deleted', payload: { board_id: boardId, object_id: noteId, deleted_by: bob.mrn } }]);
  t.like((await bob.get(`/canvas/boards/${boardId}/objects/${arrow.body.data.id}`)).body.data, { from_id: null, to_id: 'shape-1', x: 0, y: 0 });
  t.is((await bob.get(`/canvas/boards/${boardId}/objects/${noteId}`)).status, 404);
  t.is((await bob.delete(`/canvas/boards/${boardId}/objects/${noteId}`)).status, 404);
});

test.serial('a Yjs update from a client is merged, stored and summed up in core.canvas.board.edited; concurrent edits all survive', async (t) => {
  const boardId = await newBoard(ann);
  const noteId = await newSticky(ann, boardId, { text: 'Hello' });
  world.takeEvents();
  const annDoc = await replica(ann, boardId);
  const bobDoc = await replica(bob, boardId);
  // Concurrently: Ann moves the note and types at its start, Bob recolours it, types at its end and adds a note.
  const annUpdate = change(annDoc, (objects) => {
    objects.get(noteId).set('x', 300);
    objects.get(noteId).get('text').insert(0, 'Ann: ');
  });
  const bobUpdate = change(bobDoc, (objects) => {
    objects.get(noteId).set('color', '#aaddff');
    objects.get(noteId).get('text').insert(5, ' world');
    objects.set('bob-note', sticky({ type: 'sticky', x: 500, y: 0, width: 100, height: 100, text: 'Bob' }));
  });
  const fromAnn = await ann.post(`/canvas/boards/${boardId}/updates`, { update: annUpdate });
  t.deepEqual(fromAnn.body.data, { board_id: boardId, created_ids: [], updated_ids: [noteId], deleted_ids: [], object_count: 1 });
  const fromBob = await bob.post(`/canvas/boards/${boardId}/updates`, { update: bobUpdate });
  t.deepEqual(fromBob.body.data, { board_id: boardId, created_ids: ['bob-note'], updated_ids: [noteId], deleted_ids: [], object_count: 2 });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.canvas.board.edited', payload: { board_id: boardId, created_ids: [], updated_ids: [noteId], deleted_ids: [], created_count: 0, updated_count: 1, deleted_count: 0, edited_by: ann.mrn } },
    { action: 'core.canvas.board.edited', payload: { board_id: boardId, created_ids: ['bob-note'], updated_ids: [noteId], deleted_ids: [], created_count: 1, updated_count: 0 + 1, deleted_count: 0, edited_by: bob.mrn } },
  ]);
  const note = (await ann.get(`/canvas/boards/${boardId}/objects/${noteId}`)).body.data;
  t.like(note, { x: 300, color: '#aaddff', text: 'Ann: Hello world' });
  t.is((await ann.get(`/canvas/boards/${boardId}/objects/bob-note`)).body.data.text, 'Bob');

  // The same update again changes nothing: accepted, not stored, no event.
  const count = async () => Number((await world.platform.runtime.db.select<{ n: string }>(`SELECT count(*) AS n FROM app_canvas.board_updates WHERE board_id = '${boardId}'`))[0].n);
  const stored = await count();
  t.deepEqual((await ann.post(`/canvas/boards/${boardId}/updates`, { update: annUpdate })).body.data.updated_ids, []);
  t.is(await count(), stored);
  t.deepEqual(world.takeEvents(), []);
  // An update that depends on one the server has not seen is kept, and counts once the missing one arrives.
  const early = new Y.Doc();
  Y.applyUpdate(early, Y.encodeStateAsUpdate(await replica(bob, boardId)));
  const first = change(early, (objects) => objects.set('first', sticky({ type: 'sticky', x: 0, y: 0, width: 10, height: 10, text: 'one' })));
  const second = change(early, (objects) => (objects.get('first') as Y.Map<Y.Text>).get('text')!.insert(3, ' two'));
  t.deepEqual((await bob.post(`/canvas/boards/${boardId}/updates`, { update: second })).body.data.updated_ids, [], 'held back: it edits an object not seen yet');
  t.is(await count(), stored + 1);
  t.deepEqual((await bob.post(`/canvas/boards/${boardId}/updates`, { update: first })).body.data.created_ids, ['first']);
  t.is((await bob.get(`/canvas/boards/${boardId}/objects/first`)).body.data.text, 'one two');
  world.takeEvents();
  // Deleting through Yjs.
  const annAgain = await replica(ann, boardId);
  const deletion = change(annAgain, (objects) => objects.delete('bob-note'));
  t.deepEqual((await ann.post(`/canvas/boards/${boardId}/updates`, { update: deletion })).body.data.deleted_ids, ['bob-note']);
  t.is(world.takeEvents()[0].payload.deleted_count, 1);
});

test.serial('an update that is no Yjs update, writes another root or leaves an object malformed is refused, and nothing is stored', async (t) => {
  const boardId = await newBoard(ann);
  await newSticky(ann, boardId);
  world.takeEvents();
  const before = (await ann.get(`/canvas/boards/${boardId}/document`)).body.data.update;
  const post = async (update: string) => (await ann.post(`/canvas/boards/${boardId}/updates`, { update })).body;
  t.deepEqual(await post('not base64!'), { error: 'update: must be a Yjs update in base64' });
  t.deepEqual(await post(Buffer.from([255, 255, 255, 255, 255, 255, 255, 255, 255, 255]).toString('base64')), { error: 'update: not a Yjs update (it could not be decoded)' });
  const doc = await replica(ann, boardId);
  const other = new Y.Doc();
  Y.applyUpdate(other, Y.encodeStateAsUpdate(doc));
  const sv = Y.encodeStateVector(other);
  other.getText('notes').insert(0, 'hidden');
  t.deepEqual(await post(encode(Y.encodeStateAsUpdate(other, sv))), { error: 'update: a board\'s document has one root, objects; this update writes "notes"' });
  t.deepEqual(await post(change(await replica(ann, boardId), (objects) => objects.set('bad', sticky({ type: 'sticky', x: 0, y: 0, width: 0, height: 10 })))), { error: 'objects.bad.width: must be a number from 1 to 100000' });
  t.deepEqual(await post(change(await replica(ann, boardId), (objects) => objects.set('bad', sticky({ type: 'sticky', x: 0, y: 0, width: 5, height: 10, sound: 'beep' })))), { error: 'objects.bad.sound: a sticky has no field sound' });
  t.deepEqual(await post(change(await replica(ann, boardId), (objects) => objects.set('bad', sticky({ type: 'sticky', x: 0, y: 0 })))), { error: 'objects.bad.width: is required for a sticky' });
  t.deepEqual(await post(change(await replica(ann, boardId), (objects) => objects.set('bad', 'text'))), { error: 'objects.bad: must be a map of fields' });
  t.deepEqual(await post(change(await replica(ann, boardId), (objects) => objects.set('bad one', sticky({ type: 'sticky', x: 0, y: 0, width: 5, height: 5 })))), { error: 'objects: "bad one" is not an object id (1-100 letters, digits, - or _)' });
  t.deepEqual(await post(change(await replica(ann, boardId), (objects) => objects.set('img', sticky({ type: 'image', x: 0, y: 0, width: 5, height: 5, file_key: 'boards/x/images/y' })))), { error: `objects.img.file_key: must be the file_key of an image uploaded to this board (POST /canvas/boards/${boardId}/images)` });
  t.is((await ann.get(`/canvas/boards/${boardId}/document`)).body.data.update, before, 'nothing was stored');
  t.deepEqual(world.takeEvents(), []);
});

test.serial('stored updates are compacted into the snapshot every compact_after_updates, and the document reads the same', async (t) => {
  const boardId = await newBoard(ann);
  await world.owner.put('/apps/canvas/settings', { max_objects_per_board: 5000, compact_after_updates: 3, default_votes_per_member: 3 });
  const ids: string[] = [];
  for (let index = 0; index < 7; index++) ids.push(await newSticky(ann, boardId, { x: index * 10, text: `n${index}` }));
  const rows = await world.platform.runtime.db.select<{ updates: string; snapshots: string }>(
    `SELECT (SELECT count(*) FROM app_canvas.board_updates WHERE board_id = '${boardId}') AS updates, (SELECT count(*) FROM app_canvas.board_documents WHERE board_id = '${boardId}') AS snapshots`,
  );
  t.deepEqual(rows.map((row) => [Number(row.updates), Number(row.snapshots)]), [[1, 1]], '7 updates: two compactions of 3, one left');
  const objects = (await ann.get(`/canvas/boards/${boardId}/objects`)).body.data;
  t.deepEqual(objects.map((object: { text: string }) => object.text), ['n0', 'n1', 'n2', 'n3', 'n4', 'n5', 'n6']);
  await world.owner.put('/apps/canvas/settings', { max_objects_per_board: 7, compact_after_updates: 50, default_votes_per_member: 3 });
  t.deepEqual((await ann.post(`/canvas/boards/${boardId}/objects`, { type: 'text', x: 0, y: 0 })).body, { error: 'A board holds at most 7 objects; this change would leave 8' });
  t.is((await ann.patch(`/canvas/boards/${boardId}/objects/${ids[0]}`, { x: 999 })).status, 200, 'a full board can still be edited');
  await world.owner.put('/apps/canvas/settings', { max_objects_per_board: 5000, compact_after_updates: 50, default_votes_per_member: 3 });
});

test.serial("a board's JSON snapshot is kept beside its Yjs state, current after every change; the migration onto the editing stack writes it for boards made before", async (t) => {
  const boardId = await newBoard(ann);
  const first = await newSticky(ann, boardId, { text: 'kept' });
  const content = async () => (await world.query<{ content: { objects: Record<string, { text: string }> } }>('SELECT content FROM app_canvas.board_documents WHERE workspace_id = :w AND board_id = :b', { w: world.workspaceId, b: boardId }))[0]?.content;
  t.deepEqual(Object.keys((await content())!.objects), [first]);
  t.is((await content())!.objects[first].text, 'kept');
  await ann.patch(`/canvas/boards/${boardId}/objects/${first}`, { text: 'changed' });
  t.is((await content())!.objects[first].text, 'changed');
  // Taken down, the table is as before (a snapshot column; no JSON); up again, the JSON is written from the state and updates.
  t.deepEqual(await world.migrateAppDown('0002-board-documents-on-the-editing-stack'), ['0002-board-documents-on-the-editing-stack']);
  const columns = await world.query<{ column_name: string }>("SELECT column_name FROM information_schema.columns WHERE table_schema = 'app_canvas' AND table_name = 'board_documents' ORDER BY column_name");
  t.deepEqual(columns.map((column) => column.column_name), ['board_id', 'created_at', 'snapshot', 'updated_at', 'workspace_id']);
  t.deepEqual(await world.migrateAppUp(), ['0002-board-documents-on-the-editing-stack']);
  t.is((await content())!.objects[first].text, 'changed');
  const objects = (await ann.get(`/canvas/boards/${boardId}/objects`)).body.data as Array<{ id: string; text: string }>;
  t.deepEqual(objects.map((object) => [object.id, object.text]), [[first, 'changed']]);
});

test.serial('concurrent writers of one board take turns: no update is lost to a compaction', async (t) => {
  const boardId = await newBoard(ann);
  await world.owner.put('/apps/canvas/settings', { max_objects_per_board: 5000, compact_after_updates: 3, default_votes_per_member: 3 });
  const answers = await Promise.all(Array.from({ length: 10 }, (_, index) => (index % 2 ? ann : bob).post(`/canvas/boards/${boardId}/objects`, { id: `c${index}`, type: 'text', x: index, y: 0, text: `t${index}` })));
  t.deepEqual(answers.map((answer) => answer.status), Array(10).fill(200));
  const objects = (await ann.get(`/canvas/boards/${boardId}/objects`)).body.data as Array<{ id: string }>;
  t.deepEqual(objects.map((object) => object.id).sort(), Array.from({ length: 10 }, (_, index) => `c${index}`).sort());
  t.is((await ann.get(`/canvas/boards/${boardId}`)).body.data.object_count, 10);
  await world.owner.put('/apps/canvas/settings', { max_objects_per_board: 5000, compact_after_updates: 50, default_votes_per_member: 3 });
  world.takeEvents();
});

test.serial('boards are searchable by name (type board), kept current by create, update and delete', async (t) => {
  const id = await newBoard(ann, 'Quarterly planning wall');
  const search = async (q: string) => (await bob.get(`/search?app=canvas&q=${encodeURIComponent(q)}`)).body.data.map((hit: { url: string; type: string }) => `${hit.type}:${hit.url}`);
  t.deepEqual(await search('quarterly'), [`board:/canvas/boards/${id}`]);
  await ann.patch(`/canvas/boards/${id}`, { name: 'Yearly goals' });
  t.deepEqual(await search('quarterly'), []);
  t.deepEqual(await search('yearly'), [`board:/canvas/boards/${id}`]);
  // A full re-index writes every board's document again, as the writes did.
  const all = (await world.query<{ n: number }>('SELECT count(*)::int AS n FROM app_canvas.boards WHERE workspace_id = :w', { w: world.workspaceId }))[0].n;
  const reindexed = await world.platform.runtime.reindexSearch({ app: 'canvas', workspaceId: world.workspaceId });
  t.deepEqual(reindexed.map((row) => [row.app, row.type, row.documents]), [['canvas', 'board', all]]);
  t.deepEqual(await search('yearly'), [`board:/canvas/boards/${id}`]);
  await ann.delete(`/canvas/boards/${id}`);
  t.deepEqual(await search('yearly'), []);
});

test.serial('every route refuses a member without its key (layer 5) and admits one holding exactly it', async (t) => {
  const boardId = await newBoard(ann);
  const rows = await world.workspace.permissionMatrix('canvas', { params: { board_id: boardId, target: 'png', object_id: 'x' } });
  t.true(rows.length >= 28);
  const reader = await world.member(['canvas.boards.read']);
  t.deepEqual((await reader.post('/canvas/boards', { name: 'x' })).body, { error: 'Missing permission: canvas.boards.create' });
  t.deepEqual((await reader.post(`/canvas/boards/${boardId}/updates`, { update: 'AA==' })).body, { error: 'Missing permission: canvas.boards.edit' });
  t.truthy(ALL_KEYS);
});

test('every table can be distributed by workspace', async (t) => {
  t.deepEqual(await world.platform.distributionProblems(), []);
});
