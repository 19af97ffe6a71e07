import test from 'ava';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_VERSION, checkMatrixRows, ok, startWorld, type TestMember, type World } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };
import { fileURLToPath } from 'node:url';
import app from '../src/index.js';
import signContract from './fixtures/sign-contract.js';

const OTHER_APPS = [...['contacts', 'companies', 'calls', 'mail', 'tasks', 'meetings'].map((slug) => fileURLToPath(new URL(`../../${slug}`, import.meta.url))), signContract];

const UNKNOWN = '00000000-0000-4000-8000-000000000abc';
const ALL = manifest.permissions.map((permission) => permission.key);

let world: World;
let rep: TestMember;
let viewer: TestMember;
const ids: Record<string, string> = {};
const stageIds: string[] = [];

test.before(async () => {
  world = await startWorld({ app, subdomain: 'crm', apps: OTHER_APPS, firstParty: ['crm', 'contacts', 'companies', 'calls', 'mail', 'sign', 'tasks', 'meetings'], clock: new Date('2026-05-04T09:00:00.000Z') });
  rep = await world.member(ALL, { name: 'Rita Rep' });
  viewer = await world.member(['crm.activities.read', 'crm.forecasts.read', 'crm.deals.read', 'crm.pipelines.read', 'crm.quotes.read', 'crm.leads.read', 'crm.products.read']);
  const sales = ok(await rep.post('/crm/pipelines', {
    name: 'Sales',
    stages: [{ name: 'Discovery', probability: 10, sla_days: 7 }, { name: 'Proposal', probability: 50 }, { name: 'Negotiation', probability: 80, sla_days: 14 }],
  }));
  ids.sales = sales.id;
  stageIds.push(...sales.stages.map((stage: any) => stage.id));
  ids.widget = ok(await rep.post('/crm/products', { name: 'Widget', sku: 'W-1', unit_price: '19.99', currency: 'EUR', prices: [{ price_list: 'Partner', unit_price: '15.00' }] })).id;
  ids.setup = ok(await rep.post('/crm/products', { name: 'Setup', unit_price: '250.00', currency: 'EUR' })).id;
  world.takeEvents();
});
test.after.always(() => world?.close());

