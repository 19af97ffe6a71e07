import { randomUUID } from 'node:crypto';
import { InvalidError, type AppMailMessage } from '@wpk/sdk';
import type { Logger } from 'pino';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Mailer, MailMessage } from './mailer.js';

/** At most this many recipients (`to` and `cc`) per mail. */
export const MAIL_MAX_RECIPIENTS = 50;
/** At most this many attachments per mail. */
export const MAIL_MAX_ATTACHMENTS = 10;
/** Every part of a mail together (text, HTML, invitation, attachments) at most this many bytes. */
export const MAIL_MAX_BYTES = 10 * 1024 * 1024;
/** Attempts before a mail is given up (kept as `failed`, logged). */
export const MAIL_MAX_ATTEMPTS = 8;
/** How long a claimed mail is held by the process sending it before another may try again. */
const LEASE_MS = 5 * 60_000;
/** The wait before attempt n + 1: 1, 2, 4, ... minutes, at most an hour. */
const backoffMs = (attempts: number) => Math.min(60, 2 ** (attempts - 1)) * 60_000;

// A deliberately plain address rule (what a form would accept): local@domain.tld, no display name.
const ADDRESS = /^[^\s@<>(),;:"[\]\\]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)+$/;
const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]{1,64}\/[a-z0-9!#$&^_.+-]{1,64}$/i;
const CALENDAR_METHODS = new Set(['REQUEST', 'CANCEL', 'PUBLISH', 'REPLY']);

/** One app mail as stored in the outbox: attachments as base64, addresses as arrays. */
export type QueuedMail = Omit<MailMessage, 'to' | 'attachments'> & { to: string[]; attachments?: Array<{ filename: string; contentType: string; content: string; encoding: 'base64' }> };

function address(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length > 254 || !ADDRESS.test(value)) throw new InvalidError(`${field} must be an email address (got ${JSON.stringify(typeof value === 'string' ? value.slice(0, 100) : value)})`);
  return value;
}

/**
 * Checks one `ctx.mail.send` message and turns it into what the outbox stores. Throws
 * `InvalidError` naming the field: these are mostly addresses a user typed.
 */
export function queuedMail(message: AppMailMessage, appName: string): QueuedMail {
  if (!message || typeof message !== 'object') throw new InvalidError('A mail must be an object with to, subject and text');
  const to = (Array.isArray(message.to) ? message.to : [message.to]).map((value, index) => address(value, Array.isArray(message.to) ? `to[${index}]` : 'to'));
  if (to.length === 0) throw new InvalidError('to must name at least one address');
  const cc = message.cc === undefined ? undefined : Array.isArray(message.cc) ? message.cc.map((value, index) => address(value, `cc[${index}]`)) : (() => { throw new InvalidError('cc must be a list of email addresses'); })();
  if (to.length + (cc?.length ?? 0) > MAIL_MAX_RECIPIENTS) throw new InvalidError(`A mail goes to at most ${MAIL_MAX_RECIPIENTS} addresses (to and cc)`);
  const replyTo = message.replyTo === undefined ? undefined : address(message.replyTo, 'replyTo');
  if (typeof message.subject !== 'string' || message.subject.trim().length === 0 || message.subject.length > 998 || /[\r\n]/.test(message.subject)) throw new InvalidError('subject must be 1-998 characters on one line');
  if (typeof message.text !== 'string') throw new InvalidError('text must be a string (the plain-text body)');
  if (message.html !== undefined && typeof message.html !== 'string') throw new InvalidError('html must be a string');
  let bytes = Buffer.byteLength(message.text) + Buffer.byteLength(message.html ?? '');
  const files = message.attachments ?? [];
  if (!Array.isArray(files) || files.length > MAIL_MAX_ATTACHMENTS) throw new InvalidError(`attachments must be a list of at most ${MAIL_MAX_ATTACHMENTS} files`);
  const attachments = files.map((file, index) => {
    if (typeof file?.filename !== 'string' || file.filename.length === 0 || file.filename.length > 255 || /[/\\\r\n\0]/.test(file.filename)) throw new InvalidError(`attachments[${index}].filename must be 1-255 characters without path separators`);
    if (typeof file.contentType !== 'string' || !MEDIA_TYPE.test(file.contentType)) throw new InvalidError(`attachments[${index}].contentType must be a media type such as application/pdf`);
    const content = typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : file.content instanceof Uint8Array ? Buffer.from(file.content) : null;
    if (!content) throw new InvalidError(`attachments[${index}].content must be text or bytes`);
    bytes += content.length;
    return { filename: file.filename, contentType: file.contentType.toLowerCase(), content: content.toString('base64'), encoding: 'base64' as const };
  });
  let calendar: QueuedMail['calendar'];
  if (message.calendar !== undefined) {
    if (!CALENDAR_METHODS.has(message.calendar?.method) || typeof message.calendar.content !== 'string' || !message.calendar.content.startsWith('BEGIN:VCALENDAR')) {
      throw new InvalidError('calendar must be {method: REQUEST, CANCEL, PUBLISH or REPLY, content: an iCalendar text starting BEGIN:VCALENDAR}');
    }
    calendar = { method: message.calendar.method, content: message.calendar.content };
    bytes += Buffer.byteLength(calendar.content);
  }
  if (bytes > MAIL_MAX_BYTES) throw new InvalidError(`A mail is at most ${MAIL_MAX_BYTES / 1024 / 1024} MB in all (this one: ${(bytes / 1024 / 1024).toFixed(1)} MB)`);
  return {
    to,
    subject: message.subject,
    text: message.text,
    fromName: appName,
    ...(cc?.length ? { cc } : {}),
    ...(replyTo ? { replyTo } : {}),
    ...(message.html !== undefined ? { html: message.html } : {}),
    ...(attachments.length ? { attachments } : {}),
    ...(calendar ? { calendar } : {}),
  };
}

