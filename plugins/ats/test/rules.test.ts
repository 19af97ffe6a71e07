import test from 'ava';
import { ok } from '@wpk/testing';
import { atsWorld } from './helpers/world.js';

const world = await atsWorld('atsrules');
const recruiter = await world.member(['ats.*']);
test.after.always(async () => world.close());

let emails = 0;
const newCandidate = async (fields: Record<string, unknown> = {}) => ok(await recruiter.post('/ats/candidates', { name: `Person ${++emails}`, email: `person${emails}@example.com`, ...fields }));
const openJob = async (fields: Record<string, unknown> = {}) => {
  const job = ok(await recruiter.post('/ats/jobs', { title: 'Engineer', ...fields }));
  ok(await recruiter.patch(`/ats/jobs/${job.id}/status`, { status: 'open' }));
  return ok(await recruiter.get(`/ats/jobs/${job.id}`));
};
const apply = async (jobId: string) => ok(await recruiter.post('/ats/applications', { candidate_id: (await newCandidate()).id, job_id: jobId }));

test.serial('jobs: every move of the state machine, and an impossible one is 409 naming both states', async (t) => {
  const job = ok(await recruiter.post('/ats/jobs', { title: 'States' }));
  world.takeEvents();
  const path = `/ats/jobs/${job.id}/status`;
  const noApprovers = await recruiter.patch(path, { status: 'approval' });
  t.deepEqual([noApprovers.status, noApprovers.body], [409, { error: `Job ${job.id} has no approvers; open it directly` }]);
  for (const status of ['open', 'hold', 'open', 'closed', 'draft', 'closed', 'open']) t.is(ok(await recruiter.patch(path, { status, reason: `to ${status}` })).status, status);
  const again = await recruiter.patch(path, { status: 'open' });
  t.deepEqual([again.status, again.body], [409, { error: 'The job is already open' }]);
  const back = await recruiter.patch(path, { status: 'draft' });
  t.deepEqual([back.status, back.body], [409, { error: 'Cannot move a job from open to draft: draft is reached from approval or closed' }]);
  const events = world.takeEvents();
  t.is(events.length, 7);
  t.deepEqual(events[0].payload, { job_id: job.id, from_status: 'draft', to_status: 'open', reason: 'to open', changed_by: recruiter.mrn });
  const bad = await recruiter.patch(path, { status: 'archived' });
  t.is(bad.status, 400);
  t.regex(bad.body.error, /status/);
});

test.serial('jobs: bounds and consistency of the fields are refused with the field named, and nothing is written', async (t) => {
  world.takeEvents();
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ title: '' }, /title/],
    [{ title: 'x'.repeat(201) }, /title/],
    [{ title: 'A', headcount: 1000 }, /headcount/],
    [{ title: 'A', description: 'x'.repeat(50001) }, /description/],
    [{ title: 'A', salary_min: 10, salary_max: 5, salary_currency: 'EUR' }, /salary_min must not exceed salary_max/],
    [{ title: 'A', salary_min: 10 }, /salary_currency is required/],
    [{ title: 'A', workplace_type: 'moon' }, /workplace_type/],
    [{ title: 'A', pipeline_id: '00000000-0000-4000-8000-000000000000' }, /pipeline_id .* is not a pipeline/],
    [{ title: 'A', hiring_manager_mrn: 'bob' }, /^hiring_manager_mrn must be a member MRN \(mrn:account:member:<id>\)$/],
    [{ title: 'A', screening_questions: [{ text: 'Pick', type: 'single_select', key: 'pick', options: ['a'], disqualify_on: ['b'] }] }, /disqualify_on: b is not one of its options/],
  ];
  for (const [payload, message] of cases) {
    const answer = await recruiter.post('/ats/jobs', payload);
    t.is(answer.status, 400, JSON.stringify(payload));
    t.regex(answer.body.error, message);
  }
  t.deepEqual(world.takeEvents(), []);
});

