import { generateKeyPairSync } from 'node:crypto';
import anyTest, { type TestFn } from 'ava';
import { prepareWorld } from '@wpk/testing';
import { dkimVerify } from 'mailauth';
import nodemailer from 'nodemailer';
import { mailWorld, type World } from './helpers/world.js';

interface Context extends World {
  domainId: string;
  alice: Awaited<ReturnType<World['member']>>;
  bob: Awaited<ReturnType<World['member']>>;
  aliceBox: { id: string; address: string };
  bobBox: { id: string; address: string };
}

const test = anyTest as TestFn<Context>;
const KEYS = ['mail.accounts.read', 'mail.accounts.edit', 'mail.messages.read', 'mail.messages.edit', 'mail.messages.send', 'mail.outbox_keys.manage', 'mail.groups.read'];

test.before(async (t) => {
  const world = await mailWorld('relay');
  t.context = await prepareWorld(world, async () => {
    const domainId = await world.hostedDomain('acme.test');
    const alice = await world.member(KEYS);
    const bob = await world.member(KEYS);
    const aliceBox = await world.mailbox(domainId, 'alice', alice);
    const bobBox = await world.mailbox(domainId, 'bob', bob);
    world.takeEvents();
    return { ...world, domainId, alice, bob, aliceBox, bobBox };
  });
});
test.after.always(async (t) => {
  await t.context?.close();
});

/** Sends raw SMTP to the listener as an outside server (no authentication) or with an outbox key. */
function smtpClient(port: number, auth?: { user: string; pass: string }) {
  return nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ...(auth ? { auth } : {}) });
}

test.serial('a message between two hosted mailboxes leaves over SMTP through the relay, comes back through the listener, and its DKIM signature verifies', async (t) => {
  const { alice, bob, aliceBox, bobBox, dns } = t.context;
  const sent = await alice.post(`/mail/accounts/${aliceBox.id}/messages`, { to: [{ address: bobBox.address, name: 'Bob' }], subject: 'Quarterly plan', text: 'See you Monday.' });
  t.is(sent.status, 200);
  const queued = sent.body.data;
  t.like(queued, { folder: 'outbox', delivery_status: 'queued', subject: 'Quarterly plan', from: { address: 'alice@acme.test', name: 'alice' } });
  t.regex(queued.message_id_header, /^<[0-9a-f-]{36}@acme\.test>$/);
  t.deepEqual(t.context.takeEvents(), [], 'nothing is sent before the relay took it');

  t.is(await t.context.flush(), 1);
  const outbox = await alice.get(`/mail/accounts/${aliceBox.id}/messages/${queued.id}`);
  t.like(outbox.body.data, { folder: 'sent', delivery_status: 'sent', attempts: 1 });

  const inbox = await bob.get(`/mail/accounts/${bobBox.id}/messages`);
  t.is(inbox.body.data.length, 1);
  const arrived = inbox.body.data[0];
  t.like(arrived, { folder: 'inbox', subject: 'Quarterly plan', dkim: 'pass', dmarc: 'pass', spf: 'pass', seen: false, message_id_header: queued.message_id_header, from: { address: 'alice@acme.test', name: 'alice' } });
  t.is(arrived.text.trim(), 'See you Monday.');
  t.deepEqual(arrived.to, [{ address: 'bob@acme.test', name: 'Bob' }]);

  const events = t.context.takeEvents();
  t.deepEqual(events.map((event) => event.action), ['core.mail.message.received', 'core.mail.message.sent']);
  t.deepEqual(events[1]!.payload, { message_id: queued.id, account_id: aliceBox.id, from_address: 'alice@acme.test', to_addresses: ['bob@acme.test'], cc_addresses: [], bcc_addresses: [], subject: 'Quarterly plan', sent_by: alice.id });
  t.deepEqual(events[0]!.payload, { message_id: arrived.id, account_id: bobBox.id, from_address: 'alice@acme.test', from_name: 'alice', to_addresses: ['bob@acme.test'], cc_addresses: [], subject: 'Quarterly plan' });

  // The check is real: a message signed for acme.test with a key that is not the published one fails.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const [domain] = await t.context.platform.query<{ dkim_selector: string }>("SELECT dkim_selector FROM app_mail.domains WHERE name = 'acme.test'");
  const forger = nodemailer.createTransport({ host: '127.0.0.1', port: t.context.port, secure: false, dkim: { domainName: 'acme.test', keySelector: domain!.dkim_selector, privateKey } });
  await forger.sendMail({ from: 'alice@acme.test', to: bobBox.address, subject: 'Forged', text: 'x' });
  const forged = await bob.get(`/mail/accounts/${bobBox.id}/messages?q=forged`);
  t.deepEqual(forged.body.data.map((row: { dkim: string }) => row.dkim), ['fail']);
  const raw = await nodemailer.createTransport({ streamTransport: true, buffer: true, dkim: { domainName: 'acme.test', keySelector: domain!.dkim_selector, privateKey } }).sendMail({ from: 'alice@acme.test', to: 'bob@acme.test', subject: 'x', text: 'y' });
  const verdict = await dkimVerify(raw.message as Buffer, { resolver: async (name: string) => dns.resolveTxt(name) });
  t.is(verdict.results[0]!.status.result, 'fail', 'mailauth itself, given the published record, refuses the forged signature');
  t.context.takeEvents();
});

