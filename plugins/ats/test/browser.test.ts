/**
 * The public pages in a real browser (headless Chromium through playwright-core): the job board,
 * a job's page, the apply form, and the candidate's self-schedule page, served by the platform
 * listening on a loopback port (`{workspace}.localhost`, which Chromium resolves to 127.0.0.1;
 * the harness's `listen: true`),
 * each page checked with axe (no serious or critical violation). The pages are app HTML, so they
 * run sandboxed (an opaque origin, docs/ui.md): each is also checked for CSP violations.
 *
 * Then the recruiter's front-end (`plugins/ats/ui`) in the shell: a recruiter opens Recruiting
 * from the launcher, opens a job, moves an applicant to the next stage with the card's button,
 * sees the refusal of a move the stage does not allow yet (its scorecard is missing), opens the
 * application, submits the scorecard and then moves it on; the API is read after each step. At
 * 1280 and 375 px, checkPage-clean; the screenshots are the ones docs/apps/ats.md shows.
 */
import test, { type ExecutionContext } from 'ava';
import { fileURLToPath } from 'node:url';
import { accessibilityViolations, browseWorld, checkPage, cspViolations, dismissToasts, saveScreenshot, type Page, type WorldBrowser } from '@wpk/testing/browser';
import { ok, type TestMember } from '@wpk/testing';
import { atsWorld, type AtsWorld } from './helpers/world.js';

let web: WorldBrowser<AtsWorld>;
let world: AtsWorld;
let recruiter: TestMember;
let origin: string;
let barista: { id: string };

test.before(async () => {
  web = await browseWorld(atsWorld('atsweb', { listen: true }), { link: 'Recruiting', slug: 'ats', ready: 'ats-jobs' });
  ({ world, origin } = web);
  recruiter = await world.member(['ats.*']);
  barista = ok(await recruiter.post('/ats/jobs', {
    title: 'Barista', description: 'Coffee, people and latte art.', location: 'Porto', workplace_type: 'on_site', salary_min: 20000, salary_max: 25000, salary_currency: 'EUR', salary_visible: true,
    screening_questions: [{ text: 'Can you work weekends?', type: 'yes_no', key: 'weekends', required: true, disqualify_on: ['no'] }],
  }));
  const hidden = ok(await recruiter.post('/ats/jobs', { title: 'Secret project', careers_visibility: 'internal' }));
  for (const job of [barista, hidden]) ok(await recruiter.patch(`/ats/jobs/${job.id}/status`, { status: 'open' }));
});
test.after.always(() => web?.close());

const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));

async function accessible(t: ExecutionContext, page: Page, label: string): Promise<void> {
  // A submitting click resolves when the next document commits, before it has a head for the script.
  await page.waitForLoadState('load');
  t.deepEqual(await cspViolations(page), [], `CSP on ${label}`);
  t.deepEqual(await accessibilityViolations(page), [], `axe on ${label}`);
}

function newPage(width = 1280): Promise<Page> {
  return web.newPage(width, async (context) => context.setDefaultTimeout(10_000));
}

test.serial('the job board lists the open public jobs; a job page shows one job; the apply form creates the candidate and the application', async (t) => {
  const page = await newPage(375);
  await page.goto(`${origin}/public/apps/ats/careers.html`);
  await page.getByRole('heading', { level: 1, name: 'Careers at atsweb workspace' }).waitFor();
  const titles = await page.getByRole('heading', { level: 2 }).allTextContents();
  t.deepEqual(titles, ['Barista']);
  t.is(await page.locator(`article[data-job="${barista.id}"] .salary`).textContent(), '20000.00 – 25000.00 EUR');
  await accessible(t, page, 'the job board');
  t.true(await page.evaluate<boolean>('document.documentElement.scrollWidth <= document.documentElement.clientWidth'), 'nothing overflows a phone-width window');

  // The job page, reached from the board's link.
  await page.getByRole('link', { name: 'Barista' }).click();
  await page.getByRole('heading', { level: 1, name: 'Barista' }).waitFor();
  t.is(new URL(page.url()).search, `?job=${barista.id}`);
  t.is(await page.locator('.description').textContent(), 'Coffee, people and latte art.');
  await accessible(t, page, 'the job page');

  // The browser's own check stops a form without its required answer; then the real submission.
  await page.getByLabel('Full name *').fill('Walk In');
  await page.getByLabel('Email *').fill('walk.in@example.com');
  await page.getByRole('button', { name: 'Apply' }).click();
  t.false(await page.evaluate<boolean>("document.querySelector('select[name=weekends]').validity.valid"), 'the required question stops the form');
  await page.getByLabel('Can you work weekends? *').selectOption('yes');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByRole('status').filter({ hasText: 'Thank you' }).waitFor();
  t.is(await page.getByRole('status').textContent(), 'Thank you, your application for Barista was received.');
  t.true(await page.getByRole('button', { name: 'Apply' }).isDisabled());
  const [candidate] = ok(await recruiter.get('/ats/candidates?email=walk.in@example.com'));
  t.deepEqual([candidate.name, candidate.source], ['Walk In', 'careers_page']);
  const [application] = ok(await recruiter.get(`/ats/applications?candidate_id=${candidate.id}`));
  t.deepEqual([application.job_id, application.status, application.screening_answers], [barista.id, 'active', { weekends: 'yes' }]);

  // Applying again shows the platform's answer in the page.
  await page.reload();
  await page.getByLabel('Full name *').fill('Walk In');
  await page.getByLabel('Email *').fill('WALK.IN@example.com');
  await page.getByLabel('Can you work weekends? *').selectOption('yes');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByRole('status').filter({ hasText: 'already' }).waitFor();
  t.is(await page.getByRole('status').textContent(), 'You already applied to this job');
  await page.context().close();
});

