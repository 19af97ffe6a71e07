import type { Address, Filter, Mailbox, Message } from '../models/index.js';
import { splitAddress } from './addresses.js';
import type { MailBaseContext } from '../kit.js';
import { messageDocument } from './messages.js';
import { accountFiles, groupFiles, storeReceived, type IncomingFile } from './attachments.js';

/** A parsed incoming message, as the listener hands it over. */
export interface IncomingMessage {
  messageId: string;
  inReplyTo: string;
  from: Address;
  to: Address[];
  cc: Address[];
  subject: string;
  text: string;
  html: string;
  date: Date | null;
  sizeBytes: number;
  /** Its attached files (pictures an HTML part shows inline are left out). */
  files?: IncomingFile[];
  dkim: 'pass' | 'fail' | 'none';
  /** SPF of the envelope sender and DMARC of the From domain (`mailauth`), `none` when not evaluated. */
  spf: string;
  dmarc: string;
  /** DMARC failed under `p=quarantine`: every copy is filed in `spam`, whatever the filters say. */
  quarantine?: boolean;
}

/** Where an address of a hosted domain leads: a mailbox, a group, the domain's catch-all, or nowhere. */
export async function resolveRecipient(ctx: MailBaseContext, address: string): Promise<{ kind: 'mailbox'; mailbox: Mailbox } | { kind: 'group'; groupId: string } | null> {
  const lower = address.toLowerCase();
  const parts = splitAddress(lower);
  if (!parts) return null;
  // Only a domain this workspace verified receives (the listener asks its claim's holder alone).
  const domain = await ctx.db.domains.findOne({ where: { name: parts.domain } });
  if (!domain?.verified_at) return null;
  const mailbox = await ctx.db.mailboxes.findOne({ where: { address: lower } });
  if (mailbox) return { kind: 'mailbox', mailbox };
  const group = await ctx.db.groups.findOne({ where: { address: lower } });
  if (group) return { kind: 'group', groupId: group.id };
  if (!domain.catch_all_mailbox_id) return null;
  const catchAll = await ctx.db.mailboxes.findById(domain.catch_all_mailbox_id);
  return catchAll ? { kind: 'mailbox', mailbox: catchAll } : null;
}

function isBlocked(blocked: string[], sender: string): boolean {
  const lower = sender.toLowerCase();
  const domain = lower.slice(lower.lastIndexOf('@'));
  return blocked.includes(lower) || blocked.includes(domain);
}

function fieldText(message: IncomingMessage, field: string): string[] {
  switch (field) {
    case 'from':
      return [message.from.address, message.from.name ?? ''];
    case 'to':
      return [...message.to, ...message.cc].flatMap((address) => [address.address, address.name ?? '']);
    case 'subject':
      return [message.subject];
    default:
      return [message.text];
  }
}

/** True when the filter's conditions (all, or any) hold for the message; text compares ignoring case. */
export function filterMatches(filter: Pick<Filter, 'match' | 'conditions'>, message: IncomingMessage): boolean {
  const results = filter.conditions.map((condition) => {
    const value = condition.value.toLowerCase();
    return fieldText(message, condition.field).some((candidate) => {
      const text = candidate.toLowerCase();
      if (condition.operator === 'equals') return text === value;
      if (condition.operator === 'ends_with') return text.endsWith(value);
      return text.includes(value);
    });
  });
  return filter.match === 'any' ? results.some(Boolean) : results.every(Boolean);
}

export function columns(message: IncomingMessage) {
  return {
    message_id_header: message.messageId.slice(0, 998),
    in_reply_to: message.inReplyTo.slice(0, 998),
    from_address: message.from.address.slice(0, 320),
    from_name: (message.from.name ?? '').slice(0, 200),
    to_addresses: message.to,
    cc_addresses: message.cc,
    subject: message.subject.slice(0, 998),
    text_body: message.text,
    html_body: message.html,
    size_bytes: message.sizeBytes,
    dkim: message.dkim,
    spf: message.spf,
    dmarc: message.dmarc,
    sent_at: message.date,
  };
}

