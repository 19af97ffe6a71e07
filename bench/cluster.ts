/**
 * The scale-out proof (issue 47): 3 server processes and 2 brokers on one PostgreSQL, a round-robin
 * proxy in front (it passes over a server refusing connections, as a proxy would), and a mixed load
 * over BENCH_WORKSPACES workspaces (default 200) for BENCH_SECONDS (default 120): note lists, note
 * writes (each staging an event for a webhook receiver in this process), chat posts to live sockets
 * spread over the servers, searches. During the load: SIGKILL a server, SIGKILL a broker, restart
 * both; a connection storm on one server (pool exhaustion); a slow broker (SIGSTOP for longer than
 * its claims). Afterwards the checks are computed from the database and the receivers and printed
 * one a line (`holds` / `FAILS`; exit 1 if any fails), then the figures of each fault, then the
 * throughput of the same load with 1, 2 and 3 servers (BENCH_SCALING_SECONDS each, 0 skips it).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/cluster.ts
 *   DATABASE_URL=... CLUSTER_SMOKE=1 npx tsx bench/cluster.ts     # CI: 40 workspaces, 45 s, one kill of each kind
 *
 * Options: BENCH_WORKSPACES, BENCH_CHATS (workspaces with a chat and two sockets on it, default 40),
 * BENCH_SECONDS, BENCH_CLIENTS (closed-loop clients, default 16), BENCH_SCALING_SECONDS (default 15).
 * PostgreSQL only: the embedded database is served by one process.
 */
import http from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import WebSocket from 'ws';
import { Runtime, createScratchDatabase, type RuntimeOptions } from '@wpk/core';
import { startEventSink } from '../packages/core/test/helpers/event-sink.js';
import { children, spawnChild, startProxy, type Child } from '../packages/core/test/helpers/processes.js';
import { loadAverage, median, printTable } from './lib/load.js';
import { cpuDelta, cpuMsOf, percentile, phaseFigures, postgresCpu, type Sample } from './lib/cluster-figures.js';

const SMOKE = process.env.CLUSTER_SMOKE === '1';
const WORKSPACES = Number(process.env.BENCH_WORKSPACES ?? (SMOKE ? 40 : 200));
const CHATS = Math.min(WORKSPACES, Number(process.env.BENCH_CHATS ?? (SMOKE ? 12 : 40)));
const SECONDS = Number(process.env.BENCH_SECONDS ?? (SMOKE ? 45 : 120));
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? (SMOKE ? 8 : 16));
const SCALING_SECONDS = Number(process.env.BENCH_SCALING_SECONDS ?? (SMOKE ? 0 : 15));
const SECRET = 'cluster-bench-broker-secret-0123456789abcdef';
const VERSION = '2026-11-01';
/** The hooks subscription's max_retries (the server fixture's): no delivery may be attempted more than 1 + this. */
const MAX_RETRIES = 5;
const FIXTURES = new URL('../packages/core/test/fixtures/', import.meta.url);
const SERVER = fileURLToPath(new URL('scale-server-process.ts', FIXTURES));
const BROKER = fileURLToPath(new URL('events-broker-process.ts', FIXTURES));
const NOTES_DIR = fileURLToPath(new URL('apps/notes', FIXTURES));
const CHAT_DIR = fileURLToPath(new URL('../plugins/chat', import.meta.url));
const TITLE = /^load w(\d+) /;

if (!process.env.DATABASE_URL) {
  console.error('bench/cluster.ts needs PostgreSQL: set DATABASE_URL (several processes cannot share the embedded database)');
  process.exit(2);
}

const started = Date.now();
const clock = () => Date.now() - started;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Workspace {
  index: number;
  id: string;
  host: string;
  ownerKey: string;
  chat?: { id: string; memberKey: string };
}

