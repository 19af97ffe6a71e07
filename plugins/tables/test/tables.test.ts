import test from 'ava';
import ExcelJS from 'exceljs';
import { listenForSockets, ok, startWorld, subscribeChannel, type TestMember, type World, type WorldSockets } from '@wpk/testing';
import { Decimal } from 'decimal.js';
import app from '../src/index.js';
import { display } from '../src/services/cells.js';

const KEYS = ['tables.bases.read', 'tables.records.edit', 'tables.bases.create'];
let world: World;
let sockets: WorldSockets;
let ann: TestMember;
let bob: TestMember;
let viewer: TestMember;
const ids: Record<string, string> = {};

test.before(async () => {
  world = await startWorld({ app, subdomain: 'tables', clock: new Date('2026-11-02T09:00:00.000Z') });
  sockets = await listenForSockets(world);
  [ann, bob, viewer] = await world.members(3, KEYS);
  ids.base = ok(await ann.post('/tables/bases', { name: 'Sales' })).id;
  const orders = ok(await ann.post(`/tables/bases/${ids.base}/tables`, { name: 'Orders' }));
  ids.orders = orders.id;
  ids.name = orders.primary_field_id;
  world.takeEvents();
});
test.after.always(() => world?.close());

const field = async (name: string, type: string, options?: Record<string, unknown>) => ok(await ann.post(`/tables/tables/${ids.orders}/fields`, { name, type, ...(options ? { options } : {}) }));

test.serial('fields of every common type; a record is checked cell by cell, the formula computed, the events name the fields', async (t) => {
  ids.price = (await field('Price', 'currency', { decimals: 2, symbol: '€' })).id;
  ids.qty = (await field('Quantity', 'number')).id;
  ids.when = (await field('Due', 'date')).id;
  ids.paid = (await field('Paid', 'checkbox')).id;
  ids.status = (await field('Status', 'single_select', { choices: [{ name: 'New' }, { name: 'Won' }, { name: 'Lost' }] })).id;
  ids.tags = (await field('Tags', 'multiple_select', { choices: [{ name: 'vip' }, { name: 'eu' }] })).id;
  ids.owner = (await field('Owner', 'member')).id;
  ids.notes = (await field('Notes', 'long_text')).id;
  ids.no = (await field('No', 'autonumber')).id;
  const total = await field('Total', 'formula', { expression: '{Price} * {quantity}' });
  ids.total = total.id;
  t.like(total, { type: 'formula', options: { expression: '{Price} * {Quantity}', references: [ids.price, ids.qty] } });
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload.name]), [
    ['core.tables.field.created', 'Price'], ['core.tables.field.created', 'Quantity'], ['core.tables.field.created', 'Due'], ['core.tables.field.created', 'Paid'], ['core.tables.field.created', 'Status'],
    ['core.tables.field.created', 'Tags'], ['core.tables.field.created', 'Owner'], ['core.tables.field.created', 'Notes'], ['core.tables.field.created', 'No'], ['core.tables.field.created', 'Total'],
  ]);

  const made = ok(await ann.post(`/tables/tables/${ids.orders}/records`, { cells: { [ids.name]: 'Acme', [ids.price]: '12.5', [ids.qty]: 3, [ids.when]: '2026-12-01', [ids.status]: 'New', [ids.tags]: ['vip', 'vip', 'eu'], [ids.owner]: bob.id } }));
  ids.acme = made.id;
  t.like(made, { number: 1, title: 'Acme', cells: { [ids.price]: '12.50', [ids.qty]: 3, [ids.paid]: false, [ids.tags]: ['vip', 'eu'], [ids.owner]: bob.id, [ids.no]: 1, [ids.total]: 37.5 } });
  t.is(made.versions[ids.price], 1);
  const [created] = world.takeEvents();
  t.is(created!.action, 'core.tables.record.created');
  t.deepEqual(created!.payload.field_ids, [ids.name, ids.price, ids.qty, ids.when, ids.paid, ids.status, ids.tags, ids.owner, ids.no, ids.total]);

  const bad = async (cells: Record<string, unknown>, error: string) => {
    const answer = await ann.post(`/tables/tables/${ids.orders}/records`, { cells });
    t.is(answer.status, 400, error);
    t.is(answer.body.error, error);
  };
  await bad({ [ids.price]: '1.005' }, `cells.${ids.price}: Price takes at most 2 decimals`);
  await bad({ [ids.when]: '2026-02-30' }, `cells.${ids.when}: Due takes a date YYYY-MM-DD`);
  await bad({ [ids.status]: 'Maybe' }, `cells.${ids.status}: Status takes one of: New, Won, Lost`);
  await bad({ [ids.total]: 3 }, `cells.${ids.total}: Total is a formula field: its value is computed`);
  await bad({ nope: 1 }, 'cells.nope: no field nope in this table');
  const stranger = crypto.randomUUID();
  await bad({ [ids.owner]: stranger }, `cells.${ids.owner} ${stranger} is not a member of this workspace`);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('a formula that would make a cycle is refused with its path; a bad formula names what is wrong', async (t) => {
  const tax = await field('Tax', 'formula', { expression: '{Total} * 0.2' });
  const loop = await ann.patch(`/tables/fields/${ids.total}`, { options: { expression: '{Price} * {Quantity} + {Tax}' } });
  t.is(loop.status, 400);
  t.is(loop.body.error, 'options.expression: the formula would make a cycle: Total → Tax → Total');
  const self = await ann.post(`/tables/tables/${ids.orders}/fields`, { name: 'Me', type: 'formula', options: { expression: '{Me} + 1' } });
  t.is(self.body.error, 'options.expression: the formula would make a cycle: Me → Me');
  const unknown = await ann.post(`/tables/tables/${ids.orders}/fields`, { name: 'X', type: 'formula', options: { expression: '{Nope} + 1' } });
  t.is(unknown.body.error, 'options.expression: {Nope} names no field of this table');
  const broken = await ann.post(`/tables/tables/${ids.orders}/fields`, { name: 'X', type: 'formula', options: { expression: '{Price} +' } });
  t.is(broken.body.error, 'options.expression: it does not parse (an operator, a parenthesis or an argument is missing)');
  const record = ok(await ann.get(`/tables/records/${ids.acme}`));
  t.is(record.cells[tax.id], 7.5);
  const deleting = await ann.delete(`/tables/fields/${ids.total}`);
  t.is(deleting.status, 409);
  t.is(deleting.body.error, `Field Tax (${tax.id}) reads Total: delete it after changing or deleting Tax`);
  ok(await ann.delete(`/tables/fields/${tax.id}`));
  world.takeEvents();
});

