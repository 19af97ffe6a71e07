import test from 'ava';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MailMessage } from '../src/mail/index.js';
import { NOTIFICATION_CHANNELS, NOTIFICATION_SENDERS } from '../src/notifications/index.js';
import { body, startAppsRuntime, TestWorkspace, type AppsTestRuntime, type TestCaller } from './helpers/apps.js';

// The senders of every notification channel but `apps` (docs/notifications.md, "Channels"): each
// listens to an event of the catalog, delivered to the runtime's handler as the broker delivers it
// (signed, through the same checks), and tells the members the event concerns, never the one who
// did it; a silenced channel stores and mails nothing; a redelivered event notifies no one twice.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let env: AppsTestRuntime;
let ws: TestWorkspace;
let ada: TestCaller;
let mo: TestCaller;
const mails: MailMessage[] = [];

test.before(async () => {
  env = await startAppsRuntime({
    apps: [
      { dir: path.join(ROOT, 'plugins/chat'), firstParty: true },
      { dir: path.join(ROOT, 'plugins/tasks'), firstParty: true },
    ],
    seams: {
      mailer: {
        async send(message) {
          mails.push(message);
          return { messageId: `test-${mails.length}` };
        },
        close() {},
      },
    },
  });
  ws = await TestWorkspace.create(env, 'senders');
  ada = await ws.member('admin', [], 'Ada');
  mo = await ws.member('member', [], 'Mo');
});

test.after.always(async () => {
  await env?.close();
});

const mrn = (caller: TestCaller) => `mrn:account:member:${caller.memberId}`;

/** Delivers one event to the runtime's sender of its action, as the broker would; returns the delivery answer's status. */
async function deliver(action: string, payload: Record<string, unknown>, again?: { headers: Record<string, string>; body: string; path: string }) {
  const sender = NOTIFICATION_SENDERS.find((candidate) => candidate.action === action)!;
  const request = again ?? env.runtime.events.deliveryRequest({ subscriber: 'system', handler: `/events/${action.replaceAll('.', '-')}/notify-${sender.channel}`, workspaceId: ws.id, action, payload });
  const answer = await env.runtime.server.inject({ method: 'POST', url: request.path, headers: request.headers, payload: request.body });
  return { status: answer.statusCode, request };
}

const inbox = async (caller: TestCaller) => body(await env.runtime.server.inject({ method: 'GET', url: '/notifications?per_page=100', headers: caller.headers() })).data as Array<{ kind: string; channel: string; title: string; body: string; link: string | null }>;

test.serial('every channel but apps has a sender', (t) => {
  t.deepEqual([...new Set(NOTIFICATION_SENDERS.map((sender) => sender.channel))].sort(), NOTIFICATION_CHANNELS.filter((channel) => channel !== 'apps').sort());
});

test.serial('mentions, chat, calls and tasks: the members named are told, the one who acted is not', async (t) => {
  const chatId = '11111111-1111-4111-8111-111111111111';
  t.is((await deliver('core.member.mentioned', { source: 'chat', mentioned_mrn: mrn(mo), mentioner_mrn: mrn(ada), resource_mrn: `mrn:chat:message:${chatId}`, link: `/chats/${chatId}/messages?after=3`, preview: 'Can you look at this, @Mo?' })).status, 200);
  await deliver('core.member.mentioned', { source: 'chat', mentioned_mrn: mrn(ada), mentioner_mrn: mrn(ada), resource_mrn: `mrn:chat:message:${chatId}`, link: '/x', preview: 'note to self' });
  await deliver('core.member.mentioned', { source: 'chat', mentioned_mrn: mrn(mo), mentioner_mrn: mrn(ada), resource_mrn: `mrn:chat:message:${chatId}`, link: '//elsewhere.test/x', preview: 'Off site' });
  await deliver('core.chat.chat.created', { chat_id: chatId, type: 'group', name: 'Launch', creator_mrn: mrn(ada), participant_mrns: [mrn(ada), mrn(mo)] });
  await deliver('core.chat.call.requested', { chat_id: chatId, chat_name: 'Launch', participant_mrns: [mrn(ada), mrn(mo)], mode: 'video', requested_by: mrn(ada) });
  await deliver('core.tasks.task.assigned', { task_id: '22222222-2222-4222-8222-222222222222', assignee_mrn: mrn(mo), assigned_by: ada.memberId });
  await deliver('core.tasks.task.assigned', { task_id: '33333333-3333-4333-8333-333333333333', assignee_mrn: mrn(ada), assigned_by: ada.memberId });

  t.deepEqual(
    (await inbox(mo)).map((row) => [row.channel, row.kind, row.title, row.body, row.link]).reverse(),
    [
      // Each link is the shell's page of the app (what the bell opens): the mention's is the emitting app's path in it.
      ['mentions', 'mentions.mentioned', 'Ada mentioned you in chat', 'Can you look at this, @Mo?', `/app/chat/chats/${chatId}/messages?after=3`],
      ['mentions', 'mentions.mentioned', 'Ada mentioned you in chat', 'Off site', null],
      ['chat', 'chat.added', 'Ada added you to the group Launch', '', `/app/chat/chats/${chatId}`],
      ['calls', 'calls.requested', 'Ada is calling in Launch (video)', '', `/app/chat/chats/${chatId}`],
      ['tasks', 'tasks.assigned', 'Ada assigned you a task', '', '/app/tasks/tasks/22222222-2222-4222-8222-222222222222'],
    ],
  );
  t.deepEqual(await inbox(ada), [], 'nobody is told of what they did themselves');
  t.deepEqual(mails.filter((mail) => mail.to === mo.email).map((mail) => mail.subject), ['Ada mentioned you in chat', 'Ada mentioned you in chat', 'Ada added you to the group Launch', 'Ada is calling in Launch (video)', 'Ada assigned you a task']);
  // A mail is read away from the workspace's pages: its link is the workspace's configured origin and the path.
  const origin = `http://senders.${env.runtime.config.baseDomain}`;
  t.deepEqual(
    mails.filter((mail) => mail.to === mo.email).map((mail) => mail.text),
    [
      `Can you look at this, @Mo?\n${origin}/app/chat/chats/${chatId}/messages?after=3`,
      'Off site',
      `${origin}/app/chat/chats/${chatId}`,
      `${origin}/app/chat/chats/${chatId}`,
      `${origin}/app/tasks/tasks/22222222-2222-4222-8222-222222222222`,
    ],
  );
});

