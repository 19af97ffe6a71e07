import test from 'ava';
import { startAppsRuntime, TestWorkspace, type AppsTestRuntime, type TestCaller } from './helpers/apps.js';
import { apiHeaders } from './helpers/runtime.js';

// The runtime's own /search, end to end: the fixture app `notes` feeds the index through
// ctx.search inside its requests; real sessions, API keys, installations and roles decide access.
let env: AppsTestRuntime;
let acme: TestWorkspace;
let globex: TestWorkspace;
let reader: TestCaller;
let writer: TestCaller;
let outsider: TestCaller;

const json = (response: { payload: string }) => JSON.parse(response.payload);
const call = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
  env.runtime.server.inject({ method, url, headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' }, payload: payload as object });

test.before(async () => {
  // The helper captures index changes; these tests want them applied to the real index.
  env = await startAppsRuntime({ seams: { searchIndexer: (inner) => inner } });
  acme = await TestWorkspace.create(env, 'acme');
  globex = await TestWorkspace.create(env, 'globex');
  const readers = await acme.role('Readers', { notes: ['notes.notes.read'] });
  const writers = await acme.role('Writers', { notes: ['notes.notes.create'] });
  await acme.install('notes', { access_policy: 'roles', allowed_roles: [readers, writers] });
  await globex.install('notes', { access_policy: 'everyone' });
  reader = await acme.member('member', [readers]);
  writer = await acme.member('member', [writers]);
  outsider = await acme.member('member', []);
  for (const [workspace, body] of [[acme, 'acme planning'], [globex, 'globex planning']] as const) {
    const response = await call('POST', '/notes', workspace.owner.headers(), { title: 'Quarterly roadmap', body });
    if (response.statusCode !== 200) throw new Error(`POST /notes: ${response.statusCode} ${response.payload}`);
  }
});

test.after.always(async () => {
  await env?.close();
});

test('a record written through ctx.search is found by a member holding the type\'s key, on GET and POST', async (t) => {
  const viaGet = json(await call('GET', '/search?app=notes&q=roadmap', reader.headers()));
  t.is(viaGet.pagination.total, 1);
  t.like(viaGet.data[0], { type: 'note', title: 'Quarterly roadmap', subtitle: '', id: '' });
  t.regex(viaGet.data[0].url, /^\/notes\/[0-9a-f-]{36}$/);
  const viaPost = json(await call('POST', '/search', reader.headers(), { app: 'notes', q: 'quartrly' }));
  t.deepEqual(viaPost.data.map((row: { url: string }) => row.url), viaGet.data.map((row: { url: string }) => row.url));
});

test('a member who can open the app but holds none of the type\'s keys finds nothing', async (t) => {
  const response = await call('GET', '/search?app=notes&q=roadmap', writer.headers());
  t.is(response.statusCode, 200);
  t.deepEqual(json(response).data, []);
});

test('a member whose roles may not open the app is refused with the layer-4 answer', async (t) => {
  const response = await call('GET', '/search?app=notes&q=roadmap', outsider.headers());
  t.is(response.statusCode, 403);
  t.deepEqual(json(response), { error: "You don't have access to this app" });
});

test('an app not installed in the workspace is refused', async (t) => {
  const response = await call('GET', '/search?app=ext.acme.vault&q=roadmap', acme.owner.headers());
  t.is(response.statusCode, 403);
  t.deepEqual(json(response), { error: "You don't have access to this app" });
});

test('a scoped API key searches with its scopes only', async (t) => {
  const scoped = json(await call('GET', '/search?app=notes&q=roadmap', await outsider.key({ fullAccess: false, scopes: ['notes.notes.read'] })));
  t.is(scoped.pagination.total, 1);
  const empty = await call('GET', '/search?app=notes&q=roadmap', await reader.key({ fullAccess: false, scopes: [] }));
  t.is(empty.statusCode, 403);
});

test('no credential answers 401', async (t) => {
  const response = await call('GET', '/search?app=notes&q=roadmap', apiHeaders('acme'));
  t.is(response.statusCode, 401);
  t.deepEqual(json(response), { error: 'Authentication required' });
});

test('the other workspace\'s identical note never appears', async (t) => {
  const body = json(await call('GET', '/search?app=notes&q=roadmap planning', acme.owner.headers()));
  t.is(body.pagination.total, 1);
  const globexBody = json(await call('GET', '/search?app=notes&q=globex', globex.owner.headers()));
  t.is(globexBody.pagination.total, 1);
  t.is(json(await call('GET', '/search?app=notes&q=globex', acme.owner.headers())).pagination.total, 0);
});

test('a failed request leaves the index untouched', async (t) => {
  const response = await call('POST', '/notes/failing', acme.owner.headers());
  t.is(response.statusCode, 400);
  t.is(json(await call('GET', '/search?app=notes&q=doomed', acme.owner.headers())).pagination.total, 0);
});

test('deleting the record removes it from the index', async (t) => {
  const created = json(await call('POST', '/notes', acme.owner.headers(), { title: 'Short lived memo', body: '' })).data;
  t.is(json(await call('GET', '/search?app=notes&q=memo', acme.owner.headers())).pagination.total, 1);
  t.is((await call('DELETE', `/notes/${created.id}`, acme.owner.headers())).statusCode, 200);
  t.is(json(await call('GET', '/search?app=notes&q=memo', acme.owner.headers())).pagination.total, 0);
});
