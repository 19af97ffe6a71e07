/**
 * Connected accounts against a real IMAP server (Debian's Dovecot, see helpers/dovecot.ts) and a
 * real SMTP server (an `smtp-server` instance that insists on the account's login), driven
 * through the API and the app's sync; what lands on the IMAP server is read back with a separate
 * IMAP client.
 */
import anyTest, { type TestFn } from 'ava';
import { ImapFlow } from 'imapflow';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { startDovecot, type Dovecot } from './helpers/dovecot.js';
import { mailWorld, type World } from './helpers/world.js';

interface Received {
  user: string;
  from: string;
  to: string[];
  raw: Buffer;
}

interface Context extends World {
  dovecot: Dovecot;
  smtp: SMTPServer;
  smtpPort: number;
  outgoing: Received[];
  carol: Awaited<ReturnType<World['member']>>;
  hostedBox: { id: string; address: string };
}

const test = anyTest as TestFn<Context>;
const KEYS = ['mail.accounts.read', 'mail.accounts.edit', 'mail.accounts.manage', 'mail.messages.read', 'mail.messages.edit', 'mail.messages.send'];
const USER = 'carol@remote.test';
const PASSWORD = 'carol-imap-secret';

test.before(async (t) => {
  const dovecot = await startDovecot([{ user: USER, password: PASSWORD }]);
  const outgoing: Received[] = [];
  const smtp = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) return callback(null, { user: auth.username });
      callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        outgoing.push({ user: String(session.user), from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((entry) => entry.address), raw: Buffer.concat(chunks) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const smtpPort = (smtp.server.address() as { port: number }).port;
  const world = await mailWorld('connected').catch(async (error) => {
    await dovecot.stop();
    throw error;
  });
  try {
    const domainId = await world.hostedDomain('hosted.test');
    const carol = await world.member(KEYS);
    const hostedBox = await world.mailbox(domainId, 'carol', carol);
    world.takeEvents();
    t.context = { ...world, dovecot, smtp, smtpPort, outgoing, carol, hostedBox };
  } catch (error) {
    await world.close();
    await dovecot.stop();
    throw error;
  }
});

test.after.always(async (t) => {
  await t.context?.close();
  await new Promise<void>((resolve) => (t.context?.smtp ? t.context.smtp.close(() => resolve()) : resolve()));
  await t.context?.dovecot?.stop();
});

/** A separate IMAP client on Dovecot: what the server holds, seen from outside the app. */
async function onServer<T>(dovecot: Dovecot, work: (client: ImapFlow) => Promise<T>): Promise<T> {
  const client = new ImapFlow({ host: dovecot.host, port: dovecot.port, secure: false, doSTARTTLS: false, auth: { user: USER, pass: PASSWORD }, logger: false, disableAutoIdle: true });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.logout();
  }
}

function rfc822(from: string, subject: string, body: string, id: string): string {
  return [`From: ${from}`, `To: ${USER}`, `Subject: ${subject}`, `Message-ID: <${id}@remote.test>`, 'Date: Tue, 03 Mar 2026 10:00:00 +0000', '', body, ''].join('\r\n');
}

/** UID → flags of a folder on the server. */
async function serverFlags(dovecot: Dovecot, path: string): Promise<Array<{ subject: string; seen: boolean; flagged: boolean }>> {
  return onServer(dovecot, async (client) => {
    const lock = await client.getMailboxLock(path);
    try {
      const rows: Array<{ subject: string; seen: boolean; flagged: boolean }> = [];
      if ((client.mailbox && client.mailbox.exists) === 0) return rows;
      for await (const message of client.fetch('1:*', { uid: true, flags: true, envelope: true })) {
        rows.push({ subject: message.envelope?.subject ?? '', seen: message.flags?.has('\\Seen') ?? false, flagged: message.flags?.has('\\Flagged') ?? false });
      }
      return rows;
    } finally {
      lock.release();
    }
  });
}

function connectBody(t: { context: Context }, password = PASSWORD) {
  return {
    address: USER,
    display_name: 'Carol (remote)',
    imap: { host: '127.0.0.1', port: t.context.dovecot.port, security: 'none', username: USER, password },
    smtp: { host: '127.0.0.1', port: t.context.smtpPort, security: 'none' },
  };
}

let accountId = '';

