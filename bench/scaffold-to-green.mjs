#!/usr/bin/env node
// Scaffold to green: `wpk new app` in a scratch directory outside the repository, its
// dependencies linked from this clone (what `npm install` gives it, without the download), then
// its tests (`ava`), as the author runs them. Prints each phase and the total with os.loadavg()
// beside it. Figures, not a test (the goal is under 30 s on an idle machine).
//
// Usage: node bench/scaffold-to-green.mjs   (from the repository root, after pnpm install)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const tsx = pathToFileURL(path.join(fs.realpathSync(path.join(repo, 'node_modules', 'tsx')), 'dist', 'esm', 'index.mjs')).href;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-scaffold-'));
const app = path.join(root, 'hello');
const load = () => os.loadavg().map((value) => value.toFixed(1)).join(' ');

function timed(label, command, args, cwd) {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, WPK_LOG_LEVEL: 'silent', DATABASE_URL: '', TEST_DATABASE_URL: '' } });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) {
    console.error(`${label} failed:\n${result.stdout}${result.stderr}`);
    process.exit(1);
  }
  console.log(`${label}: ${seconds.toFixed(1)} s (load ${load()})`);
  return { seconds, stdout: result.stdout };
}

try {
  const scaffold = timed('wpk new app', process.execPath, [`--import=${tsx}`, path.join(repo, 'cli', 'src', 'bin.ts'), 'new', 'app', 'hello', '--publisher', 'acme', '--dir', app], root);
  const modules = path.join(app, 'node_modules');
  fs.mkdirSync(path.join(modules, '@wpk'), { recursive: true });
  for (const [name, dir] of [['sdk', 'packages/sdk'], ['testing', 'packages/testing'], ['cli', 'cli']]) fs.symlinkSync(path.join(repo, dir), path.join(modules, '@wpk', name));
  for (const name of ['ava', 'tsx', 'typescript']) fs.symlinkSync(fs.realpathSync(path.join(repo, 'node_modules', name)), path.join(modules, name));
  const tests = timed('its tests (ava)', process.execPath, [path.join(modules, 'ava', 'entrypoints', 'cli.mjs')], app);
  const passed = /(\d+) tests passed/.exec(tests.stdout)?.[1];
  console.log(`scaffold to green: ${(scaffold.seconds + tests.seconds).toFixed(1)} s, ${passed} tests passed (load ${load()}, ${os.cpus().length} cores)`);
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