test.serial('a cell write names the version it read: a stale one is a 409 with the current value; other viewers see the change live', async (t) => {
  const watcher = await sockets.connect(bob);
  t.like(await subscribeChannel(watcher, `tables/tables/${ids.orders}`), { type: 'subscribed' });
  const read = ok(await ann.get(`/tables/records/${ids.acme}`));
  const first = ok(await ann.patch(`/tables/records/${ids.acme}`, { cells: { [ids.qty]: 4 }, versions: { [ids.qty]: read.versions[ids.qty] } }));
  t.like(first, { cells: { [ids.qty]: 4, [ids.total]: 50 }, versions: { [ids.qty]: 2, [ids.total]: 2 } });
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload.changed_field_ids]), [['core.tables.record.updated', [ids.qty, ids.total]]]);
  const live = await watcher.until((message) => message.type === 'event' && message.event === 'record.updated');
  t.like(live.data, { id: ids.acme, cells: { [ids.qty]: 4 }, changed_field_ids: [ids.qty, ids.total] });

  const stale = await bob.patch(`/tables/records/${ids.acme}`, { cells: { [ids.qty]: 9 }, versions: { [ids.qty]: 1 } });
  t.is(stale.status, 409);
  t.deepEqual(stale.body, { error: 'Cell Quantity of record #1 changed since you read it (you read version 1; it is now version 2, value 4)', field: `cells.${ids.qty}` });
  const missing = await bob.patch(`/tables/records/${ids.acme}`, { cells: { [ids.qty]: 9 }, versions: {} });
  t.is(missing.status, 400);
  t.is(missing.body.error, `versions.${ids.qty}: the version of the cell you read is required`);
  // Another cell of the same record is not stale.
  ok(await bob.patch(`/tables/records/${ids.acme}`, { cells: { [ids.notes]: 'Call back' }, versions: { [ids.notes]: 0 } }));
  t.is(ok(await ann.get(`/tables/records/${ids.acme}`)).cells[ids.qty], 4);
  world.takeEvents();
  watcher.close();
});

test.serial('bulk create and update, filter, sort, group and keyset pages', async (t) => {
  const rows = [['Beta', '5', 2, 'Won'], ['Gamma', '7.25', 1, 'New'], ['Delta', '1', 10, 'Won'], ['Epsilon', null, null, null]];
  const made = ok(await ann.post(`/tables/tables/${ids.orders}/records/bulk`, { records: rows.map(([name, price, qty, status]) => ({ cells: { [ids.name]: name, [ids.price]: price, [ids.qty]: qty, [ids.status]: status } })) }));
  t.deepEqual(made.map((row: any) => [row.number, row.cells[ids.total]]), [[2, 10], [3, 7.25], [4, 10], [5, 0]]);
  t.is(world.takeEvents().length, 4);
  const refused = await ann.post(`/tables/tables/${ids.orders}/records/bulk`, { records: [{ cells: { [ids.name]: 'ok' } }, { cells: { [ids.qty]: 'many' } }] });
  t.is(refused.body.error, `records[1].cells.${ids.qty}: Quantity takes a number`);
  t.deepEqual(world.takeEvents(), []);
  // A bulk answer is every record written, not a page (whose per_page is at most 100): the harness checks it against the OpenAPI document.
  const many = ok(await ann.post(`/tables/bases/${ids.base}/tables`, { name: 'Many' }));
  const bulk = await ann.post(`/tables/tables/${many.id}/records/bulk`, { records: Array.from({ length: 150 }, (_, index) => ({ cells: { [many.primary_field_id]: `Item ${index + 1}` } })) });
  t.is(bulk.status, 200);
  t.deepEqual(Object.keys(bulk.body).sort(), ['data', 'links']);
  t.deepEqual(bulk.body.data.map((row: any) => row.title), Array.from({ length: 150 }, (_, index) => `Item ${index + 1}`));
  const renamed = await ann.patch(`/tables/tables/${many.id}/records/bulk`, { records: bulk.body.data.map((row: any) => ({ id: row.id, cells: { [many.primary_field_id]: `Renamed ${row.number}` }, versions: { [many.primary_field_id]: 1 } })) });
  t.is(renamed.status, 200);
  t.deepEqual(renamed.body.data.map((row: any) => [row.title, row.versions[many.primary_field_id]]), Array.from({ length: 150 }, (_, index) => [`Renamed ${index + 1}`, 2]));
  t.is(world.takeEvents().filter((event) => event.action === 'core.tables.record.created').length, 150);

  const list = (query: string) => ann.get(`/tables/tables/${ids.orders}/records?${query}`);
  const won = await list(`filter=${encodeURIComponent(JSON.stringify([{ field_id: ids.status, op: 'eq', value: 'Won' }]))}&sort=${encodeURIComponent(JSON.stringify([{ field_id: ids.price, direction: 'desc' }]))}`);
  t.deepEqual(won.body.data.map((row: any) => row.title), ['Beta', 'Delta']);
  const grouped = await list(`group_by=${ids.status}&sort=${encodeURIComponent(JSON.stringify([{ field_id: ids.name }]))}`);
  t.deepEqual(grouped.body.groups, [{ value: 'New', count: 2 }, { value: 'Won', count: 2 }, { value: null, count: 1 }]);
  t.deepEqual(grouped.body.data.map((row: any) => row.title), ['Acme', 'Gamma', 'Beta', 'Delta', 'Epsilon']);
  const groupedPage = await list(`group_by=${ids.status}&sort=${encodeURIComponent(JSON.stringify([{ field_id: ids.name }]))}&per_page=2`);
  t.deepEqual(groupedPage.body.data.map((row: any) => row.title), ['Acme', 'Gamma']);
  t.deepEqual(groupedPage.body.groups, [{ value: 'New', count: 2 }, { value: 'Won', count: 2 }, { value: null, count: 1 }], 'the groups of every record, not of the page');
  const sort = encodeURIComponent(JSON.stringify([{ field_id: ids.total, direction: 'asc' }]));
  const first = await list(`sort=${sort}&per_page=2`);
  t.deepEqual(first.body.data.map((row: any) => row.title), ['Epsilon', 'Gamma']);
  ok(await ann.post(`/tables/tables/${ids.orders}/records`, { cells: { [ids.name]: 'Zero', [ids.price]: '0' } }));
  const second = await list(`sort=${sort}&per_page=2&after=${first.body.next_cursor}`);
  t.deepEqual(second.body.data.map((row: any) => row.title), ['Beta', 'Delta']);
  const third = await list(`sort=${sort}&per_page=2&after=${second.body.next_cursor}`);
  t.deepEqual(third.body.data.map((row: any) => row.title), ['Acme']);
  t.is(third.body.next_cursor, null);
  t.is((await list('after=garbage')).status, 400);
  const farCursor = Buffer.from(JSON.stringify([null, 1e300])).toString('base64url');
  t.deepEqual((await list(`sort=${sort}&after=${farCursor}`)).body, { error: 'after: not a cursor of this listing (use next_cursor as answered, with the same filter and sort)', field: 'after' });
  const huge = await list(`filter=${encodeURIComponent(JSON.stringify([{ field_id: ids.price, op: 'gt', value: '1e999999' }, { field_id: ids.price, op: 'lt', value: 'NaN' }]))}`);
  t.is(huge.status, 200, 'a number past any numeric compares as text');
  t.is((await list('filter=[{"field_id":"nope","op":"eq"}]')).body.error, 'filters[0].field_id: no field nope in this table');

  const beta = made[0];
  const updated = ok(await ann.patch(`/tables/tables/${ids.orders}/records/bulk`, { records: [{ id: beta.id, cells: { [ids.qty]: 3 }, versions: { [ids.qty]: 1 } }, { id: made[1].id, cells: { [ids.paid]: true }, versions: { [ids.paid]: 1 } }] }));
  t.deepEqual(updated.map((row: any) => row.cells[ids.total]), [15, 7.25]);
  const staleBulk = await ann.patch(`/tables/tables/${ids.orders}/records/bulk`, { records: [{ id: made[2].id, cells: { [ids.qty]: 3 }, versions: { [ids.qty]: 1 } }, { id: beta.id, cells: { [ids.qty]: 5 }, versions: { [ids.qty]: 1 } }] });
  t.is(staleBulk.status, 409);
  t.is(ok(await ann.get(`/tables/records/${made[2].id}`)).cells[ids.qty], 10);
  world.takeEvents();
});

