import anyTest, { type TestFn } from 'ava';
import { prepareWorld } from '@wpk/testing';
import { mailWorld, type World } from './helpers/world.js';

interface Context extends World {
  dana: Awaited<ReturnType<World['member']>>;
  box: { id: string; address: string };
  peer: { id: string; address: string };
}

const test = anyTest as TestFn<Context>;
const KEYS = ['mail.accounts.read', 'mail.accounts.edit', 'mail.messages.read', 'mail.messages.edit', 'mail.messages.send'];

test.before(async (t) => {
  const world = await mailWorld('mailapp');
  t.context = await prepareWorld(world, async () => {
    const domainId = await world.hostedDomain('mail-app.test');
    const dana = await world.member(KEYS);
    const box = await world.mailbox(domainId, 'dana', dana);
    const peer = await world.mailbox(domainId, 'peer');
    world.takeEvents();
    return { ...world, dana, box, peer };
  });
});
test.after.always(async (t) => {
  await t.context?.close();
});

test.serial("accounts are the caller's assigned mailboxes; another member's account answers 404", async (t) => {
  const { dana, box, peer, owner } = t.context;
  const accounts = await dana.get('/mail/accounts');
  t.deepEqual(accounts.body.data.map((row: { id: string; kind: string; address: string }) => [row.id, row.kind, row.address]), [[box.id, 'hosted', 'dana@mail-app.test']]);
  const renamed = await dana.patch(`/mail/accounts/${box.id}`, { display_name: 'Dana D.' });
  t.is(renamed.body.data.display_name, 'Dana D.');
  const foreign = await dana.get(`/mail/accounts/${peer.id}/messages`);
  t.deepEqual([foreign.status, foreign.body], [404, { error: 'Account not found' }]);
  const foreignSignature = await dana.patch(`/mail/accounts/${box.id}`, { signature_id: '00000000-0000-4000-8000-000000000000' });
  t.deepEqual([foreignSignature.status, foreignSignature.body], [400, { error: 'signature_id 00000000-0000-4000-8000-000000000000 is not a signature of this account' }]);
  t.is((await owner.get(`/mail/accounts/${box.id}/messages`)).status, 404, "even the owner reads only the accounts assigned to them");
});

test.serial('signatures: created, replaced with PUT, appended to sent mail as the default, deleted', async (t) => {
  const { dana, box, peer } = t.context;
  const created = await dana.post(`/mail/accounts/${box.id}/signatures`, { name: 'Work', text: 'Dana, Sales' });
  t.like(created.body.data, { name: 'Work', text: 'Dana, Sales', html: '' });
  const duplicate = await dana.post(`/mail/accounts/${box.id}/signatures`, { name: 'work' });
  t.deepEqual([duplicate.status, duplicate.body], [409, { error: 'A signature named work already exists' }]);
  const replaced = await dana.put(`/mail/accounts/${box.id}/signatures/${created.body.data.id}`, { name: 'Work', text: 'Dana\nHead of Sales' });
  t.like(replaced.body.data, { text: 'Dana\nHead of Sales', html: '' });
  await dana.patch(`/mail/accounts/${box.id}`, { signature_id: created.body.data.id });
  const sent = await dana.post(`/mail/accounts/${box.id}/messages`, { to: [{ address: peer.address }], subject: 'Signed', text: 'Hello' });
  t.is(sent.body.data.text, 'Hello\n\n-- \nDana\nHead of Sales');
  const plain = await dana.post(`/mail/accounts/${box.id}/messages`, { to: [{ address: peer.address }], subject: 'Unsigned', text: 'Hi', signature_id: null });
  t.is(plain.body.data.text, 'Hi');
  const list = await dana.get(`/mail/accounts/${box.id}/signatures`);
  t.deepEqual(list.body.data.map((row: { name: string }) => row.name), ['Work']);
  const removed = await dana.delete(`/mail/accounts/${box.id}/signatures/${created.body.data.id}`);
  t.deepEqual(removed.body.data, { id: created.body.data.id, deleted: true });
  t.is((await dana.get('/mail/accounts')).body.data[0].signature_id, null);
  await t.context.flush();
  t.context.takeEvents();
});

