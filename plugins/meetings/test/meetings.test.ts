import test from 'ava';
import { checkMatrixRows, type TestMember } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };
import { ok } from '@wpk/testing';
import { meetingsWorld, parseCalendar } from './helpers/world.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000abc';
const CALL_TWO = '00000000-0000-4000-8000-0000000c0002';
const CALL_CHAT = '00000000-0000-4000-8000-0000000c0003';
const CALL_LOST = '00000000-0000-4000-8000-0000000c0004';
const START = '2030-03-04T09:00:00.000Z';
const END = '2030-03-04T10:00:00.000Z';
const uid = (id: string) => `meeting-${id}@workspace-platform-kit`;

const world = await meetingsWorld('meetings');
const [ann, bob, cid] = await world.members(3);
test.after.always(() => world.close());

async function schedule(attendees: unknown[] = [], extra: Record<string, unknown> = {}) {
  return ok(await ann.post('/meetings', { title: 'Quarterly review', starts_at: START, ends_at: END, attendees, ...extra }));
}

test.serial('POST /meetings schedules a meeting: the answer, meeting.scheduled with exactly its fields, attendee.added each, one REQUEST mail per addressable attendee', async (t) => {
  world.takeEvents();
  await world.takeMails();
  const reply = await ann.post('/meetings', {
    title: '  Quarterly review ',
    description: 'Numbers, plans; and questions, too',
    location: 'Room 4',
    starts_at: '2030-03-04T10:00:00+01:00',
    ends_at: END,
    attendees: [{ member_mrn: bob.mrn }, { email: 'Guest@Example.COM', name: 'Gail Guest' }, { member_mrn: cid.mrn }],
  });
  t.is(reply.status, 200);
  const meeting = reply.body.data;
  t.deepEqual(reply.body.links, { self: `/meetings/${meeting.id}` });
  const [bobRow, guestRow, cidRow] = meeting.attendees;
  t.deepEqual(meeting, {
    id: meeting.id,
    mrn: `mrn:meetings:meeting:${meeting.id}`,
    title: 'Quarterly review',
    description: 'Numbers, plans; and questions, too',
    location: 'Room 4',
    starts_at: START,
    ends_at: END,
    status: 'scheduled',
    sequence: 0,
    organizer_mrn: ann.mrn,
    attendees: [
      { id: bobRow.id, meeting_id: meeting.id, member_mrn: bob.mrn, email: null, name: null, status: 'needs_action', responded_at: null, added_by_mrn: ann.mrn, added_at: bobRow.added_at },
      { id: guestRow.id, meeting_id: meeting.id, member_mrn: null, email: 'guest@example.com', name: 'Gail Guest', status: 'needs_action', responded_at: null, added_by_mrn: ann.mrn, added_at: guestRow.added_at },
      { id: cidRow.id, meeting_id: meeting.id, member_mrn: cid.mrn, email: null, name: null, status: 'needs_action', responded_at: null, added_by_mrn: ann.mrn, added_at: cidRow.added_at },
    ],
    call: null,
    files: [],
    cancelled_at: null,
    source_mrn: null,
    created_at: meeting.created_at,
    updated_at: meeting.updated_at,
  });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.meetings.meeting.scheduled', payload: { meeting_id: meeting.id, meeting_mrn: meeting.mrn, title: 'Quarterly review', starts_at: START, ends_at: END, organizer_mrn: ann.mrn, attendee_mrns: [bob.mrn, cid.mrn] } },
    { action: 'core.meetings.attendee.added', payload: { meeting_id: meeting.id, attendee_id: bobRow.id, member_mrn: bob.mrn, added_by_mrn: ann.mrn } },
    { action: 'core.meetings.attendee.added', payload: { meeting_id: meeting.id, attendee_id: guestRow.id, added_by_mrn: ann.mrn } },
    { action: 'core.meetings.attendee.added', payload: { meeting_id: meeting.id, attendee_id: cidRow.id, member_mrn: cid.mrn, added_by_mrn: ann.mrn } },
  ]);
  // Members are mailed at their sign-in address from the member directory (cid has never opened the app).
  const mails = await world.takeMails();
  const byAddress = (a: string, b: string) => a.localeCompare(b);
  t.deepEqual(mails.map((mail) => mail.to), ['guest@example.com', bob.email.toLowerCase(), cid.email.toLowerCase()].sort(byAddress).map((address) => [address]));
  for (const mail of mails) {
    t.is(mail.subject, 'Invitation: Quarterly review @ 2030-03-04 09:00 to 10:00 UTC');
    t.is(mail.replyTo, ann.email.toLowerCase());
    t.is(mail.text, `${ann.name} invites you to Quarterly review.\n\nWhen: 2030-03-04 09:00 to 10:00 UTC\nWhere: Room 4\n\nNumbers, plans; and questions, too\n`);
    t.deepEqual(mail.calendar?.method, 'REQUEST');
    t.is(mail.attachments, undefined);
    t.true(mail.calendar!.content.split('\r\n').every((line) => Buffer.byteLength(line) <= 75));
    t.deepEqual(parseCalendar(mail.calendar!.content), {
      method: 'REQUEST', version: '2.0', prodid: '-//Workspace Platform Kit//Meetings//EN', events: 1,
      uid: uid(meeting.id), sequence: 0, start: START, end: END,
      summary: 'Quarterly review', description: 'Numbers, plans; and questions, too', location: 'Room 4', url: null, status: 'CONFIRMED',
      organizer: [`mailto:${ann.email.toLowerCase()}`, ann.name],
      attendees: [
        [`mailto:${bob.email.toLowerCase()}`, 'NEEDS-ACTION', 'TRUE', bob.name],
        ['mailto:guest@example.com', 'NEEDS-ACTION', 'TRUE', 'Gail Guest'],
        [`mailto:${cid.email.toLowerCase()}`, 'NEEDS-ACTION', 'TRUE', cid.name],
      ],
    });
  }
  t.deepEqual(ok(await cid.get(`/meetings/${meeting.id}`)).id, meeting.id);
});

