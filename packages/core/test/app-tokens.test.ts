import test from 'ava';
import WebSocket from 'ws';
import { APP_TOKEN_TTL_SECONDS } from '../src/app-tokens/index.js';
import { body, startAppsRuntime, TestWorkspace, type AppsTestRuntime, type TestCaller } from './helpers/apps.js';
import { apiHeaders } from './helpers/runtime.js';

/**
 * An app's front-end runs in a sandboxed frame with an app token instead of the session cookie
 * (docs/ui.md, "Where app pages run"): the token reaches its own app's routes with the member's
 * permissions, and of the platform only /me, the sockets and search in its app; it expires in
 * minutes and dies with its session.
 */
let env: AppsTestRuntime;
let acme: TestWorkspace;
let globex: TestWorkspace;
let now = new Date('2026-11-28T10:00:00Z');

test.before(async () => {
  env = await startAppsRuntime({ seams: { clock: () => now } });
  acme = await TestWorkspace.create(env, 'acme');
  globex = await TestWorkspace.create(env, 'globex');
  await acme.install('notes', { access_policy: 'everyone' });
  await acme.install('ext.acme.vault', { access_policy: 'everyone' });
  await globex.install('notes', { access_policy: 'everyone' });
  await env.runtime.start();
});

test.after.always(async () => {
  await env?.close();
});

