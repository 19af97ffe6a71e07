/**
 * The CRM app's front-end in Chromium, through the real routes: a sales rep opens CRM from the
 * launcher, sees the pipeline board, moves a deal to the next stage from the keyboard (Alt+→ on
 * its focused card) and then with its Stage list, opens the deal with its lines and drafts a
 * quote, whose PDF it downloads. At 1280 px and at 375 px, axe-clean (no serious or critical violation) in the shell and
 * in the frame, no Content-Security-Policy violation, nothing wider than the window. The
 * screenshots are the ones docs/apps/crm.md shows.
 */
import test from 'ava';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { API_VERSION, ok, startWorld, type TestMember } from '@wpk/testing';
import { accessibilityViolations, browseWorld, checkPage, cspViolations, dismissToasts, saveScreenshot, type WorldBrowser } from '@wpk/testing/browser';

const IMAGES = fileURLToPath(new URL('../../../docs/apps/images/', import.meta.url));
const KEYS = ['crm.activities.read', 'crm.pipelines.read', 'crm.deals.read', 'crm.deals.edit', 'crm.quotes.read', 'crm.quotes.edit', 'crm.leads.read', 'crm.leads.edit', 'crm.products.read'];

let web: WorldBrowser;
let rita: TestMember;
const ids: Record<string, string> = {};
let stages: Array<{ id: string; name: string }> = [];

test.before(async () => {
  web = await browseWorld(startWorld({ app: fileURLToPath(new URL('..', import.meta.url)), apps: [fileURLToPath(new URL('../../tasks', import.meta.url))], subdomain: 'acme', listen: true, clock: new Date('2026-05-20T09:00:00.000Z') }), { link: 'CRM', slug: 'crm', ready: 'crm-board' });
  const { world } = web;
  rita = await world.member(KEYS, { name: 'Rita Rep' });
  const pipeline = ok(await world.owner.post('/crm/pipelines', { name: 'Sales', stages: [{ name: 'Qualified', probability: 20, sla_days: 7 }, { name: 'Proposal', probability: 50 }, { name: 'Negotiation', probability: 80 }] }));
  stages = pipeline.stages;
  const widget = ok(await world.owner.post('/crm/products', { name: 'Widget', sku: 'W-1', unit_price: '1250.00', currency: 'EUR' })).id;
  const support = ok(await world.owner.post('/crm/products', { name: 'Support plan', unit_price: '99.90', currency: 'EUR' })).id;
  ids.acme = ok(await rita.post('/crm/deals', { title: 'Acme rollout', close_date: '2026-06-30', lines: [{ product_id: widget, quantity: '4' }, { product_id: support, quantity: '12' }] })).id;
  // A task made for the deal in the Tasks app, its task.created delivered to CRM as the broker would: on the deal's timeline.
  ok(await world.owner.post('/applications/tasks/installations', {}));
  const task = ok(await world.owner.post('/tasks', { title: 'Book the kickoff', source_mrn: `mrn:crm:deal:${ids.acme}` }));
  await world.deliver('core.tasks.task.created', { task_id: task.id, title: task.title, creator_mrn: task.creator_mrn, source_mrn: task.source_mrn });
  ok(await rita.post('/crm/deals', { title: 'Globex pilot', amount: '8000.00', stage_id: stages[1].id }));
  ok(await rita.post('/crm/deals', { title: 'Initech renewal', amount: '15500.00', stage_id: stages[2].id, close_date: '2026-07-15' }));
});

test.after.always(() => web?.close());

const stageOf = async (dealId: string) => ok(await rita.get(`/crm/deals/${dealId}`)).stage_name as string;

