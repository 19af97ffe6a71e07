/**
 * Live updates under load: BENCH_SOCKETS websockets (default 1,000) on one node, each subscribed
 * to one of BENCH_CHATS group chats (default 100, ten members each), while messages are posted
 * over HTTP at BENCH_RATE per second (default 100, round-robin over the chats) for BENCH_SECONDS
 * (default 30), after BENCH_WARMUP seconds (default 3) of the same posts, not measured. Measures post → receive (from the start of the POST to the socket's frame) over
 * every delivery of an accepted post: p50, p99, max, and deliveries missed. Posts the server
 * refuses (503 when its admission gate is full, docs/self-hosting.md "Overload") are counted by status
 * and expect no delivery. The posts go over up to BENCH_CONNECTIONS connections (default 256, above
 * the gate's 64 in flight), so that the server, not this bench's HTTP agent, decides what waits. With BENCH_PROCESSES=2 (PostgreSQL only) a
 * second server process (`wpk start`) serves half of each chat's sockets, so half of the deliveries
 * cross processes through LISTEN/NOTIFY (its CPU is printed apart from the rest of the machine's).
 *
 *   npx tsx bench/live.ts                                   # embedded database, one process
 *   DATABASE_URL=postgres://... BENCH_PROCESSES=2 npx tsx bench/live.ts
 *   BENCH_SOCKETS=100 BENCH_SECONDS=10 npx tsx bench/live.ts   # a smoke run
 *
 * BENCH_PROFILE=<file> writes the CPU profile of this process's main thread (the server) over the
 * posting alone (a `.cpuprofile`); BENCH_TIMELINE=<file> every delivery as [ms since the first
 * post, latency ms], to see when the tail happens. Besides this process's CPU it prints the rest of
 * the machine's over the posting (/proc/stat): on a quiet machine, PostgreSQL's.
 *
 * Set-up, linear in BENCH_CHATS and BENCH_SOCKETS (each phase prints its duration as it ends): one
 * admin installs chat, makes a role holding chat.chats.create/read and chat.messages.read/send and
 * lets it in (access policy `roles`); BENCH_CHATS plain members are added (each notifies the one
 * admin) and given the role (PATCH /members), eight at a time; each member starts one group chat
 * with the nine next ones (each notifies its nine participants); the set-up's events are delivered
 * before the posting starts; the sockets open fifty at a time, then subscribe fifty at a time (each
 * a presence NOTIFY). Members are not admins: every post, and every socket's judgement, reads the
 * member's roles at layers 4-5 as a real member's request does (admins would skip those reads, and
 * adding N admins notifies every earlier admin: N²/2 notifications). The sockets run in a
 * worker thread of this process (bench/lib/live-sockets.mjs), beside the server they measure: their
 * own event loop and heap, this process's CPU. BENCH_BUILT=1 runs this process's server on @wpk/core as it
 * is published (bench/lib/core.ts), and the second server (`wpk start`, the CLI's sources) on the
 * same build (bench/lib/built-core.mjs); without it both run core's sources. Targets (issue 46): p99 ≤ 50 ms at 1,000 sockets, ≤ 100
 * ms at 10,000 across two processes (BENCH_CHATS=1000 BENCH_SOCKETS=10000 BENCH_PROCESSES=2).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import inspector from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { cpuMsOf } from './lib/cluster-figures.js';
import { loadCore } from './lib/core.js';
import { loadAverage, machineBusyCpuMs, printTable } from './lib/load.js';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
const CHATS = Number(process.env.BENCH_CHATS ?? 100);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 1);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 256);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const PER_CHAT = 10;
const SETUP_CONCURRENCY = 8;
const VERSION = '2026-11-01';
const CHAT_DIR = fileURLToPath(new URL('../plugins/chat', import.meta.url));
const CLI = fileURLToPath(new URL('../cli/src/bin.ts', import.meta.url));

// The process's monotonic clock, in ms: the same in the sockets' worker thread (bench/lib/live-sockets.mjs).
const now = () => Number(process.hrtime.bigint()) / 1e6;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

const { Runtime, createScratchDatabase } = await loadCore();
console.log(`Node ${process.version}, core ${process.env.BENCH_BUILT === '1' ? 'built' : 'from sources'}`);
const scratch = await createScratchDatabase();
if (PROCESSES > 1 && !scratch.url) throw new Error('BENCH_PROCESSES=2 needs PostgreSQL (DATABASE_URL): the embedded database serves one process');
const runtime = await Runtime.create({ databaseUrl: scratch.url, inMemory: scratch.url === undefined, logLevel: 'warn', port: 0, configFile: false, apps: [{ dir: CHAT_DIR, firstParty: true }], scryptLogN: 10 } as never);
let second: ChildProcess | null = null;
let clients: Worker | null = null;
try {
  await runtime.migrate();
  const urls = [await runtime.start()];
  const workspace = await runtime.workspaces.create({ subdomain: 'bench', name: 'Bench' });
  const host = `bench.${runtime.config.baseDomain}`;
  let agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

  const call = (url: string, method: string, path: string, key: string, body?: object) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const target = new URL(url);
      const text = body === undefined ? undefined : JSON.stringify(body);
      const request = http.request(
        { host: target.hostname, port: target.port, method, path, agent, headers: { host, authorization: `Bearer ${key}`, 'x-api-version': VERSION, ...(text ? { 'content-type': 'application/json' } : {}) } },
        (response) => {
          let data = '';
          response.on('data', (chunk: Buffer) => (data += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: data ? JSON.parse(data) : null }));
        },
      );
      request.on('error', reject);
      request.end(text);
    });

  // Set-up runs SETUP_CONCURRENCY at a time (sequential, 1,000 chats took over 7 minutes); each
  // phase is timed. Every phase is linear in the members or sockets: the members are plain members
  // (each one added notifies the owners and admins: the one admin here), the chat permissions come
  // from a role, as a real member's do.
  const inBatches = async <T>(count: number, make: (index: number) => Promise<T>): Promise<T[]> => {
    const made: T[] = [];
    for (let start = 0; start < count; start += SETUP_CONCURRENCY)
      made.push(...(await Promise.all(Array.from({ length: Math.min(SETUP_CONCURRENCY, count - start) }, (_, offset) => make(start + offset)))));
    return made;
  };
  const must = (what: string, answer: { status: number; body: any }) => {
    if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const phases: Array<[string, number]> = [];
  let phaseStarted = now();
  const phase = (name: string, detail = '') => {
    const seconds = (now() - phaseStarted) / 1000;
    phases.push([name, seconds]);
    console.log(`set-up: ${name}${detail ? ` (${detail})` : ''} ${seconds.toFixed(1)} s, load average ${loadAverage()}`);
    phaseStarted = now();
  };
  const setupStarted = now();
  // One admin installs chat, makes the role and gives it; the members hold the role and nothing more.
  const adminMember = await runtime.identity.addMember({ workspaceId: workspace.id, email: 'admin@bench.test', password: 'bench-password-1', platformRole: 'admin', name: 'Admin' });
  const admin = (await runtime.apiKeys.issueFullAccessKey(workspace.id, adminMember.memberId, 'bench admin')).secret;
  must('install', await call(urls[0], 'POST', '/applications/chat/installations', admin, {}));
  const role = must('role', await call(urls[0], 'POST', '/roles', admin, { name: 'Chatters', permissions: { chat: ['chat.chats.create', 'chat.chats.read', 'chat.messages.read', 'chat.messages.send'] } })).data.id as string;
  must('access', await call(urls[0], 'PUT', '/applications/chat/access', admin, { access_policy: 'roles', allowed_roles: [role], redlist: [] }));
  phase('admin, chat installed, role');
  const members = await inBatches(CHATS, async (index) => {
    const { memberId } = await runtime.identity.addMember({ workspaceId: workspace.id, email: `m${index}@bench.test`, password: 'bench-password-1', platformRole: 'member', name: `Member ${index}` });
    const { secret } = await runtime.apiKeys.issueFullAccessKey(workspace.id, memberId, `bench ${index}`);
    return { id: memberId, key: secret };
  });
  phase('members', `${CHATS}`);
  await inBatches(CHATS, async (index) => must('member role', await call(urls[0], 'PATCH', `/members/${members[index].id}`, admin, { role_ids: [role] })));
  phase('role given', `PATCH /members, ${CHATS}`);
  const chats = await inBatches(CHATS, async (index) => {
    const others = Array.from({ length: PER_CHAT - 1 }, (_, offset) => `mrn:account:member:${members[(index + offset + 1) % CHATS].id}`);
    const created = must('chat', await call(urls[0], 'POST', '/chats', members[index].key, { type: 'group', name: `Chat ${index}`, participant_mrns: others }));
    return { id: created.data.id as string, sender: index };
  });
  phase('chats', `${CHATS}`);
  // What the set-up staged (a notification to the admin per member added, to nine participants per
  // chat) is delivered before the posting starts, so that it is not measured.
  await runtime.events.settled(600_000);
  phase('events settled');
  // The statistics the planner would have in steady state: PostgreSQL's autovacuum analyzes a table
  // within about a minute of bulk inserts (the embedded database's runtime does it on a timer);
  // without them the planner takes the just-filled tables (members, keys, roles) for empty ones.
  await runtime.db.sequelize.query('ANALYZE');
  phase('ANALYZE');

  if (PROCESSES > 1) {
    // With BENCH_BUILT=1 the second server runs the same build of core as this one.
    const built = process.env.BENCH_BUILT === '1' ? [`--import=${fileURLToPath(new URL('./lib/built-core.mjs', import.meta.url))}`] : [];
    second = spawn(process.execPath, ['--import=tsx', ...built, CLI, 'start', '--port', '0', '--app', '.', '--no-migrate'], {
      cwd: CHAT_DIR,
      env: { ...process.env, DATABASE_URL: scratch.url, WPK_BROKER: 'off', WPK_LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    urls.push(
      await new Promise<string>((resolve, reject) => {
        let output = '';
        const read = (chunk: Buffer) => {
          output += chunk.toString();
          const match = /listening on (\S+)/.exec(output);
          if (match) resolve(match[1]);
        };
        second!.stdout!.on('data', read);
        second!.stderr!.on('data', read);
        second!.once('exit', (code) => reject(new Error(`second server exited with ${code}: ${output}`)));
      }),
    );
  }

  if (second) phase('second server started');

  // The sockets: socket i follows chat i % CHATS as one of its members. Its round over the chats,
  // floor(i / CHATS), picks the server, so each chat has sockets on every server and a post reaches
  // half of its sockets through the other process (i % PROCESSES put a chat's sockets on one server
  // whenever CHATS is even, the very server its posts went to: nothing crossed).
  // They open fifty at a time (each judged once), then subscribe fifty at a time (each judged again,
  // a presence row and a presence NOTIFY that the channel's other subscribers hear).
  // The sockets live in a worker thread (bench/lib/live-sockets.mjs): their own event loop and V8
  // heap, so collecting their garbage (~100 MB at 10,000 sockets) does not pause the server they
  // measure, as it did when they shared its heap; they still share this process's CPU.
  const sentAt = new Map<number, number>();
  let origin = 0;
  let expected = 0;
  const audienceOf = new Map<string, number>();
  const specs: Array<{ url: string; key: string; channel: string }> = [];
  for (let index = 0; index < SOCKETS; index++) {
    const chat = chats[index % CHATS];
    const member = members[(chat.sender + Math.floor(index / CHATS)) % CHATS];
    specs.push({ url: urls[Math.floor(index / CHATS) % urls.length], key: member.key, channel: `chat/chats/${chat.id}` });
    audienceOf.set(chat.id, (audienceOf.get(chat.id) ?? 0) + 1);
  }
  const counter = new SharedArrayBuffer(4);
  const arrived = new Int32Array(counter);
  const sockets = new Worker(new URL('./lib/live-sockets.mjs', import.meta.url), { workerData: { version: VERSION, host, sockets: specs, counter } });
  clients = sockets;
  const replies: Array<{ type: string; error?: string; arrivals?: Array<[number, number]> }> = [];
  let waiting: (() => void) | null = null;
  sockets.on('message', (message) => {
    replies.push(message);
    waiting?.();
  });
  sockets.on('error', (error) => {
    replies.push({ type: 'error', error: error.message });
    waiting?.();
  });
  const reply = async (type: string) => {
    for (;;) {
      const index = replies.findIndex((message) => message.type === type || message.type === 'error');
      if (index >= 0) {
        const [message] = replies.splice(index, 1);
        if (message.type === 'error') throw new Error(`bench sockets: ${message.error}`);
        return message;
      }
      await new Promise<void>((resolve) => (waiting = resolve));
    }
  };
  await reply('opened');
  phase('sockets opened', `${SOCKETS}`);
  sockets.postMessage({ type: 'subscribe' });
  await reply('subscribed');
  phase('sockets subscribed', `${SOCKETS}`);

  // Posts at a steady rate, round-robin over the chats, through the servers in turn. On connections
  // of their own: the set-up's have idled past the server's keep-alive timeout, and one reused as
  // the server closed it was a post without an answer.
  agent.destroy();
  agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const total = RATE * SECONDS;
  const period = 1000 / RATE;

  // Warm-up: BENCH_WARMUP seconds (3; 0 for none) of the same posts at the same rate, delivered but
  // not measured (their bodies are not in sentAt). A server in service has compiled its hot paths;
  // one just started spends its first second doing so, and that second's late deliveries (up to
  // ~120 ms at 1,000 sockets) would be ~0.4 % of a 30-second run: the p99 would measure the start.
  if (WARMUP > 0) {
    const warmStart = now();
    const warming: Array<Promise<unknown>> = [];
    for (let seq = 0; seq < RATE * WARMUP; seq++) {
      const wait = warmStart + seq * period - now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      const chat = chats[seq % CHATS];
      warming.push(call(urls[seq % urls.length], 'POST', `/chats/${chat.id}/messages`, members[chat.sender].key, { body: `warm-up ${seq}` }).catch(() => null));
    }
    await Promise.all(warming);
    await new Promise((resolve) => setTimeout(resolve, 500));
    phase('warm-up (not measured)', `${RATE * WARMUP} posts`);
  }
  const setupSeconds = (now() - setupStarted) / 1000;
  origin = now();
  const posts: Array<Promise<unknown>> = [];
  const profiler = process.env.BENCH_PROFILE ? new inspector.Session() : null;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const cpuBefore = process.cpuUsage();
  // The CPU figures are shares of this window (posting, then waiting for the last deliveries), not of BENCH_SECONDS.
  const windowStart = now();
  const machineBefore = machineBusyCpuMs();
  const secondCpu = () => (second?.pid === undefined ? null : (cpuMsOf([second.pid]).get(second.pid) ?? null));
  const secondBefore = secondCpu();
  for (let seq = 0; seq < total; seq++) {
    const due = origin + seq * period;
    const wait = due - now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const chat = chats[seq % CHATS];
    const body = `bench ${seq}`;
    sentAt.set(seq, now());
    const audience = audienceOf.get(chat.id) ?? 0;
    // Only an accepted post is delivered; a dropped connection counts as status 0.
    posts.push(
      call(urls[seq % urls.length], 'POST', `/chats/${chat.id}/messages`, members[chat.sender].key, { body }).then(
        (answer) => {
          if (answer.status === 200) expected += audience;
          return answer;
        },
        (error: NodeJS.ErrnoException) => ({ status: 0, body: null, error: error.code ?? error.message }),
      ),
    );
  }
  const answers = (await Promise.all(posts)) as Array<{ status: number; error?: string }>;
  const accepted = answers.filter((answer) => answer.status === 200).length;
  const refusedBy = new Map<number, number>();
  for (const answer of answers) if (answer.status !== 200) refusedBy.set(answer.status, (refusedBy.get(answer.status) ?? 0) + 1);
  const errors = [...new Set(answers.flatMap((answer) => (answer.error ? [answer.error] : [])))];
  const refused = [...refusedBy].sort(([a], [b]) => a - b).map(([status, count]) => `${count} × ${status === 0 ? `no answer (${errors.join(', ')})` : status}`);
  const deadline = now() + 10_000;
  while (Atomics.load(arrived, 0) < expected && now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const cpu = process.cpuUsage(cpuBefore);
  const windowMs = Math.max(1, now() - windowStart);
  const machineAfter = machineBefore === null ? null : machineBusyCpuMs();
  const secondAfter = secondCpu();
  const secondMs = secondBefore === null || secondAfter === null ? 0 : secondAfter - secondBefore;
  const thisMs = (cpu.user + cpu.system) / 1000;
  const restMs = machineBefore === null || machineAfter === null ? null : machineAfter - machineBefore - thisMs - secondMs;
  const shareOfWindow = (cpuMs: number) => `${((cpuMs / windowMs) * 100).toFixed(0)} % of one core`;
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(profile));
    profiler.disconnect();
  }
  // Post → receive of every delivery of a measured post; BENCH_TIMELINE=<file> writes each as
  // [ms since the first post was sent, its latency in ms] (where the tail comes from).
  sockets.postMessage({ type: 'collect' });
  const arrivals = (await reply('arrivals')).arrivals!;
  const latencies: number[] = [];
  const timeline: Array<[number, number]> | null = process.env.BENCH_TIMELINE ? [] : null;
  for (const [seq, at] of arrivals) {
    const sent = sentAt.get(seq);
    if (sent === undefined) continue;
    latencies.push(at - sent);
    timeline?.push([Math.round(sent - origin), Math.round((at - sent) * 10) / 10]);
  }

  if (timeline) writeFileSync(process.env.BENCH_TIMELINE!, JSON.stringify(timeline));
  printTable(
    [
      ['sockets', String(SOCKETS)],
      ['set-up', `${setupSeconds.toFixed(1)} s (${phases.map(([name, seconds]) => `${name} ${seconds.toFixed(1)} s`).join(', ')})`],
      ['server processes', String(urls.length)],
      ['database', scratch.url ? 'PostgreSQL' : 'embedded'],
      ['posts', `${total} at ${RATE}/s over up to ${CONNECTIONS} connections`],
      ['posts accepted', `${accepted} (${((accepted / total) * 100).toFixed(1)} %)`],
      ['posts refused', refused.length ? `${total - accepted}: ${refused.join(', ')}` : '0'],
      ['deliveries', `${latencies.length} of ${expected} for the accepted posts (missed ${expected - latencies.length})`],
      ['post → receive p50', ms(percentile(latencies, 50))],
      ['post → receive p99', ms(percentile(latencies, 99))],
      ['post → receive max', ms(Math.max(...latencies))],
      ['measured window', `${(windowMs / 1000).toFixed(1)} s (posting, then the last deliveries): the CPU figures below are shares of it`],
      ['this process CPU', shareOfWindow(thisMs)],
      ...(second ? [['the second server process CPU', shareOfWindow(secondMs)]] : []),
      ...(restMs === null ? [] : [['the rest of the machine', `${shareOfWindow(restMs)} (${(restMs / Math.max(1, accepted)).toFixed(2)} ms per accepted post: PostgreSQL on a quiet machine)`]]),
      ['load average', loadAverage()],
    ].map(([figure, value]) => ({ figure, value })),
  );
  console.log(`p50_ms=${percentile(latencies, 50).toFixed(1)} p99_ms=${percentile(latencies, 99).toFixed(1)} accepted=${accepted} refused=${total - accepted} missed=${expected - latencies.length}`);
  // The sockets close before the servers stop: each socket's leaving (its presence row, an offline
  // signal) needs the database, about a millisecond each.
  const exited = new Promise((resolve) => sockets.once('exit', resolve));
  sockets.postMessage({ type: 'close' });
  await exited;
  await new Promise((resolve) => setTimeout(resolve, Math.max(500, SOCKETS)));
  agent.destroy();
} finally {
  second?.kill('SIGTERM');
  await clients?.terminate();
  await runtime.stop();
  await scratch.drop();
}