/** A seeded pseudo-random source (mulberry32): the same records and queries on every run. */
function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!, int: (low: number, high: number) => low + Math.floor(next() * (high - low + 1)) };
}

/** The listing's semantics as the app once ran them in memory (decision 0243), empty cells last in both directions. */
const reference = {
  compare(type: string, a: unknown, b: unknown): number {
    const emptyA = a === null || a === undefined || a === '';
    const emptyB = b === null || b === undefined || b === '';
    if (emptyA || emptyB) return emptyA === emptyB ? 0 : emptyA ? 1 : -1;
    if (['number', 'currency', 'autonumber', 'rollup'].includes(type) || (type === 'formula' && typeof a === 'number' && typeof b === 'number')) {
      try {
        return new Decimal(a as string).comparedTo(new Decimal(b as string));
      } catch {
        /* not numbers: compare as text */
      }
    }
    if (typeof a === 'boolean' || typeof b === 'boolean') return Number(a) - Number(b);
    const [x, y] = [display(a).toLowerCase(), display(b).toLowerCase()];
    return x < y ? -1 : x > y ? 1 : 0;
  },
  matches(type: string, op: string, value: unknown, wanted: unknown): boolean {
    const empty = value === null || value === undefined || value === '' || (Array.isArray(value) && !value.length) || value === false;
    if (op === 'empty' || op === 'not_empty') return (op === 'empty') === empty;
    if (op === 'contains' || op === 'not_contains') {
      const needle = display(wanted).toLowerCase();
      const has = Array.isArray(value) ? value.some((item) => display(item).toLowerCase().includes(needle)) : display(value).toLowerCase().includes(needle);
      return (op === 'contains') === has;
    }
    if (op === 'eq' || op === 'neq') return (op === 'eq') === (reference.compare(type, value, wanted) === 0 && (value === null || value === undefined) === (wanted === null || wanted === undefined));
    if (value === null || value === undefined) return false;
    const order = reference.compare(type, value, wanted);
    return op === 'gt' ? order > 0 : op === 'gte' ? order >= 0 : op === 'lt' ? order < 0 : order <= 0;
  },
  /** Filters, then orders by the keys (empty last whatever the direction) and the record number. */
  list(rows: any[], types: Record<string, string>, filters: any[], keys: Array<{ field_id: string; direction: string }>): any[] {
    const kept = rows.filter((row) => filters.every((filter) => reference.matches(types[filter.field_id]!, filter.op, row.cells[filter.field_id], filter.value)));
    return kept.sort((a, b) => {
      for (const key of keys) {
        const [x, y] = [a.cells[key.field_id] ?? null, b.cells[key.field_id] ?? null];
        const emptyX = x === null || x === '';
        const emptyY = y === null || y === '';
        const result = emptyX || emptyY ? reference.compare(types[key.field_id]!, x, y) : reference.compare(types[key.field_id]!, x, y) * (key.direction === 'desc' ? -1 : 1);
        if (result) return result;
      }
      return a.number - b.number;
    });
  },
};

