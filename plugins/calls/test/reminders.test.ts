import test from 'ava';
import { defineApp } from '@wpk/sdk';
import { callsWorld } from './helpers/world.js';

/** What a subscriber of `core.calls.call.reminder` heard from the real broker, and when. */
const received: Array<{ payload: Record<string, unknown>; at: number }> = [];
const listener = defineApp(
  {
    slug: 'reminded',
    publisher: 'test',
    name: 'Reminded',
    version: '0.1.0',
    description: 'Hears call reminders (a test subscriber).',
    permissions: [],
    authorization: [],
    subscriptions: [{ action: 'core.calls.call.reminder', handler: '/events/core-calls-call-reminder', max_retries: 0 }],
  },
  {
    subscriptions: {
      'core.calls.call.reminder': (event) => {
        received.push({ payload: event.payload, at: Date.now() });
      },
    },
  },
);

const world = await callsWorld('reminders', { apps: [listener], firstParty: ['calls'] });
await world.workspace.install('ext.test.reminded');
// The real broker runs too (for the real-time test); the others drive the harness clock.
await world.platform.runtime.start();
const [ann, bob] = await world.members(2);
test.after.always(() => world.close());

const MINUTE = 60_000;
/** An instant `minutes` after the platform's clock, on a whole second. */
const at = (minutes: number) => new Date(Math.floor((world.platform.clock.now().getTime() + minutes * MINUTE) / 1000) * 1000);

/** The reminders the broker would deliver now (by the harness clock), as `[call_id, scheduled_at]`. */
async function dueReminders(): Promise<Array<[unknown, unknown]>> {
  const delivered = await world.platform.deliverDue(world.workspace);
  return delivered.filter(({ event }) => event.action === 'core.calls.call.reminder').map(({ event }) => [event.payload.call_id, event.payload.scheduled_at]);
}

/** Moves the harness clock to `instant`. */
function moveTo(instant: Date): void {
  world.platform.clock.set(instant);
}

async function schedule(startsAt: Date, title = 'Planning'): Promise<string> {
  const response = await ann.post('/calls', { title, scheduled_at: startsAt.toISOString(), participant_mrns: [bob.mrn] });
  if (response.status !== 200) throw new Error(`${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data.id;
}

test.serial('a scheduled call: call.created and call.scheduled, and a reminder delivered reminder_minutes before its time, never early, never twice', async (t) => {
  const startsAt = at(60);
  const mark = world.mark();
  const id = await schedule(startsAt);
  const joinUrl = `http://reminders.localhost/calls/${id}`;
  t.deepEqual(world.eventsSince(mark), [
    ['core.calls.call.created', { call_id: id, type: 'scheduled', mode: 'video', title: 'Planning', creator_mrn: ann.mrn, scheduled_at: startsAt.toISOString() }],
    ['core.calls.call.scheduled', { call_id: id, title: 'Planning', scheduled_at: startsAt.toISOString(), participant_mrns: [ann.mrn, bob.mrn], join_url: joinUrl }],
    ['core.calls.call.reminder', { call_id: id, title: 'Planning', join_url: joinUrl, participant_mrns: [ann.mrn, bob.mrn], scheduled_at: startsAt.toISOString() }],
  ]);
  const staged = world.platform.events.slice(mark).find((event) => event.action === 'core.calls.call.reminder')!;
  t.deepEqual([staged.deliverAt?.toISOString(), staged.dedupeKey], [new Date(startsAt.getTime() - 10 * MINUTE).toISOString(), `reminder:${id}`]);
  moveTo(new Date(startsAt.getTime() - 10 * MINUTE - 1000));
  t.deepEqual(await dueReminders(), []);
  moveTo(new Date(startsAt.getTime() - 10 * MINUTE));
  t.deepEqual(await dueReminders(), [[id, startsAt.toISOString()]]);
  moveTo(new Date(startsAt.getTime() + MINUTE));
  t.deepEqual(await dueReminders(), []);
});

test.serial('rescheduling replaces the reminder (call.scheduled again); moving it back to the first time still reminds once', async (t) => {
  const first = at(60);
  const second = at(120);
  const id = await schedule(first);
  const mark = world.mark();
  const moved = await ann.patch(`/calls/${id}`, { scheduled_at: second.toISOString() });
  t.is(moved.status, 200);
  t.like(moved.body.data, { type: 'scheduled', scheduled_at: second.toISOString(), status: 'waiting' });
  t.deepEqual(world.eventsSince(mark).map(([action, payload]) => [action, payload.scheduled_at]), [
    ['core.calls.call.scheduled', second.toISOString()],
    ['core.calls.call.reminder', second.toISOString()],
  ]);
  const reminders = world.platform.events.filter((event) => event.action === 'core.calls.call.reminder' && event.payload.call_id === id);
  t.deepEqual(reminders.map((event) => [event.payload.scheduled_at, event.withdrawn ?? false]), [[first.toISOString(), true], [second.toISOString(), false]]);
  moveTo(new Date(first.getTime() - 5 * MINUTE));
  t.deepEqual(await dueReminders(), [], 'the first time passes without a reminder');

  // Back to a time whose reminder payload equals a withdrawn one: the withdrawal freed its dedupe claim.
  const third = at(100);
  const fourth = at(30);
  await ann.patch(`/calls/${id}`, { scheduled_at: third.toISOString() });
  await ann.patch(`/calls/${id}`, { scheduled_at: fourth.toISOString() });
  await ann.patch(`/calls/${id}`, { scheduled_at: third.toISOString() });
  moveTo(new Date(fourth.getTime()));
  t.deepEqual(await dueReminders(), []);
  t.true(third.getTime() - 10 * MINUTE > second.getTime(), 'the second time is passed by now');
  moveTo(new Date(third.getTime() - 10 * MINUTE));
  t.deepEqual(await dueReminders(), [[id, third.toISOString()]], 'only the last reminder comes: the replaced ones never do');
  moveTo(new Date(third.getTime() + MINUTE));
  t.deepEqual(await dueReminders(), []);
});

