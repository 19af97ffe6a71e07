import test from 'ava';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// The repository's TypeScript loader (tools/ts-hooks), by its file URL: a process started in another folder finds it too.
const TS_HOOKS = `--import=${import.meta.resolve('@wpk/ts-hooks')}`;

const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const exec = promisify(execFile);

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `wpk` as a user would, in its own process. */
async function wpk(args: string[], env: Record<string, string | undefined> = {}): Promise<Result> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [TS_HOOKS, bin, ...args], { env: { ...process.env, WPK_LOG_LEVEL: 'silent', ...env }, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-cli-'));

test('--version prints the version', async (t) => {
  const result = await wpk(['--version']);
  t.is(result.code, 0);
  t.is(result.stdout.trim(), '0.1.0');
});

test('every command has --help', async (t) => {
  for (const command of [[], ['start'], ['dev'], ['migrate'], ['workspace'], ['workspace', 'create']]) {
    const result = await wpk([...command, '--help']);
    t.is(result.code, 0, command.join(' '));
    t.regex(result.stdout, /^Usage: wpk/, command.join(' '));
  }
});

test('workspace create prints the workspace, its owner and their key; --json the same as JSON; a second one on the same subdomain fails in one line', async (t) => {
  const dataDir = tempDir();
  const env = { DATABASE_URL: undefined };
  const owner = ['--owner-email', 'ada@acme.test', '--owner-password', 'ada-owner-password'];
  const created = await wpk(['workspace', 'create', '--subdomain', 'acme', '--name', 'Acme', ...owner, '--data-dir', dataDir], env);
  t.is(created.code, 0, created.stderr);
  const lines = created.stdout.trim().split('\n');
  t.regex(lines[0], /^created workspace acme \([0-9a-f-]{36}\) at http:\/\/acme\.localhost:3000$/);
  t.regex(lines[1], /^owner: ada@acme\.test \(member [0-9a-f-]{36}\); signs in there with POST \/sessions \{"email", "password"\}$/);
  t.regex(lines[2], /^owner's full-access API key \(shown once\): slk_[0-9A-Za-z]{32}$/);
  t.is(lines.length, 3);

  const json = await wpk(['workspace', 'create', '--subdomain', 'beta', '--name', 'Beta', ...owner, '--json', '--data-dir', dataDir], env);
  t.is(json.code, 0, json.stderr);
  const body = JSON.parse(json.stdout);
  t.like(body, { workspace: { subdomain: 'beta', name: 'Beta' }, owner: { email: 'ada@acme.test' } });
  t.regex(body.workspace.id, /^[0-9a-f-]{36}$/);

  const again = await wpk(['workspace', 'create', '--subdomain', 'acme', '--name', 'Acme', ...owner, '--data-dir', dataDir], env);
  t.is(again.code, 1);
  t.is(again.stderr.trim(), 'wpk: subdomain "acme" is already taken');
  const ownerless = await wpk(['workspace', 'create', '--subdomain', 'gamma', '--name', 'Gamma', '--data-dir', dataDir], env);
  t.deepEqual([ownerless.code, ownerless.stderr], [1, 'wpk: --owner-email and --owner-password are required: a workspace is created with its owner, who signs in with them\n']);
});

test('an error shows its stack only with --verbose', async (t) => {
  const dataDir = tempDir();
  const owner = ['--owner-email', 'ada@acme.test', '--owner-password', 'ada-owner-password'];
  const quiet = await wpk(['workspace', 'create', '--subdomain', '-bad-', '--name', 'X', ...owner, '--data-dir', dataDir], { DATABASE_URL: undefined });
  t.is(quiet.code, 1);
  t.is(quiet.stderr.trim().split('\n').length, 1);
  const verbose = await wpk(['--verbose', 'workspace', 'create', '--subdomain', '-bad-', '--name', 'X', ...owner, '--data-dir', dataDir], { DATABASE_URL: undefined });
  t.is(verbose.code, 1);
  t.regex(verbose.stderr, /\n\s+at /);
});

test('start logs at info by default: one line per request, naming the route template', async (t) => {
  const dataDir = tempDir();
  const env: Record<string, string | undefined> = { ...process.env, DATABASE_URL: '' };
  delete env.WPK_LOG_LEVEL;
  delete env.LOG_LEVEL;
  const server = spawn(process.execPath, [TS_HOOKS, bin, 'start', '--port', '0', '--data-dir', dataDir], { env });
  t.teardown(() => server.kill('SIGKILL'));
  let output = '';
  server.stdout.on('data', (chunk) => (output += chunk));
  // Waits for a line on stdout; gives up (and fails) once the server exits or `capMs` pass.
  const until = (pattern: RegExp, capMs: number) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const deadline = Date.now() + capMs;
      const check = () => {
        const match = pattern.exec(output);
        if (match) resolve(match);
        else if (server.exitCode !== null || Date.now() > deadline) reject(new Error(`no ${pattern} in the output: ${output}`));
        else setTimeout(check, 25);
      };
      check();
    });
  const url = (await until(/listening on (http:\/\/\S+)/, Infinity))[1]; // start-up: bounded by ava's timeout, like the next test
  t.is((await fetch(`${url}/health`)).status, 200);
  const line = JSON.parse((await until(/^\{.*"msg":"request".*\}$/m, 10_000))[0]);
  t.like(line, { level: 30, method: 'GET', route: '/health', status: 200 });
});

test('start prints its address, how to create the first workspace on an empty database, and serves /health; a second process on the same data directory gets a clear error', async (t) => {
  const dataDir = tempDir();
  const server = spawn(process.execPath, [TS_HOOKS, bin, 'start', '--port', '0', '--data-dir', dataDir], { env: { ...process.env, WPK_LOG_LEVEL: 'silent', DATABASE_URL: '' } });
  t.teardown(() => server.kill('SIGKILL'));
  let output = '';
  // Resolves once the hint for an empty database (its last line) is printed.
  const url = await new Promise<string>((resolve, reject) => {
    server.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)\n[^]*docs\/identity\.md\)\.\n/.exec(output);
      if (match) resolve(match[1]);
    });
    server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  t.regex(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  t.deepEqual(output.split('\n'), [
    `listening on ${url}`,
    'no workspace yet. Create the first one with its owner, who gets a full-access API key:',
    `  stop this server (Ctrl-C), then wpk workspace create --subdomain acme --name "Acme" --owner-email you@example.com --owner-password '<8+ characters>'`,
    '  and start it again (the embedded database takes one process at a time).',
    `or let people sign up: POST ${url}/signup (docs/identity.md).`,
    '',
  ]);
  const health = await fetch(`${url}/health`);
  t.is(health.status, 200);
  t.deepEqual(await health.json(), { status: 'ok', database: 'ok' });

  const second = await wpk(['migrate', '--data-dir', dataDir], { DATABASE_URL: undefined });
  t.is(second.code, 1);
  t.regex(second.stderr.trim().split('\n').pop()!, new RegExp(`^wpk: The data directory ${dataDir} is in use by another wpk process \\(pid ${server.pid}\\)`));

  server.kill('SIGTERM');
  await new Promise((resolve) => server.on('exit', resolve));
  const after = await wpk(['migrate', '--data-dir', dataDir], { DATABASE_URL: undefined });
  t.is(after.code, 0, after.stderr);
  t.regex(after.stdout, /^nothing to migrate: the database is up to date \(\d+\.\d s\)\n$/);
});