test.serial('listing in SQL answers what the in-memory listing did: random records of every filterable type, random filters and sorts, every page walked by the cursor', async (t) => {
  const random = prng(44);
  const targets = ok(await ann.post(`/tables/bases/${ids.base}/tables`, { name: 'Parity targets' }));
  const weight = ok(await ann.post(`/tables/tables/${targets.id}/fields`, { name: 'Weight', type: 'currency', options: { decimals: 2 } })).id;
  const targetRows = ok(await ann.post(`/tables/tables/${targets.id}/records/bulk`, { records: [['Oak', '9.9'], ['elm', '10.5'], ['Ash', null], ['birch', '0.25']].map(([name, amount]) => ({ cells: { [targets.primary_field_id]: name, [weight]: amount } })) })).map((row: any) => row.id);
  const table = ok(await ann.post(`/tables/bases/${ids.base}/tables`, { name: 'Parity' }));
  const add = async (name: string, type: string, options?: Record<string, unknown>) => ok(await ann.post(`/tables/tables/${table.id}/fields`, { name, type, ...(options ? { options } : {}) })).id as string;
  const f = {
    text: table.primary_field_id as string,
    notes: await add('Notes', 'long_text'),
    number: await add('Count', 'number'),
    amount: await add('Amount', 'currency', { decimals: 2 }),
    date: await add('Day', 'date'),
    done: await add('Done', 'checkbox'),
    stage: await add('Stage', 'single_select', { choices: [{ name: 'New' }, { name: 'Won' }, { name: 'Lost' }] }),
    tags: await add('Tags', 'multiple_select', { choices: [{ name: 'vip' }, { name: 'EU' }, { name: 'eu-west' }] }),
    owner: await add('Owner', 'member'),
    serial: await add('Serial', 'autonumber'),
    double: await add('Double', 'formula', { expression: '{Count} * 2' }),
    link: await add('Trees', 'link', { table_id: targets.id }),
  };
  const lookup = await add('Tree names', 'lookup', { link_field_id: f.link, field_id: targets.primary_field_id });
  const rollup = await add('Tree weight', 'rollup', { link_field_id: f.link, field_id: weight, function: 'sum' });
  const types: Record<string, string> = { [f.text]: 'text', [f.notes]: 'long_text', [f.number]: 'number', [f.amount]: 'currency', [f.date]: 'date', [f.done]: 'checkbox', [f.stage]: 'single_select', [f.tags]: 'multiple_select', [f.owner]: 'member', [f.serial]: 'autonumber', [f.double]: 'formula', [f.link]: 'link', [lookup]: 'lookup', [rollup]: 'rollup' };
  const pools: Record<string, unknown[]> = {
    [f.text]: ['alpha', 'Alpha', 'beta', 'Beta 2', 'gamma', 'Zeta', 'a', 'AB', '10', '9', null],
    [f.notes]: ['call back', 'Call Back later', 'ok', null, null],
    [f.number]: [-3, 0, 2, 2.5, 9, 10, 100, -0.5, null],
    [f.amount]: ['9.9', '10.50', '10.5', '100', '-3', '0', '0.01', null],
    [f.date]: ['2026-01-02', '2026-12-31', '2025-06-15', null],
    [f.done]: [true, false],
    [f.stage]: ['New', 'Won', 'Lost', null],
    [f.tags]: [['vip'], ['EU', 'vip'], ['eu-west'], ['vip', 'eu-west', 'EU'], null],
    [f.owner]: [ann.id, bob.id, null],
    [f.link]: [[targetRows[0]], [targetRows[1], targetRows[3]], [targetRows[2]], targetRows, null],
  };
  const records = Array.from({ length: 300 }, () => ({ cells: Object.fromEntries(Object.entries(pools).map(([id, pool]) => [id, random.pick(pool)])) }));
  const made = ok(await ann.post(`/tables/tables/${table.id}/records/bulk`, { records }));
  t.is(made.length, 300);
  world.takeEvents();
  const values: Record<string, unknown[]> = {
    ...pools,
    [f.amount]: ['9.9', '10.5', 10.5, '100', 0, '-3'],
    [f.number]: [0, 2, 2.5, '9', 10, -1],
    [f.serial]: [1, 150, '42', 299],
    [f.double]: [0, 5, 20, -1],
    [lookup]: ['oak', 'Elm', 'b', null],
    [rollup]: [0, '9.9', 10.5, '20.65', 20.4],
    [f.done]: [true, false],
  };
  const ops = ['eq', 'neq', 'contains', 'not_contains', 'gt', 'gte', 'lt', 'lte', 'empty', 'not_empty'];
  const fieldIds = Object.keys(types);
  let pages = 0;
  for (let round = 0; round < 12; round++) {
    const filters = Array.from({ length: random.int(round % 4 === 0 ? 0 : 1, 2) }, () => {
      const field_id = random.pick(fieldIds);
      const op = random.pick(ops);
      const pool = values[field_id] ?? [null];
      const value = op === 'contains' || op === 'not_contains' ? display(random.pick(pool)).slice(0, random.int(1, 3)).toUpperCase() : random.pick(pool);
      return { field_id, op, value };
    });
    const sorts = Array.from({ length: random.int(1, 3) }, () => ({ field_id: random.pick(fieldIds), direction: random.pick(['asc', 'desc']) }));
    const group = random.next() < 0.3 ? random.pick([f.stage, f.done]) : null;
    const listed = reference.list(made, types, filters, [...(group ? [{ field_id: group, direction: 'asc' }] : []), ...sorts]);
    const expected = listed.map((row) => row.number);
    // Every page answers the groups of every record the filters keep (not of the page), in group order.
    const expectedGroups: Array<{ value: unknown; count: number }> = [];
    for (const row of group ? listed : []) {
      const value = row.cells[group!] ?? null;
      const last = expectedGroups.at(-1);
      if (last && JSON.stringify(last.value) === JSON.stringify(value)) last.count += 1;
      else expectedGroups.push({ value, count: 1 });
    }
    const perPage = random.int(25, 70);
    const query = `filter=${encodeURIComponent(JSON.stringify(filters))}&sort=${encodeURIComponent(JSON.stringify(sorts))}&per_page=${perPage}${group ? `&group_by=${group}` : ''}`;
    const seen: number[] = [];
    let after: string | null = null;
    do {
      const answer = await ann.get(`/tables/tables/${table.id}/records?${query}${after ? `&after=${after}` : ''}`);
      t.is(answer.status, 200, JSON.stringify(answer.body));
      const page = answer.body;
      pages += 1;
      t.is(page.pagination.total, expected.length);
      t.deepEqual(page.groups, expectedGroups, `round ${round}: groups`);
      seen.push(...page.data.map((row: any) => row.number));
      after = page.next_cursor;
    } while (after);
    t.deepEqual(seen, expected, `round ${round}: ${query}`);
  }
  t.true(pages > 20, `${pages} pages walked`);
});

test.serial('decimals sort and compare as numbers, and empty cells come last in both directions', async (t) => {
  const table = ok(await ann.post(`/tables/bases/${ids.base}/tables`, { name: 'Amounts' }));
  const amount = ok(await ann.post(`/tables/tables/${table.id}/fields`, { name: 'Amount', type: 'currency', options: { decimals: 2 } })).id;
  const names = [['nine', '9.9'], ['empty', null], ['ten', '10.50'], ['hundred', '100'], ['minus', '-0.5']] as const;
  ok(await ann.post(`/tables/tables/${table.id}/records/bulk`, { records: names.map(([name, value]) => ({ cells: { [table.primary_field_id]: name, [amount]: value } })) }));
  const titles = async (query: Record<string, unknown>) => (await ann.get(`/tables/tables/${table.id}/records?${Object.entries(query).map(([key, value]) => `${key}=${encodeURIComponent(JSON.stringify(value))}`).join('&')}`)).body.data.map((row: any) => row.title);
  t.deepEqual(await titles({ sort: [{ field_id: amount, direction: 'asc' }] }), ['minus', 'nine', 'ten', 'hundred', 'empty']);
  t.deepEqual(await titles({ sort: [{ field_id: amount, direction: 'desc' }] }), ['hundred', 'ten', 'nine', 'minus', 'empty']);
  t.deepEqual(await titles({ filter: [{ field_id: amount, op: 'gt', value: '9.9' }], sort: [{ field_id: amount }] }), ['ten', 'hundred']);
  t.deepEqual(await titles({ filter: [{ field_id: amount, op: 'eq', value: '10.5' }] }), ['ten']);
  t.deepEqual(await titles({ sort: [{ field_id: table.primary_field_id, direction: 'desc' }] }), ['ten', 'nine', 'minus', 'hundred', 'empty']);
  t.deepEqual((await ann.get(`/tables/tables/${table.id}/records?q=${encodeURIComponent('0.5')}`)).body.data.map((row: any) => row.title), ['ten', 'minus'], 'q searches every cell as text');
  world.takeEvents();
});

test.serial('a type change converts the cells and reports those it could not', async (t) => {
  const code = await field('Code', 'text');
  const values = ['12', 'n/a', '7.5'];
  const records = ok(await ann.get(`/tables/tables/${ids.orders}/records?per_page=3`));
  for (const [index, row] of records.entries()) ok(await ann.patch(`/tables/records/${row.id}`, { cells: { [code.id]: values[index] }, versions: { [code.id]: 0 } }));
  world.takeEvents();
  const changed = ok(await ann.patch(`/tables/fields/${code.id}`, { type: 'number' }));
  t.like(changed, { type: 'number', conversion: { converted: records.length + 3 - 1 } });
  t.deepEqual(changed.conversion.failed, [{ record_id: records[1].id, value: 'n/a' }]);
  const after = ok(await ann.get(`/tables/tables/${ids.orders}/records?per_page=3`));
  t.deepEqual(after.map((row: any) => row.cells[code.id]), [12, null, 7.5]);
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload.changed_fields]), [['core.tables.field.updated', ['type']]]);
  const select = ok(await ann.patch(`/tables/fields/${code.id}`, { type: 'single_select' }));
  t.deepEqual(select.options.choices.map((choice: any) => choice.name), ['12', '7.5']);
  ok(await ann.delete(`/tables/fields/${code.id}`));
  world.takeEvents();
});