interface Claimed {
  workspace_id: string;
  id: string;
  app: string;
  message: QueuedMail;
  attempts: number;
}

/**
 * The apps' outgoing mail (`ctx.mail`): queued in `platform.mail_outbox` inside the work's
 * transaction, so a rolled-back request sends nothing; sent after the commit (`kick`), and by a
 * sweep every `intervalMs` for what a crash or a failing transport left. A mail is claimed for
 * a lease before it is sent (another process skips it), deleted once the transport took it,
 * retried with back-off when it refused, and kept as `failed` after `MAIL_MAX_ATTEMPTS`.
 * Delivery is at least once: a process that dies between the transport's acceptance and the
 * delete sends it again when the lease runs out.
 */
export class MailOutbox {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly parts: { sequelize: Sequelize; mailer: () => Mailer; logger: Logger; clock: () => Date; intervalMs?: number },
  ) {}

  /** Queues mails of one app in one workspace, joining the current transaction (CLS). */
  async enqueue(workspaceId: string, app: string, mails: QueuedMail[]): Promise<void> {
    const now = this.parts.clock();
    for (const mail of mails) {
      await this.parts.sequelize.query(
        'INSERT INTO platform.mail_outbox (workspace_id, id, app, message, next_attempt_at, created_at) VALUES ($1, $2, $3, CAST($4 AS jsonb), $5, $5)',
        { bind: [workspaceId, randomUUID(), app, JSON.stringify(mail), now] },
      );
    }
  }

  /** Sends what is due now, in the background (after a commit). Calls while a run is going make it run once more. */
  kick(): void {
    if (this.stopped) return;
    void this.drain().catch((error) => this.parts.logger.error({ err: error }, 'mail outbox: sending failed'));
  }

  /** Sends every due mail (waiting for a run in progress first); resolves with how many left. */
  async drain(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      let sent = 0;
      do {
        this.again = false;
        sent += await this.sendDue();
      } while (this.again && !this.stopped);
      return sent;
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** The sweep: every `intervalMs` (default a minute) what is due goes out. */
  start(): void {
    this.stopped = false;
    if (this.timer) return;
    this.timer = setInterval(() => this.kick(), this.parts.intervalMs ?? 60_000);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }

  private async sendDue(): Promise<number> {
    const { sequelize } = this.parts;
    let sent = 0;
    for (;;) {
      const now = this.parts.clock();
      const due = await sequelize.query<{ workspace_id: string; id: string }>(
        "SELECT workspace_id, id FROM platform.mail_outbox WHERE state = 'queued' AND next_attempt_at <= $1 ORDER BY next_attempt_at, id LIMIT 20",
        { type: QueryTypes.SELECT, bind: [now], transaction: null },
      );
      if (due.length === 0) return sent;
      let claimedAny = false;
      for (const row of due) {
        if (this.stopped) return sent;
        const claimed = await this.claim(row.workspace_id, row.id, now);
        if (!claimed) continue;
        claimedAny = true;
        if (await this.sendOne(claimed)) sent += 1;
      }
      // Every due row was taken by another process meanwhile: it sends them.
      if (!claimedAny) return sent;
    }
  }

  /** Takes a due mail for a lease (one statement: of two processes only one gets it). */
  private async claim(workspaceId: string, id: string, now: Date): Promise<Claimed | null> {
    const rows = await this.parts.sequelize.query<Claimed>(
      "UPDATE platform.mail_outbox SET attempts = attempts + 1, next_attempt_at = $3 WHERE workspace_id = $1 AND id = $2 AND state = 'queued' AND next_attempt_at <= $4 RETURNING workspace_id, id, app, message, attempts",
      { type: QueryTypes.SELECT, bind: [workspaceId, id, new Date(now.getTime() + LEASE_MS), now], transaction: null },
    );
    return rows[0] ?? null;
  }

  private async sendOne(mail: Claimed): Promise<boolean> {
    const { sequelize, logger } = this.parts;
    const where = { workspace_id: mail.workspace_id, mail_id: mail.id, app: mail.app };
    try {
      await this.parts.mailer().send(mail.message);
    } catch (error) {
      const failed = mail.attempts >= MAIL_MAX_ATTEMPTS;
      const reason = error instanceof Error ? error.message.slice(0, 500) : String(error).slice(0, 500);
      await sequelize.query(
        `UPDATE platform.mail_outbox SET last_error = $3, ${failed ? "state = 'failed'" : 'next_attempt_at = $4'} WHERE workspace_id = $1 AND id = $2`,
        { bind: failed ? [mail.workspace_id, mail.id, reason] : [mail.workspace_id, mail.id, reason, new Date(this.parts.clock().getTime() + backoffMs(mail.attempts))], transaction: null },
      );
      if (failed) logger.error({ ...where, attempts: mail.attempts, error: reason }, 'mail outbox: given up after the last attempt');
      else logger.warn({ ...where, attempts: mail.attempts, error: reason }, 'mail outbox: the transport refused; retrying later');
      return false;
    }
    await sequelize.query('DELETE FROM platform.mail_outbox WHERE workspace_id = $1 AND id = $2', { bind: [mail.workspace_id, mail.id], transaction: null });
    logger.debug({ ...where, recipients: mail.message.to.length + (mail.message.cc?.length ?? 0) }, 'mail outbox: sent');
    return true;
  }
}
