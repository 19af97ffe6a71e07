import nodemailer from 'nodemailer';
import { SMTPServer, type SMTPServerAddress, type SMTPServerAuthentication, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { AppService, AppServiceHost } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import { appendToSent, smtpTransportOptions, syncAccount, type SyncReport } from './imap.js';
import type { Models } from './models/index.js';
import { mailauthResolver, type MailOptions } from './options.js';
import { parseMessage } from './parse.js';
import { splitAddress } from './services/addresses.js';
import { DOMAIN_CLAIM } from './services/domains.js';
import { deliverInbound, resolveRecipient } from './services/inbound.js';
import { loadTls } from './tls.js';
import { authenticateSubmission } from './services/mailboxes.js';
import { queueMessage } from './services/messages.js';
import { claimDue, markFailed, markSent } from './services/queue.js';
import { accountFiles, attachmentContents, storeReceived } from './services/attachments.js';

type Host = AppServiceHost<Models, AppTypes>;

/** The authenticated submitter of a session (an outbox key's mailbox). */
interface Submitter {
  workspaceId: string;
  mailboxId: string;
  address: string;
}

function smtpError(message: string, code: number): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

async function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The Mail app's long-lived part: the inbound SMTP listener (mail for hosted domains, and
 * submission with outbox keys) and the queue that hands outgoing mail to the relay, DKIM-signed.
 * The platform starts it with the runtime (`runtime.start()`) and stops it with `runtime.stop()`.
 */
export class MailService implements AppService<Models, AppTypes> {
  private host: Host | null = null;
  private server: SMTPServer | null = null;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<number> | null = null;
  private listeningPort: number | null = null;
  private syncTimer: NodeJS.Timeout | null = null;
  private syncing: Promise<SyncReport[]> | null = null;

  constructor(private readonly options: MailOptions & { queueIntervalMs: number; syncIntervalMs: number }) {}

  /** The port the listener took (null when it runs none). */
  get port(): number | null {
    return this.listeningPort;
  }

  async start(host: Host): Promise<void> {
    this.host = host;
    const smtp = this.options.smtp;
    if (smtp) {
      const tls = smtp.tls ? await loadTls(smtp.tls, smtp.hostname) : null;
      this.server = new SMTPServer({
        name: smtp.hostname,
        banner: 'Workspace Platform Kit mail',
        size: smtp.maxMessageBytes,
        authOptional: true,
        allowInsecureAuth: true,
        // STARTTLS with the configured (or generated, self-signed) certificate; none without one.
        ...(tls ? { key: tls.key, cert: tls.cert } : { disabledCommands: ['STARTTLS'] }),
        authMethods: ['PLAIN', 'LOGIN'],
        logger: false,
        onAuth: (auth, session, callback) => void this.onAuth(auth, session).then((user) => callback(null, { user }), (error: Error) => callback(error)),
        onMailFrom: (address, session, callback) => this.onMailFrom(address, session, callback),
        onRcptTo: (address, session, callback) => void this.onRcptTo(address, session).then(() => callback(), (error: Error) => callback(error)),
        onData: (stream, session, callback) => void this.onData(stream, session).then(() => callback(), (error: Error) => callback(error)),
      });
      this.server.on('error', (error) => host.log.warn({ err: error }, 'smtp listener error'));
      await new Promise<void>((resolve, reject) => {
        this.server!.once('error', reject);
        this.server!.listen(smtp.port, smtp.host, () => resolve());
      });
      this.listeningPort = (this.server.server.address() as { port: number }).port;
      host.log.info({ port: this.listeningPort }, 'smtp listener started');
    }
    if (this.options.queueIntervalMs > 0) {
      this.timer = setInterval(() => void this.flush().catch((error: Error) => host.log.warn({ err: error }, 'mail queue run failed')), this.options.queueIntervalMs);
      this.timer.unref();
    }
    if (this.options.syncIntervalMs > 0) {
      this.syncTimer = setInterval(() => void this.sync().catch((error: Error) => host.log.warn({ err: error }, 'connected account sync failed')), this.options.syncIntervalMs);
      this.syncTimer.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.syncTimer) clearInterval(this.syncTimer);
    this.syncTimer = null;
    await this.flushing?.catch(() => 0);
    await this.syncing?.catch(() => []);
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
    this.listeningPort = null;
  }

  private requireHost(): Host {
    if (!this.host) throw new Error('The mail service is not started');
    return this.host;
  }