test.serial('a meeting scheduled for another app\'s record: source_mrn in the answer and on meeting.scheduled; a malformed one is refused, nothing stored', async (t) => {
  const lead = 'mrn:crm:lead:0a1b2c3d-0000-4000-8000-000000000007';
  world.takeEvents();
  await world.takeMails();
  const meeting = ok(await ann.post('/meetings', { title: 'Discovery', starts_at: START, ends_at: END, source_mrn: lead }));
  t.is(meeting.source_mrn, lead);
  t.deepEqual(world.takeEvents(), [
    { action: 'core.meetings.meeting.scheduled', payload: { meeting_id: meeting.id, meeting_mrn: meeting.mrn, title: 'Discovery', starts_at: START, ends_at: END, organizer_mrn: ann.mrn, attendee_mrns: [], source_mrn: lead } },
  ]);
  const before = ok(await ann.get('/meetings?role=organizer')).length;
  const bad = await ann.post('/meetings', { title: 'Nowhere', starts_at: START, ends_at: END, source_mrn: 'mrn:crm:lead' });
  t.is(bad.status, 400);
  t.deepEqual(bad.body, { error: 'source_mrn must be an MRN (mrn:<app>:<resource>:<id>)', field: 'source_mrn' });
  t.is(ok(await ann.get('/meetings?role=organizer')).length, before);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('bad input names the field and writes nothing: times, attendees, duplicates, the organizer, the setting', async (t) => {
  world.takeEvents();
  const cases: Array<[Record<string, unknown>, string, string?]> = [
    [{ title: 'x', starts_at: START }, 'ends_at is required', 'ends_at'],
    [{ title: '', starts_at: START, ends_at: END }, 'title is not allowed to be empty', 'title'],
    [{ title: 'x', starts_at: END, ends_at: START }, 'ends_at must be after starts_at'],
    [{ title: 'x', starts_at: START, ends_at: START }, 'ends_at must be after starts_at'],
    [{ title: 'x', starts_at: START, ends_at: '2030-03-19T09:00:00Z' }, 'ends_at: a meeting lasts at most 14 days'],
    [{ title: 'x', starts_at: '2030-02-30T09:00:00Z', ends_at: END }, 'starts_at must be a real date (YYYY-MM-DD) or ISO 8601 instant, for example 2027-01-31T09:30:00Z', 'starts_at'],
    [{ title: 'x', starts_at: START, ends_at: END, attendees: [{ name: 'Nobody' }] }, 'attendees[0] needs member_mrn or email', 'attendees[0]'],
    [{ title: 'x', starts_at: START, ends_at: END, attendees: [{ email: 'not-an-address' }] }, 'attendees[0].email must be a valid email', 'attendees[0].email'],
    [{ title: 'x', starts_at: START, ends_at: END, attendees: [{ member_mrn: 'bob' }] }, 'attendees[0].member_mrn must be a member MRN (mrn:account:member:<id>)', 'attendees[0].member_mrn'],
    [{ title: 'x', starts_at: START, ends_at: END, attendees: [{ member_mrn: ann.mrn }] }, 'attendees[0].member_mrn: the organizer attends already'],
    [{ title: 'x', starts_at: START, ends_at: END, attendees: [{ email: 'a@b.test' }, { email: 'A@B.test' }] }, 'attendees[1]: a@b.test is named twice'],
    [{ title: 'x', starts_at: START, ends_at: END, attendees: [{ member_mrn: bob.mrn }, { member_mrn: bob.mrn }] }, `attendees[1]: ${bob.mrn} is named twice`],
  ];
  for (const [body, error, field] of cases) {
    const reply = await ann.post('/meetings', body);
    t.deepEqual([reply.status, reply.body], [400, field === undefined ? { error } : { error, field }], JSON.stringify(body));
  }
  t.deepEqual(world.takeEvents(), []);
  t.deepEqual(await world.takeMails(), []);
  t.deepEqual(await world.platform.query("SELECT count(*)::int AS n FROM app_meetings.meetings WHERE workspace_id = :w AND title = 'x'", { w: world.workspace.id }), [{ n: 0 }]);
});

test.serial('GET /meetings lists what the caller organizes or attends, soonest first; from/to, role and status narrow it; others\' meetings are a 404', async (t) => {
  const dave = await world.member();
  const early = ok(await dave.post('/meetings', { title: 'Early', starts_at: '2031-01-01T08:00:00Z', ends_at: '2031-01-01T09:00:00Z', attendees: [{ member_mrn: bob.mrn }] }));
  const late = ok(await dave.post('/meetings', { title: 'Late', starts_at: '2031-02-01T08:00:00Z', ends_at: '2031-02-01T09:00:00Z' }));
  const titles = async (member: TestMember, query = '') => (await member.get(`/meetings?per_page=100${query}`)).body.data.map((meeting: any) => meeting.title);
  t.deepEqual(await titles(dave), ['Early', 'Late']);
  t.deepEqual(await titles(dave, '&from=2031-01-15T00:00:00Z'), ['Late']);
  t.deepEqual(await titles(dave, '&to=2031-01-01T08:30:00Z'), ['Early']);
  t.deepEqual(await titles(bob, '&from=2031-01-01T00:00:00Z'), ['Early']);
  t.deepEqual(await titles(bob, '&from=2031-01-01T00:00:00Z&role=organizer'), []);
  t.deepEqual(await titles(dave, '&status=cancelled'), []);
  const hidden = await cid.get(`/meetings/${late.id}`);
  t.deepEqual([hidden.status, hidden.body], [404, { error: `Meeting ${late.id} not found` }]);
  t.is((await bob.get(`/meetings/${early.id}`)).status, 200);
  t.deepEqual([(await bob.get(`/meetings/${UNKNOWN}`)).status, (await bob.get('/meetings/nope')).status], [404, 404]);
  const manager = await world.member(['meetings.meetings.read', 'meetings.meetings.manage']);
  t.deepEqual(await titles(manager, '&from=2031-01-01T00:00:00Z'), ['Early', 'Late']);
});

test.serial('UpdateMeeting: the organizer only; a change raises SEQUENCE and mails every attendee the REQUEST; meeting.updated once; no change, nothing', async (t) => {
  const meeting = await schedule([{ member_mrn: bob.mrn }, { email: 'guest@example.com' }]);
  world.takeEvents();
  await world.takeMails();
  const byAttendee = await bob.patch(`/meetings/${meeting.id}`, { title: 'Mine now' });
  t.deepEqual([byAttendee.status, byAttendee.body], [403, { error: "Only the meeting's organizer may change it" }]);
  const backwards = await ann.patch(`/meetings/${meeting.id}`, { ends_at: '2030-03-04T08:00:00Z' });
  t.deepEqual([backwards.status, backwards.body], [400, { error: 'ends_at must be after starts_at' }]);
  const same = ok(await ann.patch(`/meetings/${meeting.id}`, { title: 'Quarterly review', starts_at: START }));
  t.is(same.sequence, 0);
  t.deepEqual([world.takeEvents(), await world.takeMails()], [[], []]);
  const updated = ok(await ann.patch(`/meetings/${meeting.id}`, { starts_at: '2030-03-04T13:00:00Z', ends_at: '2030-03-04T14:30:00Z', location: 'Room 9' }));
  t.like(updated, { sequence: 1, starts_at: '2030-03-04T13:00:00.000Z', ends_at: '2030-03-04T14:30:00.000Z', location: 'Room 9' });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.meetings.meeting.updated', payload: { meeting_id: meeting.id, meeting_mrn: meeting.mrn, title: 'Quarterly review', starts_at: '2030-03-04T13:00:00.000Z', ends_at: '2030-03-04T14:30:00.000Z', organizer_mrn: ann.mrn, attendee_mrns: [bob.mrn] } },
  ]);
  const mails = await world.takeMails();
  t.deepEqual(mails.map((mail) => [mail.to, mail.subject, mail.calendar?.method]), [
    [['guest@example.com'], 'Updated invitation: Quarterly review @ 2030-03-04 13:00 to 14:30 UTC', 'REQUEST'],
    [[bob.email.toLowerCase()], 'Updated invitation: Quarterly review @ 2030-03-04 13:00 to 14:30 UTC', 'REQUEST'],
  ]);
  t.like(parseCalendar(mails[1].calendar!.content), { method: 'REQUEST', uid: uid(meeting.id), sequence: 1, start: '2030-03-04T13:00:00.000Z', end: '2030-03-04T14:30:00.000Z', location: 'Room 9', status: 'CONFIRMED' });
  ok(await ann.patch(`/meetings/${meeting.id}`, { title: 'Quarterly review, again' }));
  t.like(parseCalendar((await world.takeMails())[0].calendar!.content), { uid: uid(meeting.id), sequence: 2, summary: 'Quarterly review, again' });
});

