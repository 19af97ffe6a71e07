import test from 'ava';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { startEventSink, type EventSinkServer } from './helpers/event-sink.js';
import { keyedWorkspace, startKeysRuntime, type KeyedWorkspace } from './helpers/keys.js';
import { children, spawnChild, startProxy, type Proxy } from './helpers/processes.js';
import type { TestRuntime } from './helpers/runtime.js';

// Scale-out under load: 3 server processes and 2 broker processes (`wpk broker`) on one
// PostgreSQL database, behind a round-robin proxy. Clients create notes (each staging an event)
// through the proxy; one server and one broker are killed (SIGKILL) in the middle of the run.
// Every create answered 2xx is in the database, and every event of the outbox reaches its
// subscriber (exactly once once deliveries are deduplicated by event id).
//
// PostgreSQL only: the embedded database is served by one process, so "several servers on one
// database" cannot be had there.

const SECRET = 'scale-out-test-broker-secret-0123456789';
const SERVER = fileURLToPath(new URL('./fixtures/scale-server-process.ts', import.meta.url));
const BROKER = fileURLToPath(new URL('./fixtures/events-broker-process.ts', import.meta.url));
const CLIENTS = 8;
const REQUESTS = 600;
const WORKSPACES = 3;
/** The title prefix of the load's notes: only those count (the fixture writes a 'Welcome' note too). */
const LOAD_TITLE = 'note ';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL);

/** One POST through the proxy: the note id when answered 2xx, null otherwise (error, 5xx, dropped connection). */
function createNote(proxyUrl: string, workspace: KeyedWorkspace, title: string, agent: http.Agent): Promise<string | null> {
  const body = JSON.stringify({ title });
  const target = new URL(proxyUrl);
  return new Promise((resolve) => {
    const request = http.request(
      { host: target.hostname, port: target.port, method: 'POST', path: '/notes', agent, headers: { ...workspace.as(workspace.ownerKey), 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          if ((response.statusCode ?? 0) < 200 || (response.statusCode ?? 0) >= 300) return resolve(null);
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')).data.id);
          } catch {
            resolve(null);
          }
        });
        response.on('error', () => resolve(null));
      },
    );
    request.setTimeout(15_000, () => request.destroy(new Error('timeout')));
    request.on('error', () => resolve(null));
    request.end(body);
  });
}

let env: TestRuntime | undefined;
let sink: EventSinkServer | undefined;
let proxy: Proxy | undefined;

test.after.always(async () => {
  for (const child of children) child.kill('SIGKILL');
  await proxy?.close();
  await env?.close();
  await sink?.close();
});

