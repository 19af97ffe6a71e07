import test from 'ava';
import Hapi from '@hapi/hapi';
import { createHash } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { resolveConfig } from '../src/index.js';
import { SESSION_COOKIE } from '../src/identity/index.js';
import { declareSessionCookie } from '../src/identity/http/cookies.js';
import { parseSetCookie, send } from './helpers/identity-http.js';
import { startIdentityRuntime, signIn, type IdentityTestRuntime } from './helpers/identity-runtime.js';

// Sign-up, verification, sessions across subdomains, cookies, CORS, CSRF and layers 1-2. The
// platform runs on BASE_DOMAIN wpk.test here (the Host header names it), so the cookie carries
// Domain=wpk.test and Secure, as in production.
let env: IdentityTestRuntime;
const OWNER = { email: 'Ada@Example.test', password: 'correct horse battery' };

test.before(async () => {
  env = await startIdentityRuntime({ baseDomain: 'wpk.test' });
  // A second workspace, with its own owner, for the cross-workspace checks.
  await env.runtime.identity.createWorkspaceWithOwner({ subdomain: 'globex', name: 'Globex', ownerEmail: 'hank@globex.test', ownerPassword: 'globex-owner-pw' });
});

test.after.always(async () => {
  await env?.close();
});

const codeIn = (text: string) => /^\s{4}([0-9A-Z]{10})$/m.exec(text)?.[1];

test.serial('sign-up mails a code; verification sets the password, creates the workspace with its owner and starts a session', async (t) => {
  const browser = env.browser();
  const signup = await browser.post(null, '/signup', { email: OWNER.email, name: 'Ada Lovelace', workspace_name: 'Acme', subdomain: 'acme' });
  t.is(signup.status, 200, signup.text);
  t.like(signup.body.data, { email: 'ada@example.test', subdomain: 'acme' });
  t.is(signup.body.links.self, '/signup');

  const mail = await env.smtp.waitFor('ada@example.test');
  const code = codeIn(mail.text);
  t.truthy(code, mail.text);
  t.regex(mail.subject, new RegExp(code!));

  // Not verified yet: the subdomain has no workspace.
  t.is((await browser.get('acme', '/me')).status, 404);

  const wrong = await browser.post(null, '/verifications', { code: 'ZZZZZZZZZZ', password: OWNER.password });
  t.is(wrong.status, 400);
  t.deepEqual(wrong.body, { error: 'Invalid or expired verification code' });

  const verified = await browser.post(null, '/verifications', { code: code!.toLowerCase(), password: OWNER.password });
  t.is(verified.status, 200, verified.text);
  t.like(verified.body.data, { platform_role: 'owner', two_factor_enabled: false, credential: 'session' });
  t.like(verified.body.data.member, { email: 'ada@example.test', name: 'Ada Lovelace', initials: 'AL', state: 'joined', platform_role: 'owner', avatar_url: null });
  t.like(verified.body.data.workspace, { subdomain: 'acme', name: 'Acme', status: 'active' });
  t.truthy(browser.session);

  // The cookie set on the base domain works on the workspace's subdomain.
  const me = await browser.get('acme', '/me');
  t.is(me.status, 200);
  t.is(me.body.data.member.id, verified.body.data.member.id);
  t.is(me.body.links.self, '/me');

  // The code works once.
  const again = await env.browser().post(null, '/verifications', { code, password: OWNER.password });
  t.is(again.status, 400);
  t.deepEqual(again.body, { error: 'Invalid or expired verification code' });

  const created = env.events.filter((event) => event.workspaceId === verified.body.data.workspace.id).map((event) => [event.emitter, event.action, event.payload]);
  t.deepEqual(created, [
    ['system', 'system.workspace.created', { name: 'Acme', owner_id: verified.body.data.member.id }],
    ['system', 'system.workspace.member.added', { member_id: verified.body.data.member.id, role: 'owner' }],
  ]);
});

