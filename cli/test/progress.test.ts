import test from 'ava';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { migrationReporter, reindexReporter } from '../src/progress.js';

const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const exec = promisify(execFile);

function capture(isTTY: boolean) {
  const writes: string[] = [];
  return { stream: { isTTY, write: (text: string) => writes.push(text) }, writes };
}

test('on a TTY the running step shows and is replaced by its result; elsewhere one plain line per step', (t) => {
  const tty = capture(true);
  const report = migrationReporter(tty.stream)!;
  report({ schema: 'platform', name: '0001-base', phase: 'started' });
  report({ schema: 'platform', name: '0001-base', phase: 'applied', ms: 1234 });
  t.deepEqual(tty.writes, ['applying platform/0001-base ...', '\r\x1b[Kapplied platform/0001-base (1.2 s)\n']);

  const plain = capture(false);
  const reportPlain = migrationReporter(plain.stream)!;
  reportPlain({ schema: 'app_tasks', name: '0002-lanes', phase: 'started' });
  reportPlain({ schema: 'app_tasks', name: '0002-lanes', phase: 'applied', ms: 40 });
  t.deepEqual(plain.writes, ['applied app_tasks/0002-lanes (0.0 s)\n']);
  t.is(migrationReporter(null), undefined);
});

test('search reindex progress: on a TTY the running type shows and is replaced by its count; elsewhere one plain line per type', (t) => {
  const step = { app: 'tasks', workspace: { id: 'w1', subdomain: 'acme' }, type: 'board' };
  const tty = capture(true);
  const report = reindexReporter(tty.stream)!;
  report({ phase: 'started', ...step });
  report({ phase: 'finished', ...step, documents: 1, ms: 2345 });
  t.deepEqual(tty.writes, ['reindexing tasks/board in acme ...', '\r\x1b[Kreindexed tasks/board in acme: 1 document (2.3 s)\n']);

  const plain = capture(false);
  const reportPlain = reindexReporter(plain.stream)!;
  reportPlain({ phase: 'started', ...step, type: 'task' });
  reportPlain({ phase: 'finished', ...step, type: 'task', documents: 12, ms: 40 });
  t.deepEqual(plain.writes, ['reindexed tasks/task in acme: 12 documents (0.0 s)\n']);
  t.is(reindexReporter(null), undefined);
});

test('wpk migrate prints each migration with its time as it runs; --json prints only its JSON', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-progress-'));
  const jsonDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-progress-'));
  t.teardown(() => [dataDir, jsonDir].forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
  const env = { ...process.env, WPK_LOG_LEVEL: 'silent', DATABASE_URL: '' };
  const plain = await exec(process.execPath, ['--import=tsx', bin, 'migrate', '--data-dir', dataDir], { env, timeout: 300_000 });
  const lines = plain.stdout.trim().split('\n');
  t.true(lines.length > 1);
  for (const line of lines) t.regex(line, /^applied platform\/\d{4}-[a-z0-9-]+ \(\d+\.\d s\)$/);
  t.is(plain.stderr, '');

  const json = await exec(process.execPath, ['--import=tsx', bin, 'migrate', '--json', '--data-dir', jsonDir], { env, timeout: 300_000 });
  const body = JSON.parse(json.stdout) as { applied: { platform: string[] } };
  t.deepEqual(body.applied.platform, lines.map((line) => /^applied platform\/(\S+)/.exec(line)![1]));
  t.is(json.stdout.trim().split('\n').length, 1);
  t.is(json.stderr, '');
});
