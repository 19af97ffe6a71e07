import test from 'ava';
import { QueryTypes } from 'sequelize';
import { THROTTLES } from '../src/identity/index.js';
import { signupMailText } from '../src/identity/routes/public.js';
import { publicOrigin } from '../src/tenancy/index.js';
import { NOTES_DIR } from './helpers/apps.js';
import { signIn, startIdentityRuntime, type IdentityTestRuntime } from './helpers/identity-runtime.js';
import type { Browser } from './helpers/identity-http.js';

// Issue 38, items 5, 6 and 11: GET /me/workspaces for browser sessions only, sign-up mail with no
// text of the requester's and a global bound, pages nobody may frame, and cookie writes that must
// say where they come from.

let env: IdentityTestRuntime;
let owner: Browser;
let ownerKey: string;
let otherMemberKey: string;
let emptyKey: string;
const OWNER = { email: 'owner@acme.test', password: 'owner-password-1' };

test.before(async () => {
  env = await startIdentityRuntime({ scryptLogN: 10, signupMailsPerHour: 3, apps: [{ dir: NOTES_DIR, firstParty: true }], configFile: false } as never);
  const identity = env.runtime.identity;
  const acme = await identity.createWorkspaceWithOwner({ subdomain: 'acme', name: 'Acme', ownerEmail: OWNER.email, ownerPassword: OWNER.password });
  const mo = await identity.addMember({ workspaceId: acme.workspaceId, email: 'mo@acme.test', password: 'mo-password-1', platformRole: 'member' });
  // The owner and Mo are members of another tenant too.
  const globex = await identity.createWorkspaceWithOwner({ subdomain: 'globex', name: 'Globex Secret Project', ownerEmail: 'boss@globex.test', ownerPassword: 'boss-password-1' });
  await identity.addMember({ workspaceId: globex.workspaceId, email: OWNER.email, password: OWNER.password, platformRole: 'admin' });
  await identity.addMember({ workspaceId: globex.workspaceId, email: 'mo@acme.test', password: 'mo-password-1', platformRole: 'member' });
  const actor = (await identity.callerForMember(acme.workspaceId, acme.memberId))!;
  ownerKey = (await env.runtime.apiKeys.create(acme.workspaceId, actor, { name: 'owner key', full_access: true })).secret;
  emptyKey = (await env.runtime.apiKeys.create(acme.workspaceId, actor, { name: 'no scopes', full_access: false, scopes: [] })).secret;
  // A key an admin made for another member.
  otherMemberKey = (await env.runtime.apiKeys.create(acme.workspaceId, actor, { name: 'for Mo', full_access: true, member_id: mo.memberId })).secret;
  owner = env.browser();
  await signIn(owner, 'acme', OWNER.email, OWNER.password);
  const installed = await owner.post('acme', '/applications/notes/installations', {});
  if (installed.status !== 200 && installed.status !== 201) throw new Error(`install: ${installed.status} ${installed.text}`);
});