const inject = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
  env.runtime.server.inject({ method, url, headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' }, payload: payload as never });

async function tokenFor(caller: TestCaller, app: string): Promise<string> {
  const answer = await inject('POST', '/app-tokens', caller.headers(), { app });
  if (answer.statusCode !== 200) throw new Error(`app token: ${answer.statusCode} ${answer.payload}`);
  return body(answer).data.token;
}

const bearer = (subdomain: string, token: string) => apiHeaders(subdomain, { authorization: `Bearer ${token}` });

test.serial('POST /app-tokens hands a browser session a token for one app it can open, expiring in minutes; never to a key, an unknown or a closed app', async (t) => {
  const answer = await inject('POST', '/app-tokens', acme.owner.headers(), { app: 'notes' });
  t.is(answer.statusCode, 200);
  const issued = body(answer).data;
  t.regex(issued.token, /^wpka_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  t.is(issued.app, 'notes');
  t.deepEqual(issued.permissions, ['notes.notes.read', 'notes.notes.create', 'notes.notes.delete', 'notes.notes.export'], 'an owner holds every key the app declares');
  t.is(issued.expires_at, new Date(now.getTime() + APP_TOKEN_TTL_SECONDS * 1000).toISOString());
  t.is(answer.headers['cache-control'], 'no-store');

  const key = await acme.owner.key({ fullAccess: true });
  const byKey = await inject('POST', '/app-tokens', key, { app: 'notes' });
  t.is(byKey.statusCode, 403);
  t.deepEqual(body(byKey), { error: 'App tokens are handed out to a browser session only' });
  const unknown = await inject('POST', '/app-tokens', acme.owner.headers(), { app: 'nope' });
  t.is(unknown.statusCode, 404);
  t.deepEqual(body(unknown), { error: 'No app nope' });
  const bad = await inject('POST', '/app-tokens', acme.owner.headers(), { app: 'Not A Slug' });
  t.is(bad.statusCode, 400);
  t.regex(body(bad).error, /^app /);

  // Not installed here; a member whose roles may not open the app.
  t.is((await inject('POST', '/app-tokens', globex.owner.headers(), { app: 'ext.acme.vault' })).statusCode, 403);
  const member = await acme.member();
  const closed = await inject('PUT', '/applications/notes/access', acme.owner.headers(), { access_policy: 'roles', allowed_roles: [] });
  t.is(closed.statusCode, 200);
  const refused = await inject('POST', '/app-tokens', member.headers(), { app: 'notes' });
  t.is(refused.statusCode, 403);
  t.deepEqual(body(refused), { error: "You don't have access to this app" });
  t.is((await inject('PUT', '/applications/notes/access', acme.owner.headers(), { access_policy: 'everyone' })).statusCode, 200);
});

test.serial("a token reaches its app's routes with the member's permissions, never another app's", async (t) => {
  const token = await tokenFor(acme.owner, 'notes');
  const created = await inject('POST', '/notes', bearer('acme', token), { title: 'Written from the frame' });
  t.is(created.statusCode, 200);
  t.is((await inject('GET', '/notes', bearer('acme', token))).statusCode, 200);
  // The owner may read the vault with the session; the notes token may not, owner or not.
  t.is((await inject('GET', '/ext/acme/vault/secrets', acme.owner.headers())).statusCode, 200);
  const other = await inject('GET', '/ext/acme/vault/secrets', bearer('acme', token));
  t.is(other.statusCode, 403);
  t.deepEqual(body(other), { error: "You don't have access to this app" });
  // A plain member: the app's own permissions still decide (an empty slice holds no notes key).
  const role = await acme.role('Notes, nothing', { notes: [] });
  const member = await acme.member('member', [role]);
  const memberToken = await tokenFor(member, 'notes');
  t.deepEqual(body(await inject('POST', '/app-tokens', member.headers(), { app: 'notes' })).data.permissions, [], 'an empty slice: no key to offer');
  const reader = await acme.member('member', [await acme.role('Notes, read', { notes: ['notes.notes.read'] })]);
  t.deepEqual(body(await inject('POST', '/app-tokens', reader.headers(), { app: 'notes' })).data.permissions, ['notes.notes.read']);
  const denied = await inject('GET', '/notes', bearer('acme', memberToken));
  t.is(denied.statusCode, 403);
  t.deepEqual(body(denied), { error: 'Missing permission: notes.notes.read' });
});

test.serial("of the platform a token reaches /me, the sockets' probes and search in its own app only: admin routes, the directory, keys and other workspaces are refused", async (t) => {
  const token = await tokenFor(acme.owner, 'notes');
  const me = await inject('GET', '/me', bearer('acme', token));
  t.is(me.statusCode, 200);
  t.is(body(me).data.credential, 'app_token');
  t.is((await inject('GET', '/live', bearer('acme', token))).statusCode, 200);
  t.is((await inject('GET', '/search?app=notes&q=frame', bearer('acme', token))).statusCode, 200);
  for (const [method, url, payload] of [
    ['GET', '/search?app=ext.acme.vault&q=x'],
    ['POST', '/search', { app: 'ext.acme.vault', q: 'x' }],
    ['GET', '/api-keys'],
    ['POST', '/api-keys', { name: 'from a frame', full_access: true }],
    ['GET', '/members'],
    ['GET', '/me/workspaces'],
    ['GET', '/notifications'],
    ['GET', '/roles'],
    ['POST', '/app-tokens', { app: 'ext.acme.vault' }],
    ['DELETE', '/sessions'],
  ] as Array<[string, string, unknown?]>) {
    const answer = await inject(method, url, bearer('acme', token), payload);
    t.is(answer.statusCode, 403, `${method} ${url}: ${answer.payload}`);
    t.regex(body(answer).error, /^An app's token (reaches its own app's routes only|searches its own app only)/, `${method} ${url}`);
  }
  // Nothing was made by the refused POST.
  t.is(body(await inject('GET', '/api-keys', acme.owner.headers())).data.filter((key: { name: string }) => key.name === 'from a frame').length, 0);
  // Another workspace's token: layer 2.
  const theirs = await tokenFor(globex.owner, 'notes');
  t.is((await inject('GET', '/notes', bearer('acme', theirs))).statusCode, 403);
});

test.serial('a token dies when it expires, when its session signs out, and when it was tampered with', async (t) => {
  const token = await tokenFor(acme.owner, 'notes');
  t.is((await inject('GET', '/notes', bearer('acme', token))).statusCode, 200);
  const forged = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
  const tampered = await inject('GET', '/notes', bearer('acme', forged));
  t.is(tampered.statusCode, 401);
  t.deepEqual(body(tampered), { error: 'Invalid or expired app token' });

  now = new Date(now.getTime() + (APP_TOKEN_TTL_SECONDS - 1) * 1000);
  t.is((await inject('GET', '/notes', bearer('acme', token))).statusCode, 200);
  now = new Date(now.getTime() + 2000);
  const expired = await inject('GET', '/notes', bearer('acme', token));
  t.is(expired.statusCode, 401);
  t.deepEqual(body(expired), { error: 'Invalid or expired app token' });

  // Sign-out: the session goes, and every token of it with it (the next request).
  const member = await acme.member();
  const fresh = await tokenFor(member, 'notes');
  t.is((await inject('GET', '/me', bearer('acme', fresh))).statusCode, 200);
  t.is((await inject('DELETE', '/sessions', member.headers({ origin: 'http://acme.localhost' }))).statusCode, 200);
  t.is((await inject('GET', '/me', bearer('acme', fresh))).statusCode, 401);
});

test.serial('a sandboxed page (Origin: null) may read answers to bearer calls, never cookie-authenticated ones', async (t) => {
  const token = await tokenFor(acme.owner, 'notes');
  const preflight = await inject('OPTIONS', '/notes', apiHeaders('acme', { origin: 'null', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, x-api-version' }));
  t.is(preflight.statusCode, 200);
  t.is(preflight.headers['access-control-allow-origin'], '*');
  t.is(preflight.headers['access-control-allow-credentials'], undefined);
  const withToken = await inject('GET', '/notes', { ...bearer('acme', token), origin: 'null' });
  t.is(withToken.headers['access-control-allow-origin'], '*');
  t.is(withToken.headers['access-control-allow-credentials'], undefined);
  const withCookie = await inject('GET', '/notes', acme.owner.headers({ origin: 'null' }));
  t.is(withCookie.statusCode, 200);
  t.is(withCookie.headers['access-control-allow-origin'], undefined);
  // And a cookie's state change from a sandboxed page is refused before any handler (CSRF).
  const forged = await inject('POST', '/notes', acme.owner.headers({ origin: 'null' }), { title: 'forged' });
  t.is(forged.statusCode, 403);
  // An app's public route takes no cookie: a sandboxed public page may call it.
  t.is((await inject('GET', '/notes-status', apiHeaders('acme', { origin: 'null' }))).headers['access-control-allow-origin'], '*');
});

test.serial("an app's files: only where it is installed, HTML and SVG always sandboxed, nothing sniffed", async (t) => {
  const get = (host: string, url: string) => inject('GET', url, { host });
  const page = await get('acme.localhost', '/public/apps/notes/page.html');
  t.is(page.statusCode, 200);
  t.regex(String(page.headers['content-security-policy']), /^sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads; default-src 'none'; script-src 'self'; style-src 'self';/);
  t.notRegex(String(page.headers['content-security-policy']), /allow-same-origin|unsafe-inline/);
  t.is(page.headers['x-content-type-options'], 'nosniff');
  const svg = await get('acme.localhost', '/public/apps/notes/img/note.svg');
  t.is(svg.statusCode, 200);
  t.regex(String(svg.headers['content-security-policy']), /^sandbox; default-src 'none'/);
  const css = await get('acme.localhost', '/public/apps/notes/notes.css');
  t.is(css.headers['x-content-type-options'], 'nosniff');
  t.is(css.headers['access-control-allow-origin'], '*');
  t.is(css.headers['content-security-policy'], undefined);
  // Not installed in this workspace (vault has public files nowhere; notes is not in initech), nor on the base domain.
  const initech = await TestWorkspace.create(env, 'initech');
  for (const [host, url] of [['initech.localhost', '/public/apps/notes/notes.css'], ['initech.localhost', '/public/apps/notes/page.html'], ['localhost', '/public/apps/notes/notes.css']]) {
    const answer = await get(host, url);
    t.is(answer.statusCode, 404, `${host}${url}`);
    t.deepEqual(body(answer), { error: 'No app notes with public files' });
  }
  // Installed, then uninstalled: served, then gone at once.
  await initech.install('notes', { access_policy: 'everyone' });
  t.is((await get('initech.localhost', '/public/apps/notes/notes.css')).statusCode, 200);
  t.is((await inject('DELETE', '/applications/notes/installations', initech.owner.headers())).statusCode, 200);
  t.is((await get('initech.localhost', '/public/apps/notes/notes.css')).statusCode, 404);
});

/** Opens /live as a browser frame would: the token as a subprotocol, Origin null. */
function frameSocket(token: string): Promise<{ socket: WebSocket; next(): Promise<Record<string, any>> } | { status: number }> {
  return liveSocket(['wpk.live.1', `wpk.token.${token}`], { origin: 'null' });
}

/** Opens /live on acme with these subprotocols and headers (a cookie, an origin). */
function liveSocket(protocols: string[], headers: Record<string, string>): Promise<{ socket: WebSocket; next(): Promise<Record<string, any>> } | { status: number }> {
  const url = new URL(env.runtime.server.info.uri);
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://${url.host}/live?api_version=2026-11-01`, protocols, { headers: { host: 'acme.localhost', ...headers } });
    const queue: Array<Record<string, any>> = [];
    const waiting: Array<(message: Record<string, any>) => void> = [];
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString());
      const waiter = waiting.shift();
      if (waiter) waiter(message);
      else queue.push(message);
    });
    socket.on('unexpected-response', (_request, response) => resolve({ status: response.statusCode ?? 0 }));
    socket.on('open', () => resolve({ socket, next: () => (queue.length ? Promise.resolve(queue.shift()!) : new Promise((done) => waiting.push(done))) }));
    socket.on('error', reject);
  });
}