test.serial('attendees: the organizer invites (mailed the current REQUEST, SEQUENCE unchanged), a member attendee is meeting.updated too; twice is a 409', async (t) => {
  const meeting = await schedule([{ email: 'guest@example.com' }]);
  world.takeEvents();
  await world.takeMails();
  const byOther = await bob.post(`/meetings/${meeting.id}/attendees`, { member_mrn: bob.mrn });
  t.deepEqual([byOther.status, byOther.body], [404, { error: `Meeting ${meeting.id} not found` }]);
  const outsider = ok(await ann.post(`/meetings/${meeting.id}/attendees`, { email: 'Other@Example.com', name: 'Otto' }));
  t.like(outsider, { member_mrn: null, email: 'other@example.com', name: 'Otto', status: 'needs_action' });
  const member = ok(await ann.post(`/meetings/${meeting.id}/attendees`, { member_mrn: cid.mrn, email: 'cid.private@example.com' }));
  t.like(member, { member_mrn: cid.mrn, email: 'cid.private@example.com' });
  const twice = await ann.post(`/meetings/${meeting.id}/attendees`, { email: 'OTHER@example.com' });
  t.deepEqual([twice.status, twice.body], [409, { error: 'attendee: other@example.com is invited already' }]);
  const again = await ann.post(`/meetings/${meeting.id}/attendees`, { member_mrn: cid.mrn });
  t.deepEqual([again.status, again.body], [409, { error: `attendee: ${cid.mrn} is invited already` }]);
  const empty = await ann.post(`/meetings/${meeting.id}/attendees`, { name: 'x' });
  t.deepEqual([empty.status, empty.body], [400, { error: 'body needs member_mrn or email' }]);
  t.deepEqual(world.takeEvents(), [
    { action: 'core.meetings.attendee.added', payload: { meeting_id: meeting.id, attendee_id: outsider.id, added_by_mrn: ann.mrn } },
    { action: 'core.meetings.attendee.added', payload: { meeting_id: meeting.id, attendee_id: member.id, member_mrn: cid.mrn, added_by_mrn: ann.mrn } },
    { action: 'core.meetings.meeting.updated', payload: { meeting_id: meeting.id, meeting_mrn: meeting.mrn, title: 'Quarterly review', starts_at: START, ends_at: END, organizer_mrn: ann.mrn, attendee_mrns: [cid.mrn] } },
  ]);
  const mails = await world.takeMails();
  t.deepEqual(mails.map((mail) => [mail.to, mail.subject]), [
    [['cid.private@example.com'], 'Invitation: Quarterly review @ 2030-03-04 09:00 to 10:00 UTC'],
    [['other@example.com'], 'Invitation: Quarterly review @ 2030-03-04 09:00 to 10:00 UTC'],
  ]);
  t.deepEqual(parseCalendar(mails[0].calendar!.content).attendees, [
    ['mailto:guest@example.com', 'NEEDS-ACTION', 'TRUE', null],
    ['mailto:other@example.com', 'NEEDS-ACTION', 'TRUE', 'Otto'],
    ['mailto:cid.private@example.com', 'NEEDS-ACTION', 'TRUE', null],
  ]);
  t.is(parseCalendar(mails[0].calendar!.content).sequence, 0);
  t.deepEqual(ok(await ann.get(`/meetings/${meeting.id}`)).attendees.map((row: any) => row.email), ['guest@example.com', 'other@example.com', 'cid.private@example.com']);
});

