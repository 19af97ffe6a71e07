import test from 'ava';
import { openWelcomedSocket, quiet, startServerProcess, type ServerProcess, type TestMember, type TestSocket, type World } from '@wpk/testing';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { newDeck, startSlidesWorld, THREE_SLIDES } from './helpers/world.js';

// Live follow across server processes: the test's platform (A) and a `wpk start` of this app (B)
// on one PostgreSQL database. The driver moves slides through one process; a follower whose socket
// is on the other sees each change, in order (core's LISTEN/NOTIFY fan-out of the app's channel).
// On the embedded database (one process) the same publish path reaches a socket of the same server.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL);
const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const CLI = fileURLToPath(new URL('../../../cli/src/bin.ts', import.meta.url));
const SUBDOMAIN = onPostgres ? 'slidestwoprocs' : 'slidesoneproc';

let world: World;
let urlA: string;
let urlB: string;
let second: ServerProcess | null = null;
let ann: TestMember;
let bob: TestMember;

test.before(async () => {
  world = await startSlidesWorld(SUBDOMAIN);
  urlA = await world.platform.runtime.start();
  [ann, bob] = await world.members(2);
  if (!onPostgres) {
    urlB = urlA;
    return;
  }
  second = await startServerProcess({ cli: CLI, appDir: APP_DIR, databaseUrl: world.platform.runtime.db.url });
  urlB = second.url;
});
test.after.always(async () => {
  second?.stop();
  await world?.close();
});

const connect = async (url: string, member: TestMember): Promise<TestSocket> => openWelcomedSocket(url, SUBDOMAIN, { headers: { authorization: `Bearer ${(await member.apiKey()).secret}` } });

/** A PATCH sent straight to one server process. */
async function patchOn(url: string, member: TestMember, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const secret = (await member.apiKey()).secret;
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const request = http.request(
      { host: target.hostname, port: target.port, method: 'PATCH', path, headers: { host: `${SUBDOMAIN}.localhost`, authorization: `Bearer ${secret}`, 'x-api-version': '2026-11-01', 'content-type': 'application/json' } },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

test.serial(`a follower on ${onPostgres ? 'another server process' : 'the server'} sees each slide change and the handoff, in order`, async (t) => {
  if (onPostgres) t.not(urlA, urlB);
  else t.true(world.platform.runtime.db.isEmbedded);
  const deck = await newDeck(ann, { slides: THREE_SLIDES });
  const presentation = (await ann.post(`/slides/decks/${deck.id}/presentations`, {})).body.data;
  const follower = await connect(urlB, bob);
  follower.send({ type: 'subscribe', channel: presentation.channel });
  t.like(await follower.until((message) => message.type === 'subscribed'), { last_id: '0' });

  const path = `/slides/presentations/${presentation.id}`;
  t.is((await patchOn(urlA, ann, path, { slide: 1 })).status, 200);
  t.is((await patchOn(urlA, ann, path, { slide: 2 })).status, 200);
  t.is((await patchOn(urlA, ann, path, { driver: bob.mrn })).status, 200);
  const seen = [await follower.until((m) => m.type === 'event'), await follower.until((m) => m.type === 'event'), await follower.until((m) => m.type === 'event')];
  t.deepEqual(
    seen.map((message) => [message.id, message.event, message.data.slide ?? message.data.driver_id]),
    [
      ['1', 'slide.changed', 1],
      ['2', 'slide.changed', 2],
      ['3', 'driver.changed', bob.id],
    ],
  );

  // The new driver moves through server B; a follower on server A sees it.
  const onA = await connect(urlA, ann);
  onA.send({ type: 'subscribe', channel: presentation.channel, since: '3' });
  await onA.until((message) => message.type === 'subscribed');
  t.like(await patchOn(urlB, bob, path, { slide: 0 }), { status: 200, body: { data: { slide: 0, driver_id: bob.id } } });
  t.like(await onA.until((message) => message.type === 'event'), { id: '4', event: 'slide.changed', data: { slide: 0, driver_id: bob.id } });
  t.like(await follower.until((message) => message.type === 'event'), { id: '4', event: 'slide.changed', data: { slide: 0 } });
  t.deepEqual(await quiet(follower, 100), []);
  follower.close();
  onA.close();
});
