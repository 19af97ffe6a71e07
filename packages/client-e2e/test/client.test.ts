import test from 'ava';
import got from 'got';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createTestPlatform, type TestPlatform, type TestWorkspace } from '@wpk/testing';
import { API_VERSION, ApiError, asCollection, asSingle, createClient, dispositionFilename, isApiError, OPERATIONS, type Client } from '@wpk/client';

let platform: TestPlatform;
let workspace: TestWorkspace;
let baseUrl: string;

/** The repository root: the client is generated from the apps its wpk.config.json loads, so the test serves the same. */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ROOT_APPS = (JSON.parse(fs.readFileSync(`${ROOT}wpk.config.json`, 'utf8')) as { apps: Array<{ dir: string }> }).apps.map((entry) => entry.dir);

test.before(async () => {
  platform = await createTestPlatform({ apps: ROOT_APPS, firstParty: true, projectDir: ROOT });
  workspace = await platform.workspace('acme');
  await workspace.install('tasks');
  baseUrl = await platform.runtime.start();
});
test.after.always(async () => {
  await platform?.close();
});

/** Signs the owner in as a browser would (POST /sessions), returning the session cookie. */
async function ownerCookie(): Promise<string> {
  const response = await got.post(`${baseUrl}/sessions`, {
    headers: { host: 'acme.localhost', 'x-api-version': API_VERSION },
    json: { email: workspace.owner.email, password: 'harness-password-1' },
    throwHttpErrors: false,
  });
  if (response.statusCode !== 200) throw new Error(`sign-in: ${response.statusCode} ${response.body}`);
  return ([] as string[]).concat(response.headers['set-cookie'] ?? []).map((value) => value.split(';')[0]).join('; ');
}

test('a script creates a key, then boards, tasks and a search through the typed client, on a workspace reached without DNS', async (t) => {
  // A script riding on a session cookie says where it comes from, as a browser page would (or a write is refused as cross-site).
  const browser = createClient({ baseUrl, workspace: 'acme', headers: { cookie: await ownerCookie(), 'sec-fetch-site': 'same-origin' } });
  const created = await browser.account.postApiKeys({ body: { name: 'ci script', full_access: true } });
  const secret = asSingle<{ secret: string }>(created).data.secret;
  t.regex(secret, /^slk_/);

  const client: Client = createClient({ baseUrl, workspace: 'acme', apiKey: secret });
  t.is(client.apiVersion, '2026-11-01');
  const me = await client.account.getMe();
  t.is(asSingle<{ member: { email: string } }>(me).data.member.email, workspace.owner.email);

  // Operations whose route declares its record are typed to the record's fields (no asSingle).
  const board = await client.tasks.postBoards({ body: { title: 'Launch' } });
  const boardId: string = board.data.id;
  const lanes: string[] = board.data.lanes;
  t.is(board.data.title, 'Launch');
  t.deepEqual(lanes, ['To do', 'In progress', 'Done']);
  const members = await client.account.getMembers();
  t.deepEqual(
    members.data.map((member) => member.platform_role),
    ['owner'],
  );
  const titles = ['Write the press release', 'Book the venue', 'Order the banners'];
  for (const title of titles) await client.tasks.postTasks({ body: { title, board_id: boardId } });

  const walked: string[] = [];
  for await (const task of client.paginate('getTasks', { query: { board_id: boardId, per_page: 2 } })) walked.push((task as { title: string }).title);
  t.deepEqual(walked, titles);

  const found = asCollection<{ title: string }>(await client.account.postSearch({ body: { app: 'tasks', q: 'venue' } }));
  t.deepEqual(
    found.data.map((result) => result.title),
    ['Book the venue'],
  );

  const error = await t.throwsAsync(client.tasks.postTasks({ body: { title: '' } }), { instanceOf: ApiError });
  t.is(error.status, 400);
  t.is(error.error, 'title is not allowed to be empty');
  t.is(error.field, 'title');
  t.true(isApiError(error, 400));
  const missing = await t.throwsAsync(client.tasks.getTasksById({ params: { id: '6f1c0c1e-3f7a-4a53-9d1c-2b8f9e1d0a11' } }), { instanceOf: ApiError });
  t.is(missing.status, 404);
  t.is(missing.field, null);
});

