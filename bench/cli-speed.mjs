#!/usr/bin/env node
// CLI speed with the BUILT, installed CLI (what a self-hoster runs): `wpk --version`, and `wpk dev`
// from spawn to the first 200 of GET /health on a fresh data directory and on an existing one.
// Three runs each; every figure is printed with os.loadavg() beside it, then one closing line
// against the targets (--version < 0.5 s, dev <= 3 s existing, <= 6 s fresh). Figures, not a test.
//
// Usage: node bench/cli-speed.mjs [project-dir]
// The project is one installed from a registry; make one with
//   node .ci/registry-roundtrip.mjs --keep bench/.tmp/project
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const RUNS = 3;
const project = path.resolve(process.argv[2] ?? 'bench/.tmp/project');
const bin = path.join(project, 'node_modules', '@wpk', 'cli', 'dist', 'bin.js');
if (!fs.existsSync(bin)) {
  console.error(`no built CLI at ${bin}: make the project with node .ci/registry-roundtrip.mjs --keep ${path.relative(process.cwd(), project)}`);
  process.exit(1);
}
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-cli-speed-'));
process.on('exit', () => fs.rmSync(scratch, { recursive: true, force: true }));
const env = { ...process.env, WPK_LOG_LEVEL: 'warn' };
delete env.DATABASE_URL;
delete env.NODE_OPTIONS;

const load = () => os.loadavg().map((value) => value.toFixed(2)).join(' ');
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function healthy(port) {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/health', timeout: 1000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('error', () => resolve(false));
    request.on('timeout', () => (request.destroy(), resolve(false)));
  });
}

async function version() {
  const since = performance.now();
  await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, '--version'], { cwd: project, env, stdio: 'ignore' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`wpk --version exited ${code}`))));
  });
  return (performance.now() - since) / 1000;
}

/** Seconds from spawning `wpk dev` to its first 200 on /health; the server is stopped after. */
async function devToFirst200(dataDir) {
  const port = await freePort();
  const since = performance.now();
  const child = spawn(process.execPath, [bin, 'dev', '--port', String(port), '--data-dir', dataDir], { cwd: project, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`wpk dev exited ${child.exitCode}: ${stderr}`);
      if (await healthy(port)) return (performance.now() - since) / 1000;
      if (performance.now() - since > 180_000) throw new Error('wpk dev: no 200 within 180 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await new Promise((resolve) => {
      child.on('exit', resolve);
      child.kill('SIGTERM');
    });
  }
}

console.log(`node ${process.version}, ${os.cpus().length} cores, CLI ${bin}`);
const figures = { version: [], fresh: [], existing: [] };
for (let run = 1; run <= RUNS; run++) {
  const seconds = await version();
  figures.version.push(seconds);
  console.log(`wpk --version          run ${run}: ${seconds.toFixed(2)} s   loadavg ${load()}`);
}
const existing = path.join(scratch, 'existing');
for (let run = 1; run <= RUNS; run++) {
  const seconds = await devToFirst200(run === 1 ? existing : path.join(scratch, `fresh-${run}`));
  figures.fresh.push(seconds);
  console.log(`wpk dev (fresh dir)    run ${run}: ${seconds.toFixed(2)} s   loadavg ${load()}`);
}
for (let run = 1; run <= RUNS; run++) {
  const seconds = await devToFirst200(existing);
  figures.existing.push(seconds);
  console.log(`wpk dev (existing dir) run ${run}: ${seconds.toFixed(2)} s   loadavg ${load()}`);
}
const verdict = (value, target) => `${value.toFixed(2)} s (target ${target} s: ${value <= target ? 'met' : 'MISSED'})`;
console.log(
  `cli-speed medians: --version ${verdict(median(figures.version), 0.5)}, dev existing ${verdict(median(figures.existing), 3)}, dev fresh ${verdict(median(figures.fresh), 6)}; loadavg ${load()}`,
);
console.log(`version_s=${median(figures.version).toFixed(2)} dev_existing_s=${median(figures.existing).toFixed(2)} dev_fresh_s=${median(figures.fresh).toFixed(2)}`);