test.serial('the board opens the apply form in place; an unknown job page says so', async (t) => {
  const page = await newPage();
  await page.goto(`${origin}/public/apps/ats/careers.html`);
  await page.getByRole('button', { name: 'Apply for Barista' }).click();
  await page.getByLabel('Full name *').fill('Board Applicant');
  await page.getByLabel('Email *').fill('board@example.com');
  await page.getByLabel('Can you work weekends? *').selectOption('no');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByRole('status').filter({ hasText: 'Thank you' }).waitFor();
  const [candidate] = ok(await recruiter.get('/ats/candidates?email=board@example.com'));
  const [application] = ok(await recruiter.get(`/ats/applications?candidate_id=${candidate.id}`));
  t.deepEqual([application.status, application.rejection_reason], ['rejected', 'Disqualified by screening: weekends'], 'the disqualifying answer is judged as through the API');
  await page.goto(`${origin}/public/apps/ats/careers.html?job=00000000-0000-4000-8000-000000000000`);
  await page.getByRole('alert').waitFor();
  t.is(await page.getByRole('alert').textContent(), 'Job 00000000-0000-4000-8000-000000000000 is not on the careers page');
  await page.context().close();
});

test.serial('the self-schedule page offers the slots; the pick schedules the interview and spends the link', async (t) => {
  const [candidate] = ok(await recruiter.get('/ats/candidates?email=walk.in@example.com'));
  const [application] = ok(await recruiter.get(`/ats/applications?candidate_id=${candidate.id}`));
  const interview = ok(await recruiter.post(`/ats/applications/${application.id}/interviews`, { title: 'Trial shift', location: 'Rua das Flores 1', instructions: 'Bring an apron.' }));
  const day = (n: number) => new Date(Date.UTC(2031, 0, n, 10)).toISOString();
  const stale = ok(await recruiter.post(`/ats/interviews/${interview.id}/self-schedule`, { slot_1: day(6) }));
  const link = ok(await recruiter.post(`/ats/interviews/${interview.id}/self-schedule`, { slot_1: day(7), slot_2: day(8), duration_minutes: 30 }));
  const page = await newPage(375);
  await page.goto(`${origin}${stale.page}`);
  await page.getByRole('alert').waitFor();
  t.is(await page.getByRole('alert').textContent(), 'This scheduling link is no longer valid', 'the replaced link stops working');
  await page.goto(`${origin}${link.page}`);
  await page.getByRole('heading', { level: 1, name: 'Trial shift — Barista at atsweb workspace' }).waitFor();
  t.is(await page.getByText('Hello Walk In', { exact: false }).textContent(), 'Hello Walk In, please pick one time (30 minutes).');
  const slots = page.locator('.slots button');
  t.deepEqual(await page.evaluate<string[]>("[...document.querySelectorAll('.slots button')].map((button) => button.getAttribute('data-start'))"), [day(7), day(8)]);
  await accessible(t, page, 'the self-schedule page');
  await slots.nth(1).click();
  await page.getByRole('status').waitFor();
  t.regex((await page.getByRole('status').textContent())!, /^Booked: .+\. See you then!$/);
  const read = ok(await recruiter.get(`/ats/applications/${application.id}`));
  t.deepEqual(read.interviews.map((row: any) => [row.status, row.scheduled_at, row.duration_minutes]), [['scheduled', day(8), 30]]);
  await page.reload();
  await page.getByRole('alert').waitFor();
  t.is(await page.getByRole('alert').textContent(), 'This scheduling link is no longer valid', 'a used link is spent');
  await page.context().close();
});