test.serial('messages: listed by folder newest first, marked, moved and deleted; the index follows', async (t) => {
  const { dana, box, peer, owner, platform } = t.context;
  const sent = await dana.get(`/mail/accounts/${box.id}/messages?folder=sent`);
  t.deepEqual(sent.body.data.map((row: { subject: string; delivery_status: string }) => [row.subject, row.delivery_status]), [['Unsigned', 'sent'], ['Signed', 'sent']]);
  const reply = await owner.post(`/mail/accounts/${peer.id}/messages`, { to: [{ address: box.address }], subject: 'Re: Signed', text: 'Thanks', in_reply_to: sent.body.data[1].message_id_header });
  t.is(reply.status, 200);
  await t.context.flush();
  const inbox = await dana.get(`/mail/accounts/${box.id}/messages?seen=false`);
  t.deepEqual(inbox.body.data.map((row: { subject: string; in_reply_to: string }) => [row.subject, row.in_reply_to]), [['Re: Signed', sent.body.data[1].message_id_header]]);
  const id = inbox.body.data[0].id;
  platform.search.length = 0;
  const marked = await dana.patch(`/mail/accounts/${box.id}/messages/${id}`, { seen: true, flagged: true, folder: 'archive' });
  t.like(marked.body.data, { seen: true, flagged: true, folder: 'archive' });
  const toOutbox = await dana.patch(`/mail/accounts/${box.id}/messages/${id}`, { folder: 'outbox' });
  t.deepEqual([toOutbox.status, toOutbox.body], [409, { error: 'A queued message stays in the outbox until it is sent' }]);
  t.deepEqual((await dana.get(`/mail/accounts/${box.id}/messages?folder=archive&flagged=true`)).body.data.map((row: { id: string }) => row.id), [id]);
  const read = await dana.get(`/mail/accounts/${box.id}/messages/${id}`);
  t.is(read.body.data.text.trim(), 'Thanks');
  const gone = await dana.delete(`/mail/accounts/${box.id}/messages/${id}`);
  t.deepEqual(gone.body.data, { id, deleted: true });
  t.is((await dana.get(`/mail/accounts/${box.id}/messages/${id}`)).status, 404);
  t.deepEqual(platform.search.map((change) => [change.op, change.op === 'remove' ? change.id : null]), [['remove', id]]);
  const reader = await t.context.member(['mail.messages.read']);
  t.is((await reader.patch(`/mail/accounts/${box.id}/messages/${id}`, { seen: true })).status, 403);
  t.context.takeEvents();
});

test.serial('drafts: started, saved whole with PUT, sent (then gone), or discarded', async (t) => {
  const { dana, box, peer } = t.context;
  const started = await dana.post('/mail/drafts', { account_id: box.id, subject: 'Proposal', to: [{ address: peer.address }] });
  t.like(started.body.data, { account_id: box.id, subject: 'Proposal', text: '', cc: [] });
  const foreign = await dana.post('/mail/drafts', { account_id: peer.id, subject: 'x' });
  t.deepEqual([foreign.status, foreign.body], [400, { error: `account_id ${peer.id} is not one of your accounts` }]);
  const saved = await dana.put(`/mail/drafts/${started.body.data.id}`, { subject: 'Proposal v2', text: 'Draft body', cc: [{ address: 'Partner@Elsewhere.test', name: 'Partner' }] });
  t.like(saved.body.data, { subject: 'Proposal v2', text: 'Draft body', to: [], cc: [{ address: 'partner@elsewhere.test', name: 'Partner' }] });
  const noRecipient = await dana.put(`/mail/drafts/${started.body.data.id}`, { subject: 'Proposal v3', text: 'Final' });
  t.is(noRecipient.status, 200);
  const refused = await dana.post(`/mail/drafts/${started.body.data.id}/send`, {});
  t.deepEqual([refused.status, refused.body], [400, { error: 'to, cc or bcc must name at least one recipient' }]);
  await dana.put(`/mail/drafts/${started.body.data.id}`, { subject: 'Proposal v3', text: 'Final', to: [{ address: peer.address }] });
  const list = await dana.get('/mail/drafts');
  t.deepEqual(list.body.data.map((row: { subject: string }) => row.subject), ['Proposal v3']);
  const sent = await dana.post(`/mail/drafts/${started.body.data.id}/send`, {});
  t.like(sent.body.data, { subject: 'Proposal v3', folder: 'outbox', delivery_status: 'queued' });
  t.is((await dana.get(`/mail/drafts/${started.body.data.id}`)).status, 404);
  t.is(await t.context.flush(), 1);
  t.deepEqual(t.context.takeEvents().map((event) => event.action), ['core.mail.message.received', 'core.mail.message.sent']);

  const other = await dana.post('/mail/drafts', { account_id: box.id, subject: 'Throwaway' });
  t.deepEqual((await dana.delete(`/mail/drafts/${other.body.data.id}`)).body.data, { id: other.body.data.id, deleted: true });
  t.is((await t.context.owner.get(`/mail/drafts/${other.body.data.id}`)).status, 404);
});

