import test from 'ava';
import { ok } from '@wpk/testing';
import { atsWorld } from './helpers/world.js';

const world = await atsWorld('hireflow');
const recruiter = await world.member(['ats.*']);
const approver = await world.member(['ats.jobs.read', 'ats.jobs.approve']);
const interviewer = await world.member([]);
test.after.always(async () => world.close());

/** `Tuesday 7 January 2031, 09:00 UTC`, as the mails write an instant. */
const readable = (iso: string) => {
  const at = new Date(iso);
  return `${at.toLocaleDateString('en-GB', { weekday: 'long', timeZone: 'UTC' })} ${at.getUTCDate()} ${at.toLocaleDateString('en-GB', { month: 'long', timeZone: 'UTC' })} ${at.getUTCFullYear()}, ${String(at.getUTCHours()).padStart(2, '0')}:00 UTC`;
};
const future = (days: number, hour = 9) => {
  const date = new Date(Date.now() + days * 86_400_000);
  date.setUTCHours(hour, 0, 0, 0);
  return date.toISOString();
};

test('a full hire: job → approval → open → candidate → application → interviews → scorecards → offer → hired', async (t) => {
  // The job, on the workspace's default pipeline (made with the first job), waiting for one approver.
  const job = ok(await recruiter.post('/ats/jobs', {
    title: 'Senior TypeScript Engineer', description: 'Build the platform in TypeScript and PostgreSQL.', location: 'Berlin', workplace_type: 'hybrid',
    employment_type: 'full_time', headcount: 1, salary_min: 90000, salary_max: 120000.5, salary_currency: 'eur', hiring_manager_mrn: recruiter.mrn,
    approvals: [{ approver_mrn: approver.mrn }],
    screening_questions: [{ text: 'May you work in the EU?', type: 'yes_no', key: 'eu_work', disqualify_on: ['no'], required: true }],
  }));
  t.is(job.status, 'draft');
  t.is(job.salary_max, '120000.50');
  t.is(job.salary_currency, 'EUR');
  t.deepEqual(job.approvals.map((a: any) => [a.approver_mrn, a.status]), [[approver.mrn, 'pending']]);
  const pipeline = ok(await recruiter.get(`/ats/pipelines/${job.pipeline_id}`));
  t.true(pipeline.is_default);
  t.deepEqual(pipeline.stages.map((s: any) => s.type), ['applied', 'screen', 'interview', 'offer', 'hired']);

  // Open needs the approval first: 409 naming both states.
  const early = await recruiter.patch(`/ats/jobs/${job.id}/status`, { status: 'open' });
  t.is(early.status, 409);
  t.regex(early.body.error, /from draft to open before every approver approved/);
  t.is(ok(await recruiter.patch(`/ats/jobs/${job.id}/status`, { status: 'approval' })).status, 'approval');
  const decided = ok(await approver.post(`/ats/jobs/${job.id}/approvals`, { status: 'approved', comment: 'Budgeted' }));
  t.is(decided.approval.status, 'approved');
  t.is(decided.job.status, 'open', 'the last approval opens the job');

  // A candidate and their application, in the first stage.
  const candidate = ok(await recruiter.post('/ats/candidates', { name: 'Ada Lovelace', email: 'Ada@example.com', headline: 'TypeScript engineer', tags: ['backend'], source: 'sourced' }));
  const dup = await recruiter.post('/ats/candidates', { name: 'Ada L.', email: 'ada@EXAMPLE.com' });
  t.is(dup.status, 409);
  t.is(dup.body.error, `A candidate with email ada@EXAMPLE.com already exists: ${candidate.id}`);
  const application = ok(await recruiter.post('/ats/applications', { candidate_id: candidate.id, job_id: job.id, answers: { eu_work: 'yes' } }));
  t.is(application.stage_id, pipeline.stages[0].id);
  t.is(application.status, 'active');
  t.is(application.days_in_stage, 0);
  t.false(application.sla_overdue);

  // Screen, then interview stage with a panel; the candidate self-schedules.
  ok(await recruiter.patch(`/ats/applications/${application.id}/stage`, { stage_id: pipeline.stages[2].id, note: 'Strong screen' }));
  const interview = ok(await recruiter.post(`/ats/applications/${application.id}/interviews`, { title: 'Technical interview', panel: [{ member_mrn: interviewer.mrn, role: 'lead' }], duration_minutes: 60 }));
  t.is(interview.status, 'requested');
  const first = ok(await recruiter.post(`/ats/interviews/${interview.id}/self-schedule`, { slot_1: future(3), slot_2: future(4) }));
  const second = ok(await recruiter.post(`/ats/interviews/${interview.id}/self-schedule`, { slots: [{ start: future(5), end: future(5, 10) }, { start: future(6) }], notify_candidate: true }));
  t.not(first.token, second.token);
  t.is((await world.workspace.anonymous.get(first.link)).status, 404, 'the previous link stops working');
  const page = ok(await world.workspace.anonymous.get(second.link));
  t.deepEqual(page.slots.map((s: any) => s.start), [future(5), future(6)]);
  t.is(page.job_title, 'Senior TypeScript Engineer');
  const picked = ok(await world.workspace.anonymous.post(second.link, { start: future(5) }));
  t.is(picked.scheduled_at, future(5));
  t.is((await world.workspace.anonymous.get(second.link)).status, 404, 'a used link is spent');

  // Scorecards: the panel member may read the application they evaluate, and submit.
  const scorecard = ok(await recruiter.post(`/ats/applications/${application.id}/evaluations`, { evaluator_mrn: interviewer.mrn, interview_id: interview.id }));
  const shadow = ok(await recruiter.post(`/ats/applications/${application.id}/evaluations`, { evaluator_mrn: recruiter.mrn, is_shadow: true }));
  const seen = ok(await interviewer.get(`/ats/applications/${application.id}`));
  t.is(seen.interviews[0].status, 'scheduled');
  t.is(seen.interviews[0].scheduled_at, future(5));
  t.false('self_schedule_token_hash' in seen.interviews[0]);
  const submitted = ok(await interviewer.post(`/ats/evaluations/${scorecard.id}/submission`, { recommendation: 'strong_yes', notes: 'Excellent' }));
  t.is(submitted.status, 'submitted');
  const undeletable = await interviewer.delete(`/ats/evaluations/${scorecard.id}`);
  t.is(undeletable.status, 409);
  t.is(undeletable.body.error, 'Cannot cancel a scorecard in state submitted: cancel moves from requested to cancelled');
  t.is(ok(await recruiter.delete(`/ats/evaluations/${shadow.id}`)).status, 'cancelled');

  // The offer, exact decimals, through approval to sent; then the hire.
  ok(await recruiter.patch(`/ats/applications/${application.id}/stage`, { stage_id: pipeline.stages[3].id }));
  const offer = ok(await recruiter.post(`/ats/applications/${application.id}/offers`, { package: { base: '110000.10', currency: 'eur', period: 'year', bonus: 0.1, equity: '0.05%', benefits: ['Pension'] }, start_date: '2027-03-01' }));
  t.is(offer.base, '110000.10');
  t.is(offer.bonus, '0.10');
  t.is(offer.status, 'draft');
  const skip = await recruiter.patch(`/ats/offers/${offer.id}/status`, { status: 'sent' });
  t.is(skip.status, 409);
  t.is(skip.body.error, 'Cannot move an offer from draft to sent: sent is reached from approved');
  for (const status of ['approval', 'approved']) t.is(ok(await recruiter.patch(`/ats/offers/${offer.id}/status`, { status })).status, status);
  t.is(ok(await recruiter.patch(`/ats/offers/${offer.id}/status`, { status: 'sent', notify_candidate: true })).status, 'sent');
  const hired = ok(await recruiter.patch(`/ats/applications/${application.id}/status`, { status: 'hire', notify_candidate: true }));
  t.is(hired.status, 'hired');
  t.is(hired.stage_id, pipeline.stages[4].id, 'a hire lands in the hired stage');
  t.deepEqual(world.platform.events.filter((e) => e.action === 'core.ats.application.hired').map((e) => e.payload), [
    { application_id: application.id, candidate_id: candidate.id, candidate_name: candidate.name, candidate_email: candidate.email, job_id: job.id, job_title: 'Senior TypeScript Engineer', hired_by: recruiter.mrn },
  ], 'the hire is announced once, with what an HR directory needs to open a worker');

  // The timeline tells the story; the events were each emitted once.
  const timeline = ok(await recruiter.get(`/ats/candidates/${candidate.id}/activities`));
  t.deepEqual(timeline.map((a: any) => a.kind), ['message', 'status_changed', 'message', 'stage_moved', 'message', 'message', 'stage_moved']);
  // The candidate was mailed the link, the confirmation of their pick (with the invitation), the offer and the welcome.
  const mails = (await world.platform.drainMail()).filter((mail) => mail.to.includes(candidate.email));
  t.deepEqual(mails.map((mail) => [mail.subject, mail.calendar?.method ?? null]), [
    ['Pick a time for your interview for Senior TypeScript Engineer', null],
    [`Your interview for Senior TypeScript Engineer is booked: ${readable(future(5))}`, 'REQUEST'],
    ['Your offer from hireflow workspace', null],
    ['Welcome to hireflow workspace', null],
  ]);
  t.true(mails[2].text.includes('Base salary: EUR 110000.10 per year. Bonus: EUR 0.10. Equity: 0.05%. Benefits: Pension. Start date: 2027-03-01.'), mails[2].text);
  t.deepEqual(world.takeEvents().map((e) => e.action), [
    'core.ats.pipeline.created', 'core.ats.job.created', 'core.ats.job.status_changed', 'core.ats.job.approval_recorded', 'core.ats.job.status_changed',
    'core.ats.candidate.created', 'core.ats.application.created', 'core.ats.application.stage_changed', 'core.ats.interview.created',
    'core.ats.interview.self_schedule_sent', 'core.ats.interview.self_schedule_sent', 'core.ats.message.sent', 'core.ats.interview.scheduled', 'core.ats.message.sent',
    'core.ats.evaluation.requested', 'core.ats.evaluation.requested', 'core.ats.evaluation.submitted', 'core.ats.evaluation.cancelled',
    'core.ats.application.stage_changed', 'core.ats.offer.created', 'core.ats.offer.status_changed', 'core.ats.offer.status_changed', 'core.ats.offer.status_changed', 'core.ats.message.sent',
    'core.ats.application.status_changed', 'core.ats.application.hired', 'core.ats.message.sent',
  ]);
});