test.serial('mail for an address no mailbox, group or catch-all takes is refused at RCPT TO', async (t) => {
  const client = smtpClient(t.context.port);
  const error = await t.throwsAsync(client.sendMail({ from: 'stranger@elsewhere.test', to: 'nobody@acme.test', subject: 'Hi', text: 'x' }));
  t.regex(error!.message, /550 No mailbox here by the name nobody@acme\.test/);
  const elsewhere = await t.throwsAsync(client.sendMail({ from: 'stranger@elsewhere.test', to: 'someone@not-hosted.test', subject: 'Hi', text: 'x' }));
  t.regex(elsewhere!.message, /550/);
  const tls = nodemailer.createTransport({ host: '127.0.0.1', port: t.context.port, secure: false, requireTLS: true });
  const noTls = await t.throwsAsync(tls.sendMail({ from: 'stranger@elsewhere.test', to: t.context.bobBox.address, subject: 'Hi', text: 'x' }));
  t.regex(noTls!.message, /STARTTLS/, 'a listener configured without a certificate offers no STARTTLS');
  t.deepEqual(t.context.takeEvents(), []);
});

test.serial('inbound mail from outside: blocked senders are dropped, filters move, mark and discard, the catch-all takes unknown addresses', async (t) => {
  const { owner, bob, bobBox, domainId } = t.context;
  const blocked = await bob.post(`/mail/accounts/${bobBox.id}/blocked-senders`, { address: '@spam.test' });
  t.is(blocked.status, 200);
  await bob.post(`/mail/accounts/${bobBox.id}/filters`, { name: 'Invoices', conditions: [{ field: 'subject', operator: 'contains', value: 'invoice' }], actions: [{ type: 'move', folder: 'billing' }, { type: 'mark_seen' }] });
  await bob.post(`/mail/accounts/${bobBox.id}/filters`, { name: 'Noise', match: 'any', conditions: [{ field: 'from', operator: 'ends_with', value: '@noise.test' }, { field: 'body', operator: 'equals', value: 'unsubscribe' }], actions: [{ type: 'discard' }] });
  const client = smtpClient(t.context.port);
  await client.sendMail({ from: 'boss@spam.test', to: bobBox.address, subject: 'Buy now', text: 'x' });
  await client.sendMail({ from: 'billing@vendor.test', to: bobBox.address, subject: 'Your Invoice 42', text: 'Due soon' });
  await client.sendMail({ from: 'bot@noise.test', to: bobBox.address, subject: 'Hello', text: 'x' });
  await client.sendMail({ from: 'friend@vendor.test', to: bobBox.address, subject: 'Lunch?', text: 'Tomorrow' });

  const inbox = await bob.get(`/mail/accounts/${bobBox.id}/messages`);
  t.deepEqual(inbox.body.data.map((row: { subject: string; dkim: string }) => [row.subject, row.dkim]), [['Lunch?', 'none'], ['Forged', 'fail'], ['Quarterly plan', 'pass']]);
  const billing = await bob.get(`/mail/accounts/${bobBox.id}/messages?folder=billing`);
  t.deepEqual(billing.body.data.map((row: { subject: string; seen: boolean }) => [row.subject, row.seen]), [['Your Invoice 42', true]]);
  t.deepEqual(t.context.takeEvents().map((event) => event.payload.subject), ['Your Invoice 42', 'Lunch?']);

  const catchAll = await t.context.mailbox(domainId, 'catchall');
  await owner.patch(`/mail/domains/${domainId}`, { catch_all_mailbox_id: catchAll.id });
  await client.sendMail({ from: 'friend@vendor.test', to: 'typo@acme.test', subject: 'Lost?', text: 'x' });
  const caught = await owner.get(`/mail/accounts/${catchAll.id}/messages`);
  t.deepEqual(caught.body.data.map((row: { subject: string }) => row.subject), ['Lost?']);
  await owner.patch(`/mail/domains/${domainId}`, { catch_all_mailbox_id: null });
  t.context.takeEvents();
});