test.serial('jobs: a rejection sends the job back to draft; re-submitting resets the decisions; only a listed approver decides', async (t) => {
  const first = await world.member(['ats.jobs.approve']);
  const second = await world.member(['ats.jobs.approve']);
  const stranger = await world.member(['ats.jobs.approve']);
  const job = ok(await recruiter.post('/ats/jobs', { title: 'Approved twice', approvals: [{ approver_mrn: first.mrn }, { approver_mrn: second.mrn }] }));
  const draftVote = await first.post(`/ats/jobs/${job.id}/approvals`, { status: 'approved' });
  t.deepEqual([draftVote.status, draftVote.body], [409, { error: `Job ${job.id} is draft, not waiting for approval` }]);
  ok(await recruiter.patch(`/ats/jobs/${job.id}/status`, { status: 'approval' }));
  const outsider = await stranger.post(`/ats/jobs/${job.id}/approvals`, { status: 'approved' });
  t.deepEqual([outsider.status, outsider.body], [403, { error: `You are not an approver of job ${job.id}` }]);
  t.is(ok(await first.post(`/ats/jobs/${job.id}/approvals`, { status: 'approved' })).job.status, 'approval', 'one of two approvals keeps it waiting');
  const rejected = ok(await second.post(`/ats/jobs/${job.id}/approvals`, { status: 'rejected', comment: 'No budget' }));
  t.is(rejected.job.status, 'draft');
  t.is(rejected.job.status_reason, 'No budget');
  ok(await recruiter.patch(`/ats/jobs/${job.id}/status`, { status: 'approval' }));
  t.deepEqual(ok(await recruiter.get(`/ats/jobs/${job.id}`)).approvals.map((a: any) => a.status), ['pending', 'pending']);
});

test.serial('pipelines and stages: a stage goes where asked and the others shift; position moves reorder; an occupied stage stays', async (t) => {
  const pipeline = ok(await recruiter.post('/ats/pipelines', { name: 'Sales hiring', description: 'For sales roles' }));
  const clash = await recruiter.post('/ats/pipelines', { name: 'SALES HIRING' });
  t.deepEqual([clash.status, clash.body], [409, { error: 'A pipeline named SALES HIRING already exists' }]);
  const path = `/ats/pipelines/${pipeline.id}/stages`;
  const a = ok(await recruiter.post(path, { name: 'Applied', type: 'applied' }));
  const c = ok(await recruiter.post(path, { name: 'Onsite', type: 'interview', sla_days: 5, criteria: [{ label: 'Pitch', key: 'pitch', weight: 2 }] }));
  const b = ok(await recruiter.post(path, { name: 'Call', type: 'screen', position: 1 }));
  const d = ok(await recruiter.post(path, { name: 'Hired', type: 'hired', position: 999 }));
  const names = async () => ok(await recruiter.get(path)).map((s: any) => `${s.position}:${s.name}`);
  t.deepEqual(await names(), ['0:Applied', '1:Call', '2:Onsite', '3:Hired']);
  const moved = ok(await recruiter.patch(`/ats/stages/${d.id}/position`, { position: 0 }));
  t.is(moved.stage.position, 0);
  t.deepEqual(await names(), ['0:Hired', '1:Applied', '2:Call', '3:Onsite']);
  ok(await recruiter.patch(`/ats/stages/${a.id}/position`, { position: 500 }));
  t.deepEqual(await names(), ['0:Hired', '1:Call', '2:Onsite', '3:Applied']);
  const badType = await recruiter.post(path, { name: 'X', type: 'party' });
  t.is(badType.status, 400);
  t.is((await recruiter.post(path, { name: 'X', type: 'screen', sla_days: 366 })).status, 400);
  // A job on the pipeline keeps it; an application keeps its stage.
  const job = await openJob({ pipeline_id: pipeline.id });
  const application = ok(await recruiter.post('/ats/applications', { candidate_id: (await newCandidate()).id, job_id: job.id }));
  t.is(application.stage_id, d.id, 'the first stage is the one at position 0');
  const occupied = await recruiter.delete(`/ats/stages/${d.id}`);
  t.deepEqual([occupied.status, occupied.body], [409, { error: `Stage ${d.id} holds 1 application(s); move them first` }]);
  ok(await recruiter.delete(`/ats/stages/${b.id}`));
  t.deepEqual(await names(), ['0:Hired', '1:Onsite', '2:Applied']);
  const used = await recruiter.delete(`/ats/pipelines/${pipeline.id}`);
  t.deepEqual([used.status, used.body], [409, { error: `Pipeline ${pipeline.id} is used by 1 job(s)` }]);
  t.is(c.criteria[0].key, 'pitch');
  const spare = ok(await recruiter.post('/ats/pipelines', { name: 'Spare' }));
  t.deepEqual(ok(await recruiter.delete(`/ats/pipelines/${spare.id}`)), { id: spare.id, deleted: true });
  t.is((await recruiter.get(`/ats/pipelines/${spare.id}`)).status, 404);
});