/** The recruiter's front-end: a job on a pipeline whose Interview stage needs one scorecard before an application moves on. */
async function hiringJob() {
  const pipeline = ok(await recruiter.post('/ats/pipelines', { name: 'Engineering' }));
  const stage = async (body: object) => ok(await recruiter.post(`/ats/pipelines/${pipeline.id}/stages`, body));
  const applied = await stage({ name: 'Applied', type: 'applied' });
  const screen = await stage({ name: 'Phone screen', type: 'screen' });
  const interview = await stage({ name: 'Interview', type: 'interview', required_evaluations: 1, criteria: [{ label: 'Communication', key: 'communication' }, { label: 'TypeScript', key: 'typescript' }] });
  const offer = await stage({ name: 'Offer', type: 'offer' });
  await stage({ name: 'Hired', type: 'hired' });
  const job = ok(await recruiter.post('/ats/jobs', { title: 'Platform Engineer', description: 'TypeScript and PostgreSQL.', location: 'Lisbon', pipeline_id: pipeline.id, salary_currency: 'EUR' }));
  ok(await recruiter.patch(`/ats/jobs/${job.id}/status`, { status: 'open' }));
  const apply = async (name: string, email: string, stageId: string, headline: string) => {
    const candidate = ok(await recruiter.post('/ats/candidates', { name, email, headline, tags: ['typescript'], source: 'sourced' }));
    return ok(await recruiter.post('/ats/applications', { candidate_id: candidate.id, job_id: job.id, stage_id: stageId }));
  };
  const ada = await apply('Ada Lovelace', 'ada@example.com', screen.id, 'Analytical engines');
  const grace = await apply('Grace Hopper', 'grace@example.com', interview.id, 'Compilers and COBOL');
  const linus = await apply('Linus Torvalds', 'linus@example.com', applied.id, 'Kernels');
  const scorecard = ok(await recruiter.post(`/ats/applications/${grace.id}/evaluations`, { evaluator_mrn: recruiter.mrn }));
  return { job, applied, screen, interview, offer, ada, grace, linus, scorecard };
}

let hiring: Awaited<ReturnType<typeof hiringJob>>;
const stageOf = async (applicationId: string) => ok(await recruiter.get(`/ats/applications/${applicationId}`)).stage_id as string;