if (!onPostgres) {
  test('3 servers and 2 brokers on one database: runs on PostgreSQL only (DATABASE_URL is not set)', (t) => {
    const why = 'skipped on the embedded database: it is served by one process, so several server processes cannot share it; run with DATABASE_URL to see this test';
    console.log(`scale-out-processes: ${why}`);
    t.pass(why);
  });
} else {
  test('3 servers and 2 brokers behind a round-robin proxy: killing one of each loses no acknowledged write and no event', async (t) => {
    sink = await startEventSink(() => 200);
    env = await startKeysRuntime({ events: { broker: false, brokerSecret: SECRET } });
    const workspaces: KeyedWorkspace[] = [];
    for (let index = 0; index < WORKSPACES; index++) {
      const workspace = await keyedWorkspace(env, `scale${index}`);
      const installed = await env.runtime.server.inject({ method: 'POST', url: '/applications/notes/installations', headers: workspace.as(workspace.ownerKey), payload: {} });
      t.is(installed.statusCode, 200, installed.payload);
      workspaces.push(workspace);
    }
    const databaseUrl = env.runtime.db.url;
    const common = { DATABASE_URL: databaseUrl, BROKER_SECRET: SECRET, SINK_URL: sink.url };
    const servers = await Promise.all([0, 1, 2].map(() => spawnChild(SERVER, common, /listening on (\S+)/)));
    const brokers = await Promise.all([0, 1].map(() => spawnChild(BROKER, { BROKER_DATABASE_URL: databaseUrl, BROKER_SECRET: SECRET, BROKER_CLAIM_SECONDS: '3' }, /ready\n/)));
    proxy = await startProxy(servers.map((server) => server.match[1]));

    // The load: CLIENTS loops take request numbers until REQUESTS were sent; at a third of them,
    // one server and one broker are killed.
    const acknowledged = new Map<string, string>();
    const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
    let sent = 0;
    let killedAt = -1;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (sent < REQUESTS) {
          const number = sent++;
          if (number === Math.floor(REQUESTS / 3)) {
            killedAt = number;
            servers[1].child.kill('SIGKILL');
            brokers[0].child.kill('SIGKILL');
          }
          const workspace = workspaces[number % workspaces.length];
          const id = await createNote(proxy!.url, workspace, `${LOAD_TITLE}${number}`, agent);
          if (id) acknowledged.set(id, workspace.id);
        }
      }),
    );
    agent.destroy();
    const loadMs = Date.now() - started;
    await Promise.all([servers[1].exited, brokers[0].exited]);

    // No acknowledged write lost. Only the load's notes count (titles starting with LOAD_TITLE):
    // the fixture's `system.app.installed` subscription writes a 'Welcome' note (and stages its
    // event) whenever a broker gets that delivery through, which may or may not happen during the run.
    const stored = await env.runtime.db.sequelize.query<{ id: string; workspace_id: string }>(`SELECT id, workspace_id FROM app_notes.notes WHERE starts_with(title, :prefix)`, { type: 'SELECT' as never, replacements: { prefix: LOAD_TITLE } });
    const storedIds = new Map(stored.map((row) => [row.id, row.workspace_id]));
    const lost = [...acknowledged].filter(([id, workspaceId]) => storedIds.get(id) !== workspaceId);

    // Every event delivered: the outbox's events of the notes created, all received by the sink.
    const events = await env.runtime.db.sequelize.query<{ id: string }>(`SELECT id FROM platform.events WHERE action = 'core.notes.note.created' AND starts_with(payload->>'title', :prefix)`, { type: 'SELECT' as never, replacements: { prefix: LOAD_TITLE } });
    const expected = new Set(events.map((event) => event.id));
    const receivedIds = () => sink!.received.filter((request) => request.body?.action === 'core.notes.note.created' && String(request.body.payload?.title).startsWith(LOAD_TITLE)).map((request) => String(request.body.metadata.event_id));
    const deadline = Date.now() + 40_000;
    while (new Set(receivedIds()).size < expected.size && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    // A moment more, so a late duplicate (a delivery taken over from the killed broker) is counted too.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const received = receivedIds();
    const delivered = new Set(received);
    const duplicates = received.length - delivered.size;
    const missing = [...expected].filter((id) => !delivered.has(id));
    const stray = [...delivered].filter((id) => !expected.has(id));

    const figures = { requests: sent, acknowledged: acknowledged.size, lost: lost.length, stored: stored.length, events: expected.size, delivered: delivered.size, duplicates, missing: missing.length, killed_at_request: killedAt, load_ms: loadMs };
    console.log(`scale-out-processes figures: ${JSON.stringify(figures)}`);
    t.log(figures);

    t.is(lost.length, 0, 'every create answered 2xx is in the database, in its workspace');
    t.true(acknowledged.size >= REQUESTS * 0.9, `most requests were acknowledged (${acknowledged.size} of ${REQUESTS}): the proxy passed over the killed server`);
    t.true(stored.length >= acknowledged.size && stored.length <= REQUESTS, 'no note was written twice');
    t.is(expected.size, stored.length, 'one event per note written (events are written with the note, in its transaction)');
    t.deepEqual(missing, [], 'every event reached the subscriber');
    t.deepEqual(stray, [], 'and nothing else did');
    // A broker settles the deliveries it made in batches, just after the subscriber has answered:
    // wait (bounded) for the last batch to be written before judging the rows.
    const sequelize = env.runtime.db.sequelize;
    const deliveryStates = () =>
      sequelize.query<{ status: string; n: number }>(`SELECT d.status, count(*)::int AS n FROM platform.event_deliveries d JOIN platform.events e ON e.workspace_id = d.workspace_id AND e.id = d.event_id
        WHERE d.subscriber = 'hooks' AND starts_with(e.payload->>'title', :prefix) GROUP BY d.status ORDER BY d.status`, {
        type: 'SELECT' as never,
        replacements: { prefix: LOAD_TITLE },
      });
    const settleDeadline = Date.now() + 30_000;
    let deliveries = await deliveryStates();
    while (!(deliveries.length === 1 && deliveries[0].status === 'delivered') && Date.now() < settleDeadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      deliveries = await deliveryStates();
    }
    t.deepEqual(deliveries, [{ status: 'delivered', n: expected.size }], 'one delivery per event, each delivered');

    for (const child of [servers[0], servers[2]]) child.child.kill('SIGTERM');
    brokers[1].child.kill('SIGTERM');
    await Promise.all([servers[0].exited, servers[2].exited, brokers[1].exited]);
  });
}
