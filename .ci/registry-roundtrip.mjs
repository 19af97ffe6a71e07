#!/usr/bin/env node
// The self-hoster's two paths, from one build: `pnpm release` builds and packs every public package
// of the kit into a bundle folder (its steps printed as they finish), then
//  - the registry path (the README's "once published"): verdaccio (installed from npm into a temp
//    dir, started while the build runs) serves the bundle's tarballs; in a temp dir outside the repo
//    `npx @wpk/cli new project acme`, npm install, `wpk add app @wpk/app-tasks`, `wpk dev`, GET
//    /health and /login, a board made with the key `wpk dev` printed;
//  - the bundle path (the README's "now"): `pnpm wpk new project --bundle` from the clone, npm
//    install with the machine's own registry (no @wpk package may come from one), `wpk add app`,
//    `wpk dev` (and, with --smoke-node, again on that Node: the key it prints is the same after the
//    restart), `wpk new app` inside the project and its tests, validate and typecheck;
// then, with verdaccio gone, the bundle project installs again from its lockfile (`npm ci`). Each
// command the README's Self-host section shows is checked to be there. Exits 1 on the first step
// that fails, printing that step's output. Third-party dependencies (hapi, pg-boss, ...) come from
// the registry this machine's npm uses (through verdaccio's uplink on the registry path).
//
// Usage: node .ci/registry-roundtrip.mjs [--keep <dir>] [--no-build] [--smoke-node <major>] [--refuse-node <major>]
// (--keep leaves the bundle project in <dir> for bench/cli-speed.mjs; --no-build packs the dist
// folders as they are; --smoke-node repeats a fast smoke of the project on another Node;
// --refuse-node checks the installed CLI refuses an unsupported Node in one line)
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const VERDACCIO_VERSION = '6.10.4';
const PNPM = 'pnpm@12.21.0';
const repo = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const keepIndex = process.argv.indexOf('--keep');
const keep = keepIndex > 0 ? path.resolve(process.argv[keepIndex + 1]) : null;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-roundtrip-'));
const started = Date.now();
const children = new Set();
// Without what an outer npm or npx passed down (`npx -p node@22 node ...` sets npm_config_package,
// which would make every inner npx run node): each command here sees a plain environment.
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1);

