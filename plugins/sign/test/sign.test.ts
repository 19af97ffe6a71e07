import test from 'ava';
import { checkMatrixRows, ok, startWorld, type TestMember, type World } from '@wpk/testing';
import app from '../src/index.js';
import { codeIn, makePdf, PNG, poppler, tokenOf } from './helpers.js';

const SENDER = ['sign.envelopes.read', 'sign.envelopes.create', 'sign.verifications.create', 'sign.templates.read', 'sign.templates.manage'];
const SIGNER = ['sign.envelopes.read', 'sign.envelopes.sign'];
const UNKNOWN = '00000000-0000-4000-8000-000000000abc';

let world: World;
let sender: TestMember;
let ann: TestMember;
let bob: TestMember;
let manager: TestMember;
let pdf: Buffer;

test.before(async () => {
  world = await startWorld({ app, subdomain: 'sign', clock: new Date('2026-03-02T09:00:00.000Z') });
  sender = await world.member(SENDER, { name: 'Sam Sender' });
  ann = await world.member(SIGNER, { name: 'Ann Inside' });
  bob = await world.member(SIGNER, { name: 'Bob Colleague' });
  manager = await world.member([...SIGNER, 'sign.envelopes.manage'], { name: 'Meg Manager' });
  pdf = await makePdf('Master services agreement', 2);
});
test.after.always(() => world.close());

const document = (bytes: Buffer = pdf, filename = 'msa.pdf') => ({ filename, data_base64: bytes.toString('base64') });
const signatureField = (page = 1) => ({ type: 'signature', page, x: 0.1, y: 0.8, width: 0.3, height: 0.06 });
const anonymous = () => world.workspace.anonymous;
/** Rows sorted by their first column (mails leave in no fixed order). */
const byTo = <T extends unknown[]>(rows: T[]): T[] => [...rows].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
let seen = 0;
/** The mails sent since the last call (the outbox drained first). */
const mails = async () => {
  const all = (await world.platform.drainMail()) as unknown as Array<{ to: string[]; subject: string; text: string; attachments?: Array<{ filename: string }> }>;
  const fresh = all.slice(seen);
  seen = all.length;
  return fresh;
};

/** Three external signers and Ann: Ext One and Ann sign in parallel in group 1, Ext Two in group 2; Copy Cat gets the final file. */
async function prepared(title: string) {
  return ok(await sender.post('/sign/envelopes', {
    title,
    message: 'Please sign the agreement',
    document: document(),
    recipients: [
      { name: 'Ext One', email: 'one@client.test', group: 1, fields: [signatureField(), { type: 'date', page: 1, x: 0.5, y: 0.8, width: 0.2, height: 0.04 }, { type: 'text', page: 2, x: 0.1, y: 0.2, width: 0.4, height: 0.04, label: 'Job title' }, { type: 'checkbox', page: 2, x: 0.1, y: 0.3, width: 0.03, height: 0.03, label: 'I agree', required: true }] },
      { name: 'Ann Inside', email: ann.email, member_id: ann.id, group: 1, fields: [signatureField(2)] },
      { name: 'Ext Two', email: 'two@client.test', group: 2, fields: [{ type: 'initials', page: 1, x: 0.8, y: 0.9, width: 0.1, height: 0.05 }] },
      { name: 'Copy Cat', email: 'copy@client.test', role: 'copy', group: 2 },
    ],
  }));
}

