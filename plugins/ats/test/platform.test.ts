import test from 'ava';
import manifest from '../app.json' with { type: 'json' };
import { checkMatrixRows, ok } from '@wpk/testing';
import { atsWorld } from './helpers/world.js';

const world = await atsWorld('atsplatform');
const recruiter = await world.member(['ats.*']);
test.after.always(async () => world.close());

test.serial('the permission matrix: every route refuses a member without its keys with the exact 403, and admits one holding them', async (t) => {
  const rows = await world.workspace.permissionMatrix('ats', { params: { tag: 'go', token: 'x' } });
  t.is(rows.length, manifest.authorization.length);
  t.deepEqual(rows.filter((row) => row.skipped || row.note).map((row) => row.route).sort(), [
    'DELETE /ats/evaluations/{evaluation_id}', 'GET /ats/applications/{application_id}', 'GET /ats/careers', 'GET /ats/careers/embeds/{embed_id}', 'GET /ats/careers/jobs/{job_id}', 'GET /ats/self-schedule/{token}',
    'POST /ats/careers/jobs/{job_id}/applications', 'POST /ats/evaluations/{evaluation_id}/submission', 'POST /ats/self-schedule/{token}',
  ]);
  checkMatrixRows(t, rows.filter((candidate) => !candidate.note && !candidate.skipped));
});

test.serial('matches rank candidates against the job text inside PostgreSQL, nearest first; they need ats.candidates.view', async (t) => {
  const job = ok(await recruiter.post('/ats/jobs', { title: 'Rust engineer', description: 'Systems programming in Rust; PostgreSQL internals; Kubernetes operations.', location: 'Lisbon' }));
  const best = ok(await recruiter.post('/ats/candidates', { name: 'Best', email: 'best@example.com', headline: 'Rust systems engineer', location: 'Lisbon', tags: ['postgresql', 'kubernetes'] }));
  const good = ok(await recruiter.post('/ats/candidates', { name: 'Good', email: 'good@example.com', headline: 'Rust programmer' }));
  ok(await recruiter.post('/ats/candidates', { name: 'None', email: 'none@example.com', headline: 'Pastry chef', tags: ['baking'] }));
  const answer = await recruiter.get(`/ats/jobs/${job.id}/matches`);
  t.is(answer.status, 200);
  t.deepEqual(answer.body.data.map((row: any) => row.candidate_id), [best.id, good.id]);
  t.true(answer.body.data[0].score > answer.body.data[1].score);
  t.is(answer.body.pagination.total, 2);
  const reader = await world.member(['ats.candidates.read', 'ats.jobs.read']);
  t.deepEqual((await reader.get(`/ats/jobs/${job.id}/matches`)).body, { error: 'Missing permission: ats.candidates.view' });
  t.is((await recruiter.get('/ats/jobs/00000000-0000-4000-8000-000000000000/matches')).status, 404);
});