test.serial("a socket opened with a token joins its own app's channels only, and the member's own notification channel is not one of them", async (t) => {
  const token = await tokenFor(acme.owner, 'notes');
  const opened = await frameSocket(token);
  if (!('socket' in opened)) return t.fail(`refused: ${opened.status}`);
  t.is(opened.socket.protocol, 'wpk.live.1');
  const welcome = await opened.next();
  t.is(welcome.type, 'welcome');
  opened.socket.send(JSON.stringify({ type: 'subscribe', channel: `account/notifications/${acme.owner.memberId}`, ref: 'n' }));
  const refused = await opened.next();
  t.deepEqual([refused.type, refused.status, refused.error], ['error', 403, "You don't have access to this app"]);
  opened.socket.close();
  // Signed out: a new socket with the same token is refused at the upgrade.
  const member = await acme.member();
  const fresh = await tokenFor(member, 'notes');
  await inject('DELETE', '/sessions', member.headers({ origin: 'http://acme.localhost' }));
  const after = await frameSocket(fresh);
  t.deepEqual('status' in after ? after.status : 'open', 401);
});

test.serial("the bell's channel: a member's own notifications arrive live on account/notifications/{member_id}, nobody else's", async (t) => {
  const cookie = acme.owner.headers().cookie;
  const opened = await liveSocket([], { cookie, origin: 'http://acme.localhost' });
  if (!('socket' in opened)) return t.fail(`refused: ${opened.status}`);
  t.is((await opened.next()).type, 'welcome');
  const other = await acme.member('admin');
  opened.socket.send(JSON.stringify({ type: 'subscribe', channel: `account/notifications/${other.memberId}`, ref: 'theirs' }));
  const refused = await opened.next();
  t.deepEqual([refused.type, refused.status], ['error', 403]);
  opened.socket.send(JSON.stringify({ type: 'subscribe', channel: `account/notifications/${acme.owner.memberId}`, ref: 'mine' }));
  const subscribed = await opened.next();
  t.deepEqual([subscribed.type, subscribed.channel], ['subscribed', `account/notifications/${acme.owner.memberId}`]);
  // A member asks for access to the closed vault: owners and admins are notified, the bell hears it.
  await inject('PUT', '/applications/ext.acme.vault/access', acme.owner.headers(), { access_policy: 'roles', allowed_roles: [] });
  const member = await acme.member();
  const asked = await inject('POST', '/applications/ext.acme.vault/access-requests', member.headers({ origin: 'http://acme.localhost' }), { message: 'Please' });
  t.is(asked.statusCode, 200, asked.payload);
  // The request's notification is the owner's newest (a member joining notifies owners too, asynchronously).
  const unread = body(await inject('GET', '/notifications?unread=true', acme.owner.headers())).data as Array<{ id: string; kind: string }>;
  const requested = unread.find((notification) => notification.kind === 'app.access_requested')!;
  let event = await opened.next();
  while (event.data?.id !== requested.id) event = await opened.next();
  t.deepEqual([event.type, event.event], ['event', 'notification.created']);
  // Reading it moves the count on every page of the member.
  t.is((await inject('PATCH', `/notifications/${event.data.id}`, acme.owner.headers({ origin: 'http://acme.localhost' }), { read: true })).statusCode, 200);
  let read = await opened.next();
  while (read.event !== 'notification.read') read = await opened.next();
  t.is(read.data.id, event.data.id);
  opened.socket.close();
});
