import test from 'ava';
import { QueryTypes } from 'sequelize';
import { type TestRuntime } from './helpers/runtime.js';
import { json, keyedWorkspace, startKeysRuntime, type KeyedWorkspace } from './helpers/keys.js';

let env: TestRuntime;
let acme: KeyedWorkspace;

// Serial: each test counts rows of the whole database before and after its refused requests.
const TEXT = 'must not contain NUL characters or unpaired surrogates';
const INSTANT = 'must be a real date (YYYY-MM-DD) or ISO 8601 instant, for example 2027-01-31T09:30:00Z';

const inject = (method: string, url: string, payload?: unknown, headers = acme.as(acme.ownerKey)) =>
  env.runtime.server.inject({ method, url, headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' }, payload: typeof payload === 'string' ? payload : (payload as object) });

const count = async (sql: string) => (await env.runtime.db.sequelize.query<{ n: number }>(sql, { type: QueryTypes.SELECT }))[0].n;
const keyCount = () => count(`SELECT count(*)::int AS n FROM platform.api_keys`);
const outboxCount = () => count(`SELECT count(*)::int AS n FROM platform.events`);

async function createKey(body: Record<string, unknown>) {
  const response = await inject('POST', '/api-keys', body);
  if (response.statusCode !== 200) throw new Error(`POST /api-keys answered ${response.statusCode} ${response.payload}`);
  return json(response).data as { id: string };
}

test.before(async () => {
  env = await startKeysRuntime();
  acme = await keyedWorkspace(env, 'acme');
  const installed = await inject('POST', '/applications/notes/installations', {});
  if (installed.statusCode !== 200) throw new Error(`install answered ${installed.statusCode} ${installed.payload}`);
});

test.after.always(async () => {
  await env?.close();
});

test.serial('NUL and unpaired surrogates in any text field are a 400 naming the field, and nothing is written (never stored as a literal \\0)', async (t) => {
  const key = await createKey({ name: 'plain' });
  const [keys, events] = [await keyCount(), await outboxCount()];
  const cases: Array<[string, string, unknown, string, string?]> = [
    ['POST', '/api-keys', { name: 'a\u0000b' }, `name ${TEXT}`, 'name'],
    ['POST', '/api-keys', { name: 'a\ud800' }, `name ${TEXT}`, 'name'],
    ['POST', '/api-keys', { name: '\udc00x' }, `name ${TEXT}`, 'name'],
    ['POST', '/api-keys', { name: 'ok', scopes: ['notes.notes.read', 'x\u0000'] }, `scopes[1] ${TEXT}`, 'scopes[1]'],
    ['POST', '/api-keys', { name: 'ok', 'extra\u0000': 1 }, `keys of body ${TEXT}`],
    ['PUT', `/api-keys/${key.id}`, { name: 'renamed\u0000' }, `name ${TEXT}`, 'name'],
    ['POST', '/roles', { name: 'Role\ud83d' }, `name ${TEXT}`, 'name'],
    ['PUT', '/apps/notes/settings', { default_title: 'x\u0000' }, `default_title ${TEXT}`, 'default_title'],
    ['POST', '/search', { app: 'notes', q: 'a\u0000' }, `q ${TEXT}`, 'q'],
    ['POST', '/search', { app: 'notes', filters: { colour: ['red', 'a\ud800'] } }, `filters.colour[1] ${TEXT}`, 'filters.colour[1]'],
    ['GET', '/search?app=notes&q=a%00', undefined, `query parameter q ${TEXT}`, 'q'],
    ['GET', '/search?app=notes&colour=%00', undefined, `query parameter colour ${TEXT}`, 'colour'],
    ['GET', '/api-keys/a%00b', undefined, `path parameter key_id ${TEXT}`, 'key_id'],
    ['POST', '/notes', { title: 'n\u0000' }, `title ${TEXT}`, 'title'],
  ];
  for (const [method, url, payload, error, field] of cases) {
    const response = await inject(method, url, payload);
    t.deepEqual([response.statusCode, json(response)], [400, field === undefined ? { error } : { error, field }], `${method} ${url} ${JSON.stringify(payload)}`);
  }
  t.is(await keyCount(), keys);
  t.is(await outboxCount(), events);
  const [{ names }] = await env.runtime.db.sequelize.query<{ names: string[] }>(`SELECT array_agg(name) AS names FROM platform.api_keys WHERE workspace_id = :id`, { type: QueryTypes.SELECT, replacements: { id: acme.id } });
  t.false(names.some((name) => name.includes('\\0')), JSON.stringify(names));
  t.is(json(await inject('GET', `/api-keys/${key.id}`)).data.name, 'plain');
});

test.serial('a JSON body whose bytes are not UTF-8 is a 400 naming the field, never rewritten to U+FFFD and stored', async (t) => {
  const [keys, events] = [await keyCount(), await outboxCount()];
  const raw = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));
  const UTF8 = 'must be UTF-8 text: the body holds bytes that are not UTF-8';
  const cases: Array<[string, string, Buffer, string, string?]> = [
    ['POST', '/api-keys', raw('{"name": "key ', [0xff, 0xfe], '"}'), `name ${UTF8}`, 'name'],
    ['POST', '/api-keys', raw('{"name": "ok", "scopes": ["notes.notes.read", "x', [0xc3], '"]}'), `scopes[1] ${UTF8}`, 'scopes[1]'],
    ['POST', '/api-keys', raw('{"name": "ok", "x', [0xed, 0xa0, 0x80], '": 1}'), `keys of body ${UTF8}`],
    ['POST', '/notes', raw('{"title": "caf', [0xe9], '"}'), `title ${UTF8}`, 'title'],
    ['POST', '/roles', raw('{"name": "overlong ', [0xc0, 0xaf], '"}'), `name ${UTF8}`, 'name'],
    ['DELETE', '/workspaces/00000000-0000-4000-8000-000000000000', raw('{"confirm": "', [0xff], '"}'), `confirm ${UTF8}`, 'confirm'],
  ];
  for (const [method, url, payload, error, field] of cases) {
    const response = await inject(method, url, payload);
    t.deepEqual([response.statusCode, json(response)], [400, field === undefined ? { error } : { error, field }], `${method} ${url} ${payload.toString('hex')}`);
  }
  // A real U+FFFD, sent as its UTF-8 bytes, is text like any other.
  const replacement = await inject('POST', '/api-keys', raw('{"name": "keeps \uFFFD and ', [0xef, 0xbf, 0xbd], '"}'));
  t.is(replacement.statusCode, 200, replacement.payload);
  t.is(json(replacement).data.name, 'keeps \ufffd and \ufffd');
  t.is(await keyCount(), keys + 1);
  t.is(await outboxCount(), events, "the refusals staged nothing");
});

