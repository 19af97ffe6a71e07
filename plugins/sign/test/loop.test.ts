/**
 * The quote → sign → won loop, end to end, with both real apps: CRM asks for a quote's signature
 * (`core.crm.quote.signature_requested`), the platform delivers it to Sign as the broker would
 * (signed deliveries of the captured events, `deliverDue`), the requester sends the draft envelope,
 * the client signs by link and mailed code, Sign's `core.sign.envelope.completed` is delivered to
 * CRM, and the quote is accepted and the deal won, `core.crm.deal.won` carrying the lines. A
 * redelivery of the completion changes nothing. A paper sent for signature
 * (`core.papers.paper.signature_requested`) becomes a draft envelope the same way, from the event alone.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { ok, startWorld, type TestMember, type World } from '@wpk/testing';
import app from '../src/index.js';
import { codeIn, tokenOf } from './helpers.js';

let world: World;
let rep: TestMember;

test.before(async () => {
  world = await startWorld({ app, subdomain: 'loop', apps: [fileURLToPath(new URL('../../crm', import.meta.url)), fileURLToPath(new URL('../../papers', import.meta.url))], firstParty: ['sign', 'crm', 'papers'], clock: new Date('2026-05-04T09:00:00.000Z') });
  await world.workspace.install('crm');
  await world.workspace.install('papers');
  // The owner holds every key of both apps: the sales rep who asks for the signature and sends the envelope.
  rep = world.owner;
});
test.after.always(() => world?.close());

/** Delivers every captured event that is due to the apps subscribing to it; answers `action → outcome by app`. */
const deliver = async () => (await world.platform.deliverDue(world.workspace)).map((done) => [done.event.action, done.outcomes] as const);

test.serial('a quote sent for signature is accepted and its deal won once the client signs, through real deliveries both ways', async (t) => {
  const pipeline = ok(await rep.post('/crm/pipelines', { name: 'Sales', stages: [{ name: 'Proposal', probability: 50 }, { name: 'Negotiation', probability: 80 }] }));
  const widget = ok(await rep.post('/crm/products', { name: 'Widget', unit_price: '19.99', currency: 'EUR' }));
  const deal = ok(await rep.post('/crm/deals', { title: 'Acme rollout', pipeline_id: pipeline.id, lines: [{ product_id: widget.id, quantity: '3' }, { description: 'Training day', quantity: '1', unit_price: '500.00' }] }));
  const quote = ok(await rep.post(`/crm/deals/${deal.id}/quotes`, {}));
  ok(await rep.post(`/crm/quotes/${quote.id}/signature-requests`, { message: 'Please sign', signers: [{ name: 'Ada Client', email: 'ada@client.test' }] }));

  // The request reaches Sign through a signed delivery: the requester's draft envelope, with the quote's PDF.
  t.deepEqual((await deliver()).filter(([action]) => action === 'core.crm.quote.signature_requested'), [['core.crm.quote.signature_requested', { sign: 'handled' }]]);
  const drafts = ok(await rep.get('/sign/envelopes')) as Array<{ id: string; status: string; source_mrn: string }>;
  t.deepEqual(drafts.map((one) => [one.status, one.source_mrn]), [['draft', `mrn:crm:quote:${quote.id}`]]);
  const envelope = ok(await rep.get(`/sign/envelopes/${drafts[0].id}`));
  t.like(envelope, { owner_id: rep.id, status: 'draft' });

  // The requester places the signature field and sends; the client signs with the mailed code.
  ok(await rep.patch(`/sign/envelopes/${envelope.id}`, { recipients: [{ name: 'Ada Client', email: 'ada@client.test', group: 1, fields: [{ type: 'signature', page: 1, x: 0.1, y: 0.8, width: 0.3, height: 0.06 }] }] }));
  const sent = ok(await rep.post(`/sign/envelopes/${envelope.id}/send`, {}));
  const link = tokenOf(sent.recipients[0].signing_url);
  const anonymous = world.workspace.anonymous;
  ok(await anonymous.post(`/sign/signing/${link}`, {}));
  ok(await anonymous.post(`/sign/signing/${link}/code`, {}));
  const code = codeIn((await world.platform.drainMail()) as never, 'ada@client.test');
  t.like(ok(await anonymous.post(`/sign/signing/${link}/sign`, { code, signature: { kind: 'type', text: 'Ada Client' } })), { status: 'completed' });

  // The completion reaches CRM through a signed delivery: the quote is accepted, the deal won with its lines.
  const mark = world.mark();
  const delivered = await deliver();
  t.deepEqual(delivered.filter(([action]) => action === 'core.sign.envelope.completed'), [['core.sign.envelope.completed', { crm: 'handled' }]]);
  t.like(ok(await rep.get(`/crm/quotes/${quote.id}`)), { status: 'accepted', envelope_id: envelope.id });
  t.like(ok(await rep.get(`/crm/deals/${deal.id}`)), { status: 'won' });
  const won = world.platform.events.slice(mark).filter((event) => event.action === 'core.crm.deal.won');
  t.is(won.length, 1);
  t.like(won[0].payload, { deal_id: deal.id, quote_id: quote.id, amount: '559.97', currency: 'EUR' });
  t.deepEqual((won[0].payload.lines as Array<Record<string, unknown>>).map((line) => [line.product_mrn ?? null, line.description, line.quantity, line.amount]), [
    [`mrn:crm:product:${widget.id}`, 'Widget', '3', '59.97'],
    [null, 'Training day', '1', '500.00'],
  ]);

  // The deal's events go out once: a second round of deliveries has nothing new to win.
  await deliver();
  t.is(world.platform.events.filter((event) => event.action === 'core.crm.deal.won').length, 1);
});

test.serial('a paper sent for signature becomes the requester\'s draft envelope through a real delivery, with its PDF and signers', async (t) => {
  const paper = ok(await rep.post('/papers', { title: 'Service agreement', content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'The parties agree.' }] }] } }));
  const request = ok(await rep.post(`/papers/${paper.id}/signature-requests`, { message: 'Please sign', signers: [{ name: 'Ada Client', email: 'ada@client.test' }, { member_mrn: rep.mrn, role: 'approver', group: 2 }] }));
  t.deepEqual((await deliver()).filter(([action]) => action === 'core.papers.paper.signature_requested'), [['core.papers.paper.signature_requested', { sign: 'handled' }]]);
  const drafts = ok(await rep.get(`/sign/envelopes?source_mrn=mrn:papers:paper:${paper.id}`)) as Array<Record<string, any>>;
  t.is(drafts.length, 1);
  t.like(drafts[0], { owner_id: rep.id, status: 'draft', title: 'Service agreement', message: 'Please sign', document: { filename: 'Service agreement.pdf', sha256: request.sha256, pages: 1 } });
  t.deepEqual(drafts[0].recipients.map((one: Record<string, unknown>) => [one.name, one.email, one.member_id, one.role, one.group, one.status]), [
    ['Ada Client', 'ada@client.test', null, 'signer', 1, 'pending'],
    [rep.name, rep.email, rep.id, 'approver', 2, 'pending'],
  ]);
  // Another round of deliveries has nothing new for Sign: still one envelope.
  await deliver();
  t.is((ok(await rep.get(`/sign/envelopes?source_mrn=mrn:papers:paper:${paper.id}`)) as unknown[]).length, 1);
});