test.serial('at 1280 px: a deal moves across the board from the keyboard and with its Stage list; its detail shows the lines, a quote sent for signature and the task made for it, and takes a next step', async (t) => {
  const { page, frame } = await web.openApp(1280, { email: rita.email });
  const card = frame.getByRole('article', { name: /^Acme rollout/ });
  await card.waitFor();
  await checkPage(t, page, frame, 'the board');

  await card.focus();
  await page.keyboard.press('Alt+ArrowRight');
  await frame.getByRole('status').getByText('Acme rollout moved to Proposal').waitFor();
  t.is(await stageOf(ids.acme), 'Proposal');
  await frame.getByRole('region', { name: 'Proposal' }).getByRole('article', { name: /^Acme rollout/ }).waitFor();

  await frame.getByRole('article', { name: /^Acme rollout/ }).getByLabel('Stage').selectOption({ label: 'Negotiation' });
  await frame.getByRole('status').getByText('Acme rollout moved to Negotiation').waitFor();
  t.is(await stageOf(ids.acme), 'Negotiation');
  const negotiation = frame.getByRole('region', { name: 'Negotiation' });
  await negotiation.getByRole('article', { name: /^Acme rollout/ }).waitFor();
  // The column's count and sum follow the move once the board reloads: wait for them, then read them.
  await negotiation.getByText('2 deals · 21,698.80 EUR', { exact: false }).first().waitFor();
  t.true((await negotiation.textContent())!.includes('2 deals · 21,698.80 EUR'));
  await checkPage(t, page, frame, 'the board after the moves');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}crm-board-1280.png`);

  await frame.getByRole('link', { name: 'Acme rollout' }).click();
  await page.waitForURL(`${web.origin}/app/crm/deals/${ids.acme}`);
  const lines = frame.getByRole('table', { name: 'Lines' });
  await lines.getByRole('cell', { name: '1198.80' }).waitFor();
  await frame.getByRole('button', { name: 'Make a quote' }).click();
  await frame.getByRole('list', { name: 'Quotes' }).locator('strong', { hasText: 'Q-0001' }).waitFor();
  t.deepEqual(ok(await rita.get(`/crm/deals/${ids.acme}/quotes`)).map((quote: any) => [quote.number, quote.status, quote.total]), [['Q-0001', 'draft', '6198.80']]);
  // The PDF as the customer gets it, saved by the browser from the app's sandboxed frame.
  const [download] = await Promise.all([page.waitForEvent('download'), frame.getByRole('button', { name: 'Download PDF of Q-0001' }).click()]);
  t.is(download.suggestedFilename(), 'Q-0001.pdf');
  const saved = await fs.promises.readFile((await download.path())!);
  t.is(saved.subarray(0, 5).toString('latin1'), '%PDF-');
  // Byte for byte the API's answer (the PDF is deterministic).
  const quoteId = ok(await rita.get(`/crm/deals/${ids.acme}/quotes`))[0].id;
  const answered = await web.world.platform.runtime.server.inject({ method: 'GET', url: `/crm/quotes/${quoteId}/pdf`, headers: { host: `acme.${web.world.platform.runtime.config.baseDomain}`, 'x-api-version': API_VERSION, cookie: rita.cookie } });
  t.is(answered.statusCode, 200);
  t.true(saved.equals(answered.rawPayload));
  // Sent for signature from its card: the quote is sent and asks the Sign app for an envelope.
  await frame.getByRole('button', { name: 'Ask for signature on Q-0001' }).click();
  const signature = frame.getByRole('form', { name: 'Signature for Q-0001' });
  await signature.getByLabel("Signer's name").fill('Joan Client');
  await signature.getByLabel("Signer's e-mail").fill('joan@client.example');
  await signature.getByRole('button', { name: 'Send for signature' }).click();
  await page.getByText('Quote Q-0001 sent for signature to Joan Client').waitFor();
  const [sentQuote] = ok(await rita.get(`/crm/deals/${ids.acme}/quotes`));
  t.is(sentQuote.status, 'sent');
  t.truthy(sentQuote.signature_requested_at);
  t.deepEqual(web.world.takeEvents().filter((event) => event.action === 'core.crm.quote.signature_requested').map((event) => (event.payload as { signers: unknown }).signers), [[{ name: 'Joan Client', email: 'joan@client.example', role: 'signer', group: 1 }]]);
  // The next step, already due (the clock is at 2026-05-20): saved, shown overdue.
  await frame.getByLabel('What is to be done next').fill('Send the security questionnaire');
  await frame.getByLabel('By').fill('2026-05-19');
  await frame.getByRole('button', { name: 'Save next step' }).click();
  await frame.getByText('This next step is overdue.').waitFor();
  t.like(ok(await rita.get(`/crm/deals/${ids.acme}`)), { next_step: 'Send the security questionnaire', next_step_due: '2026-05-19', next_step_overdue: true });
  t.deepEqual(ok(await rita.get(`/crm/activities?subject_mrn=mrn:crm:deal:${ids.acme}`)).map((entry: any) => [entry.kind, entry.title]), [['task', 'Task: Book the kickoff']]);
  await frame.getByRole('list', { name: 'Activity' }).getByText('Task: Book the kickoff').waitFor();
  await checkPage(t, page, frame, 'the deal');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}crm-deal-1280.png`);
  await page.context().close();
});

