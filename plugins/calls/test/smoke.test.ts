import test from 'ava';
import { startWorld } from './helpers/world.js';

test('smoke', async (t) => {
  const world = await startWorld('smoke');
  try {
    const ann = await world.member();
    const bob = await world.member();
    const created = await ann.post('/calls', { title: 'Standup', participant_mrns: [bob.mrn] });
    t.log(created.status, JSON.stringify(created.body));
    const join = await ann.post(`/calls/${created.body.data.id}/sessions`, {});
    t.log(join.status, JSON.stringify(join.body));
    const r = await world.platform.deliver(world.workspace, 'core.meetings.meeting.scheduled', { meeting_id: 'm1', meeting_mrn: 'mrn:meetings:meeting:m1', title: 'Plan', starts_at: new Date(Date.now() + 3600_000).toISOString(), ends_at: new Date(Date.now() + 7200_000).toISOString(), organizer_mrn: ann.mrn, attendee_mrns: [bob.mrn] }).catch((e) => String(e));
    t.log(JSON.stringify(r));
    t.log(JSON.stringify(world.eventsSince(0)));
    t.pass();
  } finally {
    await world.close();
  }
});