test.serial('connecting: a refused login is a 400 that stores nothing; a good one stores the passwords sealed and lists the account beside the hosted one', async (t) => {
  const { carol, platform } = t.context;
  const wrong = await carol.post('/mail/accounts', connectBody(t, 'not-the-password'));
  t.deepEqual([wrong.status, wrong.body], [400, { error: `imap: could not log in to 127.0.0.1:${t.context.dovecot.port}: the server refused the username or password` }]);
  const badSmtp = await carol.post('/mail/accounts', { ...connectBody(t), smtp: { host: '127.0.0.1', port: t.context.smtpPort, security: 'none', password: 'wrong' } });
  t.is(badSmtp.status, 400);
  t.regex(badSmtp.body.error, /^smtp: could not log in to 127\.0\.0\.1:\d+: .*535/);
  t.deepEqual(await platform.query('SELECT id FROM app_mail.connected_accounts'), []);
  t.deepEqual(t.context.takeEvents(), []);

  const connected = await carol.post('/mail/accounts', connectBody(t));
  t.is(connected.status, 200);
  accountId = connected.body.data.id;
  t.deepEqual(connected.body.data, {
    id: accountId,
    kind: 'connected',
    address: USER,
    display_name: 'Carol (remote)',
    signature_id: null,
    imap: { host: '127.0.0.1', port: t.context.dovecot.port, security: 'none', username: USER },
    smtp: { host: '127.0.0.1', port: t.context.smtpPort, security: 'none', username: USER },
    sync_status: 'pending',
    last_error: null,
    last_synced_at: null,
    created_at: connected.body.data.created_at,
    updated_at: connected.body.data.updated_at,
  });
  const [stored] = await platform.query<{ credentials: string }>('SELECT credentials FROM app_mail.connected_accounts');
  t.false(stored!.credentials.includes(PASSWORD), 'the password is not kept in clear');
  t.deepEqual(t.context.takeEvents(), [{ action: 'core.mail.account.connected', payload: { account_id: accountId, address: USER, member_id: t.context.carol.id, imap_host: '127.0.0.1' } }]);
  const again = await carol.post('/mail/accounts', connectBody(t));
  t.deepEqual([again.status, again.body], [409, { error: `${USER} is already connected` }]);

  const list = await carol.get('/mail/accounts');
  t.deepEqual(list.body.data.map((row: { kind: string; address: string }) => [row.kind, row.address]), [['hosted', 'carol@hosted.test'], ['connected', USER]]);
  const other = await t.context.member(KEYS);
  t.is((await other.get(`/mail/accounts/${accountId}/messages`)).status, 404, "another member cannot read it");
});

test.serial('the first sync imports INBOX and Sent with their flags; the next one takes only what is new, flag changes and expunges', async (t) => {
  const { carol, dovecot } = t.context;
  await onServer(dovecot, async (client) => {
    await client.append('INBOX', rfc822('Dan <dan@elsewhere.test>', 'Welcome', 'First one', 'w1'), []);
    await client.append('INBOX', rfc822('erin@elsewhere.test', 'Invoice', 'Pay me', 'w2'), ['\\Seen']);
    await client.append('INBOX', rfc822('frank@elsewhere.test', 'Important', 'Read me', 'w3'), ['\\Flagged']);
    await client.append('Sent', rfc822(USER, 'Earlier reply', 'Sent before connecting', 's1'), ['\\Seen']);
  });
  const [report] = await t.context.sync();
  t.deepEqual(report, { imported: 4, updated: 0, removed: 0, pushed: 0 });
  const inbox = await carol.get(`/mail/accounts/${accountId}/messages`);
  t.deepEqual(
    inbox.body.data.map((row: { subject: string; seen: boolean; flagged: boolean; from: { address: string } }) => [row.subject, row.from.address, row.seen, row.flagged]).sort(),
    [
      ['Important', 'frank@elsewhere.test', false, true],
      ['Invoice', 'erin@elsewhere.test', true, false],
      ['Welcome', 'dan@elsewhere.test', false, false],
    ],
  );
  const sent = await carol.get(`/mail/accounts/${accountId}/messages?folder=sent`);
  t.deepEqual(sent.body.data.map((row: { subject: string; delivery_status: string }) => [row.subject, row.delivery_status]), [['Earlier reply', 'sent']]);
  t.deepEqual(t.context.takeEvents().map((event) => [event.action, event.payload.subject]).sort(), [
    ['core.mail.message.received', 'Important'],
    ['core.mail.message.received', 'Invoice'],
    ['core.mail.message.received', 'Welcome'],
  ]);
  const account = (await carol.get('/mail/accounts')).body.data.find((row: { id: string }) => row.id === accountId);
  t.like(account, { sync_status: 'ok', last_error: null });
  const folders = await t.context.platform.query<{ folder: string; remote_path: string; uid_next: string }>('SELECT folder, remote_path, uid_next FROM app_mail.account_folders ORDER BY folder');
  t.deepEqual(folders.map((row) => [row.folder, row.remote_path, Number(row.uid_next)]), [['inbox', 'INBOX', 4], ['sent', 'Sent', 2]]);

  // On the server: one more arrives, Welcome is read elsewhere, Invoice is expunged.
  await onServer(dovecot, async (client) => {
    await client.append('INBOX', rfc822('gina@elsewhere.test', 'Later', 'New one', 'w4'), []);
    const lock = await client.getMailboxLock('INBOX');
    try {
      await client.messageFlagsAdd('1', ['\\Seen'], { uid: true });
      await client.messageDelete('2', { uid: true });
    } finally {
      lock.release();
    }
  });
  const [second] = await t.context.sync();
  t.deepEqual(second, { imported: 1, updated: 1, removed: 1, pushed: 0 });
  const after = await carol.get(`/mail/accounts/${accountId}/messages`);
  t.deepEqual(after.body.data.map((row: { subject: string; seen: boolean }) => [row.subject, row.seen]).sort(), [['Important', false], ['Later', false], ['Welcome', true]]);
  t.deepEqual(t.context.takeEvents().map((event) => event.payload.subject), ['Later']);
  const [third] = await t.context.sync();
  t.deepEqual(third, { imported: 0, updated: 0, removed: 0, pushed: 0 }, 'nothing changed: nothing moves');
});