interface Answer {
  status: number;
  body: any;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
/** The proxy's 502 answers by their reason (`upstream ECONNRESET`, ...). */
const upstreamErrors = new Map<string, number>();

/** One HTTP request; status 0 for a network error or a timeout (the client cannot know the outcome). */
function call(base: string, method: string, path: string, workspace: Workspace, key: string, body?: object): Promise<Answer> {
  const target = new URL(base);
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    const request = http.request(
      { host: target.hostname, port: target.port, method, path, agent, headers: { host: workspace.host, authorization: `Bearer ${key}`, 'x-api-version': VERSION, ...(text ? { 'content-type': 'application/json' } : {}) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          let parsed: any;
          try {
            parsed = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : null;
          } catch {
            parsed = null;
          }
          if (response.statusCode === 502) {
            const reason = String(parsed?.error);
            upstreamErrors.set(reason, (upstreamErrors.get(reason) ?? 0) + 1);
          }
          resolve({ status: response.statusCode ?? 0, body: parsed });
        });
        response.on('error', () => resolve({ status: 0, body: null }));
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error('timeout')));
    request.on('error', () => resolve({ status: 0, body: null }));
    request.end(text);
  });
}

// ---- Set-up: a scratch database, the workspaces, their keys, notes and chat installed, the chats.
const scratch = await createScratchDatabase();
const databaseUrl = scratch.url!;
const participant = { slug: 'hooks', firstParty: true, subscriptions: [{ action: 'core.notes.note.created', handler: '/created', max_retries: MAX_RETRIES }] };
const sink = await startEventSink(() => 200);
const setup = await Runtime.create({ databaseUrl, logLevel: 'warn', port: 0, configFile: false, apps: [NOTES_DIR, CHAT_DIR].map((dir) => ({ dir, firstParty: true })), scryptLogN: 10, events: { broker: false, brokerSecret: SECRET } } as RuntimeOptions);
setup.events.registerParticipant({ ...participant, address: sink.url });
await setup.migrate();
const setupUrl = await setup.start();
const workspaces: Workspace[] = [];
const setupStarted = Date.now();
const must = (answer: Answer, what: string) => {
  if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
};
async function prepare(index: number): Promise<Workspace> {
  const subdomain = `cl${index}`;
  const created = await setup.identity.createWorkspaceWithOwner({ subdomain, name: `Cluster ${index}`, ownerEmail: `owner@${subdomain}.test`, ownerPassword: 'owner-password-1' });
  const { secret } = await setup.apiKeys.issueFullAccessKey(created.workspaceId, created.memberId, 'owner key');
  const workspace: Workspace = { index, id: created.workspaceId, host: `${subdomain}.${setup.config.baseDomain}`, ownerKey: secret };
  must(await call(setupUrl, 'POST', '/applications/notes/installations', workspace, secret, {}), 'install notes');
  if (index < CHATS) {
    const member = await setup.identity.addMember({ workspaceId: created.workspaceId, email: `member@${subdomain}.test`, password: 'member-password-1', platformRole: 'admin' });
    const memberKey = (await setup.apiKeys.issueFullAccessKey(created.workspaceId, member.memberId, 'member key')).secret;
    must(await call(setupUrl, 'POST', '/applications/chat/installations', workspace, secret, {}), 'install chat');
    must(await call(setupUrl, 'PUT', '/applications/chat/access', workspace, secret, { access_policy: 'everyone', allowed_roles: [], redlist: [] }), 'chat access');
    const chat = must(await call(setupUrl, 'POST', '/chats', workspace, secret, { type: 'group', name: `Chat ${index}`, participant_mrns: [`mrn:account:member:${member.memberId}`] }), 'chat');
    workspace.chat = { id: chat.data.id, memberKey };
  }
  return workspace;
}
for (let index = 0; index < WORKSPACES; index += 8) {
  workspaces.push(...(await Promise.all(Array.from({ length: Math.min(8, WORKSPACES - index) }, (_, offset) => prepare(index + offset)))));
}
await setup.db.sequelize.query('ANALYZE');
await setup.stop();
console.log(`set-up: ${WORKSPACES} workspaces (${CHATS} with a chat) in ${((Date.now() - setupStarted) / 1000).toFixed(1)} s`);

