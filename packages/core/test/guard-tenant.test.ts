/**
 * Tenant guard, driven by the route table of core plus every app of the root wpk.config.json:
 * on workspace A's subdomain, as A's owner, naming workspace B's records in a path answers exactly
 * as naming records that do not exist (same status, same body once the ids are normalised), and
 * leaves B's rows as they were. A new route is covered the day it is added; a new path parameter
 * must be mapped to a seeded record (or listed in UNSEEDABLE with its reason) or this test fails.
 */
import test from 'ava';
import { randomBytes, randomUUID } from 'node:crypto';
import type { RequestRoute } from '@hapi/hapi';
import { described, elevatedOwnerSession, fieldIds, fieldKind, PNG, requiredQuery, fillPath, hostFor, paramSource, paramsOf, sampleBody, seedWorkspace, startGuardRuntime, workspaceFingerprint, type GuardRuntime, type JoiDescription, type SeedKind, type SeededWorkspace } from './helpers/guard.js';

let env: GuardRuntime;
let a: SeededWorkspace;
let b: SeededWorkspace;
/** A's owner two ways: its full-access key, and an elevated session (routes a key cannot reach). */
let credentials: Array<{ label: string; headers: Record<string, string> }>;

test.before(async () => {
  env = await startGuardRuntime();
  a = await seedWorkspace(env, 'alpha');
  b = await seedWorkspace(env, 'bravo');
  credentials = [
    { label: 'key', headers: a.as(a.ownerKey) },
    { label: 'elevated session', headers: await elevatedOwnerSession(env, a) },
  ];
});

test.after.always(async () => {
  await env?.close();
});

const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/** Routes with path parameters that take a credential or a token (CORS preflights aside). */
function parameterisedRoutes(): RequestRoute[] {
  return env.runtime.server
    .table()
    .filter((route) => route.method !== 'options' && paramsOf(route.path).length > 0)
    .sort((x, y) => Number(x.method === 'delete') - Number(y.method === 'delete'));
}

/** A value shaped like B's id of that kind, that names nothing. */
function randomLike(kind: SeedKind): string {
  if (kind === 'member_mrn') return `mrn:account:member:${randomUUID()}`;
  return kind === 'invitation' ? randomBytes(32).toString('base64url') : randomUUID();
}

/** One probe: the same request twice, once naming B's records, once naming none. */
interface Probe {
  label: string;
  bravo: Record<string, string>;
  random: Record<string, string>;
}

/** Every parameter to B's/random values at once; with several ids, also each one alone (the others A's own). */
function probesFor(route: RequestRoute): Probe[] {
  const params = paramsOf(route.path);
  const fixed: Record<string, string> = {};
  const seeded: Array<[string, SeedKind]> = [];
  for (const param of params) {
    const source = paramSource(route.path, param)!;
    if ('fixed' in source) fixed[param] = source.fixed;
    else seeded.push([param, source.kind]);
  }
  if (seeded.length === 0) return [];
  const values = (pick: (param: string, kind: SeedKind) => string) => ({ ...fixed, ...Object.fromEntries(seeded.map(([param, kind]) => [param, pick(param, kind)])) });
  const probes: Probe[] = [{ label: 'every id of B', bravo: values((_param, kind) => b.ids[kind]), random: values((_param, kind) => randomLike(kind)) }];
  if (seeded.length > 1) {
    for (const [param, kind] of seeded) {
      const other = randomLike(kind);
      probes.push({
        label: `${param} of B, the rest A's`,
        bravo: values((name, k) => (name === param ? b.ids[k] : a.ids[k])),
        random: values((name, k) => (name === param ? other : a.ids[k])),
      });
    }
  }
  return probes;
}

/**
 * Ids in the body: for each field naming a seeded record (member_id, board_id, role_ids, ...),
 * that field B's versus a random id; the path names A's own records.
 */
function bodyProbesFor(route: RequestRoute, payload: JoiDescription | undefined): Array<{ label: string; path: Record<string, string>; bravo: Record<string, unknown>; random: Record<string, unknown>; sent: string[] }> {
  const path: Record<string, string> = {};
  for (const param of paramsOf(route.path)) {
    const source = paramSource(route.path, param)!;
    path[param] = 'fixed' in source ? source.fixed : a.ids[source.kind];
  }
  const base = sampleBody(payload, fieldIds(a));
  return Object.keys(base)
    .filter((field) => fieldKind(field) !== undefined)
    .map((field) => {
      const kind = fieldKind(field)!;
      const other = randomLike(kind);
      const wrap = (id: string) => (Array.isArray(base[field]) ? [id] : id);
      return { label: `body ${field} of B`, path, bravo: { ...base, [field]: wrap(b.ids[kind]) }, random: { ...base, [field]: wrap(other) }, sent: [b.ids[kind], other] };
    });
}

