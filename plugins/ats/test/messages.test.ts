import test from 'ava';
import { ok } from '@wpk/testing';
import { atsWorld } from './helpers/world.js';

const world = await atsWorld('atsmail');
const recruiter = await world.member(['ats.*']);
const job = ok(await recruiter.post('/ats/jobs', { title: 'Pastry Chef' }));
ok(await recruiter.patch(`/ats/jobs/${job.id}/status`, { status: 'open' }));
const stages = ok(await recruiter.get(`/ats/pipelines/${job.pipeline_id}/stages`));
test.after.always(async () => world.close());

let sequence = 0;
/** A candidate with an application to the job. */
async function applicant(name = `Sam Baker ${++sequence}`) {
  const candidate = ok(await recruiter.post('/ats/candidates', { name, email: `baker${++sequence}@example.com` }));
  const application = ok(await recruiter.post('/ats/applications', { candidate_id: candidate.id, job_id: job.id }));
  return { candidate, application };
}

/** The mails sent since the last call (the outbox drained first). */
let seen = 0;
async function newMails() {
  const mails = await world.platform.drainMail();
  const fresh = mails.slice(seen);
  seen = mails.length;
  return fresh;
}

test.serial('a message from a template: merge fields filled (HTML-escaped in the HTML part), mailed after the commit, kept in the history and on the timeline', async (t) => {
  const { candidate, application } = await applicant('Ada <b>Lovelace</b>');
  const template = ok(await recruiter.post('/ats/templates', { name: 'Hello', subject: 'About {{job_title}} at {{company_name}}', body_html: '<p>Dear {{candidate_first_name}},</p><p>{{recruiter_name}} here: see <a href="https://example.com/faq">our FAQ</a>.</p>' }));
  await newMails();
  world.takeEvents();
  const sent = ok(await recruiter.post(`/ats/candidates/${candidate.id}/messages`, { template_id: template.id, application_id: application.id }));
  t.like(sent, { candidate_id: candidate.id, application_id: application.id, template_id: template.id, trigger: 'manual', to_email: candidate.email, subject: 'About Pastry Chef at atsmail workspace', sent_by: recruiter.mrn, reply_to: recruiter.email });
  const [mail, ...more] = await newMails();
  t.deepEqual(more, []);
  t.deepEqual(mail.to, [candidate.email]);
  t.is(mail.replyTo, recruiter.email);
  t.is(mail.subject, 'About Pastry Chef at atsmail workspace');
  t.is(mail.html, `<p>Dear Ada,</p><p>${recruiter.name} here: see <a href="https://example.com/faq">our FAQ</a>.</p>`);
  t.is(mail.text, `Dear Ada,\n\n${recruiter.name} here: see our FAQ (https://example.com/faq).`);
  t.is(mail.fromName, 'Recruiting');
  const history = await recruiter.get(`/ats/candidates/${candidate.id}/messages`);
  t.deepEqual(history.body.data.map((row: any) => [row.id, row.body_text]), [[sent.id, mail.text]]);
  t.is(history.body.pagination.total, 1);
  t.deepEqual(ok(await recruiter.get(`/ats/candidates/${candidate.id}/activities?kind=message`)).map((row: any) => row.content), ['Email sent: About Pastry Chef at atsmail workspace']);
  t.deepEqual(world.takeEvents(), [{ action: 'core.ats.message.sent', payload: { message_id: sent.id, candidate_id: candidate.id, application_id: application.id, trigger: 'manual', sent_by: recruiter.mrn } }]);

  // A full name with markup is escaped in the HTML part, kept as typed in the text part.
  ok(await recruiter.post(`/ats/candidates/${candidate.id}/messages`, { subject: 'Hi {{candidate_name}}', body_html: '<p>Hello {{candidate_name}}</p>' }));
  const [escaped] = await newMails();
  t.deepEqual([escaped.subject, escaped.html, escaped.text], ['Hi Ada <b>Lovelace</b>', '<p>Hello Ada &lt;b&gt;Lovelace&lt;/b&gt;</p>', 'Hello Ada <b>Lovelace</b>']);
});

