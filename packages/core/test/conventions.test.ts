import test from 'ava';
import Joi from 'joi';
import { Writable } from 'node:stream';
import { QueryTypes } from 'sequelize';
import { ConflictError } from '@wpk/sdk';
import { collection, createLogger, parsePagination, single } from '../src/index.js';
import { apiHeaders, startTestRuntime, type TestRuntime } from './helpers/runtime.js';

// A test-only fixture: 53 rows in a table of the test's own and three routes that use the
// platform's envelopes, so the conventions are checked exactly as an app route would see them.
const ROWS = 53;
const logLines: Array<Record<string, unknown>> = [];
let env: TestRuntime;

test.before(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  });
  env = await startTestRuntime({ logger: createLogger('info', sink) });
  const { runtime } = env;
  const acme = await runtime.workspaces.create({ subdomain: 'acme', name: 'Acme' });
  const other = await runtime.workspaces.create({ subdomain: 'other', name: 'Other' });
  const sequelize = runtime.db.sequelize;
  await sequelize.query('CREATE TABLE fixture_items (id serial PRIMARY KEY, workspace_id uuid NOT NULL, label text NOT NULL)');
  await sequelize.query(
    `INSERT INTO fixture_items (workspace_id, label) SELECT :acme, 'item ' || n FROM generate_series(1, ${ROWS}) n;
     INSERT INTO fixture_items (workspace_id, label) SELECT :other, 'other ' || n FROM generate_series(1, 7) n;`,
    { replacements: { acme: acme.id, other: other.id } },
  );
  runtime.server.route([
    {
      method: 'GET',
      path: '/fixture-items',
      options: { auth: false },
      handler: async (request) => {
        const pagination = parsePagination(request.query);
        const workspaceId = request.app.workspace!.id;
        const rows = await sequelize.query<{ id: number; label: string }>('SELECT id, label FROM fixture_items WHERE workspace_id = :workspaceId ORDER BY id LIMIT :limit OFFSET :offset', {
          type: QueryTypes.SELECT,
          replacements: { workspaceId, limit: pagination.limit, offset: pagination.offset },
        });
        const [{ total }] = await sequelize.query<{ total: number }>('SELECT count(*)::int AS total FROM fixture_items WHERE workspace_id = :workspaceId', { type: QueryTypes.SELECT, replacements: { workspaceId } });
        return collection(request, rows, total, pagination);
      },
    },
    {
      method: 'POST',
      path: '/fixture-items',
      options: { auth: false, validate: { payload: Joi.object({ label: Joi.string().min(1).max(20).required(), size: Joi.number().integer().min(0) }) } },
      handler: (request) => single(request, request.payload),
    },
    {
      method: 'POST',
      path: '/fixture-orders',
      options: {
        auth: false,
        validate: {
          query: Joi.object({ mode: Joi.string().valid('draft', 'final') }),
          payload: Joi.object({ address: Joi.object({ city: Joi.string().required() }), items: Joi.array().items(Joi.object({ amount: Joi.number().required() })) }),
        },
      },
      handler: (request) => single(request, request.payload),
    },
    {
      method: 'GET',
      path: '/fixture-items/{item_id}',
      options: { auth: false, validate: { params: Joi.object({ item_id: Joi.number().integer() }) } },
      handler: (request) => single(request, request.params),
    },
    {
      method: 'POST',
      path: '/fixture-claims',
      options: { auth: false },
      handler: (request) => {
        const { label } = request.payload as { label: string };
        if (label === 'taken') throw new ConflictError('label "taken" is already claimed', { field: 'label' });
        throw new ConflictError('Claims are closed today');
      },
    },
    {
      method: 'GET',
      path: '/fixture-fault',
      options: { auth: false },
      handler: () => {
        throw new Error('secret database detail: password=hunter2');
      },
    },
  ]);
});

test.after.always(async () => {
  await env?.close();
});