test.serial('sign-up of a taken subdomain is a 409; the password is stored as an scrypt N=2^17 hash, never in clear', async (t) => {
  const taken = await env.browser().post(null, '/signup', { email: 'x@example.test', name: 'X', workspace_name: 'X', subdomain: 'acme' });
  t.is(taken.status, 409);
  t.deepEqual(taken.body, { error: 'subdomain "acme" is already taken', field: 'subdomain' });
  const [row] = await env.runtime.db.sequelize.query<{ password_hash: string }>(`SELECT password_hash FROM platform.accounts WHERE email = 'ada@example.test'`, { type: QueryTypes.SELECT });
  t.regex(row.password_hash, /^scrypt\$17\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/);
  t.false(row.password_hash.includes(OWNER.password));
});

test.serial('the session cookie: HttpOnly, SameSite=Lax, Secure, on the cookie domain, path /; only its hash is stored', async (t) => {
  const answer = await env.browser().post('acme', '/sessions', { email: OWNER.email, password: OWNER.password });
  t.is(answer.status, 200);
  // Beside it, the known-device cookie (identity-lockout covers it).
  t.deepEqual(answer.cookies.map((line) => parseSetCookie(line).name), [SESSION_COOKIE, 'wpk_device']);
  const cookie = parseSetCookie(answer.cookies[0]);
  t.is(cookie.name, SESSION_COOKIE);
  t.regex(cookie.value, /^[A-Za-z0-9_-]{43}$/);
  t.is(cookie.attributes.httponly, true);
  t.is(cookie.attributes.samesite, 'Lax');
  t.is(cookie.attributes.domain, 'wpk.test');
  t.is(cookie.attributes.path, '/');
  t.is(cookie.attributes['max-age'], String(14 * 24 * 3600));
  t.is(cookie.attributes.secure, true);
  const stored = await env.runtime.db.sequelize.query<{ token_hash: string }>('SELECT token_hash FROM platform.sessions', { type: QueryTypes.SELECT });
  t.false(stored.some((row) => row.token_hash === cookie.value));
  t.true(stored.some((row) => row.token_hash === createHash('sha256').update(cookie.value).digest('hex')));
});

test('the cookie is Secure outside local http, and COOKIE_SECURE / COOKIE_DOMAIN decide when set', async (t) => {
  t.false(resolveConfig({}, {}).cookieSecure);
  t.is(resolveConfig({}, {}).cookieDomain, 'localhost');
  t.true(resolveConfig({}, { BASE_DOMAIN: 'wpk.example.com' }).cookieSecure);
  t.is(resolveConfig({}, { BASE_DOMAIN: 'wpk.example.com' }).cookieDomain, 'wpk.example.com');
  t.is(resolveConfig({}, { BASE_DOMAIN: 'wpk.example.com', COOKIE_DOMAIN: '.example.com' }).cookieDomain, 'example.com');
  t.false(resolveConfig({}, { BASE_DOMAIN: 'wpk.example.com', COOKIE_SECURE: 'false' }).cookieSecure);
  t.throws(() => resolveConfig({}, { COOKIE_SECURE: 'maybe' }), { message: 'COOKIE_SECURE must be true or false, got "maybe"' });

  const cookieFor = async (env: Record<string, string>) => {
    const server = Hapi.server();
    declareSessionCookie(server, resolveConfig({}, env));
    server.route({ method: 'GET', path: '/', handler: (_request, h) => h.response('ok').state(SESSION_COOKIE, 'abc') });
    const answer = await server.inject('/');
    return parseSetCookie(String((answer.headers['set-cookie'] as string[])[0]));
  };
  const production = await cookieFor({ BASE_DOMAIN: 'wpk.example.com' });
  t.like(production.attributes, { secure: true, domain: 'wpk.example.com', httponly: true, samesite: 'Lax', path: '/' });
  // Local http on localhost: no Secure, and no Domain (browsers and curl refuse Domain=localhost).
  const local = await cookieFor({});
  t.like(local.attributes, { httponly: true, samesite: 'Lax', path: '/' });
  t.false('secure' in local.attributes);
  t.false('domain' in local.attributes);
});

