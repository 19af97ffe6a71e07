import test from 'ava';
import { listenForSockets, quiet, subscribeChannel as subscribe } from '@wpk/testing';
import { CALLS_DIR, newDeck, startSlidesWorld, THREE_SLIDES } from './helpers/world.js';

const world = await startSlidesWorld('slidespresent', [CALLS_DIR]);
const sockets = await listenForSockets(world);
const [ann, bob, cid] = await world.members(3);
test.after.always(() => world.close());

const start = async (deckId: string, body: Record<string, unknown> = {}) => ann.post(`/slides/decks/${deckId}/presentations`, body);

test.serial('the presenter drives; followers get each slide change on the live channel; a handoff is explicit; ending is told once', async (t) => {
  const deck = await newDeck(ann, { slides: THREE_SLIDES });
  world.takeEvents();
  const started = await start(deck.id);
  t.is(started.status, 200);
  const presentation = started.body.data;
  const channel = `slides/presentations/${presentation.id}`;
  t.like(presentation, { deck_id: deck.id, deck_mrn: deck.mrn, status: 'live', slide: 0, presenter_id: ann.id, driver_id: ann.id, driver_mrn: ann.mrn, call_id: null, channel, ended_at: null, end_reason: null });
  t.deepEqual(world.takeEvents(), [{ action: 'core.slides.presentation.started', payload: { presentation_id: presentation.id, deck_id: deck.id, deck_mrn: deck.mrn, presenter_mrn: ann.mrn, slide: 0 } }]);
  t.is((await bob.get(`/slides/decks/${deck.id}`)).body.data.live_presentation_id, presentation.id);

  const follower = await sockets.connect(bob);
  t.like(await subscribe(follower, channel), { type: 'subscribed', channel, last_id: '0' });

  const moved = await ann.patch(`/slides/presentations/${presentation.id}`, { slide: 2 });
  t.like(moved.body.data, { slide: 2, driver_id: ann.id });
  t.like(await follower.until((message) => message.type === 'event'), { channel, id: '1', event: 'slide.changed', data: { presentation_id: presentation.id, slide: 2, driver_id: ann.id } });

  t.deepEqual((await bob.patch(`/slides/presentations/${presentation.id}`, { slide: 1 })).body, { error: `Only the driver (${ann.mrn}) moves the slides or hands the presentation on` });
  t.deepEqual((await ann.patch(`/slides/presentations/${presentation.id}`, { slide: 3 })).body, { error: 'slide must be less than 3: the deck has 3 slides, counted from 0', field: 'slide' });

  const handed = await ann.patch(`/slides/presentations/${presentation.id}`, { driver: bob.mrn });
  t.like(handed.body.data, { driver_id: bob.id, presenter_id: ann.id, slide: 2 });
  t.like(await follower.until((message) => message.type === 'event'), { id: '2', event: 'driver.changed', data: { driver_id: bob.id, driver_mrn: bob.mrn, by: ann.mrn } });
  t.deepEqual((await ann.patch(`/slides/presentations/${presentation.id}`, { slide: 0 })).body, {
    error: `Only the driver (${bob.mrn}) moves the slides or hands the presentation on; as its presenter you may take it back with {"driver": "${ann.mrn}"}`,
  });
  t.like((await bob.patch(`/slides/presentations/${presentation.id}`, { slide: 1 })).body.data, { slide: 1, driver_id: bob.id });
  t.like(await follower.until((message) => message.type === 'event'), { id: '3', event: 'slide.changed', data: { slide: 1, driver_id: bob.id } });
  t.like((await bob.patch(`/slides/presentations/${presentation.id}`, { slide: 1 })).body.data, { slide: 1 });
  t.deepEqual((await cid.patch(`/slides/presentations/${presentation.id}`, { driver: cid.mrn })).status, 403, 'nobody takes the driver role: it is handed on');

  t.like((await ann.patch(`/slides/presentations/${presentation.id}`, { driver: ann.mrn })).body.data, { driver_id: ann.id }, 'the presenter takes it back');
  t.like(await follower.until((message) => message.type === 'event'), { id: '4', event: 'driver.changed', data: { driver_id: ann.id, by: ann.mrn } });
  t.deepEqual(await quiet(follower, 100), [], 'a PATCH that changes nothing publishes nothing');
  t.like((await cid.get(`/slides/presentations/${presentation.id}`)).body.data, { slide: 1, driver_id: ann.id, status: 'live' });

  t.deepEqual((await cid.delete(`/slides/presentations/${presentation.id}`)).body, { error: 'Only the driver or the presenter ends the presentation' });
  world.takeEvents();
  const ended = await ann.delete(`/slides/presentations/${presentation.id}`);
  t.like(ended.body.data, { status: 'ended', end_reason: 'ended' });
  t.like(await follower.until((message) => message.type === 'event'), { id: '5', event: 'presentation.ended', data: { id: presentation.id, status: 'ended' } });
  const events = world.takeEvents();
  t.is(events.length, 1);
  t.like(events[0], { action: 'core.slides.presentation.ended', payload: { presentation_id: presentation.id, deck_id: deck.id, reason: 'ended', ended_by: ann.mrn } });
  t.deepEqual((await ann.patch(`/slides/presentations/${presentation.id}`, { slide: 0 })).body, { error: `Presentation ${presentation.id} has ended` });
  t.deepEqual((await ann.delete(`/slides/presentations/${presentation.id}`)).body, { error: `Presentation ${presentation.id} has already ended` });
  t.is((await bob.get(`/slides/decks/${deck.id}`)).body.data.live_presentation_id, null);
  follower.close();
});