test.serial('candidates: tags are case-insensitive and idempotent, the timeline lists notes newest first, filters find them', async (t) => {
  const candidate = await newCandidate({ tags: ['Go', 'go', 'Rust'], linkedin: 'https://linkedin.com/in/x', links: { github: 'https://github.com/x' } });
  t.deepEqual(candidate.tags, ['Go', 'Rust']);
  t.deepEqual(candidate.links, { github: 'https://github.com/x', linkedin: 'https://linkedin.com/in/x' });
  world.takeEvents();
  t.deepEqual(ok(await recruiter.post(`/ats/candidates/${candidate.id}/tags`, { tag: 'GO' })).tags, ['Go', 'Rust']);
  t.deepEqual(world.takeEvents(), [], 'a tag already there emits nothing');
  t.deepEqual(ok(await recruiter.post(`/ats/candidates/${candidate.id}/tags`, { tag: 'Senior' })).tags, ['Go', 'Rust', 'Senior']);
  t.deepEqual(ok(await recruiter.delete(`/ats/candidates/${candidate.id}/tags/rust`)).tags, ['Go', 'Senior']);
  const missing = await recruiter.delete(`/ats/candidates/${candidate.id}/tags/Rust`);
  t.deepEqual([missing.status, missing.body], [404, { error: `Candidate ${candidate.id} has no tag Rust` }]);
  t.deepEqual(world.takeEvents().map((e) => [e.action, e.payload.tag]), [['core.ats.candidate.tagged', 'Senior'], ['core.ats.candidate.untagged', 'Rust']]);
  ok(await recruiter.post(`/ats/candidates/${candidate.id}/activities`, { content: 'First call went well' }));
  ok(await recruiter.post(`/ats/candidates/${candidate.id}/activities`, { content: 'Sent the take-home' }));
  const timeline = await recruiter.get(`/ats/candidates/${candidate.id}/activities`);
  t.deepEqual(timeline.body.data.map((a: any) => a.content), ['Sent the take-home', 'First call went well']);
  t.is(timeline.body.pagination.total, 2);
  t.is((await recruiter.post(`/ats/candidates/${candidate.id}/activities`, { content: '' })).status, 400);
  const foreign = await recruiter.post(`/ats/candidates/${candidate.id}/activities`, { content: 'x', application_id: '00000000-0000-4000-8000-000000000000' });
  t.is(foreign.status, 400);
  t.deepEqual(ok(await recruiter.get('/ats/candidates?tag=Senior')).map((c: any) => c.id), [candidate.id]);
  t.deepEqual(ok(await recruiter.get(`/ats/candidates?email=${encodeURIComponent(candidate.email.toUpperCase())}`)).map((c: any) => c.id), [candidate.id]);
  for (const payload of [{ name: 'A', email: 'not-an-email' }, { name: 'A', email: `${'a'.repeat(315)}@x.io` }, { name: 'A', email: 'a@b.co', source: 'referral' }, { name: 'A', email: 'a@b.co', linkedin: 'javascript:alert(1)' }]) {
    t.is((await recruiter.post('/ats/candidates', payload)).status, 400, JSON.stringify(payload).slice(0, 60));
  }
});

test.serial('resumes are kept in the platform storage and downloaded through the resume route', async (t) => {
  const upload = ok(await recruiter.post('/ats/resume-uploads', { filename: 'Ada CV.pdf', content_type: 'application/pdf' }));
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
  const put = await world.platform.follow(upload.upload.url, { method: 'PUT', body: pdf, headers: { 'content-type': 'application/pdf' } });
  t.is(put.status, 200);
  const candidate = await newCandidate({ resume: [{ key: upload.key, filename: 'Ada CV.pdf' }] });
  t.deepEqual(candidate.resume, [{ key: upload.key, filename: 'Ada CV.pdf', content_type: 'application/pdf', size_bytes: pdf.length }]);
  const resume = ok(await recruiter.get(`/ats/candidates/${candidate.id}/resume`));
  const file = await world.platform.follow(resume.url);
  t.is(file.status, 200);
  t.deepEqual(file.bytes, pdf);
  const none = await newCandidate();
  t.deepEqual((await recruiter.get(`/ats/candidates/${none.id}/resume`)).body, { error: `Candidate ${none.id} has no resume` });
  const fake = await recruiter.post('/ats/candidates', { name: 'F', email: 'f@example.com', resume: [{ key: 'resumes/nothing/x.pdf', filename: 'x.pdf' }] });
  t.deepEqual([fake.status, fake.body], [400, { error: 'resume[0].key resumes/nothing/x.pdf names no uploaded file' }]);
});

