import test from 'ava';
import { checkMatrixRows, listenForSockets, subscribeChannel as subscribe, type TestMember } from '@wpk/testing';
import { keyBetween } from '@wpk/sdk';
import * as Y from 'yjs';
import manifest from '../app.json' with { type: 'json' };
import { newDeck, startSlidesWorld, THREE_SLIDES } from './helpers/world.js';

const world = await startSlidesWorld('slidesdecks');
const sockets = await listenForSockets(world);
const [ann, bob] = await world.members(2);
test.after.always(() => world.close());

const encode = (update: Uint8Array) => Buffer.from(update).toString('base64');

/** A client's replica of a deck's slides, loaded over HTTP. */
async function replica(member: TestMember, deckId: string): Promise<Y.Doc> {
  const replicaDoc = new Y.Doc();
  const response = await member.get(`/slides/decks/${deckId}/document`);
  Y.applyUpdate(replicaDoc, Buffer.from(response.body.data.update, 'base64'));
  return replicaDoc;
}
/** The update of one local change to the replica. */
function change(replicaDoc: Y.Doc, edit: (slides: Y.Array<Y.Map<unknown>>) => void): string {
  const updates: Uint8Array[] = [];
  const listener = (update: Uint8Array) => updates.push(update);
  replicaDoc.on('update', listener);
  replicaDoc.transact(() => edit(replicaDoc.getArray('slides')));
  replicaDoc.off('update', listener);
  return encode(Y.mergeUpdates(updates));
}
const element = (slides: Y.Array<Y.Map<unknown>>, i: number, j: number) => (slides.get(i).get('elements') as Y.Array<Y.Map<unknown>>).get(j);
const textOf = (slides: Y.Array<Y.Map<unknown>>, i: number, j: number) => element(slides, i, j).get('text') as Y.Text;

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

test.serial('a deck is created with one title slide naming it, read, listed, and emits created once', async (t) => {
  world.takeEvents();
  const created = await ann.post('/slides/decks', { title: '  Kick-off ' });
  t.is(created.status, 200);
  const deck = created.body.data;
  t.like(deck, { title: 'Kick-off', version: 1, slide_count: 1, creator_id: ann.id, creator_mrn: ann.mrn, mrn: `mrn:slides:deck:${deck.id}`, live_presentation_id: null });
  t.deepEqual(deck.theme, { font: 'sans', background: '#ffffff', text: '#1f2937', accent: '#d97706' });
  t.is(deck.slides.length, 1);
  t.like(deck.slides[0], { layout: 'title', notes: '', background: null });
  t.deepEqual(
    deck.slides[0].elements.map((element: { id: string; text: string }) => [element.id, element.text]),
    [
      ['title', 'Kick-off'],
      ['subtitle', ''],
    ],
  );
  t.deepEqual(world.takeEvents(), [{ action: 'core.slides.deck.created', payload: { deck_id: deck.id, deck_mrn: deck.mrn, title: 'Kick-off', slide_count: 1, creator_mrn: ann.mrn } }]);

  const read = await bob.get(`/slides/decks/${deck.id}`);
  t.is(read.status, 200);
  t.deepEqual(read.body.data, deck);
  const listed = await bob.get('/slides/decks?q=kick');
  t.deepEqual(
    listed.body.data.map((row: { id: string; slides?: unknown }) => [row.id, 'slides' in row]),
    [[deck.id, false]],
  );
  t.is((await bob.get('/slides/decks?q=nothing-like-this')).body.pagination.total, 0);
  t.deepEqual((await bob.get('/slides/decks/00000000-0000-4000-8000-000000000000')).body, { error: 'Deck 00000000-0000-4000-8000-000000000000 not found' });
});