test.serial('an envelope signs in order: the copied link of a later group is refused (409) until the earlier group is done; the final PDF is sealed, pdfsig verifies it, and verification knows it', async (t) => {
  const envelope = await prepared('MSA with Client');
  t.like(envelope, { status: 'draft', source_mrn: `mrn:sign:envelope:${envelope.id}`, current_group: null, document: { filename: 'msa.pdf', pages: 2 } });
  t.deepEqual(envelope.recipients.map((one: { name: string; group: number; role: string; status: string; signing_url: string | null }) => [one.name, one.group, one.role, one.status, one.signing_url]), [
    ['Ext One', 1, 'signer', 'pending', null], ['Ann Inside', 1, 'signer', 'pending', null], ['Ext Two', 2, 'signer', 'pending', null], ['Copy Cat', 2, 'copy', 'pending', null],
  ]);
  world.takeEvents();
  await mails();

  const sent = ok(await sender.post(`/sign/envelopes/${envelope.id}/send`, {}));
  t.like(sent, { status: 'sent', current_group: 1, reminder_days: 3 });
  t.is(Date.parse(sent.expires_at) - Date.parse(sent.sent_at), 30 * 86_400_000, 'the settings\' 30 days');
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.sign.envelope.sent', 'core.sign.expiry.scheduled', 'core.sign.reminder.scheduled']);
  t.deepEqual(byTo((await mails()).map((mail) => [mail.to, mail.subject])), byTo([[['one@client.test'], 'Please sign: MSA with Client'], [[ann.email], 'Please sign: MSA with Client']]));
  const [one, annR, two, copy] = sent.recipients as Array<{ id: string; signing_url: string | null; status: string }>;
  t.deepEqual([one.status, annR.status, two.status, copy.status], ['notified', 'notified', 'pending', 'pending']);
  t.is(annR.signing_url, null, 'an internal signer has no link: they sign signed in');
  t.truthy(two.signing_url, 'the sender can copy every external link, the later group\'s too');
  t.is(ok(await ann.get(`/sign/envelopes/${envelope.id}`)).recipients[2].signing_url, null, 'only the sender sees the links');
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload.recipient_id]), [['core.sign.envelope.viewed', annR.id]], 'Ann opened it on her turn');

  // The copied-link bypass: Ext Two's link, handed over early, is refused on every step.
  const early = tokenOf(two.signing_url!);
  const refusal = { error: "It is not Ext Two's turn: group 2 signs after group 1 has finished" };
  for (const [method, path, body] of [['POST', `/sign/signing/${early}`, {}], ['POST', `/sign/signing/${early}/document`, {}], ['POST', `/sign/signing/${early}/code`, {}], ['POST', `/sign/signing/${early}/sign`, { code: '123456', signature: { kind: 'type', text: 'Ext Two' } }], ['POST', `/sign/signing/${early}/decline`, { code: '123456', reason: 'no' }]] as const) {
    const answer = await anonymous().request(method, path, body);
    t.is(answer.status, 409, `${method} ${path}`);
    t.deepEqual(answer.body, refusal);
  }
  t.is((await anonymous().post(`/sign/signing/${tokenOf(copy.signing_url!)}`, {})).body.error, 'Copy Cat receives a copy and does not sign');
  t.deepEqual(world.takeEvents(), [], 'the refusals emit nothing');
  t.deepEqual(await mails(), [], 'and mail nothing');

  // Ann's recipient is hers alone: a colleague gets nothing, a manager who sees the envelope is refused.
  t.is((await bob.post(`/sign/envelopes/${envelope.id}/recipients/${annR.id}/sign`, { signature: { kind: 'type', text: 'Ann' } })).status, 404);
  const forwarded = await manager.post(`/sign/envelopes/${envelope.id}/recipients/${annR.id}/sign`, { signature: { kind: 'type', text: 'Ann' } });
  t.is(forwarded.status, 403);
  t.deepEqual(forwarded.body, { error: 'Only Ann Inside signs as this recipient' });

  // Ext One: the page, a code by mail, a wrong code, then the right one.
  const link = tokenOf(one.signing_url!);
  const page = ok(await anonymous().post(`/sign/signing/${link}`, {}, { 'user-agent': 'ExtOneBrowser/1.0' }));
  t.like(page, { title: 'MSA with Client', name: 'Ext One', email: 'o…@client.test', role: 'signer', pages: 2 });
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.sign.envelope.viewed']);
  const fieldIds = (page.fields as Array<{ id: string; type: string }>).map((field) => field.id);
  const unsigned = await anonymous().post(`/sign/signing/${link}/document`, {});
  t.is(unsigned.status, 200);
  t.is(ok(await anonymous().post(`/sign/signing/${link}/code`, {})).sent_to, 'o…@client.test');
  const code = codeIn(await mails(), 'one@client.test');
  const wrong = await anonymous().post(`/sign/signing/${link}/sign`, { code: code === '000000' ? '111111' : '000000', signature: { kind: 'draw', image: PNG }, values: { [fieldIds[2]]: 'CTO', [fieldIds[3]]: true } });
  t.deepEqual([wrong.status, wrong.body], [403, { error: 'The code is not right' }]);
  const unticked = await anonymous().post(`/sign/signing/${link}/sign`, { code, signature: { kind: 'draw', image: PNG }, values: { [fieldIds[2]]: 'CTO' } });
  t.deepEqual([unticked.status, unticked.body], [400, { error: `values.${fieldIds[3]} (I agree) must be ticked`, field: `values.${fieldIds[3]}` }]);
  t.like(ok(await anonymous().post(`/sign/signing/${link}/sign`, { code, signature: { kind: 'draw', image: PNG }, values: { [fieldIds[2]]: 'CTO', [fieldIds[3]]: true } }, { 'user-agent': 'ExtOneBrowser/1.0' })), { status: 'sent', recipient_status: 'signed' });
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload.final_storage_key ?? null]), [['core.sign.recipient.signed', null]]);
  t.is((await anonymous().post(`/sign/signing/${link}/sign`, { code, signature: { kind: 'type', text: 'again' } })).status, 409, 'a link signs once');
  t.is((await anonymous().post(`/sign/signing/${early}`, {})).status, 409, 'group 2 still waits for Ann');

  // Ann signs signed in: group 1 is done, group 2 is notified and the same copied link now works.
  t.like(ok(await ann.post(`/sign/envelopes/${envelope.id}/recipients/${annR.id}/sign`, { signature: { kind: 'type', text: 'Ann Inside' } })), { status: 'sent', current_group: 2 });
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.sign.recipient.signed']);
  t.deepEqual((await mails()).map((mail) => [mail.to, mail.subject]), [[['two@client.test'], 'Please sign: MSA with Client']]);
  ok(await anonymous().post(`/sign/signing/${early}`, {}));
  ok(await anonymous().post(`/sign/signing/${early}/code`, {}));
  const done = ok(await anonymous().post(`/sign/signing/${early}/sign`, { code: codeIn(await mails(), 'two@client.test'), signature: { kind: 'type', text: 'E.T.' } }));
  t.deepEqual(done, { envelope_id: envelope.id, status: 'completed', recipient_status: 'signed' });

  const completed = ok(await sender.get(`/sign/envelopes/${envelope.id}`));
  t.like(completed, { status: 'completed', current_group: null, final_storage_key: `envelopes/${envelope.id}/final.pdf` });
  const events = world.takeEvents();
  t.deepEqual(events.map((event) => event.action), ['core.sign.envelope.viewed', 'core.sign.envelope.completed', 'core.sign.recipient.signed']);
  t.deepEqual(events[1].payload, { envelope_id: envelope.id, mrn: `mrn:sign:envelope:${envelope.id}`, source_mrn: `mrn:sign:envelope:${envelope.id}`, completed_at: completed.completed_at, final_storage_key: completed.final_storage_key, final_sha256: completed.final_sha256, original_sha256: envelope.document.sha256 });
  t.is(events[2].payload.final_storage_key, completed.final_storage_key);
  const finalMails = await mails();
  t.deepEqual(byTo(finalMails.map((mail) => [mail.to[0], mail.subject, mail.attachments?.map((one) => one.filename)])), byTo(['one@client.test', ann.email, 'two@client.test', 'copy@client.test'].map((to) => [to, 'Completed: MSA with Client', ['msa-signed.pdf']])));

  // The final file: sealed with the workspace's certificate (poppler's pdfsig), fields and the audit certificate inside.
  const file = (await world.platform.follow(`http://sign.localhost/sign/envelopes/${envelope.id}/document?version=final`, { headers: { cookie: sender.cookie, 'x-api-version': '2026-11-01' } })).bytes;
  const signature = await poppler('pdfsig', file);
  t.is(signature.code, 0, signature.out);
  t.regex(signature.out, /Signer Certificate Common Name: .*\(sign\)/);
  t.regex(signature.out, /Signature Validation: Signature is Valid\./);
  t.regex(signature.out, /Total document signed/);
  t.regex(signature.out, /Signature Type: adbe\.pkcs7\.detached/);
  const text = (await poppler('pdftotext', file)).out;
  for (const expected of ['Master services agreement (page 1)', 'CTO', 'Ann Inside', 'E.T.', 'Certificate of completion', `SHA-256 of the original document: ${envelope.document.sha256}`, 'code_sent', 'Ext One <one@client.test>', 'ExtOneBrowser/1.0', 'Ext Two <two@client.test>', '127.0.0.1', '2026-03-02']) t.true(text.includes(expected), `the final text has ${expected}`);

  // Tampering breaks it: pdfsig and the verification route both say so.
  const tampered = Buffer.from(file);
  const at = tampered.indexOf('/MediaBox [ 0 0 595 842 ]');
  t.true(at > 0);
  tampered.write('/MediaBox [ 0 0 595 843 ]', at, 'latin1');
  t.regex((await poppler('pdfsig', tampered)).out, /Signature is Invalid|Digest Mismatch/);
  t.like(ok(await sender.post('/sign/verifications', { filename: 'msa-signed.pdf', data_base64: file.toString('base64') })), { verified: true, envelope_id: envelope.id, title: 'MSA with Client', original_sha256: envelope.document.sha256, completed_at: completed.completed_at });
  t.like(ok(await sender.post('/sign/verifications', { data_base64: tampered.toString('base64') })), { verified: false, envelope_id: null, message: 'Not a file this workspace completed, or altered since' });
  t.like(ok(await sender.post('/sign/verifications', { data_base64: pdf.toString('base64') })), { verified: false, message: 'This is the unsigned original of an envelope, not a completed file' });

  const trail = ok(await sender.get(`/sign/envelopes/${envelope.id}/audit?per_page=100`)) as Array<{ action: string; actor: string; ip: string | null; user_agent: string | null }>;
  t.deepEqual(trail.map((row) => row.action), ['created', 'sent', 'notified', 'notified', 'viewed', 'viewed', 'code_sent', 'signed', 'signed', 'notified', 'viewed', 'code_sent', 'signed', 'completed', 'sealed']);
  t.like(trail[7], { actor: 'Ext One <one@client.test>', ip: '127.0.0.1', user_agent: 'ExtOneBrowser/1.0' });
});