test.serial('a redelivered event notifies no one twice; a silenced channel stores and mails nothing', async (t) => {
  const first = await deliver('core.member.mentioned', { source: 'chat', mentioned_mrn: mrn(mo), mentioner_mrn: mrn(ada), resource_mrn: 'mrn:chat:message:66666666-6666-4666-8666-666666666666', link: '/chats/c', preview: 'once' });
  const before = (await inbox(mo)).length;
  const sent = mails.length;
  t.is((await deliver('core.member.mentioned', {}, first.request)).status, 200);
  t.is((await inbox(mo)).length, before);
  t.is(mails.length, sent);

  const off = await env.runtime.server.inject({ method: 'PATCH', url: '/me/notification-preferences', headers: mo.headers({ 'content-type': 'application/json' }), payload: { channel: 'tasks', patch: { enabled: false } } });
  t.is(off.statusCode, 200);
  await deliver('core.tasks.task.assigned', { task_id: '44444444-4444-4444-8444-444444444444', assignee_mrn: mrn(mo), assigned_by: ada.memberId });
  t.is((await inbox(mo)).length, before);
  t.is(mails.length, sent);
});

test.serial('billing tells the owner; security tells the member whose role changed; system tells owners and admins who joined', async (t) => {
  const invoiceId = '55555555-5555-4555-8555-555555555555';
  await deliver('core.billing.invoice.payment_failed', { invoice_id: invoiceId, workspace_id: ws.id, amount: '16.00', currency: 'USD', attempt_count: 1, error: 'Your card was declined.', next_attempt_at: '2027-01-04T00:00:00.000Z' });
  await deliver('core.billing.dunning.exhausted', { workspace_id: ws.id, invoice_id: invoiceId, since: '2027-01-16T00:00:00.000Z' });
  // Each links to the invoice's row on the settings page, where the owner sees the invoices.
  t.deepEqual((await inbox(ws.owner)).map((row) => [row.channel, row.title, row.body, row.link]).reverse(), [
    ['billing', 'Payment of 16.00 USD failed', 'Your card was declined. It will be retried on 2027-01-04.', `/admin/settings#invoice-${invoiceId}`],
    ['billing', 'The workspace is past due', 'An invoice could not be charged after every retry. Add a card to pay it.', `/admin/settings#invoice-${invoiceId}`],
  ]);
  t.is(mails.at(-1)!.text, `An invoice could not be charged after every retry. Add a card to pay it.\nhttp://senders.${env.runtime.config.baseDomain}/admin/settings#invoice-${invoiceId}`);
  t.false((await inbox(ada)).some((row) => row.channel === 'billing'), 'billing is the owner\'s');

  // Real operations, their events delivered to the senders.
  const changed = await env.runtime.server.inject({ method: 'PATCH', url: `/members/${mo.memberId}`, headers: ws.owner.headers({ 'content-type': 'application/json' }), payload: { platform_role: 'admin' } });
  t.is(changed.statusCode, 200);
  await deliver('core.account.member.role_changed', { member_id: mo.memberId, from_role: 'member', to_role: 'admin', changed_by: ws.owner.memberId });
  t.like((await inbox(mo))[0], { channel: 'security', title: 'Your role is now admin', body: 'Owner of senders changed your platform role from member to admin.' });

  const newcomer = await ws.member('member', [], 'Nia');
  await deliver('system.workspace.member.added', { member_id: newcomer.memberId, role: 'member' });
  for (const told of [ws.owner, ada]) t.like((await inbox(told))[0], { channel: 'system', title: 'Nia joined the workspace', body: 'As member.' });
  t.deepEqual(await inbox(newcomer), []);
});
