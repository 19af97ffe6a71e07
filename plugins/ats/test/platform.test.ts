import test from 'ava';
import manifest from '../app.json' with { type: 'json' };
import { ok, startWorld, type Caller, type World } from './helpers/world.js';

let world: World;
let recruiter: Caller;

test.before(async () => {
  world = await startWorld('atsplatform');
  recruiter = await world.member(['ats.*']);
});
test.after.always(async () => world?.close());

test.serial('the permission matrix: every route refuses a member without its keys with the exact 403, and admits one holding them', async (t) => {
  const rows = await world.workspace.permissionMatrix('ats', { params: { tag: 'go', token: 'x' } });
  t.is(rows.length, manifest.authorization.length);
  t.deepEqual(rows.filter((row) => row.skipped || row.note).map((row) => row.route).sort(), [
    'DELETE /ats/evaluations/{evaluation_id}', 'GET /ats/applications/{application_id}', 'GET /ats/self-schedule/{token}',
    'POST /ats/evaluations/{evaluation_id}/submission', 'POST /ats/self-schedule/{token}',
  ]);
  for (const row of rows.filter((candidate) => !candidate.note && !candidate.skipped)) {
    t.deepEqual(row.without, { status: 403, body: { error: `Missing permission: ${row.keys[0]}` } }, row.route);
    t.not(row.with!.status, 403, row.route);
  }
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

test.serial('the members copy follows the events: a removed member cannot sit on a panel, be asked for a scorecard or approve', async (t) => {
  const leaver = await world.member([]);
  const memberId = leaver.id;
  await world.deliver('core.account.member.removed', { member_id: memberId, removed_by: world.owner.id });
  await world.deliver('core.account.member.removed', { member_id: memberId, removed_by: world.owner.id });
  const refused = await recruiter.post('/ats/jobs', { title: 'Panel', approvals: [{ approver_mrn: leaver.mrn }] });
  t.deepEqual([refused.status, refused.body], [400, { error: `approvals[0].approver_mrn ${leaver.mrn} is no longer a member of this workspace` }]);
  await world.deliver('system.workspace.member.added', { member_id: memberId, role: 'member' });
  t.is((await recruiter.post('/ats/jobs', { title: 'Panel', approvals: [{ approver_mrn: leaver.mrn }] })).status, 200);
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
  t.deepEqual(await world.platform.migrateDown('ats'), ['0001-create-recruiting-tables']);
  t.deepEqual(await world.platform.migrateUp('ats'), ['0001-create-recruiting-tables']);
});
