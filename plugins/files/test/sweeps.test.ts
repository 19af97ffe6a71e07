import test from 'ava';
import { filesWorld } from './helpers/world.js';

// The trash retention and the abandoned-upload sweeper run as the app's own delayed event
// (`core.files.sweep.scheduled`, delivered at its instant); the harness clock brings it due.

const world = await filesWorld('sweeps');
const alice = await world.member();
test.after.always(() => world.close());

// Read, never drain: deliverDue delivers from the captured events, the wake-ups included.
let mark = 0;
/** The `core.files.*` events (not the wake-ups) captured since the last call. */
const fresh = () => {
  const events = world.platform.events.slice(mark).filter((event) => event.action.startsWith('core.files.') && event.action !== 'core.files.sweep.scheduled').map((event) => ({ action: event.action, payload: event.payload }));
  mark = world.platform.events.length;
  return events;
};

const settings = (retention: number) => world.owner.put('/apps/files/settings', { max_file_bytes: 104857600, quota_bytes: 10737418240, max_versions: 10, link_seconds: 900, trash_retention_days: retention });

/** The app's pending sweep: its instant, or null. */
const pending = async (): Promise<string | null> => (await world.query<{ due_at: Date }>('SELECT due_at FROM app_files.schedules WHERE workspace_id = :ws', { ws: world.workspaceId }))[0]?.due_at.toISOString() ?? null;

/** The sweep wake-ups staged so far (and not yet taken), by their instant. */
const staged = (since = 0) => world.platform.events.slice(since).filter((event) => event.action === 'core.files.sweep.scheduled' && event.workspaceId === world.workspaceId).map((event) => [event.payload.due_at, event.deliverAt?.toISOString()]);

/** Delivers what is due; answers the actions delivered to Files with their outcome. */
const deliverDue = async () => (await world.platform.deliverDue(world.workspace)).filter((done) => done.event.action === 'core.files.sweep.scheduled').map((done) => `${done.event.action}: ${done.outcomes.files}`);

const objects = async (key: string) => (await world.query<{ n: number }>("SELECT count(*)::int AS n FROM platform.storage_objects WHERE workspace_id = :ws AND namespace = 'files' AND key = :key", { ws: world.workspaceId, key }))[0].n;

