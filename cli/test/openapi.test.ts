import test from 'ava';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));
const exec = promisify(execFile);

/** Runs `wpk` in the repository's root, whose wpk.config loads the tasks, companies and contacts apps. */
async function wpk(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [`--import=${import.meta.resolve('@wpk/ts-hooks')}`, bin, ...args], { cwd: options.cwd ?? root, env: { ...process.env, WPK_LOG_LEVEL: 'silent', DATABASE_URL: '', ...options.env }, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

test('wpk openapi --app tasks --out writes the tasks operations; an unknown app fails in one line', async (t) => {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-openapi-')), 'tasks.json');
  const written = await wpk(['openapi', '--app', 'tasks', '--out', out]);
  t.is(written.code, 0, written.stderr);
  const document = JSON.parse(fs.readFileSync(out, 'utf8'));
  t.is(document.openapi, '3.1.0');
  t.is(document.info.version, '1.0.0');
  t.deepEqual(document.tags.map((tag: { name: string }) => tag.name), ['tasks']);
  t.deepEqual(document.paths['/tasks'].get['x-permissions'], ['tasks.tasks.read']);
  t.false('/members' in document.paths);

  const unknown = await wpk(['openapi', '--app', 'nope']);
  t.is(unknown.code, 1);
  // The known apps are those of the repository's wpk.config.json, in its order.
  const configured = (JSON.parse(fs.readFileSync(path.join(root, 'wpk.config.json'), 'utf8')) as { apps: Array<{ dir: string }> }).apps.map((entry) => path.basename(entry.dir));
  t.is(unknown.stderr.trim(), `wpk: No operations of nope: known are account, web, system, ${configured.join(', ')}`);
});

test("every operation of the repository's configuration (core and every first-party app) declares its record or file, none the generic answer", async (t) => {
  const written = await wpk(['openapi']);
  t.is(written.code, 0, written.stderr);
  const document = JSON.parse(written.stdout) as { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };
  const generic = Object.entries(document.paths).flatMap(([route, operations]) =>
    Object.entries(operations)
      .filter(([, operation]) => /"#\/components\/responses\/(Ok|AppOk)"/.test(JSON.stringify(operation.responses?.['200'] ?? {})))
      .map(([method]) => `${method.toUpperCase()} ${route}`),
  );
  t.deepEqual(generic, []);
});

test('--config and WPK_CONFIG name the project file from any directory; its relative app paths resolve against its own directory', async (t) => {
  const project = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-config-')), 'srv');
  fs.mkdirSync(project);
  const file = path.join(project, 'production.json');
  fs.writeFileSync(file, JSON.stringify({ apps: [{ dir: path.relative(project, path.join(root, 'plugins/tasks')), firstParty: true }] }));
  const elsewhere = os.tmpdir();
  const paths = (stdout: string) => Object.keys(JSON.parse(stdout).paths);

  const byOption = await wpk(['--config', file, 'openapi', '--app', 'tasks'], { cwd: elsewhere });
  t.is(byOption.code, 0, byOption.stderr);
  t.true(paths(byOption.stdout).includes('/boards'));
  const byEnv = await wpk(['openapi', '--app', 'tasks'], { cwd: elsewhere, env: { WPK_CONFIG: file } });
  t.is(byEnv.code, 0, byEnv.stderr);
  t.deepEqual(paths(byEnv.stdout), paths(byOption.stdout));

  const missing = await wpk(['--config', path.join(project, 'nope.json'), 'openapi'], { cwd: elsewhere });
  t.is(missing.code, 1);
  t.is(missing.stderr.trim(), `wpk: the config file ${path.join(project, 'nope.json')} does not exist (named by --config or WPK_CONFIG)`);
});