test.serial('applications: status operations follow the documented moves; moves need an active application; SLA overdue shows', async (t) => {
  const job = await openJob();
  const application = await apply(job.id);
  const path = `/ats/applications/${application.id}/status`;
  const reopen = await recruiter.patch(path, { status: 'reopen' });
  t.deepEqual([reopen.status, reopen.body], [409, { error: 'Cannot reopen an application in state active: reopen moves from rejected or withdrawn or on_hold to active' }]);
  t.is(ok(await recruiter.patch(path, { status: 'hold' })).status, 'on_hold');
  const stageWhileHeld = await recruiter.patch(`/ats/applications/${application.id}/stage`, { stage_id: application.stage_id });
  t.is(stageWhileHeld.status, 409);
  t.is(ok(await recruiter.patch(path, { status: 'reopen' })).status, 'active');
  const rejected = ok(await recruiter.patch(path, { status: 'reject', rejection_reason: 'Not enough experience' }));
  t.deepEqual([rejected.status, rejected.rejection_reason], ['rejected', 'Not enough experience']);
  t.is(ok(await recruiter.patch(path, { status: 'reopen' })).rejection_reason, null);
  t.is(ok(await recruiter.patch(path, { status: 'withdraw' })).status, 'withdrawn');
  const hireWithdrawn = await recruiter.patch(path, { status: 'hire' });
  t.deepEqual([hireWithdrawn.status, hireWithdrawn.body], [409, { error: 'Cannot hire an application in state withdrawn: hire moves from active to hired' }]);
  const again = await recruiter.post('/ats/applications', { candidate_id: application.candidate_id, job_id: job.id });
  t.deepEqual([again.status, again.body], [409, { error: `Candidate ${application.candidate_id} already applied to job ${job.id}` }]);
  const otherPipeline = ok(await recruiter.post('/ats/pipelines', { name: 'Elsewhere' }));
  const foreignStage = ok(await recruiter.post(`/ats/pipelines/${otherPipeline.id}/stages`, { name: 'Lost', type: 'screen' }));
  ok(await recruiter.patch(path, { status: 'reopen' }));
  const wrongStage = await recruiter.patch(`/ats/applications/${application.id}/stage`, { stage_id: foreignStage.id });
  t.deepEqual([wrongStage.status, wrongStage.body], [400, { error: `stage_id ${foreignStage.id} is not a stage of job ${job.id}'s pipeline` }]);
  // A closed job takes no applications.
  ok(await recruiter.patch(`/ats/jobs/${job.id}/status`, { status: 'closed' }));
  const closed = await recruiter.post('/ats/applications', { candidate_id: (await newCandidate()).id, job_id: job.id });
  t.deepEqual([closed.status, closed.body], [409, { error: `Job ${job.id} is closed; applications are taken while it is open` }]);
  const list = await recruiter.get(`/ats/applications?job_id=${job.id}`);
  t.is(list.body.pagination.total, 1);
  t.is(list.body.data[0].stage.name, 'Applied');
  t.false(list.body.data[0].sla_overdue);
  ok(await recruiter.delete(`/ats/applications/${application.id}`));
  t.is((await recruiter.get(`/ats/applications/${application.id}`)).status, 404);
  t.true(ok(await recruiter.get(`/ats/candidates/${application.candidate_id}/activities`)).length > 0, 'the timeline stays on the candidate');
});

