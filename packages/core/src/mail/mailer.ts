import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';

/** One outgoing mail. Plain text: every platform mail must read well without HTML. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
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
    const info = await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text });
    return { messageId: String(info.messageId) };
  }

  close(): void {
    this.transport.close();
  }
}

class FileMailer implements Mailer {
  private sequence = 0;

  constructor(
    private readonly directory: string,
    private readonly from: string,
    private readonly logger: Logger,
  ) {}

  async send(message: MailMessage): Promise<SentMail> {
    await mkdir(this.directory, { recursive: true });
    this.sequence += 1;
    const now = new Date();
    const stamp = now.toISOString().replace(/[:.]/g, '-');
    const recipient = message.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
    const messageId = `<${stamp}.${process.pid}.${this.sequence}@wpk.local>`;
    const file = path.join(this.directory, `${stamp}-${process.pid}-${this.sequence}-${recipient}.txt`);
    const text = [`From: ${this.from}`, `To: ${message.to}`, `Subject: ${message.subject}`, `Date: ${now.toUTCString()}`, `Message-ID: ${messageId}`, '', message.text, ''].join('\n');
    await writeFile(file, text, { mode: 0o600 });
    this.logger.info({ to: message.to, subject: message.subject, file }, 'mail written (no SMTP_URL set)');
    return { messageId, file };
  }

  close(): void {}
}
