import test from 'ava';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createScratchDatabase, Runtime } from '@wpk/core';

const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const repo = fileURLToPath(new URL('../..', import.meta.url));
const tasks = path.join(repo, 'plugins', 'tasks');
const hello = path.join(repo, 'examples', 'ext-hello');
const exec = promisify(execFile);
const tsHooks = import.meta.resolve('@wpk/ts-hooks');

async function wpk(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [`--import=${tsHooks}`, bin, ...args], { cwd, env: { ...process.env, DATABASE_URL: '', WPK_LOG_LEVEL: 'silent', ...env }, timeout: 180_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

/** A project whose wpk.config.json names @wpk/app-tasks (installed as a link) and the hello example by directory. */
function project(t: { teardown(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-remove-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dir, 'node_modules', '@wpk'), { recursive: true });
  fs.symlinkSync(tasks, path.join(dir, 'node_modules', '@wpk', 'app-tasks'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'acme', private: true }));
  fs.writeFileSync(path.join(dir, 'wpk.config.json'), `${JSON.stringify({ apps: ['@wpk/app-tasks', path.relative(dir, hello)] }, null, 2)}\n`);
  return dir;
}

const config = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'wpk.config.json'), 'utf8')) as { apps: string[] };

test('wpk remove app takes the app out of wpk.config.json and says its data stays; it refuses what the file does not name, and --purge without a terminal or --yes', async (t) => {
  const dir = project(t);
  const removed = await wpk(['remove', 'app', 'tasks', '--no-uninstall'], dir);
  t.deepEqual(removed, {
    code: 0,
    stdout: [
      'removed @wpk/app-tasks (tasks) from wpk.config.json',
      'its data stays in the database (the schema app_tasks, its installations and settings in every workspace, its search entries and files): add the app again and it is back as it was.',
      'to delete the data for good: wpk remove app tasks --purge (stop the servers first)',
      '',
    ].join('\n'),
    stderr: '',
  });
  t.deepEqual(config(dir).apps, [path.relative(dir, hello)]);

  const unknown = await wpk(['remove', 'app', '@wpk/app-tasks'], dir);
  t.deepEqual([unknown.code, unknown.stderr], [1, `wpk: wpk.config.json does not name @wpk/app-tasks (its apps: ${path.relative(dir, hello)})\n`]);
  const unconfirmed = await wpk(['remove', 'app', 'ext.acme.hello', '--purge'], dir);
  t.deepEqual([unconfirmed.code, unconfirmed.stderr], [1, 'wpk: --purge deletes data for good: run it on a terminal to confirm, or pass --yes\n']);
  t.deepEqual(config(dir).apps, [path.relative(dir, hello)], 'a refusal leaves the file as it was');

  const byPath = await wpk(['remove', 'app', path.relative(dir, hello)], dir);
  t.is(byPath.code, 0, byPath.stderr);
  t.is(byPath.stdout.split('\n')[0], `removed ${path.relative(dir, hello)} (ext.acme.hello) from wpk.config.json`);
  t.deepEqual(config(dir).apps, []);
});

