import test from 'ava';
import { openSocket, openWelcomedSocket, startServerProcess, type ServerProcess, type TestMember, type TestSocket, type World } from '@wpk/testing';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { startChatWorld } from './helpers/world.js';

// Two server processes on one PostgreSQL database: the test's platform (A) and a `wpk start` of
// this app (B). A message posted through one reaches a socket on the other (LISTEN/NOTIFY), large
// ones included. PostgreSQL only: the embedded database serves one process (its in-process path
// is what test/live.test.ts exercises there).
const onPostgres = Boolean(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL);
const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const CLI = fileURLToPath(new URL('../../../cli/src/bin.ts', import.meta.url));

let world: World;
let urlA: string;
let urlB: string;
let second: ServerProcess | null = null;
let ann: TestMember;
let bob: TestMember;

if (onPostgres) {
  test.before(async () => {
    world = await startChatWorld('twoprocs');
    urlA = await world.platform.runtime.start();
    ann = await world.member();
    bob = await world.member();
    second = await startServerProcess({ cli: CLI, appDir: APP_DIR, databaseUrl: world.platform.runtime.db.url });
    urlB = second.url;
  });
  test.after.always(async () => {
    second?.stop();
    await world?.close();
  });

  const connect = async (url: string, secret: string): Promise<TestSocket> => {
    return openWelcomedSocket(url, 'twoprocs', { headers: { authorization: `Bearer ${secret}` } });
  };

  test.serial('a message posted through server A reaches a socket on server B, and back', async (t) => {
    const chatId = (await ann.post('/chats', { type: 'group', participant_mrns: [bob.mrn] })).body.data.id;
    const onB = await connect(urlB, (await bob.apiKey()).secret);
    onB.send({ type: 'subscribe', channel: `chat/chats/${chatId}` });
    t.like(await onB.until((message) => message.type === 'subscribed'), { last_id: '0' });
    const big = '€'.repeat(3000);
    await ann.post(`/chats/${chatId}/messages`, { body: 'through A' });
    await ann.post(`/chats/${chatId}/messages`, { body: big });
    const first = await onB.until((message) => message.type === 'event');
    const second = await onB.until((message) => message.type === 'event');
    t.deepEqual([first.id, first.data.body, second.id, second.data.body], ['1', 'through A', '2', big]);

    const annKey = (await ann.apiKey()).secret;
    const onA = await connect(urlA, annKey);
    onA.send({ type: 'subscribe', channel: `chat/chats/${chatId}` });
    await onA.until((message) => message.type === 'subscribed');
    const status = await new Promise<number>((resolve, reject) => {
      const target = new URL(urlB);
      const request = http.request(
        { host: target.hostname, port: target.port, method: 'POST', path: `/chats/${chatId}/messages`, headers: { host: 'twoprocs.localhost', authorization: `Bearer ${annKey}`, 'x-api-version': '2026-11-01', 'content-type': 'application/json' } },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        },
      );
      request.on('error', reject);
      request.end(JSON.stringify({ body: 'through B' }));
    });
    t.is(status, 200);
    t.like(await onA.until((message) => message.type === 'event'), { id: '3', data: { body: 'through B' } });
    t.like(await onB.until((message) => message.type === 'event'), { id: '3', data: { body: 'through B' } });
    onA.close();
    onB.close();
  });
} else {
  // The embedded database: one process, and the same publish path hands notes to this process's hub.
  test.before(async () => {
    world = await startChatWorld('oneproc');
    urlA = await world.platform.runtime.start();
    ann = await world.member();
    bob = await world.member();
  });
  test.after.always(() => world?.close());

  test('on the embedded database the fan-out is in-process: a message reaches a socket of the same server', async (t) => {
    t.true(world.platform.runtime.db.isEmbedded);
    const chatId = (await ann.post('/chats', { type: 'group', participant_mrns: [bob.mrn] })).body.data.id;
    const client = await openSocket(urlA, 'oneproc', { headers: { authorization: `Bearer ${(await bob.apiKey()).secret}` } });
    if (!('socket' in client)) throw new Error(`refused: ${client.status}`);
    await client.next();
    client.send({ type: 'subscribe', channel: `chat/chats/${chatId}` });
    await client.until((message) => message.type === 'subscribed');
    await ann.post(`/chats/${chatId}/messages`, { body: 'same process' });
    t.like(await client.until((message) => message.type === 'event'), { id: '1', data: { body: 'same process' } });
    client.close();
  });
}