// ---- The cluster: 3 servers, 2 brokers, the proxy.
const serverEnv = { DATABASE_URL: databaseUrl, BROKER_SECRET: SECRET, SINK_URL: sink.url, EXTRA_APPS: CHAT_DIR };
const startServer = () => spawnChild(SERVER, serverEnv, /listening on (\S+)/);
const servers: Child[] = await Promise.all([0, 1, 2].map(() => startServer()));
const serverUrl = (index: number) => servers[index].match[1];
const alive = (child: Child) => child.child.exitCode === null && child.child.signalCode === null;
const backends = [0, 1, 2].map(serverUrl);
const proxy = await startProxy(backends);
// The brokers reach the apps inside the servers through the proxy (WPK_SELF_URL), as docs/events.md
// says for servers behind a load balancer: a killed server is then no broker's only way in.
const brokerEnv = { BROKER_DATABASE_URL: databaseUrl, BROKER_SECRET: SECRET, BROKER_CLAIM_SECONDS: '3', WPK_SELF_URL: proxy.url };
const startBroker = () => spawnChild(BROKER, brokerEnv, /ready\n/);
const brokers: Child[] = await Promise.all([0, 1].map(() => startBroker()));
const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });

// The set-up's own events (apps installed, welcome notes) relayed and delivered first, so the
// figures before the faults are those of a steady state, not of a backlog.
const backlogDeadline = Date.now() + 120_000;
const backlog = async () => (await pool.query(`SELECT (SELECT count(*) FROM platform.events WHERE status = 'pending') + (SELECT count(*) FROM platform.event_deliveries WHERE status IN ('pending', 'retrying') AND attempts = 0) AS n`)).rows[0].n as string;
while (Number(await backlog()) > 0 && Date.now() < backlogDeadline) await sleep(250);

// ---- Live sockets: two per chat (the member's and the owner's), on different servers; a socket
// whose server dies reconnects to another one and resumes with `since` = the last id it saw.
class LiveSocket {
  readonly bodies = new Set<string>();
  lastId: number | null = null;
  gaps = 0;
  resets = 0;
  leaks = 0;
  reconnects = 0;
  errors: string[] = [];
  private socket: WebSocket | null = null;
  private closed = false;

  constructor(
    readonly workspace: Workspace,
    readonly key: string,
    private server: number,
  ) {}

  open(): Promise<void> {
    return new Promise((resolve) => {
      const url = new URL(serverUrl(this.server));
      const socket = new WebSocket(`ws://${url.host}/live?api_version=${VERSION}`, { headers: { host: this.workspace.host, authorization: `Bearer ${this.key}` } });
      this.socket = socket;
      const channel = `chat/chats/${this.workspace.chat!.id}`;
      socket.on('message', (raw) => {
        const message = JSON.parse(raw.toString()) as { type: string; id?: string; last_id?: string; reset?: boolean; data?: { body?: string }; error?: string };
        if (message.type === 'welcome') socket.send(JSON.stringify({ type: 'subscribe', channel, ...(this.lastId === null ? {} : { since: String(this.lastId) }) }));
        else if (message.type === 'subscribed') {
          if (message.reset) this.resets++;
          if (this.lastId === null) this.lastId = Number(message.last_id);
          resolve();
        } else if (message.type === 'event') {
          const id = Number(message.id);
          if (this.lastId !== null && id <= this.lastId) return; // replayed twice: already seen
          if (this.lastId !== null && id !== this.lastId + 1) this.gaps++;
          this.lastId = id;
          const body = message.data?.body;
          if (body === undefined) return;
          if (!body.startsWith(`c${this.workspace.index} `)) this.leaks++;
          this.bodies.add(body);
        } else if (message.type === 'error') this.errors.push(JSON.stringify(message));
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        resolve();
        if (this.closed) return;
        this.reconnects++;
        void this.reconnect();
      });
    });
  }

  private async reconnect(): Promise<void> {
    await sleep(200);
    // The next server that is running (a proxy would pick one the same way).
    for (let step = 1; step <= 3; step++) {
      const next = (this.server + step) % 3;
      if (alive(servers[next])) {
        this.server = next;
        break;
      }
    }
    if (!this.closed) await this.open();
  }

