import test from 'ava';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { migrationCounter, migrationSummary, reindexReporter, StepReporter } from '../src/progress.js';

// The repository's TypeScript loader (tools/ts-hooks), by its file URL: a process started in another folder finds it too.
const TS_HOOKS = `--import=${import.meta.resolve('@wpk/ts-hooks')}`;

const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const exec = promisify(execFile);

function capture(isTTY: boolean) {
  const writes: string[] = [];
  return { stream: { isTTY, write: (text: string) => writes.push(text) }, writes };
}

test('on a TTY a step shows while it runs and is replaced by its result; elsewhere only the result lines', async (t) => {
  const tty = capture(true);
  const steps = new StepReporter(tty.stream);
  t.is(await steps.step('loading apps', async () => 13, (count) => `loaded ${count} apps`), 13);
  t.is(tty.writes.length, 2);
  t.is(tty.writes[0], '\r\x1b[Kloading apps ...');
  t.true(tty.writes[1].startsWith('\r\x1b[K'));
  t.regex(tty.writes[1].slice(4), /^loaded 13 apps \(\d+\.\d s\)\n$/);

  const plain = capture(false);
  const plainSteps = new StepReporter(plain.stream);
  await plainSteps.step('loading apps', async () => 2, (count) => `loaded ${count} apps`);
  await t.throwsAsync(plainSteps.step('opening the database', () => Promise.reject(new Error('no')), () => 'opened'), { message: 'no' });
  t.is(plain.writes.length, 2);
  t.regex(plain.writes[0], /^loaded 2 apps \(\d+\.\d s\)\n$/);
  t.is(plain.writes[1], 'opening the database: failed\n');
});

test('migrations: on a TTY the live line counts them (migrating 2/3 ...); elsewhere nothing until the one summary line', (t) => {
  const tty = capture(true);
  const steps = new StepReporter(tty.stream);
  const count = migrationCounter(steps, 3);
  count({ schema: 'platform', name: '0001-base', phase: 'started' });
  count({ schema: 'platform', name: '0001-base', phase: 'applied', ms: 12 });
  count({ schema: 'app_tasks', name: '0001-tables', phase: 'started' });
  t.deepEqual(tty.writes, ['\r\x1b[Kmigrating 1/3 platform/0001-base', '\r\x1b[Kmigrating 2/3 app_tasks/0001-tables']);

  const plain = capture(false);
  const plainCount = migrationCounter(new StepReporter(plain.stream), 3);
  plainCount({ schema: 'platform', name: '0001-base', phase: 'started' });
  plainCount({ schema: 'platform', name: '0001-base', phase: 'applied', ms: 12 });
  t.deepEqual(plain.writes, []);

  t.is(migrationSummary({ platform: ['0001-base', '0002-more'], app_tasks: ['0001-tables'], app_files: [] }), 'applied 3 migrations in 2 schemas');
  t.is(migrationSummary({ platform: ['0001-base'] }), 'applied 1 migration in 1 schema');
  t.is(migrationSummary({ platform: [], app_tasks: [] }), 'nothing to migrate: the database is up to date');
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

test('wpk migrate prints one summary line on stdout when not on a terminal; --json prints only its JSON', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-progress-'));
  const jsonDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-progress-'));
  t.teardown(() => [dataDir, jsonDir].forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
  const env = { ...process.env, WPK_LOG_LEVEL: 'silent', DATABASE_URL: '' };
  const plain = await exec(process.execPath, [TS_HOOKS, bin, 'migrate', '--data-dir', dataDir], { env, timeout: 300_000 });
  const [, count] = /^applied (\d+) migrations in 1 schema \(\d+\.\d s\)\n$/.exec(plain.stdout) ?? [];
  t.truthy(count, plain.stdout);
  // What it waited on, one line per step (the run is not on a terminal: no live lines).
  t.deepEqual(
    plain.stderr.split('\n').map((line) => line.replace(/ \(\d+\.\d s\)$/, '')),
    ["loaded the server's code", 'loaded 0 apps', `created the embedded database in ${dataDir}`, 'prepared the platform', ''],
  );

  const json = await exec(process.execPath, [TS_HOOKS, bin, 'migrate', '--json', '--data-dir', jsonDir], { env, timeout: 300_000 });
  const body = JSON.parse(json.stdout) as { applied: { platform: string[] } };
  t.is(body.applied.platform.length, Number(count));
  t.true(body.applied.platform.every((name) => /^\d{4}-[a-z0-9-]+$/.test(name)));
  t.is(json.stdout.trim().split('\n').length, 1);
  t.is(json.stderr, '');

  const again = await exec(process.execPath, [TS_HOOKS, bin, 'migrate', '--data-dir', dataDir], { env, timeout: 300_000 });
  t.regex(again.stdout, /^nothing to migrate: the database is up to date \(\d+\.\d s\)\n$/);
  t.regex(again.stderr, /^loaded the server's code \(\d+\.\d s\)\nloaded 0 apps .*\nopened the embedded database in /);
});