test.serial('free text: plain text becomes paragraphs; a subject and body replace the template’s; active content is dropped', async (t) => {
  const { candidate } = await applicant();
  await newMails();
  ok(await recruiter.post(`/ats/candidates/${candidate.id}/messages`, { subject: 'Thanks', body_html: 'Hi {{candidate_first_name}},\n\nThanks for the call.\nTalk soon.' }));
  const [plain] = await newMails();
  t.is(plain.text, 'Hi Sam,\n\nThanks for the call.\nTalk soon.');
  t.is(plain.html, '<p>Hi Sam,</p>\n<p>Thanks for the call.<br>Talk soon.</p>');
  const template = ok(await recruiter.post('/ats/templates', { name: 'Base', subject: 'Template subject', body_html: '<p>Template body</p>' }));
  ok(await recruiter.post(`/ats/candidates/${candidate.id}/messages`, { template_id: template.id, subject: 'Own subject' }));
  const [mixed] = await newMails();
  t.deepEqual([mixed.subject, mixed.text], ['Own subject', 'Template body']);
  ok(await recruiter.post(`/ats/candidates/${candidate.id}/messages`, { subject: 'Safe', body_html: '<p onclick="x()">Hi</p><script>alert(1)</script><a href="javascript:alert(1)">x</a>' }));
  const [safe] = await newMails();
  t.is(safe.html, '<p>Hi</p><a href="#">x</a>');
});

test.serial('refused messages name what is wrong and send nothing, write nothing, emit nothing', async (t) => {
  const { candidate } = await applicant();
  const other = await applicant();
  await newMails();
  world.takeEvents();
  const path = `/ats/candidates/${candidate.id}/messages`;
  const cases: Array<[Record<string, unknown>, number, string, string?]> = [
    [{}, 400, 'Give template_id, or a subject and a body_html'],
    [{ subject: 'Only a subject' }, 400, 'Give template_id, or a subject and a body_html'],
    [{ template_id: '00000000-0000-4000-8000-000000000000' }, 400, 'template_id 00000000-0000-4000-8000-000000000000 is not a template of this workspace'],
    [{ subject: 'Job', body_html: 'About {{job_title}}' }, 400, 'body_html: {{job_title}} has no value in this message (name the application (application_id))'],
    [{ subject: 'Link', body_html: '{{interview_link}}' }, 400, 'body_html: {{interview_link}} has no value in this message (it is known when a self-schedule link is minted)'],
    [{ subject: 'Bad', body_html: '{{salary}}' }, 400, 'body_html: {{salary}} is not a merge field (candidate_name, candidate_first_name, job_title, company_name, recruiter_name, interview_link, interview_time, interview_location, stage_name, offer_summary)'],
    [{ subject: 'Other', body_html: 'x', application_id: other.application.id }, 400, `application_id ${other.application.id} is not an application of candidate ${candidate.id}`],
    [{ subject: 'x'.repeat(301), body_html: 'x' }, 400, 'subject length must be less than or equal to 300 characters long', 'subject'],
  ];
  for (const [payload, status, error, field] of cases) {
    const answer = await recruiter.post(path, payload);
    t.deepEqual([answer.status, answer.body], [status, field === undefined ? { error } : { error, field }], JSON.stringify(payload));
  }
  const reader = await world.member(['ats.candidates.read']);
  t.deepEqual((await reader.post(path, { subject: 'x', body_html: 'y' })).body, { error: 'Missing permission: ats.messages.send' });
  t.is((await reader.get(path)).status, 200, 'reading the history needs ats.candidates.read');
  ok(await recruiter.post(`/ats/candidates/${candidate.id}/erasure`));
  const erased = await recruiter.post(path, { subject: 'Still there?', body_html: 'x' });
  t.deepEqual([erased.status, erased.body], [409, { error: `Candidate ${candidate.id} was erased; there is no address to mail` }]);
  t.deepEqual(await newMails(), []);
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.ats.candidate.erased']);
  t.is(ok(await recruiter.get(path)).length, 0);
});