test.after.always(async () => {
  await env?.close();
});

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}`, 'sec-fetch-site': '' });

test.serial('GET /me/workspaces answers the browser session only: every API key gets 403 naming why, and learns nothing of other tenants', async (t) => {
  const session = await owner.get('acme', '/me/workspaces');
  t.is(session.status, 200);
  t.deepEqual(
    (session.body as { data: Array<{ subdomain: string; platform_role: string }> }).data.map((row) => [row.subdomain, row.platform_role]),
    [
      ['acme', 'owner'],
      ['globex', 'admin'],
    ],
  );
  const refusal = { error: "An API key cannot list the account's other workspaces (they belong to other tenants): use a browser session" };
  for (const [name, secret] of [
    ['full-access key', ownerKey],
    ['scoped key with no scopes', emptyKey],
    ["a key an admin made for another member", otherMemberKey],
  ] as const) {
    const keyed = await env.browser().call('acme', 'GET', '/me/workspaces', { headers: bearer(secret) });
    t.deepEqual([keyed.status, keyed.body], [403, refusal], name);
    t.false(keyed.text.includes('Globex'), name);
  }
});

test.serial('sign-up mail: a fixed text with the code and the configured link, nothing the requester typed, whatever the Host headers say', async (t) => {
  const hostile = 'Your account is locked – verify at https://evil.test/now';
  const answer = await env.browser().call(null, 'POST', '/signup', {
    json: { email: 'target@victim.test', name: hostile, workspace_name: `${hostile} (urgent)`, subdomain: 'evilcorp' },
    headers: { 'x-forwarded-host': 'evil.test', forwarded: 'host=evil.test' },
  });
  t.is(answer.status, 200, answer.text);
  const mail = await env.smtp.waitFor('target@victim.test');
  const code = /^\s{4}([0-9A-Z]{10})$/m.exec(mail.text)![1]!;
  t.is(mail.subject, `Your verification code: ${code}`);
  t.is(mail.text.trim(), signupMailText(code, env.runtime.config.publicUrl));
  for (const typed of ['evil', 'locked', 'urgent', 'evilcorp']) t.false(mail.raw.toLowerCase().includes(typed), typed);
});

test.serial('sign-up mail: beside 5 per address, SIGNUP_MAILS_PER_HOUR for the whole server; the next gets 429 with Retry-After and leaves nothing behind', async (t) => {
  // The test above sent one of the three.
  for (const index of [1, 2]) {
    const sent = await env.browser().post(null, '/signup', { email: `person${index}@example.test`, name: 'Person', workspace_name: 'Ws', subdomain: `space${index}` });
    t.is(sent.status, 200, sent.text);
  }
  const count = async (sql: string) => (await env.runtime.db.sequelize.query<{ n: number }>(sql, { type: QueryTypes.SELECT }))[0]!.n;
  const signupsBefore = await count('SELECT count(*)::int AS n FROM platform.signups');
  const refused = await env.browser().post(null, '/signup', { email: 'person3@example.test', name: 'Person', workspace_name: 'Ws', subdomain: 'space3' });
  t.deepEqual([refused.status, refused.body], [429, { error: THROTTLES.signupMails.message }]);
  const retryAfter = Number(refused.headers['retry-after']);
  t.true(retryAfter > 3500 && retryAfter <= 3600, String(retryAfter));
  t.is(await count('SELECT count(*)::int AS n FROM platform.signups'), signupsBefore);
  // The refused request used up nothing of its address's own bound.
  t.is(await count(`SELECT coalesce(sum(cardinality(hits)), 0)::int AS n FROM platform.throttle_counters WHERE key = 'mail:person3@example.test'`), 0);
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.deepEqual(env.smtp.to('person3@example.test'), []);
  t.is(env.runtime.config.signupMailsPerHour, 3);
});

test.serial('a cookie write with neither Origin nor Sec-Fetch-Site is refused 403 naming the missing header, and writes nothing', async (t) => {
  const roles = async () => (await env.runtime.db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM platform.roles', { type: QueryTypes.SELECT }))[0]!.n;
  const before = await roles();
  const events = env.events.length;
  const bare = await owner.post('acme', '/roles', { name: 'Forged' }, { 'sec-fetch-site': '' });
  t.deepEqual([bare.status, bare.body], [403, { error: 'Cross-site request refused: a request with the session cookie must send an Origin header (or Sec-Fetch-Site: same-origin); it has neither' }]);
  for (const [method, path] of [['PUT', '/totps'], ['PATCH', '/roles/anything'], ['DELETE', '/roles/anything']] as const) {
    const answer = await owner.call('acme', method, path, { json: { code: '123456', name: 'x' }, headers: { 'sec-fetch-site': '' } });
    t.deepEqual([answer.status, answer.body], [403, bare.body], method);
  }
  t.is(await roles(), before);
  t.is(env.events.length, events);
  // What browsers send passes: its own Origin, or Sec-Fetch-Site same-origin (or none: typed by the person).
  const acmeOrigin = publicOrigin(env.runtime.config.publicUrl, 'acme');
  t.is((await owner.post('acme', '/roles', { name: 'By origin' }, { origin: acmeOrigin, 'sec-fetch-site': '' })).status, 200);
  t.is((await owner.post('acme', '/roles', { name: 'By fetch metadata' }, { 'sec-fetch-site': 'same-origin' })).status, 200);
  t.is((await owner.post('acme', '/roles', { name: 'Typed' }, { 'sec-fetch-site': 'none' })).status, 200);
  // An API key needs neither (a browser never adds it on its own), and neither does a sign-in without a cookie (curl).
  t.is((await env.browser().call('acme', 'POST', '/roles', { json: { name: 'By key' }, headers: bearer(ownerKey) })).status, 200);
  t.is((await env.browser().call('acme', 'POST', '/sessions', { json: OWNER, headers: { 'sec-fetch-site': '' } })).status, 200);
  t.is(await roles(), before + 4);
});

test.serial("pages send frame-ancestors 'none' and X-Frame-Options DENY (the app shell too); the app front-ends the shell frames keep frame-ancestors 'self'", async (t) => {
  const html = { accept: 'text/html' };
  const pages = {
    'sign-in page': await env.browser().get('acme', '/login', html),
    'site home': await env.browser().get(null, '/', html),
    'app shell': await owner.get('acme', '/app/notes', html),
    'admin screen': await owner.get('acme', '/admin/members', html),
    'error page': await owner.get('acme', '/app/no-such-app', html),
  };
  for (const [name, page] of Object.entries(pages)) {
    t.regex(String(page.headers['content-type']), /^text\/html/, name);
    t.is(page.headers['x-frame-options'], 'DENY', name);
    t.regex(String(page.headers['content-security-policy']), /(^|; )frame-ancestors 'none'$/, name);
  }
  t.is(pages['app shell'].status, 200);
  t.is(pages['error page'].status, 404);
  const front = await owner.get('acme', '/public/apps/notes/page.html', html);
  t.is(front.status, 200);
  t.regex(String(front.headers['content-security-policy']), /frame-ancestors 'self'/);
  t.false(String(front.headers['content-security-policy']).includes("frame-ancestors 'none'"));
  t.is(front.headers['x-frame-options'], undefined);
});
