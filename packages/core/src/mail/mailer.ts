import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';

/** One outgoing mail. Plain text is required: every mail must read well without HTML. */
export interface MailMessage {
  /** One address, or several (an app's mail). */
  to: string | string[];
  subject: string;
  text: string;
  cc?: string[];
  replyTo?: string;
  html?: string;
  /** Content as text (UTF-8) or base64 (`encoding: 'base64'`). */
  attachments?: Array<{ filename: string; contentType: string; content: string; encoding?: 'base64' }>;
  /** An iCalendar part sent as `text/calendar; method=...` (invitations). */
  calendar?: { method: string; content: string };
  /** The display name before the platform's From address (an app's name). */
  fromName?: string;
}

// eslint-disable-next-line no-control-regex -- control characters are what is folded
const BREAKS = /[\u0000-\u001f\u007f]+/g;

/** A header value on one line: each run of line breaks and other control characters becomes one space. */
export function headerText(value: string): string {
  return value.replace(BREAKS, ' ');
}

/**
 * The message with every header value built from user text (subject, the sender's display name,
 * addresses, attachment names) on one line: a chat named `Launch\r\nBcc: …` must never add a
 * header. Both transports send only what this returns.
 */
function oneLineHeaders(message: MailMessage): MailMessage {
  const one = (value: string | undefined) => (value === undefined ? undefined : headerText(value));
  return {
    ...message,
    to: Array.isArray(message.to) ? message.to.map(headerText) : headerText(message.to),
    subject: headerText(message.subject),
    ...(message.cc ? { cc: message.cc.map(headerText) } : {}),
    ...(message.replyTo !== undefined ? { replyTo: one(message.replyTo) } : {}),
    ...(message.fromName !== undefined ? { fromName: one(message.fromName) } : {}),
    ...(message.attachments ? { attachments: message.attachments.map((file) => ({ ...file, filename: headerText(file.filename) })) } : {}),
  };
}

/** The message as nodemailer takes it (From filled in). */
function nodemailerMessage(from: string, message: MailMessage) {
  return {
    from: message.fromName ? { name: message.fromName, address: addressOf(from) } : from,
    to: message.to,
    cc: message.cc,
    replyTo: message.replyTo,
    subject: message.subject,
    text: message.text,
    html: message.html,
    attachments: message.attachments?.map((file) => ({ filename: file.filename, contentType: file.contentType, content: file.content, encoding: file.encoding })),
    icalEvent: message.calendar ? { method: message.calendar.method, content: message.calendar.content } : undefined,
  };
}

/** The bare address of a From setting (`Name <a@b>` → `a@b`). */
function addressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from;
}

/** Whether a message needs MIME (anything beyond one plain-text part). */
function isRich(message: MailMessage): boolean {
  return Boolean(message.html || message.attachments?.length || message.calendar || message.cc?.length || message.replyTo || message.fromName);
}

/** What sending produced: the message id, and where the development transport wrote it. */
export interface SentMail {
  messageId: string;
  /** Set by the development transport: the file the message was written to. */
  file?: string;
}

/** Sends the platform's mails (verification codes, invitations, password resets, notices). */
export interface Mailer {
  send(message: MailMessage): Promise<SentMail>;
  close(): void;
}

export interface MailerOptions {
  /** `smtp://user:pass@host:port` or `smtps://...`; when absent, mails are written to files. */
  smtpUrl?: string;
  /** The From address. */
  from: string;
  /** Where the development transport writes (`{dataDir}/mail`). */
  dataDir: string;
  logger: Logger;
}

/**
 * The mailer: nodemailer over SMTP when `smtpUrl` is set; otherwise a development transport
 * that writes each message, readable as is (headers, blank line, the plain text), to a `.txt`
 * file under `{dataDir}/mail` and logs the path.
 */
export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl) return new SmtpMailer(nodemailer.createTransport(options.smtpUrl), options.from);
  return new FileMailer(path.join(options.dataDir, 'mail'), options.from, options.logger);
}

class SmtpMailer implements Mailer {
  constructor(
    private readonly transport: Transporter,
    private readonly from: string,
  ) {}

  async send(message: MailMessage): Promise<SentMail> {
    const info = await this.transport.sendMail(nodemailerMessage(this.from, oneLineHeaders(message)));
    return { messageId: String(info.messageId) };
  }

  close(): void {
    this.transport.close();
  }
}

class FileMailer implements Mailer {
  private sequence = 0;
  /** Builds MIME messages without sending them. */
  private readonly composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  constructor(
    private readonly directory: string,
    private readonly from: string,
    private readonly logger: Logger,
  ) {}

  async send(given: MailMessage): Promise<SentMail> {
    const message = oneLineHeaders(given);
    await mkdir(this.directory, { recursive: true });
    this.sequence += 1;
    const now = new Date();
    const stamp = now.toISOString().replace(/[:.]/g, '-');
    const to = Array.isArray(message.to) ? message.to.join(', ') : message.to;
    const recipient = to.replace(/[^a-zA-Z0-9@._-]/g, '_').slice(0, 100);
    const messageId = `<${stamp}.${process.pid}.${this.sequence}@wpk.local>`;
    const base = path.join(this.directory, `${stamp}-${process.pid}-${this.sequence}-${recipient}`);
    let file: string;
    if (isRich(message)) {
      // Attachments, HTML or an invitation: the whole MIME message, openable in a mail client.
      file = `${base}.eml`;
      const built = await this.composer.sendMail({ ...nodemailerMessage(this.from, message), messageId, date: now });
      await writeFile(file, built.message as Buffer, { mode: 0o600 });
    } else {
      file = `${base}.txt`;
      const text = [`From: ${this.from}`, `To: ${to}`, `Subject: ${message.subject}`, `Date: ${now.toUTCString()}`, `Message-ID: ${messageId}`, '', message.text, ''].join('\n');
      await writeFile(file, text, { mode: 0o600 });
    }
    this.logger.info({ to, subject: message.subject, file }, 'mail written (no SMTP_URL set)');
    return { messageId, file };
  }

  close(): void {}
}