function cleanup() {
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL'); // not a group leader
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.on('exit', cleanup);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

/** Runs a command to completion; its output goes to a log printed only when it fails (and line by line to `onLine`). */
function run(command, args, { cwd = tmp, env = baseEnv, onLine } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let output = '';
    let partial = '';
    const take = (chunk) => {
      output += chunk;
      if (!onLine) return;
      const lines = (partial + chunk).split('\n');
      partial = lines.pop();
      lines.forEach(onLine);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', reject);
    child.on('exit', (code) => {
      children.delete(child);
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(' ')} (in ${cwd}) exited ${code}:\n${output}`));
    });
  });
}

/** Starts a long-running command and resolves once a line of its stdout matches `ready`. */
function startUntil(command, args, ready, { cwd, env, timeoutMs = 120_000 }) {
  return new Promise((resolve, reject) => {
    // Its own process group: npx does not pass SIGTERM on to the server it started.
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.add(child);
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${command} ${args.join(' ')}: not ready after ${timeoutMs / 1000} s:\n${output}`)), timeoutMs);
    const check = () => {
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    };
    child.stdout.on('data', (chunk) => ((output += chunk), check()));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => {
      children.delete(child);
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited ${code} before it was ready:\n${output}`));
    });
  });
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.on('exit', () => (children.delete(child), resolve()));
    process.kill(-child.pid, 'SIGTERM');
  });
}

/** An HTTP request with a Host header of its own (fetch ignores one), as curl -H 'Host: ...' sends it. */
function request(port, method, pathname, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: pathname, headers }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode, body: /json/.test(response.headers['content-type'] ?? '') ? JSON.parse(text) : text }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function step(name, work) {
  const since = Date.now();
  process.stdout.write(`-- ${name} ... `);
  try {
    const result = await work();
    console.log(`${seconds(since)} s`);
    return result;
  } catch (error) {
    console.log('FAILED');
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

/** The commands of the README's Self-host section, one per line (comments and continuations folded), and its inline code. */
function readmeSelfHost() {
  const readme = fs.readFileSync(path.join(repo, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Self-host'), readme.indexOf('\n## ', readme.indexOf('\n## Self-host') + 1));
  const blocks = [...section.matchAll(/```sh\n([^]*?)```/g)].map((match) => match[1]);
  // And the commands written inline (`npx wpk validate .`).
  const inline = [...section.replace(/```[^]*?```/g, '').matchAll(/`([^`\n]+)`/g)].map((match) => match[1]);
  return [...blocks, ...inline].join('\n').replace(/\\\n\s*/g, '').split('\n').map((line) => line.replace(/\s+#.*$/, '').replace(/\s+/g, ' ').trim()).filter(Boolean);
}
const documented = readmeSelfHost();
/** Fails unless the README's Self-host section shows `command` (so what CI runs is what the README says). */
function inReadme(command) {
  expect(documented.some((line) => line.includes(command)), `the README's Self-host section does not show "${command}" (it shows:\n${documented.join('\n')})`);
}

/** The API key in the box `wpk dev` ends with. */
const KEY = /API key\s+(slk_[A-Za-z0-9]+)/;

/** Checks a running `wpk dev` on `port` as the README's curl lines do: /health, a page, a board made and listed with `key`. */
async function checkDev(port, key) {
  const health = await request(port, 'GET', '/health', {});
  expect(health.status === 200 && health.body.status === 'ok', `GET /health answered ${health.status} ${JSON.stringify(health.body)}`);
  // A server-rendered page: its templates ship in @wpk/core's web/ folder.
  const login = await request(port, 'GET', '/login', { host: 'demo.localhost' });
  expect(login.status === 200 && /<form/.test(login.body), `GET /login answered ${login.status} ${String(login.body).slice(0, 300)}`);
  const headers = { host: 'demo.localhost', 'x-api-version': '2026-11-01', authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const created = await request(port, 'POST', '/boards', headers, { title: 'Ship the kit' });
  expect(created.status === 200 && created.body.data?.title === 'Ship the kit', `POST /boards answered ${created.status} ${JSON.stringify(created.body)}`);
  const listed = await request(port, 'GET', '/boards', headers);
  expect(listed.status === 200 && listed.body.data?.some((board) => board.title === 'Ship the kit'), `GET /boards answered ${listed.status} ${JSON.stringify(listed.body)}`);
}

/** Starts verdaccio on loopback: @wpk/* from its own storage only (never proxied), everything else through an uplink to `upstream`. */
async function startVerdaccio(upstream) {
  // verdaccio-audit asks for node-fetch by the dist-tag "cjs", which not every registry mirror
  // carries: pin what that tag names (2.7.0).
  fs.mkdirSync(path.join(tmp, 'verdaccio'));
  fs.writeFileSync(path.join(tmp, 'verdaccio', 'package.json'), JSON.stringify({ private: true, dependencies: { verdaccio: VERDACCIO_VERSION }, overrides: { 'node-fetch@cjs': '2.7.0' } }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: path.join(tmp, 'verdaccio') });
  const port = await freePort();
  const config = path.join(tmp, 'verdaccio.yaml');
  fs.writeFileSync(
    config,
    [
      `storage: ${path.join(tmp, 'storage')}`,
      'auth:',
      '  htpasswd:',
      `    file: ${path.join(tmp, 'htpasswd')}`,
      'uplinks:',
      '  upstream:',
      `    url: ${upstream}`,
      '    timeout: 60s',
      'packages:',
      "  '@wpk/*':",
      '    access: $all',
      '    publish: $authenticated',
      "  '**':",
      '    access: $all',
      '    proxy: upstream',
      `listen: 127.0.0.1:${port}`,
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  const bin = path.join(tmp, 'verdaccio', 'node_modules', 'verdaccio', 'bin', 'verdaccio');
  const url = `http://127.0.0.1:${port}/`;
  const server = spawn(process.execPath, [bin, '--config', config], { cwd: tmp, stdio: 'ignore' });
  children.add(server);
  for (let attempt = 0; ; attempt++) {
    const ok = await fetch(`${url}-/ping`).then((response) => response.ok, () => false);
    if (ok) break;
    expect(attempt < 300 && server.exitCode === null, `verdaccio did not answer on ${url}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // A publisher account (verdaccio's htpasswd): its token signs the publishes.
  const response = await fetch(`${url}-/user/org.couchdb.user:ci`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'ci', password: 'ci-roundtrip-password' }) });
  const account = await response.text();
  expect(response.status === 201, `verdaccio refused the publisher account: ${response.status} ${account}`);
  const { token } = JSON.parse(account);
  const host = url.replace(/^http:/, '');
  fs.writeFileSync(path.join(tmp, 'publisher.npmrc'), `registry=${url}\n${host}:_authToken=${token}\n`);
  fs.writeFileSync(path.join(tmp, 'user.npmrc'), `registry=${url}\n`);
  return { url, server };
}

console.log(`registry round trip on node ${process.version} in ${tmp}`);
const upstream = execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8', env: baseEnv }).trim();
const bundle = path.join(tmp, 'bundle');

// One build for both paths; verdaccio installs and starts meanwhile.
const verdaccioStarted = Date.now();
const verdaccio = startVerdaccio(upstream).then((value) => ({ ...value, seconds: seconds(verdaccioStarted) }));
verdaccio.catch(() => {}); // awaited below; a failure is reported there
console.log(`-- pnpm release: build and pack every package into one bundle${process.argv.includes('--no-build') ? ' (--no-build)' : ''}`);
{
  const since = Date.now();
  try {
    await run('npx', ['--yes', 'tsx', 'cli/scripts/release.ts', '--out', bundle, ...(process.argv.includes('--no-build') ? ['--no-build'] : [])], { cwd: repo, onLine: (line) => console.log(`   ${line}`) });
  } catch (error) {
    console.log('-- pnpm release FAILED');
    console.error(error.message);
    process.exit(1);
  }
  console.log(`-- pnpm release: ${seconds(since)} s`);
}
process.stdout.write(`-- start verdaccio ${VERDACCIO_VERSION} on loopback (uplink ${upstream}), alongside the build ... `);
const registry = await verdaccio.catch((error) => {
  console.log('FAILED');
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
console.log(`ready after ${registry.seconds} s`);

await step('publish the bundle to verdaccio', async () => {
  const env = { ...baseEnv, npm_config_userconfig: path.join(tmp, 'publisher.npmrc') };
  const files = fs.readdirSync(bundle).filter((file) => file.endsWith('.tgz'));
  await Promise.all(files.map((file) => run('npm', ['publish', path.join(bundle, file), '--registry', registry.url, '--loglevel=error'], { env })));
  const published = await (await fetch(`${registry.url}@wpk%2fcli`)).json();
  expect(published['dist-tags']?.latest === '0.1.0', `@wpk/cli is not on the registry: ${JSON.stringify(published).slice(0, 200)}`);
});

// The user's machine: directories outside the repo, nothing of the repo on PATH.
const plainEnv = { ...baseEnv, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', WPK_LOG_LEVEL: 'warn' };
delete plainEnv.DATABASE_URL;
delete plainEnv.NODE_OPTIONS;
const registryEnv = { ...plainEnv, npm_config_userconfig: path.join(tmp, 'user.npmrc'), npm_config_registry: registry.url };

// npx keeps the packages it ran in the npm cache by package name: drop any @wpk/cli from an earlier round trip.
const npxCache = path.join(execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8', env: baseEnv }).trim(), '_npx');
for (const entry of fs.existsSync(npxCache) ? fs.readdirSync(npxCache) : []) {
  const manifest = path.join(npxCache, entry, 'package.json');
  if (fs.existsSync(manifest) && fs.readFileSync(manifest, 'utf8').includes('"@wpk/cli"')) fs.rmSync(path.join(npxCache, entry), { recursive: true, force: true });
}

// The registry path: what the README says works once the packages are published.
const registryHome = path.join(tmp, 'registry-home');
fs.mkdirSync(registryHome);
const registryProject = path.join(registryHome, 'acme');
await step('registry: npx --yes @wpk/cli new project acme && cd acme && npm install; npx wpk add app @wpk/app-tasks', async () => {
  inReadme('npx --yes @wpk/cli new project acme && cd acme && npm install');
  inReadme('npx wpk add app @wpk/app-tasks');
  const created = await run('npx', ['--yes', '@wpk/cli', 'new', 'project', 'acme'], { cwd: registryHome, env: registryEnv });
  expect(created.includes('created project acme'), `unexpected output: ${created}`);
  await run('npm', ['install'], { cwd: registryProject, env: registryEnv });
  const bin = fs.readFileSync(path.join(registryProject, 'node_modules', '@wpk', 'cli', 'dist', 'bin.js'), 'utf8').split('\n')[0];
  expect(bin === '#!/usr/bin/env node', `the installed bin starts ${bin}`);
  expect(!fs.existsSync(path.join(registryProject, 'node_modules', 'tsx')), 'tsx was installed with @wpk/cli');
  const added = await run('npx', ['wpk', 'add', 'app', '@wpk/app-tasks'], { cwd: registryProject, env: registryEnv });
  expect(added.includes('added @wpk/app-tasks (tasks) to wpk.config.json'), `unexpected output: ${added}`);
  const config = JSON.parse(fs.readFileSync(path.join(registryProject, 'wpk.config.json'), 'utf8'));
  expect(JSON.stringify(config) === JSON.stringify({ apps: ['@wpk/app-tasks'] }), `wpk.config.json is ${JSON.stringify(config)}`);
});

await step('registry: npx wpk dev -> GET /health 200, GET /login, POST /boards with the key of its box', async () => {
  inReadme('npx wpk dev');
  const port = await freePort();
  const dev = await startUntil('npx', ['wpk', 'dev', '--port', String(port)], KEY, { cwd: registryProject, env: registryEnv });
  try {
    await checkDev(port, KEY.exec(dev.output())[1]);
  } finally {
    await stop(dev.child);
  }
});

// The bundle path: what the README says works now, from a clone, with no registry for @wpk/*.
const bundleHome = path.join(tmp, 'bundle-home');
fs.mkdirSync(bundleHome);
const project = path.join(bundleHome, 'acme');
await step('bundle: pnpm wpk new project acme --bundle release (from the clone), npm install, npx wpk add app @wpk/app-tasks', async () => {
  inReadme('npx --yes pnpm@12.21.0 wpk new project ../acme --bundle release');
  inReadme('cd ../acme && npm install');
  const created = await run('npx', ['--yes', PNPM, 'wpk', 'new', 'project', project, '--bundle', bundle], { cwd: repo, env: plainEnv });
  expect(created.includes('created project acme') && created.includes('wpk-packages/'), `unexpected output: ${created}`);
  await run('npm', ['install'], { cwd: project, env: plainEnv });
  const added = await run('npx', ['wpk', 'add', 'app', '@wpk/app-tasks'], { cwd: project, env: plainEnv });
  expect(added.includes('installing @wpk/app-tasks from wpk-packages/wpk-app-tasks-0.1.0.tgz with npm') && added.includes('added @wpk/app-tasks (tasks) to wpk.config.json'), `unexpected output: ${added}`);
  // Every @wpk package came from the project's tarballs, none from a registry.
  const lock = JSON.parse(fs.readFileSync(path.join(project, 'package-lock.json'), 'utf8'));
  const fromRegistry = Object.entries(lock.packages).filter(([where, entry]) => /node_modules\/@wpk\//.test(where) && !String(entry.resolved ?? '').startsWith('file:wpk-packages/'));
  expect(fromRegistry.length === 0, `@wpk packages not from wpk-packages/: ${JSON.stringify(fromRegistry)}`);
});

// The first start of the bundle project keeps the demo key in .wpk/dev/dev-api-key; --smoke-node
// starts it again there and checks the same key still works.
let devKey;
await step('bundle: npx wpk dev -> GET /health, /login, POST /boards with the key of its box (kept in .wpk/dev/dev-api-key)', async () => {
  const port = await freePort();
  const dev = await startUntil('npx', ['wpk', 'dev', '--port', String(port)], KEY, { cwd: project, env: plainEnv });
  try {
    devKey = KEY.exec(dev.output())[1];
    expect(fs.readFileSync(path.join(project, '.wpk', 'dev', 'dev-api-key'), 'utf8') === `${devKey}\n`, 'the key of the box is not the one kept in .wpk/dev/dev-api-key');
    await checkDev(port, devKey);
  } finally {
    await stop(dev.child);
  }
});

await step('bundle: npx wpk new app hello --publisher acme --dir apps/hello, npm install, npm test (and validate, typecheck) -w apps/hello', async () => {
  inReadme('npx wpk new app hello --publisher acme --dir apps/hello');
  inReadme('npm install && npm test -w apps/hello');
  await run('npx', ['wpk', 'new', 'app', 'hello', '--publisher', 'acme', '--dir', 'apps/hello'], { cwd: project, env: plainEnv });
  const pkg = JSON.parse(fs.readFileSync(path.join(project, 'apps', 'hello', 'package.json'), 'utf8'));
  expect(pkg.dependencies['@wpk/sdk'] === '^0.1.0', `the app depends on @wpk/sdk ${pkg.dependencies['@wpk/sdk']}`);
  await run('npm', ['install'], { cwd: project, env: plainEnv });
  const tested = await run('npm', ['test', '-w', 'apps/hello'], { cwd: project, env: plainEnv });
  expect(/\b13 tests passed/.test(tested), `the app's tests: ${tested}`);
  // Its own scripts run the wpk of its @wpk/cli devDependency: the manifest against the code, then the typed contract.
  const appValidated = await run('npm', ['run', 'validate', '-w', 'apps/hello'], { cwd: project, env: plainEnv });
  expect(appValidated.includes('ok app.json: ext.acme.hello 0.1.0'), `npm run validate: ${appValidated}`);
  const typechecked = await run('npm', ['run', 'typecheck', '-w', 'apps/hello'], { cwd: project, env: plainEnv });
  expect(typechecked.includes('src/app.types.ts is up to date'), `npm run typecheck: ${typechecked}`);
  // The published CLI (plain JS) loads the TypeScript app through the tsx the app brought.
  fs.writeFileSync(path.join(project, 'wpk.config.json'), `${JSON.stringify({ apps: ['@wpk/app-tasks', './apps/hello'] }, null, 2)}\n`);
  inReadme('npx wpk validate .');
  const validated = await run('npx', ['wpk', 'validate', '.'], { cwd: project, env: plainEnv });
  expect(validated.includes('ok apps/hello/app.json: ext.acme.hello 0.1.0'), `wpk validate: ${validated}`);
});

// --smoke-node <major>: the installed project again under another Node: --version, wpk dev to a
// 200 on /health, and the app's tests.
const nodeOf = async (major) => (await run('npx', ['--yes', '-p', `node@${major}`, 'node', '-p', 'process.execPath'])).trim().split('\n').pop();
const bin = path.join(project, 'node_modules', '@wpk', 'cli', 'dist', 'bin.js');
const smokeIndex = process.argv.indexOf('--smoke-node');
if (smokeIndex > 0) {
  const major = process.argv[smokeIndex + 1];
  await step(`smoke on Node ${major}: wpk --version, wpk dev again (the same key works), npm test -w apps/hello`, async () => {
    const node = await nodeOf(major);
    const env = { ...plainEnv, PATH: `${path.dirname(node)}${path.delimiter}${plainEnv.PATH}` };
    const version = (await run(node, [bin, '--version'], { cwd: project, env })).trim();
    expect(version === '0.1.0', `wpk --version printed ${version}`);
    const port = await freePort();
    const dev = await startUntil(node, [bin, 'dev', '--port', String(port)], KEY, { cwd: project, env });
    try {
      const key = KEY.exec(dev.output())[1];
      expect(key === devKey, `the key changed at the restart: ${devKey} then ${key}`);
      await checkDev(port, key);
    } finally {
      await stop(dev.child);
    }
    const tested = await run('npm', ['test', '-w', 'apps/hello'], { cwd: project, env });
    expect(/\b13 tests passed/.test(tested), `the app's tests on Node ${major}: ${tested}`);
  });
}

// --refuse-node <major>: the installed CLI on an unsupported Node says so in one line, and nothing else.
const refuseIndex = process.argv.indexOf('--refuse-node');
if (refuseIndex > 0) {
  const major = process.argv[refuseIndex + 1];
  await step(`Node ${major}: the installed wpk dev refuses in one line`, async () => {
    const node = await nodeOf(major);
    const version = (await run(node, ['-p', 'process.versions.node'])).trim();
    const refused = await run(node, [bin, 'dev'], { cwd: project, env: plainEnv }).then(
      (output) => `exited 0: ${output}`,
      (error) => error.message.slice(error.message.indexOf('exited')),
    );
    const expected = `exited 1:\nwpk needs Node.js 22.12 or newer; this is ${version}\n`;
    expect(refused === expected, `expected ${JSON.stringify(expected)}, got ${JSON.stringify(refused)}`);
  });
}

await step('the registry gone: the bundle project installs again from its lockfile (npm ci)', async () => {
  const { server } = await verdaccio;
  await new Promise((resolve) => {
    if (server.exitCode !== null) return resolve();
    server.on('exit', resolve);
    server.kill('SIGTERM');
  });
  const lock = fs.readFileSync(path.join(project, 'package-lock.json'), 'utf8');
  expect(!lock.includes('127.0.0.1'), 'the lockfile names a loopback registry');
  fs.rmSync(path.join(project, 'node_modules'), { recursive: true, force: true });
  // Plain `npm ci`, as the README says. Where npm is set to leave registry addresses out of
  // lockfiles (omit-lockfile-registry-resolved, as on CI's machines), npm ci resolves each
  // third-party version again from the registry's package document; --prefer-offline once made it
  // read a stale cached document that predates a version the lockfile pins (@hapi/wreck 18.1.3),
  // and the install failed with ETARGET although the registry had it.
  await run('npm', ['ci'], { cwd: project, env: plainEnv });
  const version = (await run('npx', ['wpk', '--version'], { cwd: project, env: plainEnv })).trim();
  expect(version === '0.1.0', `wpk --version printed ${version} after npm ci`);
});

if (keep) {
  fs.rmSync(keep, { recursive: true, force: true });
  fs.cpSync(project, keep, { recursive: true, verbatimSymlinks: true });
  console.log(`kept the bundle project in ${keep} (it installs again with npm ci: its @wpk packages are in wpk-packages/)`);
}
console.log(`registry round trip passed in ${seconds(started)} s`);
// Anything still running is a child: exit (which stops it and removes the temp dir) instead of waiting on it.
process.exit(0);
