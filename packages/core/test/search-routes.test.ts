import test from 'ava';
import type { SearchDocument } from '@wpk/sdk';
import { apiHeaders } from './helpers/runtime.js';
import { doc, searchable, startSearchEnv, type SearchEnv } from './helpers/search.js';

// GET /search and POST /search: access, permissions, filters, envelope, isolation.
let s: SearchEnv;

test.before(async () => {
  s = await startSearchEnv();
  s.access.types.set('notes', [
    searchable('note', ['notes.notes.read']),
    searchable('journal', ['notes.journals.read', 'notes.notes.read']),
    searchable('secret', ['notes.secrets.read']),
  ]);
  s.access.types.set('files', [searchable('file', ['files.files.read'])]);
  s.access.callers.set('owner', { apps: ['notes', 'files'], keys: 'all' });
  s.access.callers.set('reader', { apps: ['notes'], keys: ['notes.notes.read'] });
  s.access.callers.set('journalist', { apps: ['notes'], keys: ['notes.journals.read'] });
  s.access.callers.set('wildcard', { apps: ['notes'], keys: ['notes.*'] });
  s.access.callers.set('outsider', { apps: ['files'], keys: 'all' });
  for (const [workspace, label] of [[s.acme, 'acme'], [s.other, 'other']] as const) {
    await s.index.upsert(workspace.id, 'notes', doc('note', '1', ['Roadmap plan'], { url: `/${label}/notes/1` }));
    await s.index.upsert(workspace.id, 'notes', doc('journal', '2', ['Daily plan'], { url: `/${label}/journals/2` }));
    await s.index.upsert(workspace.id, 'notes', doc('secret', '3', ['Secret plan'], { url: `/${label}/secrets/3` }));
  }
  const files: Array<{ id: string; names: string[]; filters: SearchDocument['filters'] }> = [
    { id: 'f1', names: ['Budget sheet'], filters: { owner: 'ann', type: 'sheet', date: '2026-03-01T10:00:00Z', size: 1000, folder: 'finance' } },
    { id: 'f2', names: ['Budget deck'], filters: { owner: 'bob', type: 'slides', date: '2026-03-05T10:00:00Z', size: 50000, folder: 'finance' } },
    { id: 'f3', names: ['Budget notes'], filters: { owner: 'ann', type: 'doc', date: '2026-04-01T10:00:00Z', size: 200, folder: 'misc' } },
    { id: 'f4', names: ['Budget archive'], filters: {} },
  ];
  for (const file of files) await s.index.upsert(s.acme.id, 'files', doc('file', file.id, file.names, file));
});

test.after.always(async () => {
  await s?.close();
});

const json = (response: { payload: string }) => JSON.parse(response.payload);
const as = (caller: string, workspace = 'acme') => apiHeaders(workspace, { authorization: `Test ${caller}` });
const get = (url: string, caller = 'owner', workspace = 'acme') => s.server.inject({ method: 'GET', url, headers: as(caller, workspace) });
const post = (payload: unknown, caller = 'owner', workspace = 'acme', url = '/search') =>
  s.server.inject({ method: 'POST', url, headers: { ...as(caller, workspace), 'content-type': 'application/json' }, payload: payload as object });
const titles = (response: { payload: string }) => json(response).data.map((row: { title: string }) => row.title).sort();

test('a member who cannot open the app is refused with the layer-4 answer, on GET and POST', async (t) => {
  for (const response of [await get('/search?app=notes&q=plan', 'outsider'), await post({ app: 'notes', q: 'plan' }, 'outsider')]) {
    t.is(response.statusCode, 403);
    t.deepEqual(json(response), { error: "You don't have access to this app" });
  }
});

test('an app that is not installed is refused the same way', async (t) => {
  const response = await get('/search?app=nowhere&q=plan', 'owner');
  t.is(response.statusCode, 403);
  t.deepEqual(json(response), { error: "You don't have access to this app" });
});

test('a type whose permission keys the member holds none of is never searched', async (t) => {
  t.deepEqual(titles(await get('/search?app=notes&q=plan', 'reader')), ['Daily plan', 'Roadmap plan']);
  const chosen = await get('/search?app=notes&q=plan&types=secret', 'reader');
  t.is(chosen.statusCode, 200);
  t.deepEqual(json(chosen).data, []);
  t.is(json(chosen).pagination.total, 0);
});

test('holding any one of a type\'s keys is enough', async (t) => {
  t.deepEqual(titles(await get('/search?app=notes&q=plan', 'journalist')), ['Daily plan']);
});

test('an app wildcard key and full access search every type', async (t) => {
  t.deepEqual(titles(await get('/search?app=notes&q=plan', 'wildcard')), ['Daily plan', 'Roadmap plan', 'Secret plan']);
  t.deepEqual(titles(await get('/search?app=notes&q=plan', 'owner')), ['Daily plan', 'Roadmap plan', 'Secret plan']);
});

