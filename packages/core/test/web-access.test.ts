import test from 'ava';
import type { RequestRoute } from '@hapi/hapi';
import { QueryTypes } from 'sequelize';
import { startIdentityRuntime, type IdentityTestRuntime } from './helpers/identity-runtime.js';
import { NOTES_DIR } from './helpers/apps.js';

// Every workspace screen is proven, from the server's own route table, to answer each kind of
// visitor exactly as the JSON API would: a screen missing from the tables below fails the test.

let env: IdentityTestRuntime;
const cookies: Record<string, string> = {};
const ids: Record<string, string> = {};

type Visitor = 'owner' | 'admin' | 'member' | 'outsider' | 'signedOut';
const VISITORS: Visitor[] = ['owner', 'admin', 'member', 'outsider', 'signedOut'];

/** `ok` 200 HTML; `403` the HTML "Not allowed" page; `login` 302 to /login?next=<the path>; `404` HTML. */
type Outcome = 'ok' | '403' | 'login' | '404';

const api = (subdomain: string, extra: Record<string, string> = {}) => ({ host: `${subdomain}.localhost`, 'x-api-version': '2026-11-01', ...extra });

async function inject(method: string, url: string, headers: Record<string, string>, payload?: unknown) {
  return env.runtime.server.inject({ method, url, headers, payload: payload as never });
}

async function sessionCookie(subdomain: string, email: string, password: string): Promise<string> {
  const answer = await inject('POST', '/sessions', api(subdomain), { email, password });
  if (answer.statusCode !== 200) throw new Error(`sign-in of ${email}: ${answer.statusCode} ${answer.payload}`);
  return ([] as string[]).concat(answer.headers['set-cookie'] ?? [])[0].split(';')[0];
}

test.before(async () => {
  env = await startIdentityRuntime({ apps: [{ dir: NOTES_DIR, firstParty: true }], configFile: false, scryptLogN: 10 });
  const identity = env.runtime.identity;
  const acme = await identity.createWorkspaceWithOwner({ subdomain: 'acme', name: 'Acme', ownerEmail: 'owner@acme.test', ownerPassword: 'owner-password-1', ownerName: 'Olive Owner' });
  await identity.addMember({ workspaceId: acme.workspaceId, email: 'ada@acme.test', password: 'ada-password-1', platformRole: 'admin', name: 'Ada Admin' });
  const member = await identity.addMember({ workspaceId: acme.workspaceId, email: 'mo@acme.test', password: 'mo-password-1', platformRole: 'member', name: 'Mo Member' });
  await identity.createWorkspaceWithOwner({ subdomain: 'other', name: 'Other', ownerEmail: 'owner@other.test', ownerPassword: 'other-password-1', ownerName: 'Otto Other' });
  Object.assign(ids, { workspace: acme.workspaceId, member: member.memberId });
  cookies.owner = await sessionCookie('acme', 'owner@acme.test', 'owner-password-1');
  cookies.admin = await sessionCookie('acme', 'ada@acme.test', 'ada-password-1');
  cookies.member = await sessionCookie('acme', 'mo@acme.test', 'mo-password-1');
  // A session of another workspace, presented on this one (layer 2).
  cookies.outsider = await sessionCookie('other', 'owner@other.test', 'other-password-1');
  const owner = api('acme', { cookie: cookies.owner, 'sec-fetch-site': 'same-origin' });
  const installed = await inject('POST', '/applications/notes/installations', owner, {});
  const role = await inject('POST', '/roles', owner, { name: 'Editors' });
  const key = await inject('POST', '/api-keys', owner, { name: 'CI', full_access: true });
  if (installed.statusCode !== 201 && installed.statusCode !== 200) throw new Error(`install: ${installed.statusCode} ${installed.payload}`);
  ids.role = JSON.parse(role.payload).data.id;
  ids.key = JSON.parse(key.payload).data.id;
});
test.after.always(async () => {
  await env?.close();
});

