/**
 * Attachments through the app's storage: an upload link per file, a message (or a draft) naming
 * the uploaded keys, the relay sending them as MIME parts, the recipient's copy storing them in
 * its own account's files with a download link; keys of another account, or never uploaded, are
 * refused with a 400 naming the field.
 */
import anyTest, { type TestFn } from 'ava';
import { ok, prepareWorld, type TestMember } from '@wpk/testing';
import { KEYS, mailWorld, type World } from './helpers/world.js';

type Box = { id: string; address: string };
type Context = World & { ann: TestMember; bob: TestMember; annBox: Box; bobBox: Box };
const test = anyTest as TestFn<Context>;

test.before(async (t) => {
  const world = await mailWorld('mailfiles');
  t.context = await prepareWorld(world, async () => {
    const [ann, bob] = [await world.member(KEYS), await world.member(KEYS)];
    const domainId = await world.hostedDomain('files.test');
    return { ...world, ann, bob, annBox: await world.mailbox(domainId, 'ann', ann), bobBox: await world.mailbox(domainId, 'bob', bob) };
  });
});
test.after.always(async (t) => {
  await t.context?.close();
});

/** Uploads `text` as a file of Ann's account; answers its key. */
async function upload(t: { context: Context }, filename: string, text: string): Promise<string> {
  const { ann, annBox, platform } = t.context;
  const link = ok(await ann.post(`/mail/accounts/${annBox.id}/uploads`, { filename, content_type: 'text/plain', size_bytes: Buffer.byteLength(text) }));
  if (!link.file_key.startsWith(`accounts/${annBox.id}/uploads/`)) throw new Error(link.file_key);
  const put = await platform.follow(link.upload.url, { method: 'PUT', body: text, headers: { 'content-type': 'text/plain' } });
  if (put.status >= 300) throw new Error(`upload: ${put.status}`);
  return link.file_key;
}

test.serial('Ann attaches an uploaded file to a draft and sends it; Bob receives it and downloads it', async (t) => {
  const { ann, bob, annBox, bobBox, platform } = t.context;
  const key = await upload(t, 'plan.txt', 'Q3 plan: ship it');
  const draft = ok(await ann.post('/mail/drafts', { account_id: annBox.id, to: [{ address: bobBox.address }], subject: 'The plan', text: 'Attached.', attachments: [{ file_key: key }] }));
  t.like(draft.attachments[0], { file_key: key, filename: 'plan.txt', content_type: 'text/plain', size_bytes: 16 });
  const sent = ok(await ann.post(`/mail/drafts/${draft.id}/send`, { signature_id: null }));
  t.is(sent.attachments.length, 1);
  t.is(await t.context.flush(), 1);

  const [received] = ok(await bob.get(`/mail/accounts/${bobBox.id}/messages?q=the plan`));
  t.is(received.attachments.length, 1);
  t.like(received.attachments[0], { filename: 'plan.txt', content_type: 'text/plain', size_bytes: 16 });
  t.true(received.attachments[0].file_key.startsWith(`accounts/${bobBox.id}/received/`));
  const link = ok(await bob.get(`/mail/accounts/${bobBox.id}/messages/${received.id}/attachments/${received.attachments[0].id}`));
  t.is(link.method, 'GET');
  const file = await platform.follow(link.url);
  t.is(file.status, 200);
  t.is(file.bytes.toString(), 'Q3 plan: ship it');

  // Ann's own copy (sent) keeps the file too; an unknown attachment id is a 404, another's message as well.
  const unknown = await bob.get(`/mail/accounts/${bobBox.id}/messages/${received.id}/attachments/00000000-0000-4000-8000-000000000000`);
  t.deepEqual([unknown.status, unknown.body], [404, { error: 'Attachment not found' }]);
  const foreign = await ann.get(`/mail/accounts/${bobBox.id}/messages/${received.id}/attachments/${received.attachments[0].id}`);
  t.is(foreign.status, 404);

  // Deleting the message deletes its file; Ann's sent copy keeps hers.
  ok(await bob.delete(`/mail/accounts/${bobBox.id}/messages/${received.id}`));
  t.is((await platform.follow(link.url)).status, 404);
  const [mine] = ok(await ann.get(`/mail/accounts/${annBox.id}/messages?folder=sent&q=the plan`));
  const again = ok(await ann.get(`/mail/accounts/${annBox.id}/messages/${mine.id}/attachments/${mine.attachments[0].id}`));
  t.is((await platform.follow(again.url)).bytes.toString(), 'Q3 plan: ship it');
});

test.serial("a key of another account, or one never uploaded, is refused with a 400 naming the field; nothing is queued", async (t) => {
  const { ann, bob, annBox, bobBox } = t.context;
  const bobLink = ok(await bob.post(`/mail/accounts/${bobBox.id}/uploads`, { filename: 'x.txt' }));
  const before = ok(await ann.get(`/mail/accounts/${annBox.id}/messages?folder=outbox`)).length;
  const foreign = await ann.post(`/mail/accounts/${annBox.id}/messages`, { to: [{ address: bobBox.address }], attachments: [{ file_key: bobLink.file_key }] });
  t.deepEqual([foreign.status, foreign.body], [400, { error: `attachments[0].file_key must be a key of this account's files (accounts/${annBox.id}/...): ask POST /mail/accounts/${annBox.id}/uploads for one` }]);
  const never = `accounts/${annBox.id}/uploads/nothing/here.txt`;
  const missing = await ann.post(`/mail/accounts/${annBox.id}/messages`, { to: [{ address: bobBox.address }], attachments: [{ file_key: never }] });
  t.deepEqual([missing.status, missing.body], [400, { error: `attachments[0].file_key ${never} names no uploaded file` }]);
  const draft = await ann.post('/mail/drafts', { account_id: annBox.id, attachments: [{ file_key: never }] });
  t.deepEqual([draft.status, draft.body], [400, { error: `attachments[0].file_key ${never} names no uploaded file` }]);
  t.is(ok(await ann.get(`/mail/accounts/${annBox.id}/messages?folder=outbox`)).length, before);
  // A discarded draft's upload goes with it.
  const kept = await upload(t, 'later.txt', 'maybe');
  const discarded = ok(await ann.post('/mail/drafts', { account_id: annBox.id, attachments: [{ file_key: kept }] }));
  ok(await ann.delete(`/mail/drafts/${discarded.id}`));
  const gone = await ann.post(`/mail/accounts/${annBox.id}/messages`, { to: [{ address: bobBox.address }], attachments: [{ file_key: kept }] });
  t.deepEqual([gone.status, gone.body], [400, { error: `attachments[0].file_key ${kept} names no uploaded file` }]);
  const noName = await ann.post(`/mail/accounts/${annBox.id}/uploads`, {});
  t.deepEqual([noName.status, noName.body], [400, { error: 'filename is required', field: 'filename' }]);
});