test.serial('internal signers sign in order too: a later group\'s member gets 409 on the signed-in route until the earlier group is done', async (t) => {
  const envelope = ok(await sender.post('/sign/envelopes', {
    title: 'Internal approval',
    source_mrn: 'mrn:crm:quote:00000000-0000-4000-8000-000000000001',
    document: document(),
    recipients: [
      { name: 'Ann Inside', email: ann.email, member_id: ann.id, group: 1, fields: [signatureField()] },
      { name: 'Bob Colleague', email: bob.email, member_id: bob.id, role: 'approver', group: 2 },
    ],
  }));
  ok(await sender.post(`/sign/envelopes/${envelope.id}/send`, {}));
  const [annR, bobR] = envelope.recipients as Array<{ id: string }>;
  world.takeEvents();
  const early = await bob.post(`/sign/envelopes/${envelope.id}/recipients/${bobR.id}/sign`, {});
  t.deepEqual([early.status, early.body], [409, { error: "It is not Bob Colleague's turn: group 2 signs after group 1 has finished" }]);
  const earlyDecline = await bob.post(`/sign/envelopes/${envelope.id}/recipients/${bobR.id}/decline`, { reason: 'too early' });
  t.is(earlyDecline.status, 409);
  t.deepEqual(world.takeEvents(), []);
  const noMark = await ann.post(`/sign/envelopes/${envelope.id}/recipients/${annR.id}/sign`, {});
  t.deepEqual([noMark.status, noMark.body], [400, { error: 'signature is required: draw, type or upload one', field: 'signature' }]);
  const badImage = await ann.post(`/sign/envelopes/${envelope.id}/recipients/${annR.id}/sign`, { signature: { kind: 'upload', image: 'data:image/png;base64,AAAA' } });
  t.deepEqual([badImage.status, badImage.body], [400, { error: 'signature.image is not a PNG or JPEG image', field: 'signature.image' }]);
  t.deepEqual(world.takeEvents(), [], 'a refused signature writes nothing, not even the view');
  ok(await ann.post(`/sign/envelopes/${envelope.id}/recipients/${annR.id}/sign`, { signature: { kind: 'upload', image: PNG } }));
  const approved = ok(await bob.post(`/sign/envelopes/${envelope.id}/recipients/${bobR.id}/sign`, {}));
  t.is(approved.status, 'completed');
  const events = world.takeEvents();
  t.deepEqual(events.map((event) => event.action), ['core.sign.envelope.viewed', 'core.sign.recipient.signed', 'core.sign.envelope.viewed', 'core.sign.envelope.completed', 'core.sign.recipient.signed']);
  t.is(events[3].payload.source_mrn, 'mrn:crm:quote:00000000-0000-4000-8000-000000000001');
  t.like(events[4].payload, { role: 'approver', final_storage_key: `envelopes/${envelope.id}/final.pdf` });
  t.deepEqual(ok(await bob.get('/sign/envelopes?source_mrn=mrn:crm:quote:00000000-0000-4000-8000-000000000001')).map((one: { id: string }) => one.id), [envelope.id]);
});