test.serial('slides keep their order, layouts, elements of every type and speaker notes', async (t) => {
  const deck = await newDeck(ann, {
    theme: { font: 'serif', accent: '#2563eb' },
    slides: [
      ...THREE_SLIDES,
      {
        id: 's4',
        layout: 'blank',
        background: '#000000',
        elements: [
          { id: 'sh', type: 'shape', x: 10, y: 10, width: 100, height: 50, shape: 'ellipse', fill: '#ff0000', text: 'Go' },
          { id: 'ln', type: 'line', x: 0, y: 0, end_x: 200, end_y: 100, stroke: '#00ff00', arrow: 'end' },
          { id: 'tb', type: 'table', x: 10, y: 200, width: 400, height: 200, header: true, rows: [['Team', 'Size'], ['Sales', '4']] },
          { id: 'pie', type: 'chart', x: 500, y: 200, width: 300, height: 300, chart_type: 'pie', labels: ['a', 'b'], series: [{ name: 'Share', values: [3, 1] }] },
        ],
      },
    ],
  });
  t.deepEqual(deck.theme, { font: 'serif', background: '#ffffff', text: '#1f2937', accent: '#2563eb' });
  t.deepEqual(
    deck.slides.map((slide: { id: string; layout: string; notes: string }) => [slide.id, slide.layout, slide.notes]),
    [
      ['s1', 'title', ''],
      ['s2', 'title_content', 'Mention the hiring plan'],
      ['s3', 'blank', ''],
      ['s4', 'blank', ''],
    ],
  );
  t.is(deck.slide_count, 4);
  t.deepEqual(deck.slides[0].elements[0].text, 'Quarterly review', 'the first slide, a title without elements, names the deck');
  t.deepEqual(deck.slides[3].elements[1], { id: 'ln', type: 'line', x: 0, y: 0, end_x: 200, end_y: 100, stroke: '#00ff00', arrow: 'end' });
  t.deepEqual(deck.slides[3].elements[2].rows, [
    ['Team', 'Size'],
    ['Sales', '4'],
  ]);
  t.is(deck.slides[3].background, '#000000');
});

