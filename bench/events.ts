/**
 * The event bus under load, on one node: the server's in-process broker delivering signed
 * webhooks to a loopback sink (node:http, answers 200 at once), fan-out 1.
 * The sink runs in a child process.
 *   throughput  N events published as fast as possible; deliveries/s from the first publish to
 *               the last receipt (outbox → validation → queue → signed POST → settled);
 *   latency     events published at a steady rate (default 200/s); publish → receipt p50/p99;
 *   delayed     events scheduled 1-5 s ahead; receipt − deliver_at p50/p99/max, and how many
 *               arrived early (must be 0).
 *
 *   npx tsx bench/events.ts                          # embedded database
 *   DATABASE_URL=postgres://... npx tsx bench/events.ts
 * Options (env): BENCH_EVENTS (throughput, default 5000), BENCH_RATE (default 200),
 * BENCH_SECONDS (latency run, default 10), BENCH_DELAYED (default 500); BENCH_PROFILE=<file> writes
 * the CPU profile of the throughput run alone (a `.cpuprofile`: divide a function's time by BENCH_EVENTS).
 */
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import inspector from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Runtime, createScratchDatabase } from '@wpk/core';
import { loadAverage, printTable } from './lib/load.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 5000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const DELAYED = Number(process.env.BENCH_DELAYED ?? 500);

const now = () => performance.timeOrigin + performance.now();

// The sink runs in a child process (so its CPU is not the broker's): it answers 200 at once and
// reports the sequence number of each event it receives, with the arrival time.
if (process.argv[2] === 'sink') {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { payload: { seq: number } };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
      process.send!([body.payload.seq, at]);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
  await new Promise(() => {});
}

const arrivals = new Map<number, number>();
let waiting: { count: number; resolve: () => void } | null = null;
const sinkProcess = fork(fileURLToPath(import.meta.url), ['sink'], { execArgv: ['--import', 'tsx'] });
const sinkPort = await new Promise<number>((resolve) => {
  sinkProcess.on('message', (message: unknown) => {
    if (Array.isArray(message)) {
      const [seq, at] = message as [number, number];
      if (!arrivals.has(seq)) arrivals.set(seq, at);
      if (waiting && arrivals.size >= waiting.count) waiting.resolve();
    } else resolve((message as { port: number }).port);
  });
});
const sinkUrl = `http://127.0.0.1:${sinkPort}`;

function arrived(count: number, timeoutMs: number): Promise<void> {
  if (arrivals.size >= count) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`only ${arrivals.size} of ${count} deliveries after ${timeoutMs} ms`)), timeoutMs);
    waiting = {
      count,
      resolve: () => {
        clearTimeout(timer);
        waiting = null;
        resolve();
      },
    };
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

const scratch = await createScratchDatabase();
const runtime = await Runtime.create({ databaseUrl: scratch.url, inMemory: scratch.url === undefined, logLevel: 'warn', port: 0, configFile: false, events: { brokerSecret: 'bench-broker-secret-0123456789abcdef' } });
await runtime.migrate();
const workspace = await runtime.workspaces.create({ subdomain: 'bench', name: 'Bench' });
runtime.events.registerParticipant({
  slug: 'bench',
  firstParty: true,
  address: null,
  emits: [{ action: 'core.bench.item.created', description: 'An item was created.', schema: { type: 'object', properties: { seq: { type: 'integer' }, label: { type: 'string' } }, required: ['seq'] } }],
});
runtime.events.registerParticipant({ slug: 'sink', firstParty: true, address: sinkUrl, subscriptions: [{ action: 'core.bench.item.created', handler: '/events/core-bench-item-created' }] });
await runtime.events.startBroker();

const event = (seq: number, deliverAt?: Date) => ({ emitter: 'bench', action: 'core.bench.item.created', payload: { seq, label: `item ${seq}` }, metadata: {}, deliverAt });

