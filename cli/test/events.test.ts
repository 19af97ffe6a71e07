import test from 'ava';
import { createHmac } from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// The repository's TypeScript loader (tools/ts-hooks), by its file URL: a process started in another folder finds it too.
const TS_HOOKS = `--import=${import.meta.resolve('@wpk/ts-hooks')}`;

const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const exec = promisify(execFile);

async function wpk(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [TS_HOOKS, bin, ...args], { env: { ...process.env, WPK_LOG_LEVEL: 'silent', DATABASE_URL: undefined, ...env }, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-events-cli-'));

test('events app-secret derives a third-party app secret from the broker secret', async (t) => {
  const secret = 'cli-broker-secret-0123456789abcdef';
  const result = await wpk(['events', 'app-secret', 'ext.acme.hello'], { BROKER_SECRET: secret });
  t.is(result.code, 0, result.stderr);
  t.is(result.stdout.trim(), createHmac('sha256', secret).update('wpk-app-secret:ext.acme.hello').digest('hex'));
  const firstParty = await wpk(['events', 'app-secret', 'tasks'], { BROKER_SECRET: secret });
  t.is(firstParty.code, 1);
  t.is(firstParty.stderr.trim(), 'wpk: "tasks" is not a third-party app slug (ext.{publisher}.{app}); first-party apps use BROKER_SECRET');
});

test('events app-secret without BROKER_SECRET uses the secret generated in the data directory', async (t) => {
  const dataDir = tempDir();
  const first = await wpk(['events', 'app-secret', 'ext.acme.hello', '--data-dir', dataDir], { BROKER_SECRET: undefined });
  t.is(first.code, 0, first.stderr);
  const stored = fs.readFileSync(path.join(dataDir, 'broker-secret'), 'utf8').trim();
  t.is(first.stdout.trim(), createHmac('sha256', stored).update('wpk-app-secret:ext.acme.hello').digest('hex'));
  t.is((fs.statSync(path.join(dataDir, 'broker-secret')).mode & 0o777).toString(8), '600');
});

test('events list and replay on an empty database', async (t) => {
  const dataDir = tempDir();
  const list = await wpk(['events', 'list', '--json', '--data-dir', dataDir]);
  t.is(list.code, 0, list.stderr);
  t.deepEqual(JSON.parse(list.stdout), { deliveries: [] });
  const replay = await wpk(['events', 'replay', '00000000-0000-4000-8000-000000000000', '--data-dir', dataDir]);
  t.is(replay.code, 1);
  t.is(replay.stderr.trim(), 'wpk: No delivery 00000000-0000-4000-8000-000000000000');
});

test('broker refuses to start with no database to broker for', async (t) => {
  const dataDir = tempDir();
  const result = await wpk(['broker', '--data-dir', dataDir]);
  t.is(result.code, 1);
  t.is(result.stderr.trim(), `wpk: No database to broker for: set DATABASE_URL, or start the server on the embedded database in ${dataDir} first`);
});