test.serial('the same person invited twice at once: one invitation, one 409', async (t) => {
  const meeting = await schedule([]);
  const replies = await Promise.all([0, 1].map(() => ann.post(`/meetings/${meeting.id}/attendees`, { email: 'racer@example.com' })));
  t.deepEqual(replies.map((reply) => reply.status).sort(), [200, 409]);
  t.deepEqual(ok(await ann.get(`/meetings/${meeting.id}`)).attendees.map((row: any) => row.email), ['racer@example.com']);
});

test.serial('RSVP: a member answers their own invitation; the organizer records an outside answer; attendee.responded once per change', async (t) => {
  const meeting = await schedule([{ member_mrn: bob.mrn }, { email: 'guest@example.com' }, { member_mrn: cid.mrn }]);
  const [bobRow, guestRow, cidRow] = meeting.attendees;
  world.takeEvents();
  const path = (row: any) => `/meetings/${meeting.id}/attendees/${row.id}`;
  const forOther = await bob.patch(path(cidRow), { status: 'accepted' });
  t.deepEqual([forOther.status, forOther.body], [403, { error: 'Only the attendee may answer their invitation' }]);
  const organizerForMember = await ann.patch(path(bobRow), { status: 'accepted' });
  t.deepEqual([organizerForMember.status, organizerForMember.body], [403, { error: 'Only the attendee may answer their invitation' }]);
  const memberForGuest = await bob.patch(path(guestRow), { status: 'accepted' });
  t.deepEqual([memberForGuest.status, memberForGuest.body], [403, { error: "Only the meeting's organizer may record an outside attendee's answer" }]);
  const bad = await bob.patch(path(bobRow), { status: 'maybe' });
  t.deepEqual([bad.status, bad.body], [400, { error: 'status must be one of [needs_action, accepted, declined, tentative]', field: 'status' }]);
  const accepted = ok(await bob.patch(path(bobRow), { status: 'accepted' }));
  t.like(accepted, { status: 'accepted', member_mrn: bob.mrn });
  t.truthy(accepted.responded_at);
  ok(await bob.patch(path(bobRow), { status: 'accepted' }));
  ok(await ann.patch(path(guestRow), { status: 'tentative' }));
  const missing = await ann.patch(`/meetings/${meeting.id}/attendees/${UNKNOWN}`, { status: 'declined' });
  t.deepEqual([missing.status, missing.body], [404, { error: `Attendee ${UNKNOWN} not found in this meeting` }]);
  t.deepEqual(world.takeEvents(), [
    { action: 'core.meetings.attendee.responded', payload: { meeting_id: meeting.id, attendee_id: bobRow.id, member_mrn: bob.mrn, status: 'accepted', responded_by_mrn: bob.mrn } },
    { action: 'core.meetings.attendee.responded', payload: { meeting_id: meeting.id, attendee_id: guestRow.id, status: 'tentative', responded_by_mrn: ann.mrn } },
  ]);
  await world.takeMails();
  ok(await ann.patch(`/meetings/${meeting.id}`, { title: 'Review with answers' }));
  t.deepEqual(parseCalendar((await world.takeMails())[0].calendar!.content).attendees, [
    [`mailto:${bob.email.toLowerCase()}`, 'ACCEPTED', null, bob.name],
    ['mailto:guest@example.com', 'TENTATIVE', null, null],
    [`mailto:${cid.email.toLowerCase()}`, 'NEEDS-ACTION', 'TRUE', cid.name],
  ]);
});