test.serial('one live presentation per deck; a deck without slides or a slide out of range is refused; deleting the deck ends it', async (t) => {
  const deck = await newDeck(ann, { slides: THREE_SLIDES });
  t.deepEqual((await start(deck.id, { slide: 5 })).body, { error: 'slide must be less than 3: the deck has 3 slides, counted from 0', field: 'slide' });
  const first = (await start(deck.id, { slide: 1 })).body.data;
  t.is(first.slide, 1);
  t.deepEqual((await bob.post(`/slides/decks/${deck.id}/presentations`, {})).body, { error: `Deck ${deck.id} is already being presented (presentation ${first.id}): follow it, or end it first` });
  const empty = await newDeck(ann, { slides: [] });
  t.deepEqual((await start(empty.id)).body, { error: `Deck ${empty.id} has no slides to present` });

  const deckWatcher = await sockets.connect(bob);
  await subscribe(deckWatcher, `slides/decks/${deck.id}`);
  world.takeEvents();
  t.is((await ann.delete(`/slides/decks/${deck.id}`)).status, 200);
  t.deepEqual(
    world.takeEvents().map((event) => [event.action, event.payload.reason ?? null]),
    [
      ['core.slides.presentation.ended', 'deck_deleted'],
      ['core.slides.deck.deleted', null],
    ],
  );
  t.deepEqual(
    (await quiet(deckWatcher, 200)).map((message) => message.event),
    ['presentation.ended', 'deck.deleted'],
  );
  t.is((await ann.get(`/slides/presentations/${first.id}`)).status, 404);
  deckWatcher.close();
});

test.serial('editors hear each new version of the deck on its channel', async (t) => {
  const deck = await newDeck(ann);
  const editor = await sockets.connect(bob);
  await subscribe(editor, `slides/decks/${deck.id}`);
  await ann.patch(`/slides/decks/${deck.id}`, { version: 1, title: 'Renamed' });
  t.like(await editor.until((message) => message.type === 'event'), { event: 'doc.updated', data: { member_id: ann.id } }, "a title is the document's too: a PATCH of it is a server edit live editors receive");
  t.like(await editor.until((message) => message.type === 'event'), { event: 'deck.updated', data: { id: deck.id, version: 2, changed_fields: ['title'] } });
  editor.close();
});