test.serial('each sign-in gets a new session id; sign-out ends the session server-side', async (t) => {
  const first = env.browser();
  await signIn(first, 'acme', OWNER.email, OWNER.password);
  const stolen = first.session!;
  const second = env.browser();
  await signIn(second, 'acme', 'ADA@example.test', OWNER.password);
  t.not(first.session, second.session);

  const out = await first.delete('acme', '/sessions');
  t.is(out.status, 200);
  t.deepEqual(out.body.data, { signed_out: true });
  const cleared = parseSetCookie(out.cookies[0]);
  t.is(cleared.name, SESSION_COOKIE);
  t.is(cleared.value, '');
  t.is(first.session, undefined);

  // The old cookie value is worthless now, even if someone kept it.
  const replay = await send(env.baseUrl, { host: 'acme.wpk.test', path: '/me', headers: { 'x-api-version': '2026-11-01', cookie: `${SESSION_COOKIE}=${stolen}` } });
  t.is(replay.status, 401);
  t.deepEqual(replay.body, { error: 'Authentication required' });
  // The other session lives on.
  t.is((await second.get('acme', '/me')).status, 200);
});

test.serial('a wrong password and an unknown email give the same 401; so do an invited member and another workspace’s member', async (t) => {
  await env.runtime.identity.addMember({ workspaceId: (await env.runtime.workspaces.findBySubdomain('acme'))!.id, email: 'joined@example.test', password: 'joined-password', platformRole: 'member' });
  const attempts = [
    { email: OWNER.email, password: 'wrong password' },
    { email: 'nobody@example.test', password: 'wrong password' },
    { email: 'hank@globex.test', password: 'globex-owner-pw' },
  ];
  for (const attempt of attempts) {
    const answer = await env.browser().post('acme', '/sessions', attempt);
    t.is(answer.status, 401, attempt.email);
    t.deepEqual(answer.body, { error: 'Invalid email or password' }, attempt.email);
    t.deepEqual(answer.cookies, []);
  }
  // An invited (not joined) member cannot sign in, even after setting a password by reset.
  const owner = env.browser();
  await signIn(owner, 'acme', OWNER.email, OWNER.password);
  t.is((await owner.post('acme', '/invitations', { email: 'invitee@example.test' })).status, 200);
  const invited = await env.browser().post('acme', '/sessions', { email: 'invitee@example.test', password: 'anything-at-all' });
  t.is(invited.status, 401);
  t.deepEqual(invited.body, { error: 'Invalid email or password' });
  // And password resets answer the same whether the email exists or not.
  const known = await env.browser().post('acme', '/password-resets', { email: OWNER.email });
  const unknown = await env.browser().post('acme', '/password-resets', { email: 'nobody@example.test' });
  t.is(known.status, 200);
  t.is(unknown.status, 200);
  t.deepEqual(known.body, unknown.body);
  t.deepEqual(Object.keys(known.headers).sort(), Object.keys(unknown.headers).sort());
});

