import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createScratchDatabase } from '@wpk/core';

// Every command of the README's Quick start, run as a newcomer would run it, block by block, in
// one bash per block. What differs from a newcomer's terminal, and only that: the port is a free
// one (`:3000` is rewritten), the project (data directory, config) is a scratch folder named by
// WPK_CONFIG, so the clone's own .wpk/ is not touched, and the PostgreSQL block's DATABASE_URL is
// a scratch database on the suite's server (CI's PostgreSQL run); without one that block runs on
// the embedded database, as every test of the suite runs on either.

const repo = fileURLToPath(new URL('../..', import.meta.url));
const readme = fs.readFileSync(path.join(repo, 'README.md'), 'utf8');
const quickStart = readme.slice(readme.indexOf('\n## Quick start'), readme.indexOf('\n## Self-host'));

/** The `sh` blocks of the Quick start, each as its commands (continuation lines folded, comments dropped). */
function blocks(): string[][] {
  return [...quickStart.matchAll(/```sh\n([^]*?)```/g)].map((match) =>
    match[1]
      .replace(/\\\n\s*/g, '')
      .split('\n')
      .map((line) => line.replace(/\s+#[^'"]*$/, '').trim())
      .filter(Boolean),
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Shell {
  port: number;
  project: string;
  env: Record<string, string | undefined>;
}

/** Runs `commands` in one bash (`set -e`), each preceded by a marker; resolves with each command's output, in order. */
function runBlock(shell: Shell, commands: string[], cwd: string, replace: (command: string) => string = (command) => command): Promise<string[]> {
  // A marker on a line of its own before each command (curl prints no final newline).
  const script = ['set -euo pipefail', ...commands.flatMap((command, index) => [`printf '\\n::${index}\\n'`, replace(command.replaceAll(':3000', `:${shell.port}`))])].join('\n');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env: shell.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => {
      const outputs = stdout.split(/^::\d+\n/m).slice(1).map((output) => output.trim());
      if (code === 0) resolve(outputs);
      else reject(new Error(`the block failed (exit ${code}) at command ${outputs.length - 1}: ${commands[outputs.length - 1]}\n${stdout}\n${stderr}`));
    });
  });
}

/** Starts a long-running command of the README (`pnpm dev`, `pnpm wpk start`) in its own process group; resolves once `ready` matches its stdout. */
function startServer(shell: Shell, command: string, ready: RegExp): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn('bash', ['-c', `exec ${command}`], { cwd: repo, env: shell.env, detached: true });
  let output = '';
  let errors = '';
  child.stderr!.on('data', (chunk) => (errors += chunk));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (ready.test(output)) resolve({ child, output: () => output });
    });
    child.on('exit', (code) => reject(new Error(`${command} exited ${code}:\n${output}\n${errors}`)));
  });
}

/** Kills what is left of a server's process group (a teardown: it may be gone already). */
function kill(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // the group has exited
  }
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.on('exit', () => resolve());
    process.kill(-child.pid!, 'SIGTERM');
  });
}