test.serial('screening questions: a disqualifying answer rejects at once, a missing required answer is refused', async (t) => {
  const job = await openJob({ screening_questions: [{ text: 'Visa?', type: 'yes_no', key: 'visa', disqualify_on: ['no'], required: true }, { text: 'Level', type: 'single_select', key: 'level', options: ['junior', 'senior'] }] });
  const candidate = await newCandidate();
  const missing = await recruiter.post('/ats/applications', { candidate_id: candidate.id, job_id: job.id });
  t.deepEqual([missing.status, missing.body], [400, { error: 'answers.visa is required' }]);
  const badOption = await recruiter.post('/ats/applications', { candidate_id: candidate.id, job_id: job.id, answers: { visa: 'yes', level: 'mid' } });
  t.deepEqual([badOption.status, badOption.body], [400, { error: 'answers.level: mid is not one of its options' }]);
  const application = ok(await recruiter.post('/ats/applications', { candidate_id: candidate.id, job_id: job.id, answers: { visa: 'no' } }));
  t.deepEqual([application.status, application.rejection_reason], ['rejected', 'Disqualified by screening: visa']);
});

test.serial('interviews: cancelling keeps the interview (cancelled) and kills its link; a cancelled one cannot be scheduled', async (t) => {
  const job = await openJob();
  const application = await apply(job.id);
  const at = new Date(Date.now() + 2 * 86_400_000).toISOString();
  const interview = ok(await recruiter.post(`/ats/applications/${application.id}/interviews`, { scheduled_at: at }));
  t.deepEqual([interview.status, interview.title, interview.duration_minutes], ['scheduled', 'Applied', 60]);
  const moved = ok(await recruiter.patch(`/ats/interviews/${interview.id}/schedule`, { scheduled_at: new Date(Date.now() + 3 * 86_400_000).toISOString(), duration_minutes: 45, location: 'Room 2' }));
  t.deepEqual([moved.status, moved.duration_minutes, moved.location], ['scheduled', 45, 'Room 2']);
  const link = ok(await recruiter.post(`/ats/interviews/${interview.id}/self-schedule`, { slot_1: new Date(Date.now() + 4 * 86_400_000).toISOString() }));
  const past = await recruiter.post(`/ats/interviews/${interview.id}/self-schedule`, { slot_1: '2020-01-01T09:00:00Z' });
  t.deepEqual([past.status, past.body], [400, { error: 'slot_1: start must be in the future' }]);
  t.is((await recruiter.post(`/ats/interviews/${interview.id}/self-schedule`, {})).status, 400);
  t.is((await world.workspace.anonymous.get(link.link)).status, 200, 'a refused mint leaves the live link working');
  const cancelled = ok(await recruiter.delete(`/ats/interviews/${interview.id}`));
  t.is(cancelled.status, 'cancelled');
  t.false(cancelled.self_schedule_live);
  t.deepEqual((await world.workspace.anonymous.get(link.link)).body, { error: 'This scheduling link is no longer valid' });
  const read = ok(await recruiter.get(`/ats/applications/${application.id}`));
  t.deepEqual(read.interviews.map((i: any) => i.status), ['cancelled'], 'the calendar entry stays visible');
  const again = await recruiter.delete(`/ats/interviews/${interview.id}`);
  t.deepEqual([again.status, again.body], [409, { error: 'Cannot cancel an interview in state cancelled: cancel moves from requested or scheduled to cancelled' }]);
  const rescheduled = await recruiter.patch(`/ats/interviews/${interview.id}/schedule`, { scheduled_at: at });
  t.deepEqual([rescheduled.status, rescheduled.body], [409, { error: 'Cannot schedule an interview in state cancelled: schedule moves from requested or scheduled to scheduled' }]);
  const wrongSlot = await world.workspace.anonymous.post('/ats/self-schedule/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', { start: at });
  t.is(wrongSlot.status, 404);
});