test.serial('a call without the cookie is 401; CORS answers the workspace\'s own origin with credentials and Vary: Origin', async (t) => {
  const browser = env.browser();
  await signIn(browser, 'acme', OWNER.email, OWNER.password);
  // The public URL here is https://wpk.test (BASE_DOMAIN wpk.test, Secure cookie): acme's origin is https://acme.wpk.test.
  const origin = 'https://acme.wpk.test';
  const withCookie = await browser.get('acme', '/me', { origin });
  t.is(withCookie.status, 200);
  t.is(withCookie.headers['access-control-allow-origin'], origin);
  t.is(withCookie.headers['access-control-allow-credentials'], 'true');
  t.regex(String(withCookie.headers.vary), /origin/i);

  const withoutCookie = await browser.call('acme', 'GET', '/me', { headers: { origin }, withCookies: false });
  t.is(withoutCookie.status, 401);
  t.deepEqual(withoutCookie.body, { error: 'Authentication required' });
  t.is(withoutCookie.headers['access-control-allow-origin'], origin);
  t.regex(String(withoutCookie.headers.vary), /origin/i);

  const foreign = await browser.get('acme', '/me', { origin: 'https://evil.example' });
  t.is(foreign.headers['access-control-allow-origin'], undefined);

  const preflight = await send(env.baseUrl, {
    host: 'acme.wpk.test',
    method: 'OPTIONS',
    path: '/roles',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-api-version' },
  });
  t.is(preflight.status, 200, preflight.text);
  t.is(preflight.headers['access-control-allow-origin'], origin);
  t.is(preflight.headers['access-control-allow-credentials'], 'true');
  t.regex(String(preflight.headers['access-control-allow-headers']), /x-api-version/i);
});

test.serial('a session used on another workspace’s subdomain is 403', async (t) => {
  const browser = env.browser();
  await signIn(browser, 'acme', OWNER.email, OWNER.password);
  const answer = await browser.get('globex', '/me');
  t.is(answer.status, 403);
  t.deepEqual(answer.body, { error: 'You are not a member of this workspace' });
  const members = await browser.get('globex', '/members');
  t.is(members.status, 403);
});

test.serial('a bearer token is judged alone: an unknown slk_ key is 401 even beside a valid session cookie', async (t) => {
  const browser = env.browser();
  await signIn(browser, 'acme', OWNER.email, OWNER.password);
  for (const token of ['slk_0123456789abcdef', 'not-an-api-key']) {
    const answer = await browser.get('acme', '/me', { authorization: `Bearer ${token}` });
    t.is(answer.status, 401, token);
    t.deepEqual(answer.body, { error: 'Invalid, revoked, or expired API key' });
  }
});

test.serial('an API key of the api-keys concern passes the same scheme; its credentials pass layer 2 like a session', async (t) => {
  const acme = (await env.runtime.workspaces.findBySubdomain('acme'))!;
  const ownerMember = await env.runtime.db.sequelize.query<{ id: string }>(`SELECT id FROM platform.members WHERE workspace_id = :id AND platform_role = 'owner'`, { type: QueryTypes.SELECT, replacements: { id: acme.id } });
  const owner = (await env.runtime.identity.callerForMember(acme.id, ownerMember[0].id))!;
  const { secret } = await env.runtime.apiKeys.create(acme.id, owner, { name: 'scheme test key', full_access: true, member_id: owner.id });
  const good = await send(env.baseUrl, { host: 'acme.wpk.test', path: '/me', headers: { 'x-api-version': '2026-11-01', authorization: `Bearer ${secret}` } });
  t.is(good.status, 200, good.text);
  t.is(good.body.data.credential, 'api_key');
  const elsewhere = await send(env.baseUrl, { host: 'globex.wpk.test', path: '/me', headers: { 'x-api-version': '2026-11-01', authorization: `Bearer ${secret}` } });
  t.is(elsewhere.status, 403);
  t.deepEqual(elsewhere.body, { error: 'You are not a member of this workspace' });
  const bad = await send(env.baseUrl, { host: 'acme.wpk.test', path: '/me', headers: { 'x-api-version': '2026-11-01', authorization: 'Bearer slk_bad' } });
  t.deepEqual([bad.status, bad.body], [401, { error: 'Invalid, revoked, or expired API key' }]);
  // An API-key request is not subject to the cross-site check, and cannot sign out a session.
  const signOut = await send(env.baseUrl, { host: 'acme.wpk.test', method: 'DELETE', path: '/sessions', headers: { 'x-api-version': '2026-11-01', authorization: `Bearer ${secret}`, origin: 'https://evil.example' } });
  t.deepEqual([signOut.status, signOut.body], [403, { error: 'An API key cannot sign out: use a browser session' }]);
});

