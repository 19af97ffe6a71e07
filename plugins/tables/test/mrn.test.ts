/** MRN fields, fed by the Workers app's events (the Workers app is loaded so its events exist on the bus). */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type TestMember, type World } from '@wpk/testing';
import app from '../src/index.js';

const KEYS = ['tables.bases.read', 'tables.records.edit', 'tables.bases.create'];
let world: World;
let ann: TestMember;
let bob: TestMember;
const ids: Record<string, string> = {};

test.before(async () => {
  world = await startWorld({ app, subdomain: 'tablesmrn', apps: [fileURLToPath(new URL('../../workers', import.meta.url))], firstParty: ['tables', 'workers'], clock: new Date('2026-11-02T09:00:00.000Z') });
  [ann, bob] = await world.members(2, KEYS);
  ids.base = ok(await ann.post('/tables/bases', { name: 'Sales' })).id;
  const orders = ok(await ann.post(`/tables/bases/${ids.base}/tables`, { name: 'Orders' }));
  ids.orders = orders.id;
  ids.name = orders.primary_field_id;
  world.takeEvents();
});
test.after.always(() => world?.close());

test.serial('MRN fields: a cell names a worker or a member, shown from the copy; renamed with the source, flagged when it is deleted', async (t) => {
  const workerId = crypto.randomUUID();
  const workerMrn = `mrn:workers:worker:${workerId}`;
  await world.deliver('core.workers.worker.hired', { worker_id: workerId, mrn: workerMrn, name: 'Grace Hopper', work_email: 'grace@example.test', status: 'active', revision: 1 });
  const deal = await ann.post(`/tables/tables/${ids.orders}/fields`, { name: 'Deal', type: 'mrn', options: { source: 'deal' } });
  t.is(deal.body.error, 'options.source: no app of this platform publishes deals yet');
  const seller = ok(await ann.post(`/tables/tables/${ids.orders}/fields`, { name: 'Seller', type: 'mrn', options: { source: 'worker' } }));
  const buyer = ok(await ann.post(`/tables/tables/${ids.orders}/fields`, { name: 'Buyer', type: 'mrn', options: { source: 'member' } }));
  world.takeEvents();
  const unknown = await ann.post(`/tables/tables/${ids.orders}/records`, { cells: { [seller.id]: `mrn:workers:worker:${crypto.randomUUID()}` } });
  t.is(unknown.status, 400);
  t.regex(unknown.body.error, /^cells\.[^:]+: no worker mrn:workers:worker:\S+ is known here$/);
  t.is((await ann.post(`/tables/tables/${ids.orders}/records`, { cells: { [seller.id]: `mrn:companies:company:${workerId}` } })).body.error, `cells.${seller.id}: Seller takes the MRN of a worker (mrn:workers:worker:{id})`);
  const made = ok(await ann.post(`/tables/tables/${ids.orders}/records`, { cells: { [ids.name]: 'Staffed', [seller.id]: workerMrn, [buyer.id]: bob.mrn } }));
  t.deepEqual(made.cells[seller.id], { mrn: workerMrn, name: 'Grace Hopper', deleted: false });
  t.deepEqual(made.cells[buyer.id], { mrn: bob.mrn, name: bob.name, deleted: false });
  world.takeEvents();

  await world.deliver('core.workers.worker.updated', { worker_id: workerId, mrn: workerMrn, name: 'Grace B. Hopper', work_email: 'grace@example.test', status: 'active', revision: 2, changed_fields: ['name'] });
  const renamed = ok(await ann.get(`/tables/records/${made.id}`));
  t.deepEqual(renamed.cells[seller.id], { mrn: workerMrn, name: 'Grace B. Hopper', deleted: false });
  t.is(renamed.versions[seller.id], 2);
  // A late, lower revision changes nothing.
  await world.deliver('core.workers.worker.updated', { worker_id: workerId, mrn: workerMrn, name: 'Old name', work_email: 'grace@example.test', status: 'active', revision: 1, changed_fields: ['name'] });
  t.is(ok(await ann.get(`/tables/records/${made.id}`)).cells[seller.id].name, 'Grace B. Hopper');
  await world.deliver('core.workers.worker.deleted', { worker_id: workerId, mrn: workerMrn, name: 'Grace B. Hopper', work_email: 'grace@example.test', status: 'terminated', revision: 3 });
  t.deepEqual(ok(await ann.get(`/tables/records/${made.id}`)).cells[seller.id], { mrn: workerMrn, name: 'Grace B. Hopper', deleted: true });
  const again = await ann.post(`/tables/tables/${ids.orders}/records`, { cells: { [seller.id]: workerMrn } });
  t.is(again.body.error, `cells.${seller.id}: no worker ${workerMrn} is known here (it was deleted)`);
  t.deepEqual(world.takeEvents(), []);
});