test.serial('notify_candidate on status moves: the operation’s mail or a chosen template; a refused move mails nobody', async (t) => {
  const { candidate, application } = await applicant();
  const path = `/ats/applications/${application.id}/status`;
  await newMails();
  const lonely = await recruiter.patch(path, { status: 'hold', template_id: '00000000-0000-4000-8000-000000000000' });
  t.deepEqual([lonely.status, lonely.body], [400, { error: 'template_id is used only with notify_candidate: true' }]);
  ok(await recruiter.patch(path, { status: 'hold', notify_candidate: true }));
  const [held] = await newMails();
  t.deepEqual([held.to, held.subject], [[candidate.email], 'Your application for Pastry Chef at atsmail workspace']);
  t.regex(held.text, /^Dear Sam,\n\nYour application for Pastry Chef is on hold for the moment\./);
  const rejection = ok(await recruiter.post('/ats/templates', { name: 'Kind no', kind: 'rejection', subject: 'Re: {{job_title}}', body_html: '<p>Sorry {{candidate_first_name}}.</p>' }));
  world.takeEvents();
  const rejected = ok(await recruiter.patch(path, { status: 'reject', rejection_reason: 'Too junior', notify_candidate: true, template_id: rejection.id }));
  t.is(rejected.status, 'rejected');
  const [no] = await newMails();
  t.deepEqual([no.subject, no.text], ['Re: Pastry Chef', 'Sorry Sam.']);
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload.trigger ?? event.payload.to_status]), [['core.ats.application.status_changed', 'rejected'], ['core.ats.message.sent', 'status_changed']]);
  const refused = await recruiter.patch(path, { status: 'hire', notify_candidate: true });
  t.is(refused.status, 409);
  t.deepEqual(await newMails(), [], 'a refused move mails nobody');
  t.deepEqual(world.takeEvents(), []);
  const history = ok(await recruiter.get(`/ats/candidates/${candidate.id}/messages?application_id=${application.id}`));
  t.deepEqual(history.map((row: any) => [row.trigger, row.template_id]), [['status_changed', rejection.id], ['status_changed', null]]);
});

test.serial('notify_candidate on a stage move names the new stage', async (t) => {
  const { application } = await applicant();
  await newMails();
  ok(await recruiter.patch(`/ats/applications/${application.id}/stage`, { stage_id: stages[1].id, note: 'Good CV', notify_candidate: true }));
  const [mail] = await newMails();
  t.is(mail.subject, 'Next steps for Pastry Chef at atsmail workspace');
  t.regex(mail.text, /has moved on to the Phone screen stage\./);
  ok(await recruiter.patch(`/ats/applications/${application.id}/stage`, { stage_id: stages[2].id }));
  t.deepEqual(await newMails(), [], 'without notify_candidate nobody is mailed');
});

test.serial('interviews: the invitation, its update and its cancellation go out as one iCalendar event with a rising SEQUENCE', async (t) => {
  const { candidate, application } = await applicant();
  await newMails();
  const needsTime = await recruiter.post(`/ats/applications/${application.id}/interviews`, { notify_candidate: true });
  t.deepEqual(needsTime.body, { error: 'notify_candidate: the candidate is mailed an invitation, which needs scheduled_at' });
  const interview = ok(await recruiter.post(`/ats/applications/${application.id}/interviews`, { title: 'Tasting', scheduled_at: '2031-03-04T14:30:00Z', duration_minutes: 45, location: 'Kitchen; floor 2', notify_candidate: true }));
  const [invite] = await newMails();
  t.is(invite.subject, 'Your interview for Pastry Chef: Tuesday 4 March 2031, 14:30 UTC');
  t.regex(invite.text, /Where: Kitchen; floor 2/);
  t.is(invite.calendar!.method, 'REQUEST');
  const lines = (ics: string) => ics.replace(/\r\n /g, '').split('\r\n');
  const first = lines(invite.calendar!.content);
  const uid = `UID:${interview.id}@atsmail.ats`;
  for (const line of ['METHOD:REQUEST', uid, 'SEQUENCE:1', 'DTSTART:20310304T143000Z', 'DTEND:20310304T151500Z', 'SUMMARY:Tasting — Pastry Chef at atsmail workspace', 'LOCATION:Kitchen\\; floor 2', 'STATUS:CONFIRMED', `ORGANIZER;CN="atsmail workspace":mailto:${recruiter.email}`]) t.true(first.includes(line), line);
  t.true(first.some((line) => line.startsWith('ATTENDEE;') && line.endsWith(`:mailto:${candidate.email}`)));
  t.true(invite.calendar!.content.split('\r\n').every((line: string) => Buffer.byteLength(line) <= 75), 'lines are folded at 75 octets');
  ok(await recruiter.patch(`/ats/interviews/${interview.id}/schedule`, { scheduled_at: '2031-03-05T09:00:00Z', notify_candidate: true }));
  const [moved] = await newMails();
  const second = lines(moved.calendar!.content);
  t.deepEqual([second.includes(uid), second.includes('SEQUENCE:2'), second.includes('DTSTART:20310305T090000Z')], [true, true, true]);
  ok(await recruiter.delete(`/ats/interviews/${interview.id}?notify_candidate=true`));
  const [cancelled] = await newMails();
  t.is(cancelled.subject, 'Your interview for Pastry Chef is cancelled');
  t.is(cancelled.calendar!.method, 'CANCEL');
  const third = lines(cancelled.calendar!.content);
  t.deepEqual([third.includes('METHOD:CANCEL'), third.includes(uid), third.includes('SEQUENCE:3'), third.includes('STATUS:CANCELLED')], [true, true, true, true]);
  const history = ok(await recruiter.get(`/ats/candidates/${candidate.id}/messages`));
  t.deepEqual(history.map((row: any) => [row.trigger, row.calendar_method]), [['interview_cancelled', 'CANCEL'], ['interview_scheduled', 'REQUEST'], ['interview_scheduled', 'REQUEST']]);
});

