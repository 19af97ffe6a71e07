import test from 'ava';
import type { SearchDocument } from '@wpk/sdk';
import { QueryTypes } from 'sequelize';
import { doc, startSearchEnv, type SearchEnv } from './helpers/search.js';

// Matching rules of the platform search, checked on the engine (SearchIndex.search) with one
// app per rule so that no two rules share records.
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

async function find(app: string, q: string, types = ['item']): Promise<string[]> {
  const page = await s.index.search(s.acme.id, app, { q, types, typeOrder: false, filters: { attributes: {} }, limit: 100, offset: 0 });
  return page.rows.map((row) => row.title).sort();
}

test('a query word that is part of a name matches (partial word)', async (t) => {
  await seed('m-substring', [doc('item', '1', ['Quarterly report']), doc('item', '2', ['Weekly digest'])]);
  t.deepEqual(await find('m-substring', 'arterl'), ['Quarterly report']);
  t.deepEqual(await find('m-substring', 'report'), ['Quarterly report']);
});

test('a partial id matches the badge', async (t) => {
  await seed('m-badge', [
    doc('item', '1', ['Fix login'], { badge: 'T-4521' }),
    doc('item', '2', ['Fix logout'], { badge: 'T-1234' }),
  ]);
  t.deepEqual(await find('m-badge', '452'), ['Fix login']);
  t.deepEqual(await find('m-badge', 't-45'), ['Fix login']);
  t.deepEqual(await find('m-badge', 'T-4521'), ['Fix login']);
});

test('a query word that appears only in a detail column matches', async (t) => {
  await seed('m-detail', [doc('item', '1', ['Offsite'], { details: ['Venue: Lisbon harbour'] }), doc('item', '2', ['Offsite'], { details: ['Venue: Porto'] })]);
  t.deepEqual(await find('m-detail', 'lisbon'), ['Offsite']);
  t.deepEqual(await find('m-detail', 'harb'), ['Offsite']);
});

test('every query word must match the record', async (t) => {
  await seed('m-all-words', [doc('item', '1', ['Blue whale'], { details: ['ocean'] }), doc('item', '2', ['Blue jay'], { details: ['forest'] })]);
  t.deepEqual(await find('m-all-words', 'blue'), ['Blue jay', 'Blue whale']);
  t.deepEqual(await find('m-all-words', 'blue ocean'), ['Blue whale']);
  t.deepEqual(await find('m-all-words', 'blue desert'), []);
});

test('3-letter words must appear as typed: no typo tolerance', async (t) => {
  await seed('m-three', [doc('item', '1', ['cat']), doc('item', '2', ['cot bed'])]);
  t.deepEqual(await find('m-three', 'cat'), ['cat']);
  t.deepEqual(await find('m-three', 'cax'), []);
  t.deepEqual(await find('m-three', 'bad'), []);
});

test('4-letter words tolerate 1 edit, not 2', async (t) => {
  await seed('m-four', [doc('item', '1', ['rust belt'])]);
  t.deepEqual(await find('m-four', 'rist'), ['rust belt'], 'substitution');
  t.deepEqual(await find('m-four', 'rut'), [], 'a 3-letter query word gets no tolerance, even one deletion away');
  t.deepEqual(await find('m-four', 'rusty'), ['rust belt'], 'a 5-letter query word one insertion away');
  t.deepEqual(await find('m-four', 'rxsx'), [], '2 edits');
});

test('5-letter words tolerate 1 edit, not 2', async (t) => {
  await seed('m-five', [doc('item', '1', ['lemon tart'])]);
  t.deepEqual(await find('m-five', 'lemin'), ['lemon tart']);
  t.deepEqual(await find('m-five', 'lmon'), ['lemon tart'], '4-letter query word, one deletion');
  t.deepEqual(await find('m-five', 'limin'), [], '2 edits');
});

test('6-letter words tolerate 2 edits, not 3', async (t) => {
  await seed('m-six', [doc('item', '1', ['garden party'])]);
  t.deepEqual(await find('m-six', 'gardem'), ['garden party'], '1 edit');
  t.deepEqual(await find('m-six', 'gaddem'), ['garden party'], '2 edits');
  t.deepEqual(await find('m-six', 'gxddem'), [], '3 edits');
});

test('7-letter words tolerate 2 edits, not 3', async (t) => {
  await seed('m-seven', [doc('item', '1', ['village fair'])]);
  t.deepEqual(await find('m-seven', 'villgae'), ['village fair'], 'a swap is 2 edits');
  t.deepEqual(await find('m-seven', 'vilage'), ['village fair'], 'a 6-letter query word one deletion away');
  t.deepEqual(await find('m-seven', 'vxllgae'), [], '3 edits');
});

test('a typo is matched against whole record words, in names and details', async (t) => {
  await seed('m-typo-detail', [doc('item', '1', ['Kickoff'], { details: ['agenda attached'] })]);
  t.deepEqual(await find('m-typo-detail', 'agnda'), ['Kickoff']);
  t.deepEqual(await find('m-typo-detail', 'atached kickof'), ['Kickoff']);
});