test.serial('each bad element is a 400 naming slides[i].elements[j].field; nothing is stored or emitted', async (t) => {
  world.takeEvents();
  const before = (await ann.get('/slides/decks')).body.pagination.total;
  const refused = async (elements: unknown[], slides: unknown[] = []) => (await ann.post('/slides/decks', { title: 'Bad', slides: [...slides, { layout: 'blank', elements }] })).body;
  const box = { x: 0, y: 0, width: 10, height: 10 };
  t.deepEqual(await refused([{ type: 'text', ...box }]), { error: 'slides[0].elements[0].text is required', field: 'slides[0].elements[0].text' });
  t.deepEqual(await refused([{ type: 'video', ...box }]), { error: 'slides[0].elements[0].type must be one of [text, image, shape, line, table, chart]', field: 'slides[0].elements[0].type' });
  t.deepEqual(await refused([{ type: 'text', ...box, text: 'a' }, { type: 'line', x: 0, y: 0, end_x: 1, end_y: 1, width: 3 }]), { error: 'slides[0].elements[1].width is not a field of a line element', field: 'slides[0].elements[1].width' });
  t.deepEqual(await refused([{ type: 'shape', ...box, shape: 'star' }]), { error: 'slides[0].elements[0].shape must be one of [rect, rounded_rect, ellipse, triangle, diamond, arrow]', field: 'slides[0].elements[0].shape' });
  t.deepEqual(await refused([{ type: 'shape', ...box, shape: 'rect', fill: 'red' }]), { error: 'slides[0].elements[0].fill must be a colour #rrggbb', field: 'slides[0].elements[0].fill' });
  t.deepEqual(await refused([{ type: 'table', ...box, rows: [['a', 'b'], ['c']] }], [{ layout: 'blank' }]), { error: 'slides[1].elements[0].rows[1] must have 2 cells, as the first row has (it has 1)', field: 'slides[1].elements[0].rows[1]' });
  t.deepEqual(await refused([{ type: 'chart', ...box, chart_type: 'bar', labels: ['a', 'b'], series: [{ name: 'x', values: [1] }] }]), { error: 'slides[0].elements[0].series[0].values must have 2 values, one per label (it has 1)', field: 'slides[0].elements[0].series[0].values' });
  t.deepEqual(await refused([{ type: 'chart', ...box, chart_type: 'pie', labels: ['a'], series: [{ name: 'x', values: [1] }, { name: 'y', values: [2] }] }]), { error: 'slides[0].elements[0].series must hold one series for a pie chart', field: 'slides[0].elements[0].series' });
  t.deepEqual(await refused([{ type: 'text', ...box, width: 0, text: 'a' }]), { error: 'slides[0].elements[0].width must be greater than or equal to 1', field: 'slides[0].elements[0].width' });
  t.deepEqual(await refused([{ id: 'a', type: 'text', ...box, text: '' }, { id: 'a', type: 'text', ...box, text: '' }]), { error: 'slides[0].elements[1].id: "a" is already the id of slides[0].elements[0]', field: 'slides[0].elements[1].id' });
  t.deepEqual((await ann.post('/slides/decks', { title: 'Bad', slides: [{ id: 'x', layout: 'blank' }, { id: 'x', layout: 'blank' }] })).body, { error: 'slides[1].id: "x" is already the id of slides[0]', field: 'slides[1].id' });
  t.deepEqual((await ann.post('/slides/decks', { title: 'Bad', slides: [{ layout: 'cover' }] })).body, { error: 'slides[0].layout must be one of [title, title_content, two_content, section, image, blank]', field: 'slides[0].layout' });
  t.deepEqual(await refused([{ type: 'image', ...box, file_key: 'elsewhere/x.png' }]), {
    error: 'slides[0].elements[0].file_key must name an image uploaded to the deck: create the deck first, upload through POST /slides/decks/{deck_id}/images, then add the image',
    field: 'slides[0].elements[0].file_key',
  });
  t.is((await ann.get('/slides/decks')).body.pagination.total, before);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('PATCH writes on the version read: a change moves it up by one, a stale write is a 409 naming the current version', async (t) => {
  const deck = await newDeck(ann, { slides: THREE_SLIDES });
  world.takeEvents();
  const slides = deck.slides;
  const reordered = [slides[2], slides[0], { ...slides[1], notes: 'New notes' }];
  const patched = await bob.patch(`/slides/decks/${deck.id}`, { version: 1, title: 'Q3 review', slides: reordered });
  t.is(patched.status, 200);
  t.like(patched.body.data, { title: 'Q3 review', version: 2, slide_count: 3 });
  t.deepEqual(
    patched.body.data.slides.map((slide: { id: string; notes: string }) => [slide.id, slide.notes]),
    [
      ['s3', ''],
      ['s1', ''],
      ['s2', 'New notes'],
    ],
  );
  t.deepEqual(world.takeEvents(), [{ action: 'core.slides.deck.updated', payload: { deck_id: deck.id, deck_mrn: deck.mrn, version: 2, changed_fields: ['title', 'slides'], slide_count: 3, updated_by: bob.mrn } }]);

  const stale = await ann.patch(`/slides/decks/${deck.id}`, { version: 1, title: 'Mine' });
  t.is(stale.status, 409);
  t.deepEqual(stale.body, { error: `Deck ${deck.id} is at version 2; this change was made on version 1: read the deck again and apply it there`, field: 'version' });
  t.is((await ann.get(`/slides/decks/${deck.id}`)).body.data.title, 'Q3 review');
  t.deepEqual(world.takeEvents(), []);

  const same = await ann.patch(`/slides/decks/${deck.id}`, { version: 2, title: 'Q3 review', slides: patched.body.data.slides, theme: patched.body.data.theme });
  t.like(same.body.data, { version: 2 });
  t.deepEqual(world.takeEvents(), [], 'a PATCH that changes nothing keeps the version and emits nothing');

  const themed = await ann.patch(`/slides/decks/${deck.id}`, { version: 2, theme: { background: '#111111' } });
  t.like(themed.body.data, { version: 3, theme: { font: 'sans', background: '#111111', text: '#1f2937', accent: '#d97706' } });
  t.deepEqual(world.takeEvents(), [{ action: 'core.slides.deck.updated', payload: { deck_id: deck.id, deck_mrn: deck.mrn, version: 3, changed_fields: ['theme'], slide_count: 3, updated_by: ann.mrn } }]);

  t.deepEqual((await ann.patch(`/slides/decks/${deck.id}`, { title: 'x' })).body, { error: 'version is required', field: 'version' });
  t.deepEqual((await ann.patch(`/slides/decks/${deck.id}`, { version: 3 })).body, { error: 'body must contain at least one of [title, theme, slides]' });
  t.deepEqual((await ann.patch(`/slides/decks/${deck.id}`, { version: 3, slides: [{ layout: 'blank', elements: [{ type: 'text', x: 0, y: 0, width: 5, height: 5, text: 'a', font_size: 1 }] }] })).body, {
    error: 'slides[0].elements[0].font_size must be greater than or equal to 6',
    field: 'slides[0].elements[0].font_size',
  });
  t.is((await ann.get(`/slides/decks/${deck.id}`)).body.data.version, 3);
});

test.serial('the slides are a Yjs document: two edits of one text box at once both land, a slide added meanwhile too; relayed live, versioned, one event a burst', async (t) => {
  const deck = await newDeck(ann, { slides: THREE_SLIDES });
  const socket = await sockets.connect(ann);
  const channel = `slides/decks/${deck.id}`;
  await subscribe(socket, channel);
  world.takeEvents();
  const read = await ann.get(`/slides/decks/${deck.id}/document`);
  t.like(read.body.data, { deck_id: deck.id, editable: true });
  t.deepEqual(read.body.data.content, { deck: { title: deck.title, theme: deck.theme }, slides: deck.slides }, 'the JSON snapshot is what GET /slides/decks/{id} answers');

  const annDoc = await replica(ann, deck.id);
  const bobDoc = await replica(bob, deck.id);
  t.is(textOf(annDoc.getArray('slides'), 1, 1).toString(), 'Revenue up 12%');
  // Both type into the same box from the same state; Bob adds a slide too.
  const annUpdate = change(annDoc, (slides) => textOf(slides, 1, 1).insert(0, 'Q3: '));
  const bobUpdate = change(bobDoc, (slides) => {
    textOf(slides, 1, 1).insert('Revenue up 12%'.length, ' (est.)');
    const slide = new Y.Map<unknown>();
    slides.push([slide]);
    slide.set('id', 's4');
    slide.set('order', 'z');
    slide.set('layout', 'blank');
    slide.set('notes', new Y.Text('Thanks'));
    slide.set('background', null);
    slide.set('elements', new Y.Array());
  });
  t.deepEqual((await ann.post(`/slides/decks/${deck.id}/updates`, { update: annUpdate })).body.data, { deck_id: deck.id, applied: true, version: 2 });
  const relayed = await socket.until((message) => message.type === 'event' && message.event === 'doc.updated');
  t.like(relayed, { channel, event: 'doc.updated', data: { update: annUpdate, member_id: ann.id } });
  t.deepEqual(world.takeEvents(), [{ action: 'core.slides.deck.updated', payload: { deck_id: deck.id, deck_mrn: deck.mrn, version: 2, changed_fields: ['slides'], slide_count: 3, updated_by: ann.mrn } }]);
  t.deepEqual((await bob.post(`/slides/decks/${deck.id}/updates`, { update: bobUpdate })).body.data, { deck_id: deck.id, applied: true, version: 3 });
  t.like(await socket.until((message) => message.type === 'event' && message.event === 'doc.updated'), { data: { update: bobUpdate, member_id: bob.id } });
  t.deepEqual(world.takeEvents(), [], 'a burst of live edits emits one event');
  t.deepEqual((await bob.post(`/slides/decks/${deck.id}/updates`, { update: bobUpdate })).body.data, { deck_id: deck.id, applied: false, version: 3 }, 'an update already applied is not stored again');

  const merged = (await bob.get(`/slides/decks/${deck.id}`)).body.data;
  t.like(merged, { version: 3, slide_count: 4 });
  t.is(merged.slides[1].elements[1].text, 'Q3: Revenue up 12% (est.)');
  t.deepEqual(merged.slides[3], { id: 's4', order: 'z', layout: 'blank', notes: 'Thanks', background: null, elements: [] });
  Y.applyUpdate(annDoc, Buffer.from(bobUpdate, 'base64'));
  Y.applyUpdate(bobDoc, Buffer.from(annUpdate, 'base64'));
  t.deepEqual(annDoc.getArray('slides').toJSON(), merged.slides);
  t.deepEqual(bobDoc.getArray('slides').toJSON(), merged.slides, 'both replicas converge on the stored deck');
  t.deepEqual((await bob.get('/search?app=slides&q=est')).body.data.map((hit: { url: string }) => hit.url), [`/slides/decks/${deck.id}`], 'the index follows live edits');

  // A PATCH is a server edit of the same document: live editors receive it, and Bob's replica keeps merging.
  const patched = await ann.patch(`/slides/decks/${deck.id}`, { version: 3, slides: merged.slides.map((slide: { id: string }, i: number) => (i === 0 ? { ...slide, notes: 'Welcome everyone' } : slide)) });
  t.like(patched.body.data, { version: 4, slide_count: 4 });
  const serverEdit = await socket.until((message) => message.type === 'event' && message.event === 'doc.updated');
  t.like(serverEdit.data, { member_id: ann.id });
  const box = textOf(bobDoc.getArray('slides'), 1, 1);
  Y.applyUpdate(bobDoc, Buffer.from(serverEdit.data.update, 'base64'));
  t.deepEqual(bobDoc.getArray('slides').toJSON(), patched.body.data.slides);
  t.is(textOf(bobDoc.getArray('slides'), 1, 1), box, 'a PATCH edits the document in place: the untouched text box is the same Y.Text');
  t.deepEqual((await bob.patch(`/slides/decks/${deck.id}`, { version: 3, title: 'Mine' })).status, 409, 'a REST write on a stale version is still refused');
  socket.close();
});

test.serial('each Yjs update is checked like a PATCH (the field named) and as the document\'s shape; a refused one stores nothing', async (t) => {
  const deck = await newDeck(ann, { slides: THREE_SLIDES });
  const bobDoc = await replica(bob, deck.id);
  world.takeEvents();
  const refused = async (edit: (slides: Y.Array<Y.Map<unknown>>) => void) => {
    const probe = new Y.Doc();
    Y.applyUpdate(probe, Y.encodeStateAsUpdate(bobDoc));
    return (await bob.post(`/slides/decks/${deck.id}/updates`, { update: change(probe, edit) })).body;
  };
  t.deepEqual(await refused((slides) => element(slides, 1, 1).set('font_size', 1)), { error: 'slides[1].elements[1].font_size must be greater than or equal to 6', field: 'slides[1].elements[1].font_size' });
  t.deepEqual(await refused((slides) => element(slides, 1, 1).set('width', 'wide')), { error: 'slides[1].elements[1].width must be a number', field: 'slides[1].elements[1].width' });
  t.deepEqual(await refused((slides) => element(slides, 2, 0).set('labels', ['Q1'])), { error: 'slides[2].elements[0].series[0].values must have 1 value, one per label (it has 2)', field: 'slides[2].elements[0].series[0].values' });
  t.deepEqual(await refused((slides) => element(slides, 1, 0).set('id', 'body')), { error: 'slides[1].elements[1].id: "body" is already the id of slides[1].elements[0]', field: 'slides[1].elements[1].id' });
  t.deepEqual(await refused((slides) => slides.get(0).set('notes', 'plain')), { error: "slides[0].notes must be a Y.Text in the deck's document", field: 'slides[0].notes' });
  t.deepEqual(await refused((slides) => slides.get(0).delete('layout')), { error: 'slides[0].layout is required', field: 'slides[0].layout' });
  t.deepEqual(await refused((slides) => slides.get(0).set('transition', 'fade')), { error: 'slides[0].transition is not allowed', field: 'slides[0].transition' });
  const evil = new Y.Doc();
  Y.applyUpdate(evil, Y.encodeStateAsUpdate(bobDoc));
  const captured: Uint8Array[] = [];
  evil.on('update', (update: Uint8Array) => captured.push(update));
  evil.getMap('evil').set('x', 1);
  t.deepEqual((await bob.post(`/slides/decks/${deck.id}/updates`, { update: encode(captured[0]) })).body, { error: 'update: this document\'s roots are deck, slides; the update writes "evil"' });
  t.deepEqual((await bob.post(`/slides/decks/${deck.id}/updates`, { update: '/////w==' })).body, { error: 'update: not a Yjs update (it could not be decoded)', field: 'update' });
  const reader = await world.member(['slides.decks.read']);
  t.deepEqual((await reader.post(`/slides/decks/${deck.id}/updates`, { update: change(bobDoc, (slides) => textOf(slides, 1, 1).insert(0, 'x')) })).body, { error: 'Missing permission: slides.decks.edit' });
  t.like((await reader.get(`/slides/decks/${deck.id}/document`)).body.data, { editable: false });
  const after = (await ann.get(`/slides/decks/${deck.id}`)).body.data;
  t.like(after, { version: 1 });
  t.deepEqual(after.slides, deck.slides, 'nothing refused was stored');
  t.deepEqual(world.takeEvents(), []);

  // A deck made before the editing stack has no document: it is made from the deck's slides on first use.
  await world.query('DELETE FROM app_slides.deck_updates WHERE deck_id = :id', { id: deck.id });
  await world.query('DELETE FROM app_slides.deck_documents WHERE deck_id = :id', { id: deck.id });
  const older = await replica(bob, deck.id);
  t.deepEqual(older.getArray('slides').toJSON(), deck.slides);
  t.deepEqual((await bob.post(`/slides/decks/${deck.id}/updates`, { update: change(older, (slides) => textOf(slides, 1, 0).insert(7, '!')) })).body.data, { deck_id: deck.id, applied: true, version: 2 });
  t.is((await ann.get(`/slides/decks/${deck.id}`)).body.data.slides[1].elements[0].text, 'Results!');
});

test.serial('a slide moves by its order key: an edit made inside it meanwhile survives, the deck lists slides by key; a bad key is a 400 naming slides[i].order', async (t) => {
  const deck = await newDeck(ann, { slides: THREE_SLIDES });
  t.deepEqual(deck.slides.map((slide: { order: string }) => slide.order), ['V', 'k', 's']);
  const annDoc = await replica(ann, deck.id);
  const bobDoc = await replica(bob, deck.id);
  // At once: Ann moves the second slide to the end while Bob types in it.
  const moved = change(annDoc, (slides) => slides.get(1).set('order', keyBetween('s', null)));
  const typed = change(bobDoc, (slides) => textOf(slides, 1, 1).insert('Revenue up 12%'.length, ' (est.)'));
  t.is((await ann.post(`/slides/decks/${deck.id}/updates`, { update: moved })).status, 200);
  t.is((await bob.post(`/slides/decks/${deck.id}/updates`, { update: typed })).status, 200);
  const read = (await ann.get(`/slides/decks/${deck.id}`)).body.data;
  t.deepEqual(read.slides.map((slide: { id: string; order: string }) => [slide.id, slide.order]), [['s1', 'V'], ['s3', 's'], ['s2', 'w']]);
  t.is(read.slides[2].elements[1].text, 'Revenue up 12% (est.)', 'the text typed into the moving slide is kept');
  t.deepEqual((await ann.get(`/slides/decks/${deck.id}/document`)).body.data.content.slides, read.slides, 'the snapshot lists the slides by key too');

  const probe = await replica(bob, deck.id);
  const refused = async (edit: (slides: Y.Array<Y.Map<unknown>>) => void) => {
    const copy = new Y.Doc();
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(probe));
    return (await bob.post(`/slides/decks/${deck.id}/updates`, { update: change(copy, edit) })).body;
  };
  t.deepEqual(await refused((slides) => slides.get(0).set('order', '10')), { error: 'slides[0].order must be an order key: 1-200 letters or digits, not ending in 0', field: 'slides[0].order' });
  t.deepEqual(await refused((slides) => slides.get(0).set('order', 'V-')), { error: 'slides[0].order must be an order key: 1-200 letters or digits, not ending in 0', field: 'slides[0].order' });
  t.deepEqual(await refused((slides) => slides.get(0).set('order', 7)), { error: 'slides[0].order must be a string', field: 'slides[0].order' });
  t.deepEqual(await refused((slides) => slides.get(0).delete('order')), { error: "slides[0].order is required: the deck's slides are ordered by their keys", field: 'slides[0].order' });
  t.is((await ann.get(`/slides/decks/${deck.id}`)).body.data.version, 3, 'nothing refused was stored');

  // A PATCH's order is its array's: the slide it moves takes one new key, the others keep theirs.
  const patched = await ann.patch(`/slides/decks/${deck.id}`, { version: 3, slides: [read.slides[2], read.slides[0], read.slides[1]] });
  t.deepEqual(patched.body.data.slides.map((slide: { id: string; order: string }) => [slide.id, slide.order]), [['s2', 'F'], ['s1', 'V'], ['s3', 's']]);

  // A deck whose document has no keys (made before them) is keyed in its order on first use.
  await world.query('DELETE FROM app_slides.deck_updates WHERE deck_id = :id', { id: deck.id });
  await world.query('DELETE FROM app_slides.deck_documents WHERE deck_id = :id', { id: deck.id });
  const unkeyed = patched.body.data.slides.map(({ order: _order, ...slide }: { order: string }) => slide);
  await world.query('UPDATE app_slides.decks SET slides = :slides WHERE id = :id', { id: deck.id, slides: JSON.stringify(unkeyed) });
  const keyed = (await bob.get(`/slides/decks/${deck.id}/document`)).body.data.content.slides;
  t.deepEqual(keyed.map((slide: { id: string; order: string }) => [slide.id, slide.order]), [['s2', 'V'], ['s1', 'k'], ['s3', 's']]);
});

test.serial('the title and theme are the document\'s too: a live change reaches the row, the event and the index; a PATCH is a server edit of them; a bad one is a 400 naming deck.field', async (t) => {
  const deck = await newDeck(ann, { slides: THREE_SLIDES });
  const annDoc = await replica(ann, deck.id);
  t.deepEqual(annDoc.getMap('deck').toJSON(), { title: deck.title, theme: deck.theme });
  world.takeEvents();
  const edit = (doc: Y.Doc, write: (map: Y.Map<unknown>) => void) => change(doc, () => write(doc.getMap('deck')));
  const theme = { font: 'serif', background: '#111827', text: '#f9fafb', accent: '#22c55e' };
  const live = edit(annDoc, (map) => {
    map.set('title', 'Renamed live');
    map.set('theme', theme);
  });
  t.deepEqual((await ann.post(`/slides/decks/${deck.id}/updates`, { update: live })).body.data, { deck_id: deck.id, applied: true, version: 2 });
  const read = (await bob.get(`/slides/decks/${deck.id}`)).body.data;
  t.like(read, { title: 'Renamed live', version: 2 });
  t.deepEqual(read.theme, theme);
  t.deepEqual(world.takeEvents(), [{ action: 'core.slides.deck.updated', payload: { deck_id: deck.id, deck_mrn: deck.mrn, version: 2, changed_fields: ['title', 'theme'], slide_count: 3, updated_by: ann.mrn } }]);
  t.deepEqual((await bob.get('/slides/decks?q=renamed')).body.data.map((row: { id: string }) => row.id), [deck.id]);

  const bad = async (write: (map: Y.Map<unknown>) => void) => {
    const copy = new Y.Doc();
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(annDoc));
    return (await ann.post(`/slides/decks/${deck.id}/updates`, { update: edit(copy, write) })).body;
  };
  t.deepEqual(await bad((map) => map.set('title', ' ')), { error: 'deck.title is not allowed to be empty', field: 'deck.title' });
  t.deepEqual(await bad((map) => map.set('theme', { ...theme, accent: 'green' })), { error: 'deck.theme.accent must be a colour #rrggbb', field: 'deck.theme.accent' });
  t.deepEqual(await bad((map) => map.set('title', new Y.Text('x'))), { error: "deck.title must be a plain value in the deck's document", field: 'deck.title' });
  t.deepEqual(await bad((map) => map.set('layout', 'x')), { error: 'deck.layout is not allowed', field: 'deck.layout' });

  const patched = await bob.patch(`/slides/decks/${deck.id}`, { version: 2, title: 'Renamed by PATCH', theme: { accent: '#ef4444' } });
  t.like(patched.body.data, { title: 'Renamed by PATCH', version: 3 });
  const document = (await ann.get(`/slides/decks/${deck.id}/document`)).body.data.content;
  t.deepEqual(document.deck, { title: 'Renamed by PATCH', theme: { ...theme, accent: '#ef4444' } });
  t.is((await ann.patch(`/slides/decks/${deck.id}`, { version: 2, title: 'Stale' })).status, 409);
});