test.serial('read, flagged, moved and deleted here reach the server with the next sync', async (t) => {
  const { carol, dovecot } = t.context;
  const rows = (await carol.get(`/mail/accounts/${accountId}/messages`)).body.data as Array<{ id: string; subject: string }>;
  const bySubject = Object.fromEntries(rows.map((row) => [row.subject, row.id]));
  t.like((await carol.patch(`/mail/accounts/${accountId}/messages/${bySubject.Important}`, { seen: true, flagged: false })).body.data, { seen: true, flagged: false });
  t.like((await carol.patch(`/mail/accounts/${accountId}/messages/${bySubject.Welcome}`, { flagged: true })).body.data, { seen: true, flagged: true });
  t.like((await carol.patch(`/mail/accounts/${accountId}/messages/${bySubject.Later}`, { folder: 'archive' })).body.data, { folder: 'archive' });
  const deleted = await carol.delete(`/mail/accounts/${accountId}/messages/${bySubject.Welcome}`);
  t.deepEqual(deleted.body.data, { id: bySubject.Welcome, deleted: true });

  const [report] = await t.context.sync();
  t.deepEqual(report, { imported: 0, updated: 0, removed: 0, pushed: 3 }, "two moves and one message's flags (the other's went with it when it was deleted here)");
  t.deepEqual(await serverFlags(dovecot, 'INBOX'), [{ subject: 'Important', seen: true, flagged: false }]);
  t.deepEqual(await serverFlags(dovecot, 'Trash'), [{ subject: 'Welcome', seen: true, flagged: false }]);
  t.deepEqual(await serverFlags(dovecot, 'archive'), [{ subject: 'Later', seen: false, flagged: false }]);
  const archived = (await carol.get(`/mail/accounts/${accountId}/messages?folder=archive`)).body.data;
  t.deepEqual(archived.map((row: { subject: string }) => row.subject), ['Later']);
  const [moved] = await t.context.platform.query<{ remote_path: string; remote_uid: string }>('SELECT remote_path, remote_uid FROM app_mail.messages WHERE id = :id', { id: bySubject.Later });
  t.deepEqual([moved!.remote_path, Number(moved!.remote_uid)], ['archive', 1], 'the local copy follows it (UIDPLUS names its new UID)');
  t.is((await carol.get(`/mail/accounts/${accountId}/messages?folder=trash`)).body.data.length, 0, 'the trash is not synced: deleted is gone here');
  // Back from a folder that is not synced: the move still reaches the server, and the copy is not imported twice.
  await carol.patch(`/mail/accounts/${accountId}/messages/${bySubject.Later}`, { folder: 'inbox', seen: true });
  const [back] = await t.context.sync();
  t.deepEqual(back, { imported: 0, updated: 0, removed: 0, pushed: 2 });
  t.deepEqual(await serverFlags(dovecot, 'INBOX'), [{ subject: 'Important', seen: true, flagged: false }, { subject: 'Later', seen: true, flagged: false }]);
  t.deepEqual(await serverFlags(dovecot, 'archive'), []);
  const [quiet] = await t.context.sync();
  t.deepEqual(quiet, { imported: 0, updated: 0, removed: 0, pushed: 0 });
  t.deepEqual((await carol.get(`/mail/accounts/${accountId}/messages`)).body.data.map((row: { subject: string }) => row.subject).sort(), ['Important', 'Later']);
  t.context.takeEvents();
});