test.serial("a group keeps the message and files a copy in each member's mailbox; a members-only group refuses outsiders", async (t) => {
  const { owner, alice, bob, bobBox, domainId } = t.context;
  const group = (await owner.post('/mail/groups', { domain_id: domainId, local_part: 'team', name: 'Team' })).body.data;
  await owner.post(`/mail/groups/${group.id}/members`, { member_id: alice.id });
  await owner.post(`/mail/groups/${group.id}/members`, { member_id: bob.id, tier: 'manager' });
  t.context.takeEvents();
  const client = smtpClient(t.context.port);
  await client.sendMail({ from: 'client@vendor.test', to: ['team@acme.test', bobBox.address], subject: 'Kick-off', text: 'Agenda attached', attachments: [{ filename: 'agenda.txt', content: '1. Scope 2. Dates' }] });

  const archive = await alice.get(`/mail/groups/${group.id}/messages`);
  t.deepEqual(archive.body.data.map((row: { subject: string; group_id: string }) => [row.subject, row.group_id]), [['Kick-off', group.id]]);
  const aliceInbox = await alice.get(`/mail/accounts/${t.context.aliceBox.id}/messages?q=kick`);
  t.deepEqual(aliceInbox.body.data.map((row: { subject: string }) => row.subject), ['Kick-off']);
  const bobInbox = await bob.get(`/mail/accounts/${bobBox.id}/messages?q=kick`);
  t.is(bobInbox.body.data.length, 1, 'named directly and through the group: one copy');
  const received = t.context.takeEvents().filter((event) => event.action === 'core.mail.message.received');
  // The group's copy and one per member's mailbox (bob is named directly and through the group: once;
  // the owner, who created the group, has the catch-all mailbox of the test before).
  const ownerBoxes = (await owner.get('/mail/accounts')).body.data.map((row: { id: string }) => [null, row.id]);
  t.is(ownerBoxes.length, 1);
  const targets = (rows: unknown[][]) => rows.map((row) => JSON.stringify(row)).sort();
  t.deepEqual(targets(received.map((event) => [event.payload.group_id ?? null, event.payload.account_id ?? null])), targets([[group.id, null], [null, bobBox.id], [null, t.context.aliceBox.id], ...ownerBoxes]));

  const member = await alice.patch(`/mail/groups/${group.id}/messages/${archive.body.data[0].id}`, { flagged: true });
  t.deepEqual([member.status, member.body], [400, { error: "Only the group's owners and managers can change or delete its messages" }]);
  const manager = await bob.patch(`/mail/groups/${group.id}/messages/${archive.body.data[0].id}`, { flagged: true });
  t.is(manager.body.data.flagged, true);
  const outsider = await t.context.member(['mail.messages.read']);
  t.deepEqual((await outsider.get(`/mail/groups/${group.id}/messages`)).body, { error: 'Group not found' });

  // The group's copy keeps the file under the group's prefix; a member downloads it, an outsider may not.
  const [kickOff] = archive.body.data as Array<{ id: string; attachments: Array<{ id: string; filename: string; file_key: string }> }>;
  t.deepEqual(kickOff.attachments.map((file) => [file.filename, file.file_key.startsWith(`groups/${group.id}/`)]), [['agenda.txt', true]]);
  const download = `/mail/groups/${group.id}/messages/${kickOff.id}/attachments/${kickOff.attachments[0].id}`;
  const link = await alice.get(download);
  t.is(link.status, 200);
  t.is((await t.context.platform.follow(link.body.data.url)).bytes.toString(), '1. Scope 2. Dates');
  t.deepEqual((await outsider.get(download)).body, { error: 'Group not found' });
  const unknown = await alice.get(`/mail/groups/${group.id}/messages/${kickOff.id}/attachments/00000000-0000-4000-8000-000000000000`);
  t.deepEqual([unknown.status, unknown.body], [404, { error: 'Attachment not found' }]);

  await owner.patch(`/mail/groups/${group.id}`, { who_can_post: 'members' });
  await client.sendMail({ from: 'client@vendor.test', to: 'team@acme.test', subject: 'Outsider', text: 'x' });
  await client.sendMail({ from: 'alice@acme.test', to: 'team@acme.test', subject: 'Insider', text: 'x' });
  const after = await bob.get(`/mail/groups/${group.id}/messages`);
  t.deepEqual(after.body.data.map((row: { subject: string }) => row.subject), ['Insider', 'Kick-off']);
  t.context.takeEvents();
});