  close(): void {
    this.closed = true;
    this.socket?.terminate();
  }
}
const sockets: LiveSocket[] = [];
for (const workspace of workspaces.filter((candidate) => candidate.chat)) {
  sockets.push(new LiveSocket(workspace, workspace.chat!.memberKey, workspace.index % 3), new LiveSocket(workspace, workspace.ownerKey, (workspace.index + 1) % 3));
}
await Promise.all(sockets.map((socket) => socket.open()));

// ---- The load.
interface Acked {
  workspace: number;
  title: string;
  at: number;
}
const ackedNotes = new Map<string, Acked>();
const attemptedTitles = new Set<string>();
const ackedPosts = new Map<number, Set<string>>();
const samples: Sample[] = [];
let leaks = 0;
let sequence = 0;
const chatWorkspaces = workspaces.filter((workspace) => workspace.chat);
const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];

function checkTitles(workspace: Workspace, titles: string[]): void {
  for (const title of titles) {
    const match = TITLE.exec(title);
    if (match && Number(match[1]) !== workspace.index) leaks++;
  }
}

/** One request of the mix through `base`; returns its sample. */
async function oneRequest(base: string, prefix: string): Promise<Sample> {
  const roll = Math.random();
  const number = sequence++;
  const begin = clock();
  let kind: Sample['kind'];
  let answer: Answer;
  if (roll < 0.35) {
    kind = 'read';
    const workspace = pick(workspaces);
    answer = await call(base, 'GET', '/notes?per_page=20', workspace, workspace.ownerKey);
    if (answer.status === 200) checkTitles(workspace, (answer.body.data as Array<{ title: string }>).map((note) => note.title));
  } else if (roll < 0.65) {
    kind = 'write';
    const workspace = pick(workspaces);
    const title = `${prefix}w${workspace.index} r${number}`;
    attemptedTitles.add(title);
    answer = await call(base, 'POST', '/notes', workspace, workspace.ownerKey, { title });
    if (answer.status === 200 && prefix === 'load ') ackedNotes.set(answer.body.data.id, { workspace: workspace.index, title, at: clock() });
  } else if (roll < 0.85 && chatWorkspaces.length > 0) {
    kind = 'chat';
    const workspace = pick(chatWorkspaces);
    const body = `c${workspace.index} m${number}`;
    answer = await call(base, 'POST', `/chats/${workspace.chat!.id}/messages`, workspace, workspace.ownerKey, { body });
    if (answer.status === 200) {
      if (!ackedPosts.has(workspace.index)) ackedPosts.set(workspace.index, new Set());
      ackedPosts.get(workspace.index)!.add(body);
    }
  } else {
    kind = 'search';
    const workspace = pick(workspaces);
    answer = await call(base, 'GET', '/search?app=notes&q=load&per_page=20', workspace, workspace.ownerKey);
    if (answer.status === 200) checkTitles(workspace, (answer.body.data as Array<{ title: string }>).map((hit) => hit.title));
  }
  return { kind, status: answer.status, start: begin, end: clock() };
}

/** CLIENTS closed loops through `base` until `stop()` is true; every sample goes to `into`. */
async function drive(base: string, prefix: string, clients: number, stop: () => boolean, into: Sample[]): Promise<void> {
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (!stop()) into.push(await oneRequest(base, prefix));
    }),
  );
}

// ---- Faults, on a timeline of the load.
interface Fault {
  name: string;
  at: number;
  until: number;
}
const faults: Fault[] = [];
const loadStart = clock();
const loadEnd = loadStart + SECONDS * 1000;
const at = (fraction: number) => loadStart + fraction * SECONDS * 1000;
const until = (moment: number) => sleep(Math.max(0, moment - clock()));