test.serial('at 1280 px: a recruiter opens a job from the launcher, moves an applicant on, sees a refused move, submits the scorecard on the application and then moves it', async (t) => {
  hiring = await hiringJob();
  const { page, frame } = await web.openApp(1280, { email: recruiter.email });
  await frame.getByRole('list', { name: 'Jobs' }).getByRole('link', { name: 'Platform Engineer' }).click();
  await page.waitForURL(`${origin}/app/ats/jobs/${hiring.job.id}`);
  const screen = frame.getByRole('region', { name: 'Phone screen' });
  await screen.getByRole('article', { name: 'Ada Lovelace' }).waitFor();
  await checkPage(t, page, frame, 'the board');

  // The card's button moves Ada to the next stage.
  await frame.getByRole('button', { name: 'Move Ada Lovelace to Interview' }).click();
  await frame.getByRole('status').getByText('Ada Lovelace moved to Interview').waitFor();
  t.is(await stageOf(hiring.ada.id), hiring.interview.id);
  await frame.getByRole('region', { name: 'Interview' }).getByRole('article', { name: 'Ada Lovelace' }).waitFor();
  t.is(await screen.getByRole('article').count(), 0);

  // Grace's move needs the Interview stage's scorecard first: refused, said on her card, and she stays.
  await frame.getByRole('button', { name: 'Move Grace Hopper to Offer' }).click();
  const refusal = frame.getByRole('article', { name: 'Grace Hopper' }).getByRole('alert');
  await refusal.waitFor();
  t.is(await refusal.textContent(), 'Not moved to Offer: Stage Interview needs 1 submitted scorecard(s) before the application moves on; it has 0');
  t.is(await stageOf(hiring.grace.id), hiring.interview.id);
  await checkPage(t, page, frame, 'the board with a refused move');
  await saveScreenshot(page, `${IMAGES}ats-board-1280.png`);

  // Her application: the profile, and the scorecard asked of the recruiter, one rating per criterion.
  await frame.getByRole('link', { name: 'Grace Hopper' }).click();
  await page.waitForURL(`${origin}/app/ats/applications/${hiring.grace.id}`);
  await frame.getByRole('heading', { level: 1, name: 'Grace Hopper' }).waitFor();
  t.true((await frame.getByRole('region', { name: 'Profile' }).textContent())!.includes('grace@example.com'));
  const form = frame.getByRole('form', { name: 'Your scorecard' });
  await form.getByLabel('Communication').selectOption({ label: '4 · Strong' });
  await form.getByLabel('TypeScript').selectOption({ label: '3 · Good' });
  await form.getByLabel('Recommendation').selectOption({ label: 'Strong yes' });
  await form.getByLabel('Notes').fill('Clear and precise.');
  await checkPage(t, page, frame, 'the application with the scorecard filled in');
  await form.getByRole('button', { name: 'Submit scorecard' }).click();
  const scorecards = frame.getByRole('list', { name: 'Scorecards' });
  await scorecards.getByText('Submitted', { exact: true }).waitFor();
  t.is(await frame.getByRole('form', { name: 'Your scorecard' }).count(), 0);
  const read = ok(await recruiter.get(`/ats/applications/${hiring.grace.id}`));
  t.like(read.evaluations[0], { id: hiring.scorecard.id, status: 'submitted', recommendation: 'strong_yes', notes: 'Clear and precise.', ratings: [{ key: 'communication', rating: 4 }, { key: 'typescript', rating: 3 }] });
  t.true((await scorecards.textContent())!.includes('Recommends: Strong yes'));
  await checkPage(t, page, frame, 'the application');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}ats-application-1280.png`);

  // Back on the board, the move now goes through.
  await frame.getByRole('link', { name: '← Platform Engineer' }).click();
  await frame.getByRole('button', { name: 'Move Grace Hopper to Offer' }).click();
  await frame.getByRole('status').getByText('Grace Hopper moved to Offer').waitFor();
  t.is(await stageOf(hiring.grace.id), hiring.offer.id);
  await page.context().close();
});

test.serial('at 375 px: the board reads on a phone and an applicant still moves with the card\'s button', async (t) => {
  const { page, frame } = await web.openApp(375, { email: recruiter.email });
  await frame.getByRole('link', { name: 'Platform Engineer' }).click();
  await frame.getByRole('button', { name: 'Move Linus Torvalds to Phone screen' }).click();
  await frame.getByRole('status').getByText('Linus Torvalds moved to Phone screen').waitFor();
  t.is(await stageOf(hiring.linus.id), hiring.screen.id);
  await checkPage(t, page, frame, 'the board at 375 px');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}ats-board-375.png`);
  await page.context().close();
});

test.serial('at 1280 px: a hiring manager who may read but not move sees the board and the application without the moves and forms their keys refuse; the server refuses the move anyway', async (t) => {
  const manager = await world.member(['ats.jobs.read', 'ats.pipelines.read', 'ats.applications.read', 'ats.candidates.read'], { name: 'Hana Manager' });
  const { page, frame } = await web.openApp(1280, { email: manager.email });
  await frame.getByRole('link', { name: 'Platform Engineer' }).click();
  const card = frame.getByRole('article', { name: 'Linus Torvalds' });
  await card.waitFor();
  t.is(await frame.getByRole('region', { name: 'Phone screen' }).getByRole('article').count(), 1);
  t.is(await frame.getByRole('button', { name: /^Move / }).count(), 0, 'no move is offered');
  await checkPage(t, page, frame, "the hiring manager's board");
  await card.getByRole('link', { name: 'Linus Torvalds' }).click();
  await frame.getByRole('heading', { level: 1, name: 'Linus Torvalds' }).waitFor();
  await frame.getByRole('heading', { level: 2, name: 'Offers' }).waitFor();
  t.true((await frame.getByRole('region', { name: 'Profile' }).textContent())!.includes('linus@example.com'));
  t.is(await frame.getByRole('form').count(), 0, 'no interview, offer or scorecard form');
  await checkPage(t, page, frame, "the hiring manager's application");
  const refused = await manager.patch(`/ats/applications/${hiring.linus.id}/stage`, { stage_id: hiring.interview.id });
  t.is(refused.status, 403);
  t.deepEqual(refused.body, { error: 'Missing permission: ats.applications.move' });
  t.is(await stageOf(hiring.linus.id), hiring.screen.id);
  await page.context().close();
});

