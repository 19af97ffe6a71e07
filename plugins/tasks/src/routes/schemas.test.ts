import test from 'ava';
import { Joi } from '@wpk/sdk';
import { grid, isoDate, lanes } from './schemas.js';
import { incubatorRoutes } from './incubator.js';

const messageOf = (schema: ReturnType<typeof Joi.object>, value: unknown) => schema.validate(value, { errors: { wrap: { label: false } } }).error?.message ?? null;

test('dates must be real calendar days in YYYY-MM-DD form', (t) => {
  const schema = Joi.object({ due_date: isoDate() });
  t.is(messageOf(schema, { due_date: '2026-11-21' }), null);
  t.is(messageOf(schema, { due_date: '2026-02-30' }), 'due_date must be a real date in YYYY-MM-DD form');
  t.is(messageOf(schema, { due_date: 'tomorrow' }), 'due_date must be a real date in YYYY-MM-DD form');
});

test('grid options: mode is dots, lines or none; spacing an integer 4-200', (t) => {
  const schema = Joi.object({ grid: grid() });
  t.is(messageOf(schema, { grid: { mode: 'dots', spacing: 16, snap: true, background: '#fff', default_sticky_color: 'yellow' } }), null);
  t.is(messageOf(schema, { grid: { mode: 'hex' } }), 'grid.mode must be one of [none, dots, lines]');
  t.is(messageOf(schema, { grid: { spacing: 2.5 } }), 'grid.spacing must be an integer');
  t.is(messageOf(schema, { grid: { spacing: 201 } }), 'grid.spacing must be less than or equal to 200');
});

test('lanes are 1-20 distinct names of 1-80 characters', (t) => {
  const schema = Joi.object({ lanes: lanes() });
  t.is(messageOf(schema, { lanes: ['To do', 'Done'] }), null);
  t.is(messageOf(schema, { lanes: [] }), 'lanes must contain at least 1 items');
  t.is(messageOf(schema, { lanes: ['A', 'A'] }), 'lanes[1] contains a duplicate value');
  t.is(messageOf(schema, { lanes: ['x'.repeat(81)] }), 'lanes[0] length must be less than or equal to 80 characters long');
});

test('list queries keep page and per_page whatever their value (the platform forgives them)', (t) => {
  t.deepEqual(Joi.listQuery().validate({ page: 'abc', per_page: '-3' }).value, { page: 'abc', per_page: '-3' });
});

test('pulling takes exactly one of task_ids or schedule_id', (t) => {
  const schema = incubatorRoutes[0].validate!.payload as ReturnType<typeof Joi.object>;
  const id = '00000000-0000-4000-8000-000000000001';
  t.is(messageOf(schema, { task_ids: [id] }), null);
  t.is(messageOf(schema, { schedule_id: id }), null);
  t.is(messageOf(schema, {}), 'body must contain exactly one of task_ids or schedule_id');
  t.is(messageOf(schema, { task_ids: [id], schedule_id: id }), 'body must contain exactly one of task_ids or schedule_id');
  t.is(messageOf(schema, { task_ids: [] }), 'task_ids must contain at least 1 items');
});
