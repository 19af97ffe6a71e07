import test from 'ava';
import type { AddressInfo } from 'node:net';
import { readdir, readFile, rm, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { defineApp, defineRoute, Joi, type AppServiceHost } from '@wpk/sdk';
import { createLogger } from '../src/logger.js';
import { createMailer } from '../src/mail/index.js';
import { MAIL_MAX_ATTEMPTS } from '../src/mail/outbox.js';
import { startAppsRuntime, TestWorkspace, type AppsTestRuntime } from './helpers/apps.js';

// ctx.mail: an app's mail is queued with its work, sent after the commit through the platform's
// transport (here a real SMTP server), retried when the transport refuses, never sent when the
// work rolled back.

/** A real SMTP server that keeps what it receives (parsed), and can be told to refuse (451). */
class Relay {
  readonly received: ParsedMail[] = [];
  refusing = false;
  private constructor(private readonly server: SMTPServer, readonly url: string) {}

  static async start(): Promise<Relay> {
    const self: { relay?: Relay } = {};
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo(_address, _session, callback) {
        callback(self.relay!.refusing ? Object.assign(new Error('Try again later'), { responseCode: 451 }) : undefined);
      },
      onData(stream, _session, callback) {
        simpleParser(stream).then((mail) => {
          self.relay!.received.push(mail);
          callback();
        }, callback);
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    self.relay = new Relay(server, `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`);
    return self.relay;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const SEND = 'ext.acme.mailer.mails.send';
let host: AppServiceHost;
const mailerApp = defineApp(
  {
    slug: 'mailer',
    publisher: 'acme',
    name: 'Acme Mailer',
    version: '1.0.0',
    permissions: [{ key: SEND, label: 'Send', category: 'Mail' }],
    authorization: [
      { method: 'POST', path: '/send', chain: [SEND] },
      { method: 'POST', path: '/send-then-fail', chain: [SEND] },
    ],
    events: [{ action: 'ext.acme.mailer.mail.queued', description: 'A mail was queued', schema: { type: 'object', required: ['to'], properties: { to: { type: 'string' } } } }],
  },
  {
    routes: [
      defineRoute({
        method: 'POST',
        path: '/send',
        chain: [SEND],
        validate: { payload: Joi.object({ to: Joi.any(), subject: Joi.string(), with_invite: Joi.boolean() }) },
        handler(request, ctx) {
          const body = request.payload as { to: string; subject?: string; with_invite?: boolean };
          ctx.mail.send({
            to: body.to,
            subject: body.subject ?? 'Your offer',
            text: 'Please find the offer attached.',
            html: '<p>Please find the offer <b>attached</b>.</p>',
            replyTo: 'recruiter@acme.test',
            attachments: [{ filename: 'offer.txt', contentType: 'text/plain', content: 'Offer: 1 EUR' }, { filename: 'logo.bin', contentType: 'application/octet-stream', content: new Uint8Array([0, 1, 2, 255]) }],
            ...(body.with_invite ? { calendar: { method: 'REQUEST' as const, content: INVITE } } : {}),
          });
          ctx.events.stage('ext.acme.mailer.mail.queued', { to: String(body.to) });
          return { data: { queued: true } };
        },
      }),
      defineRoute({
        method: 'POST',
        path: '/send-then-fail',
        chain: [SEND],
        handler(_request, ctx) {
          ctx.mail.send({ to: 'never@acme.test', subject: 'Never', text: 'This must not leave.' });
          throw new Error('the work fails after queueing a mail');
        },
      }),
    ],
    services: {
      keeper: {
        start(serviceHost: AppServiceHost) {
          host = serviceHost;
        },
        stop() {},
      },
    },
  },
);

const INVITE = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//acme//test//EN', 'METHOD:REQUEST', 'BEGIN:VEVENT', 'UID:meeting-1@acme.test', 'DTSTAMP:20270104T090000Z', 'DTSTART:20270105T090000Z', 'DTEND:20270105T093000Z', 'SUMMARY:Interview', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');

let relay: Relay;
let env: AppsTestRuntime;
let ws: TestWorkspace;
let now = new Date('2027-01-04T09:00:00Z');
test.before(async () => {
  relay = await Relay.start();
  env = await startAppsRuntime({ apps: [{ app: mailerApp }], smtpUrl: relay.url, mailFrom: 'Platform <no-reply@platform.test>', seams: { clock: () => now } } as never);
  ws = await TestWorkspace.create(env, 'mailing');
  await ws.install('ext.acme.mailer', { access_policy: 'everyone' });
  await env.runtime.apps.startServices();
});
test.after.always(async () => {
  await env?.close();
  await relay?.stop();
});

const outbox = () => env.runtime.server.plugins.mail.outbox;
const queued = () => env.runtime.db.sequelize.query<{ state: string; attempts: number; last_error: string | null; next_attempt_at: Date }>("SELECT state, attempts, last_error, next_attempt_at FROM platform.mail_outbox WHERE workspace_id = :id ORDER BY created_at", { type: 'SELECT' as never, replacements: { id: ws.id } }) as unknown as Promise<Array<{ state: string; attempts: number; last_error: string | null; next_attempt_at: Date }>>;
const post = async (url: string, payload: object = {}) => {
  const response = await env.runtime.server.inject({ method: 'POST', url, headers: ws.owner.headers({ 'content-type': 'application/json' }), payload });
  return { status: response.statusCode, body: JSON.parse(response.payload) };
};

test.serial('a mail sent in a request leaves after the commit, From the platform under the app\'s name, with its parts', async (t) => {
  relay.received.length = 0;
  t.deepEqual(await post('/ext/acme/mailer/send', { to: ['ada@example.test', 'bob@example.test'], with_invite: true }), { status: 200, body: { data: { queued: true } } });
  await outbox().drain();
  t.is(relay.received.length, 1);
  const mail = relay.received[0];
  t.deepEqual(mail.from?.value, [{ name: 'Acme Mailer', address: 'no-reply@platform.test' }]);
  t.deepEqual((Array.isArray(mail.to) ? mail.to : [mail.to!]).flatMap((to) => to.value.map((value) => value.address)), ['ada@example.test', 'bob@example.test']);
  t.deepEqual(mail.replyTo?.value.map((value) => value.address), ['recruiter@acme.test']);
  t.is(mail.subject, 'Your offer');
  t.is(mail.text?.trim(), 'Please find the offer attached.');
  t.is(mail.html, '<p>Please find the offer <b>attached</b>.</p>');
  // The invitation travels twice, as calendar clients expect: an inline text/calendar part and an invite.ics file.
  const files = mail.attachments.filter((file) => file.contentType !== 'text/calendar').map((file) => [file.filename, file.contentType, file.contentType === 'application/ics' ? file.content.toString('utf8') : file.content.toString('hex')]);
  t.deepEqual(files, [['offer.txt', 'text/plain', Buffer.from('Offer: 1 EUR').toString('hex')], ['logo.bin', 'application/octet-stream', '000102ff'], ['invite.ics', 'application/ics', INVITE]]);
  const invite = mail.attachments.find((file) => file.contentType === 'text/calendar');
  t.is(invite?.content.toString('utf8').replace(/\r\n/g, '\n'), INVITE.replace(/\r\n/g, '\n'));
  t.regex(String(invite?.headers.get('content-type') && (invite.headers.get('content-type') as { params: Record<string, string> }).params.method), /^REQUEST$/i);
  t.deepEqual(await queued(), [], 'a sent mail leaves the outbox');
});

test.serial('a request that fails after queueing a mail sends nothing and leaves no row', async (t) => {
  relay.received.length = 0;
  const answer = await post('/ext/acme/mailer/send-then-fail');
  t.is(answer.status, 500);
  await outbox().drain();
  t.deepEqual(relay.received, []);
  t.deepEqual(await queued(), []);
});

test.serial('a bad address is a 400 naming it; nothing is queued and no event is written', async (t) => {
  const before = env.events.length;
  t.deepEqual(await post('/ext/acme/mailer/send', { to: ['ada@example.test', 'not an address'] }), { status: 400, body: { error: 'to[1] must be an email address (got "not an address")' } });
  t.deepEqual(await post('/ext/acme/mailer/send', { to: 'ada@example.test', subject: 'two\nlines' }), { status: 400, body: { error: 'subject must be 1-998 characters on one line' } });
  t.deepEqual(await post('/ext/acme/mailer/send', { to: Array.from({ length: 51 }, (_, index) => `p${index}@example.test`) }), { status: 400, body: { error: 'A mail goes to at most 50 addresses (to and cc)' } });
  t.is(env.events.length, before);
  t.deepEqual(await queued(), []);
});

test.serial('a refusing transport: the mail stays queued with back-off (1, 2, 4 ... minutes), goes out when it accepts, and is given up after the last attempt', async (t) => {
  relay.received.length = 0;
  relay.refusing = true;
  t.is((await post('/ext/acme/mailer/send', { to: 'carol@example.test', subject: 'Retry me' })).status, 200);
  await outbox().drain();
  let rows = await queued();
  t.is(rows.length, 1);
  t.is(rows[0].state, 'queued');
  t.is(rows[0].attempts, 1);
  t.regex(rows[0].last_error ?? '', /451/);
  t.is(new Date(rows[0].next_attempt_at).getTime() - now.getTime(), 60_000, 'the second attempt waits a minute');
  // Not due yet: nothing is tried.
  await outbox().drain();
  t.is((await queued())[0].attempts, 1);
  now = new Date(now.getTime() + 60_000);
  await outbox().drain();
  rows = await queued();
  t.is(rows[0].attempts, 2);
  t.is(new Date(rows[0].next_attempt_at).getTime() - now.getTime(), 120_000, 'then two minutes');
  relay.refusing = false;
  now = new Date(now.getTime() + 120_000);
  await outbox().drain();
  t.deepEqual(relay.received.map((mail) => mail.subject), ['Retry me']);
  t.deepEqual(await queued(), []);

  relay.refusing = true;
  t.is((await post('/ext/acme/mailer/send', { to: 'dan@example.test', subject: 'Give up' })).status, 200);
  for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt += 1) {
    await outbox().drain();
    now = new Date(now.getTime() + 61 * 60_000);
  }
  rows = await queued();
  t.deepEqual(rows.map((row) => [row.state, row.attempts]), [['failed', MAIL_MAX_ATTEMPTS]]);
  relay.refusing = false;
  await outbox().drain();
  t.deepEqual(relay.received.map((mail) => mail.subject), ['Retry me'], 'a failed mail is not tried again');
  await env.runtime.db.sequelize.query('DELETE FROM platform.mail_outbox WHERE workspace_id = :id', { replacements: { id: ws.id } });
});

test.serial("an app service's work sends mail after its transaction commits, and not when it throws", async (t) => {
  relay.received.length = 0;
  await host.run(ws.id, async (ctx) => {
    ctx.mail.send({ to: 'erin@example.test', subject: 'From a service', text: 'Hello' });
  });
  await t.throwsAsync(
    host.run(ws.id, async (ctx) => {
      ctx.mail.send({ to: 'frank@example.test', subject: 'Rolled back', text: 'Hello' });
      throw new Error('service work failed');
    }),
    { message: 'service work failed' },
  );
  await outbox().drain();
  t.deepEqual(relay.received.map((mail) => mail.subject), ['From a service']);
  t.deepEqual(await queued(), []);
});

test('without SMTP_URL a mail with parts is written as a whole MIME message (.eml) a mail client opens', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wpk-mail-eml-'));
  try {
    const mailer = createMailer({ from: 'Platform <no-reply@platform.test>', dataDir, logger: createLogger('silent') });
    const sent = await mailer.send({ to: ['ada@example.test'], subject: 'Invite', text: 'See the invitation.', fromName: 'Acme Mailer', calendar: { method: 'REQUEST', content: INVITE } });
    t.deepEqual(await readdir(path.join(dataDir, 'mail')), [path.basename(sent.file!)]);
    t.regex(sent.file!, /\.eml$/);
    const parsed = await simpleParser(await readFile(sent.file!));
    t.deepEqual(parsed.from?.value, [{ name: 'Acme Mailer', address: 'no-reply@platform.test' }]);
    t.is(parsed.subject, 'Invite');
    t.is(parsed.attachments.find((file) => file.contentType === 'text/calendar')?.content.toString('utf8').replace(/\r\n/g, '\n'), INVITE.replace(/\r\n/g, '\n'));
    mailer.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
