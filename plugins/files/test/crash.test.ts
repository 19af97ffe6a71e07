/**
 * Offboarding survives a crash: a server process (`wpk start`, the app loaded, on the same
 * PostgreSQL database as this test's platform) is killed while it is inside the transfer's
 * transaction (held at its last table by a row lock this test takes), and nothing of the transfer
 * stays. Retried, it moves everything once; retried again, it moves nothing and emits nothing.
 * PostgreSQL only: the embedded database belongs to one process.
 */
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesWorld, type Caller, type World } from './helpers/world.js';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL);
const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const CLI = path.join(path.dirname(createRequire(import.meta.url).resolve('@wpk/cli')), 'bin.ts');
// The child runs in a directory of its own (no wpk.config.json): the repository's TypeScript loader by its resolved address.
const tsHooks = import.meta.resolve('@wpk/ts-hooks');

let world: World;
let leaver: Caller;
let heir: Caller;
let child: ChildProcess | undefined;
let cwd: string | undefined;

test.before(async () => {
  if (!onPostgres) return;
  world = await filesWorld('crash');
  leaver = await world.member();
  heir = await world.member();
});

test.after.always(async () => {
  child?.kill('SIGKILL');
  await world?.close();
  if (cwd) await rm(cwd, { recursive: true, force: true });
});

/** Starts `wpk start` on the platform's database; resolves with its URL once it listens. */
async function startServer(): Promise<{ url: string; exited: Promise<void> }> {
  cwd = await mkdtemp(path.join(os.tmpdir(), 'wpk-files-crash-'));
  const config = world.platform.runtime.config;
  const server = spawn(process.execPath, [`--import=${tsHooks}`, CLI, 'start', '--port', '0', '--no-migrate', '--data-dir', world.platform.dataDir, '--app', APP_DIR], {
    cwd,
    env: { ...process.env, DATABASE_URL: config.databaseUrl!, BASE_DOMAIN: config.baseDomain, WPK_BROKER: 'external', WPK_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = server;
  let output = '';
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`wpk start not listening after 30 s: ${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    server.stdout!.on('data', read);
    server.stderr!.on('data', read);
    server.once('exit', (code) => reject(new Error(`wpk start exited with ${code}: ${output}`)));
  });
  return { url, exited };
}

async function until(what: string, check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const count = async (sql: string, replacements: Record<string, unknown> = {}) => Number((await world.query<{ n: string }>(sql, replacements))[0].n);

test('a transfer killed mid-way leaves nothing; retried it moves everything once; retried again it moves nothing', async (t) => {
  if (!onPostgres) {
    t.pass('PostgreSQL only (set TEST_DATABASE_URL)');
    return;
  }
  for (let i = 0; i < 5; i += 1) {
    const folder = (await leaver.post('/folders', { name: `Folder ${i}` })).body.data;
    await world.upload(leaver, { name: `file-${i}.txt`, folder_id: folder.id }, `content ${i}`, 'text/plain');
  }
  await leaver.post('/folders', { name: 'Shared name' });
  await heir.post('/folders', { name: 'Shared name' });
  await world.upload(heir, { name: 'mine.txt' }, 'heir', 'text/plain');
  const key = await world.owner.apiKey();
  const ws = { workspace_id: world.workspaceId, from: leaver.id, to: heir.id };

  const { url, exited } = await startServer();
  // Hold the heir's usage row: the transfer, which writes it after moving the items, waits there.
  const sequelize = world.platform.runtime.db.sequelize;
  const hold = await sequelize.transaction();
  await sequelize.query('SELECT 1 FROM app_files.usage WHERE workspace_id = $1 AND member_id = $2 FOR UPDATE', { bind: [world.workspaceId, heir.id], transaction: hold });
  // node:http, not fetch: fetch may not set Host, and the workspace is named by it.
  const body = JSON.stringify({ from_mrn: leaver.mrn, to_mrn: heir.mrn });
  const answer = new Promise<string>((resolve) => {
    const request = http.request(`${url}/admin/file-transfers`, {
      method: 'POST',
      headers: { host: `crash.${world.platform.runtime.config.baseDomain}`, authorization: `Bearer ${key.secret}`, 'x-api-version': '2026-11-01', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve(`answered ${response.statusCode} ${text}`));
      response.on('error', () => resolve('no answer'));
    });
    request.on('error', () => resolve('no answer'));
    request.end(body);
  });
  let settled: string | null = null;
  void answer.then((text) => (settled = text));
  try {
    await until('the transfer to wait on the held row', async () => {
      if (settled !== null) throw new Error(`the transfer ${settled} before it reached the held row`);
      return (await count(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%usage%'`)) === 1;
    });
    child!.kill('SIGKILL');
    await exited;
  } finally {
    await hold.rollback();
  }
  t.is(await answer, 'no answer');
  await until('the killed transaction to end', async () => (await count(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND (state LIKE 'idle in transaction%' OR wait_event_type = 'Lock')`)) === 0);

  t.is(await count('SELECT count(*) AS n FROM app_files.items WHERE workspace_id = :workspace_id AND owner_id = :from', ws), 11, "nothing left the leaver's space");
  t.is(await count('SELECT count(*) AS n FROM app_files.items WHERE workspace_id = :workspace_id AND owner_id = :to', ws), 2);
  t.is(await count(`SELECT count(*) AS n FROM platform.events WHERE workspace_id = :workspace_id AND action = 'core.files.transfer.completed'`, ws), 0);

  const retried = await world.owner.post('/admin/file-transfers', { from_mrn: leaver.mrn, to_mrn: heir.mrn });
  t.is(retried.status, 200);
  t.like(retried.body.data, { folders: 6, files: 5, renamed: [{ from_name: 'Shared name', to_name: 'Shared name (2)' }] });
  t.is(await count('SELECT count(*) AS n FROM app_files.items WHERE workspace_id = :workspace_id AND owner_id = :to', ws), 13);
  const again = await world.owner.post('/admin/file-transfers', { from_mrn: leaver.mrn, to_mrn: heir.mrn });
  t.like(again.body.data, { transfer_id: null, folders: 0, files: 0, renamed: [] });
  t.is(await count(`SELECT count(*) AS n FROM platform.events WHERE workspace_id = :workspace_id AND action = 'core.files.transfer.completed'`, ws), 1);
  t.deepEqual(
    (await heir.get('/files')).body.data.map((item: { name: string }) => item.name),
    ['Folder 0', 'Folder 1', 'Folder 2', 'Folder 3', 'Folder 4', 'Shared name', 'Shared name (2)', 'mine.txt'],
  );
});