/** The workspace's page routes of one method, straight from hapi's route table. */
function pageRoutes(method: 'get' | 'post'): RequestRoute[] {
  return env.runtime.server.table().filter((route) => {
    const wpk = (route.settings.app as { wpk?: { kind?: string; scope?: string } } | undefined)?.wpk;
    return route.method === method && wpk?.kind === 'page' && wpk.scope !== 'platform';
  });
}

function urlOf(path: string): string {
  return path
    .replace('{id}', ids.workspace)
    .replace('{member_id}', ids.member)
    .replace('{role_id}', ids.role)
    .replace('{key_id}', ids.key)
    .replace('{slug}', 'notes')
    .replace('{path*}', 'deep/link')
    .replace('{token}', 'no-such-token');
}

const ADMIN_SCREEN: Outcome[] = ['ok', 'ok', '403', '403', 'login'];
const MEMBER_SCREEN: Outcome[] = ['ok', 'ok', 'ok', '403', 'login'];
const OPEN_PAGE: Outcome[] = ['ok', 'ok', 'ok', 'ok', 'ok'];
const OWNER_SCREEN: Outcome[] = ['ok', '403', '403', '403', 'login'];

/** What each visitor gets on each GET page route of a workspace (owner, admin, member, outsider, signed out). */
const GET_OUTCOMES: Record<string, Outcome[]> = {
  '/': MEMBER_SCREEN,
  // notes is installed open to roles only, and the plain member holds none: the shell refuses as layer 4 does.
  '/app/{slug}/{path*}': ADMIN_SCREEN,
  '/partials/apps': MEMBER_SCREEN,
  '/admin/members': MEMBER_SCREEN,
  '/partials/members': MEMBER_SCREEN,
  '/workspaces/{id}/partials/members': MEMBER_SCREEN,
  '/admin/roles': MEMBER_SCREEN,
  '/admin/apps': ADMIN_SCREEN,
  '/admin/api-keys': ADMIN_SCREEN,
  '/partials/api-keys': ADMIN_SCREEN,
  '/partials/invoices': OWNER_SCREEN,
  '/admin/activity': MEMBER_SCREEN,
  '/partials/activity': MEMBER_SCREEN,
  '/partials/audit': ADMIN_SCREEN,
  '/partials/workspaces': MEMBER_SCREEN,
  '/partials/threads': ADMIN_SCREEN,
  '/partials/microns': OWNER_SCREEN,
  '/partials/coupons': OWNER_SCREEN,
  '/partials/demos': ADMIN_SCREEN,
  '/partials/preview-apps': ADMIN_SCREEN,
  '/partials/releases': ADMIN_SCREEN,
  '/admin/settings': MEMBER_SCREEN,
  '/admin-mode': MEMBER_SCREEN,
  '/account/two-factor': MEMBER_SCREEN,
  '/login': OPEN_PAGE,
  '/logout': OPEN_PAGE,
  '/reset-password': OPEN_PAGE,
  '/password-resets/{token}': OPEN_PAGE,
  '/invitations/{token}': OPEN_PAGE,
  '/robots.txt': OPEN_PAGE,
};

