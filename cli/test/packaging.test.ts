import test from 'ava';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { packageManagerOf, packageName } from '../src/commands/add.js';
import { PUBLISHED_RANGE, wpkVersionFor } from '../src/commands/new.js';
import { readBundle, readPackageJson } from '../src/bundle.js';

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
  t.deepEqual(added, {
    code: 0,
    stdout: 'added @wpk/app-tasks (tasks) to wpk.config.json\nrestart the server to load it; wpk dev installs it in the demo workspace, elsewhere an admin installs it: POST /applications/tasks/installations\n',
    stderr: '',
  });
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
  t.is(badName.stderr, 'wpk: "./apps/hello" is not a package name or a package tarball (.tgz) (a directory app goes in wpk.config.json as "./path")\n');
  t.deepEqual(JSON.parse(fs.readFileSync(path.join(project, 'wpk.config.json'), 'utf8')), { apps: ['@wpk/app-tasks'] }, 'refusals leave the file as it was');
});

/** Packs a stub package `name`@`version` with npm (offline: it has no dependencies) into `dir`; returns the tarball's path. */
async function stubTarball(dir: string, name: string, version = '0.1.0'): Promise<string> {
  const source = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-stub-'));
  fs.writeFileSync(path.join(source, 'package.json'), JSON.stringify({ name, version }));
  fs.writeFileSync(path.join(source, 'index.js'), '');
  const { stdout } = await exec('npm', ['pack', '--pack-destination', dir, '--loglevel=error'], { cwd: source });
  fs.rmSync(source, { recursive: true, force: true });
  return path.join(dir, stdout.trim().split('\n').pop()!);
}

test('a package tarball names its package: readPackageJson reads it without unpacking; a file that is not one is refused in one line', async (t) => {
  const dir = scratch(t);
  const file = await stubTarball(dir, '@wpk/app-notes', '1.2.3');
  t.is(path.basename(file), 'wpk-app-notes-1.2.3.tgz');
  t.deepEqual(readPackageJson(file), { name: '@wpk/app-notes', version: '1.2.3' });
  t.deepEqual([...readBundle(dir)], [['@wpk/app-notes', { file: 'wpk-app-notes-1.2.3.tgz', version: '1.2.3' }]]);
  fs.writeFileSync(path.join(dir, 'plain.tgz'), 'not gzip');
  const error = t.throws(() => readPackageJson(path.join(dir, 'plain.tgz')));
  t.true(error?.message.startsWith(`${path.join(dir, 'plain.tgz')} is not a package tarball (.tgz): `), error?.message);
  t.throws(() => readBundle(path.join(dir, 'nope')), { message: `${path.join(dir, 'nope')}: no such bundle folder (pnpm release writes one: release/)` });
});

test('wpk new project --bundle copies the bundle into wpk-packages/ and takes @wpk/cli, core, sdk and testing from there; a bundle of mixed releases or without the CLI is refused', async (t) => {
  const root = scratch(t);
  const bundle = path.join(root, 'release');
  fs.mkdirSync(bundle);
  for (const name of ['@wpk/cli', '@wpk/core', '@wpk/sdk', '@wpk/ui', '@wpk/client', '@wpk/testing', '@wpk/app-tasks']) await stubTarball(bundle, name);
  const created = await wpk(['new', 'project', 'acme', '--bundle', 'release'], { cwd: root });
  t.deepEqual(created, {
    code: 0,
    stdout: 'created project acme in acme with the 7 packages of release in wpk-packages/\nnext: cd acme && npm install && npx wpk add app @wpk/app-tasks && npx wpk dev\n',
    stderr: '',
  });
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'acme', 'package.json'), 'utf8'));
  t.deepEqual(pkg.dependencies, { '@wpk/cli': 'file:wpk-packages/wpk-cli-0.1.0.tgz', '@wpk/core': 'file:wpk-packages/wpk-core-0.1.0.tgz', '@wpk/sdk': 'file:wpk-packages/wpk-sdk-0.1.0.tgz', '@wpk/ui': 'file:wpk-packages/wpk-ui-0.1.0.tgz', '@wpk/client': 'file:wpk-packages/wpk-client-0.1.0.tgz' });
  t.deepEqual(pkg.devDependencies, { '@wpk/testing': 'file:wpk-packages/wpk-testing-0.1.0.tgz' });
  t.deepEqual(fs.readdirSync(path.join(root, 'acme', 'wpk-packages')).sort(), ['wpk-app-tasks-0.1.0.tgz', 'wpk-cli-0.1.0.tgz', 'wpk-client-0.1.0.tgz', 'wpk-core-0.1.0.tgz', 'wpk-sdk-0.1.0.tgz', 'wpk-testing-0.1.0.tgz', 'wpk-ui-0.1.0.tgz']);
  // A tarball of the bundle stands for its folder.
  t.is((await wpk(['new', 'project', 'beta', '--bundle', path.join('release', 'wpk-cli-0.1.0.tgz')], { cwd: root })).code, 0);

  await stubTarball(bundle, '@wpk/client', '0.2.0');
  const mixed = await wpk(['new', 'project', 'gamma', '--bundle', 'release'], { cwd: root });
  t.deepEqual([mixed.code, mixed.stderr], [1, `wpk: ${bundle} mixes releases (0.1.0, 0.2.0): make the bundle again with pnpm release\n`]);
  const partial = path.join(root, 'partial');
  fs.mkdirSync(partial);
  await stubTarball(partial, '@wpk/cli');
  const lacking = await wpk(['new', 'project', 'delta', '--bundle', partial], { cwd: root });
  t.deepEqual([lacking.code, lacking.stderr], [1, `wpk: ${partial} lacks @wpk/core, @wpk/sdk: a bundle made by pnpm release holds every package\n`]);
  t.false(fs.existsSync(path.join(root, 'gamma')) || fs.existsSync(path.join(root, 'delta')), 'a refused bundle writes nothing');
});

test('wpk new app in a project says what comes next there: install, test, name it in wpk.config.json; elsewhere how to try it', async (t) => {
  const root = scratch(t);
  t.is((await wpk(['new', 'project', 'acme'], { cwd: root })).code, 0);
  const inProject = await wpk(['new', 'app', 'hello', '--publisher', 'acme', '--dir', 'apps/hello'], { cwd: path.join(root, 'acme') });
  t.deepEqual(inProject, {
    code: 0,
    stdout: 'created ext.acme.hello in apps/hello\nnext: npm install && npm test -w apps/hello, then add "./apps/hello" to apps in wpk.config.json (the server loads the apps it names)\n',
    stderr: '',
  });
  const alone = await wpk(['new', 'app', 'solo', '--publisher', 'acme'], { cwd: root });
  t.is(alone.stdout, 'created ext.acme.solo in solo\nnext: cd solo && npm install && npm test; try it with wpk dev --app solo, or name it in a project\'s wpk.config.json\n');
});