test.serial('an image element names an image uploaded to the deck through a signed link', async (t) => {
  const deck = await newDeck(ann);
  const upload = await ann.post(`/slides/decks/${deck.id}/images`, { content_type: 'image/png', size_bytes: PNG.length });
  t.is(upload.status, 200);
  const key = upload.body.data.file_key;
  t.is(key, `decks/${deck.id}/images/${upload.body.data.image_id}`);
  const image = { type: 'image', x: 0, y: 0, width: 100, height: 100, file_key: key, alt: 'Logo' };
  t.deepEqual((await ann.patch(`/slides/decks/${deck.id}`, { version: 1, slides: [{ layout: 'image', elements: [image] }] })).body, { error: `slides[0].elements[0].file_key: no image was uploaded at ${key}`, field: 'slides[0].elements[0].file_key' });
  const put = await world.platform.follow(upload.body.data.upload.url, { method: 'PUT', body: PNG, headers: { 'content-type': 'image/png' } });
  t.is(put.status, 200);
  const patched = await ann.patch(`/slides/decks/${deck.id}`, { version: 1, slides: [{ layout: 'image', elements: [image] }] });
  t.is(patched.status, 200);
  t.like(patched.body.data.slides[0].elements[0], { type: 'image', file_key: key, alt: 'Logo' });
  const read = await bob.get(`/slides/decks/${deck.id}/images/${upload.body.data.image_id}`);
  t.like(read.body.data, { file_key: key, content_type: 'image/png', size_bytes: PNG.length });
  t.is((await world.platform.follow(read.body.data.download.url)).status, 200);
});

