/**
 * The workspace's own signing certificate: an admin uploads a PKCS#12 file issued by a CA (a test
 * CA made with node-forge: root → intermediate → leaf); envelopes completed afterwards are signed
 * with it and carry its chain (pdfsig: "Signature is Valid", the leaf's common name), envelopes
 * completed before keep their signature, and going back brings the generated certificate again.
 * Every refusal is exact, writes nothing and emits nothing; the passphrase and key never show.
 */
import fs from 'node:fs';
import test from 'ava';
import { ok, startWorld, type TestMember, type World } from '@wpk/testing';
import app from '../src/index.js';
import { embeddedCertificates, fingerprint, issue, p12, testCa } from './ca.js';
import { makePdf, poppler } from './helpers.js';

// The runtime's log lines (pino writes them to file descriptor 1 through fs.write/fs.writeSync): kept here, not printed.
const logLines: string[] = [];
const realWrite = fs.write;
const realWriteSync = fs.writeSync;
const text = (chunk: unknown) => (typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
(fs as { write: unknown }).write = (fd: number, chunk: unknown, ...rest: unknown[]) => {
  if (fd !== 1) return (realWrite as (...args: unknown[]) => void)(fd, chunk, ...rest);
  logLines.push(text(chunk));
  const done = rest.at(-1) as (error: null, written: number) => void;
  process.nextTick(() => done(null, Buffer.byteLength(text(chunk))));
};
(fs as { writeSync: unknown }).writeSync = (fd: number, chunk: unknown, ...rest: unknown[]) => {
  if (fd !== 1) return (realWriteSync as (...args: unknown[]) => number)(fd, chunk, ...rest);
  logLines.push(text(chunk));
  return Buffer.byteLength(text(chunk));
};

const PASSPHRASE = 'correct horse battery staple 7!';
const SENDER = ['sign.envelopes.read', 'sign.envelopes.create', 'sign.verifications.create'];

let world: World;
let admin: TestMember;
let reader: TestMember;
let sender: TestMember;
let ann: TestMember;
let pdf: Buffer;
const ca = testCa();

test.before(async () => {
  world = await startWorld({ app, subdomain: 'sign', clock: new Date('2026-03-02T09:00:00.000Z'), logLevel: 'debug' });
  admin = await world.member(['sign.certificates.manage'], { name: 'Ada Admin' });
  reader = await world.member(['sign.certificates.read'], { name: 'Rita Reader' });
  sender = await world.member(SENDER, { name: 'Sam Sender' });
  ann = await world.member(['sign.envelopes.read', 'sign.envelopes.sign'], { name: 'Ann Inside' });
  pdf = await makePdf('Supply agreement');
});
test.after.always(async () => {
  await world.close();
  fs.write = realWrite;
  fs.writeSync = realWriteSync;
});

/** An envelope Ann signs alone: completed, its final file fetched. */
async function completed(title: string): Promise<{ id: string; file: Buffer }> {
  const envelope = ok(await sender.post('/sign/envelopes', { title, document: { filename: 'supply.pdf', data_base64: pdf.toString('base64') }, recipients: [{ name: 'Ann Inside', email: ann.email, member_id: ann.id, fields: [{ type: 'signature', page: 1, x: 0.1, y: 0.8, width: 0.3, height: 0.06 }] }] }));
  const sent = ok(await sender.post(`/sign/envelopes/${envelope.id}/send`, {}));
  t_is(ok(await ann.post(`/sign/envelopes/${envelope.id}/recipients/${sent.recipients[0].id}/sign`, { signature: { kind: 'type', text: 'Ann Inside' } })).status, 'completed');
  world.takeEvents();
  const file = (await world.platform.follow(`http://sign.localhost/sign/envelopes/${envelope.id}/document?version=final`, { headers: { cookie: sender.cookie, 'x-api-version': '2026-11-01' } })).bytes;
  return { id: envelope.id, file };
}
const t_is = (actual: unknown, expected: unknown) => {
  if (actual !== expected) throw new Error(`expected ${String(expected)}, got ${String(actual)}`);
};

const identities = () => world.query<{ name: string; certificate_pem: string; key_sealed: string; fingerprint: string }>('SELECT name, certificate_pem, key_sealed FROM app_sign.identities ORDER BY name');

let generated: Record<string, unknown>;
let before: { id: string; file: Buffer };

test.serial('the generated certificate: shown to a reader and an admin, refused to anyone else, never with its key', async (t) => {
  generated = ok(await reader.get('/sign/certificate'));
  t.like(generated, { source: 'generated', common_name: 'sign workspace (sign)', subject: 'CN=sign workspace (sign), O=Workspace Platform Kit Sign', issuer: 'CN=sign workspace (sign), O=Workspace Platform Kit Sign', chain_length: 1 });
  t.regex(String(generated.fingerprint_sha256), /^[0-9a-f]{64}$/);
  t.regex(String(generated.serial), /^01[0-9a-f]{16}$/);
  t.deepEqual(Object.keys(generated).sort(), ['chain_length', 'common_name', 'fingerprint_sha256', 'issuer', 'serial', 'source', 'stored_at', 'subject', 'valid_from', 'valid_to']);
  t.deepEqual(ok(await admin.get('/sign/certificate')), generated);
  const refused = await sender.get('/sign/certificate');
  t.deepEqual([refused.status, refused.body], [403, { error: 'Missing permission: sign.certificates.read' }]);
  const upload = await reader.put('/sign/certificate', { p12: p12(ca.leaf.key, [ca.leaf.cert], PASSPHRASE), passphrase: PASSPHRASE });
  t.deepEqual([upload.status, upload.body], [403, { error: 'Missing permission: sign.certificates.manage' }]);
  t.is((await reader.delete('/sign/certificate')).status, 403);

  before = await completed('Signed before the upload');
  const signature = await poppler('pdfsig', before.file);
  t.regex(signature.out, /Signer Certificate Common Name: sign workspace \(sign\)/);
  t.regex(signature.out, /Signature Validation: Signature is Valid\./);
  t.deepEqual(embeddedCertificates(before.file), ['sign workspace (sign)']);
});

test.serial('each bad upload is refused with 400 naming the field, keeps the certificate in use, writes nothing and emits nothing', async (t) => {
  const expired = issue('Expired Leaf', { issuer: ca.intermediate, from: new Date('2025-01-01T00:00:00.000Z'), to: new Date('2026-01-01T00:00:00.000Z') });
  const early = issue('Early Leaf', { issuer: ca.intermediate, from: new Date('2027-01-01T00:00:00.000Z') });
  const encipherOnly = issue('Encipher Only Leaf', { issuer: ca.intermediate, usage: { keyEncipherment: true } });
  const rows = await identities();
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['not base64', { p12: 'this is %%% not base64', passphrase: PASSPHRASE }, { error: 'p12 is not base64', field: 'p12' }],
    ['not a PKCS#12', { p12: pdf.toString('base64'), passphrase: PASSPHRASE }, { error: 'p12 is not a PKCS#12 file', field: 'p12' }],
    ['wrong passphrase', { p12: p12(ca.leaf.key, [ca.leaf.cert, ca.intermediate.cert], PASSPHRASE), passphrase: 'Tr0ub4dor&3 wrong' }, { error: 'passphrase does not open the PKCS#12 file', field: 'passphrase' }],
    ['no private key', { p12: p12(null, [ca.leaf.cert, ca.intermediate.cert], PASSPHRASE), passphrase: PASSPHRASE }, { error: 'p12 holds no private key', field: 'p12' }],
    ['no certificate matching the key', { p12: p12(ca.leaf.key, [ca.intermediate.cert, ca.root.cert], PASSPHRASE), passphrase: PASSPHRASE }, { error: 'p12 holds no certificate matching its private key', field: 'p12' }],
    ['expired', { p12: p12(expired.key, [expired.cert, ca.intermediate.cert], PASSPHRASE), passphrase: PASSPHRASE }, { error: "p12's certificate expired on 2026-01-01T00:00:00.000Z", field: 'p12' }],
    ['not yet valid', { p12: p12(early.key, [early.cert, ca.intermediate.cert], PASSPHRASE), passphrase: PASSPHRASE }, { error: "p12's certificate is not valid before 2027-01-01T00:00:00.000Z", field: 'p12' }],
    ['key usage without digital signature', { p12: p12(encipherOnly.key, [encipherOnly.cert, ca.intermediate.cert], PASSPHRASE), passphrase: PASSPHRASE }, { error: "p12's certificate's key usage does not allow digital signatures", field: 'p12' }],
  ];
  world.takeEvents();
  for (const [name, payload, body] of cases) {
    const answer = await admin.put('/sign/certificate', payload);
    t.deepEqual([answer.status, answer.body], [400, body], name);
    t.false(JSON.stringify(answer.body).includes(String(payload.passphrase)), `${name}: the answer does not echo the passphrase`);
  }
  const missing = await admin.put('/sign/certificate', { p12: p12(ca.leaf.key, [ca.leaf.cert], PASSPHRASE) });
  t.deepEqual([missing.status, missing.body.field], [400, 'passphrase']);
  t.deepEqual(world.takeEvents(), [], 'no event on a failure');
  t.deepEqual(await identities(), rows, 'nothing written');
  t.deepEqual(ok(await admin.get('/sign/certificate')), generated, 'the generated certificate is still in use');
});