async function visit(method: string, url: string, visitor: Visitor, payload?: string) {
  // As a browser sends them: a navigation or a form of the site's own page says so (Sec-Fetch-Site).
  const headers: Record<string, string> = { host: 'acme.localhost', accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8', 'sec-fetch-site': 'same-origin' };
  if (visitor !== 'signedOut') headers.cookie = cookies[visitor];
  if (payload !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  return inject(method, url, headers, payload);
}

test.serial('every GET screen of a workspace answers owner, admin, member, another workspace and a signed-out browser as the API would', async (t) => {
  const routes = pageRoutes('get');
  t.deepEqual(routes.map((route) => route.path).sort(), Object.keys(GET_OUTCOMES).sort(), 'every workspace page route has its expected outcomes');
  for (const route of routes) {
    const url = urlOf(route.path);
    for (const [index, visitor] of VISITORS.entries()) {
      const expected = GET_OUTCOMES[route.path][index];
      const answer = await visit('GET', url, visitor);
      const label = `GET ${route.path} as ${visitor}`;
      if (expected === 'login') {
        t.is(answer.statusCode, 302, label);
        t.is(answer.headers.location, `/login?next=${encodeURIComponent(url)}`, label);
        continue;
      }
      t.is(answer.statusCode, { ok: 200, '403': 403, '404': 404 }[expected], label);
      if (route.path === '/robots.txt') continue;
      t.regex(String(answer.headers['content-type']), /^text\/html/, label);
      if (expected === '403') t.regex(answer.payload, /<h1>Not allowed<\/h1>/, label);
    }
  }
});

/** A valid form for each POST screen, so a refusal is the access rule, not validation. */
const POST_FORMS: Record<string, string> = {
  '/admin/members/invite': 'email=new%40acme.test&platform_role=member',
  '/admin/members/{member_id}/role': 'platform_role=admin',
  '/admin/members/{member_id}/deactivate': '',
  '/admin/roles': 'name=Sneaky&permissions=notes.notes.read',
  '/admin/apps/{slug}/install': '',
  '/admin/apps/{slug}/access': 'access_policy=everyone',
  '/admin/apps/{slug}/settings': 'default_title=Mine&max_notes=5',
  '/admin/apps/{slug}/roles/{role_id}/permissions': 'permissions=notes.notes.read',
  '/admin/api-keys': 'name=Mine&access=full',
  '/admin/api-keys/{key_id}/rotate': '',
  '/admin/api-keys/{key_id}/revoke': '',
  '/admin-mode': 'reason=Because&password=mo-password-1',
  '/launcher/{slug}/request': 'kind=access&message=Please',
  '/account/two-factor/setup': '',
  '/account/two-factor/enable': 'code=000000',
  '/account/two-factor/disable': 'password=mo-password-1',
  '/login': 'email=mo%40acme.test&password=wrong-password',
  '/logout': '',
  '/reset-password': 'email=',
  '/password-resets/{token}': 'password=new-password-1',
  '/invitations/{token}': 'password=new-password-1',
};

/** The reason a plain member is shown, on the "Not allowed" page: the API's own (layer 3). */
const MEMBER_REFUSALS: Record<string, string> = {
  '/admin/members/invite': 'Only workspace owners and admins can invite members',
  '/admin/members/{member_id}/role': 'Only workspace owners and admins can change members',
  '/admin/members/{member_id}/deactivate': 'Only workspace owners and admins can remove members',
  '/admin/roles': 'Only workspace owners and admins can manage roles',
  '/admin/apps/{slug}/install': 'Only workspace owners and admins can install apps',
  '/admin/apps/{slug}/access': 'Only workspace owners and admins can change app access',
  '/admin/apps/{slug}/settings': 'Only workspace owners and admins can view app access',
  '/admin/apps/{slug}/roles/{role_id}/permissions': 'Only workspace owners and admins can change role permissions',
  '/admin/api-keys': 'Only workspace owners and admins can manage API keys',
  '/admin/api-keys/{key_id}/rotate': 'Only workspace owners and admins can manage API keys',
  '/admin/api-keys/{key_id}/revoke': 'Only workspace owners and admins can manage API keys',
};

/** Admin actions: refused to a plain member (403), to another workspace's session (403) and signed out (401). */
const ADMIN_ACTIONS = Object.keys(POST_FORMS).filter((path) => path.startsWith('/admin/'));

/** The reason the "Not allowed" page gives. */
function refusalOf(html: string): string | undefined {
  return /<h1>Not allowed<\/h1>\s*<p>([^<]*)<\/p>/.exec(html)?.[1];
}

async function snapshot(): Promise<string> {
  const tables = ['members', 'roles', 'api_keys', 'app_installations', 'accounts'];
  const parts = [];
  for (const table of tables) {
    const [row] = await env.runtime.db.sequelize.query<{ digest: string | null }>(`SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) AS digest FROM platform.${table} t`, { type: QueryTypes.SELECT });
    parts.push(`${table}:${row.digest}`);
  }
  return parts.join(' ');
}

test.serial('every admin action through a screen is refused to a plain member, another workspace and a signed-out browser, changing nothing', async (t) => {
  const routes = pageRoutes('post');
  t.deepEqual(routes.map((route) => route.path).sort(), Object.keys(POST_FORMS).sort(), 'every POST screen has a form here');
  const before = await snapshot();
  const events = env.events.length;
  for (const path of ADMIN_ACTIONS) {
    const url = urlOf(path);
    const member = await visit('POST', url, 'member', POST_FORMS[path]);
    t.is(member.statusCode, 403, `POST ${path} as member: ${member.payload.slice(0, 200)}`);
    t.is(refusalOf(member.payload), MEMBER_REFUSALS[path], `POST ${path} as member`);
    const outsider = await visit('POST', url, 'outsider', POST_FORMS[path]);
    t.is(outsider.statusCode, 403, `POST ${path} from another workspace`);
    const signedOut = await visit('POST', url, 'signedOut', POST_FORMS[path]);
    t.is(signedOut.statusCode, 401, `POST ${path} signed out`);
    t.regex(signedOut.payload, /<h1>Please sign in<\/h1>/, `POST ${path} signed out`);
  }
  t.is(await snapshot(), before, 'no row changed');
  t.is(env.events.length, events, 'no event');
});

test.serial('the sign-in screens of a workspace are open to everyone; the account screens act on the visitor only', async (t) => {
  // Elevation: a plain member holds no admin role to raise.
  const elevate = await visit('POST', '/admin-mode', 'member', POST_FORMS['/admin-mode']);
  t.is(elevate.statusCode, 403);
  // Two-factor is the visitor's own: a member may set it up; a wrong code is refused beside its field.
  const setup = await visit('POST', '/account/two-factor/setup', 'member', '');
  t.is(setup.statusCode, 200);
  t.regex(setup.payload, /id="totp-secret">[A-Z2-7]{16,}</);
  const wrong = await visit('POST', '/account/two-factor/enable', 'member', 'code=000000');
  t.is(wrong.statusCode, 400);
  t.regex(wrong.payload, /<p class="field-error" id="e-code">Invalid TOTP code<\/p>/);
  for (const visitor of ['outsider', 'signedOut'] as const) t.is((await visit('POST', '/account/two-factor/setup', visitor, '')).statusCode, visitor === 'outsider' ? 403 : 401, visitor);
  // The launcher's request for access: any member of this workspace, for themselves.
  const tooLong = await visit('POST', '/launcher/notes/request', 'member', `kind=access&message=${'x'.repeat(281)}`);
  t.is(tooLong.statusCode, 400);
  t.regex(tooLong.payload, /<p class="field-error" id="me-0">message length must be less than or equal to 280 characters long<\/p>/);
  const asked = await visit('POST', '/launcher/notes/request', 'member', POST_FORMS['/launcher/{slug}/request']);
  t.is(asked.statusCode, 303);
  t.is(asked.headers.location, '/?done=access-requested');
  const [request] = await env.runtime.db.sequelize.query<{ kind: string; message: string; member_id: string }>('SELECT kind, message, member_id FROM platform.app_requests', { type: QueryTypes.SELECT });
  t.deepEqual(request, { kind: 'access', message: 'Please', member_id: ids.member });
  const launcher = await visit('GET', '/?done=access-requested', 'member');
  t.regex(launcher.payload, /<p class="notice" role="status">Your request for access went to the owners and admins.<\/p>/);
  t.regex(launcher.payload, /<button type="submit">Ask for access to Notes<\/button>/);
  t.is((await visit('POST', '/launcher/notes/request', 'outsider', POST_FORMS['/launcher/{slug}/request'])).statusCode, 403);
  t.is((await visit('POST', '/launcher/notes/request', 'signedOut', POST_FORMS['/launcher/{slug}/request'])).statusCode, 401);
  // Sign-in pages: a refusal beside the field, whoever asks.
  const login = await visit('POST', '/login', 'signedOut', POST_FORMS['/login']);
  t.is(login.statusCode, 401);
  const join = await visit('POST', '/invitations/no-such-token', 'signedOut', POST_FORMS['/invitations/{token}']);
  t.is(join.statusCode, 404);
  // Signing out ends only the visitor's own session: the owner's still works.
  const logout = await visit('POST', '/logout', 'admin', '');
  t.is(logout.statusCode, 303);
  t.is(logout.headers.location, '/login');
  t.is((await visit('GET', '/admin/members', 'admin')).statusCode, 302);
  t.is((await visit('GET', '/admin/members', 'owner')).statusCode, 200);
});

test.serial("/public/apps/{app}/* serves the app's declared folder, confined to it, only on a workspace where the app is installed", async (t) => {
  const get = (url: string) => inject('GET', url, { host: 'acme.localhost' });
  const css = await get('/public/apps/notes/notes.css');
  t.is(css.statusCode, 200);
  t.is(css.payload, '.note { color: #1a1a1a; }\n');
  t.regex(String(css.headers['content-type']), /^text\/css/);
  t.is(css.headers['cache-control'], 'public, max-age=3600');
  const svg = await get('/public/apps/notes/img/note.svg');
  t.is(svg.statusCode, 200);
  t.regex(String(svg.headers['content-type']), /^image\/svg\+xml/);
  t.is(css.headers['x-content-type-options'], 'nosniff');
  t.regex(String(svg.headers['content-security-policy']), /^sandbox;/);
  // Nothing of the app where it is not installed: another workspace, the base domain.
  for (const host of ['other.localhost', 'localhost']) {
    const answer = await inject('GET', '/public/apps/notes/notes.css', { host });
    t.is(answer.statusCode, 404, host);
    t.deepEqual(JSON.parse(answer.payload), { error: 'No app notes with public files' }, host);
  }
  // The manifest, the code and anything else above the declared folder stay out of reach.
  for (const escape of ['/public/apps/notes/..%2Fapp.json', '/public/apps/notes/..%2F..%2Fnotes%2Fapp.json', '/public/apps/notes/img%2F..%2F..%2Fsrc%2Findex.ts', '/public/apps/notes/%2E%2E/app.json']) {
    const answer = await get(escape);
    t.true(answer.statusCode === 403 || answer.statusCode === 404, `${escape}: ${answer.statusCode}`);
    t.false(answer.payload.includes('"slug"'), escape);
  }
  const missing = await get('/public/apps/notes/nothing.css');
  t.is(missing.statusCode, 404);
  const unknown = await get('/public/apps/nope/notes.css');
  t.is(unknown.statusCode, 404);
  t.deepEqual(JSON.parse(unknown.payload), { error: 'No app nope with public files' });
});

test.serial('the demo form (POST /) is bounded per client address: the sixth request in an hour is refused before any mail', async (t) => {
  const operator = /<([^>]+)>/.exec(env.runtime.config.mailFrom)?.[1] ?? env.runtime.config.mailFrom;
  const mailsBefore = env.smtp.to(operator).length;
  const post = (address: string, name: string) =>
    env.runtime.server.inject({ method: 'POST', url: '/', headers: { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' }, payload: `name=${name}&email=dana%40example.test&message=Hello`, remoteAddress: address });
  // A mistyped form does not count.
  const invalid = await env.runtime.server.inject({ method: 'POST', url: '/', headers: { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=Dana&email=nope&message=Hi', remoteAddress: '203.0.113.7' });
  t.is(invalid.statusCode, 400);
  for (let index = 1; index <= 5; index += 1) t.is((await post('203.0.113.7', `Dana${index}`)).statusCode, 200, `request ${index}`);
  const refused = await post('203.0.113.7', 'Dana6');
  t.is(refused.statusCode, 429);
  t.regex(String(refused.headers['retry-after']), /^[1-9][0-9]*$/);
  t.true(Number(refused.headers['retry-after']) <= 3600);
  t.regex(refused.payload, /<p class="form-error" role="alert">Too many demo requests from this address; try again in an hour<\/p>/);
  t.regex(refused.payload, /value="Dana6"/, 'the form keeps what was typed');
  // Another address is not affected.
  t.is((await post('198.51.100.2', 'Eve')).statusCode, 200);
  await env.smtp.waitFor(operator, (mail) => mail.subject === 'Demo request from Eve');
  t.deepEqual(env.smtp.to(operator).slice(mailsBefore).map((mail) => mail.subject).sort(), ['Dana1', 'Dana2', 'Dana3', 'Dana4', 'Dana5', 'Eve'].map((name) => `Demo request from ${name}`).sort());
});

test.serial('on a single-label base domain (localhost) /verify sends the new owner to sign in on the workspace, told why; the sign-in works', async (t) => {
  const form = (host: string, url: string, body: Record<string, string>) =>
    env.runtime.server.inject({ method: 'POST', url, headers: { host, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }, payload: new URLSearchParams(body).toString() });
  const sent = await form('localhost', '/signup/send-code', { name: 'Lena Local', email: 'lena@example.test', workspace_name: 'Lena Co', subdomain: 'lenaco' });
  t.is(sent.statusCode, 303);
  const code = /code: (\S+)/.exec((await env.smtp.waitFor('lena@example.test')).subject)![1];
  const verified = await form('localhost', '/verify', { code, password: 'lena-password-1' });
  t.is(verified.statusCode, 303);
  // The session cookie cannot span subdomains of `localhost`: the workspace's own sign-in, with a word why.
  t.is(verified.headers.location, 'http://lenaco.localhost/login?welcome=1');
  const login = await env.runtime.server.inject({ method: 'GET', url: '/login?welcome=1', headers: { host: 'lenaco.localhost' } });
  t.regex(login.payload, /<p class="notice" role="status">Your workspace is ready. Sign in with the email and password you just chose.<\/p>/);
  const signedIn = await form('lenaco.localhost', '/login', { email: 'lena@example.test', password: 'lena-password-1', next: '/' });
  t.is(signedIn.statusCode, 303);
  t.is(signedIn.headers.location, '/');
  t.regex(String(signedIn.headers['set-cookie']), /HttpOnly/i);
});

test.serial("a page puts a refusal beside the input its field names, though the message does not start with it", async (t) => {
  // `A role named "Editors" already exists` names no field in its words: the answer's field does.
  const clash = await visit('POST', '/admin/roles', 'owner', 'name=Editors&permissions=notes.notes.read');
  t.is(clash.statusCode, 409);
  t.regex(clash.payload, /<input id="f-name" name="name" type="text" value="Editors"[^>]* aria-invalid="true" aria-describedby="e-name">/);
  t.regex(clash.payload, /<p class="field-error" id="e-name">A role named &quot;Editors&quot; already exists<\/p>/);
  t.notRegex(clash.payload, /class="form-error"/);
  // A path under a form field (`permissions.notes`) lands on that field.
  const malformed = await visit('POST', '/admin/roles', 'owner', 'name=Writers&permissions=notes.bad');
  t.is(malformed.statusCode, 400);
  t.regex(malformed.payload, /<p class="field-error" id="e-permissions">permissions\.notes: &quot;notes\.bad&quot; is not a permission key of notes/);
  t.notRegex(malformed.payload, /class="form-error"/);
});