test.serial('decks are searchable (type deck) by title and text; deleting one (its creator, or slides.decks.delete) emits deleted once', async (t) => {
  const deck = await newDeck(ann, { title: 'Onboarding', slides: [{ layout: 'title' }, { layout: 'blank', elements: [{ type: 'table', x: 0, y: 0, width: 100, height: 100, rows: [['Zanzibar office']] }] }] });
  const search = async (q: string) => (await bob.get(`/search?app=slides&q=${encodeURIComponent(q)}`)).body.data.map((hit: { url: string; type: string }) => `${hit.type}:${hit.url}`);
  t.deepEqual(await search('onboarding'), [`deck:/slides/decks/${deck.id}`]);
  t.deepEqual(await search('zanzibar'), [`deck:/slides/decks/${deck.id}`], 'the slides\' text is searched too');
  world.takeEvents();
  t.deepEqual((await bob.delete(`/slides/decks/${deck.id}`)).body, { error: 'Cannot delete this deck' });
  const manager = await world.member(['slides.decks.read', 'slides.decks.delete']);
  const deleted = await manager.delete(`/slides/decks/${deck.id}`);
  t.deepEqual(deleted.body.data, { id: deck.id, deleted: true });
  t.deepEqual(world.takeEvents(), [{ action: 'core.slides.deck.deleted', payload: { deck_id: deck.id, deck_mrn: deck.mrn, title: 'Onboarding', deleted_by: manager.mrn } }]);
  t.deepEqual(await search('onboarding'), []);
  t.is((await ann.get(`/slides/decks/${deck.id}`)).status, 404);
});

