import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Workspace } from '../src/index.js';
import type { EventSinkServer } from './helpers/event-sink.js';
import type { TestRuntime } from './helpers/runtime.js';
import { startBrokerlessRuntime, type BrokerlessRuntime } from './helpers/standalone-broker.js';

// The repository's TypeScript loader (tools/ts-hooks), by its file URL: a process started in another folder finds it too.
const TS_HOOKS = `--import=${import.meta.resolve('@wpk/ts-hooks')}`;

// Brokers as separate processes (`wpk broker`), on the same database as this test's runtime
// (on the embedded database, through its socket): a broker killed in the middle of deliveries
// loses nothing, and two brokers never deliver one event twice.

const SECRET = 'processes-test-broker-secret-0123456789';
const FIXTURE = fileURLToPath(new URL('./fixtures/events-broker-process.ts', import.meta.url));

let env: TestRuntime;
let sink: EventSinkServer;
let acme: Workspace;
let close: BrokerlessRuntime['close'];
const children = new Set<ChildProcess>();

interface BrokerProcess {
  child: ChildProcess;
  /** Resolves with the broker's attempt counts after SIGTERM. */
  stop(): Promise<{ attempts: number; delivered: number; failed: number }>;
  kill(): Promise<void>;
}

async function spawnBroker(): Promise<BrokerProcess> {
  const child = spawn(process.execPath, [TS_HOOKS, FIXTURE], {
    env: { ...process.env, BROKER_DATABASE_URL: env.runtime.db.url, BROKER_SECRET: SECRET },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  let errors = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (errors += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => {
    children.delete(child);
    resolve();
  }));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`broker process not ready after 30 s: ${errors}`)), 30_000);
    const check = () => {
      if (output.includes('ready\n')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => reject(new Error(`broker process exited with ${code}: ${errors}`)));
    check();
  });
  return {
    child,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      const line = output.trim().split('\n').at(-1)!;
      return JSON.parse(line);
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

test.before(async () => {
  ({ env, sink, acme, close } = await startBrokerlessRuntime(SECRET));
});

test.after.always(async () => {
  for (const child of children) child.kill('SIGKILL');
  await close?.();
});

async function publish(count: number, offset: number): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 100) {
    const batch = Array.from({ length: Math.min(100, count - start) }, (_, index) => ({ emitter: 'tasks', action: 'core.tasks.task.created', payload: { n: offset + start + index }, metadata: {} }));
    ids.push(...(await env.runtime.events.publish(acme.id, batch)));
  }
  return ids;
}

test.serial('a broker process killed in the middle of deliveries loses nothing: every event is delivered after a restart', async (t) => {
  sink.received.length = 0;
  // The endpoint holds its answers, so the first broker dies with deliveries in flight.
  sink.respond = () => new Promise((resolve) => setTimeout(() => resolve(200), 10_000));
  const ids = await publish(30, 0);
  const first = await spawnBroker();
  await sink.waitFor(4, 20_000);
  await first.kill();
  const inFlight = sink.received.map((request) => String(request.headers['x-broker-event-id']));
  t.true(inFlight.length >= 4 && inFlight.length < 30, `${inFlight.length} deliveries were in flight when the broker died`);
  t.true(sink.received.every((request) => request.headers['x-broker-delivery-attempt'] === '1'));

  sink.respond = () => 200;
  const second = await spawnBroker();
  await env.runtime.events.settled(30_000);
  const stats = await second.stop();

  const delivered = await env.runtime.events.listDeliveries({ limit: 100 });
  t.is(delivered.length, 30);
  t.true(delivered.every((delivery) => delivery.status === 'delivered'), 'every delivery ends delivered');
  t.deepEqual([...new Set(sink.received.map((request) => String(request.body.metadata.event_id)))].sort(), [...ids].sort(), 'every event reached the subscriber');
  for (const id of inFlight) {
    const again = sink.received.filter((request) => request.headers['x-broker-event-id'] === id).map((request) => request.headers['x-broker-delivery-attempt']);
    t.deepEqual(again, ['1', '2'], `delivery ${id} was taken over with the same id`);
    t.is(delivered.find((delivery) => delivery.id === id)!.attempts, 2);
  }
  t.is(stats.delivered, 30, 'the restarted broker delivered all of them');
});

test.serial('two broker processes share the work without delivering any event twice', async (t) => {
  sink.received.length = 0;
  sink.respond = () => new Promise((resolve) => setTimeout(() => resolve(200), 5));
  const [a, b] = await Promise.all([spawnBroker(), spawnBroker()]);
  const ids = await publish(200, 1000);
  await sink.waitFor(200, 60_000);
  await env.runtime.events.settled(30_000);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const [statsA, statsB] = await Promise.all([a.stop(), b.stop()]);
  t.is(sink.received.length, 200, 'exactly one delivery per event');
  t.is(new Set(sink.received.map((request) => request.headers['x-broker-event-id'])).size, 200);
  t.deepEqual(sink.received.map((request) => String(request.body.metadata.event_id)).sort(), [...ids].sort());
  t.is(statsA.delivered + statsB.delivered, 200);
  t.true(statsA.delivered > 0 && statsB.delivered > 0, `both brokers worked (${statsA.delivered} + ${statsB.delivered})`);
});