/** The answer with each id the caller sent replaced by its parameter's name. */
function normalised(payload: string, values: Record<string, string>): string {
  let text = payload;
  for (const [param, value] of Object.entries(values)) {
    text = text.split(value).join(`{${param}}`).split(encodeURIComponent(value)).join(`{${param}}`);
  }
  return text;
}

test('tenant guard: on A\'s subdomain, B\'s ids answer exactly as ids that do not exist, on every parameterised route', async (t) => {
  const routes = parameterisedRoutes();
  const unmapped = routes.flatMap((route) => paramsOf(route.path).filter((param) => paramSource(route.path, param) === null).map((param) => `${route.method.toUpperCase()} ${route.path}: {${param}}`));
  t.deepEqual(unmapped, [], 'path parameters with no seeded record: map them in helpers/guard.ts (PARAM_KINDS) or list them in UNSEEDABLE with the reason');

  const before = await workspaceFingerprint(env, b.id);
  const bravoIds = Object.entries(b.ids).filter(([kind]) => kind !== 'workspace') as Array<[SeedKind, string]>;
  const failures: string[] = [];
  let requests = 0;
  let probed = 0;
  for (const route of routes) {
    const probes = probesFor(route);
    if (probes.length === 0) continue;
    probed += 1;
    const method = route.method.toUpperCase();
    const payload = described(route, 'payload');
    const types = route.settings.app?.wpk?.contentTypes;
    const jsonBody = BODY_METHODS.has(route.method) && payload !== undefined && (!types || types.includes('application/json'));
    // An upload route gets a real (1x1 PNG) image, so it reaches the member look-up.
    const imageBody = types !== undefined && !types.includes('application/json');
    const contentType: Record<string, string> = jsonBody ? { 'content-type': 'application/json' } : imageBody ? { 'content-type': types[0] } : {};
    const query = requiredQuery(route, fieldIds(a));
    for (const probe of probes.flatMap((one) => credentials.map((credential) => ({ ...one, credential })))) {
      const headers = { ...probe.credential.headers, host: hostFor(env, route, a), ...contentType };
      const body = jsonBody ? JSON.stringify(sampleBody(payload, fieldIds(a))) : imageBody ? PNG : undefined;
      const random = await env.inject({ method, url: fillPath(route.path, probe.random) + query, headers, payload: body });
      const bravo = await env.inject({ method, url: fillPath(route.path, probe.bravo) + query, headers, payload: body });
      requests += 2;
      const where = `${method} ${route.path} (${probe.label}, ${probe.credential.label})`;
      if (bravo.statusCode !== random.statusCode) failures.push(`${where}: B's ids answered ${bravo.statusCode} ${bravo.payload.slice(0, 300)}; unknown ids answered ${random.statusCode} ${random.payload.slice(0, 300)}`);
      else if (normalised(bravo.payload, probe.bravo) !== normalised(random.payload, probe.random)) failures.push(`${where}: same status ${bravo.statusCode}, different bodies: B's ids ${bravo.payload.slice(0, 300)}; unknown ids ${random.payload.slice(0, 300)}`);
      // Nothing of B may appear beyond the ids the caller itself sent.
      const sent = Object.values(probe.bravo);
      // A sent value may hold an id (a member MRN holds the member id): that id was sent too.
      const leaked = [b.marker, ...bravoIds.map(([, id]) => id).filter((id) => !sent.some((value) => value.includes(id)))].filter((secret) => bravo.payload.includes(secret));
      if (leaked.length) failures.push(`${where}: the answer carries B's data (${leaked.join(', ')}): ${bravo.payload.slice(0, 300)}`);
    }
  }
  // Ids of B in a query filter (GET /tasks?board_id=...) answer as unknown ids: an empty list, or the
  // same refusal. Before the body probes: an app may accept an id it does not know in a body (the tasks
  // app takes any member id as an assignee), and a filter on that id then finds A's own rows.
  let queryProbes = 0;
  for (const route of env.runtime.server.table()) {
    const filters = Object.keys(described(route, 'query')?.keys ?? {}).filter((name) => fieldKind(name) !== undefined);
    if (filters.length === 0 || paramsOf(route.path).some((param) => paramSource(route.path, param) === null)) continue;
    const path: Record<string, string> = {};
    for (const param of paramsOf(route.path)) {
      const source = paramSource(route.path, param)!;
      path[param] = 'fixed' in source ? source.fixed : a.ids[source.kind];
    }
    const method = route.method.toUpperCase();
    for (const name of filters) {
      const kind = fieldKind(name)!;
      const other = randomLike(kind);
      for (const credential of credentials) {
        const headers = { ...credential.headers, host: hostFor(env, route, a) };
        const url = (id: string) => `${fillPath(route.path, path)}?${new URLSearchParams({ [name]: id }).toString()}`;
        const random = await env.inject({ method, url: url(other), headers });
        const bravo = await env.inject({ method, url: url(b.ids[kind]), headers });
        requests += 2;
        queryProbes += 1;
        const where = `${method} ${route.path}?${name}= (B's ${kind}, ${credential.label})`;
        if (bravo.statusCode !== random.statusCode) failures.push(`${where}: B's id answered ${bravo.statusCode} ${bravo.payload.slice(0, 300)}; an unknown id answered ${random.statusCode} ${random.payload.slice(0, 300)}`);
        else if (bravo.payload.split(b.ids[kind]).join('{id}') !== random.payload.split(other).join('{id}')) failures.push(`${where}: same status ${bravo.statusCode}, different bodies: B's id ${bravo.payload.slice(0, 300)}; an unknown id ${random.payload.slice(0, 300)}`);
        if (bravo.payload.includes(b.marker)) failures.push(`${where}: the answer carries B's data: ${bravo.payload.slice(0, 300)}`);
      }
    }
  }

  // Ids of B in the body (on A's own records in the path) answer as unknown ids too.
  let bodyProbes = 0;
  for (const route of env.runtime.server.table()) {
    const payload = described(route, 'payload');
    const types = route.settings.app?.wpk?.contentTypes;
    if (!BODY_METHODS.has(route.method) || payload === undefined || (types && !types.includes('application/json'))) continue;
    if (paramsOf(route.path).some((param) => paramSource(route.path, param) === null)) continue;
    const method = route.method.toUpperCase();
    const query = requiredQuery(route, fieldIds(a));
    for (const probe of bodyProbesFor(route, payload).flatMap((one) => credentials.map((credential) => ({ ...one, credential })))) {
      const headers = { ...probe.credential.headers, host: hostFor(env, route, a), 'content-type': 'application/json' };
      const url = fillPath(route.path, probe.path) + query;
      const random = await env.inject({ method, url, headers, payload: JSON.stringify(probe.random) });
      const bravo = await env.inject({ method, url, headers, payload: JSON.stringify(probe.bravo) });
      requests += 2;
      bodyProbes += 1;
      const where = `${method} ${route.path} (${probe.label}, ${probe.credential.label})`;
      const [bravoId, randomId] = probe.sent;
      if (bravo.statusCode !== random.statusCode) failures.push(`${where}: B's id answered ${bravo.statusCode} ${bravo.payload.slice(0, 300)}; an unknown id answered ${random.statusCode} ${random.payload.slice(0, 300)}`);
      else if (bravo.statusCode >= 300 && bravo.payload.split(bravoId).join('{id}') !== random.payload.split(randomId).join('{id}')) failures.push(`${where}: same status ${bravo.statusCode}, different bodies: B's id ${bravo.payload.slice(0, 300)}; an unknown id ${random.payload.slice(0, 300)}`);
      if (bravo.payload.includes(b.marker)) failures.push(`${where}: the answer carries B's data: ${bravo.payload.slice(0, 300)}`);
    }
  }

  const after = await workspaceFingerprint(env, b.id);
  const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
  t.log(`tenant guard: ${probed} parameterised routes, ${bodyProbes} body-id probes, ${queryProbes} query-id probes, ${requests} requests, ${failures.length} failures; B's tables changed: ${changed.length}`);
  t.true(probed > 40, `only ${probed} parameterised routes probed`);
  t.deepEqual(failures, [], `${failures.length} tenant-guard failures:\n${failures.join('\n')}`);
  t.deepEqual(changed, [], "B's rows changed while A's owner named B's ids");
});