test.serial('permissions: reading needs slides.decks.read, editing slides.decks.edit', async (t) => {
  const deck = await newDeck(ann);
  const reader = await world.member(['slides.decks.read']);
  t.is((await reader.get(`/slides/decks/${deck.id}`)).status, 200);
  t.deepEqual((await reader.patch(`/slides/decks/${deck.id}`, { version: 1, title: 'x' })).body, { error: 'Missing permission: slides.decks.edit' });
  t.deepEqual((await reader.post('/slides/decks', { title: 'x' })).body, { error: 'Missing permission: slides.decks.create' });
});

test.serial('comments sit on a slide or one of its elements; the author edits, anyone who may comment resolves, the author or the deck creator deletes', async (t) => {
  const deck = await newDeck(ann, { slides: THREE_SLIDES });
  const base = `/slides/decks/${deck.id}/comments`;
  const onChart = await bob.post(base, { slide_id: 's3', element_id: 'c1', body: ' Use a line chart? ' });
  t.is(onChart.status, 200);
  t.like(onChart.body.data, { deck_id: deck.id, slide_id: 's3', element_id: 'c1', body: 'Use a line chart?', author_id: bob.id, author_mrn: bob.mrn, resolved: false, resolved_at: null });
  const onSlide = (await ann.post(base, { slide_id: 's1', body: 'Nice title' })).body.data;
  t.is(onSlide.element_id, null);
  t.deepEqual((await ann.post(base, { slide_id: 'nope', body: 'x' })).body, { error: `slide_id nope is not a slide of deck ${deck.id}`, field: 'slide_id' });
  t.deepEqual((await ann.post(base, { slide_id: 's3', element_id: 'title', body: 'x' })).body, { error: 'element_id title is not an element of slide s3', field: 'element_id' });
  t.deepEqual((await ann.patch(`/slides/comments/${onChart.body.data.id}`, { body: 'Mine now' })).body, { error: 'Only its author edits a comment' });
  const resolved = await ann.patch(`/slides/comments/${onChart.body.data.id}`, { resolved: true });
  t.like(resolved.body.data, { resolved: true, resolved_by: ann.id, body: 'Use a line chart?' });
  t.deepEqual(
    (await bob.get(`${base}?resolved=false`)).body.data.map((row: { id: string }) => row.id),
    [onSlide.id],
  );
  t.deepEqual(
    (await bob.get(`${base}?slide_id=s3`)).body.data.map((row: { id: string }) => row.id),
    [onChart.body.data.id],
  );
  t.deepEqual((await bob.delete(`/slides/comments/${onSlide.id}`)).body, { error: "Only its author or the deck's creator deletes a comment" });
  t.deepEqual((await ann.delete(`/slides/comments/${onChart.body.data.id}`)).body.data, { id: onChart.body.data.id, deleted: true }, "the deck's creator deletes any");
  t.is((await bob.get(base)).body.pagination.total, 1);
});

test.serial('every route is guarded by its permission key (the permission matrix)', async (t) => {
  const rows = await world.workspace.permissionMatrix('slides', { payloads: { 'PATCH /slides/presentations/{presentation_id}': { slide: 0 } } });
  t.is(rows.length, manifest.authorization.length);
  checkMatrixRows(t, rows.filter((candidate) => !candidate.note && !candidate.skipped));
});

test.serial('every table can be distributed by workspace', async (t) => {
  t.deepEqual(await world.platform.distributionProblems(), []);
});