test.serial('evaluations: the evaluator declines a request; ratings must cover the stage criteria; only the evaluator submits', async (t) => {
  const pipeline = ok(await recruiter.post('/ats/pipelines', { name: 'Scored' }));
  ok(await recruiter.post(`/ats/pipelines/${pipeline.id}/stages`, { name: 'Panel', type: 'interview', required_evaluations: 1, criteria: [{ label: 'Code', key: 'code' }, { label: 'Design', key: 'design' }] }));
  const job = await openJob({ pipeline_id: pipeline.id });
  const application = await apply(job.id);
  const evaluator = await world.member([]);
  const other = await world.member([]);
  const card = ok(await recruiter.post(`/ats/applications/${application.id}/evaluations`, { evaluator_mrn: evaluator.mrn }));
  const twice = await recruiter.post(`/ats/applications/${application.id}/evaluations`, { evaluator_mrn: evaluator.mrn });
  t.is(twice.status, 409);
  t.deepEqual((await other.post(`/ats/evaluations/${card.id}/submission`, { recommendation: 'yes' })).body, { error: 'Only the evaluator may submit this scorecard' });
  t.deepEqual((await other.get(`/ats/applications/${application.id}`)).body, { error: 'Missing permission: ats.applications.read' });
  const partial = await evaluator.post(`/ats/evaluations/${card.id}/submission`, { recommendation: 'yes', ratings: [{ key: 'code', rating: 3 }] });
  t.deepEqual([partial.status, partial.body], [400, { error: 'ratings: rate every criterion of the stage; missing design' }]);
  const unknown = await evaluator.post(`/ats/evaluations/${card.id}/submission`, { recommendation: 'yes', ratings: [{ key: 'charm', rating: 3 }] });
  t.regex(unknown.body.error, /ratings\[0\]\.key charm is not a criterion of the stage \(code, design\)/);
  t.is((await evaluator.post(`/ats/evaluations/${card.id}/submission`, { recommendation: 'yes', ratings: [{ key: 'code', rating: 5 }, { key: 'design', rating: 1 }] })).status, 400);
  t.is(ok(await evaluator.get(`/ats/applications/${application.id}`)).id, application.id, 'the evaluator reads the application they score');
  const declined = ok(await evaluator.delete(`/ats/evaluations/${card.id}`));
  const hired = ok(await recruiter.post(`/ats/pipelines/${pipeline.id}/stages`, { name: 'Done', type: 'hired' }));
  const blocked = await recruiter.patch(`/ats/applications/${application.id}/stage`, { stage_id: hired.id });
  t.deepEqual([blocked.status, blocked.body], [409, { error: 'Stage Panel needs 1 submitted scorecard(s) before the application moves on; it has 0' }]);
  t.is(declined.status, 'cancelled');
  t.deepEqual((await evaluator.post(`/ats/evaluations/${card.id}/submission`, { recommendation: 'yes' })).body, { error: 'Cannot submit a scorecard in state cancelled: submit moves from requested to submitted' });
  const second = ok(await recruiter.post(`/ats/applications/${application.id}/evaluations`, { evaluator_mrn: evaluator.mrn }));
  t.deepEqual((await other.delete(`/ats/evaluations/${second.id}`)).body, { error: 'Missing permission: ats.evaluations.cancel' });
  const done = ok(await evaluator.post(`/ats/evaluations/${second.id}/submission`, { recommendation: 'no', ratings: [{ key: 'code', rating: 2 }, { key: 'design', rating: 1, note: 'thin' }] }));
  t.deepEqual(done.ratings, [{ key: 'code', rating: 2 }, { key: 'design', rating: 1, note: 'thin' }]);
  t.is(ok(await recruiter.patch(`/ats/applications/${application.id}/stage`, { stage_id: hired.id })).stage_id, hired.id, 'one submitted scorecard lets it move on');
  const stays = await recruiter.delete(`/ats/evaluations/${second.id}`);
  t.deepEqual([stays.status, stays.body], [409, { error: 'Cannot cancel a scorecard in state submitted: cancel moves from requested to cancelled' }]);
  t.is(ok(await recruiter.get(`/ats/applications/${application.id}`)).evaluations[1].status, 'submitted');
});

test.serial('offers: exact decimals; approval needs ats.offers.approve; rescinded is final; one live offer per application', async (t) => {
  const job = await openJob();
  const application = await apply(job.id);
  const maker = await world.member(['ats.offers.create', 'ats.offers.edit']);
  const big = ok(await maker.post(`/ats/applications/${application.id}/offers`, { package: { base: '999999999999.99', currency: 'usd' } }));
  t.is(big.base, '999999999999.99');
  const second = await maker.post(`/ats/applications/${application.id}/offers`, { package: { base: 1 , currency: 'USD'} });
  t.deepEqual([second.status, second.body], [409, { error: `Application ${application.id} already has offer ${big.id} (draft); rescind it first` }]);
  for (const base of [-1, '1.234', 'ten']) t.is((await maker.post(`/ats/applications/${application.id}/offers`, { package: { base, currency: 'USD' } })).status, 400, String(base));
  ok(await maker.patch(`/ats/offers/${big.id}/status`, { status: 'approval' }));
  t.deepEqual((await maker.patch(`/ats/offers/${big.id}/status`, { status: 'approved' })).body, { error: 'Missing permission: ats.offers.approve' });
  t.is(ok(await maker.patch(`/ats/offers/${big.id}/status`, { status: 'rescinded', reason: 'Budget cut' })).status, 'rescinded');
  t.deepEqual((await maker.patch(`/ats/offers/${big.id}/status`, { status: 'draft' })).body, { error: 'Cannot move an offer from rescinded to draft: draft is reached from approval or approved' });
  const next = ok(await maker.post(`/ats/applications/${application.id}/offers`, { package: { base: 100000, currency: 'USD', period: 'year' } }));
  t.is(next.base, '100000.00');
});

