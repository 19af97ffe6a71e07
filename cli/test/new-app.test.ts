import test from 'ava';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// The scaffold round trip: `wpk new app` → `wpk validate` → the app's own tests, run as its
// author would run them. Also `wpk new project`, and validate's refusals.

const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const repo = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
const exec = promisify(execFile);

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(command: string, args: string[], cwd = process.cwd()): Promise<Result> {
  try {
    const { stdout, stderr } = await exec(command, args, { cwd, env: { ...process.env, WPK_LOG_LEVEL: 'silent' }, timeout: 300_000, maxBuffer: 10 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

// tsx by absolute URL: the commands run in scratch directories that have no node_modules of their own.
const tsx = import.meta.resolve('tsx');
// The test's own `wpk` runs under the repository's TypeScript loader (tools/ts-hooks); the app's
// project keeps tsx, as a publisher's does.
const wpk = (args: string[], cwd?: string) => run(process.execPath, [`--import=${import.meta.resolve('@wpk/ts-hooks')}`, bin, ...args], cwd);

/** What `npm install` would give the app: @wpk/sdk, @wpk/testing, @wpk/ui, @wpk/cli (its `wpk` bin), ava, tsx and typescript (linked from this repository). */
function linkDependencies(dir: string): void {
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(path.join(modules, '@wpk'), { recursive: true });
  fs.mkdirSync(path.join(modules, '.bin'), { recursive: true });
  fs.symlinkSync(path.join(repo, 'packages', 'sdk'), path.join(modules, '@wpk', 'sdk'));
  fs.symlinkSync(path.join(repo, 'packages', 'testing'), path.join(modules, '@wpk', 'testing'));
  fs.symlinkSync(path.join(repo, 'packages', 'ui'), path.join(modules, '@wpk', 'ui'));
  fs.symlinkSync(path.join(repo, 'cli'), path.join(modules, '@wpk', 'cli'));
  // The shim npm writes for a bin: run the CLI (TypeScript here, through tsx).
  fs.writeFileSync(path.join(modules, '.bin', 'wpk'), `#!/bin/sh\nexec "${process.execPath}" --import=${tsx} "${bin}" "$@"\n`, { mode: 0o755 });
  for (const name of ['ava', 'tsx', 'typescript']) fs.symlinkSync(fs.realpathSync(path.join(repo, 'node_modules', name)), path.join(modules, name));
  fs.symlinkSync(path.join(modules, 'typescript', 'bin', 'tsc'), path.join(modules, '.bin', 'tsc'));
}

/** `npm run <script>` in the app, as its author runs it. */
const npmRun = (script: string, cwd: string) => run('npm', ['run', '--silent', script], cwd);

function scratch(t: { teardown(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-new-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('wpk new app scaffolds an ext app that validates, typechecks and whose tests pass as generated', async (t) => {
  t.timeout(600_000, 'scaffold, validate, tsc and the app\'s own test run, one after the other');
  const root = scratch(t);
  const created = await wpk(['new', 'app', 'hello', '--publisher', 'acme', '--dir', path.join(root, 'hello')], root);
  t.is(created.code, 0, created.stderr);
  t.is(created.stdout.split('\n')[0], 'created ext.acme.hello in hello');
  const app = path.join(root, 'hello');
  for (const file of ['app.json', 'package.json', 'tsconfig.json', 'README.md', 'src/index.ts', 'src/app.types.ts', 'src/kit.ts', 'src/search.ts', 'src/routes/items.ts', 'src/services/items.ts', 'src/models/index.ts', 'src/migrations/0001-create-items.ts', 'src/events/app-installed.ts', 'test/items.test.ts', 'ui/main.ts', 'ui/app-root.ts', 'ui/items-screen.ts', 'ui/tsconfig.json', 'test/ui.test.ts', 'test/docs.test.ts']) {
    t.true(fs.existsSync(path.join(app, file)), file);
  }
  // The front-end is built the way the first-party apps are: mountApp puts an AppRoot on the page.
  t.regex(fs.readFileSync(path.join(app, 'ui', 'main.ts'), 'utf8'), /^await mountApp\('hello-app'\);$/m);
  t.regex(fs.readFileSync(path.join(app, 'ui', 'app-root.ts'), 'utf8'), /^export class HelloApp extends AppRoot \{$/m);
  t.regex(fs.readFileSync(path.join(app, 'ui', 'app-root.ts'), 'utf8'), /^customElements\.define\('hello-app', HelloApp\);$/m);
  const manifest = JSON.parse(fs.readFileSync(path.join(app, 'app.json'), 'utf8'));
  t.deepEqual(manifest.authorization, [{ method: 'POST', path: '/items', chain: ['ext.acme.hello.items.create'], description: 'Creates an item.' }]);
  t.deepEqual(manifest.events.map((event: { action: string }) => event.action), ['ext.acme.hello.item.created']);
  t.deepEqual(manifest.subscriptions, [{ action: 'system.app.installed', handler: '/events/system-app-installed', max_retries: 3 }]);
  t.deepEqual(manifest.search.map((entry: { type: string }) => entry.type), ['item']);
  t.deepEqual(manifest.settings.defaults, { welcome_title: 'Welcome' });
  const pkg = JSON.parse(fs.readFileSync(path.join(app, 'package.json'), 'utf8'));
  t.is(pkg.dependencies['@wpk/sdk'], '^0.1.0');
  t.is(pkg.devDependencies['@wpk/cli'], '^0.1.0', 'the validate and typecheck scripts run the wpk the app brings');

  linkDependencies(app);
  const validated = await npmRun('validate', app);
  t.is(validated.code, 0, validated.stdout + validated.stderr);
  t.is(validated.stdout.trim(), 'ok app.json: ext.acme.hello 0.1.0, 1 route, 1 permission, 1 event, 1 subscription');

  // The generated contract types what the app does: each line below must be a type error.
  fs.writeFileSync(
    path.join(app, 'src', 'contract-probe.ts'),
    `import type { SubscriptionHandler } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { AnyCtx } from './kit.js';
import type { Models } from './models/index.js';

export function probe(ctx: AnyCtx): void {
  // @ts-expect-error the title is a string
  ctx.events.stage('ext.acme.hello.item.created', { item_id: 'x', title: 42 });
  // @ts-expect-error item_id is required
  ctx.events.stage('ext.acme.hello.item.created', { title: 'x' });
  // @ts-expect-error the app declares no such event
  ctx.events.stage('ext.acme.hello.item.deleted', { item_id: 'x' });
  // @ts-expect-error the settings have no such field
  void ctx.settings.welcome_text;
  const title: string = ctx.settings.welcome_title;
  void title;
}

export const handler: SubscriptionHandler<Models, AppTypes, 'system.app.installed'> = (event) => {
  const slug: string = event.payload.app_slug;
  // @ts-expect-error installed_by is optional in the platform catalog
  const by: string = event.payload.installed_by;
  return [slug, by];
};
`,
  );
  const typechecked = await npmRun('typecheck', app);
  t.is(typechecked.code, 0, typechecked.stdout + typechecked.stderr);
  t.is(typechecked.stdout.trim(), 'app.json is up to date\nsrc/app.types.ts is up to date');
  fs.rmSync(path.join(app, 'src', 'contract-probe.ts'));

  const tested = await run(process.execPath, [path.join(repo, 'node_modules', 'ava', 'entrypoints', 'cli.mjs')], app);
  t.is(tested.code, 0, tested.stdout + tested.stderr);
  t.regex(tested.stdout, /13 tests passed/);
});

test('wpk types --check fails while app.json and src/app.types.ts differ; wpk types brings them back in step', async (t) => {
  const root = scratch(t);
  const app = path.join(root, 'hello');
  t.is((await wpk(['new', 'app', 'hello', '--publisher', 'acme', '--dir', app], root)).code, 0);
  linkDependencies(app);
  t.deepEqual(await wpk(['types', '--check'], app), { code: 0, stdout: 'app.json is up to date\nsrc/app.types.ts is up to date\n', stderr: '' });
  const manifest = JSON.parse(fs.readFileSync(path.join(app, 'app.json'), 'utf8'));
  manifest.events[0].schema.properties.priority = { type: 'string', enum: ['low', 'high'] };
  fs.writeFileSync(path.join(app, 'app.json'), JSON.stringify(manifest, null, 2));
  t.deepEqual(await wpk(['types', '--check', app], root), { code: 1, stdout: 'hello/app.json is up to date\n', stderr: 'wpk: hello/src/app.types.ts is stale (app.json changed since it was generated): run wpk types\n' });
  t.deepEqual(await wpk(['types'], app), { code: 0, stdout: 'unchanged: app.json\nwrote src/app.types.ts\n', stderr: '' });
  t.regex(fs.readFileSync(path.join(app, 'src', 'app.types.ts'), 'utf8'), /priority\?: \('low' \| 'high'\) \| null;/);
  t.deepEqual(await wpk(['types', '--check'], app), { code: 0, stdout: 'app.json is up to date\nsrc/app.types.ts is up to date\n', stderr: '' });
  const routes = path.join(app, 'src', 'routes', 'items.ts');
  fs.writeFileSync(routes, fs.readFileSync(routes, 'utf8').replace("description: 'Creates an item.'", "description: 'Creates an item with a title.'"));
  t.deepEqual(await wpk(['types', '--check'], app), { code: 1, stdout: '', stderr: "wpk: app.json is stale (a route's method, path, chain or description changed in the code): run wpk manifest\n" }, 'a route changed in the code makes app.json stale');
  t.deepEqual(await wpk(['types'], app), { code: 0, stdout: 'wrote app.json\nunchanged: src/app.types.ts\n', stderr: '' });
  t.is(JSON.parse(fs.readFileSync(path.join(app, 'app.json'), 'utf8')).authorization[0].description, 'Creates an item with a title.');
  fs.rmSync(path.join(app, 'src', 'app.types.ts'));
  t.deepEqual(await wpk(['types', '--check'], app), { code: 1, stdout: 'app.json is up to date\n', stderr: 'wpk: src/app.types.ts is missing: run wpk types\n' });
  manifest.events[0].action = 'ext.acme.hello.item.create';
  fs.writeFileSync(path.join(app, 'app.json'), JSON.stringify(manifest, null, 2));
  const refused = await wpk(['types'], app);
  t.is(refused.code, 1);
  t.regex(refused.stderr, /^wpk: 1 problem in app\.json:\n {2}app\.json: events\[0\]\.action: /);
  t.false(fs.existsSync(path.join(app, 'src', 'app.types.ts')), 'nothing is written from a manifest with problems');
});

test('wpk validate prints every problem with file and field, and exits 1; wpk start refuses the same app', async (t) => {
  const root = scratch(t);
  await wpk(['new', 'app', 'hello', '--publisher', 'acme', '--dir', path.join(root, 'hello')], root);
  const app = path.join(root, 'hello');
  linkDependencies(app);
  const manifest = JSON.parse(fs.readFileSync(path.join(app, 'app.json'), 'utf8'));
  manifest.authorization = [];
  manifest.permissions[0].key = 'ext.acme.hello.item.make';
  manifest.search[0].permissions = ['ext.acme.hello.item.make'];
  manifest.events[0].action = 'core.hello.item.created';
  fs.writeFileSync(path.join(app, 'app.json'), JSON.stringify(manifest));
  const result = await wpk(['validate', 'hello', path.join(root, 'nowhere')], root);
  t.is(result.code, 1);
  t.deepEqual(result.stdout.trim().split('\n'), [
    'hello/app.json: permissions[0].key: "ext.acme.hello.item.make": resource "item" must be a plural noun (for example "items")',
    'hello/app.json: authorization: has no entry for POST /items, a route of the app\'s code; add one with a chain, or "public": true',
    'hello/app.json: events[0].action: "core.hello.item.created": core.* events are emitted by first-party apps only; a third-party app emits in ext.acme.hello.*',
    `${path.join(root, 'nowhere')}: no such directory`,
  ]);
  t.is(result.stderr.trim(), 'wpk: 4 problems found');
  const json = await wpk(['validate', '--json', 'hello'], root);
  t.is(json.code, 1);
  t.is(JSON.parse(json.stdout).problems.length, 3);
  const start = await wpk(['start', '--app', 'hello', '--port', '0', '--data-dir', path.join(root, 'data')], root);
  t.is(start.code, 1);
  // What it was doing when it stopped, then the refusal.
  t.deepEqual(start.stderr.trim().split('\n').map((line) => line.replace(/ \(\d+\.\d s\)$/, '')), [
    "loaded the server's code",
    'loading apps: failed',
    'wpk: Cannot start: 3 problems in apps',
    '  hello/app.json: permissions[0].key: "ext.acme.hello.item.make": resource "item" must be a plural noun (for example "items")',
    '  hello/app.json: authorization: has no entry for POST /items, a route of the app\'s code; add one with a chain, or "public": true',
    '  hello/app.json: events[0].action: "core.hello.item.created": core.* events are emitted by first-party apps only; a third-party app emits in ext.acme.hello.*',
  ]);
  t.false(fs.existsSync(path.join(root, 'data')), 'nothing was opened');
});

test('wpk new project scaffolds a project whose wpk.config names its apps', async (t) => {
  const root = scratch(t);
  const created = await wpk(['new', 'project', 'my-platform'], root);
  t.is(created.code, 0, created.stderr);
  const project = path.join(root, 'my-platform');
  t.deepEqual(JSON.parse(fs.readFileSync(path.join(project, 'wpk.config.json'), 'utf8')), { apps: [] });
  t.like(JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8')), { name: 'my-platform', dependencies: { '@wpk/cli': '^0.1.0' }, scripts: { start: 'wpk start' } });
  t.true(fs.readFileSync(path.join(project, 'README.md'), 'utf8').includes('wpk.config.json'));
  t.is((await wpk(['validate', project], root)).code, 0, 'a project without apps is valid');

  t.is((await wpk(['new', 'app', 'notes', '--publisher', 'me', '--dir', path.join(project, 'apps', 'notes')], root)).code, 0);
  fs.writeFileSync(path.join(project, 'wpk.config.json'), JSON.stringify({ apps: ['./apps/notes'] }));
  linkDependencies(project);
  const validated = await wpk(['validate', project], root);
  t.is(validated.code, 0, validated.stdout + validated.stderr);
  t.is(validated.stdout.trim(), 'ok apps/notes/app.json: ext.me.notes 0.1.0, 1 route, 1 permission, 1 event, 1 subscription');
});

test('wpk new refuses a bad slug or publisher and a directory that is not empty', async (t) => {
  const root = scratch(t);
  t.deepEqual(await wpk(['new', 'app', 'Hello'], root), { code: 1, stdout: '', stderr: 'wpk: slug "Hello" must be 2-40 lowercase letters and digits, words joined by _\n' });
  const badPublisher = await wpk(['new', 'app', 'hello', '--publisher', 'acme_inc'], root);
  t.is(badPublisher.stderr, 'wpk: --publisher "acme_inc" must be 2-40 lowercase letters and digits\n');
  fs.mkdirSync(path.join(root, 'taken'));
  fs.writeFileSync(path.join(root, 'taken', 'file'), 'x');
  const taken = await wpk(['new', 'app', 'hello', '--dir', 'taken'], root);
  t.is(taken.code, 1);
  t.is(taken.stderr, `wpk: ${path.join(root, 'taken')} exists and is not empty\n`);
  const defaults = await wpk(['new', 'app', 'hello'], root);
  t.is(defaults.code, 0);
  t.is(JSON.parse(fs.readFileSync(path.join(root, 'hello', 'app.json'), 'utf8')).publisher, 'local');
});