  /**
   * The workspace hosting a domain: the one holding its claim, which only verification gives
   * (services/domains.ts); an unverified domain is nobody's, whoever added it.
   */
  async workspaceOfDomain(domain: string): Promise<string | null> {
    return this.requireHost().claimant(DOMAIN_CLAIM, domain);
  }

  private async onAuth(auth: SMTPServerAuthentication, _session: SMTPServerSession): Promise<Submitter> {
    const refused = smtpError('Invalid username or password', 535);
    const parts = splitAddress(auth.username ?? '');
    if (!parts || !auth.password) throw refused;
    const workspaceId = await this.workspaceOfDomain(parts.domain);
    if (!workspaceId) throw refused;
    const mailbox = await this.requireHost().run(workspaceId, (ctx) => authenticateSubmission(ctx, `${parts.local}@${parts.domain}`, auth.password!));
    if (!mailbox) throw refused;
    return { workspaceId, mailboxId: mailbox.id, address: mailbox.address };
  }

  private onMailFrom(address: SMTPServerAddress, session: SMTPServerSession, callback: (error?: Error) => void): void {
    const user = session.user as unknown as Submitter | undefined;
    if (user && address.address.toLowerCase() !== user.address) return callback(smtpError(`Sender must be ${user.address}`, 553));
    callback();
  }

  private async onRcptTo(address: SMTPServerAddress, session: SMTPServerSession): Promise<void> {
    if (session.user) return; // submission: any recipient, the relay takes it on
    const parts = splitAddress(address.address);
    const workspaceId = parts ? await this.workspaceOfDomain(parts.domain) : null;
    const target = workspaceId ? await this.requireHost().run(workspaceId, (ctx) => resolveRecipient(ctx, address.address)) : null;
    if (!target) throw smtpError(`No mailbox here by the name ${address.address}`, 550);
  }

