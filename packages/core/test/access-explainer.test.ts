import test from 'ava';
import { QueryTypes } from 'sequelize';
import { explainAccess } from '../src/access/index.js';
import { explainCatalog, WorkspaceMembers } from '../src/apps/members.js';
import { body, injectCall, startAppsRuntime, TestWorkspace, type AppsTestRuntime, type TestCaller } from './helpers/apps.js';

// The permission explainer (ctx.members.explain) against the real guard: for each member and
// action, the explainer's decision must agree with the status of a real request by that member.

let env: AppsTestRuntime;
let acme: TestWorkspace;
let members: WorkspaceMembers;
const roles: Record<string, string> = {};
const people: Record<string, TestCaller> = {};
let othersNote = '';

const call = (method: string, url: string, headers: Record<string, string>, payload?: unknown) => injectCall(env, method, url, headers, payload);

test.before(async () => {
  env = await startAppsRuntime();
  acme = await TestWorkspace.create(env, 'acme');
  roles.readers = await acme.role('Readers', { notes: ['notes.notes.read'] });
  roles.writers = await acme.role('Writers', { notes: ['notes.notes.read', 'notes.notes.create'] });
  roles.unlisted = await acme.role('Unlisted', { notes: ['notes.*'] });
  await acme.install('notes', { access_policy: 'roles', allowed_roles: [roles.readers, roles.writers] });
  people.owner = acme.owner;
  people.admin = await acme.member('admin');
  people.reader = await acme.member('member', [roles.readers]);
  people.writer = await acme.member('member', [roles.writers]);
  people.outsider = await acme.member('member');
  people.unlisted = await acme.member('member', [roles.unlisted]);
  people.removed = await acme.member('member', [roles.writers]);
  const removal = await call('DELETE', `/members/${people.removed.memberId}`, acme.owner.headers({ 'sec-fetch-site': 'same-origin' }));
  if (removal.statusCode !== 200) throw new Error(`remove: ${removal.statusCode} ${removal.payload}`);
  const note = await call('POST', '/notes', acme.owner.headers(), { title: 'the owner’s' });
  othersNote = body(note).data.id;
  const sequelize = env.runtime.db.sequelize;
  const catalog = explainCatalog(env.runtime.apps, env.runtime.apps.installations);
  members = new WorkspaceMembers((sql, replacements) => sequelize.query(sql, { type: QueryTypes.SELECT, replacements }), acme.id, (member, action) => explainAccess(sequelize, catalog, acme.id, member, action, new Date()));
});

test.after.always(async () => {
  await env?.close();
});

/** The real request an action stands for (a write with a valid payload, so only access can refuse it). */
const REQUESTS: Record<string, [string, string, unknown?]> = {
  'GET /notes': ['GET', '/notes'],
  'POST /notes': ['POST', '/notes', { title: 'from the explainer test' }],
  'notes.notes.create': ['POST', '/notes', { title: 'by key' }],
  'GET /notes/export': ['GET', '/notes/export'],
  'GET /ext/acme/vault/secrets': ['GET', '/ext/acme/vault/secrets'],
};

test('the explainer agrees with a real request for owners, admins, members with and without roles, a removed member, an app not installed and a roles policy', async (t) => {
  const seen: string[] = [];
  for (const [who, caller] of Object.entries(people)) {
    for (const [action, [method, url, payload]] of Object.entries(REQUESTS)) {
      const explained = (await members.explain(caller.memberId, action))!;
      const response = await call(method, url, caller.headers(), payload);
      const allowedForReal = response.statusCode >= 200 && response.statusCode < 300;
      // Must fail if the two disagree.
      t.is(explained.decision === 'allowed', allowedForReal, `${who} ${action}: explainer ${explained.decision} (layer ${explained.decided_by}), real ${response.statusCode}`);
      t.deepEqual(explained.layers.map((layer) => layer.layer), [1, 2, 3, 4, 5]);
      seen.push(`${who} ${action} ${explained.decision}:${explained.decided_by ?? '-'} ${response.statusCode}`);
    }
  }
  t.deepEqual(seen, [
    'owner GET /notes allowed:- 200',
    'owner POST /notes allowed:- 200',
    'owner notes.notes.create allowed:- 200',
    'owner GET /notes/export allowed:- 200',
    'owner GET /ext/acme/vault/secrets refused:4 403',
    'admin GET /notes allowed:- 200',
    'admin POST /notes allowed:- 200',
    'admin notes.notes.create allowed:- 200',
    'admin GET /notes/export allowed:- 200',
    'admin GET /ext/acme/vault/secrets refused:4 403',
    'reader GET /notes allowed:- 200',
    'reader POST /notes refused:5 403',
    'reader notes.notes.create refused:5 403',
    'reader GET /notes/export refused:5 403',
    'reader GET /ext/acme/vault/secrets refused:4 403',
    'writer GET /notes allowed:- 200',
    'writer POST /notes allowed:- 200',
    'writer notes.notes.create allowed:- 200',
    'writer GET /notes/export refused:5 403',
    'writer GET /ext/acme/vault/secrets refused:4 403',
    'outsider GET /notes refused:4 403',
    'outsider POST /notes refused:4 403',
    'outsider notes.notes.create refused:4 403',
    'outsider GET /notes/export refused:4 403',
    'outsider GET /ext/acme/vault/secrets refused:4 403',
    'unlisted GET /notes refused:4 403',
    'unlisted POST /notes refused:4 403',
    'unlisted notes.notes.create refused:4 403',
    'unlisted GET /notes/export refused:4 403',
    'unlisted GET /ext/acme/vault/secrets refused:4 403',
    'removed GET /notes refused:2 401',
    'removed POST /notes refused:2 401',
    'removed notes.notes.create refused:2 401',
    'removed GET /notes/export refused:2 401',
    'removed GET /ext/acme/vault/secrets refused:2 401',
  ]);
});