test('another workspace\'s identical records never appear', async (t) => {
  const acme = json(await get('/search?app=notes&q=plan', 'owner', 'acme'));
  const other = json(await get('/search?app=notes&q=plan', 'owner', 'other'));
  t.is(acme.pagination.total, 3);
  t.is(other.pagination.total, 3);
  t.true(acme.data.every((row: { url: string }) => row.url.startsWith('/acme/')));
  t.true(other.data.every((row: { url: string }) => row.url.startsWith('/other/')));
});

test('GET and POST answer the same search the same way', async (t) => {
  const pairs: Array<[string, Record<string, unknown>]> = [
    ['/search?app=notes&q=plan', { app: 'notes', q: 'plan' }],
    ['/search?app=notes&q=plan&types=journal&types=note', { app: 'notes', q: 'plan', types: ['journal', 'note'] }],
    ['/search?app=notes&q=plann&types=note,journal', { app: 'notes', q: 'plann', types: ['note', 'journal'] }],
    ['/search?app=files&q=budget&owner=ann&min_size=500', { app: 'files', q: 'budget', filters: { owner: 'ann', min_size: 500 } }],
    ['/search?app=files&q=&type=sheet&type=doc', { app: 'files', q: '', filters: { type: ['sheet', 'doc'] } }],
  ];
  for (const [url, body] of pairs) {
    const viaGet = json(await get(url));
    const viaPost = json(await post(body));
    t.deepEqual(viaPost.data, viaGet.data, url);
    t.deepEqual(viaPost.pagination, viaGet.pagination, url);
    t.true(viaGet.data.length > 0, url);
  }
});

test('results come in the collection envelope with typed fields', async (t) => {
  const body = json(await get('/search?app=notes&q=roadmap'));
  t.deepEqual(Object.keys(body).sort(), ['data', 'links', 'pagination']);
  t.deepEqual(body.pagination, { page: 1, per_page: 25, total: 1, pages: 1 });
  t.like(body.data[0], { type: 'note', id: '', title: 'Roadmap plan', subtitle: '', url: '/acme/notes/1' });
  t.is(typeof body.data[0].score, 'number');
});

test('pages and links; a POST search links to the same search as GET', async (t) => {
  const viaGet = json(await get('/search?app=notes&q=plan&per_page=2'));
  t.deepEqual(viaGet.pagination, { page: 1, per_page: 2, total: 3, pages: 2 });
  t.is(viaGet.data.length, 2);
  t.is(viaGet.links.next, '/search?app=notes&q=plan&page=2&per_page=2');
  const viaPost = json(await post({ app: 'notes', q: 'plan', types: ['note', 'journal'] }, 'owner', 'acme', '/search?per_page=1&page=2'));
  t.deepEqual(viaPost.pagination, { page: 2, per_page: 1, total: 2, pages: 2 });
  t.is(viaPost.links.prev, '/search?app=notes&q=plan&types=note&types=journal&page=1&per_page=1');
  t.is(viaPost.links.next, null);
  const followed = json(await get(viaPost.links.prev));
  t.deepEqual(followed.pagination, { page: 1, per_page: 1, total: 2, pages: 2 });
  const beyond = json(await get('/search?app=notes&q=plan&per_page=2&page=5'));
  t.deepEqual(beyond.data, []);
  t.is(beyond.pagination.total, 3);
});

test('filters: owner, type, after, before, min_size, max_size and any other attribute', async (t) => {
  const find = async (query: string) => titles(await get(`/search?app=files&q=budget&${query}`));
  t.deepEqual(await find('owner=ann'), ['Budget notes', 'Budget sheet']);
  t.deepEqual(await find('owner=ann&owner=bob'), ['Budget deck', 'Budget notes', 'Budget sheet']);
  t.deepEqual(await find('type=slides'), ['Budget deck']);
  t.deepEqual(await find('after=2026-03-05T10:00:00Z'), ['Budget deck', 'Budget notes'], 'after is inclusive');
  t.deepEqual(await find('before=2026-03-05T10:00:00Z'), ['Budget sheet'], 'before is exclusive');
  t.deepEqual(await find('after=2026-03-02&before=2026-04-01'), ['Budget deck']);
  t.deepEqual(await find('min_size=1000'), ['Budget deck', 'Budget sheet']);
  t.deepEqual(await find('max_size=1000'), ['Budget notes', 'Budget sheet']);
  t.deepEqual(await find('folder=finance&owner=bob'), ['Budget deck']);
  t.deepEqual(await find('folder=nowhere'), []);
  t.deepEqual(await find(''), ['Budget archive', 'Budget deck', 'Budget notes', 'Budget sheet']);
});

test('an empty query with filters lists the matching records, newest first', async (t) => {
  const body = json(await get('/search?app=files&owner=ann'));
  t.deepEqual(body.data.map((row: { title: string; score: number }) => [row.title, row.score]), [['Budget notes', 0], ['Budget sheet', 0]]);
});