test.serial('member references: a random id, another workspace\'s member and a removed member are refused naming the field, nothing written; a newcomer is accepted; a referrer may have left', async (t) => {
  const job = ok(await recruiter.post('/ats/jobs', { title: 'Member checks' }));
  ok(await recruiter.patch(`/ats/jobs/${job.id}/status`, { status: 'open' }));
  const pipeline = ok(await recruiter.post('/ats/pipelines', { name: 'Member checks' }));
  const candidate = ok(await recruiter.post('/ats/candidates', { name: 'Mia Check', email: 'mia.check@example.com' }));
  const application = ok(await recruiter.post('/ats/applications', { candidate_id: candidate.id, job_id: job.id }));
  const other = await world.otherWorkspace('atselsewhere');
  const leaver = await world.member([]);
  t.is((await world.owner.delete(`/members/${leaver.id}`)).status, 200);
  const stranger = 'mrn:account:member:00000000-0000-4000-8000-000000000abc';
  // Each field that names a member, with the request that carries it.
  const fields: Array<[string, (mrn: string) => Promise<{ status: number; body: any }>]> = [
    ['hiring_manager_mrn', (mrn) => recruiter.post('/ats/jobs', { title: 'Refused', hiring_manager_mrn: mrn })],
    ['recruiter_mrn', (mrn) => recruiter.post('/ats/jobs', { title: 'Refused', recruiter_mrn: mrn })],
    ['hiring_team[].member_mrn', (mrn) => recruiter.post('/ats/jobs', { title: 'Refused', hiring_team: [{ member_mrn: mrn, role: 'interviewer' }] })],
    ['approvals[].approver_mrn', (mrn) => recruiter.post('/ats/jobs', { title: 'Refused', approvals: [{ approver_mrn: mrn }] })],
    ['default_interviewers', (mrn) => recruiter.post(`/ats/pipelines/${pipeline.id}/stages`, { name: 'Refused', type: 'interview', default_interviewers: [recruiter.mrn, mrn] })],
    ['owner_mrn', (mrn) => recruiter.post('/ats/candidates', { name: 'Refused', email: 'refused-owner@example.com', owner_mrn: mrn })],
    ['panel[].member_mrn', (mrn) => recruiter.post(`/ats/applications/${application.id}/interviews`, { title: 'Refused', panel: [{ member_mrn: mrn }] })],
    ['evaluator_mrn', (mrn) => recruiter.post(`/ats/applications/${application.id}/evaluations`, { evaluator_mrn: mrn })],
  ];
  world.takeEvents();
  const before = await world.query("SELECT (SELECT count(*)::int FROM app_ats.jobs WHERE title = 'Refused') AS jobs, (SELECT count(*)::int FROM app_ats.stages WHERE name = 'Refused') AS stages, (SELECT count(*)::int FROM app_ats.candidates WHERE name = 'Refused') AS candidates, (SELECT count(*)::int FROM app_ats.interviews WHERE title = 'Refused') AS interviews, (SELECT count(*)::int FROM app_ats.evaluations) AS evaluations");
  for (const [field, send] of fields) {
    for (const [mrn, why] of [[stranger, 'is not a member of this workspace'], [other.owner.mrn, 'is not a member of this workspace'], [leaver.mrn, 'is no longer a member of this workspace']]) {
      const answer = await send(mrn);
      t.deepEqual([answer.status, answer.body], [400, { error: `${field} ${mrn} ${why}` }], `${field} ${mrn}`);
    }
  }
  const referrer = await recruiter.post('/ats/candidates', { name: 'Refused', email: 'refused-referral@example.com', source: 'referral', referrer_mrn: stranger });
  t.deepEqual([referrer.status, referrer.body], [400, { error: `referrer_mrn ${stranger} is not a member of this workspace` }]);
  t.deepEqual(world.takeEvents(), [], 'no refused request emitted anything');
  t.deepEqual(await world.query("SELECT (SELECT count(*)::int FROM app_ats.jobs WHERE title = 'Refused') AS jobs, (SELECT count(*)::int FROM app_ats.stages WHERE name = 'Refused') AS stages, (SELECT count(*)::int FROM app_ats.candidates WHERE name = 'Refused') AS candidates, (SELECT count(*)::int FROM app_ats.interviews WHERE title = 'Refused') AS interviews, (SELECT count(*)::int FROM app_ats.evaluations) AS evaluations"), before);

  // A referral made by someone who has since left is still a referral.
  const referred = ok(await recruiter.post('/ats/candidates', { name: 'Rex Referred', email: 'rex@example.com', source: 'referral', referrer_mrn: leaver.mrn }));
  t.is(referred.referrer_mrn, leaver.mrn);

  // A member who joined a moment ago is accepted in every field; one who left and came back, again too.
  const newcomer = await world.member([]);
  const staffed = ok(await recruiter.post('/ats/jobs', { title: 'Staffed', hiring_manager_mrn: newcomer.mrn, recruiter_mrn: newcomer.mrn, hiring_team: [{ member_mrn: newcomer.mrn, role: 'coordinator' }], approvals: [{ approver_mrn: newcomer.mrn }] }));
  t.deepEqual([staffed.hiring_manager_mrn, staffed.approvals.map((a: any) => a.approver_mrn)], [newcomer.mrn, [newcomer.mrn]]);
  const stage = ok(await recruiter.post(`/ats/pipelines/${pipeline.id}/stages`, { name: 'Panel', type: 'interview', default_interviewers: [newcomer.mrn] }));
  t.deepEqual(stage.default_interviewers, [newcomer.mrn]);
  t.is(ok(await recruiter.post('/ats/candidates', { name: 'Owned', email: 'owned@example.com', owner_mrn: newcomer.mrn })).owner_mrn, newcomer.mrn);
  t.deepEqual(ok(await recruiter.post(`/ats/applications/${application.id}/interviews`, { panel: [{ member_mrn: newcomer.mrn }] })).panel, [{ member_mrn: newcomer.mrn, role: 'interviewer' }]);
  t.is(ok(await recruiter.post(`/ats/applications/${application.id}/evaluations`, { evaluator_mrn: newcomer.mrn })).evaluator_mrn, newcomer.mrn);
  const back = await world.member([], { email: leaver.email });
  t.is(back.id, leaver.id, 'the same member, rejoined');
  t.is(ok(await recruiter.post('/ats/jobs', { title: 'Panel', approvals: [{ approver_mrn: leaver.mrn }] })).approvals[0].approver_mrn, leaver.mrn);

  // A stage's default interviewer who has left since is refused when an interview takes the defaults.
  const scorer = await world.member([]);
  const defaults = ok(await recruiter.post('/ats/pipelines', { name: 'Defaults' }));
  const first = ok(await recruiter.post(`/ats/pipelines/${defaults.id}/stages`, { name: 'Screen', type: 'screen', default_interviewers: [scorer.mrn] }));
  const screened = ok(await recruiter.post('/ats/jobs', { title: 'Screened', pipeline_id: defaults.id }));
  ok(await recruiter.patch(`/ats/jobs/${screened.id}/status`, { status: 'open' }));
  const screening = ok(await recruiter.post('/ats/applications', { candidate_id: candidate.id, job_id: screened.id }));
  t.is(screening.stage_id, first.id);
  t.is((await world.owner.delete(`/members/${scorer.id}`)).status, 200);
  const stale = await recruiter.post(`/ats/applications/${screening.id}/interviews`, {});
  t.deepEqual([stale.status, stale.body], [400, { error: `panel (stage Screen's default interviewers) ${scorer.mrn} is no longer a member of this workspace` }]);
});

