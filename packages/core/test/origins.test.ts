import test from 'ava';
import { QueryTypes } from 'sequelize';
import { send } from './helpers/identity-http.js';
import { signIn, startIdentityRuntime, type IdentityTestRuntime } from './helpers/identity-runtime.js';

// CSRF and CORS trust only the request's own workspace origin and the base domain's (issue 11,
// item 12): a sibling workspace's page is refused like any foreign one. BASE_DOMAIN wpk.test,
// PUBLIC_URL https://wpk.test: acme's origin is https://acme.wpk.test.
let env: IdentityTestRuntime;
const OWNER = { email: 'ada@acme.test', password: 'ada-owner-password' };
const ACME = 'https://acme.wpk.test';
const GLOBEX = 'https://globex.wpk.test';
const BASE = 'https://wpk.test';

test.before(async () => {
  env = await startIdentityRuntime({ baseDomain: 'wpk.test', publicUrl: BASE, scryptLogN: 10 });
  await env.runtime.identity.createWorkspaceWithOwner({ subdomain: 'acme', name: 'Acme', ownerEmail: OWNER.email, ownerPassword: OWNER.password });
  await env.runtime.identity.createWorkspaceWithOwner({ subdomain: 'globex', name: 'Globex', ownerEmail: 'hank@globex.test', ownerPassword: 'globex-owner-pw' });
});

test.after.always(async () => {
  await env?.close();
});

const roleCount = async () => (await env.runtime.db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM platform.roles', { type: QueryTypes.SELECT }))[0].n;

test.serial("a cookie write from a sibling workspace's page is refused 403, writes nothing, emits nothing and gets no CORS headers", async (t) => {
  const browser = env.browser();
  await signIn(browser, 'acme', OWNER.email, OWNER.password);
  const roles = await roleCount();
  const events = env.events.length;
  for (const origin of [GLOBEX, 'http://acme.wpk.test', 'https://acme.wpk.test:8443', 'https://acme.wpk.test.evil.example']) {
    const answer = await browser.post('acme', '/roles', { name: 'Forged' }, { origin });
    t.is(answer.status, 403, origin);
    t.deepEqual(answer.body, { error: `Cross-site request refused: Origin ${JSON.stringify(origin)} is not ${ACME} or ${BASE}` }, origin);
    t.is(answer.headers['access-control-allow-origin'], undefined, origin);
    t.is(answer.headers['access-control-allow-credentials'], undefined, origin);
    t.regex(String(answer.headers.vary), /origin/i);
  }
  const sameSite = await browser.post('acme', '/roles', { name: 'Forged' }, { 'sec-fetch-site': 'same-site' });
  t.deepEqual([sameSite.status, sameSite.body], [403, { error: 'Cross-site request refused: Sec-Fetch-Site is "same-site" and the request has no Origin' }]);
  t.is(await roleCount(), roles);
  t.is(env.events.length, events);
});

test.serial("the workspace's own origin, and the base domain's pages, may write with the cookie and read the answer", async (t) => {
  const browser = env.browser();
  // The base domain's sign-in page signs in to a workspace.
  const session = await browser.post('acme', '/sessions', OWNER, { origin: BASE });
  t.is(session.status, 200, session.text);
  t.is(session.headers['access-control-allow-origin'], BASE);
  t.is(session.headers['access-control-allow-credentials'], 'true');

  const own = await browser.post('acme', '/roles', { name: 'From Acme' }, { origin: ACME });
  t.is(own.status, 200, own.text);
  t.is(own.headers['access-control-allow-origin'], ACME);
  t.is(own.headers['access-control-allow-credentials'], 'true');
  t.is(own.headers['access-control-expose-headers'], 'x-request-id,x-api-version,retry-after');
  t.regex(String(own.headers.vary), /origin/i);
});

test.serial("reads: CORS answers only the workspace's own origin (and the base domain's), not a sibling's", async (t) => {
  const browser = env.browser();
  await signIn(browser, 'acme', OWNER.email, OWNER.password);
  const own = await browser.get('acme', '/me', { origin: ACME });
  t.is(own.status, 200);
  t.is(own.headers['access-control-allow-origin'], ACME);
  const base = await browser.get('acme', '/me', { origin: BASE });
  t.is(base.headers['access-control-allow-origin'], BASE);
  const sibling = await browser.get('acme', '/me', { origin: GLOBEX });
  t.is(sibling.status, 200); // a browser gets the answer but may not hand it to the page
  t.is(sibling.headers['access-control-allow-origin'], undefined);
  t.is(sibling.headers['access-control-allow-credentials'], undefined);
  t.regex(String(sibling.headers.vary), /origin/i);
  // Unknown routes and errors carry the same rule.
  const missing = await browser.get('acme', '/no-such-route', { origin: GLOBEX });
  t.is(missing.status, 404);
  t.is(missing.headers['access-control-allow-origin'], undefined);
});

test.serial('preflight: the own origin is allowed; a sibling, a foreign header or an unknown route is refused with a JSON error', async (t) => {
  const preflight = (origin: string | null, method = 'POST', path = '/roles', headers = 'content-type, x-api-version') =>
    send(env.baseUrl, { host: 'acme.wpk.test', method: 'OPTIONS', path, headers: { ...(origin ? { origin } : {}), 'access-control-request-method': method, 'access-control-request-headers': headers } });
  const own = await preflight(ACME);
  t.is(own.status, 200, own.text);
  t.is(own.headers['access-control-allow-origin'], ACME);
  t.is(own.headers['access-control-allow-credentials'], 'true');
  t.is(own.headers['access-control-allow-methods'], 'POST');
  t.is(own.headers['access-control-allow-headers'], 'accept,authorization,content-type,if-none-match,x-api-version');
  t.is(own.headers['access-control-max-age'], '86400');

  const sibling = await preflight(GLOBEX);
  t.deepEqual([sibling.status, sibling.body], [403, { error: `CORS preflight refused: Origin "${GLOBEX}" is not this site's` }]);
  t.is(sibling.headers['access-control-allow-origin'], undefined);
  const none = await preflight(null);
  t.deepEqual([none.status, none.body], [403, { error: 'CORS preflight refused: Origin "" is not this site\'s' }]);
  const header = await preflight(ACME, 'POST', '/roles', 'content-type, x-evil');
  t.deepEqual([header.status, header.body], [403, { error: 'CORS preflight refused: header x-evil may not be sent' }]);
  const route = await preflight(ACME, 'PATCH', '/no-such-route');
  t.deepEqual([route.status, route.body], [404, { error: 'No route PATCH /no-such-route' }]);
});

test.serial("platform routes on the base domain trust the base domain's origin only", async (t) => {
  const signup = (origin: string) =>
    send(env.baseUrl, { host: 'wpk.test', method: 'POST', path: '/signup', headers: { 'x-api-version': '2026-11-01', origin }, json: { email: `${origin.length}@signup.test`, name: 'Sam', workspace_name: 'Sams', subdomain: `sams${origin.length}` } });
  const fromBase = await signup(BASE);
  t.is(fromBase.status, 200, fromBase.text);
  t.is(fromBase.headers['access-control-allow-origin'], BASE);
  const fromWorkspace = await signup(ACME);
  t.deepEqual([fromWorkspace.status, fromWorkspace.body], [403, { error: `Cross-site request refused: Origin "${ACME}" is not ${BASE}` }]);
});