test.serial('self-scheduling: the link is mailed with the workspace’s address; the candidate’s pick is confirmed with the invitation, replies going to the careers mailbox', async (t) => {
  ok(await world.owner.put('/apps/ats/settings', { self_schedule_days: 7, careers_mailbox: 'jobs@atsmail.example' }));
  const bad = await world.owner.put('/apps/ats/settings', { self_schedule_days: 7, careers_mailbox: 'not an address' });
  t.is(bad.status, 400);
  const { candidate, application } = await applicant();
  const interview = ok(await recruiter.post(`/ats/applications/${application.id}/interviews`, { title: 'Call' }));
  await newMails();
  const link = ok(await recruiter.post(`/ats/interviews/${interview.id}/self-schedule`, { slot_1: '2031-05-01T08:00:00Z', slot_2: '2031-05-02T08:00:00Z', notify_candidate: true }));
  t.is(link.url, `http://atsmail.${world.platform.runtime.config.baseDomain}${link.page}`);
  const [offer] = await newMails();
  t.deepEqual([offer.subject, offer.replyTo], ['Pick a time for your interview for Pastry Chef', 'jobs@atsmail.example']);
  t.true(offer.text.includes(link.url), offer.text);
  t.true(offer.html!.includes(`<a href="${link.url}">`));
  t.is(link.message_id, ok(await recruiter.get(`/ats/candidates/${candidate.id}/messages`))[0].id);
  world.takeEvents();
  ok(await world.workspace.anonymous.post(link.link, { start: '2031-05-02T08:00:00Z' }));
  const [confirmation] = await newMails();
  t.is(confirmation.subject, 'Your interview for Pastry Chef is booked: Friday 2 May 2031, 08:00 UTC');
  t.is(confirmation.replyTo, 'jobs@atsmail.example');
  t.true(confirmation.calendar!.content.includes('ORGANIZER;CN="atsmail workspace":mailto:jobs@atsmail.example'));
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload.sent_by ?? null]), [['core.ats.interview.scheduled', null], ['core.ats.message.sent', null]]);
  ok(await world.owner.put('/apps/ats/settings', { self_schedule_days: 7, careers_mailbox: '' }));
});

test.serial('offers: notify_candidate mails the package when the offer is sent; on other moves it is refused', async (t) => {
  const { application } = await applicant();
  const offer = ok(await recruiter.post(`/ats/applications/${application.id}/offers`, { package: { base: '72000.5', currency: 'eur', period: 'year', bonus: 3000, equity: '0.1%', benefits: ['Pension', 'Lunch'] }, start_date: '2031-09-01' }));
  await newMails();
  const early = await recruiter.patch(`/ats/offers/${offer.id}/status`, { status: 'approval', notify_candidate: true });
  t.deepEqual([early.status, early.body], [400, { error: 'notify_candidate: the candidate is mailed when an offer is sent or rescinded' }]);
  ok(await recruiter.patch(`/ats/offers/${offer.id}/status`, { status: 'approval' }));
  ok(await recruiter.patch(`/ats/offers/${offer.id}/status`, { status: 'approved' }));
  ok(await recruiter.patch(`/ats/offers/${offer.id}/status`, { status: 'sent', notify_candidate: true }));
  const [mail] = await newMails();
  t.is(mail.subject, 'Your offer from atsmail workspace');
  t.true(mail.text.includes('Base salary: EUR 72000.50 per year. Bonus: EUR 3000.00. Equity: 0.1%. Benefits: Pension, Lunch. Start date: 2031-09-01.'), mail.text);
});