test.serial('links, lookups and rollups follow the linked records', async (t) => {
  const customers = ok(await ann.post(`/tables/bases/${ids.base}/tables`, { name: 'Customers' }));
  const link = ok(await ann.post(`/tables/tables/${customers.id}/fields`, { name: 'Orders', type: 'link', options: { table_id: ids.orders } }));
  const spent = ok(await ann.post(`/tables/tables/${customers.id}/fields`, { name: 'Spent', type: 'rollup', options: { link_field_id: link.id, field_id: ids.price, function: 'sum' } }));
  const names = ok(await ann.post(`/tables/tables/${customers.id}/fields`, { name: 'Order names', type: 'lookup', options: { link_field_id: link.id, field_id: ids.name } }));
  const all = ok(await ann.get(`/tables/tables/${ids.orders}/records?per_page=2`));
  const customer = ok(await ann.post(`/tables/tables/${customers.id}/records`, { cells: { [customers.primary_field_id]: 'Ada', [link.id]: all.map((row: any) => row.id) } }));
  t.like(customer.cells, { [spent.id]: 17.5, [names.id]: ['Acme', 'Beta'] });
  const acme = ok(await ann.get(`/tables/records/${ids.acme}`));
  ok(await ann.patch(`/tables/records/${ids.acme}`, { cells: { [ids.price]: '20' }, versions: { [ids.price]: acme.versions[ids.price] } }));
  t.is(ok(await ann.get(`/tables/records/${customer.id}`)).cells[spent.id], 25);
  const bad = await ann.post(`/tables/tables/${customers.id}/records`, { cells: { [link.id]: [crypto.randomUUID()] } });
  t.is(bad.status, 400);
  t.is((await ann.delete(`/tables/tables/${ids.orders}`)).status, 409);
  ok(await ann.delete(`/tables/records/${all[1].id}`));
  t.like(ok(await ann.get(`/tables/records/${customer.id}`)).cells, { [link.id]: [ids.acme], [spent.id]: 20, [names.id]: ['Acme'] });
  world.takeEvents();
});

test.serial('two-way links: a link makes its inverse; both sides stay in step on create, update, remove, record and field delete; one event per record; a failed write changes neither side', async (t) => {
  const projects = ok(await ann.post(`/tables/bases/${ids.base}/tables`, { name: 'Projects' }));
  const people = ok(await ann.post(`/tables/bases/${ids.base}/tables`, { name: 'People' }));
  world.takeEvents();
  const team = ok(await ann.post(`/tables/tables/${projects.id}/fields`, { name: 'Team', type: 'link', options: { table_id: people.id } }));
  const peopleFields = async () => ok(await ann.get(`/tables/tables/${people.id}/fields`)).filter((one: any) => one.type === 'link');
  const [inverse] = await peopleFields();
  t.like(inverse, { name: 'Projects', type: 'link', options: { table_id: projects.id, inverse_field_id: team.id } });
  t.deepEqual(team.options, { table_id: people.id, inverse_field_id: inverse.id });
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload.field_id]), [['core.tables.field.created', team.id], ['core.tables.field.created', inverse.id]]);
  // A clash takes the next free name; a self-link has no inverse.
  const lead = ok(await ann.post(`/tables/tables/${projects.id}/fields`, { name: 'Lead', type: 'link', options: { table_id: people.id } }));
  t.deepEqual((await peopleFields()).map((one: any) => [one.name, one.options.inverse_field_id]), [['Projects', team.id], ['Projects 2', lead.id]]);
  const parent = ok(await ann.post(`/tables/tables/${projects.id}/fields`, { name: 'Parent', type: 'link', options: { table_id: projects.id } }));
  t.deepEqual(parent.options, { table_id: projects.id, inverse_field_id: null });
  t.is(ok(await ann.get(`/tables/tables/${projects.id}/fields`)).length, 4);
  const names = ok(await ann.post(`/tables/tables/${people.id}/fields`, { name: 'Project names', type: 'lookup', options: { link_field_id: inverse.id, field_id: projects.primary_field_id } }));
  const [ada, bob, cy] = ok(await ann.post(`/tables/tables/${people.id}/records/bulk`, { records: ['Ada', 'Bob', 'Cy'].map((name) => ({ cells: { [people.primary_field_id]: name } })) }));
  world.takeEvents();
  const person = async (row: any) => ok(await ann.get(`/tables/records/${row.id}`));
  const updates = () => world.takeEvents().map((event) => [event.action, event.payload.record_id, event.payload.changed_field_ids ?? event.payload.field_ids]);

  // Create: the linked records gain the new record, versions bumped, one record.updated each.
  const apollo = ok(await ann.post(`/tables/tables/${projects.id}/records`, { cells: { [projects.primary_field_id]: 'Apollo', [team.id]: [ada.id, bob.id] } }));
  t.like((await person(ada)).cells, { [inverse.id]: [apollo.id], [names.id]: ['Apollo'] });
  t.is((await person(ada)).versions[inverse.id], 1);
  t.deepEqual(updates(), [['core.tables.record.created', apollo.id, [projects.primary_field_id, team.id]], ['core.tables.record.updated', ada.id, [inverse.id, names.id]], ['core.tables.record.updated', bob.id, [inverse.id, names.id]]]);
  // A bulk create linking two records to one person writes that person once.
  const [gemini, mercury] = ok(await ann.post(`/tables/tables/${projects.id}/records/bulk`, { records: ['Gemini', 'Mercury'].map((name) => ({ cells: { [projects.primary_field_id]: name, [team.id]: [cy.id] } })) }));
  t.deepEqual((await person(cy)).cells[inverse.id], [gemini.id, mercury.id]);
  t.deepEqual(updates().filter(([action]) => action === 'core.tables.record.updated'), [['core.tables.record.updated', cy.id, [inverse.id, names.id]]]);
  // Update: removed and added records follow; an unchanged one is not written.
  const apolloNow = ok(await ann.patch(`/tables/records/${apollo.id}`, { cells: { [team.id]: [bob.id, cy.id] }, versions: { [team.id]: 1 } }));
  t.is((await person(ada)).cells[inverse.id], null);
  t.deepEqual((await person(cy)).cells[inverse.id], [gemini.id, mercury.id, apollo.id]);
  t.deepEqual((await person(bob)).versions[inverse.id], 1);
  t.deepEqual(updates(), [['core.tables.record.updated', apollo.id, [team.id]], ['core.tables.record.updated', ada.id, [inverse.id, names.id]], ['core.tables.record.updated', cy.id, [inverse.id, names.id]]]);
  // The other side: removing a project from a person removes the person from the project.
  const cyNow = await person(cy);
  ok(await ann.patch(`/tables/records/${cy.id}`, { cells: { [inverse.id]: [gemini.id] }, versions: { [inverse.id]: cyNow.versions[inverse.id] } }));
  t.deepEqual(ok(await ann.get(`/tables/records/${apollo.id}`)).cells[team.id], [bob.id]);
  t.is(ok(await ann.get(`/tables/records/${mercury.id}`)).cells[team.id], null);
  t.deepEqual(updates().map(([action, id]) => [action, id]), [['core.tables.record.updated', cy.id], ['core.tables.record.updated', apollo.id], ['core.tables.record.updated', mercury.id]]);
  // A failed write (the second record's version is stale) changes neither side and announces nothing.
  const before = { ada: await person(ada), bob: await person(bob) };
  const failed = await ann.patch(`/tables/tables/${projects.id}/records/bulk`, { records: [{ id: gemini.id, cells: { [team.id]: [ada.id] }, versions: { [team.id]: 1 } }, { id: apollo.id, cells: { [team.id]: [] }, versions: { [team.id]: 1 } }] });
  t.is(failed.status, 409);
  t.deepEqual([await person(ada), await person(bob)], [before.ada, before.bob]);
  t.deepEqual(ok(await ann.get(`/tables/records/${gemini.id}`)).cells[team.id], [cy.id]);
  t.deepEqual(updates(), []);
  t.is(apolloNow.versions[team.id], 2);
  // Deleting a record removes it from the other side.
  ok(await ann.delete(`/tables/records/${bob.id}`));
  t.is(ok(await ann.get(`/tables/records/${apollo.id}`)).cells[team.id], null);
  // An import writes the other side as a create does.
  const primaryName = ok(await ann.get(`/tables/tables/${projects.id}/fields`))[0].name;
  world.takeEvents();
  t.like(ok(await ann.post(`/tables/tables/${projects.id}/import`, { format: 'csv', content: `${primaryName},Team\r\nVoyager,"${ada.id}, ${cy.id}"\r\n` })), { created: 1 });
  const voyagerId = ok(await ann.get(`/tables/tables/${projects.id}/records?q=Voyager`))[0].id;
  t.deepEqual((await person(ada)).cells[inverse.id], [voyagerId]);
  t.deepEqual((await person(cy)).cells[inverse.id], [gemini.id, voyagerId]);
  t.deepEqual(updates().map(([action, id]) => [action, id]), [['core.tables.record.created', voyagerId], ['core.tables.record.updated', ada.id], ['core.tables.record.updated', cy.id]]);
  // A rename keeps the pair; a two-way link keeps its table.
  t.like(ok(await ann.patch(`/tables/fields/${team.id}`, { name: 'Crew', options: { table_id: people.id } })), { name: 'Crew', options: { table_id: people.id, inverse_field_id: inverse.id } });
  const moved = await ann.patch(`/tables/fields/${team.id}`, { options: { table_id: projects.id } });
  t.is(moved.status, 409);
  t.is(moved.body.error, 'Crew is a two-way link: it keeps its table (delete it and add a link to the other table)');
  world.takeEvents();
  // Deleting one side deletes the other; so does a type change away from link.
  ok(await ann.delete(`/tables/fields/${lead.id}`));
  t.deepEqual((await peopleFields()).map((one: any) => one.name), ['Projects']);
  t.deepEqual(world.takeEvents().filter((event) => event.action === 'core.tables.field.deleted').map((event) => event.payload.field_id), [lead.id, lead.options.inverse_field_id]);
  t.is((await ann.delete(`/tables/fields/${inverse.id}`)).status, 409, 'a lookup reads the inverse');
  ok(await ann.delete(`/tables/fields/${names.id}`));
  ok(await ann.patch(`/tables/fields/${inverse.id}`, { type: 'text' }));
  t.is((await ann.get(`/tables/fields/${team.id}`)).status, 404);
  t.is(ok(await ann.get(`/tables/records/${gemini.id}`)).cells[team.id], undefined);
  world.takeEvents();
});