test.serial('impossible calendar dates are a 400 naming the field: nothing rolls forward', async (t) => {
  const key = await createKey({ name: 'dated' });
  const keys = await keyCount();
  const cases: Array<[string, string, unknown, string, string]> = [
    ['POST', '/api-keys', { name: 'k', expires_at: '2999-02-30' }, `expires_at ${INSTANT}`, 'expires_at'],
    ['POST', '/api-keys', { name: 'k', expires_at: '2999-13-01T00:00:00Z' }, `expires_at ${INSTANT}`, 'expires_at'],
    ['POST', '/api-keys', { name: 'k', expires_at: '2999-01-01T25:00:00Z' }, `expires_at ${INSTANT}`, 'expires_at'],
    ['PUT', `/api-keys/${key.id}`, { expires_at: '2999-02-29' }, `expires_at ${INSTANT}`, 'expires_at'],
    ['PUT', `/api-keys/${key.id}/secret`, { expires_at: '2999-04-31T00:00:00Z' }, `expires_at ${INSTANT}`, 'expires_at'],
    ['GET', '/search?app=notes&after=2999-02-30', undefined, `query parameter after ${INSTANT}`, 'after'],
    ['GET', '/search?app=notes&before=2026-01-01T10:60:00Z', undefined, `query parameter before ${INSTANT}`, 'before'],
    ['POST', '/search', { app: 'notes', filters: { after: '2026-02-30' } }, `filters.after ${INSTANT}`, 'filters.after'],
    ['GET', '/activity?after=2026-02-30', undefined, `query parameter after ${INSTANT}`, 'after'],
    ['GET', '/admin/activity-exports?before=2026-02-30T00:00:00Z', undefined, `query parameter before ${INSTANT}`, 'before'],
  ];
  for (const [method, url, payload, error, field] of cases) {
    const response = await inject(method, url, payload);
    t.deepEqual([response.statusCode, json(response)], [400, { error, field }], `${method} ${url} ${JSON.stringify(payload)}`);
  }
  t.is(await keyCount(), keys);
  const kept = json(await inject('GET', `/api-keys/${key.id}`)).data;
  t.like(kept, { expires_at: null, never_expires: true });
  const leap = await inject('PUT', `/api-keys/${key.id}`, { expires_at: '2996-02-29' });
  t.is(json(leap).data.expires_at, '2996-02-29T00:00:00.000Z');
});

test.serial('ids are strings: an unknown id of any shape is a 404 with the usual message, never a 400 about its format', async (t) => {
  const shapes = ['0123456789abcdef01234567', '42', 'not-a-uuid', "x' OR '1'='1", '00000000-0000-0000-0000-000000000000'];
  for (const id of shapes) {
    const path = encodeURIComponent(id);
    const cases: Array<[string, string, unknown, string]> = [
      ['GET', `/api-keys/${path}`, undefined, `No API key ${id} in this workspace`],
      ['PUT', `/api-keys/${path}`, { name: 'n' }, `No API key ${id} in this workspace`],
      ['PUT', `/api-keys/${path}/secret`, {}, `No API key ${id} in this workspace`],
      ['DELETE', `/api-keys/${path}`, undefined, `No API key ${id} in this workspace`],
      ['PATCH', `/notifications/${path}`, { read: true }, `No notification ${id}`],
      ['PUT', `/apps/notes/roles/${path}/permissions`, { permissions: ['notes.notes.read'] }, `No role ${id} in this workspace`],
      ['GET', `/members/${path}`, undefined, `No member ${id} in this workspace`],
    ];
    for (const [method, url, payload, error] of cases) {
      const response = await inject(method, url, payload);
      t.deepEqual([response.statusCode, json(response)], [404, { error }], `${method} ${url}`);
    }
  }
  const tooLong = await inject('DELETE', `/api-keys/${'x'.repeat(201)}`);
  t.deepEqual([tooLong.statusCode, json(tooLong)], [400, { error: 'path parameter key_id length must be less than or equal to 200 characters long', field: 'key_id' }]);
  const roles = await inject('PUT', '/applications/notes/access', { access_policy: 'roles', allowed_roles: ['r-1'] });
  t.deepEqual([roles.statusCode, json(roles)], [400, { error: 'allowed_roles[0]: no role r-1 in this workspace' }]);
});
