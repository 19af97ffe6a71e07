import test from 'ava';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Runtime } from '@wpk/core';

// `wpk search reindex`: the tasks app's records are indexed, the index is emptied, and the
// command (run as a user runs it, in a project whose wpk.config names the app) rebuilds it.

const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const tasksDir = fileURLToPath(new URL('../../plugins/tasks', import.meta.url));
const exec = promisify(execFile);
// The repository's TypeScript loader (tools/ts-hooks) by absolute URL: the command runs in a scratch project that has no node_modules of its own.
const tsHooks = import.meta.resolve('@wpk/ts-hooks');
const project = fs.mkdtempSync(path.join(os.tmpdir(), 'wpk-reindex-'));
const dataDir = path.join(project, 'data');
fs.writeFileSync(path.join(project, 'wpk.config.json'), JSON.stringify({ apps: [{ dir: tasksDir, firstParty: true }] }));

async function wpk(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [`--import=${tsHooks}`, bin, ...args, '--data-dir', dataDir], { cwd: project, env: { ...process.env, DATABASE_URL: '', WPK_LOG_LEVEL: 'silent' }, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

/** Opens the project's runtime (the embedded database in dataDir), runs `work`, closes it. */
async function withRuntime<T>(work: (runtime: Runtime) => Promise<T>): Promise<T> {
  const runtime = await Runtime.create({ logLevel: 'silent', dataDir, databaseUrl: null, port: 0, projectDir: project });
  try {
    await runtime.migrate();
    return await work(runtime);
  } finally {
    await runtime.stop();
  }
}

type IndexRow = { subdomain: string; type: string; title: string };
const indexed = async (runtime: Runtime) => {
  const [rows] = await runtime.db.sequelize.query(
    "SELECT w.subdomain, r.type, r.title FROM platform.search_records r JOIN platform.workspaces w ON w.id = r.workspace_id WHERE r.app = 'tasks' ORDER BY w.subdomain, r.type, r.title",
  );
  return rows as IndexRow[];
};

let before: IndexRow[] = [];

test.before(async () => {
  before = await withRuntime(async (runtime) => {
    for (const [subdomain, boards] of [['acme', ['Launch plan', 'Hiring']], ['globex', ['Roadmap']]] as const) {
      const owned = await runtime.identity.createWorkspaceWithOwner({ subdomain, name: subdomain, ownerEmail: `owner@${subdomain}.test`, ownerPassword: 'owner-password-1' });
      const { secret } = await runtime.apiKeys.issueFullAccessKey(owned.workspaceId, owned.memberId, 'test');
      const call = async (method: string, url: string, payload: object) => {
        const answer = await runtime.server.inject({ method, url, headers: { host: `${subdomain}.localhost`, 'x-api-version': '2026-11-01', authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, payload });
        if (answer.statusCode !== 200) throw new Error(`${method} ${url}: ${answer.statusCode} ${answer.payload}`);
        return JSON.parse(answer.payload).data as { id: string };
      };
      await call('POST', '/applications/tasks/installations', {});
      for (const title of boards) {
        const board = await call('POST', '/boards', { title });
        await call('POST', '/tasks', { title: `${title}: first step`, board_id: board.id });
      }
    }
    const rows = await indexed(runtime);
    await runtime.db.sequelize.query("DELETE FROM platform.search_records WHERE app = 'tasks'");
    return rows;
  });
});

test.serial('the index the apps fed through ctx.search is what the test expects to rebuild', (t) => {
  t.deepEqual(before, [
    { subdomain: 'acme', type: 'board', title: 'Hiring' },
    { subdomain: 'acme', type: 'board', title: 'Launch plan' },
    { subdomain: 'acme', type: 'task', title: 'Hiring: first step' },
    { subdomain: 'acme', type: 'task', title: 'Launch plan: first step' },
    { subdomain: 'globex', type: 'board', title: 'Roadmap' },
    { subdomain: 'globex', type: 'task', title: 'Roadmap: first step' },
  ]);
});

test.serial('wpk search reindex --workspace rebuilds one workspace, with one progress line per type', async (t) => {
  const result = await wpk(['search', 'reindex', '--workspace', 'globex']);
  t.is(result.code, 0, result.stderr);
  const lines = result.stdout.trim().split('\n').map((line) => line.replace(/\(\d+\.\d s\)/, '(T)'));
  t.deepEqual(lines, ['reindexed tasks/board in globex: 1 document (T)', 'reindexed tasks/task in globex: 1 document (T)', 'reindexed 2 documents of 2 types in 1 workspace (T)']);
  t.deepEqual(await withRuntime(indexed), before.filter((row) => row.subdomain === 'globex'));
});

test.serial('wpk search reindex --json rebuilds every workspace and prints only its JSON', async (t) => {
  const result = await wpk(['search', 'reindex', '--app', 'tasks', '--json']);
  t.is(result.code, 0, result.stderr);
  const body = JSON.parse(result.stdout);
  t.is(body.documents, 6);
  t.deepEqual(
    body.reindexed.map((step: { subdomain: string; type: string; documents: number }) => `${step.subdomain} ${step.type} ${step.documents}`),
    ['acme board 2', 'acme task 2', 'globex board 1', 'globex task 1'],
  );
  t.deepEqual(await withRuntime(indexed), before);
  // Run again: the same index, not doubled.
  t.is(JSON.parse((await wpk(['search', 'reindex', '--json'])).stdout).documents, 6);
  t.deepEqual(await withRuntime(indexed), before);
  // The platform search finds the rebuilt records.
  const found = await withRuntime(async (runtime) => {
    const workspace = (await runtime.workspaces.findBySubdomain('acme'))!;
    return (await runtime.search.search(workspace.id, 'tasks', { q: 'launch', types: ['board', 'task'], typeOrder: false, filters: { attributes: {} }, limit: 10, offset: 0 })).rows.map((hit) => hit.title);
  });
  t.deepEqual(found.sort(), ['Launch plan', 'Launch plan: first step']);
});

test.serial('wpk search reindex refuses an unknown app or workspace', async (t) => {
  t.deepEqual(await wpk(['search', 'reindex', '--app', 'nope']), { code: 1, stdout: '', stderr: 'wpk: No app nope is loaded (loaded: tasks)\n' });
  t.deepEqual(await wpk(['search', 'reindex', '--workspace', 'nowhere']), { code: 1, stdout: '', stderr: 'wpk: No workspace nowhere\n' });
});