test.serial('a one-way link made before links were two-way gets its inverse, filled from its cells, when its table is next read', async (t) => {
  const towns = ok(await ann.post(`/tables/bases/${ids.base}/tables`, { name: 'Towns' }));
  const shops = ok(await ann.post(`/tables/bases/${ids.base}/tables`, { name: 'Shops' }));
  const town = ok(await ann.post(`/tables/tables/${shops.id}/fields`, { name: 'Town', type: 'link', options: { table_id: towns.id } }));
  const [york, leeds] = ok(await ann.post(`/tables/tables/${towns.id}/records/bulk`, { records: ['York', 'Leeds'].map((name) => ({ cells: { [towns.primary_field_id]: name } })) }));
  const made = ok(await ann.post(`/tables/tables/${shops.id}/records/bulk`, { records: [[york.id], [york.id, leeds.id], null].map((links, index) => ({ cells: { [shops.primary_field_id]: `Shop ${index}`, [town.id]: links } })) }));
  // As a link was stored before: no inverse field, no inverse cells, no mark.
  const old = town.options.inverse_field_id;
  await world.query(`DELETE FROM app_tables.fields WHERE id = :old`, { old });
  await world.query(`UPDATE app_tables.fields SET options = options - 'inverse_field_id' WHERE id = :id`, { id: town.id });
  await world.query(`UPDATE app_tables.records SET cells = cells - :old::text, versions = versions - :old::text WHERE table_id = :towns`, { old, towns: towns.id });
  world.takeEvents();
  const upgraded = ok(await ann.get(`/tables/tables/${shops.id}/fields`)).find((one: any) => one.id === town.id);
  const inverse = ok(await ann.get(`/tables/tables/${towns.id}/fields`)).find((one: any) => one.type === 'link');
  t.not(inverse.id, old);
  t.like(inverse, { name: 'Shops', options: { table_id: shops.id, inverse_field_id: town.id } });
  t.is(upgraded.options.inverse_field_id, inverse.id);
  t.deepEqual(ok(await ann.get(`/tables/records/${york.id}`)).cells[inverse.id], [made[0].id, made[1].id]);
  t.deepEqual(ok(await ann.get(`/tables/records/${leeds.id}`)).cells[inverse.id], [made[1].id]);
  t.deepEqual(world.takeEvents(), [], 'the upgrade is no one\'s edit');
  t.is(ok(await ann.get(`/tables/tables/${towns.id}/fields`)).filter((one: any) => one.type === 'link').length, 1, 'upgraded once');
});

