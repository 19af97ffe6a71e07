import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { QueryTypes } from 'sequelize';
import { authorizationTable, defineApp, definePublicRoute, defineRoute } from '@wpk/sdk';
import { AppLoadError, AppRegistry, readProjectConfig } from '../src/apps/index.js';
import { migrateDown, Runtime } from '../src/index.js';
import { body, NOTES_DIR, startAppsRuntime, TestWorkspace, VAULT_DIR, type AppsTestRuntime } from './helpers/apps.js';

// Loading apps: the config file and explicit entries, validation at start-up (refusing with
// file and field named), first-party decided by configuration, per-app schemas and migrations.

const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));

/** A scratch project directory inside the package, so its modules resolve @wpk/sdk. */
function scratchProject(t: { teardown(fn: () => void): void }): string {
  fs.mkdirSync(path.join(FIXTURES, '.scratch'), { recursive: true });
  const dir = fs.mkdtempSync(path.join(FIXTURES, '.scratch', 'project-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function writeApp(dir: string, manifest: Record<string, unknown>, code?: string): void {
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'app.json'), JSON.stringify(manifest, null, 2));
  if (code !== undefined) fs.writeFileSync(path.join(dir, 'src', 'index.ts'), code);
}

const helloManifest = () => ({
  slug: 'hello',
  publisher: 'acme',
  name: 'Hello',
  version: '1.0.0',
  permissions: [{ key: 'ext.acme.hello.greetings.read', label: 'Read greetings', category: 'Greetings' }],
  authorization: [{ method: 'GET', path: '/greetings', chain: ['ext.acme.hello.greetings.read'] }],
});
const helloCode = `import { defineApp, defineRoute } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
export default defineApp(manifest, { routes: [defineRoute({ method: 'GET', path: '/greetings', handler: () => ({ data: [] }) })] });
`;

async function refusal(t: { throwsAsync: any }, promise: Promise<unknown>): Promise<string[]> {
  const error: AppLoadError = await t.throwsAsync(promise, { instanceOf: AppLoadError });
  return error.problems;
}

test('the runtime refuses to start on an invalid manifest, naming the file and every field', async (t) => {
  const project = scratchProject(t);
  const manifest: Record<string, any> = helloManifest();
  delete manifest.publisher;
  manifest.permissions[0].key = 'hello.greeting.read';
  manifest.events = [{ action: 'core.hello.greeting.sent', description: 'x', schema: { type: 'object' } }];
  writeApp(path.join(project, 'hello'), manifest, helloCode);
  const error: AppLoadError = await t.throwsAsync(Runtime.create({ projectDir: project, configFile: false, apps: ['./hello'], logLevel: 'silent', inMemory: true }), { instanceOf: AppLoadError });
  const file = path.relative(project, path.join(project, 'hello', 'app.json'));
  t.deepEqual(error.problems, [
    `${file}: publisher: is required: only apps the runtime configuration loads as first-party may omit it; a third-party app is ext.{publisher}.{slug}`,
    `${file}: permissions[0].key: "hello.greeting.read": resource "greeting" must be a plural noun (for example "greetings")`,
    `${file}: authorization[0].chain[0]: "ext.acme.hello.greetings.read" is not a permission this app declares`,
    `${file}: events[0].action: "core.hello.greeting.sent": core.* events are emitted by first-party apps only; a third-party app emits in hello.*`,
  ]);
  t.true(error.message.startsWith('Cannot start: 4 problems in apps\n  hello/app.json: publisher: is required'));
});

test('first-party is the configuration\'s decision, never the manifest\'s', async (t) => {
  const asThirdParty = await refusal(t, AppRegistry.load({ configFile: false, apps: [{ dir: NOTES_DIR }] }));
  t.true(asThirdParty.some((problem) => problem.endsWith('publisher: is required: only apps the runtime configuration loads as first-party may omit it; a third-party app is ext.{publisher}.{slug}')));
  t.true(asThirdParty.some((problem) => problem.includes('events[0].action: "core.notes.note.created": core.* events are emitted by first-party apps only')));
  const project = scratchProject(t);
  writeApp(path.join(project, 'claims'), { ...helloManifest(), first_party: true }, helloCode);
  t.deepEqual(await refusal(t, AppRegistry.load({ projectDir: project, configFile: false, apps: ['./claims'] })), ['claims/app.json: first_party: is not a manifest field']);
  const registry = await AppRegistry.load({ configFile: false, apps: [{ dir: NOTES_DIR, firstParty: true }] });
  t.deepEqual(registry.list().map((app) => [app.namespace, app.firstParty, app.schema, app.routePrefix]), [['notes', true, 'app_notes', '']]);
  // A directory holding a package of the kit's own @wpk/ scope is first-party, like an installed one.
  const kit = path.join(project, 'kit');
  fs.cpSync(NOTES_DIR, kit, { recursive: true });
  fs.writeFileSync(path.join(kit, 'package.json'), JSON.stringify({ name: '@wpk/app-notes', type: 'module' }));
  const fromDir = await AppRegistry.load({ projectDir: project, configFile: false, apps: ['./kit'] });
  t.true(fromDir.get('notes')!.firstParty);
});