test.serial('a decline ends the envelope with its reason; the sender voids with a reason; only a draft changes or is deleted', async (t) => {
  const first = ok(await sender.post('/sign/envelopes', { title: 'Declined one', document: document(), recipients: [{ name: 'Ext Three', email: 'three@client.test', fields: [signatureField()] }] }));
  const sent = ok(await sender.post(`/sign/envelopes/${first.id}/send`, {}));
  const link = tokenOf(sent.recipients[0].signing_url);
  await mails();
  ok(await anonymous().post(`/sign/signing/${link}/code`, {}));
  world.takeEvents();
  const declined = ok(await anonymous().post(`/sign/signing/${link}/decline`, { code: codeIn(await mails(), 'three@client.test'), reason: 'Wrong amount' }));
  t.deepEqual(declined, { envelope_id: first.id, status: 'declined', recipient_status: 'declined' });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.sign.envelope.declined', payload: { envelope_id: first.id, mrn: `mrn:sign:envelope:${first.id}`, source_mrn: `mrn:sign:envelope:${first.id}`, reason: 'Wrong amount', recipient_id: sent.recipients[0].id } },
  ]);
  t.like(ok(await sender.get(`/sign/envelopes/${first.id}`)), { status: 'declined', reason: 'Wrong amount', recipients: [{ status: 'declined', reason: 'Wrong amount' }] });
  const voidDeclined = await sender.post(`/sign/envelopes/${first.id}/void`, { reason: 'x' });
  t.deepEqual([voidDeclined.status, voidDeclined.body.error], [409, 'Cannot void an envelope in state declined: void moves from draft or sent to voided']);

  const second = ok(await sender.post('/sign/envelopes', { title: 'Voided one', document: document(), recipients: [{ name: 'Ann Inside', email: ann.email, member_id: ann.id, fields: [signatureField()] }] }));
  t.is((await sender.post(`/sign/envelopes/${second.id}/void`, {})).status, 400, 'a reason is required');
  t.is((await ann.post(`/sign/envelopes/${second.id}/void`, { reason: 'mine now' })).status, 403, 'a recipient does not void');
  ok(await sender.post(`/sign/envelopes/${second.id}/send`, {}));
  t.is((await sender.patch(`/sign/envelopes/${second.id}`, { title: 'Changed' })).status, 409);
  t.is((await sender.delete(`/sign/envelopes/${second.id}`)).status, 409);
  world.takeEvents();
  t.like(ok(await sender.post(`/sign/envelopes/${second.id}/void`, { reason: 'Superseded' })), { status: 'voided', reason: 'Superseded', current_group: null });
  t.deepEqual(world.takeEvents(), [{ action: 'core.sign.envelope.voided', payload: { envelope_id: second.id, mrn: `mrn:sign:envelope:${second.id}`, source_mrn: `mrn:sign:envelope:${second.id}`, reason: 'Superseded' } }]);
  const annSigns = await ann.post(`/sign/envelopes/${second.id}/recipients/${second.recipients[0].id}/sign`, { signature: { kind: 'type', text: 'Ann' } });
  t.deepEqual([annSigns.status, annSigns.body], [409, { error: `Envelope ${second.id} is voided: there is nothing to sign` }]);

  const draft = ok(await sender.post('/sign/envelopes', { title: 'Draft', document: document(), recipients: [{ name: 'X', email: 'x@client.test' }] }));
  const unsendable = await sender.post(`/sign/envelopes/${draft.id}/send`, {});
  t.deepEqual([unsendable.status, unsendable.body], [409, { error: 'Signer X has no signature field: place one before sending' }]);
  const patched = ok(await sender.patch(`/sign/envelopes/${draft.id}`, { title: 'Draft 2', recipients: [{ name: 'X', email: 'x@client.test', fields: [signatureField(2)] }, { name: 'Y', email: 'Y@Client.test', role: 'approver', group: 2 }] }));
  t.deepEqual(patched.recipients.map((one: { email: string; group: number; fields: unknown[] }) => [one.email, one.group, one.fields.length]), [['x@client.test', 1, 1], ['y@client.test', 2, 0]]);
  const offPage = await sender.patch(`/sign/envelopes/${draft.id}`, { recipients: [{ name: 'X', email: 'x@client.test', fields: [signatureField(3)] }] });
  t.deepEqual([offPage.status, offPage.body.error], [400, "recipients[0].fields[0].page 3 is past the document's last page (2)"]);
  const notPdf = await sender.post('/sign/envelopes', { title: 'Not a PDF', document: { filename: 'a.pdf', data_base64: Buffer.from('hello').toString('base64') } });
  t.deepEqual([notPdf.status, notPdf.body.error], [400, 'document is not a PDF']);
  const badHash = await sender.post('/sign/envelopes', { title: 'Bad hash', document: { ...document(), sha256: '0'.repeat(64) } });
  t.is(badHash.status, 400);
  t.is((await bob.get(`/sign/envelopes/${draft.id}`)).status, 404, 'a colleague does not see another\'s envelope');
  t.deepEqual(ok(await sender.delete(`/sign/envelopes/${draft.id}`)), { id: draft.id, deleted: true });
  t.is((await sender.get(`/sign/envelopes/${draft.id}`)).status, 404);
  t.is((await sender.get(`/sign/envelopes/${UNKNOWN}`)).status, 404);
});

