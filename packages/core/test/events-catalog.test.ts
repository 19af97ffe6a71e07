import test from 'ava';
import { QueryTypes } from 'sequelize';
import { createLogger, startStandaloneBroker, type Workspace } from '../src/index.js';
import type { EventSinkServer } from './helpers/event-sink.js';
import type { TestRuntime } from './helpers/runtime.js';
import { startBrokerlessRuntime, type BrokerlessRuntime } from './helpers/standalone-broker.js';

// A standalone broker (`wpk broker`, here in this process) started with the catalog the servers
// stored, while a newer server writes events of an action that catalog does not name yet.

const SECRET = 'catalog-test-broker-secret-0123456789';

let env: TestRuntime;
let sink: EventSinkServer;
let acme: Workspace;
let close: BrokerlessRuntime['close'];
let broker: Awaited<ReturnType<typeof startStandaloneBroker>>;
/** What the broker logged, one object a line. */
const logs: Array<Record<string, any>> = [];

const object = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required });

test.before(async () => {
  ({ env, sink, acme, close } = await startBrokerlessRuntime(SECRET));
  const { runtime } = env;
  broker = await startStandaloneBroker({
    databaseUrl: runtime.db.url,
    brokerSecret: SECRET,
    logger: createLogger('info', { write: (line: string) => void logs.push(JSON.parse(line)) }),
    // Batches of 2, so three waiting events would fill a batch if they were not passed over; no
    // periodic re-read of the catalog, so only meeting the unknown action makes it look again.
    tuning: { pollIntervalMs: 50, relayBatchSize: 2, catalogRefreshMs: 3_600_000, catalogRecheckMs: 50, retry: { initialDelayMs: 50 } },
    env: {},
  });
});

test.after.always(async () => {
  await broker?.stop();
  await close?.();
});

/** Resolves with the first truthy answer of `probe`, asked again every 20 ms. */
async function until<T>(probe: () => Promise<T | undefined | null | false> | T | undefined | null | false): Promise<T> {
  for (;;) {
    const answer = await probe();
    if (answer) return answer;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const outbox = (ids: string[]) =>
  env.runtime.db.sequelize.query<{ id: string; status: string; reason: string | null }>('SELECT id, status, reason FROM platform.events WHERE id IN (:ids) ORDER BY seq', {
    type: QueryTypes.SELECT,
    replacements: { ids },
  });

test.serial('an event of an action the broker does not know yet stays pending without blocking other actions, and is delivered once the catalog names it', async (t) => {
  const { runtime } = env;
  // A newer server: it knows the notes app; the catalog the broker read does not.
  runtime.events.registerParticipant({
    slug: 'notes',
    firstParty: true,
    address: null,
    emits: [{ action: 'core.notes.note.created', description: 'A note was created.', schema: object({ title: { type: 'string' } }, ['title']) }],
  });
  runtime.events.registerParticipant({ slug: 'note_hooks', firstParty: true, address: sink.url, subscriptions: [{ action: 'core.notes.note.created', handler: '/notes' }] });
  const waiting = await runtime.events.publish(acme.id, [1, 2, 3].map((n) => ({ emitter: 'notes', action: 'core.notes.note.created', payload: { title: `note ${n}` }, metadata: {} })));
  const [known] = await runtime.events.publish(acme.id, [{ emitter: 'tasks', action: 'core.tasks.task.created', payload: { n: 1 }, metadata: {} }]);

  const [first] = await sink.waitFor(1);
  t.deepEqual([first.path, first.body.metadata.event_id], ['/created', known], 'the later event of a known action went ahead');
  const notice = await until(() => logs.find((line) => line.action === 'core.notes.note.created'));
  t.deepEqual(
    [notice.level, notice.msg, notice.emitter, waiting.includes(notice.event_id)],
    [40, 'event left pending: the event catalog does not name its action (for this emitter) yet', 'notes', true],
  );
  // The relay goes on with other actions after the miss.
  const [later] = await runtime.events.publish(acme.id, [{ emitter: 'tasks', action: 'core.tasks.task.created', payload: { n: 2 }, metadata: {} }]);
  const [, second] = await sink.waitFor(2);
  t.is(second.body.metadata.event_id, later);
  t.deepEqual(await outbox(waiting), waiting.map((id) => ({ id, status: 'pending', reason: null })), 'not rejected: waiting for the catalog');
  t.false(logs.some((line) => line.msg === 'event rejected'));
  t.is(logs.filter((line) => line.action === 'core.notes.note.created').length, 1, 'the wait is logged once, not on every look');

  await runtime.events.syncCatalog();
  await sink.waitFor(5);
  t.deepEqual(
    // Deliveries run side by side: compare in title order.
    sink.received
      .filter((request) => request.path === '/notes')
      .map((request) => [request.body.metadata.event_id, request.body.payload.title])
      .sort((a, b) => a[1].localeCompare(b[1])),
    waiting.map((id, index) => [id, `note ${index + 1}`]),
  );
  t.deepEqual(await outbox(waiting), waiting.map((id) => ({ id, status: 'accepted', reason: null })));
});

test.serial('an event that breaks its schema is still rejected at once', async (t) => {
  const [id] = await env.runtime.events.publish(acme.id, [{ emitter: 'tasks', action: 'core.tasks.task.created', payload: { n: 'one' }, metadata: {} }]);
  const [row] = await until(async () => {
    const rows = await outbox([id]);
    return rows[0]?.status !== 'pending' && rows;
  });
  t.deepEqual(row, { id, status: 'rejected', reason: 'payload/n must be integer' });
});