test.serial('pipelines: stages in order with probability and SLA; the first is the default; names unique; stages replaced by id', async (t) => {
  const listed = ok(await viewer.get('/crm/pipelines'));
  t.deepEqual(listed.map((row: any) => [row.name, row.is_default, row.stages.map((stage: any) => [stage.name, stage.position, stage.probability, stage.sla_days])]), [
    ['Sales', true, [['Discovery', 0, 10, 7], ['Proposal', 1, 50, null], ['Negotiation', 2, 80, 14]]],
  ]);
  const taken = await rep.post('/crm/pipelines', { name: 'sales', stages: [{ name: 'A', probability: 1 }] });
  t.is(taken.status, 409);
  t.is(taken.body.error, `Pipeline ${ids.sales} is already named Sales`);
  const twice = await rep.post('/crm/pipelines', { name: 'Twice', stages: [{ name: 'A', probability: 1 }, { name: 'a', probability: 2 }] });
  t.is(twice.status, 400);
  t.is(twice.body.error, 'stages[1].name: a is named twice in the pipeline');
  t.is((await rep.post('/crm/pipelines', { name: 'Bad', stages: [{ name: 'A', probability: 101 }] })).status, 400);
  const renewals = ok(await rep.post('/crm/pipelines', { name: 'Renewals', stages: [{ name: 'Due', probability: 60 }, { name: 'Talking', probability: 70 }] }));
  t.false(renewals.is_default);
  const [due, talking] = renewals.stages;
  const replaced = ok(await rep.patch(`/crm/pipelines/${renewals.id}`, { stages: [{ id: talking.id, name: 'Negotiating', probability: 75 }, { name: 'Signed', probability: 100 }] }));
  t.deepEqual(replaced.stages.map((stage: any) => [stage.id === talking.id, stage.name, stage.position, stage.probability]), [[true, 'Negotiating', 0, 75], [false, 'Signed', 1, 100]]);
  t.false(replaced.stages.some((stage: any) => stage.id === due.id));
  const foreign = await rep.patch(`/crm/pipelines/${renewals.id}`, { stages: [{ id: stageIds[0], name: 'X', probability: 1 }] });
  t.is(foreign.status, 400);
  t.is(foreign.body.error, `stages[0].id: ${stageIds[0]} is not a stage of pipeline ${renewals.id}`);
  const keepDefault = await rep.delete(`/crm/pipelines/${ids.sales}`);
  t.is(keepDefault.status, 409);
  t.is((await rep.delete(`/crm/pipelines/${renewals.id}`)).status, 200);
  t.is((await rep.get(`/crm/pipelines/${renewals.id}`)).status, 404);
  t.is((await viewer.post('/crm/pipelines', { name: 'Mine', stages: [{ name: 'A', probability: 1 }] })).status, 403);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('products: exact prices, price lists, mrn:crm:product:{id}, product.created and product.updated naming the fields; SKU unique', async (t) => {
  const made = ok(await rep.post('/crm/products', { name: 'Gadget', sku: 'G-1', unit_price: '1234567890.5', currency: 'USD', prices: [{ price_list: 'Wholesale', unit_price: '0.1' }] }));
  t.like(made, { mrn: `mrn:crm:product:${made.id}`, unit_price: '1234567890.50', currency: 'USD', active: true, revision: 1 });
  t.deepEqual(made.prices, [{ price_list: 'Wholesale', unit_price: '0.10' }]);
  t.deepEqual(world.takeEvents(), [{ action: 'core.crm.product.created', payload: { product_id: made.id, product_mrn: made.mrn, name: 'Gadget', sku: 'G-1', unit_price: '1234567890.50', currency: 'USD', active: true, revision: 1, created_by: rep.mrn } }]);
  const changed = ok(await rep.patch(`/crm/products/${made.id}`, { unit_price: '12.00', active: false, name: 'Gadget' }));
  t.like(changed, { unit_price: '12.00', active: false, revision: 2 });
  t.deepEqual(world.takeEvents(), [{ action: 'core.crm.product.updated', payload: { product_id: made.id, product_mrn: made.mrn, name: 'Gadget', sku: 'G-1', unit_price: '12.00', currency: 'USD', active: false, revision: 2, changed_fields: ['unit_price', 'active'], updated_by: rep.mrn } }]);
  ok(await rep.patch(`/crm/products/${made.id}`, { unit_price: '12' }));
  t.deepEqual(world.takeEvents(), [], 'nothing changed: no event');
  const dup = await rep.post('/crm/products', { name: 'Other', sku: 'g-1', unit_price: '1', currency: 'USD' });
  t.is(dup.status, 409);
  t.is(dup.body.error, `Product ${made.id} already has the SKU G-1`);
  for (const bad of [{ unit_price: '1.234' }, { unit_price: 12 }, { currency: 'eur' }, { unit_price: '-1' }]) {
    const answer = await rep.post('/crm/products', { name: 'Bad', unit_price: '1.00', currency: 'EUR', ...bad });
    t.is(answer.status, 400, JSON.stringify(bad));
  }
  t.deepEqual(ok(await viewer.get('/crm/products?q=gad')).map((row: any) => row.name), ['Gadget']);
  t.is((await rep.delete(`/crm/products/${made.id}`)).status, 200);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('deals: the amount is the exact sum of the lines; a product line takes its price (or its price list); deal.created once', async (t) => {
  const deal = ok(await rep.post('/crm/deals', {
    title: 'Acme rollout', close_date: '2026-05-20', company_mrn: `mrn:companies:company:${UNKNOWN}`,
    lines: [{ product_id: ids.widget, quantity: '3' }, { product_id: ids.widget, quantity: '0.5', price_list: 'partner' }, { description: 'Training day', quantity: '1', unit_price: '0.1' }, { description: 'Fee', quantity: '1', unit_price: '0.2' }],
  }));
  ids.deal = deal.id;
  t.like(deal, { pipeline_id: ids.sales, stage_id: stageIds[0], stage_name: 'Discovery', probability: 10, status: 'open', amount: '67.77', currency: 'EUR', owner_id: rep.id, overdue: false });
  t.deepEqual(deal.lines.map((line: any) => [line.description, line.quantity, line.unit_price, line.amount, line.product_mrn]), [
    ['Widget', '3', '19.99', '59.97', `mrn:crm:product:${ids.widget}`], ['Widget', '0.5', '15.00', '7.50', `mrn:crm:product:${ids.widget}`], ['Training day', '1', '0.10', '0.10', null], ['Fee', '1', '0.20', '0.20', null],
  ]);
  t.deepEqual(world.takeEvents(), [{ action: 'core.crm.deal.created', payload: { deal_id: deal.id, deal_mrn: `mrn:crm:deal:${deal.id}`, title: 'Acme rollout', pipeline_id: ids.sales, stage_id: stageIds[0], amount: '67.77', currency: 'EUR', company_mrn: `mrn:companies:company:${UNKNOWN}`, owner_mrn: rep.mrn, created_by: rep.mrn } }]);
  const wrongSum = await rep.post('/crm/deals', { title: 'X', amount: '10.00', lines: [{ description: 'a', quantity: '1', unit_price: '9.99' }] });
  t.is(wrongSum.status, 400);
  t.is(wrongSum.body.error, 'amount: 10.00 is not the sum of the lines (9.99); leave it out');
  const otherCurrency = await rep.post('/crm/deals', { title: 'X', currency: 'USD', lines: [{ product_id: ids.widget, quantity: '1' }] });
  t.is(otherCurrency.status, 400);
  t.is(otherCurrency.body.error, `lines[0].unit_price: product ${ids.widget} is priced in EUR, the deal in USD: give the unit price`);
  const noList = await rep.post('/crm/deals', { title: 'X', lines: [{ product_id: ids.widget, quantity: '1', price_list: 'Gold' }] });
  t.is(noList.status, 400);
  t.is(noList.body.error, `lines.0.price_list: product ${ids.widget} (Widget) has no price in the price list Gold`);
  const unknownProduct = await rep.post('/crm/deals', { title: 'X', lines: [{ product_id: UNKNOWN, quantity: '1' }] });
  t.is(unknownProduct.status, 400);
  const badStage = await rep.post('/crm/deals', { title: 'X', stage_id: UNKNOWN });
  t.is(badStage.status, 400);
  t.is(badStage.body.error, `stage_id: ${UNKNOWN} is not a stage of pipeline ${ids.sales}`);
  t.is((await rep.post('/crm/deals', { title: 'X', amount: 10 })).status, 400, 'a JSON number is no exact decimal');
  t.is((await rep.post('/crm/deals', { title: 'X', owner_id: UNKNOWN })).status, 400);
  t.is((await viewer.post('/crm/deals', { title: 'X' })).status, 403);
  t.deepEqual(world.takeEvents(), [], 'refused requests emit nothing');
  const plain = ok(await rep.post('/crm/deals', { title: 'Globex', amount: '1000', currency: 'USD', close_date: '2026-06-30', stage_id: stageIds[1] }));
  ids.plain = plain.id;
  t.like(plain, { amount: '1000.00', currency: 'USD', stage_id: stageIds[1], lines: [] });
  world.takeEvents();
});

test.serial('moving a deal across stages emits deal.stage_changed once; the SLA makes it overdue; a closed deal does not move', async (t) => {
  const moved = ok(await rep.patch(`/crm/deals/${ids.deal}/stage`, { stage_id: stageIds[2] }));
  t.like(moved, { stage_id: stageIds[2], stage_name: 'Negotiation', probability: 80, overdue: false });
  t.deepEqual(world.takeEvents(), [{ action: 'core.crm.deal.stage_changed', payload: {
    deal_id: ids.deal, deal_mrn: `mrn:crm:deal:${ids.deal}`, title: 'Acme rollout', from_pipeline_id: ids.sales, from_stage_id: stageIds[0], pipeline_id: ids.sales, stage_id: stageIds[2],
    stage_name: 'Negotiation', probability: 80, amount: '67.77', currency: 'EUR', moved_by: rep.mrn,
  } }]);
  ok(await rep.patch(`/crm/deals/${ids.deal}/stage`, { stage_id: stageIds[2] }));
  t.deepEqual(world.takeEvents(), [], 'the same stage: no event');
  const unknown = await rep.patch(`/crm/deals/${ids.deal}/stage`, { stage_id: UNKNOWN });
  t.is(unknown.status, 400);
  const board = ok(await viewer.get(`/crm/pipelines/${ids.sales}/board`));
  t.deepEqual(board.stages.map((stage: any) => [stage.name, stage.count, stage.totals, stage.deals.map((deal: any) => deal.title)]), [
    ['Discovery', 0, [], []], ['Proposal', 1, [{ currency: 'USD', amount: '1000.00' }], ['Globex']], ['Negotiation', 1, [{ currency: 'EUR', amount: '67.77' }], ['Acme rollout']],
  ]);
});

test.serial('the weighted forecast sums exact decimals in SQL per stage and currency, weighed by probability; won deals apart', async (t) => {
  const extra = ok(await rep.post('/crm/deals', { title: 'Tenths', amount: '0.10', stage_id: stageIds[2], close_date: '2026-05-31' }));
  ok(await rep.post('/crm/deals', { title: 'Tenths 2', amount: '0.20', stage_id: stageIds[2], close_date: '2026-05-01' }));
  ok(await rep.post('/crm/deals', { title: 'Next month', amount: '5.00', stage_id: stageIds[2], close_date: '2026-06-01' }));
  world.takeEvents();
  const may = ok(await viewer.get(`/crm/forecast?pipeline_id=${ids.sales}&period=2026-05`));
  t.like(may, { pipeline_id: ids.sales, period: '2026-05', from: '2026-05-01', to: '2026-05-31' });
  t.deepEqual(may.stages.map((stage: any) => [stage.name, stage.deals, stage.amounts]), [
    ['Discovery', 0, []], ['Proposal', 0, []], ['Negotiation', 3, [{ currency: 'EUR', amount: '68.07', weighted: '54.46' }]],
  ]);
  t.deepEqual(may.totals, [{ currency: 'EUR', amount: '68.07', weighted: '54.46', won: '0.00' }]);
  const quarter = ok(await viewer.get('/crm/forecast?period=2026-Q2'));
  t.deepEqual(quarter.totals, [{ currency: 'EUR', amount: '73.07', weighted: '58.46', won: '0.00' }, { currency: 'USD', amount: '1000.00', weighted: '500.00', won: '0.00' }]);
  ok(await rep.patch(`/crm/deals/${extra.id}`, { status: 'won' }));
  world.takeEvents();
  t.deepEqual(ok(await viewer.get('/crm/forecast?period=2026-05')).totals, [{ currency: 'EUR', amount: '67.97', weighted: '54.38', won: '0.10' }]);
  const bad = await viewer.get('/crm/forecast?period=2026-13');
  t.is(bad.status, 400);
  t.is(bad.body.error, 'period: 2026-13 is no period (write 2026, 2026-Q2 or 2026-05)');
  t.is((await viewer.get(`/crm/forecast?pipeline_id=${UNKNOWN}`)).status, 404);
});

test.serial('won carries the lines; lost needs a reason; reopened deals change again; amounts of a closed deal do not', async (t) => {
  const noReason = await rep.patch(`/crm/deals/${ids.plain}`, { status: 'lost' });
  t.is(noReason.status, 400);
  t.is(noReason.body.error, 'lost_reason: a lost deal needs a reason');
  const lost = ok(await rep.patch(`/crm/deals/${ids.plain}`, { status: 'lost', lost_reason: 'Budget cut' }));
  t.like(lost, { status: 'lost', lost_reason: 'Budget cut' });
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload.lost_reason]), [['core.crm.deal.lost', 'Budget cut']]);
  const frozen = await rep.patch(`/crm/deals/${ids.plain}`, { amount: '5.00' });
  t.is(frozen.status, 409);
  t.is(frozen.body.error, `Deal ${ids.plain} is lost: reopen it to change its amount`);
  const again = await rep.patch(`/crm/deals/${ids.plain}`, { status: 'won' });
  t.is(again.status, 409);
  t.is(again.body.error, 'Cannot move a deal from lost to won: won is reached from open');
  const reopened = ok(await rep.patch(`/crm/deals/${ids.plain}`, { status: 'open', amount: '1500.00' }));
  t.like(reopened, { status: 'open', amount: '1500.00', lost_reason: null, closed_at: null });
  t.deepEqual(world.takeEvents(), []);
  const moved = await rep.patch(`/crm/deals/${ids.plain}/stage`, { stage_id: stageIds[0] });
  t.is(moved.status, 200);
  world.takeEvents();
});

let pdfBytes: Buffer;

/** A file answer's bytes as sent (the harness's callers read bodies as text). */
async function download(member: TestMember, path: string) {
  const response = await world.platform.runtime.server.inject({ method: 'GET', url: path, headers: { host: `crm.${world.platform.runtime.config.baseDomain}`, 'x-api-version': API_VERSION, cookie: member.cookie } });
  return { status: response.statusCode, type: response.headers['content-type'], disposition: response.headers['content-disposition'], bytes: response.rawPayload };
}

test.serial('quotes: numbered per workspace, lines frozen; the PDF renders with pdftoppm; sent, edits only on a draft', async (t) => {
  const first = ok(await rep.post(`/crm/deals/${ids.deal}/quotes`, { valid_until: '2026-06-30', notes: 'Payment in 30 days.' }));
  ids.quote = first.id;
  t.like(first, { number: 'Q-0001', status: 'draft', total: '67.77', currency: 'EUR', deal_id: ids.deal, mrn: `mrn:crm:quote:${first.id}`, pdf_url: `/crm/quotes/${first.id}/pdf` });
  t.is(first.lines.length, 4);
  const noLines = await rep.post(`/crm/deals/${ids.plain}/quotes`, {});
  t.is(noLines.status, 409);
  t.is(noLines.body.error, `Deal ${ids.plain} has no lines: add its products before quoting`);
  const second = ok(await rep.post(`/crm/deals/${ids.deal}/quotes`, {}));
  t.is(second.number, 'Q-0002');
  t.deepEqual(ok(await viewer.get(`/crm/deals/${ids.deal}/quotes`)).map((quote: any) => quote.number), ['Q-0002', 'Q-0001']);
  const pdf = await download(viewer, `/crm/quotes/${first.id}/pdf`);
  t.is(pdf.status, 200);
  t.is(pdf.type, 'application/pdf');
  t.is(pdf.disposition, `attachment; filename="Q-0001.pdf"; filename*=UTF-8''Q-0001.pdf`);
  pdfBytes = pdf.bytes;
  t.is(pdfBytes.subarray(0, 5).toString(), '%PDF-');
  const again = await download(viewer, `/crm/quotes/${first.id}/pdf`);
  t.true(again.bytes.equals(pdfBytes), 'the same quote gives the same bytes');
  const dir = mkdtempSync(join(tmpdir(), 'crm-pdf-'));
  try {
    writeFileSync(join(dir, 'q.pdf'), pdfBytes);
    execFileSync('pdftoppm', ['-png', '-r', '30', join(dir, 'q.pdf'), join(dir, 'page')]);
    t.deepEqual(readdirSync(dir).filter((name) => name.endsWith('.png')).length, 1);
    const text = execFileSync('pdftotext', [join(dir, 'q.pdf'), '-']).toString();
    for (const expected of ['Quote Q-0001', 'Acme rollout', 'Training day', 'Total 67.77 EUR', 'Valid until 2026-06-30', 'Payment in 30 days.']) t.true(text.includes(expected), expected);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const sent = ok(await rep.patch(`/crm/quotes/${second.id}`, { status: 'sent' }));
  t.is(sent.status, 'sent');
  t.deepEqual(world.takeEvents(), [{ action: 'core.crm.quote.sent', payload: { quote_id: second.id, quote_mrn: `mrn:crm:quote:${second.id}`, number: 'Q-0002', deal_id: ids.deal, total: '67.77', currency: 'EUR', sent_by: rep.mrn } }]);
  const edit = await rep.patch(`/crm/quotes/${second.id}`, { notes: 'late' });
  t.is(edit.status, 409);
  t.is(edit.body.error, 'Quote Q-0002 is sent: only a draft changes');
  ok(await rep.patch(`/crm/quotes/${second.id}`, { status: 'expired' }));
  const expiredAgain = await rep.patch(`/crm/quotes/${second.id}`, { status: 'accepted' });
  t.is(expiredAgain.status, 409);
  t.deepEqual(world.takeEvents(), []);
  t.is((await viewer.get(`/crm/quotes/${UNKNOWN}/pdf`)).status, 404);
});

test.serial('a signature request sends the draft and carries the PDF, its hash and the signers exactly as the sign contract says', async (t) => {
  const bad = await rep.post(`/crm/quotes/${ids.quote}/signature-requests`, { signers: [] });
  t.is(bad.status, 400);
  const answer = ok(await rep.post(`/crm/quotes/${ids.quote}/signature-requests`, { message: 'Please sign', signers: [{ name: 'Ada', email: 'ada@example.com' }, { name: 'Rita', email: rep.email, member_id: rep.id, role: 'approver', group: 2 }] }));
  const sha256 = createHash('sha256').update(pdfBytes).digest('hex');
  t.like(answer, { quote_id: ids.quote, source_mrn: `mrn:crm:quote:${ids.quote}`, status: 'sent', filename: 'Q-0001.pdf', sha256, size_bytes: pdfBytes.length, title: 'Quote Q-0001 for Acme rollout' });
  const events = world.takeEvents();
  t.deepEqual(events.map((event) => event.action), ['core.crm.quote.sent', 'core.crm.quote.signature_requested']);
  t.deepEqual(events[1].payload, {
    quote_id: ids.quote, source_mrn: `mrn:crm:quote:${ids.quote}`, requested_by: rep.id, title: 'Quote Q-0001 for Acme rollout', message: 'Please sign',
    signers: [{ name: 'Ada', email: 'ada@example.com', role: 'signer', group: 1 }, { name: 'Rita', email: rep.email, member_id: rep.id, role: 'approver', group: 2 }],
    document: { filename: 'Q-0001.pdf', content_type: 'application/pdf', sha256, data_base64: pdfBytes.toString('base64') },
  });
  t.is(ok(await viewer.get(`/crm/quotes/${ids.quote}`)).status, 'sent');
  ok(await rep.post(`/crm/quotes/${ids.quote}/signature-requests`, { signers: [{ name: 'Ada', email: 'ada@example.com' }] }));
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.crm.quote.signature_requested'], 'a sent quote is asked again without another quote.sent');
});

test.serial('core.sign.envelope.completed accepts the quote and wins the deal with its lines, exactly once however often it is delivered', async (t) => {
  const envelope = crypto.randomUUID();
  const payload = { envelope_id: envelope, mrn: `mrn:sign:envelope:${envelope}`, source_mrn: `mrn:crm:quote:${ids.quote}`, completed_at: '2026-05-20T10:00:00.000Z', final_storage_key: 'envelopes/x/final.pdf', final_sha256: 'a'.repeat(64), original_sha256: 'b'.repeat(64) };
  await world.deliver('core.sign.envelope.completed', payload);
  await world.deliver('core.sign.envelope.completed', payload);
  const events = world.takeEvents();
  t.deepEqual(events.map((event) => event.action), ['core.crm.quote.accepted', 'core.crm.deal.won']);
  t.deepEqual(events[0].payload, { quote_id: ids.quote, quote_mrn: `mrn:crm:quote:${ids.quote}`, number: 'Q-0001', deal_id: ids.deal, total: '67.77', currency: 'EUR', envelope_id: envelope });
  t.deepEqual(events[1].payload, {
    deal_id: ids.deal, deal_mrn: `mrn:crm:deal:${ids.deal}`, title: 'Acme rollout', pipeline_id: ids.sales, stage_id: stageIds[2], amount: '67.77', currency: 'EUR',
    company_mrn: `mrn:companies:company:${UNKNOWN}`, owner_mrn: rep.mrn, quote_id: ids.quote,
    lines: [
      { product_id: ids.widget, product_mrn: `mrn:crm:product:${ids.widget}`, description: 'Widget', quantity: '3', unit_price: '19.99', amount: '59.97' },
      { product_id: ids.widget, product_mrn: `mrn:crm:product:${ids.widget}`, description: 'Widget', quantity: '0.5', unit_price: '15.00', amount: '7.50' },
      { description: 'Training day', quantity: '1', unit_price: '0.10', amount: '0.10' },
      { description: 'Fee', quantity: '1', unit_price: '0.20', amount: '0.20' },
    ],
  });
  t.like(ok(await viewer.get(`/crm/quotes/${ids.quote}`)), { status: 'accepted', envelope_id: envelope });
  t.like(ok(await viewer.get(`/crm/deals/${ids.deal}`)), { status: 'won' });
  await world.deliver('core.sign.envelope.completed', { ...payload, envelope_id: crypto.randomUUID(), source_mrn: `mrn:crm:quote:${UNKNOWN}` });
  await world.deliver('core.sign.envelope.completed', { ...payload, envelope_id: crypto.randomUUID(), source_mrn: `mrn:ats:offer:${UNKNOWN}` });
  t.deepEqual(world.takeEvents(), [], "another app's envelope, or an unknown quote, changes nothing");
});

test.serial('core.sign.envelope.declined declines the quote once; the deal stays open', async (t) => {
  const deal = ok(await rep.post('/crm/deals', { title: 'Declined', lines: [{ product_id: ids.setup, quantity: '1' }] }));
  const quote = ok(await rep.post(`/crm/deals/${deal.id}/quotes`, {}));
  ok(await rep.post(`/crm/quotes/${quote.id}/signature-requests`, { signers: [{ name: 'Bo', email: 'bo@example.com' }] }));
  world.takeEvents();
  const envelope = crypto.randomUUID();
  const payload = { envelope_id: envelope, mrn: `mrn:sign:envelope:${envelope}`, source_mrn: `mrn:crm:quote:${quote.id}`, reason: 'Too expensive' };
  await world.deliver('core.sign.envelope.declined', payload);
  await world.deliver('core.sign.envelope.declined', payload);
  t.like(ok(await viewer.get(`/crm/quotes/${quote.id}`)), { status: 'declined', envelope_id: envelope });
  t.like(ok(await viewer.get(`/crm/deals/${deal.id}`)), { status: 'open' });
  t.deepEqual(world.takeEvents(), []);
});

test.serial('leads: created, contacted, disqualified with a reason; qualifying matches the kept contact and company and makes a deal', async (t) => {
  const contactId = crypto.randomUUID();
  const companyId = crypto.randomUUID();
  await world.deliver('core.companies.company.created', { company_id: companyId, company_mrn: `mrn:companies:company:${companyId}`, name: 'Initech', domain: 'initech.example', revision: 1, created_by: rep.id });
  await world.deliver('core.contacts.contact.created', { contact_id: contactId, contact_mrn: `mrn:contacts:contact:${contactId}`, display_name: 'Peter Gibbons', primary_email: 'Peter@Initech.example', source: 'manual', created_by: rep.id });
  const lead = ok(await rep.post('/crm/leads', { name: 'Peter', email: 'peter@initech.example', source: 'website' }));
  t.like(lead, { status: 'new', email: 'peter@initech.example', deal_id: null, mrn: `mrn:crm:lead:${lead.id}` });
  t.deepEqual(world.takeEvents(), [{ action: 'core.crm.lead.created', payload: { lead_id: lead.id, lead_mrn: lead.mrn, name: 'Peter', email: 'peter@initech.example', source: 'website', created_by: rep.mrn } }]);
  t.like(ok(await rep.patch(`/crm/leads/${lead.id}`, { status: 'contacted' })), { status: 'contacted' });
  const viaPatch = await rep.patch(`/crm/leads/${lead.id}`, { status: 'qualified' });
  t.is(viaPatch.status, 400);
  t.deepEqual(world.takeEvents(), []);
  const qualified = ok(await rep.post(`/crm/leads/${lead.id}/qualify`, { amount: '300.00' }));
  t.like(qualified, { status: 'qualified', contact_mrn: `mrn:contacts:contact:${contactId}`, company_mrn: `mrn:companies:company:${companyId}` });
  const deal = ok(await viewer.get(`/crm/deals/${qualified.deal_id}`));
  t.like(deal, { title: 'Peter', amount: '300.00', lead_id: lead.id, contact_mrn: `mrn:contacts:contact:${contactId}`, company_mrn: `mrn:companies:company:${companyId}`, stage_id: stageIds[0] });
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.crm.deal.created', 'core.crm.lead.qualified']);
  const twice = await rep.post(`/crm/leads/${lead.id}/qualify`, {});
  t.is(twice.status, 409);
  t.is(twice.body.error, 'The lead is already qualified');

  const byName = ok(await rep.post('/crm/leads', { name: 'Samir', company_name: 'INITECH' }));
  t.is(ok(await rep.post(`/crm/leads/${byName.id}/qualify`, { title: 'Samir deal' })).company_mrn, `mrn:companies:company:${companyId}`);
  const stranger = ok(await rep.post('/crm/leads', { name: 'Nobody', email: 'no@else.example' }));
  t.like(ok(await rep.post(`/crm/leads/${stranger.id}/qualify`, {})), { contact_mrn: null, company_mrn: null });
  world.takeEvents();

  const spam = ok(await rep.post('/crm/leads', { name: 'Spam' }));
  world.takeEvents();
  const noReason = await rep.patch(`/crm/leads/${spam.id}`, { status: 'disqualified' });
  t.is(noReason.status, 400);
  t.is(noReason.body.error, 'disqualify_reason: a disqualified lead needs a reason');
  ok(await rep.patch(`/crm/leads/${spam.id}`, { status: 'disqualified', disqualify_reason: 'Not a buyer' }));
  t.deepEqual(world.takeEvents(), [{ action: 'core.crm.lead.disqualified', payload: { lead_id: spam.id, lead_mrn: `mrn:crm:lead:${spam.id}`, name: 'Spam', reason: 'Not a buyer', disqualified_by: rep.mrn } }]);
  t.deepEqual(ok(await viewer.get('/crm/leads?status=disqualified')).map((row: any) => row.name), ['Spam']);
  t.is((await rep.delete(`/crm/leads/${spam.id}`)).status, 200);
  t.is((await viewer.get(`/crm/leads/${spam.id}`)).status, 404);
  await world.deliver('core.contacts.contact.deleted', { contact_id: contactId, contact_mrn: `mrn:contacts:contact:${contactId}`, display_name: 'Peter Gibbons', deleted_by: rep.id });
  const later = ok(await rep.post('/crm/leads', { name: 'Peter again', email: 'peter@initech.example' }));
  t.like(ok(await rep.post(`/crm/leads/${later.id}/qualify`, {})), { contact_mrn: null, company_mrn: `mrn:companies:company:${companyId}` }, 'the contact is gone; the domain still finds the company');
  world.takeEvents();
});

test.serial('the activity timeline: a call ended on a deal, a mail sent to a lead and a contact; a repeated delivery adds nothing', async (t) => {
  const deal = ok(await rep.post('/crm/deals', { title: 'Timeline', amount: '1.00' }));
  const lead = ok(await rep.post('/crm/leads', { name: 'Mia', email: 'mia@timeline.example' }));
  const contactId = crypto.randomUUID();
  await world.deliver('core.contacts.contact.created', { contact_id: contactId, contact_mrn: `mrn:contacts:contact:${contactId}`, display_name: 'Tim Line', primary_email: 'Tim@Timeline.example', source: 'manual', created_by: rep.id });
  world.takeEvents();
  const call = crypto.randomUUID();
  const ended = { call_id: call, source_mrn: `mrn:crm:deal:${deal.id}`, duration_seconds: 754, participant_count: 2 };
  await world.deliver('core.calls.call.ended', ended);
  await world.deliver('core.calls.call.ended', ended);
  await world.deliver('core.calls.call.ended', { ...ended, call_id: crypto.randomUUID(), source_mrn: `mrn:tasks:task:${UNKNOWN}` });
  const mail = { message_id: 'm-1', account_id: 'a-1', from_address: rep.email, to_addresses: ['MIA@timeline.example'], cc_addresses: ['tim@timeline.example', 'nobody@else.example'], bcc_addresses: [], subject: 'Your quote' };
  await world.deliver('core.mail.message.sent', mail);
  await world.deliver('core.mail.message.sent', mail);
  const timeline = async (mrn: string) => ok(await viewer.get(`/crm/activities?subject_mrn=${mrn}`)).map((row: any) => [row.kind, row.title, row.source_mrn]);
  t.deepEqual(await timeline(`mrn:crm:deal:${deal.id}`), [['call', 'Call, 13 min', `mrn:calls:call:${call}`]]);
  t.deepEqual(await timeline(`mrn:crm:lead:${lead.id}`), [['mail', 'Mail: Your quote', null]]);
  t.deepEqual(await timeline(`mrn:contacts:contact:${contactId}`), [['mail', 'Mail: Your quote', null]]);
  const bad = await viewer.get(`/crm/activities?subject_mrn=mrn:tasks:task:${UNKNOWN}`);
  t.is(bad.status, 400);
  t.is(bad.body.field, 'subject_mrn');
  t.is((await viewer.get('/crm/activities')).status, 400);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('the activity timeline: a task made for a deal, its completion and a meeting scheduled for a lead; others and repeats add nothing', async (t) => {
  const deal = ok(await rep.post('/crm/deals', { title: 'Tasks and meetings', amount: '1.00' }));
  const lead = ok(await rep.post('/crm/leads', { name: 'Noor', email: 'noor@timeline.example' }));
  world.takeEvents();
  const task = crypto.randomUUID();
  const created = { task_id: task, title: 'Send the proposal', creator_mrn: rep.mrn, source_mrn: `mrn:crm:deal:${deal.id}` };
  await world.deliver('core.tasks.task.created', created);
  await world.deliver('core.tasks.task.created', created);
  await world.deliver('core.tasks.task.created', { task_id: crypto.randomUUID(), title: 'Unrelated', creator_mrn: rep.mrn });
  await world.deliver('core.tasks.task.completed', { task_id: task, completed_by: rep.id, title: 'Send the proposal', source_mrn: `mrn:crm:deal:${deal.id}` });
  const meeting = crypto.randomUUID();
  const scheduled = { meeting_id: meeting, meeting_mrn: `mrn:meetings:meeting:${meeting}`, title: 'Discovery', starts_at: '2027-03-02T09:30:00.000Z', ends_at: '2027-03-02T10:00:00.000Z', organizer_mrn: rep.mrn, attendee_mrns: [], source_mrn: `mrn:crm:lead:${lead.id}` };
  await world.deliver('core.meetings.meeting.scheduled', scheduled);
  await world.deliver('core.meetings.meeting.scheduled', scheduled);
  await world.deliver('core.meetings.meeting.scheduled', { ...scheduled, meeting_id: crypto.randomUUID(), source_mrn: `mrn:files:file:${UNKNOWN}` });
  const timeline = async (mrn: string) => ok(await viewer.get(`/crm/activities?subject_mrn=${mrn}`)).map((row: any) => [row.kind, row.title, row.source_mrn]);
  // Both entries may share a millisecond, so their order on the timeline is not asserted here.
  t.deepEqual((await timeline(`mrn:crm:deal:${deal.id}`)).sort((a: string[], b: string[]) => a[1].localeCompare(b[1])), [
    ['task', 'Task done: Send the proposal', `mrn:tasks:task:${task}`],
    ['task', 'Task: Send the proposal', `mrn:tasks:task:${task}`],
  ]);
  t.deepEqual(await timeline(`mrn:crm:lead:${lead.id}`), [['meeting', 'Meeting: Discovery, 2027-03-02 09:30 UTC', `mrn:meetings:meeting:${meeting}`]]);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('deleting: a pipeline or stage with deals, a product on a line are refused; a deal goes with its lines and quotes', async (t) => {
  const used = await rep.delete(`/crm/products/${ids.widget}`);
  t.is(used.status, 409);
  t.is(used.body.error, `Product ${ids.widget} (Widget) is on 2 deal lines: make it inactive instead`);
  const stageUsed = await rep.patch(`/crm/pipelines/${ids.sales}`, { stages: [{ id: stageIds[0], name: 'Discovery', probability: 10 }] });
  t.is(stageUsed.status, 409);
  t.true(stageUsed.body.error.startsWith(`Stage ${stageIds[1]} (Proposal) holds`) || stageUsed.body.error.startsWith(`Stage ${stageIds[2]} (Negotiation) holds`));
  t.is((await rep.delete(`/crm/deals/${ids.deal}`)).status, 200);
  t.is((await viewer.get(`/crm/quotes/${ids.quote}`)).status, 404);
  t.is((await viewer.get(`/crm/deals/${ids.deal}`)).status, 404);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('search: leads, deals and products are indexed and reindexed', async (t) => {
  const types = new Set(world.platform.search.filter((change: any) => change.op !== 'remove').map((change: any) => change.document?.type ?? change.type));
  t.true(['lead', 'deal', 'product'].every((type) => types.has(type)), JSON.stringify([...types]));
  const workspace = world.workspace;
  await world.platform.runtime.reindexSearch({ app: 'crm', workspaceId: workspace.id });
  t.pass();
});

test.serial('the permission matrix, and every table can be distributed by workspace', async (t) => {
  const rows = await world.workspace.permissionMatrix('crm', {});
  t.is(rows.length, manifest.authorization.length);
  checkMatrixRows(t, rows.filter((row) => !row.note && !row.skipped));
  t.deepEqual(await world.platform.distributionProblems(), []);
});

test.serial('round-robin: leads nobody owns go in turn to the members of the setting lead_round_robin; a named owner is kept', async (t) => {
  const [ann, bob] = await world.members(2, ['crm.leads.read']);
  t.like(ok(await rep.post('/crm/leads', { name: 'Before' })), { owner_id: null });
  const saved = await world.owner.put('/apps/crm/settings', { currency: 'EUR', lead_round_robin: [ann.id, bob.id] });
  t.is(saved.status, 200);
  const owners = [];
  for (const name of ['One', 'Two', 'Three']) owners.push(ok(await rep.post('/crm/leads', { name })).owner_id);
  t.deepEqual(owners, [ann.id, bob.id, ann.id]);
  t.like(ok(await rep.post('/crm/leads', { name: 'Mine', owner_id: rep.id })), { owner_id: rep.id });
  t.like(ok(await rep.post('/crm/leads', { name: 'Four' })), { owner_id: bob.id }, 'a named owner does not move the rotation');
  const created = world.takeEvents().filter((event) => event.action === 'core.crm.lead.created').map((event) => event.payload.owner_id);
  t.deepEqual(created, [undefined, ann.id, bob.id, ann.id, rep.id, bob.id]);
});

test.serial('next steps: a deal takes what is to be done and by when; overdue once the day has passed; an empty text clears it', async (t) => {
  const deal = ok(await rep.post('/crm/deals', { title: 'Next steps', amount: '10.00', next_step: ' Call Ann ', next_step_due: '2026-05-04' }));
  t.like(deal, { next_step: 'Call Ann', next_step_due: '2026-05-04', next_step_overdue: false });
  t.like(ok(await rep.patch(`/crm/deals/${deal.id}`, { next_step_due: '2026-05-03' })), { next_step: 'Call Ann', next_step_due: '2026-05-03', next_step_overdue: true });
  const bad = await rep.patch(`/crm/deals/${deal.id}`, { next_step_due: '2026-02-30' });
  t.is(bad.status, 400);
  t.is(bad.body.field, 'next_step_due');
  t.like(ok(await rep.patch(`/crm/deals/${deal.id}`, { next_step: '', next_step_due: null })), { next_step: null, next_step_due: null, next_step_overdue: false });
  world.takeEvents();
});

test.serial('web-to-lead: a public form by token makes a lead once per submission; spam (the hidden field, too many links) is answered alike and writes nothing; rate limited; a retired form is gone', async (t) => {
  const form = ok(await rep.post('/crm/lead-forms', { name: 'Contact sales', source: 'website' }));
  t.like(form, { name: 'Contact sales', source: 'website', active: true, page_url: `/public/apps/crm/lead-form.html#${form.token}` });
  t.regex(form.token, /^[A-Za-z0-9_-]{24}$/);
  t.is((await viewer.post('/crm/lead-forms', { name: 'Mine' })).status, 403);
  const anonymous = world.workspace.anonymous;
  t.deepEqual(ok(await anonymous.get(`/crm/forms/${form.token}`)), { name: 'Contact sales', company: 'crm workspace' });
  world.takeEvents();
  const leadsBefore = (ok(await rep.get('/crm/leads?per_page=100')) as unknown[]).length;

  const bad = await anonymous.post(`/crm/forms/${form.token}/leads`, { name: 'Joan', email: 'not-an-email' });
  t.deepEqual([bad.status, bad.body], [400, { error: 'email must be a valid email', field: 'email' }]);
  t.deepEqual(ok(await anonymous.post(`/crm/forms/${form.token}/leads`, { name: ' Joan Client ', email: 'Joan@Client.example', company_name: 'Client Co', message: 'Call me about pricing' })), { received: true });
  const events = world.takeEvents();
  t.is(events.length, 1);
  const lead = ok(await rep.get(`/crm/leads/${events[0].payload.lead_id}`));
  t.like(lead, { name: 'Joan Client', email: 'joan@client.example', company_name: 'Client Co', source: 'website', notes: 'Call me about pricing', status: 'new' });
  // The round robin set by the test before gives it an owner.
  t.truthy(lead.owner_id);
  t.deepEqual(events[0], { action: 'core.crm.lead.created', payload: { lead_id: lead.id, lead_mrn: lead.mrn, name: 'Joan Client', email: 'joan@client.example', company_name: 'Client Co', source: 'website', owner_id: lead.owner_id, created_by: `mrn:crm:lead_form:${form.id}` } });

  // Spam is answered as a person would be, and leaves nothing.
  t.deepEqual(ok(await anonymous.post(`/crm/forms/${form.token}/leads`, { name: 'Bot', email: 'bot@spam.example', website: 'http://spam.example' })), { received: true });
  t.deepEqual(ok(await anonymous.post(`/crm/forms/${form.token}/leads`, { name: 'Bot', email: 'bot@spam.example', message: 'http://a.example http://b.example www.c.example' })), { received: true });
  t.deepEqual(world.takeEvents(), []);
  t.is((ok(await rep.get('/crm/leads?per_page=100')) as unknown[]).length, leadsBefore + 1);

  // Ten submissions an hour from one address (the two spams count, the refused bad input does not): the eleventh is 429.
  for (let sent = 3; sent < 10; sent++) ok(await anonymous.post(`/crm/forms/${form.token}/leads`, { name: 'Bot', email: 'bot@spam.example', website: 'x' }));
  const limited = await anonymous.post(`/crm/forms/${form.token}/leads`, { name: 'Late', email: 'late@client.example' });
  t.deepEqual([limited.status, limited.body], [429, { error: 'Too many submissions from your address; try again later' }]);

  t.like(ok(await rep.delete(`/crm/lead-forms/${form.id}`)), { id: form.id, active: false });
  t.deepEqual((await anonymous.get(`/crm/forms/${form.token}`)).body, { error: 'This form is not available' });
  t.deepEqual((await anonymous.get('/crm/forms/no-such-token')).status, 404);
  t.deepEqual((ok(await rep.get('/crm/lead-forms')) as Array<{ id: string; active: boolean }>).map((row) => [row.id, row.active]), [[form.id, false]]);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('a deal longer in its stage than the stage SLA days is overdue (the last test: the clock moves past the sessions)', async (t) => {
  t.false(ok(await viewer.get(`/crm/deals/${ids.plain}`)).overdue);
  world.platform.clock.advance({ days: 8 });
  const late = await world.member(['crm.deals.read']);
  t.like(ok(await late.get(`/crm/deals/${ids.plain}`)), { stage_name: 'Discovery', overdue: true });
});