test.serial('removing an attendee mails them a CANCEL naming only them (SEQUENCE + 1); attendee.removed, and meeting.updated for a member', async (t) => {
  const meeting = await schedule([{ member_mrn: bob.mrn }, { email: 'guest@example.com' }]);
  const [bobRow, guestRow] = meeting.attendees;
  world.takeEvents();
  await world.takeMails();
  const byAttendee = await bob.delete(`/meetings/${meeting.id}/attendees/${guestRow.id}`);
  t.deepEqual([byAttendee.status, byAttendee.body], [403, { error: "Only the meeting's organizer may remove attendees" }]);
  t.deepEqual(ok(await ann.delete(`/meetings/${meeting.id}/attendees/${bobRow.id}`)), { meeting_id: meeting.id, attendee_id: bobRow.id, removed: true, sequence: 1 });
  t.deepEqual(ok(await ann.delete(`/meetings/${meeting.id}/attendees/${guestRow.id}`)), { meeting_id: meeting.id, attendee_id: guestRow.id, removed: true, sequence: 2 });
  const gone = await ann.delete(`/meetings/${meeting.id}/attendees/${guestRow.id}`);
  t.deepEqual([gone.status, gone.body], [404, { error: `Attendee ${guestRow.id} not found in this meeting` }]);
  t.deepEqual(world.takeEvents(), [
    { action: 'core.meetings.attendee.removed', payload: { meeting_id: meeting.id, attendee_id: bobRow.id, member_mrn: bob.mrn, removed_by_mrn: ann.mrn } },
    { action: 'core.meetings.meeting.updated', payload: { meeting_id: meeting.id, meeting_mrn: meeting.mrn, title: 'Quarterly review', starts_at: START, ends_at: END, organizer_mrn: ann.mrn, attendee_mrns: [] } },
    { action: 'core.meetings.attendee.removed', payload: { meeting_id: meeting.id, attendee_id: guestRow.id, removed_by_mrn: ann.mrn } },
  ]);
  const mails = await world.takeMails();
  t.deepEqual(mails.map((mail) => [mail.to, mail.subject, mail.calendar?.method]), [
    [['guest@example.com'], 'Cancelled: Quarterly review @ 2030-03-04 09:00 to 10:00 UTC', 'CANCEL'],
    [[bob.email.toLowerCase()], 'Cancelled: Quarterly review @ 2030-03-04 09:00 to 10:00 UTC', 'CANCEL'],
  ]);
  t.like(parseCalendar(mails[1].calendar!.content), { method: 'CANCEL', uid: uid(meeting.id), sequence: 1, status: 'CANCELLED', attendees: [[`mailto:${bob.email.toLowerCase()}`, 'NEEDS-ACTION', null, bob.name]] });
  t.like(parseCalendar(mails[0].calendar!.content), { method: 'CANCEL', sequence: 2, attendees: [['mailto:guest@example.com', 'NEEDS-ACTION', null, null]] });
  t.is((await bob.get(`/meetings/${meeting.id}`)).status, 404);
});

