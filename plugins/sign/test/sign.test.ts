import test from 'ava';
import { ok, startWorld, type TestMember, type World } from '@wpk/testing';
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