test.serial('a new title or new invitees replace the waiting reminder, so it carries them', async (t) => {
  const startsAt = at(60);
  const id = await schedule(startsAt);
  const cyd = await world.member();
  await ann.patch(`/calls/${id}`, { title: 'Planning (moved room)', participant_mrns: [cyd.mrn] });
  moveTo(new Date(startsAt.getTime() - 10 * MINUTE));
  const delivered = (await world.platform.deliverDue(world.workspace)).filter(({ event }) => event.action === 'core.calls.call.reminder');
  t.deepEqual(delivered.map(({ event }) => [event.payload.title, event.payload.participant_mrns]), [['Planning (moved room)', [ann.mrn, bob.mrn, cyd.mrn]]]);
});

test.serial('cancelling or deleting a scheduled call withdraws its reminder', async (t) => {
  const startsAt = at(60);
  const cancelled = await schedule(startsAt, 'Cancelled');
  const deleted = await schedule(startsAt, 'Deleted');
  t.is((await ann.patch(`/calls/${cancelled}`, { status: 'cancelled' })).body.data.status, 'cancelled');
  t.is((await ann.delete(`/calls/${deleted}`)).status, 200);
  t.deepEqual((await ann.patch(`/calls/${cancelled}`, { scheduled_at: at(90).toISOString() })).body, { error: 'This call is cancelled: it can no longer change' });
  moveTo(new Date(startsAt.getTime() + MINUTE));
  t.deepEqual(await dueReminders(), []);
});

test.serial('a call starting within reminder_minutes is reminded at once; reminder_minutes 0 turns reminders off', async (t) => {
  const soon = at(5);
  const id = await schedule(soon);
  t.deepEqual(await dueReminders(), [[id, soon.toISOString()]]);
  const settings = await world.owner.put('/apps/calls/settings', { reminder_minutes: 0, max_participants: 100, max_recording_bytes: 52428800 });
  t.is(settings.status, 200);
  const mark = world.mark();
  await schedule(at(60));
  t.deepEqual(world.eventsSince(mark).map(([action]) => action), ['core.calls.call.created', 'core.calls.call.scheduled']);
  await world.owner.put('/apps/calls/settings', { reminder_minutes: 10, max_participants: 100, max_recording_bytes: 52428800 });
});

/**
 * The reminder on the real event bus, in real time: the broker the runtime started delivers the
 * delayed event to an app subscribed to it. A short lead (reminder_minutes 1, the call a minute
 * and a few seconds ahead) keeps it quick. It runs first, before the harness clock moves.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test.serial('in real time: a moved call is reminded once, at the new time less reminder_minutes, never before; a cancelled call is not', async (t) => {
  const settings = await world.owner.put('/apps/calls/settings', { reminder_minutes: 1, max_participants: 100, max_recording_bytes: 52428800 });
  t.is(settings.status, 200);
  const now = Date.now();
  const first = new Date(Math.ceil((now + 60_000 + 2500) / 1000) * 1000);
  const second = new Date(first.getTime() + 2000);
  const cancelledAt = new Date(first.getTime() + 1000);
  const moved = (await ann.post('/calls', { title: 'Moved', scheduled_at: first.toISOString() })).body.data.id;
  const cancelled = (await ann.post('/calls', { title: 'Cancelled', scheduled_at: cancelledAt.toISOString() })).body.data.id;
  t.is((await ann.patch(`/calls/${moved}`, { scheduled_at: second.toISOString() })).status, 200);
  t.is((await ann.patch(`/calls/${cancelled}`, { status: 'cancelled' })).status, 200);
  const due = second.getTime() - 60_000;
  const heard = () => received.filter(({ payload }) => payload.call_id === moved || payload.call_id === cancelled);
  for (let waited = 0; heard().length === 0 && waited < 15_000; waited += 50) await sleep(50);
  await sleep(1500);
  t.deepEqual(heard().map(({ payload }) => [payload.call_id, payload.scheduled_at]), [[moved, second.toISOString()]]);
  t.true(heard()[0].at >= due, `delivered ${due - heard()[0].at} ms early`);
  t.true(heard()[0].at < due + 5000, `delivered ${heard()[0].at - due} ms late`);
});