test.serial("the account's blocked senders and filters run on synced mail: blocked goes to the server's Trash, a filter's move and flag reach the server", async (t) => {
  const { carol, dovecot } = t.context;
  await carol.post(`/mail/accounts/${accountId}/blocked-senders`, { address: '@spam.test' });
  await carol.post(`/mail/accounts/${accountId}/filters`, { name: 'Receipts', conditions: [{ field: 'subject', operator: 'contains', value: 'receipt' }], actions: [{ type: 'move', folder: 'receipts' }, { type: 'flag' }] });
  await onServer(dovecot, async (client) => {
    await client.append('INBOX', rfc822('promo@spam.test', 'Buy now', 'x', 'b1'), []);
    await client.append('INBOX', rfc822('shop@store.test', 'Your receipt', 'Thanks', 'r1'), []);
  });
  const [first] = await t.context.sync();
  t.is(first!.imported, 1);
  t.deepEqual((await carol.get(`/mail/accounts/${accountId}/messages?folder=receipts`)).body.data.map((row: { subject: string; flagged: boolean }) => [row.subject, row.flagged]), [['Your receipt', true]]);
  t.deepEqual(t.context.takeEvents().map((event) => event.payload.subject), ['Your receipt'], 'the blocked message is not received');
  await t.context.sync();
  t.deepEqual((await serverFlags(dovecot, 'INBOX')).map((row) => row.subject), ['Important', 'Later']);
  t.deepEqual(await serverFlags(dovecot, 'receipts'), [{ subject: 'Your receipt', seen: false, flagged: true }]);
  t.deepEqual((await serverFlags(dovecot, 'Trash')).map((row) => row.subject), ['Welcome', 'Buy now']);
});

test.serial("sending goes through the account's own SMTP server with its login, and the copy filed in its Sent folder is not imported twice", async (t) => {
  const { carol, dovecot, outgoing } = t.context;
  const sent = await carol.post(`/mail/accounts/${accountId}/messages`, { to: [{ address: 'dan@elsewhere.test', name: 'Dan' }], bcc: [{ address: 'boss@elsewhere.test' }], subject: 'From the remote account', text: 'Hello Dan' });
  t.like(sent.body.data, { folder: 'outbox', delivery_status: 'queued', from: { address: USER, name: 'Carol (remote)' } });
  t.is(await t.context.flush(), 1);
  t.is(outgoing.length, 1);
  t.like(outgoing[0], { user: USER, from: USER, to: ['dan@elsewhere.test', 'boss@elsewhere.test'] });
  const parsed = await simpleParser(outgoing[0]!.raw);
  t.is(parsed.subject, 'From the remote account');
  t.is(parsed.messageId, sent.body.data.message_id_header);
  t.is(parsed.headers.get('dkim-signature'), undefined, 'not signed with a hosted domain key');
  const local = (await carol.get(`/mail/accounts/${accountId}/messages/${sent.body.data.id}`)).body.data;
  t.like(local, { folder: 'sent', delivery_status: 'sent' });
  t.deepEqual((await serverFlags(dovecot, 'Sent')).map((row) => [row.subject, row.seen]), [['Earlier reply', true], ['From the remote account', true]]);
  const events = t.context.takeEvents();
  t.deepEqual(events.map((event) => event.action), ['core.mail.message.sent']);
  t.like(events[0]!.payload, { message_id: sent.body.data.id, account_id: accountId, to_addresses: ['dan@elsewhere.test'], bcc_addresses: ['boss@elsewhere.test'] });
  const [report] = await t.context.sync();
  t.is(report!.imported, 0);
  t.deepEqual((await carol.get(`/mail/accounts/${accountId}/messages?folder=sent`)).body.data.map((row: { subject: string }) => row.subject).sort(), ['Earlier reply', 'From the remote account']);

  // Signatures and drafts work on a connected account as on a hosted one.
  const signature = await carol.post(`/mail/accounts/${accountId}/signatures`, { name: 'Remote', text: 'Carol, from afar' });
  t.is((await carol.patch(`/mail/accounts/${accountId}`, { signature_id: signature.body.data.id })).body.data.signature_id, signature.body.data.id);
  const draft = await carol.post('/mail/drafts', { account_id: accountId, to: [{ address: 'erin@elsewhere.test' }], subject: 'Drafted remotely', text: 'Body' });
  t.is(draft.status, 200);
  t.deepEqual((await carol.get(`/mail/drafts?account_id=${accountId}`)).body.data.map((row: { subject: string }) => row.subject), ['Drafted remotely']);
  const queued = await carol.post(`/mail/drafts/${draft.body.data.id}/send`, {});
  t.like(queued.body.data, { account_id: accountId, text: 'Body\n\n-- \nCarol, from afar' });
  t.is(await t.context.flush(), 1);
  t.like(outgoing[1], { user: USER, to: ['erin@elsewhere.test'] });
  t.is((await simpleParser(outgoing[1]!.raw)).text!.trim(), 'Body\n\n-- \nCarol, from afar');
  t.context.takeEvents();
});

