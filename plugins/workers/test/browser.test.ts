/**
 * The Workers app's front-end in Chromium, through the real routes: a person signs in, opens
 * Workers from the launcher (the shell hosts the app's sandboxed frame), adds a worker under a
 * manager (the server's refusal of a taken work e-mail shows on its field), moves them along the
 * lifecycle, gives them a contract, ticks an item of their onboarding checklist, and sees them under their manager in the org chart; adds a department and an offboarding checklist
 * template; at 1280 px
 * and at 375 px, axe-clean (no serious or critical violation) in the shell and in the frame, no
 * Content-Security-Policy violation, nothing wider than the window. The screenshots are the ones
 * docs/apps/workers.md shows.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld } from '@wpk/testing';
import { browseWorld, checkPage, dismissToasts, saveScreenshot, type WorldBrowser } from '@wpk/testing/browser';

const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));

let web: WorldBrowser;
let boss: Record<string, any>;

test.before(async () => {
  web = await browseWorld(startWorld({ app: fileURLToPath(new URL('..', import.meta.url)), subdomain: 'acme', listen: true }), { link: 'Workers', slug: 'workers', ready: 'workers-list' });
  const { owner } = web.world;
  const engineering = ok(await owner.request('POST', '/workers/departments', { name: 'Engineering' }));
  ok(await owner.request('POST', '/workers/checklist-templates', { kind: 'onboarding', name: 'Welcome', items: [{ label: 'Laptop' }, { label: 'Account', confirmed_by: 'member_linked' }] }));
  boss = ok(await owner.request('POST', '/workers', { name: 'Grace Boss', work_email: 'grace@acme.test', title: 'CTO', department_id: engineering.id }));
  ok(await owner.request('POST', '/workers', { name: 'Alan Peer', work_email: 'alan@acme.test', title: 'Architect', manager_id: boss.id }));
});

test.after.always(() => web?.close());

test.serial('at 1280 px: add a worker under a manager, move them along, and see them in the org chart', async (t) => {
  const { page, frame } = await web.openApp(1280);
  const table = frame.getByRole('table', { name: "The workspace's workers" });
  await table.getByRole('link', { name: 'Grace Boss' }).waitFor();
  await checkPage(t, page, frame, 'the directory');

  await frame.getByRole('link', { name: 'New worker' }).first().click();
  await page.waitForURL(`${web.origin}/app/workers/new`);
  await frame.getByLabel('Name').fill('Ada Lovelace');
  await frame.getByLabel('Work e-mail').fill('GRACE@acme.test');
  await frame.getByLabel('Title').fill('Engineer');
  await frame.locator('wa-select[name="manager_id"]').click();
  await frame.getByRole('option', { name: 'Grace Boss' }).click();
  await frame.getByRole('button', { name: 'Add worker' }).click();
  const email = frame.locator('wa-input[name="work_email"]');
  await email.getByText(`Worker ${boss.id} (Grace Boss) already has the work e-mail grace@acme.test`).waitFor();
  t.is(await email.getAttribute('aria-invalid'), 'true');
  await checkPage(t, page, frame, 'the form with a refusal on a field');

  await frame.getByLabel('Work e-mail').fill('ada@acme.test');
  await frame.getByRole('button', { name: 'Add worker' }).click();
  await page.waitForURL(/\/app\/workers\/workers\/[0-9a-f-]+$/);
  await frame.getByRole('heading', { name: 'Ada Lovelace', exact: true, level: 1 }).waitFor();
  await frame.getByRole('link', { name: 'Grace Boss' }).waitFor();
  await frame.getByRole('button', { name: 'Finish onboarding' }).click();
  await frame.getByRole('button', { name: 'Start offboarding' }).waitFor();
  const ada = (await web.world.owner.request('GET', '/workers?q=ada')).body.data[0];
  t.like(ada, { name: 'Ada Lovelace', work_email: 'ada@acme.test', title: 'Engineer', manager_id: boss.id, status: 'active' });
  await frame.getByText('No contract yet.').waitFor();
  await frame.getByText('Add a contract').click();
  await frame.locator('wa-select[name="contract_type"]').click();
  await frame.getByRole('option', { name: 'Fixed term' }).click();
  await frame.getByLabel('Starts on').fill('2027-01-01');
  await frame.getByLabel('Ends on').fill('2027-12-31');
  await frame.getByLabel('Hours per week').fill('37.5');
  await frame.getByRole('button', { name: 'Add contract' }).click();
  await frame.getByRole('list', { name: 'Contracts' }).getByText('Fixed term: 2027-01-01 to 2027-12-31 · 37.5 h a week').waitFor();
  t.like((await web.world.owner.request('GET', `/workers/${ada.id}/contracts`)).body.data[0], { contract_type: 'fixed_term', starts_on: '2027-01-01', ends_on: '2027-12-31', hours_per_week: 37.5 });
  const welcome = frame.getByRole('region', { name: 'Checklist Welcome' });
  await welcome.getByText('(onboarding, 2 missing)').waitFor();
  await welcome.locator('wa-checkbox').filter({ hasText: 'Laptop' }).click();
  await welcome.getByText('(onboarding, 1 missing)').waitFor();
  t.deepEqual(((await web.world.owner.request('GET', `/workers/${ada.id}/checklists`)).body.data[0].missing), ['Account']);
  await checkPage(t, page, frame, 'a worker');

  await frame.getByRole('link', { name: 'Org chart' }).click();
  await page.waitForURL(`${web.origin}/app/workers/org-chart`);
  const chart = frame.getByRole('list', { name: 'Org chart' });
  await chart.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
  const reports = chart.getByRole('listitem').filter({ has: frame.getByRole('link', { name: 'Grace Boss' }) }).getByRole('list', { name: 'Reports' });
  t.deepEqual(await reports.getByRole('link').allTextContents(), ['Ada Lovelace', 'Alan Peer']);
  await checkPage(t, page, frame, 'the org chart');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}workers-org-chart-1280.png`);

  await frame.getByRole('link', { name: 'Departments' }).click();
  await frame.getByRole('list', { name: 'Departments' }).getByText('Engineering').waitFor();
  await frame.getByLabel('Name').fill('Platform');
  await frame.locator('wa-select[name="parent_id"]').click();
  await frame.getByRole('option', { name: 'Engineering' }).click();
  await frame.getByRole('button', { name: 'Add department' }).click();
  await frame.getByRole('list', { name: 'Departments' }).getByText('Platform').waitFor();
  t.deepEqual(((await web.world.owner.request('GET', '/workers/departments')).body.data as any[]).map((d) => [d.name, d.parent_id !== null]), [['Engineering', false], ['Platform', true]]);
  await checkPage(t, page, frame, 'the departments');

  await frame.getByRole('link', { name: 'Checklists' }).click();
  await frame.getByRole('region', { name: 'Template Welcome' }).waitFor();
  await frame.locator('wa-select[name="kind"]').click();
  await frame.getByRole('option', { name: 'Offboarding' }).click();
  await frame.getByLabel('Name').fill('Leaving');
  await frame.getByLabel('Items, one per line').fill('Return the laptop\nExit interview');
  await frame.locator('wa-checkbox').filter({ hasText: /^Files handed over/ }).click();
  await frame.getByRole('button', { name: 'Add template' }).click();
  await frame.getByRole('region', { name: 'Template Leaving' }).waitFor();
  const leaving = ((await web.world.owner.request('GET', '/workers/checklist-templates?kind=offboarding')).body.data as any[])[0];
  t.deepEqual(leaving.items, [{ label: 'Return the laptop' }, { label: 'Exit interview' }, { label: 'Files handed over', confirmed_by: 'files_transferred' }]);
  await checkPage(t, page, frame, 'the checklist templates');
  await page.context().close();
});

test.serial('at 1280 px: import workers from a CSV file: the check lists every bad cell, nothing is imported until the file is fixed', async (t) => {
  const { page, frame } = await web.openApp(1280);
  await frame.getByRole('navigation', { name: 'Workers' }).getByRole('link', { name: 'Import' }).click();
  await page.waitForURL(`${web.origin}/app/workers/import`);
  const bad = 'name,work_email,department,start_date\nMary Sommerville,mary@acme.test,Engineering,2027-01-04\n,grace@acme.test,Nowhere,tomorrow\n';
  await frame.getByLabel('CSV file').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
  await frame.getByRole('button', { name: 'Check' }).click();
  const problems = frame.getByRole('table', { name: 'Problems by line of the file' });
  await problems.waitFor();
  t.deepEqual(await problems.locator('tbody tr td:first-child').allTextContents(), ['3', '3', '3', '3']);
  t.true(await frame.getByRole('button', { name: 'Import' }).isDisabled());
  await checkPage(t, page, frame, 'the import check with problems');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}workers-import-1280.png`);
  t.is(((await web.world.owner.request('GET', '/workers?q=Sommerville')).body.data as unknown[]).length, 0);

  const good = 'name,work_email,department,start_date\nMary Sommerville,mary@acme.test,Engineering,2027-01-04\nEmmy Noether,emmy@acme.test,,\n';
  await frame.getByLabel('CSV file').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(good) });
  await frame.getByRole('button', { name: 'Check' }).click();
  await frame.getByText('All 2 rows can be imported.').waitFor();
  await frame.getByRole('button', { name: 'Import' }).click();
  await frame.getByText('2 workers imported.').waitFor();
  const imported = (await web.world.owner.request('GET', '/workers?q=acme.test&per_page=100')).body.data as Array<{ name: string; status: string }>;
  t.deepEqual(imported.filter((worker) => ['Mary Sommerville', 'Emmy Noether'].includes(worker.name)).map((worker) => [worker.name, worker.status]).sort(), [['Emmy Noether', 'onboarding'], ['Mary Sommerville', 'onboarding']]);
  await page.context().close();
});

test.serial('at 375 px: the directory and the org chart read on a phone', async (t) => {
  const { page, frame } = await web.openApp(375);
  await frame.getByRole('table', { name: "The workspace's workers" }).getByRole('link', { name: 'Ada Lovelace' }).waitFor();
  await checkPage(t, page, frame, 'the directory at 375 px');
  await saveScreenshot(page, `${IMAGES}workers-directory-375.png`);
  await frame.getByRole('link', { name: 'Org chart' }).click();
  await frame.getByRole('list', { name: 'Org chart' }).getByRole('link', { name: 'Ada Lovelace' }).waitFor();
  await checkPage(t, page, frame, 'the org chart at 375 px');
  await page.context().close();
});