test.serial('views: a kanban needs a single select; personal views are their owner\'s; comments and history', async (t) => {
  const refused = await ann.post(`/tables/tables/${ids.orders}/views`, { name: 'Board', type: 'kanban', config: { kanban_field_id: ids.qty } });
  t.is(refused.body.error, 'config.kanban_field_id: a kanban view names a single select field of this table');
  const board = ok(await ann.post(`/tables/tables/${ids.orders}/views`, { name: 'Board', type: 'kanban', config: { kanban_field_id: ids.status, hidden_fields: [ids.notes], filters: [{ field_id: ids.status, op: 'not_empty' }] } }));
  t.like(board, { type: 'kanban', personal: false });
  const inView = await ann.get(`/tables/tables/${ids.orders}/records?view_id=${board.id}`);
  t.false(inView.body.data.some((row: any) => ids.notes! in row.cells));
  t.false(inView.body.data.some((row: any) => row.title === 'Epsilon'));
  // A kanban hiding its own select still lists it (and its version), or every card would sit under "No value".
  ok(await ann.patch(`/tables/views/${board.id}`, { config: { kanban_field_id: ids.status, hidden_fields: [ids.notes, ids.status] } }));
  const hidingItsField = (await ann.get(`/tables/tables/${ids.orders}/records?view_id=${board.id}`)).body.data;
  t.deepEqual(hidingItsField.map((row: any) => [row.title, row.cells[ids.status] ?? null, row.versions[ids.status] ?? 0]), [['Acme', 'New', 1], ['Gamma', 'New', 1], ['Delta', 'Won', 1], ['Epsilon', null, 0], ['Zero', null, 0]]);
  t.false(hidingItsField.some((row: any) => ids.notes! in row.cells));
  const mine = ok(await bob.post(`/tables/tables/${ids.orders}/views`, { name: 'Mine', type: 'grid', personal: true }));
  t.is((await ann.patch(`/tables/views/${mine.id}`, { name: 'Taken' })).status, 404);
  t.deepEqual(ok(await ann.get(`/tables/tables/${ids.orders}/views`)).map((view: any) => view.name), ['Grid', 'Board']);
  t.deepEqual(ok(await bob.get(`/tables/tables/${ids.orders}/views`)).map((view: any) => view.name), ['Grid', 'Board', 'Mine']);

  ok(await bob.post(`/tables/records/${ids.acme}/comments`, { body: 'Ship on Monday' }));
  t.deepEqual(ok(await ann.get(`/tables/records/${ids.acme}/comments`)).map((comment: any) => [comment.body, comment.author_id]), [['Ship on Monday', bob.id]]);
  const history = ok(await ann.get(`/tables/records/${ids.acme}/history`));
  t.is(history.at(-1).kind, 'created');
  t.deepEqual(history.find((entry: any) => entry.changes[ids.qty])?.changes[ids.qty], { from: 3, to: 4 });
});

test.serial('base roles: a viewer reads but cannot edit; a base whose default role is none is hidden; a role of their own overrides it', async (t) => {
  ok(await ann.patch(`/tables/bases/${ids.base}`, { default_role: 'viewer' }));
  t.is((await viewer.get(`/tables/records/${ids.acme}`)).status, 200);
  const edit = await viewer.patch(`/tables/records/${ids.acme}`, { cells: { [ids.notes]: 'x' }, versions: { [ids.notes]: 1 } });
  t.is(edit.status, 403);
  t.is(edit.body.error, 'Your role on base Sales is viewer: editing records needs editor');
  const fieldEdit = await bob.post(`/tables/tables/${ids.orders}/fields`, { name: 'Z', type: 'text' });
  t.is(fieldEdit.status, 403);
  ok(await ann.patch(`/tables/bases/${ids.base}`, { default_role: 'none' }));
  t.is((await viewer.get(`/tables/records/${ids.acme}`)).status, 404);
  t.deepEqual(ok(await viewer.get('/tables/bases')), []);
  // A role of their own overrides the default.
  t.like(ok(await ann.put(`/tables/bases/${ids.base}/roles/${viewer.id}`, { role: 'editor' })), { member_id: viewer.id, role: 'editor' });
  t.deepEqual(ok(await viewer.get('/tables/bases')).map((base: any) => [base.name, base.role]), [['Sales', 'editor']]);
  const notes = ok(await viewer.get(`/tables/records/${ids.acme}`)).versions[ids.notes];
  t.is(ok(await viewer.patch(`/tables/records/${ids.acme}`, { cells: { [ids.notes]: 'By the viewer' }, versions: { [ids.notes]: notes } })).cells[ids.notes], 'By the viewer');
  t.is((await bob.put(`/tables/bases/${ids.base}/roles/${bob.id}`, { role: 'creator' })).status, 404);
  const stranger = await ann.put(`/tables/bases/${ids.base}/roles/${crypto.randomUUID()}`, { role: 'viewer' });
  t.is(stranger.status, 400);
  t.deepEqual(ok(await ann.get(`/tables/bases/${ids.base}/roles`)).map((row: any) => [row.member_id, row.role]), [[viewer.id, 'editor']]);
  ok(await ann.delete(`/tables/bases/${ids.base}/roles/${viewer.id}`));
  t.is((await viewer.get(`/tables/records/${ids.acme}`)).status, 404);
  t.is((await ann.delete(`/tables/bases/${ids.base}/roles/${viewer.id}`)).status, 404);
  world.takeEvents();
  ok(await ann.patch(`/tables/bases/${ids.base}`, { default_role: 'editor' }));
  t.deepEqual(world.takeEvents(), []);
});