test.serial('DELETE /meetings/{id} cancels: CANCEL to every attendee (SEQUENCE + 1, STATUS:CANCELLED), meeting.cancelled once; a cancelled meeting changes no more', async (t) => {
  const meeting = await schedule([{ member_mrn: bob.mrn }, { email: 'guest@example.com' }]);
  world.takeEvents();
  await world.takeMails();
  const byAttendee = await bob.delete(`/meetings/${meeting.id}`);
  t.deepEqual([byAttendee.status, byAttendee.body], [403, { error: "Only the meeting's organizer may cancel it" }]);
  const cancelled = ok(await ann.delete(`/meetings/${meeting.id}`));
  t.like(cancelled, { status: 'cancelled', sequence: 1 });
  t.truthy(cancelled.cancelled_at);
  t.deepEqual(world.takeEvents(), [{ action: 'core.meetings.meeting.cancelled', payload: { meeting_id: meeting.id, meeting_mrn: meeting.mrn } }]);
  const mails = await world.takeMails();
  t.deepEqual(mails.map((mail) => [mail.to, mail.subject, mail.calendar?.method]), [
    [['guest@example.com'], 'Cancelled: Quarterly review @ 2030-03-04 09:00 to 10:00 UTC', 'CANCEL'],
    [[bob.email.toLowerCase()], 'Cancelled: Quarterly review @ 2030-03-04 09:00 to 10:00 UTC', 'CANCEL'],
  ]);
  t.is(mails[0].text, `${ann.name} has cancelled Quarterly review.\n\nWhen: 2030-03-04 09:00 to 10:00 UTC\n`);
  t.like(parseCalendar(mails[1].calendar!.content), { method: 'CANCEL', uid: uid(meeting.id), sequence: 1, status: 'CANCELLED', attendees: [[`mailto:${bob.email.toLowerCase()}`, 'NEEDS-ACTION', null, bob.name], ['mailto:guest@example.com', 'NEEDS-ACTION', null, null]] });
  for (const [method, path, body] of [['DELETE', `/meetings/${meeting.id}`, undefined], ['PATCH', `/meetings/${meeting.id}`, { title: 'x' }], ['POST', `/meetings/${meeting.id}/attendees`, { email: 'late@example.com' }], ['PATCH', `/meetings/${meeting.id}/attendees/${meeting.attendees[0].id}`, { status: 'accepted' }]] as const) {
    const reply = await (method === 'DELETE' ? ann.delete(path) : method === 'PATCH' ? (path.includes('attendees') ? bob : ann).patch(path, body) : ann.post(path, body));
    const error = method === 'DELETE' ? 'Cannot cancel a meeting in state cancelled: cancel moves from scheduled to cancelled' : 'Meeting Quarterly review is cancelled';
    t.deepEqual([reply.status, reply.body], [409, { error }], `${method} ${path}`);
  }
  t.deepEqual([world.takeEvents(), await world.takeMails()], [[], []]);
  t.like(ok(await bob.get(`/meetings/${meeting.id}`)), { status: 'cancelled' });
});