test.serial('outbox keys submit over SMTP AUTH: the message is queued, relayed DKIM-signed and delivered; a revoked key is refused at the next submission', async (t) => {
  const { alice, bob, aliceBox, bobBox } = t.context;
  const key = (await alice.post(`/mail/mailboxes/${aliceBox.id}/outbox-keys`, { name: 'Laptop' })).body.data;
  const device = smtpClient(t.context.port, { user: aliceBox.address, pass: key.secret });
  await device.sendMail({ from: aliceBox.address, to: bobBox.address, bcc: 'hidden@vendor.test', subject: 'From my laptop', text: 'Sent with a key' });
  const spoof = await t.throwsAsync(device.sendMail({ from: 'ceo@acme.test', to: bobBox.address, subject: 'x', text: 'x' }));
  t.regex(spoof!.message, /553 Sender must be alice@acme\.test/);
  const queued = await alice.get(`/mail/accounts/${aliceBox.id}/messages?folder=outbox`);
  t.deepEqual(queued.body.data.map((row: { subject: string; bcc: unknown }) => [row.subject, row.bcc]), [['From my laptop', [{ address: 'hidden@vendor.test' }]]]);
  t.context.takeEvents();

  // hidden@vendor.test is not hosted here: the relay (this listener, unauthenticated) refuses it, bob gets his copy.
  await t.context.flush();
  const bobInbox = await bob.get(`/mail/accounts/${bobBox.id}/messages?q=laptop`);
  t.deepEqual(bobInbox.body.data.map((row: { subject: string; dkim: string }) => [row.subject, row.dkim]), [['From my laptop', 'pass']]);

  await alice.put(`/mail/mailboxes/${aliceBox.id}/outbox-keys/${key.id}`, { revoked: true });
  const revoked = smtpClient(t.context.port, { user: aliceBox.address, pass: key.secret });
  const refused = await t.throwsAsync(revoked.sendMail({ from: aliceBox.address, to: bobBox.address, subject: 'After revoking', text: 'x' }));
  t.regex(refused!.message, /535 Invalid username or password/);
  const wrong = smtpClient(t.context.port, { user: aliceBox.address, pass: 'mbk_wrong' });
  t.regex((await t.throwsAsync(wrong.sendMail({ from: aliceBox.address, to: bobBox.address, subject: 'x', text: 'x' })))!.message, /535/);
  t.context.takeEvents();
});