test.serial('an uploaded PKCS#12 signs the envelopes completed after it, with its chain; the ones completed before keep their signature and both verify', async (t) => {
  world.takeEvents();
  // The file holds the chain out of order (root, leaf, intermediate): the app orders it from the leaf.
  const uploaded = ok(await admin.put('/sign/certificate', { p12: p12(ca.leaf.key, [ca.root.cert, ca.leaf.cert, ca.intermediate.cert], PASSPHRASE), passphrase: PASSPHRASE }));
  const expected = {
    source: 'uploaded', subject: 'CN=Acme Signing Leaf, O=Acme Corp', common_name: 'Acme Signing Leaf', issuer: 'CN=Acme Test Intermediate CA, O=Acme Corp',
    serial: ca.leaf.cert.serialNumber, valid_from: '2026-01-01T00:00:00.000Z', valid_to: '2028-01-01T00:00:00.000Z', fingerprint_sha256: fingerprint(ca.leaf.cert), chain_length: 3,
  };
  t.like(uploaded, expected);
  t.deepEqual(ok(await reader.get('/sign/certificate')), uploaded);
  t.deepEqual(world.takeEvents(), [{ action: 'core.sign.certificate.replaced', payload: { source: 'uploaded', subject: expected.subject, issuer: expected.issuer, serial: expected.serial, fingerprint_sha256: expected.fingerprint_sha256, valid_from: expected.valid_from, valid_to: expected.valid_to, chain_length: 3, by: `mrn:account:member:${admin.id}` } }]);

  // At rest: the key sealed, the passphrase nowhere.
  const rows = await identities();
  t.deepEqual(rows.map((row) => row.name), ['default', 'uploaded']);
  const stored = rows[1];
  t.is(stored.certificate_pem.match(/BEGIN CERTIFICATE/g)?.length, 3);
  for (const row of rows) {
    const all = JSON.stringify(row);
    t.false(all.includes('PRIVATE KEY'));
    t.false(Buffer.from(row.key_sealed, 'base64').toString('latin1').includes('PRIVATE KEY'));
    t.false(all.includes(PASSPHRASE));
  }
  const everything = await world.query<Record<string, unknown>>("SELECT row_to_json(i)::text AS row FROM app_sign.identities i");
  t.false(JSON.stringify(everything).includes(PASSPHRASE));

  const after = await completed('Signed after the upload');
  const signature = await poppler('pdfsig', after.file);
  t.is(signature.code, 0, signature.out);
  t.regex(signature.out, /Signer Certificate Common Name: Acme Signing Leaf\n/);
  t.regex(signature.out, /Signature Validation: Signature is Valid\./);
  t.deepEqual(embeddedCertificates(after.file), ['Acme Signing Leaf', 'Acme Test Intermediate CA', 'Acme Test Root CA'], 'the chain is embedded, from the leaf');

  // The envelope completed before is not re-signed: the same bytes, still the generated signature.
  const old = (await world.platform.follow(`http://sign.localhost/sign/envelopes/${before.id}/document?version=final`, { headers: { cookie: sender.cookie, 'x-api-version': '2026-11-01' } })).bytes;
  t.true(old.equals(before.file));
  t.regex((await poppler('pdfsig', old)).out, /Signer Certificate Common Name: sign workspace \(sign\)[\s\S]*Signature is Valid/);
  t.like(ok(await sender.post('/sign/verifications', { data_base64: old.toString('base64') })), { verified: true, envelope_id: before.id });
  t.like(ok(await sender.post('/sign/verifications', { data_base64: after.file.toString('base64') })), { verified: true, envelope_id: after.id });

  // Another upload replaces the uploaded one (one row, one event); a leaf signed by the root directly has a chain of two.
  const direct = issue('Acme Direct Leaf', { issuer: ca.root });
  t.like(ok(await admin.put('/sign/certificate', { p12: p12(direct.key, [direct.cert, ca.root.cert, ca.intermediate.cert], '') , passphrase: '' })), { common_name: 'Acme Direct Leaf', issuer: 'CN=Acme Test Root CA, O=Acme Corp', chain_length: 2 });
  t.deepEqual(world.takeEvents().map((event) => [event.action, event.payload.fingerprint_sha256]), [['core.sign.certificate.replaced', fingerprint(direct.cert)]]);
  t.deepEqual((await identities()).map((row) => row.name), ['default', 'uploaded']);
  t.regex((await poppler('pdfsig', (await completed('Signed by the direct leaf')).file)).out, /Signer Certificate Common Name: Acme Direct Leaf\n[\s\S]*Signature is Valid/);
});