test('every operation of the document has a method on the client, grouped by its tag', (t) => {
  const client = createClient({ baseUrl: 'http://127.0.0.1:1' });
  const groups = client as unknown as Record<string, Record<string, unknown>>;
  for (const [operationId, entry] of Object.entries(OPERATIONS)) t.is(typeof groups[entry.tag]?.[operationId], 'function', operationId);
  const served = platform.runtime.openApiDocument();
  const documented = Object.values(served.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
  t.deepEqual(Object.keys(OPERATIONS).sort(), documented.sort());
});

test('a 429 is retried after its Retry-After; the client pins X-Api-Version and sets the workspace Host', async (t) => {
  const seen: Array<{ host?: string; version?: string }> = [];
  const server = http.createServer((request, response) => {
    seen.push({ host: request.headers.host, version: request.headers['x-api-version'] as string });
    if (seen.length === 1) {
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      response.end(JSON.stringify({ error: 'Too many requests' }));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ data: { id: 'me' }, links: { self: '/me' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const stub = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const client = createClient({ baseUrl: stub, workspace: 'acme', baseDomain: 'example.test', apiVersion: '2026-11-15' });
  const me = await client.account.getMe();
  t.deepEqual(me, { data: { id: 'me' }, links: { self: '/me' } });
  t.deepEqual(seen, [
    { host: 'acme.example.test', version: '2026-11-15' },
    { host: 'acme.example.test', version: '2026-11-15' },
  ]);

  seen.length = 0;
  const noRetry = createClient({ baseUrl: stub, workspace: 'acme', maxRetries: 0 });
  const error = await t.throwsAsync(noRetry.account.getMe(), { instanceOf: ApiError });
  t.is(error.status, 429);
  t.is(error.error, 'Too many requests');
  t.is(error.headers['retry-after'], '1');
  t.deepEqual(seen, [{ host: 'acme.localhost', version: API_VERSION }]);
});

test('a busy 503 with Retry-After is retried for a GET, never for a POST (it may not be sent twice)', async (t) => {
  const seen: string[] = [];
  const server = http.createServer((request, response) => {
    seen.push(String(request.method));
    if (seen.length === 1 || request.method === 'POST') {
      response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
      response.end(JSON.stringify({ error: 'The server is busy: try again in a moment' }));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ data: { id: 'me' }, links: { self: '/me' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const client = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, workspace: 'acme' });
  t.deepEqual(await client.request('GET', '/me'), { data: { id: 'me' }, links: { self: '/me' } });
  const error = await t.throwsAsync(client.request('POST', '/notes', { body: { title: 'x' } }), { instanceOf: ApiError });
  t.deepEqual([error.status, error.error, error.headers['retry-after']], [503, 'The server is busy: try again in a moment', '1']);
  t.deepEqual(seen, ['GET', 'GET', 'POST']);
});

test('download reads a file answer as bytes with its type and file name; a refusal throws as request does', async (t) => {
  const browser = createClient({ baseUrl, workspace: 'acme', headers: { cookie: await ownerCookie(), 'sec-fetch-site': 'same-origin' } });
  const secret = asSingle<{ secret: string }>(await browser.account.postApiKeys({ body: { name: 'exports', full_access: true } })).data.secret;
  const client = createClient({ baseUrl, workspace: 'acme', apiKey: secret });

  const file = await client.download('GET', '/admin/activity-exports');
  t.is(file.contentType, 'text/csv; charset=utf-8');
  t.is(file.filename, `activity-acme-${new Date().toISOString().slice(0, 10)}.csv`);
  t.true(file.bytes instanceof Uint8Array);
  t.is(new TextDecoder().decode(file.bytes).split('\n')[0], 'occurred_at,id,actor_member_id,actor_email,action,target_type,target_id,ip,details');

  const missing = await t.throwsAsync(client.download('GET', '/crm/quotes/6f1c0c1e-3f7a-4a53-9d1c-2b8f9e1d0a11/pdf'), { instanceOf: ApiError });
  t.is(missing.status, 403);
  t.is(missing.error, "You don't have access to this app");
});

test('dispositionFilename prefers filename* (UTF-8) and unquotes filename', (t) => {
  t.is(dispositionFilename(`attachment; filename="Angebot_Q-1.pdf"; filename*=UTF-8''Angebot%20%C3%9Cbersicht.pdf`), 'Angebot Übersicht.pdf');
  t.is(dispositionFilename('attachment; filename="quote \\"Q-7\\".pdf"'), 'quote "Q-7".pdf');
  t.is(dispositionFilename('inline; filename=report.csv'), 'report.csv');
  t.is(dispositionFilename('attachment'), null);
  t.is(dispositionFilename(undefined), null);
});