test.serial('migration 0003 drops the copy of the members (member_directory); down (with 0004 above it) re-creates it empty, up drops it again; 0004 makes the copy of the competencies', async (t) => {
  const present = async (table: string) => (await world.query<{ name: string | null }>('SELECT to_regclass(:table)::text AS name', { table }))[0]!.name;
  t.deepEqual([await present('app_ats.member_directory'), await present('app_ats.competencies')], [null, 'app_ats.competencies']);
  t.deepEqual(await world.migrateAppDown('0004-competency-copy'), ['0004-competency-copy'], '0004 is taken down alone');
  t.is(await present('app_ats.competencies'), null, 'down drops the copy of the competencies');
  t.deepEqual(await world.migrateAppUp(), ['0004-competency-copy'], '0004 runs again alone');
  t.deepEqual(await world.migrateAppDown('0003-drop-member-directory'), ['0004-competency-copy', '0003-drop-member-directory'], 'down to 0003 takes 0004 and 0003 down');
  t.is(await present('app_ats.member_directory'), 'app_ats.member_directory', 'down re-creates member_directory');
  t.deepEqual(await world.query('SELECT * FROM app_ats.member_directory'), [], 'member_directory comes back empty');
  t.deepEqual(await world.migrateAppUp(), ['0003-drop-member-directory', '0004-competency-copy']);
  t.deepEqual([await present('app_ats.member_directory'), await present('app_ats.competencies')], [null, 'app_ats.competencies'], 'member_directory is dropped again, the copy of the competencies is back');
  t.deepEqual(await world.query('SELECT * FROM app_ats.competencies'), [], 'the copy comes back empty');
});

