import test from 'ava';
import { QueryTypes } from 'sequelize';
import { doc, startSearchEnv, type SearchEnv } from './helpers/search.js';

// The index follows the data: replaced, removed and rolled back with it; the dictionary is pruned.
let s: SearchEnv;

test.before(async () => {
  s = await startSearchEnv();
});

test.after.always(async () => {
  await s?.close();
});

const sequelize = () => s.env.runtime.db.sequelize;

async function titles(app: string, q: string, workspaceId = s.acme.id): Promise<string[]> {
  const page = await s.index.search(workspaceId, app, { q, types: ['item'], typeOrder: false, filters: { attributes: {} }, limit: 100, offset: 0 });
  return page.rows.map((row) => row.title).sort();
}

async function dictionary(workspaceId: string, words: string[]): Promise<string[]> {
  const rows = await sequelize().query<{ word: string }>('SELECT word FROM platform.search_words WHERE workspace_id = $1 AND word = ANY($2::text[]) ORDER BY word', {
    type: QueryTypes.SELECT,
    bind: [workspaceId, words],
  });
  return rows.map((row) => row.word);
}

test('upserting a record again replaces it: old words stop matching, new ones match', async (t) => {
  await s.index.upsert(s.acme.id, 'i-replace', doc('item', '1', ['Draft contract']));
  t.deepEqual(await titles('i-replace', 'draft'), ['Draft contract']);
  await s.index.upsert(s.acme.id, 'i-replace', doc('item', '1', ['Signed agreement']));
  t.deepEqual(await titles('i-replace', 'draft'), []);
  t.deepEqual(await titles('i-replace', 'agreement'), ['Signed agreement']);
  const [{ count }] = await sequelize().query<{ count: number }>("SELECT count(*)::int AS count FROM platform.search_records WHERE app = 'i-replace'", { type: QueryTypes.SELECT });
  t.is(count, 1);
});

test('removing a record removes it from results at once', async (t) => {
  await s.index.upsert(s.acme.id, 'i-remove', doc('item', '1', ['Vendor list']));
  await s.index.upsert(s.acme.id, 'i-remove', doc('item', '2', ['Vendor map']));
  t.true(await s.index.remove(s.acme.id, 'i-remove', 'item', '1'));
  t.deepEqual(await titles('i-remove', 'vendor'), ['Vendor map']);
  t.false(await s.index.remove(s.acme.id, 'i-remove', 'item', '1'), 'a second remove finds nothing');
});

test('removeAll drops every record of one app only (of one type when given)', async (t) => {
  await s.index.upsert(s.acme.id, 'i-all', doc('item', '1', ['Alpha report']));
  await s.index.upsert(s.acme.id, 'i-all', doc('other', '2', ['Alpha memo']));
  await s.index.upsert(s.acme.id, 'i-all-neighbour', doc('item', '1', ['Alpha report']));
  t.is(await s.index.removeAll(s.acme.id, 'i-all', 'other'), 1);
  t.is(await s.index.removeAll(s.acme.id, 'i-all'), 1);
  t.deepEqual(await titles('i-all', 'alpha'), []);
  t.deepEqual(await titles('i-all-neighbour', 'alpha'), ['Alpha report']);
});

test('index writes join the caller\'s transaction: rolled back with it, visible inside it', async (t) => {
  await t.throwsAsync(
    sequelize().transaction(async () => {
      await s.index.upsert(s.acme.id, 'i-tx', doc('item', '1', ['Phantom entry']));
      t.deepEqual(await titles('i-tx', 'phantom'), ['Phantom entry'], 'the transaction sees its own write');
      throw new Error('roll back');
    }),
    { message: 'roll back' },
  );
  t.deepEqual(await titles('i-tx', 'phantom'), []);
  t.deepEqual(await dictionary(s.acme.id, ['phantom']), [], 'the dictionary rolls back too');
});

test('the dictionary gains words as records are written and loses stale ones when pruned', async (t) => {
  await s.index.upsert(s.acme.id, 'i-dict', doc('item', '1', ['Zebracorn stable'], { details: ['Quokkaflux notes'] }));
  t.deepEqual(await dictionary(s.acme.id, ['quokkaflux', 'stable', 'zebracorn']), ['quokkaflux', 'stable', 'zebracorn']);
  t.deepEqual(await dictionary(s.other.id, ['zebracorn']), [], 'per workspace');
  await s.index.upsert(s.acme.id, 'i-dict', doc('item', '1', ['Zebracorn stable']));
  await s.index.remove(s.acme.id, 'i-dict-missing', 'item', 'x');
  t.true((await s.index.pruneDictionary(s.acme.id)) >= 1);
  t.deepEqual(await dictionary(s.acme.id, ['quokkaflux', 'stable', 'zebracorn']), ['stable', 'zebracorn'], 'only words no record uses are pruned');
  t.deepEqual(await titles('i-dict', 'zebracorm'), ['Zebracorn stable'], 'typos still find the remaining words');
});

test('pruning refuses to run inside a transaction', async (t) => {
  await t.throwsAsync(sequelize().transaction(() => s.index.pruneDictionary(s.acme.id)), { message: 'pruneDictionary runs its own transactions; call it outside any transaction' });
});