test('each layer gives a reason an admin can read', async (t) => {
  const reader = (await members.explain(people.reader.memberId, 'POST /notes'))!;
  t.is(reader.operation, 'POST /notes');
  t.deepEqual(reader.chain, ['notes.notes.create']);
  t.deepEqual(
    reader.layers.map(({ passed, reason }) => [passed, reason]),
    [
      [null, 'not judged: authentication is per request (the member has 1 active session and 0 active API keys now)'],
      [true, 'member of the workspace (member)'],
      [null, "not applied: it gates workspace-management routes, not an app's actions (platform role member)"],
      [true, 'access policy is roles and the member holds Readers'],
      [false, 'lacks notes.notes.create; holds notes.notes.read via role Readers'],
    ],
  );
  const outsider = (await members.explain(people.outsider.memberId, 'notes.notes.read'))!;
  t.deepEqual([outsider.layers[3].reason, outsider.operation, outsider.decision], ['access policy is roles and the member holds none of: Readers, Writers', null, 'refused']);
  const admin = (await members.explain(people.admin.memberId, 'GET /notes/export'))!;
  t.deepEqual([admin.layers[3].reason, admin.layers[4].reason], ['admins open every installed app', 'owners and admins hold every key']);
  const vault = (await members.explain(acme.owner.memberId, 'ext.acme.vault.secrets.read'))!;
  t.deepEqual([vault.app, vault.layers[3].passed, vault.layers[3].reason], ['ext.acme.vault', false, 'app ext.acme.vault is not installed']);
  const removed = (await members.explain(people.removed.memberId, 'GET /notes'))!;
  t.deepEqual([removed.member.active, removed.layers[1].reason], [false, 'member is deactivated: their sessions and API keys no longer authenticate (401)']);
});

test('a check on the record is reported as depending on it, with the fallback key judged', async (t) => {
  // The pattern and a concrete path name the same operation.
  for (const action of ['DELETE /notes/{id}', `DELETE /notes/${othersNote}`]) {
    const explained = (await members.explain(people.writer.memberId, action))!;
    t.deepEqual([explained.operation, explained.decision, explained.decided_by], ['DELETE /notes/{id}', 'depends_on_record', 5]);
    t.is(explained.layers[4].reason, 'depends on the record: allowed where check note_author passes for it; otherwise none of: check note_author, notes.notes.delete; holds notes.notes.create via role Writers; notes.notes.read via role Writers');
  }
  // The real guard: someone else's note is refused, the writer's own one is not.
  t.is((await call('DELETE', `/notes/${othersNote}`, people.writer.headers())).statusCode, 403);
  const own = body(await call('POST', '/notes', people.writer.headers(), { title: 'mine' })).data.id;
  t.is((await call('DELETE', `/notes/${own}`, people.writer.headers())).statusCode, 200);
  // Holding the fallback key makes the record irrelevant.
  const owner = (await members.explain(acme.owner.memberId, 'DELETE /notes/{id}'))!;
  t.is(owner.decision, 'allowed');
});

test('an action that names nothing is a 400 naming action; a non-member is null', async (t) => {
  for (const action of ['notes.notes.fly', 'GET /nowhere', 'what', '']) {
    const error = await t.throwsAsync(() => members.explain(people.writer.memberId, action));
    t.regex(error!.message, /^action /);
    t.is((error as { status?: number }).status, 400);
  }
  t.is(await members.explain('7b1c5a4e-0000-4000-8000-000000000000', 'GET /notes'), null);
  t.is(await members.explain('not-an-id', 'GET /notes'), null);
});