test.serial('search: candidates, jobs and applications are indexed with the change and re-indexed from scratch', async (t) => {
  const before = world.platform.search.length;
  const job = ok(await recruiter.post('/ats/jobs', { title: 'Searchable job', location: 'Oslo' }));
  ok(await recruiter.patch(`/ats/jobs/${job.id}/status`, { status: 'open' }));
  const candidate = ok(await recruiter.post('/ats/candidates', { name: 'Sam Search', email: 'sam@example.com', headline: 'Designer' }));
  const application = ok(await recruiter.post('/ats/applications', { candidate_id: candidate.id, job_id: job.id }));
  const changes = world.platform.search.slice(before).map((change) => (change.op === 'upsert' ? `${change.document.type} ${change.document.title} | ${change.document.subtitle}` : `remove ${change.type}`));
  t.deepEqual(changes, ['job Searchable job | Job · draft', 'job Searchable job | Job · open', 'candidate Sam Search | Designer', 'application Sam Search — Searchable job | Application · active']);
  const last = world.platform.search.at(-1)!;
  t.deepEqual(last.op === 'upsert' && last.document, { type: 'application', id: application.id, title: 'Sam Search — Searchable job', subtitle: 'Application · active', url: `/ats/applications/${application.id}`, names: ['Sam Search'], details: ['Searchable job'], filters: { status: 'active', job_id: job.id } });
  const reindexed = await world.platform.runtime.reindexSearch({ app: 'ats', workspaceId: world.workspace.id });
  t.deepEqual(reindexed.map((row) => row.type).sort(), ['application', 'candidate', 'job']);
});

test.serial('every table can be distributed by workspace, and the migration goes down and up again', async (t) => {
  t.deepEqual(await world.platform.distributionProblems(), []);
  t.deepEqual(await world.platform.migrateDown('ats'), ['0004-competency-copy', '0003-drop-member-directory', '0002-candidate-messages', '0001-create-recruiting-tables']);
  t.deepEqual(await world.platform.migrateUp('ats'), ['0001-create-recruiting-tables', '0002-candidate-messages', '0003-drop-member-directory', '0004-competency-copy']);
});

test.serial('templates: merge fields are checked, names are unique, delete removes', async (t) => {
  const template = ok(await recruiter.post('/ats/templates', { name: 'Rejection', kind: 'rejection', subject: 'Your application for {{job_title}}', body_html: '<p>Dear {{ candidate_first_name }},</p>' }));
  const clash = await recruiter.post('/ats/templates', { name: 'rejection' });
  t.deepEqual([clash.status, clash.body], [409, { error: 'A template named rejection already exists' }]);
  const unknown = await recruiter.post('/ats/templates', { name: 'Bad', body_html: 'Hi {{salary}}' });
  t.deepEqual([unknown.status, unknown.body.error.startsWith('body_html: {{salary}} is not a merge field')], [400, true]);
  t.deepEqual(ok(await recruiter.get('/ats/templates?kind=rejection')).map((row: any) => row.name), ['Rejection']);
  t.deepEqual(ok(await recruiter.delete(`/ats/templates/${template.id}`)), { id: template.id, deleted: true });
  t.is((await recruiter.delete(`/ats/templates/${template.id}`)).status, 404);
});