test.serial('jobs: deleting one takes its applications along, but not a job with a hire', async (t) => {
  const job = await openJob();
  const application = await apply(job.id);
  ok(await recruiter.patch(`/ats/applications/${application.id}/status`, { status: 'hire' }));
  t.deepEqual((await recruiter.delete(`/ats/jobs/${job.id}`)).body, { error: `Job ${job.id} has 1 hire(s); close it instead` });
  const other = await openJob();
  const gone = await apply(other.id);
  t.deepEqual(ok(await recruiter.delete(`/ats/jobs/${other.id}`)), { id: other.id, deleted: true });
  t.is((await recruiter.get(`/ats/applications/${gone.id}`)).status, 404);
});

test.serial("erasure: a candidate's personal data goes, the hiring record stays, erasing twice is 409", async (t) => {
  const upload = ok(await recruiter.post('/ats/resume-uploads', { filename: 'cv.txt', content_type: 'text/plain' }));
  t.is((await world.platform.follow(upload.upload.url, { method: 'PUT', body: 'Ada, engineer', headers: { 'content-type': 'text/plain' } })).status, 200);
  const candidate = await newCandidate({ phone: '+44 20 7946 0000', headline: 'Engineer', tags: ['x'], resume: [{ key: upload.key, filename: 'cv.txt' }] });
  const job = await openJob();
  const application = ok(await recruiter.post('/ats/applications', { candidate_id: candidate.id, job_id: job.id }));
  ok(await recruiter.post(`/ats/candidates/${candidate.id}/activities`, { content: 'Lives in Leeds' }));
  world.takeEvents();
  const erased = ok(await recruiter.post(`/ats/candidates/${candidate.id}/erasure`));
  t.like(erased, { name: 'Erased candidate', email: `erased-${candidate.id}@erased.invalid`, phone: null, headline: null, tags: [], resume: [], links: {} });
  t.deepEqual(world.takeEvents(), [{ action: 'core.ats.candidate.erased', payload: { candidate_id: candidate.id, erased_by: recruiter.mrn } }]);
  t.deepEqual(ok(await recruiter.get(`/ats/candidates/${candidate.id}/activities?kind=note`)).map((a: any) => a.content), ['[erased]']);
  t.is(ok(await recruiter.get(`/ats/applications/${application.id}`)).status, 'active', 'the application stays');
  t.is((await recruiter.get(`/ats/candidates/${candidate.id}/resume`)).status, 404);
  t.is((await recruiter.post(`/ats/candidates/${candidate.id}/erasure`)).status, 409);
});

test.serial('time in stage and SLA: an active application past its stage’s sla_days reads as overdue', async (t) => {
  const pipeline = ok(await recruiter.post('/ats/pipelines', { name: 'Timed' }));
  ok(await recruiter.post(`/ats/pipelines/${pipeline.id}/stages`, { name: 'Review', type: 'applied', sla_days: 3 }));
  const job = await openJob({ pipeline_id: pipeline.id });
  const application = await apply(job.id);
  // Time in stage runs on the platform's clock (ctx.now()), which the harness moves.
  const read = async () => ok(await recruiter.get(`/ats/applications/${application.id}`));
  t.deepEqual([(await read()).days_in_stage, (await read()).sla_overdue], [0, false]);
  await world.platform.clock.advance({ days: 3, hours: 23 });
  t.deepEqual([(await read()).days_in_stage, (await read()).sla_overdue], [3, false], 'three days is within sla_days 3');
  await world.platform.clock.advance({ hours: 2 });
  const late = await read();
  t.deepEqual([late.days_in_stage, late.sla_overdue, late.stage.sla_days], [4, true, 3]);
  t.deepEqual(ok(await recruiter.get(`/ats/applications?job_id=${job.id}`)).map((row: any) => [row.days_in_stage, row.sla_overdue]), [[4, true]], 'lists read the same clock');
  ok(await recruiter.patch(`/ats/applications/${application.id}/status`, { status: 'hold' }));
  t.false(ok(await recruiter.get(`/ats/applications/${application.id}`)).sla_overdue, 'only an active application is overdue');
});

