import test from 'ava';
import type { RequestRoute } from '@hapi/hapi';
import { type TestRuntime } from './helpers/runtime.js';
import { json, keyedWorkspace, startKeysRuntime, type KeyedWorkspace } from './helpers/keys.js';

let env: TestRuntime;
let a: KeyedWorkspace;
let b: KeyedWorkspace;
const bIds: Record<string, string> = {};

const inject = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
  env.runtime.server.inject({ method, url, headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' }, payload: payload as object });

test.before(async () => {
  env = await startKeysRuntime();
  a = await keyedWorkspace(env, 'alpha');
  b = await keyedWorkspace(env, 'bravo');
  for (const workspace of [a, b]) {
    const installed = await inject('POST', '/applications/notes/installations', workspace.as(workspace.ownerKey), {});
    if (installed.statusCode !== 200) throw new Error(installed.payload);
  }
  bIds.workspace = b.id;
  bIds.owner = b.ownerId;
  bIds.role = json(await inject('POST', '/roles', b.as(b.ownerKey), { name: 'Bravo role', permissions: { notes: ['notes.notes.read'] } })).data.id;
  bIds.key = json(await inject('POST', '/api-keys', b.as(b.ownerKey), { name: 'bravo key', scopes: ['notes.notes.read'] })).data.id;
  bIds.note = json(await inject('POST', '/notes', b.as(b.ownerKey), { title: 'bravo secret note' })).data.id;
});

test.after.always(async () => {
  await env?.close();
});

/** Every route that takes a credential (public routes, CORS preflights and event webhooks answer without one). */
function credentialRoutes(): RequestRoute[] {
  return env.runtime.server.table().filter((route) => {
    // hapi keeps `auth: false` as false, and a route that lets anonymous callers in as mode "try"/"optional".
    const auth = route.settings.auth as false | { mode?: string } | undefined;
    return route.method !== 'options' && auth !== false && auth?.mode !== 'try' && auth?.mode !== 'optional';
  });
}

/** Fills every `{param}` of a route pattern with `value` (`slug` with the installed app). */
function fill(pattern: string, value: string): string {
  return pattern.replace(/\{(\w+)\??\*?\d*\}/g, (_match, name: string) => (name === 'slug' ? 'notes' : value));
}

const BODY_METHODS = new Set(['post', 'put', 'patch']);

/** A JSON body for routes that take one (upload routes declare other media types and get none). */
function bodyFor(route: RequestRoute, body: Record<string, unknown>): Record<string, unknown> | undefined {
  const types = route.settings.app?.wpk?.contentTypes;
  return BODY_METHODS.has(route.method) && (!types || types.includes('application/json')) ? body : undefined;
}

test('a credential of workspace A is refused on every route of workspace B', async (t) => {
  const routes = credentialRoutes();
  t.true(routes.length > 30, `only ${routes.length} routes`);
  for (const route of routes) {
    const url = fill(route.path, bIds.note);
    const response = await inject(route.method.toUpperCase(), url, b.as(a.ownerKey), bodyFor(route, {}));
    t.is(response.statusCode, 403, `${route.method.toUpperCase()} ${route.path}: ${response.payload}`);
    t.deepEqual(json(response), { error: 'You are not a member of this workspace' }, `${route.method.toUpperCase()} ${route.path}`);
  }
});

test("workspace A's credential naming B's ids on A's own subdomain reaches nothing of B", async (t) => {
  const secrets = [...Object.values(bIds), 'owner@bravo.test', 'bravo secret note', 'bravo key', 'Bravo role'];
  let probes = 0;
  for (const route of credentialRoutes()) {
    if (!route.path.includes('{')) continue;
    for (const id of Object.values(bIds)) {
      const url = fill(route.path, id);
      const response = await inject(route.method.toUpperCase(), url, a.as(a.ownerKey), bodyFor(route, { name: 'probe', title: 'probe' }));
      probes += 1;
      // What the caller sent (the id in the URL) may be echoed in a message or links.self; nothing else of B may appear.
      const leaked = secrets.filter((secret) => !url.includes(secret) && response.payload.includes(secret));
      t.deepEqual(leaked, [], `${route.method.toUpperCase()} ${url} answered ${response.statusCode} with B's data: ${response.payload.slice(0, 200)}`);
    }
  }
  t.true(probes > 50);

  // And B is untouched: its owner, role, key and note are all still there and working.
  const bravo = (path: string) => inject('GET', path, b.as(b.ownerKey));
  t.is((await bravo('/me')).statusCode, 200);
  t.true(json(await bravo('/roles')).data.some((role: { id: string }) => role.id === bIds.role));
  t.is(json(await bravo(`/api-keys/${bIds.key}`)).data.status, 'active');
  t.true(json(await bravo('/notes')).data.some((note: { id: string }) => note.id === bIds.note));
  t.is(json(await bravo('/applications/notes/status')).data.status, 'installed');
});