async function faultTimeline(): Promise<void> {
  await until(at(SMOKE ? 0.2 : 0.15));
  faults.push({ name: 'server SIGKILL', at: clock(), until: 0 });
  servers[1].child.kill('SIGKILL');
  await until(at(SMOKE ? 0.35 : 0.25));
  faults.push({ name: 'broker SIGKILL', at: clock(), until: 0 });
  brokers[0].child.kill('SIGKILL');
  await until(at(SMOKE ? 0.5 : 0.35));
  const restart = clock();
  [servers[1], brokers[0]] = await Promise.all([startServer(), startBroker()]);
  backends[1] = serverUrl(1);
  faults.push({ name: 'both restarted', at: restart, until: clock() });
  faults[0].until = faults[1].until = restart;
  if (SMOKE) return;
  // A connection storm: 150 concurrent searches straight at server 2 (not through the proxy),
  // more than its pool (10) can serve, for 8 s.
  await until(at(0.5));
  const storm: Fault = { name: 'pool storm on server 2', at: clock(), until: 0 };
  faults.push(storm);
  const stormSamples: Sample[] = [];
  const stormEnd = clock() + 8000;
  const stormUrl = serverUrl(2);
  await Promise.all(
    Array.from({ length: 150 }, async () => {
      while (clock() < stormEnd) {
        const workspace = pick(workspaces);
        const begin = clock();
        const answer = await call(stormUrl, 'GET', '/search?app=notes&q=load&per_page=50', workspace, workspace.ownerKey);
        stormSamples.push({ kind: 'storm', status: answer.status, start: begin, end: clock() });
      }
    }),
  );
  storm.until = clock();
  stormStatuses = countStatuses(stormSamples);
  // A slow broker: broker 1 stopped (SIGSTOP) for 8 s, longer than its claims (3 s), then resumed.
  await until(at(0.7));
  const slow: Fault = { name: 'broker SIGSTOP 8 s', at: clock(), until: 0 };
  faults.push(slow);
  brokers[1].child.kill('SIGSTOP');
  await sleep(8000);
  brokers[1].child.kill('SIGCONT');
  slow.until = clock();
}
let stormStatuses = '';
function countStatuses(list: Sample[]): string {
  const counts = new Map<number, number>();
  for (const sample of list) counts.set(sample.status, (counts.get(sample.status) ?? 0) + 1);
  return [...counts].sort((a, b) => a[0] - b[0]).map(([status, count]) => `${status}:${count}`).join(' ');
}

const loadAverageBefore = loadAverage();
await Promise.all([drive(proxy.url, 'load ', CLIENTS, () => clock() >= loadEnd, samples), faultTimeline()]);
const loadAverageAfter = loadAverage();

// ---- Let the brokers finish: every acked note's event at the receiver, every delivery settled.
const query = async <T>(sql: string, values: unknown[] = []) => (await pool.query(sql, values)).rows as T[];
const events = await query<{ id: string; workspace_id: string; note_id: string }>(`SELECT id, workspace_id, payload->>'note_id' AS note_id FROM platform.events WHERE action = 'core.notes.note.created' AND starts_with(payload->>'title', 'load ')`);
const hookReceipts = () => sink.received.filter((request) => request.body?.action === 'core.notes.note.created' && String(request.body.payload?.title).startsWith('load '));
const drainDeadline = Date.now() + 90_000;
while (new Set(hookReceipts().map((request) => String(request.body.metadata.event_id))).size < events.length && Date.now() < drainDeadline) await sleep(200);
await sleep(1000);
const deliveryRows = async () => query<{ status: string; attempts: number; event_id: string }>(`SELECT d.status, d.attempts, d.event_id FROM platform.event_deliveries d JOIN platform.events e ON e.workspace_id = d.workspace_id AND e.id = d.event_id WHERE d.subscriber = 'hooks' AND starts_with(e.payload->>'title', 'load ')`);
let deliveries = await deliveryRows();
const settleDeadline = Date.now() + 60_000;
while (deliveries.some((row) => row.status !== 'delivered') && Date.now() < settleDeadline) {
  await sleep(250);
  deliveries = await deliveryRows();
}
// The live messages: a moment for the last ones to reach the sockets.
await sleep(1500);

// ---- The checks.
const results: Array<{ holds: boolean; text: string }> = [];
const check = (holds: boolean, text: string) => results.push({ holds, text });

