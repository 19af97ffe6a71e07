import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { httpRequest } from './helpers/http.js';
import { addMember, keyedWorkspace, startKeysRuntime } from './helpers/keys.js';
import type { TestRuntime } from './helpers/runtime.js';

// The repository's TypeScript loader (tools/ts-hooks), by its file URL: a process started in another folder finds it too.
const TS_HOOKS = `--import=${import.meta.resolve('@wpk/ts-hooks')}`;

const SERVER = fileURLToPath(new URL('./fixtures/server-process.ts', import.meta.url));

/** Starts a second server process on the same database; resolves with its URL. */
function startSecondProcess(databaseUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [TS_HOOKS, SERVER], { env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (\S+)/.exec(output);
      if (match) resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`second process exited with ${code}`)));
  });
}

let env: TestRuntime;
let second: { child: ChildProcess; url: string };
let firstUrl: string;

test.before(async () => {
  env = await startKeysRuntime();
  firstUrl = await env.runtime.start();
  // The second process reaches the very same database: a scratch PostgreSQL database, or the
  // embedded database through the loopback socket the first process serves it on.
  second = await startSecondProcess(env.runtime.db.url);
});

test.after.always(async () => {
  if (second?.child.exitCode === null) {
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
  }
  await env?.close();
});

test('changes made through one process are refused by the other on the very next request', async (t) => {
  const acme = await keyedWorkspace(env, 'acme');
  const viaFirst = (method: string, path: string, body?: unknown) => httpRequest(firstUrl, method, path, acme.as(acme.ownerKey), body);
  t.is((await viaFirst('POST', '/applications/notes/installations', {})).status, 200);
  const create = async (body: Record<string, unknown>) => (await viaFirst('POST', '/api-keys', body)).body.data as { id: string; secret: string };
  const onSecond = (secret: string) => httpRequest(second.url, 'GET', '/notes', acme.as(secret));

  // Revocation.
  const revoked = await create({ name: 'revoke me', scopes: ['notes.notes.read'] });
  t.is((await onSecond(revoked.secret)).status, 200);
  t.is((await viaFirst('PUT', `/api-keys/${revoked.id}`, { status: 'revoked' })).status, 200);
  t.deepEqual(await onSecond(revoked.secret).then((r) => [r.status, r.body]), [401, { error: 'Invalid, revoked, or expired API key' }]);

  // Rotation.
  const rotated = await create({ name: 'rotate me', scopes: ['notes.notes.read'] });
  t.is((await onSecond(rotated.secret)).status, 200);
  const rotation = await viaFirst('PUT', `/api-keys/${rotated.id}/secret`);
  t.is((await onSecond(rotated.secret)).status, 401);
  t.is((await onSecond(rotation.body.data.secret)).status, 200);

  // Re-scoping.
  const rescoped = await create({ name: 'rescope me', scopes: ['notes.notes.read'] });
  t.is((await onSecond(rescoped.secret)).status, 200);
  t.is((await viaFirst('PUT', `/api-keys/${rescoped.id}`, { scopes: [] })).status, 200);
  t.deepEqual(await onSecond(rescoped.secret).then((r) => [r.status, r.body]), [403, { error: "You don't have access to this app" }]);

  // Expiry.
  const expiring = await create({ name: 'expire me', scopes: ['notes.notes.read'], expires_at: new Date(Date.now() + 1500).toISOString() });
  t.is((await onSecond(expiring.secret)).status, 200);
  await new Promise((resolve) => setTimeout(resolve, 1700));
  t.is((await onSecond(expiring.secret)).status, 401);

  // Deactivation of the key's member.
  const memberId = await addMember(env, acme, 'leaving@acme.test');
  const members = await create({ name: 'member key', member_id: memberId, scopes: ['notes.notes.read'] });
  t.is((await onSecond(members.secret)).status, 200);
  t.is((await viaFirst('DELETE', `/members/${memberId}`)).status, 200);
  t.is((await onSecond(members.secret)).status, 401);
});