test.serial('a site page without a session redirects to /login instead of answering 401', async (t) => {
  env.runtime.server.route({ method: 'GET', path: '/fixture-page', options: { app: { wpk: { kind: 'page' } } }, handler: () => 'hello' });
  const anonymous = await env.browser().get('acme', '/fixture-page');
  t.is(anonymous.status, 302);
  t.is(anonymous.headers.location, '/login');
  const browser = env.browser();
  await signIn(browser, 'acme', OWNER.email, OWNER.password);
  const page = await browser.get('acme', '/fixture-page');
  t.deepEqual([page.status, page.text], [200, 'hello']);
});

test.serial('no credential on a protected route is 401; public routes need none', async (t) => {
  const anonymous = env.browser();
  for (const [method, path] of [['GET', '/me'], ['GET', '/members'], ['POST', '/roles'], ['GET', '/admin-audit'], ['DELETE', '/sessions']] as const) {
    const answer = await anonymous.call('acme', method, path, method === 'POST' ? { json: { name: 'x' } } : {});
    t.is(answer.status, 401, `${method} ${path}`);
    t.deepEqual(answer.body, { error: 'Authentication required' });
  }
  t.is((await anonymous.get(null, '/health', {})).status, 200);
});

test.serial('cookie-authenticated state changes from a foreign origin are refused (CSRF); the workspace\'s own origin passes', async (t) => {
  const browser = env.browser();
  await signIn(browser, 'acme', OWNER.email, OWNER.password);
  const forged = await browser.post('acme', '/roles', { name: 'Forged' }, { origin: 'https://evil.example' });
  t.is(forged.status, 403);
  t.deepEqual(forged.body, { error: 'Cross-site request refused: Origin "https://evil.example" is not https://acme.wpk.test or https://wpk.test' });
  const nullOrigin = await browser.post('acme', '/roles', { name: 'Forged' }, { origin: 'null' });
  t.is(nullOrigin.status, 403);
  const fetchMetadata = await browser.post('acme', '/roles', { name: 'Forged' }, { 'sec-fetch-site': 'cross-site' });
  t.is(fetchMetadata.status, 403);
  const roles = await browser.get('acme', '/roles');
  t.deepEqual(roles.body.data, []);
  // A login form on a foreign site cannot sign a victim in either.
  const loginCsrf = await env.browser().post('acme', '/sessions', { email: OWNER.email, password: OWNER.password }, { origin: 'https://evil.example' });
  t.is(loginCsrf.status, 403);

  const sameSite = await browser.post('acme', '/roles', { name: 'From the app' }, { origin: 'https://acme.wpk.test', 'sec-fetch-site': 'same-origin' });
  t.is(sameSite.status, 200, sameSite.text);
  // A sibling workspace's page is refused like any foreign one (test/origins.test.ts has the rest).
  const sibling = await browser.post('acme', '/roles', { name: 'From a sibling' }, { origin: 'https://globex.wpk.test' });
  t.is(sibling.status, 403);
  // GET is never blocked.
  t.is((await browser.get('acme', '/roles', { origin: 'https://evil.example' })).status, 200);
});