const notes = await query<{ id: string; workspace_id: string; title: string }>(`SELECT id, workspace_id, title FROM app_notes.notes WHERE starts_with(title, 'load ')`);
const byTitle = new Map<string, Array<{ id: string; workspace_id: string }>>();
for (const note of notes) byTitle.set(note.title, [...(byTitle.get(note.title) ?? []), note]);
const ackedWrong = [...ackedNotes].filter(([id, acked]) => {
  const rows = byTitle.get(acked.title) ?? [];
  return rows.length !== 1 || rows[0].id !== id || rows[0].workspace_id !== workspaces[acked.workspace].id;
});
const doubled = [...byTitle.values()].filter((rows) => rows.length > 1).length;
const unknown = notes.filter((note) => !attemptedTitles.has(note.title)).length;
check(ackedWrong.length === 0 && doubled === 0 && unknown === 0, `every acknowledged write is stored exactly once, in its workspace (${ackedNotes.size} acknowledged, ${notes.length} stored, ${ackedWrong.length} missing or wrong, ${doubled} titles stored twice, ${unknown} never sent)`);

const eventsByNote = new Map<string, number>();
for (const event of events) eventsByNote.set(event.note_id, (eventsByNote.get(event.note_id) ?? 0) + 1);
const noteIds = new Set(notes.map((note) => note.id));
const eventsOff = notes.filter((note) => eventsByNote.get(note.id) !== 1).length + events.filter((event) => !noteIds.has(event.note_id)).length;
check(eventsOff === 0, `one event per stored note, none for a write that was not stored (${events.length} events, ${eventsOff} off)`);

const receipts = hookReceipts();
const deliveryIdsOfEvent = new Map<string, Set<string>>();
const receiptsOfDelivery = new Map<string, number>();
let maxAttemptHeader = 0;
for (const receipt of receipts) {
  const eventId = String(receipt.body.metadata.event_id);
  const deliveryId = String(receipt.headers['x-broker-event-id']);
  if (!deliveryIdsOfEvent.has(eventId)) deliveryIdsOfEvent.set(eventId, new Set());
  deliveryIdsOfEvent.get(eventId)!.add(deliveryId);
  receiptsOfDelivery.set(deliveryId, (receiptsOfDelivery.get(deliveryId) ?? 0) + 1);
  maxAttemptHeader = Math.max(maxAttemptHeader, Number(receipt.headers['x-broker-delivery-attempt']));
}
const eventOfNote = new Map(events.map((event) => [event.note_id, event.id]));
const undelivered = [...ackedNotes.keys()].filter((id) => !deliveryIdsOfEvent.has(eventOfNote.get(id) ?? '')).length;
const handledTwice = [...deliveryIdsOfEvent.values()].filter((ids) => ids.size !== 1).length;
const duplicates = receipts.length - receiptsOfDelivery.size;
check(undelivered === 0, `every event of an acknowledged write reached the receiver at least once (${ackedNotes.size - undelivered} of ${ackedNotes.size}; ${receipts.length} receipts)`);
check(handledTwice === 0, `each event came under one delivery id, so deduplicating by delivery id handles it once (${receiptsOfDelivery.size} handled, ${duplicates} duplicate receipts dropped, ${handledTwice} events under two ids)`);
const maxReceipts = Math.max(0, ...receiptsOfDelivery.values());
const maxAttempts = Math.max(0, ...deliveries.map((row) => row.attempts));
check(maxReceipts <= 1 + MAX_RETRIES && maxAttemptHeader <= 1 + MAX_RETRIES && maxAttempts <= 1 + MAX_RETRIES, `no delivery attempted more than 1 + max_retries = ${1 + MAX_RETRIES} times (most receipts of one delivery ${maxReceipts}, highest attempt header ${maxAttemptHeader}, most attempts recorded ${maxAttempts})`);
const unsettled = deliveries.filter((row) => row.status !== 'delivered').length;
check(unsettled === 0 && deliveries.length === events.length, `every delivery ended delivered (${deliveries.length} deliveries for ${events.length} events, ${unsettled} not delivered)`);

