import test from 'ava';
import { createTestPlatform, type TestMember, type TestPlatform, type TestWorkspace } from '@wpk/testing';
import app from '../src/index.js';

// Hello's own tests, on the real platform (embedded database) through @wpk/testing.

const APP = 'ext.acme.hello';
const base = '/ext/acme/hello';
let platform: TestPlatform;
let acme: TestWorkspace;
let sender: TestMember;
let reader: TestMember;
let moderator: TestMember;

test.before(async () => {
  platform = await createTestPlatform({ apps: [app] });
  acme = await platform.workspace('acme');
  await acme.install(APP);
  sender = await acme.member({ name: 'Sam Sender', permissions: ['ext.acme.hello.greetings.read', 'ext.acme.hello.greetings.send'] });
  reader = await acme.member({ name: 'Rita Reader', permissions: ['ext.acme.hello.greetings.read'] });
  moderator = await acme.member({ name: 'Mo Moderator', permissions: ['ext.acme.hello.*'] });
});

test.after.always(async () => {
  await platform?.close();
});

test('a member with greetings.send sends a greeting, prefixed by the settings, and greeting.sent is emitted', async (t) => {
  const response = await sender.post(`${base}/greetings`, { text: 'world' });
  t.is(response.status, 200);
  const greeting = response.body.data;
  t.like(greeting, { text: 'Hello, world', sender_mrn: sender.mrn, sender_name: 'Sam Sender', recipient_mrn: null });
  t.deepEqual(acme.events('ext.acme.hello.greeting.sent').find((event) => event.payload.greeting_id === greeting.id)?.payload, {
    greeting_id: greeting.id,
    sender_mrn: sender.mrn,
    // recipient_mrn was staged as null: nulls are removed, as subscribers receive it.
    text: 'Hello, world',
  });
  t.like(platform.search.find((change) => change.op === 'upsert' && change.document.id === greeting.id), { app: APP, workspaceId: acme.id, document: { type: 'greeting', title: 'Hello, world' } });
  const read = await reader.get(`${base}/greetings/${greeting.id}`);
  t.is(read.status, 200);
  t.is(read.body.data.text, 'Hello, world');
});

test('reading needs greetings.read; sending needs greetings.send', async (t) => {
  const refused = await reader.post(`${base}/greetings`, { text: 'hi' });
  t.is(refused.status, 403);
  t.deepEqual(refused.body, { error: 'Missing permission: ext.acme.hello.greetings.send' });
  const stranger = await acme.member();
  const outside = await stranger.get(`${base}/greetings`);
  t.is(outside.status, 403);
  t.deepEqual(outside.body, { error: "You don't have access to this app" });
});

test('the sender deletes their own greeting; others need greetings.delete', async (t) => {
  const mine = (await sender.post(`${base}/greetings`, { text: 'to be deleted' })).body.data;
  const other = await reader.delete(`${base}/greetings/${mine.id}`);
  t.is(other.status, 403);
  t.deepEqual(other.body, { error: 'Cannot delete this greeting' });
  const own = await sender.delete(`${base}/greetings/${mine.id}`);
  t.is(own.status, 200);
  t.deepEqual(own.body.data, { id: mine.id, deleted: true });
  t.true(platform.search.some((change) => change.op === 'remove' && change.id === mine.id));

  const theirs = (await sender.post(`${base}/greetings`, { text: 'moderated' })).body.data;
  t.is((await moderator.delete(`${base}/greetings/${theirs.id}`)).status, 200);
  const gone = await moderator.get(`${base}/greetings/${theirs.id}`);
  t.is(gone.status, 404);
  t.deepEqual(gone.body, { error: `No greeting ${theirs.id}` });
});

test('the list is the collection envelope, newest first', async (t) => {
  const ws = await platform.workspace();
  await ws.install(APP, { access_policy: 'everyone' });
  for (const text of ['one', 'two', 'three']) await ws.owner.post(`${base}/greetings`, { text });
  const page = await ws.owner.get(`${base}/greetings?per_page=2`);
  t.deepEqual(page.body.pagination, { page: 1, per_page: 2, total: 3, pages: 2 });
  t.deepEqual(page.body.data.map((greeting: { text: string }) => greeting.text), ['Hello, three', 'Hello, two']);
  t.is(page.body.links.next, `${base}/greetings?page=2&per_page=2`);
});

test('validation answers 400 naming the field', async (t) => {
  const empty = await sender.post(`${base}/greetings`, { text: '' });
  t.is(empty.status, 400);
  t.deepEqual(empty.body, { error: 'text is not allowed to be empty', field: 'text' });
  const long = await sender.post(`${base}/greetings`, { text: 'x'.repeat(201) });
  t.deepEqual(long.body, { error: 'text length must be less than or equal to 200 characters long', field: 'text' });
});

