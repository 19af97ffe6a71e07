import test from 'ava';
import type { AppContext } from '../app/context.js';
import { recordSchema, type AppRoute } from '../app/routes.js';
import { Joi } from '../input/joi.js';
import { routeFamily } from './route-family.js';

interface Row {
  id: string;
  name: string;
}

const NOTE = recordSchema({ id: Joi.string(), title: Joi.string() });
const DELETED = recordSchema({ id: Joi.string(), deleted: Joi.boolean() });
const params = Joi.idParams('note_id');
const notes = routeFamily<never, never, Row>('/notes', { record: NOTE, present: (row) => ({ id: row.id, title: row.name.toUpperCase() }), links: (row) => ({ self: `/notes/${row.id}` }) });
const note = notes.at('/{note_id}', { params });

// The platform's envelopes are built by core; what a handler hands `ctx.respond` is what these tests read.
const ctx = {
  respond: {
    single: (data: unknown, links?: Record<string, string>) => ({ data, links }),
    collection: (rows: unknown[], total: number) => ({ data: rows, total }),
  },
} as unknown as AppContext<never, never>;
const request = (fields: { params?: Record<string, string>; query?: Record<string, unknown>; payload?: unknown } = {}) => ({ method: 'GET', path: '/notes', headers: {}, params: {}, query: {}, payload: undefined, ...fields });
const declared = ({ handler: _handler, ...route }: AppRoute<never, never>) => route;

test('each verb declares an ordinary route: the family path, params and record, with the route\'s own chain, description, payload and query', (t) => {
  const list = notes.list({ chain: ['notes.notes.read'], description: 'Lists notes', query: Joi.listQuery(), run: async () => ({ rows: [], count: 0 }) });
  t.deepEqual(declared(list), { method: 'GET', path: '/notes', chain: ['notes.notes.read'], answers: { collection: NOTE }, description: 'Lists notes', validate: { query: list.validate!.query! } });
  const payload = Joi.object({ title: Joi.string() });
  t.deepEqual(declared(note.patch({ chain: ['notes.notes.edit'], payload, run: () => ({ id: '1', name: 'a' }) })), { method: 'PATCH', path: '/notes/{note_id}', chain: ['notes.notes.edit'], answers: { single: NOTE }, validate: { params, payload } });
  const limit = { name: 'notes', per: 'member' as const, limit: 5, windowSeconds: 60, message: 'Slow down' };
  t.deepEqual(declared(note.delete({ chain: [], answers: { single: DELETED }, rateLimits: [limit], run: () => null })), { method: 'DELETE', path: '/notes/{note_id}', chain: [], answers: { single: DELETED }, validate: { params }, rateLimits: [limit] });
  t.deepEqual(declared(routeFamily('/ping').post({ chain: ['a.b.c'], run: () => 'pong' })), { method: 'POST', path: '/ping', chain: ['a.b.c'] }, 'no record, no params: no answers, no validate');
  t.deepEqual([notes.get, notes.put].map((verb) => verb({ chain: [], run: () => ({ id: '1', name: 'a' }) }).method), ['GET', 'PUT']);
});

test('a route of the family\'s record answers the service\'s result presented, with the family\'s links; a list answers the page presented', async (t) => {
  const read = note.get({ chain: [], run: (call) => ({ id: call.params.note_id!, name: 'groceries' }) });
  t.deepEqual(await read.handler(request({ params: { note_id: 'n1' } }), ctx), { data: { id: 'n1', title: 'GROCERIES' }, links: { self: '/notes/n1' } });
  const list = notes.list({ chain: [], run: async (call) => ({ rows: [{ id: 'a', name: String(call.query.q) }, { id: 'b', name: 'two' }], count: 7 }) });
  t.deepEqual(await list.handler(request({ query: { q: 'one' } }), ctx), { data: [{ id: 'a', title: 'ONE' }, { id: 'b', title: 'TWO' }], total: 7 });
});

test('a route naming its own answers answers its service\'s result as it is; a whole handler is used unchanged', async (t) => {
  const remove = note.delete({ chain: [], answers: { single: DELETED }, run: (call) => ({ id: call.params.note_id, deleted: true }) });
  t.deepEqual(await remove.handler(request({ params: { note_id: 'n2' } }), ctx), { data: { id: 'n2', deleted: true }, links: undefined });
  const history = note.at('/history').list({ chain: [], answers: { collection: DELETED }, run: async () => ({ rows: [{ id: 'x' }], count: 1 }) });
  t.is(history.path, '/notes/{note_id}/history');
  t.deepEqual(await history.handler(request(), ctx), { data: [{ id: 'x' }], total: 1 });
  const handler = () => 'as written';
  t.is(note.post({ chain: [], handler }).handler, handler);
  const revisions = note.at('/revisions', { record: DELETED }).get({ chain: [], run: () => ({ id: 'r', name: 'kept' }) });
  t.deepEqual(await revisions.handler(request(), ctx), { data: { id: 'r', name: 'kept' }, links: undefined }, 'another record: the family\'s presenter and links are not used');
  t.deepEqual(revisions.validate, { params }, 'but its params are');
  const bare = routeFamily('/plain', { record: NOTE }).get({ chain: [], run: () => ({ id: 'p', name: 'kept' }) });
  t.deepEqual(await bare.handler(request(), ctx), { data: { id: 'p', name: 'kept' }, links: undefined }, 'no presenter, no links: the row and the default self link');
});