for (const socket of sockets) socket.close();
const socketMissing = sockets.map((socket) => [...(ackedPosts.get(socket.workspace.index) ?? [])].filter((body) => !socket.bodies.has(body)).length);
const stayed = sockets.filter((socket) => socket.reconnects === 0);
const moved = sockets.filter((socket) => socket.reconnects > 0);
const postsAcked = [...ackedPosts.values()].reduce((sum, set) => sum + set.size, 0);
const missedStayed = stayed.reduce((sum, socket) => sum + socketMissing[sockets.indexOf(socket)], 0);
const missedMoved = moved.reduce((sum, socket) => sum + socketMissing[sockets.indexOf(socket)], 0);
check(missedStayed === 0, `every acknowledged chat post reached every socket that stayed connected (${stayed.length} sockets, ${postsAcked} posts acknowledged, ${missedStayed} missed)`);
const gaps = sockets.reduce((sum, socket) => sum + socket.gaps + socket.resets, 0);
check(missedMoved === 0 && gaps === 0, `every socket that reconnected resumed without a gap (${moved.length} sockets, ${moved.reduce((sum, socket) => sum + socket.reconnects, 0)} reconnects, ${missedMoved} posts missed, ${gaps} gaps or resets over all sockets)`);
for (const [index, socket] of sockets.entries()) {
  if (socketMissing[index] > 0 || socket.gaps > 0 || socket.resets > 0) console.log(`  socket ${index} (workspace ${socket.workspace.index}, ${socket.reconnects} reconnects): ${socketMissing[index]} posts missed, ${socket.gaps} gaps, ${socket.resets} resets`);
}
const socketLeaks = sockets.reduce((sum, socket) => sum + socket.leaks, 0);
check(leaks === 0 && socketLeaks === 0, `no request saw another workspace's data (reads and searches: ${leaks} foreign rows; sockets: ${socketLeaks} foreign messages)`);

console.log('');
console.log(`checks (PostgreSQL; ${WORKSPACES} workspaces, ${sockets.length} sockets, ${CLIENTS} clients, ${SECONDS} s of load):`);
for (const result of results) console.log(`${result.holds ? 'holds' : 'FAILS'}: ${result.text}`);

// ---- The figures of each fault.
console.log('');
const firstFault = faults[0]?.at ?? loadEnd;
const baseline = phaseFigures('before faults', samples, loadStart, firstFault, null);
const rows = [baseline, ...faults.map((fault) => phaseFigures(fault.name, samples, fault.at, Math.max(fault.until, fault.at + 5000), fault.at))];
const lagOf = (from: number, to: number) => {
  const firstReceipt = new Map<string, number>();
  for (const receipt of receipts) {
    const eventId = String(receipt.body.metadata.event_id);
    if (!firstReceipt.has(eventId)) firstReceipt.set(eventId, receipt.at - started);
  }
  const lags = [...ackedNotes].filter(([, acked]) => acked.at >= from && acked.at < to).map(([id, acked]) => (firstReceipt.get(eventOfNote.get(id) ?? '') ?? Number.NaN) - acked.at).filter((lag) => Number.isFinite(lag));
  return lags.length ? `p99 ${percentile(lags, 99).toFixed(0)} / max ${Math.max(...lags).toFixed(0)}` : '-';
};
printTable(rows.map((row, index) => ({ ...row, 'event lag ms': index === 0 ? lagOf(loadStart, firstFault) : lagOf(faults[index - 1].at, Math.max(faults[index - 1].until, faults[index - 1].at + 5000)) })));
if (upstreamErrors.size) console.log(`the proxy's 502s: ${[...upstreamErrors].map(([reason, count]) => `${reason} ×${count}`).join(', ')}`);
if (stormStatuses) console.log(`the storm's own requests (straight to server 2): ${stormStatuses}`);
const total = samples.length;
const errors = samples.filter((sample) => sample.status !== 200).length;
console.log(`load: ${total} requests in ${SECONDS} s (${(total / SECONDS).toFixed(0)}/s), ${errors} not 200 (${countStatuses(samples.filter((sample) => sample.status !== 200)) || 'none'}); load average ${loadAverageBefore} before, ${loadAverageAfter} after (${os.cpus().length} cores)`);