test.serial('present in a call: a call started from the deck carries it; its participants follow until the call ends', async (t) => {
  const deck = await newDeck(ann, { slides: THREE_SLIDES });
  const callId = '6f0c1d8e-2b1a-4c55-9d3e-1a2b3c4d5e6f';
  const started = { call_id: callId, join_url: 'https://example.test/calls/x', title: 'Review', mode: 'video', creator_mrn: ann.mrn, participant_mrns: [ann.mrn, bob.mrn], source_mrn: deck.mrn };
  t.deepEqual((await bob.get(`/slides/calls/${callId}/presentation`)).body, { error: `No live call ${callId} started from a deck` });
  await world.deliver('core.calls.call.started', started);
  await world.deliver('core.calls.call.started', started);
  t.deepEqual((await bob.get(`/slides/calls/${callId}/presentation`)).body, { error: `Nothing is presented in call ${callId} yet` });

  world.takeEvents();
  const presentation = (await start(deck.id)).body.data;
  t.is(presentation.call_id, callId);
  t.like(world.takeEvents()[0], { action: 'core.slides.presentation.started', payload: { call_id: callId } });
  t.like((await bob.get(`/slides/calls/${callId}/presentation`)).body.data, { id: presentation.id, slide: 0, channel: `slides/presentations/${presentation.id}` });
  t.deepEqual((await cid.get(`/slides/calls/${callId}/presentation`)).body, { error: `You are not a participant of call ${callId}` });

  const follower = await sockets.connect(bob);
  await subscribe(follower, presentation.channel);
  await world.deliver('core.calls.call.ended', { call_id: callId, duration_seconds: 60, participant_count: 2, source_mrn: deck.mrn });
  t.like(await follower.until((message) => message.type === 'event'), { event: 'presentation.ended', data: { id: presentation.id, end_reason: 'call_ended' } });
  t.like(world.takeEvents(), [{ action: 'core.slides.presentation.ended', payload: { presentation_id: presentation.id, reason: 'call_ended' } }]);
  await world.deliver('core.calls.call.ended', { call_id: callId, duration_seconds: 60, participant_count: 2, source_mrn: deck.mrn });
  t.deepEqual(world.takeEvents(), [], 'a repeated end changes nothing');
  t.deepEqual((await bob.get(`/slides/calls/${callId}/presentation`)).body, { error: `No live call ${callId} started from a deck` });

  const other = { ...started, call_id: '7f0c1d8e-2b1a-4c55-9d3e-1a2b3c4d5e6f', source_mrn: 'mrn:chat:chat:7f0c1d8e-2b1a-4c55-9d3e-1a2b3c4d5e6f' };
  await world.deliver('core.calls.call.started', other);
  t.deepEqual((await bob.get(`/slides/calls/${other.call_id}/presentation`)).status, 404, 'a call not started from a deck is none of ours');
  follower.close();
});

test.serial('a presentation already live when a call from its deck starts joins the call', async (t) => {
  const deck = await newDeck(ann, { slides: THREE_SLIDES });
  const presentation = (await start(deck.id)).body.data;
  const callId = '8f0c1d8e-2b1a-4c55-9d3e-1a2b3c4d5e6f';
  await world.deliver('core.calls.call.started', { call_id: callId, join_url: 'https://example.test/calls/y', title: 'Review', mode: 'video', creator_mrn: ann.mrn, participant_mrns: [ann.mrn, bob.mrn], source_mrn: deck.mrn });
  t.like((await bob.get(`/slides/calls/${callId}/presentation`)).body.data, { id: presentation.id, call_id: callId });
});

test.serial('following needs slides.decks.read and a presentation that exists', async (t) => {
  const outsider = await world.workspace.member({ permissions: ['slides.decks.create'] });
  const deck = await newDeck(ann);
  const presentation = (await start(deck.id)).body.data;
  const socket = await sockets.connect(outsider);
  t.like(await subscribe(socket, presentation.channel), { type: 'error', status: 403, error: 'Missing permission: slides.decks.read' });
  const reader = await sockets.connect(bob);
  t.like(await subscribe(reader, 'slides/presentations/00000000-0000-4000-8000-000000000000'), { type: 'error', status: 403, error: 'You may not follow slides/presentations/00000000-0000-4000-8000-000000000000' });
  socket.close();
  reader.close();
});