/** Delivers a `*.signature_requested` event to Sign as the broker would (crm may not be loaded). */
const deliverRequest = (payload: Record<string, unknown>, deliveryId: string) =>
  world.platform.runtime.apps.dispatch('sign', { action: 'core.crm.quote.signature_requested', payload, metadata: { workspace_id: world.workspaceId }, deliveryId, attempt: 1 } as never);

test.serial('a *.signature_requested delivery becomes the requester\'s draft envelope, exactly once per delivery', async (t) => {
  const quote = '00000000-0000-4000-8000-0000000000q7'.replace('q7', 'a7');
  const bytes = await makePdf('Quote Q-0007');
  const payload = {
    quote_id: quote, source_mrn: `mrn:crm:quote:${quote}`, requested_by: sender.id, title: 'Quote Q-0007 for Acme', message: 'Please sign the quote',
    signers: [{ name: 'Ada', email: 'ada@acme.test', role: 'signer', group: 1 }, { name: 'Ann Inside', email: ann.email, member_id: ann.id, role: 'approver', group: 2 }, { name: 'Ops', email: 'ops@acme.test', role: 'copy', group: 2 }],
    document: { filename: 'Q-0007.pdf', content_type: 'application/pdf', sha256: (await import('node:crypto')).createHash('sha256').update(bytes).digest('hex'), data_base64: bytes.toString('base64') },
  };
  const before = (ok(await sender.get('/sign/envelopes?per_page=100')) as unknown[]).length;
  t.is(await deliverRequest(payload, 'delivery-1'), 'handled');
  t.is(await deliverRequest(payload, 'delivery-1'), 'handled');
  const mine = ok(await sender.get(`/sign/envelopes?source_mrn=mrn:crm:quote:${quote}`)) as Array<Record<string, any>>;
  t.is(mine.length, 1, 'a redelivery makes nothing');
  t.like(mine[0], { title: 'Quote Q-0007 for Acme', message: 'Please sign the quote', status: 'draft', owner_id: sender.id, document: { filename: 'Q-0007.pdf', sha256: payload.document.sha256, pages: 1 } });
  t.deepEqual(mine[0].recipients.map((one: Record<string, unknown>) => [one.name, one.email, one.member_id, one.role, one.group, one.status]), [
    ['Ada', 'ada@acme.test', null, 'signer', 1, 'pending'], ['Ann Inside', ann.email, ann.id, 'approver', 2, 'pending'], ['Ops', 'ops@acme.test', null, 'copy', 2, 'pending'],
  ]);
  const original = await world.platform.follow(`http://sign.localhost/sign/envelopes/${mine[0].id}/document`, { headers: { cookie: sender.cookie, 'x-api-version': '2026-11-01' } });
  t.true(original.bytes.equals(bytes), 'sign keeps its own copy of the document');
  t.is(await deliverRequest(payload, 'delivery-2'), 'handled');
  t.is((ok(await sender.get(`/sign/envelopes?source_mrn=mrn:crm:quote:${quote}`)) as unknown[]).length, 2, 'another delivery is another request');
  await deliverRequest({ ...payload, document: { ...payload.document, sha256: '0'.repeat(64) } }, 'delivery-3');
  t.is((ok(await sender.get('/sign/envelopes?per_page=100')) as unknown[]).length, before + 2, 'a document whose hash does not match makes nothing');
  t.deepEqual(world.takeEvents().filter((event) => event.action.startsWith('core.sign.envelope')), []);
  // The requester reviews, places Ada's signature, and sends.
  ok(await sender.patch(`/sign/envelopes/${mine[0].id}`, { recipients: [{ name: 'Ada', email: 'ada@acme.test', fields: [signatureField()] }, { name: 'Ann Inside', email: ann.email, member_id: ann.id, role: 'approver', group: 2 }] }));
  t.like(ok(await sender.post(`/sign/envelopes/${mine[0].id}/send`, {})), { status: 'sent', source_mrn: `mrn:crm:quote:${quote}` });
});