test.serial('filters and blocked senders refuse what they cannot run', async (t) => {
  const { dana, box } = t.context;
  const noFolder = await dana.post(`/mail/accounts/${box.id}/filters`, { name: 'x', conditions: [{ field: 'subject', operator: 'contains', value: 'a' }], actions: [{ type: 'move' }] });
  t.deepEqual([noFolder.status, noFolder.body], [400, { error: 'actions: a move action needs a folder' }]);
  const badField = await dana.post(`/mail/accounts/${box.id}/filters`, { name: 'x', conditions: [{ field: 'date', operator: 'contains', value: 'a' }], actions: [{ type: 'flag' }] });
  t.is(badField.status, 400);
  const filter = await dana.post(`/mail/accounts/${box.id}/filters`, { name: 'Flag boss', conditions: [{ field: 'from', operator: 'equals', value: 'boss@x.test' }], actions: [{ type: 'flag' }] });
  t.like(filter.body.data, { name: 'Flag boss', match: 'all', position: 0 });
  t.deepEqual((await dana.get(`/mail/accounts/${box.id}/filters`)).body.data.map((row: { name: string }) => row.name), ['Flag boss']);
  t.deepEqual((await dana.delete(`/mail/accounts/${box.id}/filters/${filter.body.data.id}`)).body.data, { id: filter.body.data.id, deleted: true });
  const badAddress = await dana.post(`/mail/accounts/${box.id}/blocked-senders`, { address: 'not an address' });
  t.deepEqual([badAddress.status, badAddress.body], [400, { error: 'address must be an address (name@example.com) or a domain (@example.com)' }]);
  const blocked = await dana.post(`/mail/accounts/${box.id}/blocked-senders`, { address: 'Pest@X.test' });
  t.is(blocked.body.data.address, 'pest@x.test');
  t.is((await dana.post(`/mail/accounts/${box.id}/blocked-senders`, { address: 'pest@x.test' })).status, 409);
  t.deepEqual((await dana.delete(`/mail/accounts/${box.id}/blocked-senders/${blocked.body.data.id}`)).body.data, { id: blocked.body.data.id, deleted: true });
  t.is((await dana.delete(`/mail/accounts/${box.id}/blocked-senders/${blocked.body.data.id}`)).status, 404);
});

test.serial('a relay that refuses is retried later, and the message fails after the last attempt', async (t) => {
  const { dana, box, platform } = t.context;
  const queued = (await dana.post(`/mail/accounts/${box.id}/messages`, { to: [{ address: 'someone@not-hosted.test' }], subject: 'Bounce', text: 'x' })).body.data;
  t.is(await t.context.flush(), 0);
  const first = (await dana.get(`/mail/accounts/${box.id}/messages/${queued.id}`)).body.data;
  t.like(first, { delivery_status: 'queued', attempts: 1, folder: 'outbox' });
  t.regex(first.last_error, /550/);
  for (let attempt = 2; attempt <= 5; attempt += 1) {
    await platform.query("UPDATE app_mail.messages SET next_attempt_at = now() - interval '1 second' WHERE id = :id", { id: queued.id });
    await t.context.flush();
  }
  const last = (await dana.get(`/mail/accounts/${box.id}/messages/${queued.id}`)).body.data;
  t.like(last, { delivery_status: 'failed', attempts: 5 });
  t.deepEqual(t.context.takeEvents(), [{ action: 'core.mail.message.failed', payload: { message_id: queued.id, account_id: box.id, reason: last.last_error } }]);
});

test.serial('search: delivered and sent messages are indexed for the compliance search, and re-indexed', async (t) => {
  const { platform, workspace } = t.context;
  const documents = await platform.runtime.reindexSearch({ app: 'mail', workspaceId: workspace.id });
  t.is(documents.length, 1);
  const [{ count }] = (await platform.query<{ count: string }>("SELECT count(*) FROM app_mail.messages WHERE delivery_status IS NULL OR delivery_status = 'sent'")) as [{ count: string }];
  t.is(documents[0]!.documents, Number(count));
  const auditor = await t.context.member(['mail.workspace_messages.view']);
  const found = await auditor.get('/search?app=mail&q=Proposal');
  t.is(found.status, 200);
  t.true(found.body.data.length >= 1);
  const reader = await t.context.member(['mail.messages.read']);
  const hidden = await reader.get('/search?app=mail&q=Proposal');
  t.is(hidden.body.data?.length ?? 0, 0);
});

test.serial('every route of the authorization table answers 403 naming its key without it, and passes with exactly it', async (t) => {
  const rows = await t.context.workspace.permissionMatrix('mail');
  t.is(rows.length, 56);
});

test.serial('every table can be distributed by workspace, and the migrations go down and up', async (t) => {
  const { platform } = t.context;
  t.deepEqual(await platform.distributionProblems(), []);
  t.deepEqual(await platform.migrateDown('mail'), ['0005-attachments', '0004-drop-member-directory', '0003-domain-ownership', '0002-connected-accounts', '0001-create-mail-tables']);
  t.deepEqual(await platform.migrateUp('mail'), ['0001-create-mail-tables', '0002-connected-accounts', '0003-domain-ownership', '0004-drop-member-directory', '0005-attachments']);
  t.deepEqual(await platform.distributionProblems(), []);
});
