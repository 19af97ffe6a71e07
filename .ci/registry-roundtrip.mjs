#!/usr/bin/env node
// The self-hoster's path against a real npm registry: starts verdaccio (installed from npm into a
// temp dir, not a dependency of the repo) on loopback, builds and publishes every public package of
// the kit to it, then, in a temp dir outside the repo, does what the README's self-host section
// says: create a project, install it, add @wpk/app-tasks, `wpk dev`, GET /health, create a board
// with the printed key, `wpk new app` inside the project and run its tests. Exits 1 on the first
// step that fails, printing that step's output. Third-party dependencies (hapi, pg-boss, ...) come
// through verdaccio's uplink to the registry this machine's npm uses.
//
// Usage: node .ci/registry-roundtrip.mjs [--keep <dir>] [--no-build] [--smoke-node <major>]
// (--keep leaves the installed project in <dir> for bench/cli-speed.mjs; --no-build publishes the
// dist folders as they are; --smoke-node repeats a fast smoke of the project on another Node)
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

/** Runs a command to completion; its output goes to a log printed only when it fails. */
function run(command, args, { cwd = tmp, env = baseEnv } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
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

/** The kit's public packages: every workspace package under packages/, plugins/ and cli that is not private. */
function publicPackages() {
  const dirs = ['cli', ...['packages', 'plugins'].flatMap((parent) => fs.readdirSync(path.join(repo, parent)).map((name) => `${parent}/${name}`))];
  return dirs.filter((dir) => {
    const file = path.join(repo, dir, 'package.json');
    return fs.existsSync(file) && JSON.parse(fs.readFileSync(file, 'utf8')).private !== true;
  });
}

console.log(`registry round trip on node ${process.version} in ${tmp}`);
const upstream = execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8', env: baseEnv }).trim();

const registry = await step(`start verdaccio ${VERDACCIO_VERSION} on loopback (uplink ${upstream})`, async () => {
  // verdaccio-audit asks for node-fetch by the dist-tag "cjs", which not every registry mirror
  // carries: pin what that tag names (2.7.0).
  fs.mkdirSync(path.join(tmp, 'verdaccio'));
  fs.writeFileSync(path.join(tmp, 'verdaccio', 'package.json'), JSON.stringify({ private: true, dependencies: { verdaccio: VERDACCIO_VERSION }, overrides: { 'node-fetch@cjs': '2.7.0' } }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: path.join(tmp, 'verdaccio') });
  const port = await freePort();
  const config = path.join(tmp, 'verdaccio.yaml');
  // @wpk/* is served from this registry only (never proxied), everything else through the uplink.
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
  return url;
});

const packages = publicPackages();
if (process.argv.includes('--no-build')) console.log('-- build: skipped (--no-build: the dist folders are current)');
else await step(`build ${packages.length} packages`, () => run('npx', ['--yes', PNPM, '-r', ...packages.flatMap((dir) => ['--filter', `./${dir}`]), 'run', 'build'], { cwd: repo }));

await step('publish them', async () => {
  const tarballs = path.join(tmp, 'tarballs');
  // pnpm pack resolves workspace:* to the version and applies publishConfig (exports, bin: dist).
  await run('npx', ['--yes', PNPM, '-r', ...packages.flatMap((dir) => ['--filter', `./${dir}`]), 'pack', '--pack-destination', tarballs], { cwd: repo });
  const env = { ...baseEnv, npm_config_userconfig: path.join(tmp, 'publisher.npmrc') };
  const files = fs.readdirSync(tarballs);
  expect(files.length === packages.length, `packed ${files.join(', ')} for ${packages.length} packages`);
  await Promise.all(files.map((file) => run('npm', ['publish', path.join(tarballs, file), '--registry', registry, '--loglevel=error'], { env })));
  const published = await (await fetch(`${registry}@wpk%2fcli`)).json();
  expect(published['dist-tags']?.latest === '0.1.0', `@wpk/cli is not on the registry: ${JSON.stringify(published).slice(0, 200)}`);
});

// The user's machine: a directory outside the repo, npm pointed at the registry, nothing of the repo on PATH.
const home = path.join(tmp, 'home');
fs.mkdirSync(home);
const userEnv = { ...baseEnv, npm_config_userconfig: path.join(tmp, 'user.npmrc'), npm_config_registry: registry, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', WPK_LOG_LEVEL: 'warn' };
delete userEnv.DATABASE_URL;
delete userEnv.NODE_OPTIONS;
const project = path.join(home, 'acme');

// npx keeps the packages it ran in the npm cache by package name: drop any @wpk/cli from an earlier round trip.
const npxCache = path.join(execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8', env: baseEnv }).trim(), '_npx');
for (const entry of fs.existsSync(npxCache) ? fs.readdirSync(npxCache) : []) {
  const manifest = path.join(npxCache, entry, 'package.json');
  if (fs.existsSync(manifest) && fs.readFileSync(manifest, 'utf8').includes('"@wpk/cli"')) fs.rmSync(path.join(npxCache, entry), { recursive: true, force: true });
}

await step('README: npx --yes @wpk/cli new project acme && cd acme && npm install', async () => {
  const created = await run('npx', ['--yes', '@wpk/cli', 'new', 'project', 'acme'], { cwd: home, env: userEnv });
  expect(created.includes('created project acme'), `unexpected output: ${created}`);
  await run('npm', ['install'], { cwd: project, env: userEnv });
  const version = (await run('npx', ['wpk', '--version'], { cwd: project, env: userEnv })).trim();
  expect(version === '0.1.0', `wpk --version printed ${version}`);
  const bin = fs.readFileSync(path.join(project, 'node_modules', '@wpk', 'cli', 'dist', 'bin.js'), 'utf8').split('\n')[0];
  expect(bin === '#!/usr/bin/env node', `the installed bin starts ${bin}`);
  expect(!fs.existsSync(path.join(project, 'node_modules', 'tsx')), 'tsx was installed with @wpk/cli');
});

await step('README: npx wpk add app @wpk/app-tasks', async () => {
  const added = await run('npx', ['wpk', 'add', 'app', '@wpk/app-tasks'], { cwd: project, env: userEnv });
  expect(added.includes('added @wpk/app-tasks (tasks) to wpk.config.json'), `unexpected output: ${added}`);
  const config = JSON.parse(fs.readFileSync(path.join(project, 'wpk.config.json'), 'utf8'));
  expect(JSON.stringify(config) === JSON.stringify({ apps: ['@wpk/app-tasks'] }), `wpk.config.json is ${JSON.stringify(config)}`);
});

await step('README: npx wpk dev -> GET /health 200, GET /login, POST /boards with the printed key', async () => {
  const port = await freePort();
  const dev = await startUntil('npx', ['wpk', 'dev', '--port', String(port)], /demo owner's API key: (slk_\S+)/, { cwd: project, env: userEnv });
  try {
    const key = /demo owner's API key: (slk_\S+)/.exec(dev.output())[1];
    const health = await request(port, 'GET', '/health', {});
    expect(health.status === 200 && health.body.status === 'ok', `GET /health answered ${health.status} ${JSON.stringify(health.body)}`);
    // A server-rendered page: its templates ship in @wpk/core's web/ folder.
    const login = await request(port, 'GET', '/login', { host: 'demo.localhost' });
    expect(login.status === 200 && /<form/.test(login.body), `GET /login answered ${login.status} ${String(login.body).slice(0, 300)}`);
    const headers = { host: 'demo.localhost', 'x-api-version': '2026-11-01', authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = await request(port, 'POST', '/boards', headers, { title: 'Ship the kit' });
    expect(created.status === 200 && created.body.data?.title === 'Ship the kit', `POST /boards answered ${created.status} ${JSON.stringify(created.body)}`);
    const listed = await request(port, 'GET', '/boards', headers);
    expect(listed.status === 200 && listed.body.data?.map((board) => board.title).join() === 'Ship the kit', `GET /boards answered ${listed.status} ${JSON.stringify(listed.body)}`);
  } finally {
    await stop(dev.child);
  }
});

await step('README: npx wpk new app hello --publisher acme --dir apps/hello, npm install, npm test (and validate, typecheck) -w apps/hello', async () => {
  await run('npx', ['wpk', 'new', 'app', 'hello', '--publisher', 'acme', '--dir', 'apps/hello'], { cwd: project, env: userEnv });
  const pkg = JSON.parse(fs.readFileSync(path.join(project, 'apps', 'hello', 'package.json'), 'utf8'));
  expect(pkg.dependencies['@wpk/sdk'] === '^0.1.0', `the app depends on @wpk/sdk ${pkg.dependencies['@wpk/sdk']}`);
  await run('npm', ['install'], { cwd: project, env: userEnv });
  const tested = await run('npm', ['test', '-w', 'apps/hello'], { cwd: project, env: userEnv });
  expect(/8 tests passed/.test(tested), `the app's tests: ${tested}`);
  // Its own scripts run the wpk of its @wpk/cli devDependency: the manifest against the code, then the typed contract.
  const appValidated = await run('npm', ['run', 'validate', '-w', 'apps/hello'], { cwd: project, env: userEnv });
  expect(appValidated.includes('ok app.json: ext.acme.hello 0.1.0'), `npm run validate: ${appValidated}`);
  const typechecked = await run('npm', ['run', 'typecheck', '-w', 'apps/hello'], { cwd: project, env: userEnv });
  expect(typechecked.includes('src/app.types.ts is up to date'), `npm run typecheck: ${typechecked}`);
  // The published CLI (plain JS) loads the TypeScript app through the tsx the app brought.
  fs.writeFileSync(path.join(project, 'wpk.config.json'), `${JSON.stringify({ apps: ['@wpk/app-tasks', './apps/hello'] }, null, 2)}\n`);
  const validated = await run('npx', ['wpk', 'validate', '.'], { cwd: project, env: userEnv });
  expect(validated.includes('ok apps/hello/app.json: ext.acme.hello 0.1.0'), `wpk validate: ${validated}`);
});

// --smoke-node <major>: the installed project again under another Node: --version, wpk dev to a
// 200 on /health, and the app's tests.
const smokeIndex = process.argv.indexOf('--smoke-node');
if (smokeIndex > 0) {
  const major = process.argv[smokeIndex + 1];
  await step(`smoke on Node ${major}: wpk --version, wpk dev -> /health 200, npm test -w apps/hello`, async () => {
    const node = (await run('npx', ['--yes', '-p', `node@${major}`, 'node', '-p', 'process.execPath'])).trim().split('\n').pop();
    const env = { ...userEnv, PATH: `${path.dirname(node)}${path.delimiter}${userEnv.PATH}` };
    const bin = path.join(project, 'node_modules', '@wpk', 'cli', 'dist', 'bin.js');
    const version = (await run(node, [bin, '--version'], { cwd: project, env })).trim();
    expect(version === '0.1.0', `wpk --version printed ${version}`);
    const port = await freePort();
    const dev = await startUntil(node, [bin, 'dev', '--port', String(port), '--data-dir', path.join(tmp, `dev-node-${major}`)], /listening on/, { cwd: project, env });
    try {
      const health = await request(port, 'GET', '/health', {});
      expect(health.status === 200, `GET /health answered ${health.status} on Node ${major}`);
    } finally {
      await stop(dev.child);
    }
    const tested = await run('npm', ['test', '-w', 'apps/hello'], { cwd: project, env });
    expect(/8 tests passed/.test(tested), `the app's tests on Node ${major}: ${tested}`);
  });
}

if (keep) {
  fs.rmSync(keep, { recursive: true, force: true });
  fs.cpSync(project, keep, { recursive: true, verbatimSymlinks: true });
  console.log(`kept the project in ${keep}`);
}
console.log(`registry round trip passed in ${seconds(started)} s`);
// verdaccio is still a child: exit (which stops it and removes the temp dir) instead of waiting on it.
process.exit(0);