test('every command of the README quick start works as written', async (t) => {
  t.timeout(900_000);
  const [setup, tryIt, identity, postgres, useIt, ...rest] = blocks();
  t.is(rest.length, 0, 'the Quick start has five sh blocks: setup, try it, identity, PostgreSQL, use it');
  t.deepEqual(setup, ['npx --yes pnpm@12.21.0 install', 'npx --yes pnpm@12.21.0 dev']);

  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-readme-'));
  t.teardown(() => fs.rmSync(project, { recursive: true, force: true }));
  // The clone's own config, its app directories made absolute.
  const config = JSON.parse(fs.readFileSync(path.join(repo, 'wpk.config.json'), 'utf8')) as { apps: Array<{ dir: string }> };
  fs.writeFileSync(path.join(project, 'wpk.config.json'), JSON.stringify({ apps: config.apps.map((entry) => ({ ...entry, dir: path.join(repo, entry.dir) })) }));
  const port = await freePort();
  const env: Record<string, string | undefined> = { ...process.env, PORT: String(port), WPK_CONFIG: path.join(project, 'wpk.config.json'), WPK_LOG_LEVEL: 'warn' };
  // A newcomer's terminal: no CI (pnpm would insist on a frozen lockfile), no database of the suite's.
  for (const name of ['CI', 'DATABASE_URL', 'TEST_DATABASE_URL']) delete env[name];
  const shell: Shell = { port, project, env };

  const [installed] = await runBlock(shell, [setup[0]], repo);
  t.regex(installed, /Already up to date|Done in/);
  const dev = await startServer(shell, setup[1], /╰/);
  t.teardown(() => kill(dev.child));
  t.regex(dev.output(), new RegExp(`URL +http://127\\.0\\.0\\.1:${port} `));
  t.regex(dev.output(), /Apps +25 installed: tasks, companies, contacts and 22 more/);
  const key = /API key +(slk_\w+)/.exec(dev.output())![1];
  t.is(fs.readFileSync(path.join(project, '.wpk', 'dev', 'dev-api-key'), 'utf8'), `${key}\n`);

  const tried = await runBlock(shell, tryIt, project);
  t.is(tried[1], '{"status":"ok","database":"ok"}');
  t.like(JSON.parse(tried[2]), { data: { title: 'Ship the kit' } });
  t.deepEqual(JSON.parse(tried[3]).data.map((board: { title: string }) => board.title), ['Ship the kit']);

  const signed = await runBlock(shell, identity, project);
  t.like(JSON.parse(signed[1]), { data: { platform_role: 'owner' } });
  t.like(JSON.parse(signed[2]), { data: { member: { email: 'owner@demo.test' } } });
  t.like(JSON.parse(signed[3]), { data: { email: 'ada@example.com', subdomain: 'acme' } });
  t.like(JSON.parse(signed[5]), { data: { platform_role: 'owner', workspace: { subdomain: 'acme' } } });
  t.like(JSON.parse(signed[6]), { data: { platform_role: 'owner' } });
  t.like(JSON.parse(signed[7]), { data: { member: { email: 'ada@example.com' } } });
  await stop(dev.child);

  // Your own PostgreSQL: a scratch database on the suite's server (CI's PostgreSQL run); without
  // one, the same commands on the embedded database (the scratch project's .wpk/data), as the rest
  // of the suite runs on either.
  const scratch = await createScratchDatabase();
  t.teardown(() => scratch.drop());
  const databaseUrl = scratch.url;
  const [exported, ...commands] = postgres;
  t.is(exported, 'export DATABASE_URL=postgres://user@127.0.0.1:5432/wpk');
  const serve = commands.pop()!;
  t.is(serve, 'npx --yes pnpm@12.21.0 wpk start');
  const ran = await runBlock(shell, [exported, ...commands], repo, (command) =>
    databaseUrl ? command.replace('postgres://user@127.0.0.1:5432/wpk', databaseUrl) : command.replace(exported, 'unset DATABASE_URL'),
  );
  t.regex(ran[1], /applied \d+ migrations in 26 schemas/);
  t.regex(ran[2], /created workspace acme \([0-9a-f-]{36}\) at http:\/\/acme\.localhost:\d+\nowner: ada@example\.com \(member [0-9a-f-]{36}\); signs in there/);
  const ownerKey = /owner's full-access API key \(shown once\): (slk_\w+)/.exec(ran[2])![1];
  const start = await startServer({ ...shell, env: { ...env, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) } }, serve, /listening on \S+\n/);
  t.teardown(() => kill(start.child));
  await new Promise((resolve) => setTimeout(resolve, 500)); // the hint, if any, follows the address at once
  t.false(start.output().includes('no workspace yet'), 'the workspace just made is there');

  t.is(useIt[0], 'KEY=slk_...');
  const used = await runBlock(shell, [`KEY=${ownerKey}`, ...useIt.slice(1)], project);
  t.like(JSON.parse(used[1]), { data: { slug: 'tasks', status: 'installed', access_policy: 'everyone' } }, `${used[1]}\n${start.output()}`);
  t.like(JSON.parse(used[2]), { data: { title: 'Ship the kit' } }, used[2]);
  await stop(start.child);
});
