import test from 'ava';
import { listenForSockets, quiet, subscribeChannel as subscribe } from '@wpk/testing';
import * as Y from 'yjs';
import { newBoard, startCanvasWorld } from './helpers/world.js';

const world = await startCanvasWorld('canvaslive');
const sockets = await listenForSockets(world);
const [ann, bob] = await world.members(2);
test.after.always(() => world.close());

test.serial('followers of a board receive every change as a Yjs update and end with the same document', async (t) => {
  const boardId = await newBoard(ann);
  const channel = `canvas/boards/${boardId}`;
  const annSocket = await sockets.connect(ann);
  t.like(await subscribe(annSocket, channel), { type: 'subscribed', channel, last_id: '0' });
  const replica = new Y.Doc();
  Y.applyUpdate(replica, Buffer.from((await ann.get(`/canvas/boards/${boardId}/document`)).body.data.update, 'base64'));

  const made = await bob.post(`/canvas/boards/${boardId}/objects`, { id: 'n1', type: 'sticky', x: 1, y: 2, width: 100, height: 100, text: 'Hi' });
  t.is(made.status, 200);
  const event = await annSocket.until((message) => message.type === 'event');
  t.like(event, { channel, id: '1', event: 'doc.updated', data: { member_id: bob.id } });
  Y.applyUpdate(replica, Buffer.from(event.data.update, 'base64'));
  t.deepEqual((replica.getMap('objects').get('n1') as Y.Map<unknown>).toJSON(), { type: 'sticky', x: 1, y: 2, z: 1, width: 100, height: 100, text: 'Hi' });

  const comment = await bob.post(`/canvas/boards/${boardId}/comments`, { object_id: 'n1', body: 'Nice' });
  t.like(await annSocket.until((message) => message.type === 'event'), { id: '2', event: 'comment.created', data: { id: comment.body.data.id, body: 'Nice' } });
  await bob.patch(`/canvas/boards/${boardId}`, { name: 'Renamed' });
  t.like(await annSocket.until((message) => message.type === 'event'), { id: '3', event: 'board.updated', data: { name: 'Renamed' } });
  t.deepEqual(await quiet(annSocket, 100), []);
  annSocket.close();
});

test.serial('cursors travel as signals: relayed to the other sockets of the board, never to the sender, bounded in size', async (t) => {
  const boardId = await newBoard(ann);
  const channel = `canvas/boards/${boardId}`;
  const annSocket = await sockets.connect(ann);
  const bobSocket = await sockets.connect(bob);
  await subscribe(annSocket, channel);
  const subscribed = await subscribe(bobSocket, channel);
  t.deepEqual([...subscribed.presence].sort(), [ann.id, bob.id].sort());
  t.like(await annSocket.until((message) => message.type === 'presence'), { member_id: bob.id, state: 'online' });

  annSocket.send({ type: 'signal', channel, data: { cursor: { x: 10, y: 20 }, name: 'Ann' } });
  t.deepEqual(await bobSocket.until((message) => message.type === 'signal'), { type: 'signal', channel, member_id: ann.id, connection_id: annSocket.welcome.connection_id, data: { cursor: { x: 10, y: 20 }, name: 'Ann' } });
  t.deepEqual(await quiet(annSocket, 150), [], 'the sender hears nothing of its own signal');

  // A burst, as frames read together after a pause: the first goes out at once, the last at the end
  // of the 50 ms interval; those between are replaced by it. The pointer ends where it stopped.
  for (let x = 1; x <= 5; x += 1) annSocket.send({ type: 'signal', channel, data: { cursor: { x, y: 0 } } });
  const burst = (await quiet(bobSocket, 400)).filter((message) => message.type === 'signal');
  t.deepEqual(burst.map((message) => message.data), [{ cursor: { x: 1, y: 0 } }, { cursor: { x: 5, y: 0 } }]);

  annSocket.send({ type: 'signal', channel, ref: 'big', data: { pad: 'x'.repeat(3000) } });
  t.deepEqual(await annSocket.next(), { type: 'error', ref: 'big', channel, status: 400, error: 'data must be at most 2048 bytes as JSON' });
  annSocket.send({ type: 'signal', channel, ref: 'list', data: [1, 2] });
  t.deepEqual(await annSocket.next(), { type: 'error', ref: 'list', channel, status: 400, error: 'data must be a JSON object' });
  annSocket.send({ type: 'signal', channel: 'canvas/boards/other', ref: 'no', data: {} });
  t.deepEqual(await annSocket.next(), { type: 'error', ref: 'no', channel: 'canvas/boards/other', status: 404, error: 'Not subscribed to "canvas/boards/other"' });
  t.deepEqual(await quiet(bobSocket, 150), [], 'refused signals are not relayed');

  annSocket.close();
  t.like(await bobSocket.until((message) => message.type === 'presence'), { member_id: ann.id, state: 'offline' });
  bobSocket.close();
});

test.serial('a board that does not exist cannot be followed', async (t) => {
  const socket = await sockets.connect(ann);
  t.like(await subscribe(socket, 'canvas/boards/00000000-0000-4000-8000-000000000000'), { type: 'error', status: 403, error: 'You may not follow canvas/boards/00000000-0000-4000-8000-000000000000' });
  const outsider = await world.workspace.member({ permissions: ['canvas.boards.create'] });
  const boardId = await newBoard(ann);
  const outsiderSocket = await sockets.connect(outsider);
  t.like(await subscribe(outsiderSocket, `canvas/boards/${boardId}`), { type: 'error', status: 403, error: 'Missing permission: canvas.boards.read' });
  socket.close();
  outsiderSocket.close();
});