test.serial('reminders and expiry come on the broker\'s delayed events', async (t) => {
  const envelope = ok(await sender.post('/sign/envelopes', { title: 'Expiring', document: document(), reminder_days: 2, expires_at: new Date(world.platform.clock.now().getTime() + 5 * 86_400_000).toISOString(), recipients: [{ name: 'Slow', email: 'slow@client.test', fields: [signatureField()] }] }));
  world.takeEvents();
  const mark = world.mark();
  ok(await sender.post(`/sign/envelopes/${envelope.id}/send`, {}));
  await mails();
  world.platform.clock.advance({ days: 2, hours: 1 });
  await world.platform.deliverDue(world.workspace);
  t.deepEqual((await mails()).map((mail) => [mail.to[0], mail.subject]), [['slow@client.test', 'Reminder: please sign Expiring']]);
  world.platform.clock.advance({ days: 2 });
  await world.platform.deliverDue(world.workspace);
  t.deepEqual((await mails()).map((mail) => mail.subject), ['Reminder: please sign Expiring']);
  t.is(ok(await sender.get(`/sign/envelopes/${envelope.id}`)).status, 'sent');
  world.platform.clock.advance({ days: 1 });
  await world.platform.deliverDue(world.workspace);
  t.like(ok(await sender.get(`/sign/envelopes/${envelope.id}`)), { status: 'expired', reason: 'Not signed before it expired' });
  t.deepEqual(world.eventsSince(mark).map(([action]) => action), ['core.sign.envelope.sent', 'core.sign.expiry.scheduled', 'core.sign.reminder.scheduled', 'core.sign.reminder.scheduled', 'core.sign.envelope.expired']);
  world.takeEvents();
  const trail = ok(await sender.get(`/sign/envelopes/${envelope.id}/audit`)) as Array<{ action: string }>;
  t.deepEqual(trail.map((row) => row.action), ['created', 'sent', 'notified', 'reminded', 'reminded', 'expired']);
});

