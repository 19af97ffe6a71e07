import { Op } from '@wpk/sdk';
import type { Message } from '../models/index.js';
import { connectionSettings, type ConnectionSettings } from './accounts.js';
import type { MailBaseContext } from '../kit.js';
import { messageDocument } from './messages.js';

/**
 * What leaving needs: the message and the way out, opened only for the send — a hosted
 * mailbox's goes through the relay signed with its domain's DKIM key, a connected account's
 * through its own SMTP server.
 */
export interface Outgoing {
  message: Message;
  via: { kind: 'relay'; dkim: { domainName: string; keySelector: string; privateKey: string } } | { kind: 'account'; settings: ConnectionSettings };
}

/** How long a claimed message is left to one sender before another may try it. */
const LEASE_MS = 10 * 60_000;
/** Attempts before a message is given up (`delivery_status` failed). */
export const MAX_ATTEMPTS = 5;

/** Claims up to `limit` due queued messages of the workspace (a lease, so two processes never send one twice); `relay` false leaves hosted mail queued. */
export async function claimDue(ctx: MailBaseContext, now: Date, relay: boolean, limit = 20): Promise<Outgoing[]> {
  const due = await ctx.db.messages.findAll({ where: { delivery_status: 'queued', next_attempt_at: { [Op.lte]: now } }, order: [['next_attempt_at', 'ASC'], ['id', 'ASC']], limit, lock: 'update' });
  const claimed: Outgoing[] = [];
  for (const message of due) {
    // Without a relay, a hosted mailbox's mail waits unclaimed (and unleased) until one is configured.
    if (!relay && message.account_id && (await ctx.db.mailboxes.findById(message.account_id))) continue;
    await ctx.db.messages.update({ next_attempt_at: new Date(now.getTime() + LEASE_MS) }, { where: { id: message.id } });
    const mailbox = message.account_id ? await ctx.db.mailboxes.findById(message.account_id) : null;
    const domain = mailbox ? await ctx.db.domains.findById(mailbox.domain_id) : null;
    if (domain) {
      if (relay) claimed.push({ message, via: { kind: 'relay', dkim: { domainName: domain.name, keySelector: domain.dkim_selector, privateKey: ctx.secrets.open(domain.dkim_private_key) } } });
      continue;
    }
    const connected = !mailbox && message.account_id ? await ctx.db.connectedAccounts.findById(message.account_id) : null;
    if (connected) claimed.push({ message, via: { kind: 'account', settings: connectionSettings(ctx, connected) } });
  }
  return claimed;
}

/** The relay (or the account's server) took the message: it moves to `sent` (with the UID of its copy in a connected account's Sent folder), is indexed, and `core.mail.message.sent` leaves. */
export async function markSent(ctx: MailBaseContext, id: string, now: Date, copy?: { path: string; uid: number } | null): Promise<void> {
  const message = await ctx.db.messages.findOne({ where: { id, delivery_status: 'queued' }, lock: 'update' });
  if (!message) return;
  const changes = { delivery_status: 'sent' as const, folder: 'sent', sent_at: now, attempts: message.attempts + 1, next_attempt_at: null, last_error: '', ...(copy ? { remote_path: copy.path, remote_uid: copy.uid } : {}) };
  await ctx.db.messages.update(changes, { where: { id } });
  const row = { ...message, ...changes };
  ctx.events.stage('core.mail.message.sent', {
    message_id: id,
    account_id: message.account_id!,
    from_address: message.from_address,
    to_addresses: message.to_addresses.map((address) => address.address),
    cc_addresses: message.cc_addresses.map((address) => address.address),
    bcc_addresses: message.bcc_addresses.map((address) => address.address),
    subject: message.subject,
    sent_by: message.sent_by,
  });
  ctx.search.upsert(messageDocument(row));
}

/** The relay refused or could not be reached: retried later (1, 2, 4, 8 minutes), failed after the last attempt. */
export async function markFailed(ctx: MailBaseContext, id: string, now: Date, reason: string): Promise<void> {
  const message = await ctx.db.messages.findOne({ where: { id, delivery_status: 'queued' }, lock: 'update' });
  if (!message) return;
  const attempts = message.attempts + 1;
  const failed = attempts >= MAX_ATTEMPTS;
  await ctx.db.messages.update(
    { attempts, last_error: reason.slice(0, 500), delivery_status: failed ? 'failed' : 'queued', next_attempt_at: failed ? null : new Date(now.getTime() + 60_000 * 2 ** (attempts - 1)) },
    { where: { id } },
  );
  if (failed) ctx.events.stage('core.mail.message.failed', { message_id: id, account_id: message.account_id!, reason: reason.slice(0, 500) });
}