test.serial('CSV and XLSX: a dry run reports bad cells by line and column; an import is all or nothing; exports read back', async (t) => {
  const sheet = await ann.post(`/tables/bases/${ids.base}/tables`, { name: 'Imports' });
  const table = ok(sheet);
  const qty = ok(await ann.post(`/tables/tables/${table.id}/fields`, { name: 'Qty', type: 'number' })).id;
  const due = ok(await ann.post(`/tables/tables/${table.id}/fields`, { name: 'Due', type: 'date' })).id;
  ok(await ann.post(`/tables/tables/${table.id}/fields`, { name: 'Twice', type: 'formula', options: { expression: '{Qty} * 2' } }));
  world.takeEvents();
  const csv = 'Name,Qty,Due,Twice\r\nFirst,3,2026-12-01,\r\n"Second, with a comma",many,2026-02-30,\r\nThird,5,,\r\n';
  const dry = ok(await ann.post(`/tables/tables/${table.id}/import`, { format: 'csv', content: csv, dry_run: true }));
  t.deepEqual(dry, {
    dry_run: true, rows: 3, created: 0, ignored_columns: ['Twice'],
    errors: [
      { line: 3, column: 2, field: 'Qty', value: 'many', error: 'Qty takes a number' },
      { line: 3, column: 3, field: 'Due', value: '2026-02-30', error: 'Due takes a date YYYY-MM-DD' },
    ],
  });
  const refused = await ann.post(`/tables/tables/${table.id}/import`, { format: 'csv', content: csv });
  t.is(refused.status, 400);
  t.is(refused.body.error, 'content: line 3, column 2 (Qty): Qty takes a number; 2 bad cells in all (a dry run lists them)');
  t.deepEqual(ok(await ann.get(`/tables/tables/${table.id}/records`)), []);
  t.deepEqual(world.takeEvents(), []);
  const unknown = await ann.post(`/tables/tables/${table.id}/import`, { format: 'csv', content: 'Name,Colour\r\nx,red\r\n', dry_run: true });
  t.is(unknown.body.error, 'content: line 1, column 2: Colour names no field of table Imports');

  const good = ok(await ann.post(`/tables/tables/${table.id}/import`, { format: 'csv', content: 'Name,Qty,Due\r\nFirst,3,2026-12-01\r\n"Second, with a comma",4,\r\n' }));
  t.like(good, { dry_run: false, rows: 2, created: 2, errors: [] });
  t.is(world.takeEvents().filter((event) => event.action === 'core.tables.record.created').length, 2);
  const exported = await ann.get(`/tables/tables/${table.id}/export/csv`);
  t.is(exported.status, 200);
  t.is(exported.body, 'Name,Qty,Due,Twice\r\nFirst,3,2026-12-01,6\r\n"Second, with a comma",4,,8\r\n');
  const xlsx = await ann.get(`/tables/tables/${table.id}/export/xlsx`);
  t.is(xlsx.status, 200);
  t.is(xlsx.headers['content-type'], 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  t.true(String(xlsx.body).startsWith('PK'));
  const workbook = new ExcelJS.Workbook();
  const page = workbook.addWorksheet('Sheet 1');
  page.addRow(['Name', 'Qty', 'Due']);
  page.addRow(['From a workbook', 7, '2027-01-15']);
  page.addRow(['Bad', 'seven', '']);
  const content = Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64');
  const back = ok(await ann.post(`/tables/tables/${table.id}/import`, { format: 'xlsx', content, dry_run: true }));
  t.deepEqual(back, { dry_run: true, rows: 2, created: 0, ignored_columns: [], errors: [{ line: 3, column: 2, field: 'Qty', value: 'seven', error: 'Qty takes a number' }] });
  t.is((await ann.post(`/tables/tables/${table.id}/import`, { format: 'xlsx', content: 'bm90IGEgd29ya2Jvb2s=', dry_run: true })).body.error, 'content: not an XLSX workbook (send the file base64-encoded)');
  t.deepEqual(ok(await ann.get(`/tables/tables/${table.id}/records`)).map((row: any) => [row.title, row.cells[qty], row.cells[due] ?? null]), [['First', 3, '2026-12-01'], ['Second, with a comma', 4, null]]);
});

test.serial('a public form: a link shown once, opened and submitted without signing in, only its fields; a replaced link is gone', async (t) => {
  const grid = await ann.post(`/tables/views/${ok(await ann.get(`/tables/tables/${ids.orders}/views`))[0].id}/form-link`, {});
  t.is(grid.status, 409);
  t.is(grid.body.error, 'View Grid is a grid view: only a form view has a public link');
  const form = ok(await ann.post(`/tables/tables/${ids.orders}/views`, { name: 'Order form', type: 'form', config: { form_fields: [ids.name, ids.qty, ids.total] } }));
  t.is((await bob.post(`/tables/views/${form.id}/form-link`, {})).status, 403);
  // The page's address comes from the configured public origin, whatever Host the request named.
  const link = ok(await ann.post(`/tables/views/${form.id}/form-link`, {}, { 'x-forwarded-host': 'evil.example', forwarded: 'host=evil.example' }));
  t.deepEqual(Object.keys(link).sort(), ['api_path', 'path', 'token', 'url', 'view_id']);
  t.is(link.path, `/public/apps/tables/form.html#${link.token}`);
  t.is(link.url, `http://tables.localhost/public/apps/tables/form.html#${link.token}`);
  t.is(link.api_path, `/tables/forms/${link.token}`);
  link.path = link.api_path;
  const visitor = world.workspace.anonymous;
  t.deepEqual(ok(await visitor.get(link.path)), { title: 'Order form', fields: [{ id: ids.name, name: 'Name', type: 'text', choices: [] }, { id: ids.qty, name: 'Quantity', type: 'number', choices: [] }] });
  world.takeEvents();
  const sent = ok(await visitor.post(link.path, { cells: { [ids.name]: 'From the web', [ids.qty]: 2 } }));
  const record = ok(await ann.get(`/tables/records/${sent.record_id}`));
  t.like(record, { title: 'From the web', created_by: null, cells: { [ids.qty]: 2 } });
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.tables.record.created', 'core.tables.form.submitted']);
  const sneaky = await visitor.post(link.path, { cells: { [ids.price]: '1' } });
  t.is(sneaky.status, 400);
  t.is(sneaky.body.error, `cells.${ids.price}: this form does not ask for field ${ids.price}`);
  const replaced = ok(await ann.post(`/tables/views/${form.id}/form-link`, {}));
  replaced.path = replaced.api_path;
  t.is((await visitor.get(link.path)).status, 404);
  t.is((await visitor.get(replaced.path)).status, 200);
  ok(await world.owner.put('/apps/tables/settings', { public_forms: false }));
  t.is((await visitor.get(replaced.path)).status, 404);
  t.is((await ann.post(`/tables/views/${form.id}/form-link`, {})).body.error, 'Public forms are turned off in the Tables settings (public_forms)');
  ok(await world.owner.put('/apps/tables/settings', { public_forms: true }));
  t.is((await visitor.get(replaced.path)).status, 200);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('attachments: a signed upload, a cell naming the uploaded file, a download link; an unknown key is refused', async (t) => {
  const files = ok(await ann.post(`/tables/tables/${ids.orders}/fields`, { name: 'Files', type: 'attachment' }));
  const upload = ok(await ann.post(`/tables/tables/${ids.orders}/attachment-uploads`, { filename: 'quote one.txt', content_type: 'text/plain' }));
  t.regex(upload.key, new RegExp(`^attachments/${ids.orders}/[0-9a-f-]{36}/quote_one\\.txt$`));
  const put = await world.platform.follow(upload.upload.url, { method: 'PUT', body: 'A quote', headers: { 'content-type': 'text/plain' } });
  t.is(put.status, 200);
  const record = ok(await ann.get(`/tables/records/${ids.acme}`));
  const stored = ok(await ann.patch(`/tables/records/${ids.acme}`, { cells: { [files.id]: [{ key: upload.key, name: 'quote one.txt' }] }, versions: { [files.id]: record.versions[files.id] ?? 0 } }));
  t.deepEqual(stored.cells[files.id], [{ key: upload.key, name: 'quote one.txt', content_type: 'text/plain', size_bytes: 7 }]);
  const link = ok(await bob.get(`/tables/records/${ids.acme}/attachment-link?key=${encodeURIComponent(upload.key)}`));
  t.is(link.name, 'quote one.txt');
  const file = await world.platform.follow(link.url);
  t.is(file.bytes.toString('utf8'), 'A quote');
  const fake = await ann.patch(`/tables/records/${ids.acme}`, { cells: { [files.id]: [{ key: `attachments/${ids.orders}/nothing.txt`, name: 'x' }] }, versions: { [files.id]: 1 } });
  t.is(fake.status, 400);
  t.is(fake.body.error, `cells.${files.id}[0].key: attachments/${ids.orders}/nothing.txt names no uploaded file of this table`);
  t.is((await bob.get(`/tables/records/${ids.acme}/attachment-link?key=other`)).status, 404);
  world.takeEvents();
});