test.serial('templates: a PDF with fields per role and merge fields; an envelope from a template carries the merged values into the final file', async (t) => {
  const bytes = await makePdf('Offer letter');
  const template = ok(await sender.post('/sign/templates', {
    name: 'Offer letter', document: { filename: 'offer.pdf', data_base64: bytes.toString('base64') }, roles: ['Candidate', 'Manager'],
    fields: [
      { role: 'Candidate', type: 'signature', page: 1, x: 0.1, y: 0.8, width: 0.3, height: 0.06 },
      { role: 'Candidate', type: 'text', page: 1, x: 0.1, y: 0.3, width: 0.5, height: 0.04, merge_key: 'salary', label: 'Salary' },
      { role: 'Manager', type: 'initials', page: 1, x: 0.6, y: 0.8, width: 0.1, height: 0.05 },
    ],
  }));
  t.like(template, { name: 'Offer letter', roles: ['Candidate', 'Manager'], merge_keys: ['salary'], document: { filename: 'offer.pdf', pages: 1 } });
  const badRole = await sender.post('/sign/templates', { name: 'Bad', document: { filename: 'offer.pdf', data_base64: bytes.toString('base64') }, roles: ['A'], fields: [{ role: 'B', type: 'signature', page: 1, x: 0, y: 0, width: 0.1, height: 0.1 }] });
  t.deepEqual([badRole.status, badRole.body.error], [400, 'fields[0].role B is not one of roles (A)']);
  t.like(ok(await sender.patch(`/sign/templates/${template.id}`, { description: 'Standard offer' })), { description: 'Standard offer', merge_keys: ['salary'] });
  t.deepEqual((ok(await ann.get('/sign/envelopes')) as unknown[]).length >= 0, true);
  t.is((await ann.get('/sign/templates')).status, 403);
  t.deepEqual((ok(await sender.get('/sign/templates?q=offer')) as Array<{ id: string }>).map((one) => one.id), [template.id]);

  const missing = await sender.post('/sign/envelopes', { title: 'Offer', template_id: template.id, recipients: [{ name: 'Cand', email: 'cand@client.test' }, { name: 'Ann Inside', email: ann.email, member_id: ann.id }] });
  t.deepEqual([missing.status, missing.body.error], [400, "merge_values lacks salary (the template's merge fields)"]);
  const envelope = ok(await sender.post('/sign/envelopes', { title: 'Offer', template_id: template.id, merge_values: { salary: 'EUR 88000.50' }, recipients: [{ name: 'Cand', email: 'cand@client.test' }, { name: 'Ann Inside', email: ann.email, member_id: ann.id }] }));
  t.deepEqual(envelope.recipients.map((one: { group: number; fields: Array<{ type: string; value: unknown }> }) => [one.group, one.fields.map((field) => [field.type, field.value])]), [[1, [['signature', null], ['text', 'EUR 88000.50']]], [2, [['initials', null]]]]);
  const sent = ok(await sender.post(`/sign/envelopes/${envelope.id}/send`, {}));
  const link = tokenOf(sent.recipients[0].signing_url);
  await mails();
  ok(await anonymous().post(`/sign/signing/${link}/code`, {}));
  ok(await anonymous().post(`/sign/signing/${link}/sign`, { code: codeIn(await mails(), 'cand@client.test'), signature: { kind: 'type', text: 'Cand Idate' }, values: { [sent.recipients[0].fields[1].id]: 'EUR 1' } }));
  ok(await ann.post(`/sign/envelopes/${envelope.id}/recipients/${sent.recipients[1].id}/sign`, { signature: { kind: 'type', text: 'AI' } }));
  const file = (await world.platform.follow(`http://sign.localhost/sign/envelopes/${envelope.id}/document?version=final`, { headers: { cookie: sender.cookie, 'x-api-version': '2026-11-01' } })).bytes;
  const text = (await poppler('pdftotext', file)).out;
  t.true(text.includes('EUR 88000.50'), 'the merged value, not what the signer tried to put instead');
  t.false(text.includes('EUR 1\n'));
  t.deepEqual(ok(await sender.delete(`/sign/templates/${template.id}`)), { id: template.id, deleted: true });
  t.is(ok(await sender.get(`/sign/envelopes/${envelope.id}`)).template_id, null);
});