test.serial('at 375 px: the board reads on a phone and a deal still moves with its Stage list', async (t) => {
  const { page, frame } = await web.openApp(375, { email: rita.email });
  const card = frame.getByRole('article', { name: /^Globex pilot/ });
  await card.waitFor();
  await card.getByLabel('Stage').selectOption({ label: 'Negotiation' });
  await frame.getByRole('status').getByText('Globex pilot moved to Negotiation').waitFor();
  t.is(await stageOf(ok(await rita.get('/crm/deals?q=Globex'))[0].id), 'Negotiation');
  await checkPage(t, page, frame, 'the board at 375 px');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}crm-board-375.png`);
  await page.context().close();
});

test.serial('at 1280 px: a web form is added on the Web forms screen with a link to its page, and an old one is retired', async (t) => {
  ok(await web.world.owner.post('/crm/lead-forms', { name: 'Old campaign' }));
  const { page, frame } = await web.openApp(1280, { email: web.world.owner.email });
  await frame.getByRole('link', { name: 'Web forms' }).click();
  const list = frame.getByRole('list', { name: 'Web forms' });
  await list.locator('strong', { hasText: 'Old campaign' }).waitFor();
  await frame.getByLabel('Name').fill('Website contact');
  await frame.getByRole('button', { name: 'Add web form' }).click();
  await list.locator('strong', { hasText: 'Website contact' }).waitFor();
  const [made] = ok(await web.world.owner.get('/crm/lead-forms')).filter((form: any) => form.name === 'Website contact');
  t.is(await list.getByRole('link', { name: 'Open the page of Website contact' }).getAttribute('href'), made.page_url);
  await list.getByRole('button', { name: 'Retire Old campaign' }).click();
  await list.getByText('retired', { exact: true }).waitFor();
  t.deepEqual(ok(await web.world.owner.get('/crm/lead-forms')).map((form: any) => [form.name, form.active]), [['Website contact', true], ['Old campaign', false]]);
  await checkPage(t, page, frame, 'the web forms');
  await dismissToasts(page);
  await saveScreenshot(page, `${IMAGES}crm-lead-forms-1280.png`);
  await page.context().close();
});

test.serial('at 375 px: a visitor sends the public web-to-lead form, and the lead is there with its message', async (t) => {
  const form = ok(await web.world.owner.post('/crm/lead-forms', { name: 'Talk to sales', source: 'website' }));
  const page = await web.newPage(375);
  await page.goto(`${web.origin}${form.page_url}`);
  await page.getByRole('heading', { level: 1, name: 'Talk to sales' }).waitFor();
  await page.getByLabel('Your name').fill('Joan Client');
  await page.getByLabel('E-mail').fill('joan@client.example');
  await page.getByLabel('Company').fill('Client Co');
  await page.getByLabel('Message').fill('Please call me about 40 seats.');
  t.deepEqual(await accessibilityViolations(page), [], 'axe on the filled form');
  await saveScreenshot(page, `${IMAGES}crm-lead-form-375.png`);
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('status').getByText('Thank you: we will get back to you soon.').waitFor();
  t.deepEqual(await cspViolations(page), [], 'CSP on the lead form');
  t.deepEqual(await accessibilityViolations(page), [], 'axe on the thanks');
  const [lead] = ok(await web.world.owner.get('/crm/leads?q=Joan'));
  t.like(lead, { name: 'Joan Client', email: 'joan@client.example', company_name: 'Client Co', source: 'website', notes: 'Please call me about 40 seats.', status: 'new' });
  await page.context().close();
});