test.serial('the trash is purged after the retention days, and abandoned uploads are swept, each by a sweep scheduled for its instant', async (t) => {
  t.is((await settings(2)).status, 200);
  const start = world.platform.clock.now();
  const kept = await world.upload(alice, { name: 'kept.txt' }, 'keep me', 'text/plain');
  const old = await world.upload(alice, { name: 'old.txt' }, 'old bytes', 'text/plain');
  t.is(old.status, 200);
  t.is((await alice.delete(`/files/${old.body.data.id}`)).status, 200);
  const trashedAt = new Date((await alice.get('/trash')).body.data[0].trashed_at);
  const purgeDue = new Date(trashedAt.getTime() + 2 * 86_400_000).toISOString();

  // An upload whose bytes arrived but that nobody completed, and one that never got bytes.
  const started = await alice.post('/uploads', { name: 'abandoned.txt', size_bytes: 5, content_type: 'text/plain' });
  t.is((await world.platform.follow(started.body.data.upload_url, { method: 'PUT', body: Buffer.from('bytes'), headers: { 'content-type': 'text/plain' } })).status, 200);
  const empty = await alice.post('/uploads', { name: 'empty.txt', size_bytes: 1 });
  const storageKey = (await world.query<{ storage_key: string }>('SELECT storage_key FROM app_files.uploads WHERE workspace_id = :ws AND id = :id', { ws: world.workspaceId, id: started.body.data.id }))[0].storage_key;
  t.is(await objects(storageKey), 1);
  const expiries = await world.query<{ expires_at: Date }>('SELECT expires_at FROM app_files.uploads WHERE workspace_id = :ws ORDER BY expires_at DESC', { ws: world.workspaceId });
  const abandonedDue = new Date(expiries[0].expires_at.getTime() + 3_600_000).toISOString();
  // Every upload schedules a sweep for an hour after its link expires; the earliest pending one stands.
  const first = await pending();
  t.true(first !== null && first <= abandonedDue && first < purgeDue, String(first));
  t.true(staged().every(([due, at]) => due === at), 'each wake-up is delivered at its own instant');
  t.false(staged().some(([due]) => due === purgeDue), 'the trash, due later than a pending sweep, staged none');

  fresh();
  t.deepEqual(await deliverDue(), [], 'nothing is due yet');
  // Each sweep removes what is abandoned by then and schedules the next for the oldest work left.
  let rounds = 0;
  while ((await world.query('SELECT id FROM app_files.uploads WHERE workspace_id = :ws', { ws: world.workspaceId })).length > 0 && rounds < 5) {
    const due = (await pending())!;
    t.true(due <= abandonedDue, due);
    if (Date.parse(due) - 1000 > world.platform.clock.now().getTime()) {
      world.platform.clock.set(new Date(Date.parse(due) - 1000));
      t.deepEqual(await deliverDue(), [], 'a second early, nothing runs');
    }
    // (Abandonment instants a few milliseconds apart: the clock, running in real time, may be past the next one already.)
    if (Date.parse(due) > world.platform.clock.now().getTime()) world.platform.clock.set(new Date(due));
    t.true((await deliverDue()).includes('core.files.sweep.scheduled: handled'));
    rounds += 1;
  }
  t.true(rounds >= 1 && rounds <= 3, `${rounds} rounds`);
  t.deepEqual(await world.query('SELECT id FROM app_files.uploads WHERE workspace_id = :ws', { ws: world.workspaceId }), [], 'both abandoned uploads are gone');
  t.is(await objects(storageKey), 0, 'with the bytes that arrived');
  t.is((await alice.post(`/uploads/${empty.body.data.id}/completion`)).status, 404);
  t.deepEqual((await alice.get('/trash')).body.data.map((item: any) => item.name), ['old.txt'], 'the trash waits for its retention');
  t.is(await pending(), purgeDue, 'the next sweep is set for the oldest trash');
  t.deepEqual(fresh(), []);

  world.platform.clock.set(new Date(purgeDue));
  t.deepEqual(await deliverDue(), ['core.files.sweep.scheduled: handled']);
  t.deepEqual((await alice.get('/trash')).body.data, []);
  t.deepEqual(fresh(), [{ action: 'core.files.item.purged', payload: { item_id: old.body.data.id, kind: 'file', name: 'old.txt', owner_mrn: alice.mrn, reason: 'retention', freed_bytes: 9 } }]);
  t.is(await pending(), null, 'nothing left to sweep: no sweep pending');
  t.deepEqual((await alice.get('/files')).body.data.map((item: any) => item.name), ['kept.txt']);
  t.true(start.getTime() < Date.parse(purgeDue));
  t.is(kept.status, 200);
});

test.serial('with the retention at 0 the trash stays until its owner empties it; a stale or repeated sweep does nothing', async (t) => {
  t.is((await settings(0)).status, 200);
  const since = world.platform.events.length;
  const file = await world.upload(alice, { name: 'forever.txt' }, 'x', 'text/plain');
  t.is((await alice.delete(`/files/${file.body.data.id}`)).status, 200);
  fresh();
  // The upload's own sweep runs, and leaves the trash alone.
  world.platform.clock.set(new Date((await pending())!));
  t.deepEqual(await deliverDue(), ['core.files.sweep.scheduled: handled']);
  t.is(staged(since).length, 1, "the upload's sweep was the only one staged, and it staged none after it");
  t.is(await pending(), null, 'no retention and no upload left: no sweep pending');
  world.platform.clock.advance({ days: 5 });
  await world.deliver('core.files.sweep.scheduled', { due_at: '2020-01-01T00:00:00.000Z' });
  t.deepEqual((await alice.get('/trash')).body.data.map((item: any) => item.name), ['forever.txt']);
  t.deepEqual(fresh(), []);
  t.is((await settings(1)).status, 200);
  // Turning the retention on applies at the next sweep: the next trashing schedules it.
  const other = await world.upload(alice, { name: 'later.txt' }, 'y', 'text/plain');
  t.is((await alice.delete(`/files/${other.body.data.id}`)).status, 200);
  fresh();
  // Its upload's sweep comes first; the one it schedules is the trash's, a day after.
  for (let round = 0; round < 3 && (await pending()) !== null; round += 1) {
    world.platform.clock.set(new Date((await pending())!));
    await deliverDue();
  }
  t.deepEqual((await alice.get('/trash')).body.data, []);
  t.deepEqual(fresh().map((event) => [event.action, event.payload.name, event.payload.reason]), [
    ['core.files.item.purged', 'forever.txt', 'retention'],
    ['core.files.item.purged', 'later.txt', 'retention'],
  ]);
});