test.serial('going back: DELETE brings the generated certificate again (the same one), 409 when there is nothing to remove', async (t) => {
  world.takeEvents();
  const back = ok(await admin.delete('/sign/certificate'));
  t.deepEqual({ ...back, stored_at: undefined }, { ...generated, stored_at: undefined });
  t.deepEqual(world.takeEvents(), [{ action: 'core.sign.certificate.replaced', payload: { source: 'generated', subject: generated.subject, issuer: generated.issuer, serial: generated.serial, fingerprint_sha256: generated.fingerprint_sha256, valid_from: generated.valid_from, valid_to: generated.valid_to, chain_length: 1, by: `mrn:account:member:${admin.id}` } }]);
  t.deepEqual((await identities()).map((row) => row.name), ['default'], 'the uploaded key is deleted');
  const again = await admin.delete('/sign/certificate');
  t.deepEqual([again.status, again.body], [409, { error: 'The workspace already signs with its generated certificate' }]);
  t.deepEqual(world.takeEvents(), []);
  const file = (await completed('Signed after going back')).file;
  t.regex((await poppler('pdfsig', file)).out, /Signer Certificate Common Name: sign workspace \(sign\)\n[\s\S]*Signature is Valid/);
});

test.serial('the passphrase and the key never reach a log line', async (t) => {
  // Refused once more with a wrong passphrase, after the lines so far: every request left a line.
  await admin.put('/sign/certificate', { p12: p12(ca.leaf.key, [ca.leaf.cert], PASSPHRASE), passphrase: `${PASSPHRASE} (wrong)` });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const lines = logLines.join('').split('\n').filter(Boolean);
  const puts = lines.filter((line) => line.includes('"method":"PUT"') && line.includes('"route":"/sign/certificate"'));
  t.true(puts.length >= 12, `the request lines are captured (${puts.length})`);
  t.true(lines.some((line) => line.includes('"status":400')));
  for (const secret of [PASSPHRASE, 'PRIVATE KEY', 'BEGIN CERTIFICATE']) t.false(lines.some((line) => line.includes(secret)), secret.slice(0, 20));
});