test('settings change the prefix; an invalid document is refused naming the field', async (t) => {
  const ws = await platform.workspace();
  await ws.install(APP, { access_policy: 'everyone' });
  const bad = await ws.owner.put(`/apps/${APP}/settings`, { prefix: '' });
  t.is(bad.status, 400);
  t.deepEqual(bad.body, { error: 'prefix: must NOT have fewer than 1 characters' });
  t.is((await ws.owner.put(`/apps/${APP}/settings`, { prefix: 'Ahoy' })).status, 200);
  t.is((await ws.owner.post(`${base}/greetings`, { text: 'sailor' })).body.data.text, 'Ahoy, sailor');
});

test('new members are welcomed once, whatever the number of deliveries', async (t) => {
  const ws = await platform.workspace();
  await ws.install(APP, { access_policy: 'everyone' });
  const newcomer = await ws.member({ name: 'Nia New' });
  // Twice in a row, then three at once (ctx.lock in the handler makes concurrent ones take turns).
  for (let attempt = 0; attempt < 2; attempt++) {
    t.deepEqual(await platform.deliver(ws, 'system.workspace.member.added', { member_id: newcomer.id, role: 'member' }), { [APP]: 'handled' });
  }
  const again = await Promise.all([1, 2, 3].map(() => platform.deliver(ws, 'system.workspace.member.added', { member_id: newcomer.id, role: 'member' })));
  t.deepEqual(again, [1, 2, 3].map(() => ({ [APP]: 'handled' })));
  const list = await ws.owner.get(`${base}/greetings`);
  t.deepEqual(list.body.data.map((greeting: { text: string; recipient_mrn: string }) => [greeting.text, greeting.recipient_mrn]), [['Hello, welcome aboard!', newcomer.mrn]]);
  const bare = await platform.workspace();
  t.deepEqual(await platform.deliver(bare, 'system.workspace.member.added', { member_id: bare.owner.id, role: 'owner' }), { [APP]: 'skipped' });
});

test('the public hello answers without a credential, only where the app is installed', async (t) => {
  const response = await acme.anonymous.get(`${base}/hello`);
  t.is(response.status, 200);
  t.is(response.body.data.message, 'Hello from acme workspace');
  const bare = await platform.workspace();
  t.is((await bare.anonymous.get(`${base}/hello`)).status, 404);
});

test('a scoped API key reads with greetings.read and nothing more', async (t) => {
  const key = await moderator.apiKey({ scopes: ['ext.acme.hello.greetings.read'] });
  t.is((await key.get(`${base}/greetings`)).status, 200);
  t.deepEqual((await key.post(`${base}/greetings`, { text: 'by key' })).body, { error: 'Missing permission: ext.acme.hello.greetings.send' });
});

test('the permission matrix proves every route of the authorization table', async (t) => {
  const rows = await acme.permissionMatrix(APP, { payloads: { 'POST /greetings': { text: 'from the matrix' } } });
  t.deepEqual(
    rows.map((row) => [row.route, row.skipped ?? row.without!.status, row.with?.status ?? null]),
    [
      ['GET /greetings', 403, 200],
      ['GET /greetings/{greeting_id}', 403, 404],
      ['POST /greetings', 403, 200],
      ['DELETE /greetings/{greeting_id}', 403, 404],
      ['GET /hello', 'public route', null],
    ],
  );
  t.deepEqual(rows[2].without!.body, { error: 'Missing permission: ext.acme.hello.greetings.send' });
});

test('the reindex hook rebuilds an emptied search index of a workspace (wpk search reindex runs it)', async (t) => {
  const globex = await platform.workspace('globex-reindex'); // its own workspace: the other tests run at the same time
  await globex.install(APP);
  const sent = await globex.owner.post(`${base}/greetings`, { text: 'from the archive' });
  t.is(sent.status, 200);
  const search = async () => (await globex.owner.get(`/search?app=${APP}&q=archive`)).body.data.map((hit: { title: string }) => hit.title);
  t.deepEqual(await search(), ['Hello, from the archive']);
  await platform.query(`DELETE FROM platform.search_records WHERE app = '${APP}' AND workspace_id = :id`, { id: globex.id });
  t.deepEqual(await search(), []);
  const rebuilt = await platform.runtime.reindexSearch({ app: APP, workspaceId: globex.id });
  t.deepEqual(rebuilt.map((step) => `${step.type}: ${step.documents}`), ['greeting: 1']);
  t.deepEqual(await search(), ['Hello, from the archive']);
});