test("the code's routes, checks and subscriptions must match the manifest", async (t) => {
  const manifest = { ...helloManifest(), authorization: [{ method: 'GET', path: '/greetings', chain: ['ext.acme.hello.greetings.read', { check: 'is_friend' }] }] };
  const app = defineApp(manifest, {
    routes: [defineRoute({ method: 'GET', path: '/greetings', chain: ['ext.acme.hello.greetings.read', { check: 'is_friend' }], handler: () => null }), definePublicRoute({ method: 'GET', path: '/hello', handler: () => null })],
    subscriptions: { 'system.app.installed': () => {} },
  });
  t.deepEqual(await refusal(t, AppRegistry.load({ configFile: false, apps: [{ app }] })), [
    'app hello (defineApp manifest): authorization[0].chain[1].check: "is_friend" is not a check of the app\'s code (checks: none)',
    'app hello (defineApp manifest): authorization: has no entry for GET /hello, a route of the app\'s code; add one with a chain, or "public": true',
    'app hello (defineApp manifest): subscriptions: has no entry for "system.app.installed", which the app\'s code handles',
  ]);
});

test("a route's chain is written in the code; an app.json whose table differs is stale and refused, naming the route", async (t) => {
  const manifest = { ...helloManifest(), authorization: [{ method: 'GET', path: '/greetings', chain: ['ext.acme.hello.greetings.read'] }] };
  const app = defineApp(manifest, { routes: [defineRoute({ method: 'GET', path: '/greetings', chain: ['ext.acme.hello.greetings.send'], handler: () => null })] });
  t.deepEqual(await refusal(t, AppRegistry.load({ configFile: false, apps: [{ app }] })), [
    'app hello (defineApp manifest): authorization[0].chain: GET /greetings differs from the chain its code route declares (["ext.acme.hello.greetings.send"]); app.json is stale: run wpk manifest',
  ]);
  t.deepEqual(authorizationTable(app), [{ method: 'GET', path: '/greetings', chain: ['ext.acme.hello.greetings.send'] }], 'what wpk manifest writes');
});

test('the manifest file and the code must name the same app', async (t) => {
  const project = scratchProject(t);
  writeApp(path.join(project, 'hello'), { ...helloManifest(), slug: 'howdy', permissions: [{ key: 'ext.acme.howdy.greetings.read', label: 'x', category: 'x' }], authorization: [{ method: 'GET', path: '/greetings', chain: ['ext.acme.howdy.greetings.read'] }] }, helloCode.replace("'../app.json'", "'./hello.json'"));
  fs.writeFileSync(path.join(project, 'hello', 'src', 'hello.json'), JSON.stringify(helloManifest()));
  t.deepEqual(await refusal(t, AppRegistry.load({ projectDir: project, configFile: false, apps: ['./hello'] })), ['hello/app.json: slug: the app\'s code declares ext.acme.hello (defineApp) but the manifest says ext.acme.howdy']);
});

test('missing packages, directories, entry modules and duplicate apps are refused', async (t) => {
  const project = scratchProject(t);
  writeApp(path.join(project, 'manifest-only'), helloManifest());
  fs.mkdirSync(path.join(project, 'broken'));
  fs.writeFileSync(path.join(project, 'broken', 'app.json'), '{ "slug": ');
  writeApp(path.join(project, 'not-an-app'), helloManifest(), 'export default { hello: true };\n');
  const problems = await refusal(t, AppRegistry.load({ projectDir: project, configFile: false, apps: ['@acme/missing-app', './nowhere', './manifest-only', './broken', './not-an-app', { dir: VAULT_DIR }, { dir: VAULT_DIR }] }));
  t.is(problems.length, 6);
  t.is(problems[0], `apps: package @acme/missing-app is not installed (looked in node_modules from ${project})`);
  t.is(problems[1], 'apps: directory nowhere does not exist');
  t.is(problems[2], 'manifest-only: no entry module (package.json exports or main, or src/index.ts) and no address: an app is either code or a remote address');
  t.regex(problems[3], /^broken\/app\.json: is not valid JSON: /);
  t.is(problems[4], 'not-an-app/src/index.ts: the default export must be defineApp(manifest, { ... }) from @wpk/sdk');
  t.regex(problems[5], /app\.json: slug: app ext\.acme\.vault is already loaded from .*vault\/app\.json$/);
});

test('a first-party slug may not name part of the platform', async (t) => {
  const app = defineApp({ slug: 'account', name: 'A', version: '1.0.0', permissions: [], authorization: [] }, {});
  t.deepEqual(await refusal(t, AppRegistry.load({ configFile: false, apps: [{ app, firstParty: true }] })), ['app account (defineApp manifest): slug: "account" is reserved for the platform']);
});