test('wpk remove app --purge --yes deletes the app schema, installations, search entries and files in every workspace, and nothing of the platform', async (t) => {
  const dir = project(t);
  const scratch = await createScratchDatabase();
  t.teardown(() => scratch.drop());
  const dataDir = path.join(dir, '.wpk', 'data');
  const database = scratch.url ? { databaseUrl: scratch.url } : { dataDir, databaseUrl: null };
  const open = (apps: Array<{ dir: string }>) => Runtime.create({ logLevel: 'silent', port: 0, configFile: false, apps, ...database });

  let runtime = await open([{ dir: tasks }]);
  let workspaceId: string;
  try {
    await runtime.migrate();
    const owned = await runtime.identity.createWorkspaceWithOwner({ subdomain: 'acme', name: 'Acme', ownerEmail: 'ada@acme.test', ownerPassword: 'ada-owner-password' });
    workspaceId = owned.workspaceId;
    await runtime.apps.installations.install(workspaceId, runtime.apps.get('tasks')!, { access_policy: 'everyone' }, owned.memberId);
    const { secret } = await runtime.apiKeys.issueFullAccessKey(workspaceId, owned.memberId, 'test');
    const board = await runtime.server.inject({ method: 'POST', url: '/boards', headers: { host: 'acme.localhost', 'x-api-version': '2026-11-01', authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, payload: { title: 'Launch' } });
    t.is(board.statusCode, 200, board.payload);
    const unit = runtime.storage.unit();
    await runtime.storage.put({ workspaceId, subdomain: 'acme', namespace: 'tasks' }, 'attachments/plan.txt', 'the plan', { contentType: 'text/plain' }, unit);
    await unit.finish();
  } finally {
    await runtime.stop();
  }

  const env: Record<string, string> = scratch.url ? { DATABASE_URL: scratch.url } : {};
  const purged = await wpk(['remove', 'app', '@wpk/app-tasks', '--purge', '--yes', '--no-uninstall', ...(scratch.url ? [] : ['--data-dir', dataDir])], dir, env);
  t.is(purged.code, 0, purged.stderr);
  const lines = purged.stdout.trim().split('\n');
  t.regex(lines[0], /^deleted the data of tasks: the schema app_tasks \(\d+ tables\), its installations in 1 workspace, 1 search entry and 1 file$/);
  t.is(lines[1], 'removed @wpk/app-tasks (tasks) from wpk.config.json');
  t.is(lines.length, 2);
  t.deepEqual(config(dir).apps, [path.relative(dir, hello)]);

  runtime = await open([]);
  try {
    const one = async (sql: string) => Number(((await runtime.db.sequelize.query(sql))[0] as Array<{ n: string }>)[0].n);
    t.is(await one("SELECT count(*) AS n FROM information_schema.schemata WHERE schema_name = 'app_tasks'"), 0);
    t.is(await one("SELECT count(*) AS n FROM platform.app_installations WHERE app_slug = 'tasks'"), 0);
    t.is(await one("SELECT count(*) AS n FROM platform.search_records WHERE app = 'tasks'"), 0);
    t.is(await runtime.storage.get({ workspaceId: workspaceId!, subdomain: 'acme', namespace: 'tasks' }, 'attachments/plan.txt'), null);
    t.is(await one('SELECT count(*) AS n FROM platform.workspaces'), 1, 'the platform keeps its workspaces');
  } finally {
    await runtime.stop();
  }
});

test('on a terminal --purge shows what it will delete and deletes only when the namespace is typed back', async (t) => {
  const dir = project(t);
  const dataDir = path.join(dir, '.wpk', 'data');
  // `script` gives the command a terminal; what is piped in is what the user types.
  const typed = (answer: string) =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      const command = [process.execPath, `--import=${tsHooks}`, bin, 'remove', 'app', 'tasks', '--purge', '--no-uninstall', '--data-dir', dataDir].map((word) => `'${word}'`).join(' ');
      const child = execFile('script', ['-qec', command, '/dev/null'], { cwd: dir, env: { ...process.env, DATABASE_URL: '', WPK_LOG_LEVEL: 'silent' }, timeout: 180_000 }, () => {});
      let output = '';
      child.stdout!.on('data', (chunk) => (output += chunk));
      child.on('exit', (code) => resolve({ code, output: output.replace(/\r/g, '') }));
      child.stdin!.end(`${answer}\n`);
    });
  const refused = await typed('yes');
  t.is(refused.code, 1, refused.output);
  t.true(refused.output.includes('this deletes the data of tasks in every workspace, for good: the schema app_tasks (0 tables), its installations in 0 workspaces, 0 search entries and 0 files.'), refused.output);
  t.true(refused.output.includes('type tasks to confirm: '), refused.output);
  t.true(refused.output.includes("wpk: nothing deleted: the answer was not the app's namespace"), refused.output);
  t.deepEqual(config(dir).apps, ['@wpk/app-tasks', path.relative(dir, hello)], 'nothing removed either');

  const confirmed = await typed('tasks');
  t.is(confirmed.code, 0, confirmed.output);
  t.true(confirmed.output.includes('deleted the data of tasks: the schema app_tasks (0 tables), its installations in 0 workspaces, 0 search entries and 0 files\nremoved @wpk/app-tasks (tasks) from wpk.config.json'), confirmed.output);
  t.deepEqual(config(dir).apps, [path.relative(dir, hello)]);
});
