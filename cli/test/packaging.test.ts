import test from 'ava';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { packageManagerOf, packageName } from '../src/commands/add.js';
import { PUBLISHED_RANGE, wpkVersionFor } from '../src/commands/new.js';

// What a published CLI depends on: --version/--help load nothing of the kit, the scaffold writes
// installable ranges outside the kit's workspace, and `wpk add app` names an installed app.

const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const forbidKit = fileURLToPath(new URL('./fixtures/forbid-kit.mjs', import.meta.url));
const repo = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
const exec = promisify(execFile);
const tsx = import.meta.resolve('tsx');

async function wpk(args: string[], options: { cwd?: string; preload?: string[] } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const preload = (options.preload ?? []).map((file) => `--import=${file}`);
  try {
    const { stdout, stderr } = await exec(process.execPath, [`--import=${tsx}`, ...preload, bin, ...args], { cwd: options.cwd, env: { ...process.env, WPK_LOG_LEVEL: 'silent' }, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

function scratch(t: { teardown(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-pkg-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('--version and --help load neither @wpk/core nor @wpk/sdk; a command that needs them does load them', async (t) => {
  const version = await wpk(['--version'], { preload: [forbidKit] });
  t.deepEqual(version, { code: 0, stdout: '0.1.0\n', stderr: '' });
  for (const command of [[], ['dev'], ['add', 'app'], ['new', 'app'], ['validate']]) {
    const help = await wpk([...command, '--help'], { preload: [forbidKit] });
    t.is(help.code, 0, `${command.join(' ')}: ${help.stderr}`);
    t.regex(help.stdout, /^Usage: wpk/);
  }
  // The control: the same guard does stop a command that needs the kit.
  const validate = await wpk(['validate', os.tmpdir()], { preload: [forbidKit] });
  t.is(validate.code, 1);
  t.is(validate.stderr, 'wpk: loaded @wpk/core\n');
});

test('the scaffold uses workspace:* only for folders the pnpm workspace includes, the published range elsewhere', (t) => {
  t.is(PUBLISHED_RANGE, '^0.1.0');
  t.is(wpkVersionFor(path.join(repo, 'examples', 'hello')), 'workspace:*');
  t.is(wpkVersionFor(path.join(repo, 'plugins', 'notes')), 'workspace:*');
  t.is(wpkVersionFor(path.join(repo, 'cli')), 'workspace:*');
  // apps/hello in a clone: no workspace glob names it, so workspace:* could not be installed.
  t.is(wpkVersionFor(path.join(repo, 'apps', 'hello')), '^0.1.0');
  t.is(wpkVersionFor(path.join(repo, 'examples', 'deep', 'hello')), '^0.1.0');
  t.is(wpkVersionFor(path.join(os.tmpdir(), 'wpk-outside', 'hello')), '^0.1.0');
});

test('wpk new app in a folder of the clone outside the workspace globs writes installable ranges', async (t) => {
  const dir = path.join(repo, '.scratch', `new-app-${process.pid}`);
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const created = await wpk(['new', 'app', 'hello', '--dir', dir], { cwd: repo });
  t.is(created.code, 0, created.stderr);
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  t.deepEqual([pkg.dependencies['@wpk/sdk'], pkg.devDependencies['@wpk/testing']], ['^0.1.0', '^0.1.0']);
});

test('wpk new project makes apps/* workspace packages of the project', async (t) => {
  const root = scratch(t);
  t.is((await wpk(['new', 'project', 'acme'], { cwd: root })).code, 0);
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'acme', 'package.json'), 'utf8'));
  t.deepEqual(pkg.workspaces, ['apps/*']);
  t.deepEqual(pkg.dependencies, { '@wpk/cli': '^0.1.0' });
});

test('the package manager is the one whose lockfile the project has; a spec names its package', (t) => {
  const root = scratch(t);
  t.is(packageManagerOf(root).name, 'npm');
  t.deepEqual(packageManagerOf(root).args('@wpk/app-tasks'), ['install', '@wpk/app-tasks']);
  fs.writeFileSync(path.join(root, 'pnpm-lock.yaml'), '');
  t.deepEqual([packageManagerOf(root).name, ...packageManagerOf(root).args('x')], ['pnpm', 'add', 'x']);
  t.is(packageName('@wpk/app-tasks@^0.1.0'), '@wpk/app-tasks');
  t.is(packageName('@wpk/app-tasks'), '@wpk/app-tasks');
  t.is(packageName('hello@1.2.3'), 'hello');
});

test('wpk add app --no-install names an installed app in wpk.config.json once, and refuses what is not an app', async (t) => {
  const root = scratch(t);
  t.is((await wpk(['new', 'project', 'acme'], { cwd: root })).code, 0);
  const project = path.join(root, 'acme');
  fs.mkdirSync(path.join(project, 'node_modules', '@wpk'), { recursive: true });
  fs.symlinkSync(path.join(repo, 'plugins', 'tasks'), path.join(project, 'node_modules', '@wpk', 'app-tasks'));
  fs.symlinkSync(path.join(repo, 'packages', 'client'), path.join(project, 'node_modules', '@wpk', 'client'));

  const added = await wpk(['add', 'app', '@wpk/app-tasks', '--no-install'], { cwd: project });
  t.deepEqual(added, { code: 0, stdout: 'added @wpk/app-tasks (tasks) to wpk.config.json\n', stderr: '' });
  t.deepEqual(JSON.parse(fs.readFileSync(path.join(project, 'wpk.config.json'), 'utf8')), { apps: ['@wpk/app-tasks'] });

  const again = await wpk(['add', 'app', '@wpk/app-tasks@0.1.0', '--no-install'], { cwd: project });
  t.is(again.stdout, '@wpk/app-tasks (tasks) is already in wpk.config.json\n');
  t.deepEqual(JSON.parse(fs.readFileSync(path.join(project, 'wpk.config.json'), 'utf8')), { apps: ['@wpk/app-tasks'] });

  const notApp = await wpk(['add', 'app', '@wpk/client', '--no-install'], { cwd: project });
  t.is(notApp.code, 1);
  t.regex(notApp.stderr, /^wpk: @wpk\/client is not a loadable app: .*app\.json: cannot be read/);
  const missing = await wpk(['add', 'app', '@acme/nope', '--no-install'], { cwd: project });
  t.is(missing.stderr, `wpk: @acme/nope is not a loadable app: apps: package @acme/nope is not installed (looked in node_modules from ${project})\n`);
  const badName = await wpk(['add', 'app', './apps/hello', '--no-install'], { cwd: project });
  t.is(badName.stderr, 'wpk: "./apps/hello" is not a package name (a directory app goes in wpk.config.json as "./path")\n');
  t.deepEqual(JSON.parse(fs.readFileSync(path.join(project, 'wpk.config.json'), 'utf8')), { apps: ['@wpk/app-tasks'] }, 'refusals leave the file as it was');
});
