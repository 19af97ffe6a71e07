import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type TestMember, type World } from '@wpk/testing';
import app from '../src/index.js';

let world: World;
/** A Settings location, delivered to the app's copy before the tests. */
const HQ = '0c0c0c0c-0000-4000-8000-00000000a001';
const HQ_MRN = `mrn:settings:location:${HQ}`;
let hr: TestMember;

test.before(async () => {
  world = await startWorld({ app, subdomain: 'workerscsv', apps: [fileURLToPath(new URL('../../settings', import.meta.url))], firstParty: ['workers', 'settings'] });
  hr = await world.member(['workers.workers.read', 'workers.workers.create', 'workers.departments.create']);
  ok(await hr.post('/workers/departments', { name: 'Engineering' }));
  ok(await hr.post('/workers', { name: 'Grace Boss', work_email: 'grace@example.test', title: 'CTO' }));
  await world.deliver('core.settings.location.created', { location_id: HQ, mrn: HQ_MRN, name: 'Headquarters', timezone: 'Europe/London', address: {}, revision: 1, created_by: HQ });
});
test.after.always(() => world?.close());

const count = async () => (await world.query<{ n: number }>('SELECT count(*)::int AS n FROM app_workers.workers WHERE workspace_id = :id', { id: world.workspaceId }))[0].n;

const BAD = [
  'name,work_email,title,department,manager_email,start_date,employment_type,location_mrn',
  `Ada Lovelace,ada@example.test,Engineer,engineering,grace@example.test,2027-01-04,full_time,${HQ_MRN}`,
  ',not-an-email,,Marketing,nobody@example.test,2027-02-30,slave,somewhere',
  'Alan Turing,ADA@example.test,,,,,,mrn:settings:location:00000000-0000-4000-8000-000000000abc',
  '"Quoted, Name",quoted@example.test,"Says ""hi""",,ada@example.test,,intern,',
].join('\r\n');

test.serial('a dry run reports every bad cell by line and column and writes nothing; a real import of the same file is a 400 and writes nothing', async (t) => {
  world.takeEvents();
  const before = await count();
  const dry = ok(await hr.post('/workers/imports', { csv: BAD, dry_run: true }));
  t.deepEqual(dry, {
    dry_run: true,
    rows: 4,
    valid: false,
    imported: 0,
    problems: [
      { line: 3, field: 'name', error: 'is required' },
      { line: 3, field: 'work_email', error: 'must be an e-mail address (got "not-an-email")' },
      { line: 3, field: 'department', error: 'Marketing is not a department of this workspace' },
      { line: 3, field: 'manager_email', error: 'nobody@example.test is the work e-mail of no worker (in the workspace or above in the file)' },
      { line: 3, field: 'location_mrn', error: 'must be a settings location MRN: mrn:settings:location: and its id' },
      { line: 3, field: 'start_date', error: 'must be a day as YYYY-MM-DD (got 2027-02-30)' },
      { line: 3, field: 'employment_type', error: 'must be one of full_time, part_time, contractor, intern' },
      { line: 4, field: 'work_email', error: 'ADA@example.test is already the work e-mail of a worker (in the workspace or above in the file)' },
      { line: 4, field: 'location_mrn', error: 'mrn:settings:location:00000000-0000-4000-8000-000000000abc is no location of the Settings app' },
    ],
  });
  const real = await hr.post('/workers/imports', { csv: BAD });
  t.deepEqual([real.status, real.body], [400, { error: 'csv line 3, name: is required (and 8 more problem(s): a dry run lists every one); nothing was imported', field: 'csv' }]);
  t.is(await count(), before);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('a valid file imports every row in order (managers by work e-mail, above in the file too), one worker.hired each; the export reads back the same', async (t) => {
  world.takeEvents();
  const good = BAD.split('\r\n').filter((_, index) => index !== 2 && index !== 3).join('\r\n');
  const dry = ok(await hr.post('/workers/imports', { csv: good, dry_run: true }));
  t.deepEqual(dry, { dry_run: true, rows: 2, valid: true, problems: [], imported: 0 });
  t.deepEqual(world.takeEvents(), []);
  const done = ok(await hr.post('/workers/imports', { csv: good }));
  t.deepEqual(done, { dry_run: false, rows: 2, valid: true, problems: [], imported: 2 });
  t.deepEqual(world.takeEvents().map((e) => [e.action, e.payload.name]), [['core.workers.worker.hired', 'Ada Lovelace'], ['core.workers.worker.hired', 'Quoted, Name']]);
  const exported = await hr.get('/workers/export');
  t.is(exported.status, 200);
  t.regex(String(exported.headers['content-type']), /^text\/csv/);
  const ada = ok(await hr.get('/workers?q=ada@example.test'))[0];
  t.is(String(exported.body), [
    'name,work_email,title,department,manager_email,location_mrn,start_date,employment_type,status',
    `Ada Lovelace,ada@example.test,Engineer,Engineering,grace@example.test,${HQ_MRN},2027-01-04,full_time,onboarding`,
    'Grace Boss,grace@example.test,CTO,,,,,full_time,onboarding',
    '"Quoted, Name",quoted@example.test,"Says ""hi""",,ada@example.test,,,intern,onboarding',
    '',
  ].join('\r\n'));
  t.is(ok(await hr.get('/workers?q=quoted')).at(0).manager_id, ada.id);
  const again = ok(await hr.post('/workers/imports', { csv: String(exported.body), dry_run: true }));
  t.deepEqual(again.problems.map((p: any) => [p.line, p.field]), [[2, 'work_email'], [3, 'work_email'], [4, 'work_email']], 'the export re-imported finds every worker already there');
});

test.serial('a file that is no CSV, or has an unknown column, is refused naming it', async (t) => {
  const open = await hr.post('/workers/imports', { csv: 'name,work_email\n"open,x@example.test\n' });
  t.deepEqual([open.status, open.body], [400, { error: 'csv: line 2: a quoted field is not closed', field: 'csv' }]);
  const unknown = ok(await hr.post('/workers/imports', { csv: 'name,work_email,salary\nA,a@example.test,1\n', dry_run: true }));
  t.deepEqual(unknown.problems, [{ line: 1, field: 'salary', error: 'unknown column; the columns are name, work_email, title, department, manager_email, location_mrn, start_date, employment_type, status' }]);
});
