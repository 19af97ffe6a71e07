import test from 'ava';
import { Joi } from './joi.js';

const check = (schema: ReturnType<typeof Joi.object>, value: unknown) => schema.validate(value, { errors: { wrap: { label: false } } }).error?.message ?? null;

test('every Joi.string() refuses NUL and unpaired surrogates, naming the field', (t) => {
  const schema = Joi.object({ name: Joi.string().trim().max(100), tags: Joi.array().items(Joi.string()), note: Joi.string().allow('') });
  t.is(check(schema, { name: 'a\u0000b' }), 'name must not contain NUL characters or unpaired surrogates');
  t.is(check(schema, { name: '\ud800' }), 'name must not contain NUL characters or unpaired surrogates');
  t.is(check(schema, { tags: ['ok', 'x\udc00'] }), 'tags[1] must not contain NUL characters or unpaired surrogates');
  t.is(check(schema, { name: 'fine 😀', tags: ['a'], note: '' }), null);
  t.is(check(schema, { name: 5 }), 'name must be a string');
});

test('Joi.id() takes any shape of 1-200 characters', (t) => {
  const schema = Joi.object({ id: Joi.id().required() });
  for (const good of ['0123456789abcdef01234567', '42', 'not-a-uuid', "' OR 1=1 --", '../../etc', 'x'.repeat(200)]) t.is(check(schema, { id: good }), null, good);
  t.is(check(schema, { id: '' }), 'id is not allowed to be empty');
  t.is(check(schema, { id: 'x'.repeat(201) }), 'id length must be less than or equal to 200 characters long');
  t.is(check(schema, { id: 'a\u0000' }), 'id must not contain NUL characters or unpaired surrogates');
});

test('Joi.calendarDate() and Joi.instant() refuse impossible dates', (t) => {
  const schema = Joi.object({ due_date: Joi.calendarDate(), after: Joi.instant() });
  t.is(check(schema, { due_date: '2027-02-28', after: '2027-02-28T23:59:59Z' }), null);
  t.is(check(schema, { due_date: '2027-02-30' }), 'due_date must be a real date in YYYY-MM-DD form');
  t.is(check(schema, { due_date: '2027-02-28T00:00:00Z' }), 'due_date must be a real date in YYYY-MM-DD form');
  t.is(check(schema, { after: '2027-02-30' }), 'after must be a real date (YYYY-MM-DD) or ISO 8601 instant, for example 2027-01-31T09:30:00Z');
  t.is(check(schema, { after: '2027-01-01T25:00:00Z' }), 'after must be a real date (YYYY-MM-DD) or ISO 8601 instant, for example 2027-01-31T09:30:00Z');
  t.is(check(schema, { after: `2027-01-01T00:00:00.${'0'.repeat(30)}Z` }), 'after length must be less than or equal to 40 characters long');
});

test('Joi.idParams() requires each named parameter as an id; Joi.listQuery() takes its filters and forgives page and per_page', (t) => {
  const params = Joi.idParams('board_id', 'task_id');
  t.is(check(params, { board_id: 'b', task_id: 't' }), null);
  t.is(check(params, { board_id: 'b' }), 'task_id is required');
  t.is(check(params, { board_id: 'b', task_id: '' }), 'task_id is not allowed to be empty');
  const query = Joi.listQuery({ q: Joi.string().max(3) });
  t.deepEqual(Object.keys(query.describe().keys ?? {}), ['q', 'page', 'per_page']);
  t.is(check(query, { q: 'abc', page: 'x', per_page: -1 }), null);
  t.is(check(query, { q: 'abcd' }), 'q length must be less than or equal to 3 characters long');
  t.is(check(Joi.listQuery(), { other: 1 }), 'other is not allowed');
});

test('Joi.mrn() takes any app\'s record by MRN, trimmed, and names the field otherwise', (t) => {
  const schema = Joi.object({ source_mrn: Joi.mrn() });
  const deal = 'mrn:crm:deal:0A1B2C3D-0000-4000-8000-000000000001';
  t.deepEqual(schema.validate({ source_mrn: ` ${deal} ` }).value, { source_mrn: deal });
  t.is(check(schema, { source_mrn: 'mrn:ext.acme.tickets:ticket:T-42' }), null);
  for (const bad of ['crm:deal:1', 'MRN:crm:deal:1', 'mrn:crm:deal', 'mrn:crm:deal:1:2', 'mrn::deal:1', 'mrn:crm:deal:a b']) t.is(check(schema, { source_mrn: bad }), 'source_mrn must be an MRN (mrn:<app>:<resource>:<id>)', bad);
  t.is(check(schema, { source_mrn: `mrn:crm:deal:${'x'.repeat(290)}` }), 'source_mrn length must be less than or equal to 300 characters long');
});