test('numbers and ids get no typo tolerance', async (t) => {
  await seed('m-numbers', [doc('item', '1', ['Invoice 20240'])]);
  t.deepEqual(await find('m-numbers', '20240'), ['Invoice 20240']);
  t.deepEqual(await find('m-numbers', '20241'), []);
});

test('matching ignores case and accents, on both sides', async (t) => {
  await seed('m-accents', [doc('item', '1', ['Crème Brûlée']), doc('item', '2', ['Straße Plan']), doc('item', '3', ['Cafe menu'])]);
  t.deepEqual(await find('m-accents', 'creme brulee'), ['Crème Brûlée']);
  t.deepEqual(await find('m-accents', 'CRÈME'), ['Crème Brûlée']);
  t.deepEqual(await find('m-accents', 'strasse'), ['Straße Plan']);
  t.deepEqual(await find('m-accents', 'CAFÉ'), ['Cafe menu']);
});

test('short words (1-2 characters) match as substrings', async (t) => {
  await seed('m-short', [doc('item', '1', ['Project X1 launch']), doc('item', '2', ['Project Y2 launch'])]);
  t.deepEqual(await find('m-short', 'x1'), ['Project X1 launch']);
  t.deepEqual(await find('m-short', 'launch y'), ['Project Y2 launch']);
});

test('LIKE wildcards in the query are matched literally', async (t) => {
  await seed('m-wildcards', [doc('item', '1', ['50% off']), doc('item', '2', ['500 units'])]);
  t.deepEqual(await find('m-wildcards', '50%'), ['50% off']);
  t.deepEqual(await find('m-wildcards', '5_0'), []);
});

test('an empty query lists the records, newest first', async (t) => {
  await seed('m-empty', [
    doc('item', '1', ['Older'], { filters: { date: '2026-01-01' } }),
    doc('item', '2', ['Newer'], { filters: { date: '2026-02-01' } }),
  ]);
  const page = await s.index.search(s.acme.id, 'm-empty', { q: '  ', types: ['item'], typeOrder: false, filters: { attributes: {} }, limit: 10, offset: 0 });
  t.deepEqual(page.rows.map((row) => [row.title, row.score]), [['Newer', 0], ['Older', 0]]);
  t.is(page.total, 2);
});

test('only the given types are searched', async (t) => {
  await seed('m-types', [doc('item', '1', ['Shared word']), doc('other', '2', ['Shared word'])]);
  t.deepEqual(await find('m-types', 'shared', ['other']), ['Shared word']);
  t.deepEqual(await find('m-types', 'shared', []), []);
  t.is((await s.index.search(s.acme.id, 'm-types', { q: 'shared', types: ['item', 'other'], typeOrder: false, filters: { attributes: {} }, limit: 10, offset: 0 })).total, 2);
});

test('too many words are refused', async (t) => {
  const error = await t.throwsAsync(s.index.search(s.acme.id, 'm-types', { q: 'a b c d e f g h i j k l m', types: ['item'], typeOrder: false, filters: { attributes: {} }, limit: 10, offset: 0 }));
  t.is(error?.message, 'q must have at most 12 words');
});

test('typo keys never miss: every word within the tolerance shares a key with the query word', async (t) => {
  // Random words and random edits (substitutions, insertions, deletions, anywhere, the ends included).
  let seed = 42;
  const random = (limit: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % limit;
  };
  const letter = () => 'abcdefghijklmnopqrstuvwxyz'[random(26)];
  const pairs: Array<{ query: string; target: string; edits: number }> = [];
  for (let index = 0; index < 400; index++) {
    const length = 4 + random(9);
    const query = Array.from({ length }, letter).join('');
    const edits = length >= 6 ? 2 : 1;
    let target = query;
    for (let edit = 0; edit < 1 + random(edits); edit++) {
      const at = random(target.length + 1);
      const kind = random(3);
      if (kind === 0 && at < target.length) target = target.slice(0, at) + letter() + target.slice(at + 1);
      else if (kind === 1) target = target.slice(0, at) + letter() + target.slice(at);
      else if (target.length > 3 && at < target.length) target = target.slice(0, at) + target.slice(at + 1);
    }
    pairs.push({ query, target, edits });
  }
  const rows = await s.env.runtime.db.sequelize.query<{ query: string; target: string; edits: number; distance: number; shared: boolean }>(
    `SELECT p.query, p.target, p.edits, platform.search_distance(p.target, p.query, 9) AS distance,
            platform.search_word_keys($1::uuid, p.target) && platform.search_variant_keys($1::uuid, p.query, p.edits) AS shared
     FROM jsonb_to_recordset($2::jsonb) AS p(query text, target text, edits int)`,
    { type: QueryTypes.SELECT, bind: [s.acme.id, JSON.stringify(pairs)] },
  );
  const within = rows.filter((row) => row.distance <= row.edits);
  t.true(within.length > 300);
  t.deepEqual(within.filter((row) => !row.shared), []);
});