test.serial('a folder whose UIDVALIDITY changed is imported afresh', async (t) => {
  const { carol, dovecot } = t.context;
  await onServer(dovecot, async (client) => {
    await client.mailboxDelete('Sent');
    await client.mailboxCreate('Sent');
    await client.append('Sent', rfc822(USER, 'After the reset', 'x', 's9'), ['\\Seen']);
  });
  const [report] = await t.context.sync();
  t.like(report, { imported: 1, removed: 3 }, 'the three copies of the old Sent go');
  t.deepEqual((await carol.get(`/mail/accounts/${accountId}/messages?folder=sent`)).body.data.map((row: { subject: string }) => row.subject), ['After the reset']);
});

test.serial('a sync whose login is refused records the error; the account is fixed with PATCH (checked first) and syncs again', async (t) => {
  const { carol, dovecot } = t.context;
  await dovecot.setUsers([{ user: USER, password: 'rotated-password' }]);
  await t.context.sync();
  const broken = (await carol.get('/mail/accounts')).body.data.find((row: { id: string }) => row.id === accountId);
  t.like(broken, { sync_status: 'error' });
  t.truthy(broken.last_error);
  const wrong = await carol.patch(`/mail/accounts/${accountId}`, { imap: { password: 'still-wrong' } });
  t.deepEqual([wrong.status, wrong.body], [400, { error: `imap: could not log in to 127.0.0.1:${dovecot.port}: the server refused the username or password` }]);
  await dovecot.setUsers([{ user: USER, password: PASSWORD }]);
  const fixed = await carol.patch(`/mail/accounts/${accountId}`, { imap: { password: PASSWORD }, display_name: 'Carol R.' });
  t.like(fixed.body.data, { display_name: 'Carol R.', sync_status: 'error' });
  await t.context.sync();
  t.like((await carol.get('/mail/accounts')).body.data.find((row: { id: string }) => row.id === accountId), { sync_status: 'ok', last_error: null });
  const hosted = await carol.patch(`/mail/accounts/${t.context.hostedBox.id}`, { imap: { port: 993 } });
  t.deepEqual([hosted.status, hosted.body], [400, { error: 'imap and smtp: a hosted mailbox has no servers to set' }]);
  t.context.takeEvents();
});

test.serial("disconnecting removes the account and its copies here, not the mail on its server; a hosted mailbox is not disconnected", async (t) => {
  const { carol, dovecot, platform, hostedBox } = t.context;
  const hosted = await carol.delete(`/mail/accounts/${hostedBox.id}`);
  t.deepEqual([hosted.status, hosted.body], [409, { error: 'A hosted mailbox cannot be disconnected: a mailbox manager deletes it (DELETE /mail/mailboxes/{mailbox_id})' }]);
  const reader = await t.context.member(['mail.accounts.read']);
  t.is((await reader.delete(`/mail/accounts/${accountId}`)).status, 403);
  const gone = await carol.delete(`/mail/accounts/${accountId}`);
  t.deepEqual(gone.body.data, { id: accountId, deleted: true });
  t.deepEqual(t.context.takeEvents(), [{ action: 'core.mail.account.disconnected', payload: { account_id: accountId, address: USER, member_id: carol.id, disconnected_by: carol.id } }]);
  for (const table of ['connected_accounts', 'account_folders', 'remote_operations']) t.deepEqual(await platform.query(`SELECT 1 FROM app_mail.${table}`), [], table);
  t.deepEqual(await platform.query('SELECT 1 FROM app_mail.messages WHERE account_id = :id', { id: accountId }), []);
  t.is((await carol.get(`/mail/accounts/${accountId}/messages`)).status, 404);
  t.deepEqual((await serverFlags(dovecot, 'INBOX')).map((row) => row.subject), ['Important', 'Later']);
});