test.serial('the careers page lists open public jobs; the apply form creates the candidate (de-duplicated) and the application', async (t) => {
  const visible = ok(await recruiter.post('/ats/jobs', { title: 'Barista', location: 'Porto', salary_min: 20000, salary_max: 25000, salary_currency: 'EUR', salary_visible: true, screening_questions: [{ text: 'Weekends?', type: 'yes_no', key: 'weekends', required: true, disqualify_on: ['no'] }] }));
  const internal = ok(await recruiter.post('/ats/jobs', { title: 'Internal only', careers_visibility: 'internal' }));
  for (const job of [visible, internal]) ok(await recruiter.patch(`/ats/jobs/${job.id}/status`, { status: 'open' }));
  const anonymous = world.workspace.anonymous;
  const page = ok(await anonymous.get('/ats/careers'));
  const barista = page.jobs.find((job: any) => job.id === visible.id);
  t.truthy(barista);
  t.false(page.jobs.some((job: any) => job.id === internal.id));
  t.deepEqual(barista.salary, { min: '20000.00', max: '25000.00', currency: 'EUR' });
  t.deepEqual(barista.questions, [{ text: 'Weekends?', type: 'yes_no', key: 'weekends', html: undefined, options: undefined, required: true }].map((q) => JSON.parse(JSON.stringify(q))));
  t.is((await anonymous.get(`/ats/careers/jobs/${internal.id}`)).status, 404);
  world.takeEvents();
  const applied = ok(await anonymous.post(`/ats/careers/jobs/${visible.id}/applications`, { name: 'Walk In', email: 'walkin@example.com', answers: { weekends: 'yes' } }));
  t.deepEqual([applied.job_title, applied.received], ['Barista', true]);
  t.deepEqual(world.takeEvents().map((e) => e.action), ['core.ats.candidate.created', 'core.ats.application.created']);
  const twice = await anonymous.post(`/ats/careers/jobs/${visible.id}/applications`, { name: 'Walk In', email: 'WALKIN@example.com', answers: { weekends: 'yes' } });
  t.deepEqual([twice.status, twice.body], [409, { error: 'You already applied to this job' }]);
  const missing = await anonymous.post(`/ats/careers/jobs/${visible.id}/applications`, { name: 'No Answer', email: 'no-answer@example.com' });
  t.deepEqual([missing.status, missing.body], [400, { error: 'answers.weekends is required' }]);
  t.is(ok(await recruiter.get('/ats/candidates?email=no-answer@example.com')).length, 0, 'a refused application leaves no candidate');
  const application = ok(await recruiter.get(`/ats/applications/${applied.application_id}`));
  t.deepEqual([application.source, application.status, application.screening_answers], ['careers_page', 'active', { weekends: 'yes' }]);
  const script = await world.workspace.anonymous.get('/public/apps/ats/careers.js');
  t.is(script.status, 200, JSON.stringify(script.body));
});

test.serial('careers embeds: the snippet feeds the jobs; retiring is for good', async (t) => {
  const embed = ok(await recruiter.post('/ats/settings/embeds', { name: 'Porto site', location: 'Porto' }));
  t.is(embed.snippet, `<div data-wpk-careers="${embed.id}"></div><script src="/public/apps/ats/careers.js" data-embed="${embed.id}" async></script>`);
  const feed = ok(await world.workspace.anonymous.get(embed.feed));
  t.deepEqual(feed.jobs.map((job: any) => job.title), ['Barista']);
  const retired = ok(await recruiter.delete(`/ats/settings/embeds/${embed.id}`));
  t.deepEqual([retired.status, retired.snippet], ['retired', null]);
  t.deepEqual((await world.workspace.anonymous.get(embed.feed)).body, { error: 'This careers embed does not exist or was retired' });
  t.deepEqual((await recruiter.delete(`/ats/settings/embeds/${embed.id}`)).body, { error: 'Cannot retire an embed in state retired: retire moves from active to retired' });
  t.deepEqual(ok(await recruiter.get('/ats/settings/embeds')).map((row: any) => row.status), ['retired']);
});