const json = (response: { payload: string }) => JSON.parse(response.payload);
const get = (url: string, headers: Record<string, string> = apiHeaders('acme')) => env.runtime.server.inject({ method: 'GET', url, headers });

test('the collection envelope carries data, pagination and links', async (t) => {
  const response = await get('/fixture-items?per_page=10&page=2');
  t.is(response.statusCode, 200);
  const body = json(response);
  t.deepEqual(Object.keys(body).sort(), ['data', 'links', 'pagination']);
  t.deepEqual(body.pagination, { page: 2, per_page: 10, total: ROWS, pages: 6 });
  t.deepEqual(body.data.map((row: { label: string }) => row.label), Array.from({ length: 10 }, (_, index) => `item ${index + 11}`));
  t.deepEqual(body.links, {
    self: '/fixture-items?page=2&per_page=10',
    first: '/fixture-items?page=1&per_page=10',
    last: '/fixture-items?page=6&per_page=10',
    next: '/fixture-items?page=3&per_page=10',
    prev: '/fixture-items?page=1&per_page=10',
  });
});

test('links repeat the other query parameters', async (t) => {
  const body = json((await get('/fixture-items?sort=label&page=1&per_page=50&tag=a&tag=b')));
  t.is(body.links.self, '/fixture-items?sort=label&tag=a&tag=b&page=1&per_page=50');
  t.is(body.links.next, '/fixture-items?sort=label&tag=a&tag=b&page=2&per_page=50');
  t.is(body.links.prev, null);
});

test('next is null on the last page and prev is null on the first', async (t) => {
  const first = json((await get('/fixture-items')));
  t.is(first.links.prev, null);
  t.is(first.links.next, '/fixture-items?page=2&per_page=25');
  const last = json((await get('/fixture-items?page=3')));
  t.is(last.data.length, 3);
  t.is(last.links.next, null);
  t.is(last.links.prev, '/fixture-items?page=2&per_page=25');
});

test('malformed and out-of-range pagination values fall back without an error', async (t) => {
  const expectations: Array<[string, number, number]> = [
    ['page=0', 1, 25],
    ['page=-3', 1, 25],
    ['page=abc', 1, 25],
    ['page=1.5', 1, 25],
    ['per_page=0', 1, 1],
    ['per_page=101', 1, 100],
    ['per_page=1000', 1, 100],
    ['per_page=abc', 1, 25],
    ['page=&per_page=', 1, 25],
  ];
  for (const [query, page, perPage] of expectations) {
    const response = await get(`/fixture-items?${query}`);
    t.is(response.statusCode, 200, query);
    t.deepEqual(json(response).pagination, { page, per_page: perPage, total: ROWS, pages: Math.ceil(ROWS / perPage) }, query);
  }
});

test('walking links.next visits every row exactly once', async (t) => {
  for (const perPage of [1, 7, 25, 53, 100]) {
    const seen: number[] = [];
    let next: string | null = `/fixture-items?per_page=${perPage}`;
    let pages = 0;
    while (next) {
      const body: { data: Array<{ id: number }>; links: { next: string | null } } = json((await get(next)));
      seen.push(...body.data.map((row) => row.id));
      next = body.links.next;
      pages += 1;
    }
    t.is(pages, Math.ceil(ROWS / perPage), `per_page ${perPage}`);
    t.is(seen.length, ROWS);
    t.is(new Set(seen).size, ROWS);
  }
});

test('tenancy scopes the fixture to the subdomain', async (t) => {
  const body = json((await get('/fixture-items', apiHeaders('other'))));
  t.is(body.pagination.total, 7);
});

test('the single envelope carries data and links.self', async (t) => {
  const response = await env.runtime.server.inject({ method: 'POST', url: '/fixture-items?x=1', headers: { ...apiHeaders('acme'), 'content-type': 'application/json' }, payload: { label: 'hello', unknown_key: true } });
  t.is(response.statusCode, 200);
  t.deepEqual(json(response), { data: { label: 'hello' }, links: { self: '/fixture-items?x=1' } });
});