export function received(ctx: MailBaseContext, row: Message): void {
  ctx.events.stage('core.mail.message.received', {
    message_id: row.id,
    account_id: row.account_id,
    group_id: row.group_id,
    from_address: row.from_address,
    from_name: row.from_name || null,
    to_addresses: row.to_addresses.map((address) => address.address),
    cc_addresses: row.cc_addresses.map((address) => address.address),
    subject: row.subject,
  });
  ctx.search.upsert(messageDocument(row));
}

/** What an account's blocked senders and filters make of a message: dropped, or filed in a folder with flags. */
export interface RuleOutcome {
  drop: boolean;
  folder: string;
  seen: boolean;
  flagged: boolean;
}

/** Runs the account's blocked senders, then its filters in position order. */
export async function applyRules(ctx: MailBaseContext, accountId: string, message: IncomingMessage, folder = 'inbox'): Promise<RuleOutcome> {
  const outcome: RuleOutcome = { drop: false, folder, seen: false, flagged: false };
  const blocked = (await ctx.db.blockedSenders.findAll({ where: { account_id: accountId } })).map((row) => row.address);
  if (isBlocked(blocked, message.from.address)) return { ...outcome, drop: true };
  const filters = await ctx.db.filters.findAll({ where: { account_id: accountId }, order: [['position', 'ASC'], ['id', 'ASC']] });
  for (const filter of filters) {
    if (!filterMatches(filter, message)) continue;
    for (const action of filter.actions) {
      if (action.type === 'discard') return { ...outcome, drop: true };
      if (action.type === 'move' && action.folder) outcome.folder = action.folder;
      if (action.type === 'mark_seen') outcome.seen = true;
      if (action.type === 'flag') outcome.flagged = true;
    }
  }
  return outcome;
}

/** Files a copy in a mailbox after its blocked senders and filters; null when they dropped it. */
async function fileInMailbox(ctx: MailBaseContext, mailbox: Mailbox, message: IncomingMessage): Promise<Message | null> {
  const outcome = await applyRules(ctx, mailbox.id, message);
  if (outcome.drop) return null;
  const folder = message.quarantine ? 'spam' : outcome.folder;
  const row = await ctx.db.messages.create({ account_id: mailbox.id, folder, seen: outcome.seen, flagged: outcome.flagged, received_at: new Date(), ...columns(message), attachments: await storeReceived(ctx, accountFiles(mailbox.id), message.files ?? []) });
  received(ctx, row);
  return row;
}

/**
 * Delivers an incoming message to the recipients of this workspace: each mailbox (or the
 * catch-all) files one copy; a group keeps one copy in its archive and files one in each of its
 * members' mailboxes (members-only groups refuse senders who are not their members). A mailbox
 * named twice (directly and through a group) gets one copy. Returns the stored messages.
 */
export async function deliverInbound(ctx: MailBaseContext, recipients: string[], message: IncomingMessage): Promise<Message[]> {
  const stored: Message[] = [];
  const filed = new Set<string>();
  const groups = new Set<string>();
  const mailboxes: Mailbox[] = [];
  for (const recipient of recipients) {
    const target = await resolveRecipient(ctx, recipient);
    if (target?.kind === 'mailbox') mailboxes.push(target.mailbox);
    if (target?.kind === 'group') groups.add(target.groupId);
  }
  for (const groupId of groups) {
    const group = await ctx.db.groups.findById(groupId);
    if (!group) continue;
    const members = (await ctx.db.groupMembers.findAll({ where: { group_id: groupId } })).map((row) => row.member_id);
    if (group.who_can_post === 'members') {
      const sender = await ctx.db.mailboxes.findOne({ where: { address: message.from.address.toLowerCase() } });
      if (!sender?.member_id || !members.includes(sender.member_id)) continue;
    }
    const row = await ctx.db.messages.create({ group_id: groupId, folder: 'inbox', received_at: new Date(), ...columns(message), attachments: await storeReceived(ctx, groupFiles(groupId), message.files ?? []) });
    received(ctx, row);
    stored.push(row);
    if (members.length > 0) mailboxes.push(...(await ctx.db.mailboxes.findAll({ where: { member_id: members }, order: [['address', 'ASC']] })));
  }
  for (const mailbox of mailboxes) {
    if (filed.has(mailbox.id)) continue;
    filed.add(mailbox.id);
    const row = await fileInMailbox(ctx, mailbox, message);
    if (row) stored.push(row);
  }
  return stored;
}