test.serial('the apply form is rate limited per client address and per job, counted atomically: 429 with Retry-After, and nothing written', async (t) => {
  const job = ok(await recruiter.post('/ats/jobs', { title: 'Popular', screening_questions: [{ text: 'Why?', type: 'short_text', key: 'why', required: true }] }));
  ok(await recruiter.patch(`/ats/jobs/${job.id}/status`, { status: 'open' }));
  const path = `/ats/careers/jobs/${job.id}/applications`;
  world.takeEvents();
  // 30 concurrent submissions from one address: exactly the bound's 20 are served (each a 400,
  // the required answer is missing, so nothing is written), the other 10 are refused.
  const burst = await Promise.all(Array.from({ length: 30 }, (_, n) => world.postFrom('203.0.113.7', path, { name: `Bot ${n}`, email: `bot${n}@example.com` })));
  t.deepEqual(burst.map((answer) => answer.status).sort(), [...Array(20).fill(400), ...Array(10).fill(429)]);
  const refused = burst.find((answer) => answer.status === 429)!;
  t.deepEqual(refused.body, { error: 'Too many applications from your address; try again later' });
  const retryAfter = Number(refused.headers['retry-after']);
  t.true(retryAfter > 3590 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
  const blocked = await world.postFrom('203.0.113.7', path, { name: 'Real', email: 'real-blocked@example.com', answers: { why: 'I like it' } });
  t.is(blocked.status, 429, 'a valid submission from the address is refused too');
  t.is(ok(await recruiter.get('/ats/candidates?email=real-blocked@example.com')).length, 0, 'a refused submission writes nothing');
  t.deepEqual(world.takeEvents(), []);
  // Another address is not held back; malformed bodies (400 before the handler) are not counted.
  for (let n = 0; n < 25; n++) t.is((await world.postFrom('203.0.113.8', path, { name: '' })).status, 400);
  const other = await world.postFrom('203.0.113.8', path, { name: 'Other', email: 'other-address@example.com', answers: { why: 'Because' } });
  t.is(other.status, 200, JSON.stringify(other.body));
  // The window slides with the platform's clock: an hour later the first address may apply again.
  await world.platform.clock.advance({ hours: 1, seconds: 1 });
  t.is((await world.postFrom('203.0.113.7', path, { name: 'Later', email: 'later@example.com', answers: { why: 'Again' } })).status, 200);
});

test.serial('the per-job bound holds across addresses; the addresses it refused keep their own allowance', async (t) => {
  // A job id that names no open job: each counted submission answers 404 at once (the bound counts
  // submissions to the id, found or not), so 300 of them stay cheap.
  const path = '/ats/careers/jobs/00000000-0000-4000-8000-00000000ab1e/applications';
  const answers = [];
  for (let batch = 0; batch < 16; batch++) {
    answers.push(...(await Promise.all(Array.from({ length: 19 }, () => world.postFrom(`198.51.100.${batch + 1}`, path, { name: 'Flood', email: 'flood@example.com' })))));
  }
  const statuses = answers.map((answer) => answer.status);
  t.is(statuses.filter((status) => status === 404).length, 300);
  t.is(statuses.filter((status) => status === 429).length, 4);
  t.deepEqual(answers.find((answer) => answer.status === 429)!.body, { error: 'This job is receiving too many applications right now; try again later' });
  // 198.51.100.16 was refused by the job's bound 4 times; those were taken back from its own count,
  // so it may still apply to another job 20 - 15 = 5 times.
  const job = ok(await recruiter.post('/ats/jobs', { title: 'Quiet' }));
  ok(await recruiter.patch(`/ats/jobs/${job.id}/status`, { status: 'open' }));
  const quiet = [];
  for (let n = 0; n < 6; n++) quiet.push((await world.postFrom('198.51.100.16', `/ats/careers/jobs/${job.id}/applications`, { name: `Q ${n}`, email: `quiet${n}@example.com` })).status);
  t.deepEqual(quiet, [200, 200, 200, 200, 200, 429]);
});