test('a validation failure is a 400 naming the field and the rule', async (t) => {
  const post = (payload: unknown) => env.runtime.server.inject({ method: 'POST', url: '/fixture-items', headers: { ...apiHeaders('acme'), 'content-type': 'application/json' }, payload: payload as object });
  const cases: Array<[unknown, string, string]> = [
    [{}, 'label is required', 'label'],
    [{ label: '' }, 'label is not allowed to be empty', 'label'],
    [{ label: 'x'.repeat(21) }, 'label length must be less than or equal to 20 characters long', 'label'],
    [{ label: 'ok', size: 1.5 }, 'size must be an integer', 'size'],
    [{ label: 'ok', size: 'big' }, 'size must be a number', 'size'],
  ];
  for (const [payload, error, field] of cases) {
    const response = await post(payload);
    t.is(response.statusCode, 400, JSON.stringify(payload));
    t.deepEqual(json(response), { error, field }, JSON.stringify(payload));
  }
});

test('field is the path of the refused input: nested keys joined by dots, array indexes in brackets', async (t) => {
  const post = (payload: unknown, query = '') => env.runtime.server.inject({ method: 'POST', url: `/fixture-orders${query}`, headers: { ...apiHeaders('acme'), 'content-type': 'application/json' }, payload: payload as object });
  const answers = await Promise.all([
    post({ address: { city: 7 } }),
    post({ address: {} }),
    post({ items: [{ amount: 1 }, { amount: 'x' }] }),
    post({ items: [{}] }),
    post({ items: 'none' }),
    post({}, '?mode=other'),
    post([1, 2]),
    env.runtime.server.inject({ method: 'GET', url: '/fixture-items/x', headers: apiHeaders('acme') }),
  ]);
  t.deepEqual(
    answers.map((response) => [response.statusCode, json(response)]),
    [
      [400, { error: 'address.city must be a string', field: 'address.city' }],
      [400, { error: 'address.city is required', field: 'address.city' }],
      [400, { error: 'items[1].amount must be a number', field: 'items[1].amount' }],
      [400, { error: 'items[0].amount is required', field: 'items[0].amount' }],
      [400, { error: 'items must be an array', field: 'items' }],
      [400, { error: 'query parameter mode must be one of [draft, final]', field: 'mode' }],
      // A refusal of the body as a whole names no input.
      [400, { error: 'body must be of type object' }],
      [400, { error: 'path parameter item_id must be a number', field: 'item_id' }],
    ],
  );
});

test('a service names the refused input with { field }; a refusal of the request as a whole has none', async (t) => {
  const post = (label: string) => env.runtime.server.inject({ method: 'POST', url: '/fixture-claims', headers: { ...apiHeaders('acme'), 'content-type': 'application/json' }, payload: { label } });
  const [taken, closed] = [await post('taken'), await post('other')];
  t.deepEqual([taken.statusCode, json(taken)], [409, { error: 'label "taken" is already claimed', field: 'label' }]);
  t.deepEqual([closed.statusCode, json(closed)], [409, { error: 'Claims are closed today' }]);
});

test('malformed JSON is a 400 with an error body', async (t) => {
  const response = await env.runtime.server.inject({ method: 'POST', url: '/fixture-items', headers: { ...apiHeaders('acme'), 'content-type': 'application/json' }, payload: '{"label":' });
  t.is(response.statusCode, 400);
  t.deepEqual(json(response), { error: 'Invalid request payload JSON format' });
});