  private async onData(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<void> {
    const raw = await readAll(stream);
    if (stream.sizeExceeded) throw smtpError('Message too large', 552);
    const host = this.requireHost();
    const user = session.user as unknown as Submitter | undefined;
    if (user) {
      const message = await parseMessage(raw);
      const named = new Set([...message.to, ...message.cc].map((entry) => entry.address));
      const bcc = session.envelope.rcptTo.map((entry) => entry.address.toLowerCase()).filter((entry) => !named.has(entry)).map((entry) => ({ address: entry }));
      await host.run(user.workspaceId, async (ctx) => {
        const mailbox = await ctx.db.mailboxes.findById(user.mailboxId);
        if (!mailbox) throw smtpError('Mailbox gone', 550);
        await queueMessage(ctx, mailbox, { to: message.to, cc: message.cc, bcc, subject: message.subject, text: message.text, html: message.html, in_reply_to: message.inReplyTo, attachments: await storeReceived(ctx, accountFiles(mailbox.id), message.files ?? []) }, mailbox.member_id, null);
      });
      return;
    }
    // DKIM, SPF (of the envelope sender, from the client's address) and DMARC (of the From domain), through the injectable resolver.
    // mailauth loads with the first message received, not with the app.
    const { authenticate } = await import('mailauth');
    const verdict = await authenticate(raw, {
      ip: (session.remoteAddress ?? '').replace(/^::ffff:/, ''),
      helo: session.hostNameAppearsAs,
      sender: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
      mta: this.options.smtp?.hostname ?? 'localhost',
      resolver: mailauthResolver(this.options.resolver),
      disableArc: true,
      disableBimi: true,
    });
    const results = verdict.dkim?.results ?? [];
    const dkim = results.some((result) => result.status?.result === 'pass') ? 'pass' : results.some((result) => result.status?.result && result.status.result !== 'none') ? 'fail' : 'none';
    const spf = verdict.spf ? String(verdict.spf.status?.result ?? 'none') : 'none';
    const dmarcResult = verdict.dmarc || null;
    const dmarc = dmarcResult ? String(dmarcResult.status?.result ?? 'none') : 'none';
    const policy = dmarc === 'fail' ? String((dmarcResult as { policy?: string }).policy ?? 'none') : 'none';
    if (policy === 'reject') throw smtpError(`5.7.1 The domain of ${dmarcResult?.status?.header?.from ?? 'the sender'} asks receivers to reject mail that fails DMARC, and this message fails it`, 550);
    const message = await parseMessage(raw, { dkim, spf, dmarc });
    if (policy === 'quarantine') message.quarantine = true;
    const byWorkspace = new Map<string, string[]>();
    for (const recipient of session.envelope.rcptTo) {
      const parts = splitAddress(recipient.address);
      const workspaceId = parts ? await this.workspaceOfDomain(parts.domain) : null;
      if (workspaceId) byWorkspace.set(workspaceId, [...(byWorkspace.get(workspaceId) ?? []), recipient.address.toLowerCase()]);
    }
    for (const [workspaceId, recipients] of byWorkspace) await host.run(workspaceId, (ctx) => deliverInbound(ctx, recipients, message));
  }

  /**
   * Hands every due queued message to the relay, DKIM-signed with its domain's key, outside any
   * transaction (the relay may be this very listener); returns how many left. One run at a time.
   */
  flush(): Promise<number> {
    if (this.flushing) return this.flushing.then(() => this.flush());
    this.flushing = this.runQueue().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async runQueue(): Promise<number> {
    const host = this.requireHost();
    const relay = this.options.relay();
    let sent = 0;
    for (const workspaceId of await host.workspaces()) {
      const due = (await host.run(workspaceId, (ctx) => claimDue(ctx, new Date(), relay !== null))) ?? [];
      for (const { message, via } of due) {
        const files = message.attachments.length ? ((await host.run(workspaceId, (ctx) => attachmentContents(ctx, message))) ?? []) : [];
        const mail = {
          messageId: message.message_id_header,
          from: { name: message.from_name, address: message.from_address },
          to: message.to_addresses.map((entry) => ({ name: entry.name ?? '', address: entry.address })),
          cc: message.cc_addresses.map((entry) => ({ name: entry.name ?? '', address: entry.address })),
          bcc: message.bcc_addresses.map((entry) => entry.address),
          subject: message.subject,
          text: message.text_body,
          ...(message.html_body ? { html: message.html_body } : {}),
          ...(files.length ? { attachments: files } : {}),
          ...(message.in_reply_to ? { inReplyTo: message.in_reply_to, references: message.in_reply_to } : {}),
        };
        const transport =
          via.kind === 'relay'
            ? nodemailer.createTransport({ host: relay!.host, port: relay!.port, secure: relay!.secure ?? false, ...(relay!.auth ? { auth: relay!.auth } : {}), dkim: via.dkim })
            : nodemailer.createTransport(smtpTransportOptions(via.settings.smtp));
        try {
          let copy: { path: string; uid: number } | null = null;
          if (via.kind === 'relay') {
            await transport.sendMail(mail);
          } else {
            // A connected account's server sends it; a copy goes to the account's Sent folder, as mail clients do.
            const built = await nodemailer.createTransport({ streamTransport: true, buffer: true }).sendMail(mail);
            const raw = built.message as Buffer;
            await transport.sendMail({ envelope: built.envelope as { from: string; to: string[] }, raw });
            const appended = await appendToSent(via.settings, raw).catch((error: Error) => {
              host.log.warn({ message_id: message.id, reason: error.message }, 'could not file the sent copy on the server');
              return null;
            });
            if (appended?.uid) copy = { path: appended.path, uid: appended.uid };
          }
          await host.run(workspaceId, (ctx) => markSent(ctx, message.id, new Date(), copy));
          sent += 1;
        } catch (error) {
          await host.run(workspaceId, (ctx) => markFailed(ctx, message.id, new Date(), (error as Error).message));
        } finally {
          transport.close();
        }
      }
    }
    return sent;
  }

  /**
   * Syncs every connected account of every workspace with its IMAP server, one account after
   * another; one run at a time (a call during a run waits for it, then runs again).
   */
  sync(): Promise<SyncReport[]> {
    if (this.syncing) return this.syncing.then(() => this.sync());
    this.syncing = this.runSync().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  private async runSync(): Promise<SyncReport[]> {
    const host = this.requireHost();
    const reports: SyncReport[] = [];
    for (const workspaceId of await host.workspaces()) {
      const accounts = (await host.run(workspaceId, (ctx) => ctx.db.connectedAccounts.findAll({ attributes: ['id'], order: [['created_at', 'ASC'], ['id', 'ASC']] }))) ?? [];
      for (const account of accounts) {
        const report = await syncAccount(host, workspaceId, account.id);
        if (report) reports.push(report);
      }
    }
    return reports;
  }
}