test.serial('every bound of sign-up, verification and sign-in is a 400 with an error body', async (t) => {
  const browser = env.browser();
  const cases: Array<[string | null, string, unknown, string, string]> = [
    [null, '/signup', { name: 'A', workspace_name: 'W', subdomain: 'abc' }, 'email is required', 'email'],
    [null, '/signup', { email: 'not-an-email', name: 'A', workspace_name: 'W', subdomain: 'abc' }, 'email must be a valid email', 'email'],
    [null, '/signup', { email: `${'a'.repeat(250)}@x.test`, name: 'A', workspace_name: 'W', subdomain: 'abc' }, 'email length must be less than or equal to 254 characters long', 'email'],
    [null, '/signup', { email: 'a@x.test', name: '', workspace_name: 'W', subdomain: 'abc' }, 'name is not allowed to be empty', 'name'],
    [null, '/signup', { email: 'a@x.test', name: 'n'.repeat(201), workspace_name: 'W', subdomain: 'abc' }, 'name length must be less than or equal to 200 characters long', 'name'],
    [null, '/signup', { email: 'a@x.test', name: 'A', subdomain: 'abc' }, 'workspace_name is required', 'workspace_name'],
    [null, '/signup', { email: 'a@x.test', name: 'A', workspace_name: 'w'.repeat(201), subdomain: 'abc' }, 'workspace_name length must be less than or equal to 200 characters long', 'workspace_name'],
    [null, '/signup', { email: 'a@x.test', name: 'A', workspace_name: 'W' }, 'subdomain is required', 'subdomain'],
    [null, '/signup', { email: 'a@x.test', name: 'A', workspace_name: 'W', subdomain: 'ab' }, 'subdomain length must be at least 3 characters long', 'subdomain'],
    [null, '/signup', { email: 'a@x.test', name: 'A', workspace_name: 'W', subdomain: 'a'.repeat(64) }, 'subdomain length must be less than or equal to 63 characters long', 'subdomain'],
    [null, '/signup', { email: 'a@x.test', name: 'A', workspace_name: 'W', subdomain: 'bad_sub' }, 'subdomain must be 3-63 characters of lowercase letters, digits and single hyphens, not starting or ending with a hyphen', 'subdomain'],
    [null, '/signup', { email: 'a@x.test', name: 'A', workspace_name: 'W', subdomain: 'admin' }, 'subdomain "admin" is reserved', 'subdomain'],
    [null, '/verifications', { password: 'long enough' }, 'code is required', 'code'],
    [null, '/verifications', { code: 'ABCDEFGHJ', password: 'long enough' }, 'code length must be 10 characters long', 'code'],
    [null, '/verifications', { code: 'ABCDEFGHJK' }, 'password is required', 'password'],
    [null, '/verifications', { code: 'ABCDEFGHJK', password: 'short' }, 'password length must be at least 8 characters long', 'password'],
    [null, '/verifications', { code: 'ABCDEFGHJK', password: 'p'.repeat(1025) }, 'password length must be less than or equal to 1024 characters long', 'password'],
    ['acme', '/sessions', { password: 'x' }, 'email is required', 'email'],
    ['acme', '/sessions', { email: 'a@x.test' }, 'password is required', 'password'],
    ['acme', '/sessions', { email: 'a@x.test', password: 'x', totp: '12345' }, 'totp length must be at least 6 characters long', 'totp'],
    ['acme', '/sessions', { email: 'a@x.test', password: 'x', totp: '12345678901' }, 'totp length must be less than or equal to 10 characters long', 'totp'],
    ['acme', '/password-resets', {}, 'email is required', 'email'],
    ['acme', '/password-resets', { email: 'nope' }, 'email must be a valid email', 'email'],
  ];
  for (const [subdomain, path, json, error, field] of cases) {
    const answer = await browser.post(subdomain, path, json);
    t.is(answer.status, 400, `${path} ${JSON.stringify(json)}`);
    t.deepEqual(answer.body, { error, field }, `${path} ${JSON.stringify(json)}`);
  }
  // Sign-up lives on the base domain, sign-in on a workspace subdomain.
  t.is((await browser.post('acme', '/signup', { email: 'a@x.test', name: 'A', workspace_name: 'W', subdomain: 'abc' })).status, 404);
  t.is((await browser.post(null, '/sessions', { email: 'a@x.test', password: 'x' })).status, 404);
});