test.serial('at 1280 px: the recruiter asks a colleague for a scorecard, moves an offer from draft to sent, puts Linus on hold, rejects him with a reason and hires Grace', async (t) => {
  const rita = await world.member(['ats.*'], { name: 'Rita Reviewer' });
  const { page, frame } = await web.openApp(1280, { email: recruiter.email });
  await frame.getByRole('link', { name: 'Platform Engineer' }).click();
  await frame.getByRole('article', { name: 'Grace Hopper' }).getByRole('link', { name: 'Grace Hopper' }).click();
  await frame.getByRole('heading', { level: 1, name: 'Grace Hopper' }).waitFor();

  // A scorecard asked of Rita, chosen in the shell's member picker, for the stage Grace is in.
  await frame.getByRole('button', { name: 'Ask for a scorecard' }).click();
  const picker = page.locator('wpk-member-picker-dialog');
  await picker.getByLabel(/Rita Reviewer/).check();
  await picker.getByRole('button', { name: 'Choose' }).click();
  await frame.getByRole('list', { name: 'Scorecards' }).getByRole('listitem').filter({ hasText: 'Requested' }).waitFor();
  const asked = ok(await recruiter.get(`/ats/applications/${hiring.grace.id}`)).evaluations as Array<{ evaluator_mrn: string; status: string; stage_id: string }>;
  t.deepEqual(asked.map((evaluation) => [evaluation.evaluator_mrn, evaluation.status, evaluation.stage_id]), [[recruiter.mrn, 'submitted', hiring.interview.id], [rita.mrn, 'requested', hiring.offer.id]]);
  // The scorecard names its evaluator by MRN: the kit's chip reads the member directory (members are no search records).
  const evaluator = frame.getByRole('list', { name: 'Scorecards' }).getByRole('listitem').filter({ hasText: 'Requested' }).locator('wpk-mrn-chip');
  await evaluator.locator('.wpk-record:not([aria-busy])').waitFor();
  t.is(await evaluator.evaluate((chip) => chip.shadowRoot!.textContent!.trim()), 'Member Rita Reviewer');

  // An offer drafted, then sent for approval, approved and sent, one button at a time.
  const offerForm = frame.getByRole('form', { name: 'Make an offer' });
  await offerForm.getByLabel('Base salary').fill('120000.00');
  await offerForm.getByLabel('Currency').fill('EUR');
  await offerForm.getByRole('button', { name: 'Make the offer' }).click();
  const offers = frame.getByRole('list', { name: 'Offers' });
  for (const [button, shown] of [['Send for approval', 'Waiting for approval'], ['Approve', 'Approved'], ['Mark as sent', 'Sent']]) {
    await offers.getByRole('button', { name: button }).click();
    await offers.getByText(shown, { exact: true }).waitFor();
  }
  const [offer] = ok(await recruiter.get(`/ats/applications/${hiring.grace.id}`)).offers as Array<{ status: string; base: string; currency: string }>;
  t.like(offer, { status: 'sent', base: '120000.00', currency: 'EUR' });
  t.deepEqual(await offers.getByRole('button').allTextContents(), ['Rescind']);
  await checkPage(t, page, frame, 'the application with a sent offer');

  // Hired: the decision's buttons give way to the status.
  await frame.getByRole('form', { name: 'Decision' }).getByRole('button', { name: 'Hire' }).click();
  await frame.getByRole('form', { name: 'Decision' }).waitFor({ state: 'detached' });
  t.is(ok(await recruiter.get(`/ats/applications/${hiring.grace.id}`)).status, 'hired');

  // Linus: on hold, then rejected with a reason the application keeps.
  await frame.getByRole('link', { name: '← Platform Engineer' }).click();
  await frame.getByRole('article', { name: 'Linus Torvalds' }).getByRole('link', { name: 'Linus Torvalds' }).click();
  await frame.getByRole('heading', { level: 1, name: 'Linus Torvalds' }).waitFor();
  const decision = frame.getByRole('form', { name: 'Decision' });
  await decision.getByRole('button', { name: 'Put on hold' }).click();
  await decision.getByRole('button', { name: 'Reopen' }).waitFor();
  t.deepEqual(await decision.getByRole('button').allTextContents(), ['Reject', 'Mark as withdrawn', 'Reopen']);
  await decision.getByLabel(/Reason for a rejection/).fill('Chose a candidate closer to the team.');
  await decision.getByRole('button', { name: 'Reject' }).click();
  await frame.getByText('Rejected: Chose a candidate closer to the team.').waitFor();
  t.like(ok(await recruiter.get(`/ats/applications/${hiring.linus.id}`)), { status: 'rejected', rejection_reason: 'Chose a candidate closer to the team.' });
  t.deepEqual(await decision.getByRole('button').allTextContents(), ['Reopen']);
  await checkPage(t, page, frame, 'a rejected application');
  await page.context().close();
});
