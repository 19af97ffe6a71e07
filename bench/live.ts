/**
 * Live updates under load: BENCH_SOCKETS websockets (default 1,000) on one node, each subscribed
 * to one of BENCH_CHATS group chats (default 100, ten members each), while messages are posted
 * over HTTP at BENCH_RATE per second (default 100, round-robin over the chats) for BENCH_SECONDS
 * (default 30). Measures post → receive (from the start of the POST to the socket's frame) over
 * every delivery of an accepted post: p50, p99, max, and deliveries missed. Posts the server
 * refuses (503 when its admission gate is full, docs/self-hosting.md "Overload") are counted by status
 * and expect no delivery. The posts go over up to BENCH_CONNECTIONS connections (default 256, above
 * the gate's 64 in flight), so that the server, not this bench's HTTP agent, decides what waits. With BENCH_PROCESSES=2 (PostgreSQL only) a
 * second server process (`wpk start`) serves half of the sockets, so half of the deliveries cross
 * processes through LISTEN/NOTIFY.
 *
 *   npx tsx bench/live.ts                                   # embedded database, one process
 *   DATABASE_URL=postgres://... BENCH_PROCESSES=2 npx tsx bench/live.ts
 *   BENCH_SOCKETS=100 BENCH_SECONDS=10 npx tsx bench/live.ts   # a smoke run
 *
 * BENCH_PROFILE=<file> writes the CPU profile of this process (the server and the sockets) over the
 * posting alone (a `.cpuprofile`); BENCH_TIMELINE=<file> every delivery as [ms since the first
 * post, latency ms], to see when the tail happens. Besides this process's CPU it prints the rest of
 * the machine's over the posting (/proc/stat): on a quiet machine, PostgreSQL's. The set-up
 * (members, chats, sockets) runs eight at a time and prints its duration.
 *
 * Members are admins (they pass layers 4-5 without role reads); the sockets run in this process,
 * beside the server they measure. Targets (issue 21): p99 ≤ 100 ms on one node, ≤ 150 ms across two.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import inspector from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Runtime, createScratchDatabase } from '@wpk/core';
import WebSocket from 'ws';
import { loadAverage, machineBusyCpuMs, printTable } from './lib/load.js';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
const CHATS = Number(process.env.BENCH_CHATS ?? 100);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 1);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 256);
const PER_CHAT = 10;
const SETUP_CONCURRENCY = 8;
const VERSION = '2026-11-01';
const CHAT_DIR = fileURLToPath(new URL('../plugins/chat', import.meta.url));
const CLI = fileURLToPath(new URL('../cli/src/bin.ts', import.meta.url));

const now = () => performance.timeOrigin + performance.now();
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

const scratch = await createScratchDatabase();
if (PROCESSES > 1 && !scratch.url) throw new Error('BENCH_PROCESSES=2 needs PostgreSQL (DATABASE_URL): the embedded database serves one process');
const runtime = await Runtime.create({ databaseUrl: scratch.url, inMemory: scratch.url === undefined, logLevel: 'warn', port: 0, configFile: false, apps: [{ dir: CHAT_DIR, firstParty: true }], scryptLogN: 10 } as never);
let second: ChildProcess | null = null;
try {
  await runtime.migrate();
  const urls = [await runtime.start()];
  const workspace = await runtime.workspaces.create({ subdomain: 'bench', name: 'Bench' });
  const host = `bench.${runtime.config.baseDomain}`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

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

  // Members (admins), the app installed for everyone, the chats.
  // Set-up runs SETUP_CONCURRENCY at a time (sequential, 1,000 chats took over 7 minutes).
  const inBatches = async <T>(count: number, make: (index: number) => Promise<T>): Promise<T[]> => {
    const made: T[] = [];
    for (let start = 0; start < count; start += SETUP_CONCURRENCY)
      made.push(...(await Promise.all(Array.from({ length: Math.min(SETUP_CONCURRENCY, count - start) }, (_, offset) => make(start + offset)))));
    return made;
  };
  const setupStarted = now();
  const members = await inBatches(CHATS, async (index) => {
    const { memberId } = await runtime.identity.addMember({ workspaceId: workspace.id, email: `m${index}@bench.test`, password: 'bench-password-1', platformRole: 'admin', name: `Member ${index}` });
    const { secret } = await runtime.apiKeys.issueFullAccessKey(workspace.id, memberId, `bench ${index}`);
    return { id: memberId, key: secret };
  });
  const membersSeconds = (now() - setupStarted) / 1000;
  const admin = members[0].key;
  const installed = await call(urls[0], 'POST', '/applications/chat/installations', admin, {});
  if (installed.status !== 200) throw new Error(`install: ${installed.status} ${JSON.stringify(installed.body)}`);
  await call(urls[0], 'PUT', '/applications/chat/access', admin, { access_policy: 'everyone', allowed_roles: [], redlist: [] });
  const chats = await inBatches(CHATS, async (index) => {
    const others = Array.from({ length: PER_CHAT - 1 }, (_, offset) => `mrn:account:member:${members[(index + offset + 1) % CHATS].id}`);
    const created = await call(urls[0], 'POST', '/chats', members[index].key, { type: 'group', name: `Chat ${index}`, participant_mrns: others });
    if (created.status !== 200) throw new Error(`chat: ${created.status} ${JSON.stringify(created.body)}`);
    return { id: created.body.data.id as string, sender: index };
  });

  const chatsSeconds = (now() - setupStarted) / 1000 - membersSeconds;
  // The statistics the planner would have in steady state: PostgreSQL's autovacuum analyzes a table
  // within about a minute of bulk inserts (the embedded database's runtime does it on a timer), and
  // without them the credential look-up scans every key of the workspace instead of using its index.
  await runtime.db.sequelize.query('ANALYZE');

  if (PROCESSES > 1) {
    second = spawn(process.execPath, ['--import=tsx', CLI, 'start', '--port', '0', '--app', '.', '--no-migrate'], {
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

  // The sockets: socket i follows chat i % CHATS as one of its members; i % PROCESSES picks the server.
  const sentAt = new Map<string, number>();
  // BENCH_TIMELINE=<file>: every delivery as [ms since the first post was sent, its latency in ms] (where the tail comes from).
  const timeline: Array<[number, number]> | null = process.env.BENCH_TIMELINE ? [] : null;
  let origin = 0;
  const latencies: number[] = [];
  let expected = 0;
  const audienceOf = new Map<string, number>();
  const sockets: WebSocket[] = [];
  const opening: Array<Promise<void>> = [];
  for (let index = 0; index < SOCKETS; index++) {
    const chat = chats[index % CHATS];
    const member = members[(chat.sender + Math.floor(index / CHATS)) % CHATS];
    const url = new URL(urls[index % urls.length]);
    const socket = new WebSocket(`ws://${url.host}/live?api_version=${VERSION}`, { headers: { host, authorization: `Bearer ${member.key}` } });
    sockets.push(socket);
    audienceOf.set(chat.id, (audienceOf.get(chat.id) ?? 0) + 1);
    opening.push(
      new Promise<void>((resolve, reject) => {
        socket.on('message', (raw) => {
          const message = JSON.parse(raw.toString()) as { type: string; data?: { body?: string } };
          if (message.type === 'welcome') socket.send(JSON.stringify({ type: 'subscribe', channel: `chat/chats/${chat.id}` }));
          else if (message.type === 'subscribed') resolve();
          else if (message.type === 'event' && message.data?.body) {
            const at = now();
            const sent = sentAt.get(message.data.body);
            if (sent !== undefined) {
              latencies.push(at - sent);
              timeline?.push([Math.round(sent - origin), Math.round((at - sent) * 10) / 10]);
            }
          } else if (message.type === 'error') reject(new Error(JSON.stringify(message)));
        });
        socket.on('error', reject);
      }),
    );
    if (index % 50 === 49) await Promise.all(opening.slice(-50));
  }
  await Promise.all(opening);
  const setupSeconds = (now() - setupStarted) / 1000;

  // Posts at a steady rate, round-robin over the chats, through the servers in turn.
  const total = RATE * SECONDS;
  const period = 1000 / RATE;
  origin = now();
  const posts: Array<Promise<unknown>> = [];
  const profiler = process.env.BENCH_PROFILE ? new inspector.Session() : null;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const cpuBefore = process.cpuUsage();
  const machineBefore = machineBusyCpuMs();
  for (let seq = 0; seq < total; seq++) {
    const due = origin + seq * period;
    const wait = due - now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const chat = chats[seq % CHATS];
    const body = `bench ${seq}`;
    sentAt.set(body, now());
    const audience = audienceOf.get(chat.id) ?? 0;
    // Only an accepted post is delivered; a dropped connection counts as status 0.
    posts.push(
      call(urls[seq % urls.length], 'POST', `/chats/${chat.id}/messages`, members[chat.sender].key, { body }).then(
        (answer) => {
          if (answer.status === 200) expected += audience;
          return answer;
        },
        () => ({ status: 0, body: null }),
      ),
    );
  }
  const answers = (await Promise.all(posts)) as Array<{ status: number }>;
  const accepted = answers.filter((answer) => answer.status === 200).length;
  const refusedBy = new Map<number, number>();
  for (const answer of answers) if (answer.status !== 200) refusedBy.set(answer.status, (refusedBy.get(answer.status) ?? 0) + 1);
  const refused = [...refusedBy].sort(([a], [b]) => a - b).map(([status, count]) => `${count} × ${status === 0 ? 'no answer' : status}`);
  const deadline = now() + 10_000;
  while (latencies.length < expected && now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const cpu = process.cpuUsage(cpuBefore);
  const machineAfter = machineBefore === null ? null : machineBusyCpuMs();
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(profile));
    profiler.disconnect();
  }

  if (timeline) writeFileSync(process.env.BENCH_TIMELINE!, JSON.stringify(timeline));
  printTable(
    [
      ['sockets', String(SOCKETS)],
      ['set-up (members, chats, sockets)', `${setupSeconds.toFixed(1)} s (members ${membersSeconds.toFixed(1)} s, chats ${chatsSeconds.toFixed(1)} s)`],
      ['server processes', String(urls.length)],
      ['database', scratch.url ? 'PostgreSQL' : 'embedded'],
      ['posts', `${total} at ${RATE}/s over up to ${CONNECTIONS} connections`],
      ['posts accepted', `${accepted} (${((accepted / total) * 100).toFixed(1)} %)`],
      ['posts refused', refused.length ? `${total - accepted}: ${refused.join(', ')}` : '0'],
      ['deliveries', `${latencies.length} of ${expected} for the accepted posts (missed ${expected - latencies.length})`],
      ['post → receive p50', ms(percentile(latencies, 50))],
      ['post → receive p99', ms(percentile(latencies, 99))],
      ['post → receive max', ms(Math.max(...latencies))],
      ['this process CPU', `${(((cpu.user + cpu.system) / 1000 / (SECONDS * 1000)) * 100).toFixed(0)} % of one core`],
      ...(machineAfter === null || machineBefore === null
        ? []
        : [['the rest of the machine', `${(((machineAfter - machineBefore - (cpu.user + cpu.system) / 1000) / (SECONDS * 1000)) * 100).toFixed(0)} % of one core (${((machineAfter - machineBefore - (cpu.user + cpu.system) / 1000) / Math.max(1, accepted)).toFixed(2)} ms per accepted post: PostgreSQL on a quiet machine)`]]),
      ['load average', loadAverage()],
    ].map(([figure, value]) => ({ figure, value })),
  );
  console.log(`p50_ms=${percentile(latencies, 50).toFixed(1)} p99_ms=${percentile(latencies, 99).toFixed(1)} accepted=${accepted} refused=${total - accepted} missed=${expected - latencies.length}`);
  for (const socket of sockets) socket.terminate();
  agent.destroy();
} finally {
  second?.kill('SIGTERM');
  await runtime.stop();
  await scratch.drop();
}