// Warm-up: connections, caches, JIT.
await runtime.events.publish(workspace.id, Array.from({ length: 200 }, (_, index) => event(-1 - index)));
await arrived(200, 60_000);
await runtime.events.settled(60_000);
arrivals.clear();

// 1. Throughput.
const profiler = process.env.BENCH_PROFILE ? new inspector.Session() : null;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
const cpuBefore = process.cpuUsage();
const started = now();
for (let start = 0; start < EVENTS; start += 500) {
  await runtime.events.publish(workspace.id, Array.from({ length: Math.min(500, EVENTS - start) }, (_, index) => event(start + index)));
}
const published = now();
await arrived(EVENTS, 300_000);
const throughputSeconds = (Math.max(...arrivals.values()) - started) / 1000;
const throughput = EVENTS / throughputSeconds;
const cpu = process.cpuUsage(cpuBefore);
const cpuPerDelivery = (cpu.user + cpu.system) / 1000 / EVENTS;
if (profiler) {
  const { profile } = await profiler.post('Profiler.stop');
  writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(profile));
  profiler.disconnect();
}
await runtime.events.settled(60_000);

// 2. Latency at a steady rate: one event every 1/RATE s, each published on its own.
arrivals.clear();
const sentAt = new Map<number, number>();
const total = RATE * SECONDS;
const period = 1000 / RATE;
const origin = now();
for (let seq = 0; seq < total; seq++) {
  const due = origin + seq * period;
  const wait = due - now();
  if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
  sentAt.set(seq, now());
  void runtime.events.publish(workspace.id, [event(seq)]);
}
await arrived(total, 120_000);
const latencies = [...sentAt.entries()].map(([seq, at]) => arrivals.get(seq)! - at);
const achievedRate = total / ((Math.max(...sentAt.values()) - origin) / 1000);
await runtime.events.settled(60_000);

// 3. Delayed deliveries: never early, and how late.
arrivals.clear();
const dueAt = new Map<number, number>();
const base = Date.now();
for (let start = 0; start < DELAYED; start += 100) {
  const batch = Array.from({ length: Math.min(100, DELAYED - start) }, (_, index) => {
    const seq = start + index;
    const deliverAt = new Date(base + 1000 + Math.floor(Math.random() * 4000));
    dueAt.set(seq, deliverAt.getTime());
    return event(seq, deliverAt);
  });
  await runtime.events.publish(workspace.id, batch);
}
await arrived(DELAYED, 60_000);
const lateness = [...dueAt.entries()].map(([seq, due]) => arrivals.get(seq)! - due);
const early = lateness.filter((value) => value < 0).length;

console.log(`event bus on ${runtime.db.isEmbedded ? 'the embedded database (PGlite)' : 'PostgreSQL'}, in-process broker, fan-out 1, loopback sink`);
printTable([
  { measure: 'throughput', events: EVENTS, result: `${throughput.toFixed(0)} deliveries/s`, detail: `${throughputSeconds.toFixed(2)} s end to end; publishing took ${((published - started) / 1000).toFixed(2)} s; platform process CPU ${cpuPerDelivery.toFixed(2)} ms per delivery` },
  { measure: `latency @ ${RATE}/s`, events: total, result: `p99 ${ms(percentile(latencies, 99))}`, detail: `p50 ${ms(percentile(latencies, 50))}, max ${ms(Math.max(...latencies))}, achieved ${achievedRate.toFixed(0)}/s` },
  { measure: 'delayed lateness', events: DELAYED, result: `p99 ${ms(percentile(lateness, 99))}`, detail: `p50 ${ms(percentile(lateness, 50))}, max ${ms(Math.max(...lateness))}, early ${early}` },
]);

console.log(`load average ${loadAverage()}; goals: PostgreSQL >= 1500 deliveries/s and p99 <= 100 ms at 200/s; embedded >= 600/s and p99 <= 250 ms`);

await runtime.stop();
await scratch.drop();
sinkProcess.kill();
console.log(`deliveries_per_s=${throughput.toFixed(0)} p99_ms=${percentile(latencies, 99).toFixed(0)}`);