// ---- Scaling: the same mix (no faults) through 1, 2 and 3 servers, with the CPU split.
const scaling: Array<Record<string, string | number>> = [];
const ROUNDS = Number(process.env.BENCH_SCALING_ROUNDS ?? 2);
const childCpu = (list: Child[]) => cpuMsOf(list.map((child) => child.child.pid).filter((pid): pid is number => pid !== undefined));
const perServers = new Map<number, number[]>();
for (let round = 0; round < (SCALING_SECONDS > 0 ? ROUNDS : 0); round++) {
  // Rounds alternate the order (1-2-3, then 3-2-1), so a change of the machine's load falls on every count.
  for (const count of round % 2 === 0 ? [1, 2, 3] : [3, 2, 1]) {
    const subset = servers.slice(0, count).map((_, index) => serverUrl(index));
    const scaleProxy = await startProxy(subset);
    const scaleSamples: Sample[] = [];
    const before = { servers: childCpu(servers), brokers: childCpu(brokers), database: postgresCpu(), bench: process.cpuUsage() };
    const end = clock() + SCALING_SECONDS * 1000;
    await drive(scaleProxy.url, 'scale ', CLIENTS, () => clock() >= end, scaleSamples);
    const wall = SCALING_SECONDS * 1000;
    const bench = process.cpuUsage(before.bench);
    const share = (ms: number) => `${((ms / wall) * 100).toFixed(0)} %`;
    const ok = scaleSamples.filter((sample) => sample.status === 200);
    perServers.set(count, [...(perServers.get(count) ?? []), ok.length / SCALING_SECONDS]);
    scaling.push({
      round: round + 1,
      servers: count,
      'req/s': (ok.length / SCALING_SECONDS).toFixed(0),
      p99_ms: percentile(ok.map((sample) => sample.end - sample.start), 99).toFixed(0),
      'not 200': scaleSamples.length - ok.length,
      'servers CPU': share(cpuDelta(before.servers, childCpu(servers))),
      'brokers CPU': share(cpuDelta(before.brokers, childCpu(brokers))),
      'PostgreSQL CPU': share(cpuDelta(before.database, postgresCpu())),
      'bench CPU': share((bench.user + bench.system) / 1000),
      'load avg': loadAverage(),
    });
    await scaleProxy.close();
  }
}
const medianRps = (count: number) => (perServers.has(count) ? median(perServers.get(count)!).toFixed(0) : '-');
if (scaling.length) {
  console.log('');
  console.log(`scaling: the same mix without faults, ${CLIENTS} clients, ${SCALING_SECONDS} s a step, ${ROUNDS} rounds (CPU as % of one core, processes alive at both ends of the step; ${os.cpus().length} cores)`);
  printTable(scaling);
  console.log(`median req/s: 1 server ${medianRps(1)}, 2 servers ${medianRps(2)}, 3 servers ${medianRps(3)}`);
}

// ---- Clean-up, and the closing line.
for (const server of servers) server.child.kill('SIGTERM');
for (const broker of brokers) broker.child.kill('SIGTERM');
await Promise.race([Promise.all([...servers, ...brokers].map((child) => child.exited)), sleep(10_000)]);
for (const child of children) child.kill('SIGKILL');
await proxy.close();
await sink.close();
await pool.end();
agent.destroy();
await scratch.drop();
const failed = results.filter((result) => !result.holds).length;
const p99Faults = rows.slice(1).map((row) => Number(row.p99_ms)).filter(Number.isFinite);
console.log(
  `checks_failed=${failed} requests=${total} errors=${errors} p99_before_ms=${baseline.p99_ms} p99_faults_ms=${p99Faults.length ? Math.max(...p99Faults) : '-'} ${scaling.length ? `rps_1=${medianRps(1)} rps_2=${medianRps(2)} rps_3=${medianRps(3)}` : ''}`.trim(),
);
process.exit(failed === 0 ? 0 : 1);