test('wpk.config.json names apps by package, directory or remote manifest; relative to the file', async (t) => {
  const project = scratchProject(t);
  const pkg = path.join(project, 'node_modules', '@acme', 'hello-app');
  writeApp(pkg, helloManifest(), helloCode);
  fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: '@acme/hello-app', type: 'module', exports: { '.': './src/index.ts' } }));
  fs.mkdirSync(path.join(project, 'remote'));
  fs.writeFileSync(
    path.join(project, 'remote', 'app.json'),
    JSON.stringify({ slug: 'relay', publisher: 'acme', name: 'Relay', version: '1.0.0', address: 'https://relay.acme.example', permissions: [], authorization: [], subscriptions: [{ action: 'system.app.installed', handler: '/events/installed' }] }),
  );
  fs.writeFileSync(path.join(project, 'wpk.config.json'), JSON.stringify({ apps: ['@acme/hello-app', { dir: NOTES_DIR, firstParty: true }, { manifest: './remote/app.json' }], strictAppRoles: false }));
  const config = await readProjectConfig(project);
  t.is(config.file, path.join(project, 'wpk.config.json'));
  const registry = await AppRegistry.load({ projectDir: project });
  t.deepEqual(
    registry.list().map((app) => ({ namespace: app.namespace, firstParty: app.firstParty, code: app.definition !== null, address: app.address })),
    [
      { namespace: 'ext.acme.hello', firstParty: false, code: true, address: null },
      { namespace: 'notes', firstParty: true, code: true, address: null },
      { namespace: 'ext.acme.relay', firstParty: false, code: false, address: 'https://relay.acme.example' },
    ],
  );
  t.deepEqual(registry.participants().find((participant) => participant.slug === 'ext.acme.relay')?.subscriptions, [{ action: 'system.app.installed', handler: '/events/installed', max_retries: 3 }]);
  t.false(registry.strict);
});

test('a malformed wpk.config is refused, naming the file and field', async (t) => {
  const project = scratchProject(t);
  fs.writeFileSync(path.join(project, 'wpk.config.json'), JSON.stringify({ apps: [{ dir: './a', address: 'x' }, 5, { package: 'p', firstParty: 'yes' }], strict: true }));
  t.deepEqual(await refusal(t, AppRegistry.load({ projectDir: project })), [
    'wpk.config.json: strict: is not a wpk.config field (apps, strictAppRoles)',
    'wpk.config.json: apps[0]: has unknown field address',
    'wpk.config.json: apps[1]: must be a package name, a directory, or an object {package}, {dir}, {manifest, address} or {app}',
    'wpk.config.json: apps[2]: firstParty must be true or false',
  ]);
});

let env: AppsTestRuntime;
test.before(async () => {
  env = await startAppsRuntime();
});
test.after.always(async () => {
  await env?.close();
  fs.rmSync(path.join(FIXTURES, '.scratch'), { recursive: true, force: true });
});

test.serial('each app gets its own schema with its own migration table', async (t) => {
  t.deepEqual(env.runtime.migrationSets().map((set) => set.schema), ['platform', 'app_notes', 'ext_acme_vault']);
  const tables = await env.runtime.db.sequelize.query<{ schema: string; name: string }>(
    "SELECT table_schema AS schema, table_name AS name FROM information_schema.tables WHERE table_schema IN ('app_notes', 'ext_acme_vault') ORDER BY 1, 2",
    { type: QueryTypes.SELECT },
  );
  t.deepEqual(tables, [
    { schema: 'app_notes', name: 'migrations' },
    { schema: 'app_notes', name: 'notes' },
    { schema: 'ext_acme_vault', name: 'migrations' },
    { schema: 'ext_acme_vault', name: 'secrets' },
  ]);
  const applied = await env.runtime.db.sequelize.query<{ name: string }>('SELECT name FROM app_notes.migrations', { type: QueryTypes.SELECT });
  t.deepEqual(applied.map((row) => row.name), ['0001-create-notes']);
  t.deepEqual(await env.runtime.migrate(), { platform: [], app_notes: [], ext_acme_vault: [] }, 'a second run applies nothing');
});

test.serial("an app's migrations go down and up again on seeded rows", async (t) => {
  const ws = await TestWorkspace.create(env, 'migrations');
  await ws.install('ext.acme.vault');
  const set = env.runtime.migrationSets().find((candidate) => candidate.schema === 'app_notes')!;
  await ws.install('notes', { access_policy: 'everyone' });
  await env.runtime.server.inject({ method: 'POST', url: '/notes', headers: { ...ws.owner.headers(), 'content-type': 'application/json' }, payload: { title: 'seed' } });
  t.deepEqual(await migrateDown(env.runtime.db.sequelize, set), ['0001-create-notes']);
  const gone = await env.runtime.db.sequelize.query("SELECT 1 FROM information_schema.tables WHERE table_schema = 'app_notes' AND table_name = 'notes'", { type: QueryTypes.SELECT });
  t.is(gone.length, 0);
  t.deepEqual((await env.runtime.migrate()).app_notes, ['0001-create-notes']);
  const response = await env.runtime.server.inject({ method: 'GET', url: '/notes', headers: ws.owner.headers() });
  t.deepEqual(body(response).data, []);
});
