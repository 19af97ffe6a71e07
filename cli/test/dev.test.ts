import test from 'ava';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// The repository's TypeScript loader (tools/ts-hooks), by its file URL: a process started in another folder finds it too.
const TS_HOOKS = `--import=${import.meta.resolve('@wpk/ts-hooks')}`;

const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const tasks = fileURLToPath(new URL('../../plugins/tasks', import.meta.url));
const exec = promisify(execFile);

function scratch(t: { teardown(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-dev-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts `wpk dev` and resolves with its stdout and stderr once the box's bottom edge is printed. */
function startDev(args: string[]): Promise<{ child: ChildProcess; stdout: () => string; stderr: string }> {
  const env: Record<string, string | undefined> = { ...process.env, WPK_LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [TS_HOOKS, bin, 'dev', ...args], { env });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes('╰')) resolve({ child, stdout: () => stdout, stderr });
    });
    child.on('exit', (code) => reject(new Error(`wpk dev exited ${code}: ${stderr}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.on('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** GET with a Host header of its own (fetch ignores one), as curl -H 'Host: ...' sends it. */
function get(port: number, pathname: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: pathname, headers }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    }).on('error', reject);
  });
}

/** The box's rows as label -> value (the key's second line under an empty label). */
function rows(stdout: string): Record<string, string> {
  const box = stdout.slice(stdout.indexOf('╭'), stdout.indexOf('╯') + 1).split('\n');
  const found: Record<string, string> = {};
  for (const line of box.slice(3, -1)) {
    const match = /^│ {2}(.{14}) {2}(.*?)\s*│$/.exec(line);
    if (match) found[match[1].trim() || 'note'] = match[2];
  }
  return found;
}

test('wpk dev reports each step, ends with a box (URL, demo workspace, owner, API key), then the log; the key is the same after a restart', async (t) => {
  const dataDir = scratch(t);
  const port = await freePort();
  const args = ['--port', String(port), '--data-dir', dataDir, '--app', tasks];
  const first = await startDev(args);
  t.teardown(() => first.child.kill('SIGKILL'));
  // Not on a terminal: one line per finished step, the migrations in one line.
  t.deepEqual(
    first.stderr.trim().split('\n').map((line) => line.replace(/ \(\d+\.\d s\)$/, '')),
    [
      "loaded the server's code",
      'loaded 1 app',
      `created the embedded database in ${dataDir}`,
      'prepared the platform',
      first.stderr.match(/applied \d+ migrations in 2 schemas/)?.[0] ?? 'a migration summary line',
      'demo workspace ready: 1 app installed',
      'started the server',
    ],
  );
  const box = rows(first.stdout());
  t.like(box, { URL: `http://127.0.0.1:${port}`, 'Demo workspace': `http://demo.localhost:${port}`, Owner: 'owner@demo.test / demo-owner-password', note: `the owner's full-access key, kept in ${path.join(dataDir, 'dev-api-key')}`, Apps: 'tasks' });
  t.regex(box['API key'], /^slk_[A-Za-z0-9]{32}$/);
  t.is(first.stdout().split('\n')[0], `╭${'─'.repeat(first.stdout().split('\n')[0].length - 2)}╮`, 'the box comes first, before any log line');
  const file = path.join(dataDir, 'dev-api-key');
  t.is(fs.readFileSync(file, 'utf8'), `${box['API key']}\n`);
  t.is(fs.statSync(file).mode & 0o777, 0o600);
  const headers = { host: 'demo.localhost', 'x-api-version': '2026-11-01', authorization: `Bearer ${box['API key']}` };
  t.is((await get(port, '/boards', headers)).status, 200);
  await stop(first.child);

  const second = await startDev(args);
  t.teardown(() => second.child.kill('SIGKILL'));
  t.regex(second.stderr, /\nopened the embedded database in .*\nprepared the platform .*\nnothing to migrate: the database is up to date /);
  t.is(rows(second.stdout())['API key'], box['API key']);
  t.is((await get(port, '/boards', headers)).status, 200);
  await stop(second.child);
});

test('a busy port stops wpk dev and wpk start at once, before the database is opened', async (t) => {
  const dataDir = path.join(scratch(t), 'data');
  const busy = net.createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  t.teardown(() => busy.close());
  const { port } = busy.address() as net.AddressInfo;
  for (const command of ['dev', 'start']) {
    const failure = await exec(process.execPath, [TS_HOOKS, bin, command, '--port', String(port), '--data-dir', dataDir], { env: { ...process.env, DATABASE_URL: '' }, timeout: 60_000 }).then(
      () => null,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    t.deepEqual(failure && { code: failure.code, stdout: failure.stdout, stderr: failure.stderr }, { code: 1, stdout: '', stderr: `wpk: port ${port} on 127.0.0.1 is in use by another process: stop it, or choose another port with --port (or PORT)\n` }, command);
  }
  t.false(fs.existsSync(dataDir), 'nothing was opened or created');
});