test('a body without Content-Type application/json is 415', async (t) => {
  for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
    const headers: Record<string, string> = apiHeaders('acme');
    if (contentType) headers['content-type'] = contentType;
    const response = await env.runtime.server.inject({ method: 'POST', url: '/fixture-items', headers, payload: 'label=x' });
    t.is(response.statusCode, 415, String(contentType));
    t.deepEqual(json(response), { error: 'Unsupported Media Type' });
  }
  const withCharset = await env.runtime.server.inject({ method: 'POST', url: '/fixture-items', headers: { ...apiHeaders('acme'), 'content-type': 'application/json; charset=utf-8' }, payload: '{"label":"x"}' });
  t.is(withCharset.statusCode, 200);
});

test('X-Api-Version: the first version and any later past date are accepted and echoed', async (t) => {
  for (const version of ['2026-11-01', '2026-11-15']) {
    const response = await get('/fixture-items', { ...apiHeaders('acme'), 'x-api-version': version });
    t.is(response.statusCode, 200, version);
    t.is(response.headers['x-api-version'], '2026-11-01');
  }
});

test('X-Api-Version: missing, malformed, earlier or future is a 400 listing the supported versions', async (t) => {
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  for (const version of [undefined, 'latest', '2026-11-31', '20261101', '2026-10-31', tomorrow]) {
    const headers: Record<string, string> = { host: 'acme.localhost' };
    if (version !== undefined) headers['x-api-version'] = version;
    const response = await get('/fixture-items', headers);
    t.is(response.statusCode, 400, String(version));
    t.regex(json(response).error, /supported versions: 2026-11-01$/, String(version));
  }
});

test('/health needs no version header and reports the database', async (t) => {
  const response = await get('/health', { host: 'localhost' });
  t.is(response.statusCode, 200);
  t.deepEqual(json(response), { status: 'ok', database: 'ok' });
  t.is(response.headers['x-api-version'], undefined);
});

test('an unknown subdomain answers 404 JSON', async (t) => {
  const response = await get('/fixture-items', apiHeaders('nosuch'));
  t.is(response.statusCode, 404);
  t.deepEqual(json(response), { error: 'No workspace at nosuch.localhost' });
});

test('an unknown route answers 404 JSON', async (t) => {
  const response = await get('/no-such-route');
  t.is(response.statusCode, 404);
  t.deepEqual(json(response), { error: 'Not Found' });
});

test('a workspace route on the base domain answers 404 JSON', async (t) => {
  const response = await get('/fixture-items', { host: 'localhost', 'x-api-version': '2026-11-01' });
  t.is(response.statusCode, 404);
  t.deepEqual(json(response), { error: '/fixture-items is served on a workspace subdomain ({subdomain}.localhost)' });
});

test('an unexpected fault is a 500 with a generic message; the cause is logged with the request id', async (t) => {
  const response = await get('/fixture-fault');
  t.is(response.statusCode, 500);
  const requestId = response.headers['x-request-id'] as string;
  t.truthy(requestId);
  t.deepEqual(json(response), { error: `An unexpected error occurred (request id ${requestId})` });
  t.false(response.payload.includes('hunter2'));
  t.false(response.payload.includes('stack'));
  const logged = logLines.find((line) => line.req_id === requestId && line.msg === 'request failed');
  t.truthy(logged);
  t.regex(JSON.stringify(logged), /secret database detail/);
});

test('one log line per request with request id, workspace, status and time; never a header value', async (t) => {
  const response = await get('/fixture-items?page=2', { ...apiHeaders('acme'), authorization: 'Bearer slk_supersecret', cookie: 'sid=abc' });
  const requestId = response.headers['x-request-id'];
  await new Promise((resolve) => setTimeout(resolve, 20));
  const lines = logLines.filter((line) => line.req_id === requestId && line.msg === 'request');
  t.is(lines.length, 1);
  t.like(lines[0], { method: 'GET', route: '/fixture-items', workspace: 'acme', status: 200 });
  t.is(typeof lines[0].ms, 'number');
  const text = JSON.stringify(logLines);
  t.false(text.includes('slk_supersecret'));
  t.false(text.includes('sid=abc'));
});
