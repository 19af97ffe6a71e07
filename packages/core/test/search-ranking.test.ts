import test from 'ava';
import type { SearchDocument } from '@wpk/sdk';
import { doc, startSearchEnv, type SearchEnv } from './helpers/search.js';

// Ranking rules of the platform search, one app per rule.
let s: SearchEnv;

test.before(async () => {
  s = await startSearchEnv();
});

test.after.always(async () => {
  await s?.close();
});

async function seed(app: string, documents: SearchDocument[]): Promise<void> {
  for (const document of documents) await s.index.upsert(s.acme.id, app, document);
}

async function ranked(app: string, q: string, types: string[], typeOrder = false) {
  const page = await s.index.search(s.acme.id, app, { q, types, typeOrder, filters: { attributes: {} }, limit: 100, offset: 0 });
  return page.rows;
}

test('an exact match on the first name column ranks highest, then a prefix match, then other name hits, then detail hits', async (t) => {
  await seed('r-tiers', [
    doc('item', 'detail', ['Annual plan'], { details: ['budget attached'] }),
    doc('item', 'second-name', ['Annual review', 'Budget owner']),
    doc('item', 'prefix', ['Budget review']),
    doc('item', 'inside', ['Q3 budget']),
    doc('item', 'exact', ['Budget']),
  ]);
  const rows = await ranked('r-tiers', 'budget', ['item']);
  t.deepEqual(rows.map((row) => row.title), ['Budget', 'Budget review', 'Q3 budget', 'Annual review', 'Annual plan']);
  t.true(rows.every((row, index) => index === 0 || rows[index - 1].score > row.score), 'scores strictly decrease');
  t.true(rows.every((row) => typeof row.score === 'number' && !Number.isInteger(row.score)), 'scores are floats');
});

test('exact and prefix are judged on the whole query against the first name column', async (t) => {
  await seed('r-phrase', [doc('item', '1', ['Team offsite agenda']), doc('item', '2', ['Agenda for the team offsite']), doc('item', '3', ['Team offsite'])]);
  t.deepEqual((await ranked('r-phrase', 'team offsite', ['item'])).map((row) => row.title), ['Team offsite', 'Team offsite agenda', 'Agenda for the team offsite']);
});

test('a hit in a name column outranks a hit in a detail column', async (t) => {
  await seed('r-name-detail', [doc('item', 'detail', ['Paid receipt'], { details: ['invoice scanned'] }), doc('item', 'name', ['Paid invoice'])]);
  t.deepEqual((await ranked('r-name-detail', 'invoice', ['item'])).map((row) => row.title), ['Paid invoice', 'Paid receipt']);
});

test('the first name column only gets the exact and prefix ranks: a later name column does not', async (t) => {
  await seed('r-first-name', [doc('item', 'later', ['Zeta', 'Omega']), doc('item', 'first', ['Omega'])]);
  t.deepEqual((await ranked('r-first-name', 'omega', ['item'])).map((row) => row.title), ['Omega', 'Zeta']);
});

test('a literal hit ranks above a typo hit', async (t) => {
  await seed('r-typo', [doc('item', 'typo', ['Rose gardem']), doc('item', 'literal', ['Rose garden'])]);
  t.deepEqual((await ranked('r-typo', 'rose garden', ['item'])).map((row) => row.title), ['Rose garden', 'Rose gardem']);
});

test('the badge is searched as a name column', async (t) => {
  await seed('r-badge', [doc('item', 'detail', ['Alpha'], { details: ['see T-77'] }), doc('item', 'badge', ['Beta'], { badge: 'T-77' })]);
  t.deepEqual((await ranked('r-badge', 't-77', ['item'])).map((row) => [row.title, row.id]), [['Beta', 'T-77'], ['Alpha', '']]);
});

test('a partial id ranks the records whose badge holds it first: the whole number, then the badge it fills most, then one it ends', async (t) => {
  await seed('r-partial-id', [
    doc('item', 'title', ['Budget 2345']),
    doc('item', 'detail', ['Alpha'], { details: ['order 12345 shipped'] }),
    doc('item', '123450', ['Six prefix'], { badge: 'T-123450' }),
    doc('item', '102345', ['Six suffix'], { badge: 'T-102345' }),
    doc('item', '23450', ['Five prefix'], { badge: 'T-23450' }),
    doc('item', '12345', ['Five suffix'], { badge: 'T-12345' }),
    doc('item', '2345', ['Whole'], { badge: 'T-2345' }),
  ]);
  t.deepEqual((await ranked('r-partial-id', '2345', ['item'])).map((row) => row.id || row.title), ['T-2345', 'T-12345', 'T-23450', 'T-102345', 'T-123450', 'Budget 2345', 'Alpha']);
  t.deepEqual((await ranked('r-partial-id', 't-2345', ['item'])).map((row) => row.id || row.title)[0], 'T-2345', 'the badge as typed, prefix and all');
  // A query without a digit is no id: a badge holding the word gets no such rank.
  await seed('r-word-badge', [doc('item', 'badge', ['Other'], { badge: 'BUDGET-1' }), doc('item', 'title', ['Budget'])]);
  t.deepEqual((await ranked('r-word-badge', 'budget', ['item'])).map((row) => row.title), ['Budget', 'Other']);
});

test('under all types, results are best match first whatever their type', async (t) => {
  await seed('r-all-types', [doc('task', '1', ['Launch checklist']), doc('project', '2', ['Launch']), doc('task', '3', ['Prepare launch'])]);
  t.deepEqual((await ranked('r-all-types', 'launch', ['task', 'project'])).map((row) => `${row.type}:${row.title}`), ['project:Launch', 'task:Launch checklist', 'task:Prepare launch']);
});

test('with types chosen, results come in the requested type order, best match first within each', async (t) => {
  await seed('r-type-order', [
    doc('task', '1', ['Launch checklist']),
    doc('project', '2', ['Launch']),
    doc('task', '3', ['Prepare launch']),
    doc('project', '4', ['Relaunch site']),
  ]);
  t.deepEqual(
    (await ranked('r-type-order', 'launch', ['task', 'project'], true)).map((row) => `${row.type}:${row.title}`),
    ['task:Launch checklist', 'task:Prepare launch', 'project:Launch', 'project:Relaunch site'],
  );
  t.deepEqual(
    (await ranked('r-type-order', 'launch', ['project', 'task'], true)).map((row) => `${row.type}:${row.title}`),
    ['project:Launch', 'project:Relaunch site', 'task:Launch checklist', 'task:Prepare launch'],
  );
});

test('results carry type, badge as id, title, subtitle, url and a float score', async (t) => {
  await seed('r-fields', [{ type: 'item', id: '9', badge: 'I-9', title: 'Shown title', subtitle: 'Shown subtitle', url: '/items/9', names: ['Searchable name'] }]);
  const [row] = await ranked('r-fields', 'searchable', ['item']);
  t.deepEqual(Object.keys(row).sort(), ['id', 'score', 'subtitle', 'title', 'type', 'url']);
  t.like(row, { type: 'item', id: 'I-9', title: 'Shown title', subtitle: 'Shown subtitle', url: '/items/9' });
  t.is(typeof row.score, 'number');
});