test.serial('concurrent requests: one candidate per email, and two last approvals open the job once', async (t) => {
  const answers = await Promise.all([1, 2, 3].map((n) => recruiter.post('/ats/candidates', { name: `Racer ${n}`, email: 'racer@example.com' })));
  t.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409, 409]);
  const [first, second] = [await world.member(['ats.jobs.approve']), await world.member(['ats.jobs.approve'])];
  const job = ok(await recruiter.post('/ats/jobs', { title: 'Raced', approvals: [{ approver_mrn: first.mrn }, { approver_mrn: second.mrn }] }));
  ok(await recruiter.patch(`/ats/jobs/${job.id}/status`, { status: 'approval' }));
  world.takeEvents();
  const decisions = await Promise.all([first, second].map((approver) => approver.post(`/ats/jobs/${job.id}/approvals`, { status: 'approved' })));
  t.deepEqual(decisions.map((answer) => answer.status), [200, 200]);
  t.is(ok(await recruiter.get(`/ats/jobs/${job.id}`)).status, 'open');
  t.deepEqual(world.takeEvents().filter((event) => event.action === 'core.ats.job.status_changed').map((event) => event.payload.to_status), ['open']);
});

test.serial('reads: job and pipeline lists filter and order as documented; a candidate reads as it was added', async (t) => {
  const job = ok(await recruiter.post('/ats/jobs', { title: 'Listed opening', salary_min: 50000, salary_max: 60000.5, salary_currency: 'eur' }));
  const listed = ok(await recruiter.get('/ats/jobs?q=listed%20open&status=draft'));
  t.deepEqual(listed.map((row: any) => [row.id, row.salary_min, row.salary_max, row.salary_currency, 'approvals' in row]), [[job.id, '50000.00', '60000.50', 'EUR', false]]);
  t.deepEqual(ok(await recruiter.get(`/ats/jobs?q=listed&status=open`)), []);
  const pipeline = ok(await recruiter.post('/ats/pipelines', { name: 'Aaa listed pipeline' }));
  const pipelines = ok(await recruiter.get('/ats/pipelines?per_page=100'));
  t.true(pipelines[0].is_default, 'the default pipeline comes first');
  t.true(pipelines.some((row: any) => row.id === pipeline.id && !('stages' in row)));
  const candidate = await newCandidate({ headline: 'Listed engineer', linkedin: 'https://linkedin.com/in/listed', tags: ['Go'] });
  const read = ok(await recruiter.get(`/ats/candidates/${candidate.id}`));
  t.deepEqual([read.id, read.headline, read.links, read.tags, 'search_vector' in read], [candidate.id, 'Listed engineer', { linkedin: 'https://linkedin.com/in/listed' }, ['Go'], false]);
});

test("GET /ats/me/permissions: the caller's own keys, sorted and expanded; without ats.jobs.read it is refused", async (t) => {
  const manager = await world.member(['ats.jobs.read', 'ats.applications.read', 'ats.candidates.read', 'ats.evaluations.create']);
  const mine = await manager.get('/ats/me/permissions');
  t.is(mine.status, 200);
  t.deepEqual(mine.body.data, { keys: ['ats.applications.read', 'ats.candidates.read', 'ats.evaluations.create', 'ats.jobs.read'] });
  const all = ok(await recruiter.get('/ats/me/permissions')).keys as string[];
  t.true(all.includes('ats.applications.move') && all.includes('ats.offers.approve') && all.every((key) => key.startsWith('ats.')));
  t.deepEqual(all, [...all].sort());
  const nobody = await world.member([]);
  const refused = await nobody.get('/ats/me/permissions');
  t.is(refused.status, 403);
  t.deepEqual(refused.body, { error: 'Missing permission: ats.jobs.read' });
});