test.serial("the meeting's call: the calls app schedules it from meeting.scheduled; its call.created and call.scheduled put the call on the meeting, and later mails carry its join URL", async (t) => {
  world.takeEvents();
  const meeting = await schedule([{ member_mrn: bob.mrn }]);
  await world.platform.deliverDue(world.workspace);
  const calls = world.platform.events.filter((event) => event.action.startsWith('core.calls.'));
  const created = calls.find((event) => event.action === 'core.calls.call.created')!;
  t.like(created.payload, { source_mrn: meeting.mrn, title: 'Quarterly review', creator_mrn: ann.mrn, scheduled_at: START });
  const scheduled = calls.find((event) => event.action === 'core.calls.call.scheduled' && event.payload.call_id === created.payload.call_id)!;
  t.truthy(scheduled.payload.join_url);
  const delivered = await world.platform.deliverDue(world.workspace);
  t.deepEqual(delivered.filter((entry) => entry.event.action.startsWith('core.calls.call.')).map((entry) => [entry.event.action, entry.outcomes.meetings]).sort(), [['core.calls.call.created', 'handled'], ['core.calls.call.scheduled', 'handled']]);
  t.deepEqual(ok(await bob.get(`/meetings/${meeting.id}`)).call, { call_id: created.payload.call_id, join_url: scheduled.payload.join_url, scheduled_at: START });
  await world.takeMails();
  ok(await ann.patch(`/meetings/${meeting.id}`, { description: 'Bring numbers' }));
  const [mail] = await world.takeMails();
  t.true(mail.text.includes(`Join: ${scheduled.payload.join_url}\n`));
  t.is(parseCalendar(mail.calendar!.content).url, scheduled.payload.join_url as string);
  world.takeEvents();
});

test.serial('the calls events arrive in any order and more than once; calls of other sources, or of unknown meetings, are not taken', async (t) => {
  const meeting = await schedule([]);
  const scheduled = { call_id: CALL_TWO, title: 'Quarterly review', scheduled_at: START, participant_mrns: [ann.mrn], join_url: `https://meetings.localhost/calls/${CALL_TWO}` };
  const created = { call_id: CALL_TWO, type: 'scheduled', mode: 'video', title: 'Quarterly review', creator_mrn: ann.mrn, source_mrn: meeting.mrn, scheduled_at: START };
  t.like(await world.platform.deliver(world.workspace, 'core.calls.call.scheduled', scheduled), { meetings: 'handled' });
  t.is(ok(await ann.get(`/meetings/${meeting.id}`)).call, null);
  await world.platform.deliver(world.workspace, 'core.calls.call.created', created);
  await world.platform.deliver(world.workspace, 'core.calls.call.created', created);
  t.deepEqual(ok(await ann.get(`/meetings/${meeting.id}`)).call, { call_id: CALL_TWO, join_url: `https://meetings.localhost/calls/${CALL_TWO}`, scheduled_at: START });
  await world.platform.deliver(world.workspace, 'core.calls.call.created', { ...created, call_id: CALL_CHAT, source_mrn: 'mrn:chat:chat:00000000-0000-4000-8000-000000000001' });
  await world.platform.deliver(world.workspace, 'core.calls.call.created', { ...created, call_id: CALL_LOST, source_mrn: `mrn:meetings:meeting:${UNKNOWN}` });
  t.deepEqual(await world.platform.query("SELECT count(*)::int AS n FROM app_meetings.meeting_calls WHERE workspace_id = :w AND call_id IN (:ids)", { w: world.workspace.id, ids: [CALL_CHAT, CALL_LOST] }), [{ n: 0 }]);
});

test.serial('search: a meeting is found by its organizer and member attendees only (readers follow the attendees)', async (t) => {
  const before = world.platform.search.length;
  const meeting = await schedule([{ member_mrn: bob.mrn }, { email: 'guest@example.com' }], { title: 'Searchable sync', location: 'Lab' });
  ok(await ann.post(`/meetings/${meeting.id}/attendees`, { member_mrn: cid.mrn }));
  const changes = world.platform.search.slice(before).map((change) => (change.op === 'upsert' ? [change.document.id, change.document.title, change.document.details, change.document.readers] : ['remove', change.id]));
  t.deepEqual(changes, [
    [meeting.id, 'Searchable sync', ['', 'Lab'], [ann.id, bob.id]],
    [meeting.id, 'Searchable sync', ['', 'Lab'], [ann.id, bob.id, cid.id]],
  ]);
  const count = (await world.platform.query<{ n: number }>('SELECT count(*)::int AS n FROM app_meetings.meetings WHERE workspace_id = :w', { w: world.workspace.id }))[0].n;
  const reindexed = await world.platform.runtime.reindexSearch({ app: 'meetings', workspaceId: world.workspace.id });
  t.deepEqual(reindexed.map((row) => [row.type, row.documents]), [['meeting', count]]);
});