test('invalid input answers 400 naming the field, on both methods', async (t) => {
  const cases: Array<[Awaited<ReturnType<typeof get>>, string, string?]> = [
    [await get('/search?q=plan'), 'query parameter app is required', 'app'],
    [await post({ q: 'plan' }), 'app is required', 'app'],
    [await get('/search?app=files&after=yesterday'), 'query parameter after must be a real date (YYYY-MM-DD) or ISO 8601 instant, for example 2027-01-31T09:30:00Z', 'after'],
    [await post({ app: 'files', filters: { after: 'yesterday' } }), 'filters.after must be a real date (YYYY-MM-DD) or ISO 8601 instant, for example 2027-01-31T09:30:00Z', 'filters.after'],
    [await get('/search?app=files&min_size=-1'), 'query parameter min_size must be a whole number of 0 or more', 'min_size'],
    [await post({ app: 'files', filters: 'owner' }), 'filters must be an object'],
    [await post({ app: 'files', filters: { q: 'x' } }), 'filters.q is not a filter', 'filters.q'],
    [await get('/search?app=notes&types=task'), 'types: "task" is not a searchable type of notes'],
    [await post({ app: 'notes', q: 'x'.repeat(201) }), 'q length must be less than or equal to 200 characters long', 'q'],
    [await get(`/search?app=notes&q=${encodeURIComponent(Array.from({ length: 13 }, (_, index) => `w${index}`).join(' '))}`), 'q must have at most 12 words'],
  ];
  for (const [response, error, field] of cases) {
    t.is(response.statusCode, 400, error);
    t.deepEqual(json(response), field === undefined ? { error } : { error, field });
  }
});

test('mrn: the records with those MRNs, as the member may see them (what an MRN chip shows); another app\'s MRN or no MRN is a 400', async (t) => {
  const one = await get(`/search?app=notes&mrn=${encodeURIComponent('mrn:notes:note:1')}`);
  t.is(one.statusCode, 200);
  t.deepEqual(json(one).data.map((row: { title: string; url: string }) => [row.title, row.url]), [['Roadmap plan', '/acme/notes/1']]);
  t.deepEqual(json(await get(`/search?app=notes&mrn=${encodeURIComponent('mrn:notes:note:1')}`, 'owner', 'other')).data.map((row: { url: string }) => row.url), ['/other/notes/1']);
  // A type the member may not search stays hidden when named by MRN; POST takes a list too.
  t.deepEqual(titles(await get('/search?app=notes&mrn=mrn:notes:note:1&mrn=mrn:notes:secret:3', 'reader')), ['Roadmap plan']);
  t.deepEqual(titles(await post({ app: 'notes', filters: { mrn: ['mrn:notes:note:1', 'mrn:notes:secret:3'] } }, 'owner')), ['Roadmap plan', 'Secret plan']);
  t.deepEqual(json(await get('/search?app=notes&mrn=mrn:notes:note:404')).data, []);
  const malformedPost = await post({ app: 'notes', filters: { mrn: ['mrn:notes:note:1', 'mrn:notes:note:1:2'] } });
  t.deepEqual([malformedPost.statusCode, json(malformedPost)], [400, { error: 'filters.mrn must be an MRN (mrn:{app}:{resource}:{id})', field: 'filters.mrn' }]);
  const foreign = await get('/search?app=notes&mrn=mrn:files:file:f1');
  t.deepEqual([foreign.statusCode, json(foreign)], [400, { error: 'mrn: mrn:files:file:f1 is not a record of notes' }]);
  const malformed = await get('/search?app=notes&mrn=note-1');
  t.deepEqual([malformed.statusCode, json(malformed)], [400, { error: 'query parameter mrn must be an MRN (mrn:{app}:{resource}:{id})', field: 'mrn' }]);
});

test('mrn: the MRN\'s resource is the record\'s type, so an MRN never finds a record of another type with the same id', async (t) => {
  // Note 1, journal 2 and secret 3: each id belongs to one type only.
  const found = async (...mrns: string[]) => json(await get(`/search?app=notes&${mrns.map((mrn) => `mrn=${encodeURIComponent(mrn)}`).join('&')}`)).data.map((row: { type: string; title: string }) => [row.type, row.title]);
  t.deepEqual(await found('mrn:notes:journal:1'), []);
  t.deepEqual(await found('mrn:notes:note:2'), []);
  t.deepEqual(await found('mrn:notes:journal:2'), [['journal', 'Daily plan']]);
  t.deepEqual(await found('mrn:notes:journal:1', 'mrn:notes:note:1', 'mrn:notes:note:2'), [['note', 'Roadmap plan']]);
  // A resource that is no searchable type of the app (a comment, say) names nothing search shows.
  t.deepEqual(await found('mrn:notes:comment:1'), []);
  const posted = json(await post({ app: 'notes', filters: { mrn: ['mrn:notes:secret:3', 'mrn:notes:journal:3'] } }));
  t.deepEqual(posted.data.map((row: { type: string; title: string }) => [row.type, row.title]), [['secret', 'Secret plan']]);
  t.is(posted.pagination.total, 1);
});

test('a request without credentials is refused by authentication', async (t) => {
  const response = await s.server.inject({ method: 'GET', url: '/search?app=notes&q=plan', headers: apiHeaders('acme') });
  t.is(response.statusCode, 401);
  t.deepEqual(json(response), { error: 'Authentication required' });
});