test.serial('the workspace\'s signing key is stored sealed, never in clear; every table is keyed by workspace', async (t) => {
  const rows = await world.query<{ certificate_pem: string; key_sealed: string }>('SELECT certificate_pem, key_sealed FROM app_sign.identities');
  t.is(rows.length, 1, 'one identity per workspace, made on the first completion');
  t.true(rows[0].certificate_pem.startsWith('-----BEGIN CERTIFICATE-----'));
  t.false(rows[0].key_sealed.includes('PRIVATE KEY'));
  t.false(Buffer.from(rows[0].key_sealed, 'base64').toString('latin1').includes('PRIVATE KEY'));
  t.deepEqual(await world.platform.distributionProblems(), []);
});

test.serial('the permission matrix: each route refuses a member without its key and lets one holding it past layer 5', async (t) => {
  const rows = await world.workspace.permissionMatrix('sign');
  t.deepEqual(rows.filter((row) => row.skipped || row.note).map((row) => row.route).sort(), ['POST /sign/signing/{token}', 'POST /sign/signing/{token}/code', 'POST /sign/signing/{token}/decline', 'POST /sign/signing/{token}/document', 'POST /sign/signing/{token}/sign']);
  t.is(rows.length, 25);
  checkMatrixRows(t, rows.filter((row) => !row.note && !row.skipped));
});