test('deleting a workspace deletes its records and dictionary', async (t) => {
  const gone = await s.env.runtime.workspaces.create({ subdomain: 'gone', name: 'Gone' });
  await s.index.upsert(gone.id, 'i-cascade', doc('item', '1', ['Farewell note']));
  await sequelize().query('DELETE FROM platform.workspaces WHERE id = $1', { bind: [gone.id] });
  const [{ records, words }] = await sequelize().query<{ records: number; words: number }>(
    'SELECT (SELECT count(*)::int FROM platform.search_records WHERE workspace_id = $1) AS records, (SELECT count(*)::int FROM platform.search_words WHERE workspace_id = $1) AS words',
    { type: QueryTypes.SELECT, bind: [gone.id] },
  );
  t.deepEqual({ records, words }, { records: 0, words: 0 });
});

test('a malformed document is a programming error naming the field', async (t) => {
  await t.throwsAsync(s.index.upsert(s.acme.id, 'i-bad', { type: 'item', id: '', title: 't', url: '/x', names: [] }), { instanceOf: TypeError, message: 'search document: id must be a non-empty string of at most 200 characters' });
  await t.throwsAsync(s.index.upsert(s.acme.id, 'i-bad', doc('item', '1', ['x'], { filters: { date: 'soon' } })), { instanceOf: TypeError, message: 'search document: filters.date must be a date (YYYY-MM-DD) or an ISO 8601 instant' });
  await t.throwsAsync(s.index.upsert(s.acme.id, 'i-bad', doc('item', '1', ['x'], { filters: { size: -3 } })), { instanceOf: TypeError, message: 'search document: filters.size must be a whole number of 0 or more' });
});

test('a reader may be a platform role: a record read by role:admin is found by the admins and by the members it names, and by nobody else', async (t) => {
  const found = async (reader: string[]) => {
    const page = await s.index.search(s.acme.id, 'i-roles', { q: 'minutes', types: ['item'], typeOrder: false, filters: { attributes: {} }, reader, limit: 100, offset: 0 });
    return page.rows.map((row) => row.title);
  };
  const alice = '00000000-0000-4000-8000-00000000000a';
  const bob = '00000000-0000-4000-8000-00000000000b';
  await s.index.upsert(s.acme.id, 'i-roles', { ...doc('item', '1', ['Board minutes']), readers: ['role:admin', alice] });
  t.deepEqual(await found([bob, 'role:admin']), ['Board minutes'], 'an admin, through the role');
  t.deepEqual(await found([alice, 'role:member']), ['Board minutes'], 'a member named by id');
  t.deepEqual(await found([bob, 'role:member']), [], 'a member named by neither');
  t.deepEqual(await found([bob, 'role:owner']), [], 'an owner is not an admin here');
  t.deepEqual(await found([]), [], 'a caller with no name finds no record with readers');
});

test('an empty names list falls back to the title', async (t) => {
  await s.index.upsert(s.acme.id, 'i-title', { type: 'item', id: '1', title: 'Fallback heading', url: '/x', names: [] });
  t.deepEqual(await titles('i-title', 'fallback heading'), ['Fallback heading']);
});

test('a record with readers is found only by those members; one without by every searcher; readers are replaced with the record', async (t) => {
  const found = async (reader: string[] | undefined) => {
    const page = await s.index.search(s.acme.id, 'i-readers', { q: 'ledger', types: ['item'], typeOrder: false, filters: { attributes: {} }, reader, limit: 100, offset: 0 });
    return page.rows.map((row) => row.title).sort();
  };
  const alice = '00000000-0000-4000-8000-00000000000a';
  const bob = '00000000-0000-4000-8000-00000000000b';
  await s.index.upsert(s.acme.id, 'i-readers', { ...doc('item', '1', ['Private ledger']), readers: [alice] });
  await s.index.upsert(s.acme.id, 'i-readers', doc('item', '2', ['Public ledger']));
  t.deepEqual(await found([alice, 'role:member']), ['Private ledger', 'Public ledger']);
  t.deepEqual(await found([bob, 'role:admin']), ['Public ledger']);
  t.deepEqual(await found(undefined), ['Private ledger', 'Public ledger'], 'no reader given: no restriction (internal callers)');
  await s.index.upsert(s.acme.id, 'i-readers', { ...doc('item', '1', ['Private ledger']), readers: [bob] });
  t.deepEqual(await found([alice, 'role:member']), ['Public ledger']);
  t.deepEqual(await found([bob, 'role:admin']), ['Private ledger', 'Public ledger']);
  await t.throwsAsync(s.index.upsert(s.acme.id, 'i-readers', { ...doc('item', '3', ['x']), readers: [''] }), { instanceOf: TypeError, message: 'search document: readers must be an array of at most 1000 member ids or role names' });
  await t.throwsAsync(s.index.upsert(s.acme.id, 'i-readers', { ...doc('item', '3', ['x']), readers: [alice, 'role:guest'] }), { instanceOf: TypeError, message: 'search document: readers: role:guest names no platform role (role:owner, role:admin or role:member)' });
});