test.serial('member_mrn must name a member of this workspace (a random id, another workspace\'s member, a removed member: 400 naming the field, nothing written); one who joined a moment ago is invited and mailed', async (t) => {
  const meeting = await schedule([]);
  const other = await world.otherWorkspace('meetings-elsewhere');
  const erin = await world.member();
  t.is((await world.owner.delete(`/members/${erin.id}`)).status, 200);
  world.takeEvents();
  await world.takeMails();
  const stranger = `mrn:account:member:${UNKNOWN}`;
  const refusals: Array<[string, string]> = [
    [stranger, 'is not a member of this workspace'],
    [other.owner.mrn, 'is not a member of this workspace'],
    [erin.mrn, 'is no longer a member of this workspace'],
  ];
  for (const [mrn, why] of refusals) {
    const scheduled = await ann.post('/meetings', { title: 'x', starts_at: START, ends_at: END, attendees: [{ email: 'guest@example.com' }, { member_mrn: mrn }] });
    t.deepEqual([scheduled.status, scheduled.body], [400, { error: `attendees[].member_mrn ${mrn} ${why}` }], mrn);
    const invited = await ann.post(`/meetings/${meeting.id}/attendees`, { member_mrn: mrn });
    t.deepEqual([invited.status, invited.body], [400, { error: `member_mrn ${mrn} ${why}` }], mrn);
  }
  t.deepEqual([world.takeEvents(), await world.takeMails()], [[], []]);
  t.deepEqual(await world.query("SELECT count(*)::int AS n FROM app_meetings.meetings WHERE workspace_id = :w AND title = 'x'", { w: world.workspaceId }), [{ n: 0 }]);
  t.deepEqual(ok(await ann.get(`/meetings/${meeting.id}`)).attendees, []);

  const newcomer = await world.member([], { name: 'Nina Newcomer' });
  const attendee = ok(await ann.post(`/meetings/${meeting.id}/attendees`, { member_mrn: newcomer.mrn }));
  t.like(attendee, { member_mrn: newcomer.mrn, email: null, status: 'needs_action' });
  const mails = await world.takeMails();
  t.deepEqual(mails.map((mail) => mail.to), [[newcomer.email.toLowerCase()]]);
  t.deepEqual(parseCalendar(mails[0].calendar!.content).attendees, [[`mailto:${newcomer.email.toLowerCase()}`, 'NEEDS-ACTION', 'TRUE', 'Nina Newcomer']]);
});

test.serial('an attendee removed from the workspace is mailed no more', async (t) => {
  const fay = await world.member();
  const meeting = await schedule([{ member_mrn: fay.mrn }, { email: 'guest@example.com' }]);
  await world.takeMails();
  t.is((await world.owner.delete(`/members/${fay.id}`)).status, 200);
  ok(await ann.patch(`/meetings/${meeting.id}`, { title: 'After Fay left' }));
  const mails = await world.takeMails();
  t.deepEqual(mails.map((mail) => mail.to), [['guest@example.com']]);
  t.deepEqual(parseCalendar(mails[0].calendar!.content).attendees, [['mailto:guest@example.com', 'NEEDS-ACTION', 'TRUE', null]]);
});

test.serial('migration 0003 adds source_mrn and 0002 drops the copy of the members (member_addresses); down undoes both, newest first, up does them again', async (t) => {
  const column = async () => (await world.query<{ n: number }>("SELECT count(*)::int AS n FROM information_schema.columns WHERE table_schema = 'app_meetings' AND table_name = 'meetings' AND column_name = 'source_mrn'"))[0]!.n;
  t.is(await column(), 1);
  t.deepEqual(await world.migrateAppDown('0003-meeting-source'), ['0003-meeting-source']);
  t.is(await column(), 0);
  t.deepEqual(await world.migrateAppUp(), ['0003-meeting-source']);
  t.is(await column(), 1);
  const copy = async () => (await world.query<{ name: string | null }>("SELECT to_regclass('app_meetings.member_addresses')::text AS name"))[0]!.name;
  t.is(await copy(), null);
  t.deepEqual(await world.migrateAppDown('0002-drop-member-addresses'), ['0003-meeting-source', '0002-drop-member-addresses']);
  t.is(await copy(), 'app_meetings.member_addresses');
  t.deepEqual(await world.query('SELECT * FROM app_meetings.member_addresses'), []);
  t.is(await column(), 0);
  t.deepEqual(await world.migrateAppUp(), ['0002-drop-member-addresses', '0003-meeting-source']);
  t.is(await copy(), null);
  t.is(await column(), 1);
});

test('the permission matrix: every route refuses a member without its key with the exact 403, and lets a holder through', async (t) => {
  const rows = await world.workspace.permissionMatrix('meetings');
  t.is(rows.length, manifest.authorization.length);
  checkMatrixRows(t, rows);
});

test.serial('the schema can be distributed by workspace', async (t) => {
  t.deepEqual(await world.platform.distributionProblems(), []);
});
