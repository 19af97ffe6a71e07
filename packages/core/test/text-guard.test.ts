import Hapi from '@hapi/hapi';
import test from 'ava';
import { installTextGuard } from '../src/server/text-guard.js';

// The text guard makes a JSON request's event emitter itself (without Podium checking hapi's
// declarations again). hapi must still use that emitter: its `finish` and `peek` reach listeners
// added through `request.events`, and a body that is not UTF-8 is still seen. A hapi upgrade that
// renamed its private field would fail here rather than silently let such bodies through.
test('a JSON request keeps hapi\'s events while the guard keeps its raw body', async (t) => {
  const server = Hapi.server();
  installTextGuard(server);
  const heard: string[] = [];
  server.ext('onPreAuth', (request, h) => {
    request.events.on('peek', (chunk: Buffer | string) => heard.push(`peek ${chunk.length}`));
    request.events.once('finish', () => heard.push('finish'));
    return h.continue;
  });
  server.route({ method: 'POST', path: '/echo', handler: (request) => ({ got: request.payload }) });
  await server.initialize();

  const good = await server.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"name":"café"}' });
  t.deepEqual([good.statusCode, JSON.parse(good.payload)], [200, { got: { name: 'café' } }]);
  t.deepEqual(heard, ['peek 16', 'finish']);

  heard.length = 0;
  const bad = await server.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]) });
  // (A bare hapi server answers Boom's own shape; the runtime's conventions make it `{error, field}`.)
  t.deepEqual([bad.statusCode, JSON.parse(bad.payload).message], [400, 'name must be UTF-8 text: the body holds bytes that are not UTF-8']);
  t.deepEqual(heard, ['peek 15', 'finish']);
  await server.stop();
});

test('a body that is not UTF-8 is still refused when something made the request\'s emitter before the guard', async (t) => {
  const server = Hapi.server();
  const finished: string[] = [];
  // An onRequest extension runs before the guard's onPreAuth one: hapi's own emitter exists by then.
  server.ext('onRequest', (request, h) => {
    request.events.once('finish', () => finished.push(request.path));
    return h.continue;
  });
  installTextGuard(server);
  server.route({ method: 'POST', path: '/echo', handler: (request) => ({ got: request.payload }) });
  await server.initialize();
  const bad = await server.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: Buffer.concat([Buffer.from('{"title":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]) });
  t.deepEqual([bad.statusCode, JSON.parse(bad.payload).message], [400, 'title must be UTF-8 text: the body holds bytes that are not UTF-8']);
  const good = await server.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"title":"café"}' });
  t.deepEqual([good.statusCode, JSON.parse(good.payload)], [200, { got: { title: 'café' } }]);
  t.deepEqual(finished, ['/echo', '/echo']);
  await server.stop();
});
