import { ConflictError, InvalidError, likePattern, newId, NotFoundError, Op } from '@wpk/sdk';
import type { Address, Attachment, Message } from '../models/index.js';
import { requireAccount, type Account } from './accounts.js';
import type { MailBaseContext, MailContext } from '../kit.js';
import { requireGroup } from './groups.js';

/** A message as the API shows it. */
export function presentMessage(message: Message) {
  return {
    id: message.id,
    account_id: message.account_id,
    group_id: message.group_id,
    folder: message.folder,
    message_id_header: message.message_id_header,
    in_reply_to: message.in_reply_to,
    from: { address: message.from_address, name: message.from_name },
    to: message.to_addresses,
    cc: message.cc_addresses,
    ...(message.delivery_status ? { bcc: message.bcc_addresses } : {}),
    subject: message.subject,
    text: message.text_body,
    html: message.html_body,
    attachments: message.attachments,
    size_bytes: message.size_bytes,
    dkim: message.dkim,
    spf: message.spf,
    dmarc: message.dmarc,
    seen: message.seen,
    flagged: message.flagged,
    delivery_status: message.delivery_status,
    attempts: message.attempts,
    last_error: message.last_error || null,
    sent_at: message.sent_at,
    received_at: message.received_at,
    updated_at: message.updated_at,
  };
}

/** The search document of a message (a compliance search: see the manifest's `message` type). */
export function messageDocument(message: Message) {
  const url = message.group_id ? `/mail/groups/${message.group_id}/messages/${message.id}` : `/mail/accounts/${message.account_id}/messages/${message.id}`;
  return {
    type: 'message',
    id: message.id,
    badge: message.group_id ? 'Group' : 'Mail',
    title: message.subject || '(no subject)',
    subtitle: message.from_name ? `${message.from_name} <${message.from_address}>` : message.from_address,
    url,
    names: [message.subject || '(no subject)', message.from_address],
    details: [message.text_body.slice(0, 2000)],
    filters: { owner: message.from_address, date: message.received_at.toISOString(), size: message.size_bytes, type: 'message' },
  };
}

/** Messages of a folder (default inbox), newest first; `q` matches subject or sender. */
export async function listAccountMessages(ctx: MailContext, accountId: string, query: { folder?: string; q?: string; seen?: boolean; flagged?: boolean }) {
  await requireAccount(ctx, accountId);
  const where: Record<string | symbol, unknown> = { account_id: accountId, folder: query.folder ?? 'inbox' };
  if (query.seen !== undefined) where.seen = query.seen;
  if (query.flagged !== undefined) where.flagged = query.flagged;
  return pageOfMessages(ctx, where, query.q);
}

/** One page (`ctx.page`) of the messages matching `where`, newest first; `q` matches the subject or the sender. */
function pageOfMessages(ctx: MailContext, where: Record<string | symbol, unknown>, q: string | undefined) {
  if (q) where[Op.or] = [{ subject: { [Op.iLike]: likePattern(q) } }, { from_address: { [Op.iLike]: likePattern(q) } }];
  return ctx.db.messages.findAndCountAll({ where, order: [['received_at', 'DESC'], ['id', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset });
}

/** One message of the caller's account, or 404. */
export async function requireAccountMessage(ctx: MailContext, accountId: string, messageId: string, lock = false): Promise<Message> {
  await requireAccount(ctx, accountId);
  const message = await ctx.db.messages.findOne({ where: { id: messageId, account_id: accountId }, ...(lock ? { lock: 'update' as const } : {}) });
  if (!message) throw new NotFoundError('Message not found');
  return message;
}

const FOLDERS_OF_THE_SYSTEM = new Set(['outbox']);

/** Records a move the server of a connected account has yet to see (`target` '' deletes it there for good). */
async function remoteMove(ctx: MailBaseContext, message: Message, target: string, keepLocal: boolean): Promise<void> {
  if (message.remote_uid === null || message.remote_path === null) return;
  const state = await ctx.db.accountFolders.findOne({ where: { account_id: message.account_id!, remote_path: message.remote_path } });
  await ctx.db.remoteOperations.create({ account_id: message.account_id!, message_id: keepLocal ? message.id : null, remote_path: message.remote_path, uid_validity: state?.uid_validity ?? '', remote_uid: Number(message.remote_uid), target_folder: target });
}

/**
 * Marks a message read or flagged, or moves it to another folder. A connected account's message
 * changes here at once and on its server with the next sync (flags, and the move).
 */
export async function updateMessage(ctx: MailBaseContext, message: Message, input: { seen?: boolean; flagged?: boolean; folder?: string }): Promise<Message> {
  const changes: Partial<Message> = {};
  if (input.seen !== undefined && input.seen !== message.seen) changes.seen = input.seen;
  if (input.flagged !== undefined && input.flagged !== message.flagged) changes.flagged = input.flagged;
  if (message.remote_uid !== null && (changes.seen !== undefined || changes.flagged !== undefined)) changes.flags_dirty = true;
  if (input.folder !== undefined && input.folder !== message.folder) {
    if (message.group_id) throw new InvalidError('folder: group messages have no folders');
    if (FOLDERS_OF_THE_SYSTEM.has(input.folder) || message.delivery_status === 'queued') throw new ConflictError('A queued message stays in the outbox until it is sent');
    changes.folder = input.folder;
    await remoteMove(ctx, message, input.folder, true);
  }
  if (Object.keys(changes).length === 0) return message;
  await ctx.db.messages.update(changes, { where: { id: message.id } });
  return { ...message, ...changes, updated_at: new Date() };
}

/**
 * Deletes a message here. A connected account's message also goes to its server's Trash with the
 * next sync (from the Trash, it is deleted there for good); a queued one is not sent.
 */
export async function deleteMessage(ctx: MailBaseContext, message: Message): Promise<void> {
  await remoteMove(ctx, message, message.folder === 'trash' ? '' : 'trash', false);
  await ctx.db.messages.destroy({ where: { id: message.id } });
  // Its files are its own (a recipient's copy has its own; a sent message took its draft's uploads).
  for (const file of message.attachments) await ctx.storage.delete(file.file_key);
  ctx.search.remove('message', message.id);
}

/** The group when the caller may read its messages: a member of any tier, or a holder of mail.groups.manage. */
export async function groupForReading(ctx: MailContext, groupId: string, moderate = false) {
  const group = await requireGroup(ctx, groupId);
  if (ctx.permissions.has('mail.groups.manage')) return group;
  const membership = await ctx.db.groupMembers.findOne({ where: { group_id: groupId, member_id: ctx.member.id } });
  if (!membership) throw new NotFoundError('Group not found');
  if (moderate && membership.tier === 'member') throw new InvalidError('Only the group\'s owners and managers can change or delete its messages');
  return group;
}

/** The group's messages, newest first. */
export async function listGroupMessages(ctx: MailContext, groupId: string, query: { q?: string }) {
  await groupForReading(ctx, groupId);
  return pageOfMessages(ctx, { group_id: groupId }, query.q);
}

/** One message of the group, or 404. */
export async function requireGroupMessage(ctx: MailContext, groupId: string, messageId: string, moderate = false): Promise<Message> {
  await groupForReading(ctx, groupId, moderate);
  const message = await ctx.db.messages.findOne({ where: { id: messageId, group_id: groupId } });
  if (!message) throw new NotFoundError('Message not found');
  return message;
}

/** What a member writes: recipients, subject, bodies. */
export interface Composition {
  to?: Address[];
  cc?: Address[];
  bcc?: Address[];
  subject?: string;
  text?: string;
  html?: string;
  in_reply_to?: string;
  /** Its files, checked already (`resolveAttachments`). */
  attachments?: Attachment[];
}

/**
 * Queues a message from the account: it is stored in the `outbox` folder (`delivery_status`
 * queued) and the app's mail queue hands it to the relay, signed with the domain's DKIM key
 * (a connected account's: to its own SMTP server, then a copy to its Sent folder); once sent it moves to `sent` and `core.mail.message.sent` is emitted.
 */
export async function queueMessage(ctx: MailBaseContext, mailbox: Pick<Account, 'id' | 'address' | 'display_name' | 'signature_id'>, composition: Composition, sentBy: string | null, signatureId?: string | null): Promise<Message> {
  const recipients = [...(composition.to ?? []), ...(composition.cc ?? []), ...(composition.bcc ?? [])];
  if (recipients.length === 0) throw new InvalidError('to, cc or bcc must name at least one recipient');
  if (recipients.length > 100) throw new InvalidError('A message may have at most 100 recipients');
  // A hosted mailbox sends as its domain: only a workspace that proved control of it may (DKIM and SPF would vouch for the mail).
  const hosted = await ctx.db.mailboxes.findById(mailbox.id);
  if (hosted) {
    const domain = await ctx.db.domains.findById(hosted.domain_id);
    if (!domain?.verified_at) throw new ConflictError(`${domain?.name ?? 'The mailbox\'s domain'} is not verified in this workspace: mail from ${mailbox.address} cannot be sent until it is`);
  }
  let text = composition.text ?? '';
  let html = composition.html ?? '';
  const chosen = signatureId === undefined ? mailbox.signature_id : signatureId;
  if (chosen) {
    const signature = await ctx.db.signatures.findOne({ where: { id: chosen, account_id: mailbox.id } });
    if (!signature) throw new InvalidError(`signature_id ${chosen} is not a signature of this account`);
    if (signature.text_body) text = `${text}\n\n-- \n${signature.text_body}`;
    if (signature.html_body && html) html = `${html}<br><br>-- <br>${signature.html_body}`;
  }
  const domain = mailbox.address.slice(mailbox.address.lastIndexOf('@') + 1);
  const now = new Date();
  const message = await ctx.db.messages.create({
    account_id: mailbox.id,
    folder: 'outbox',
    message_id_header: `<${newId()}@${domain}>`,
    in_reply_to: composition.in_reply_to ?? '',
    from_address: mailbox.address,
    from_name: mailbox.display_name,
    to_addresses: composition.to ?? [],
    cc_addresses: composition.cc ?? [],
    bcc_addresses: composition.bcc ?? [],
    subject: composition.subject ?? '',
    text_body: text,
    html_body: html,
    attachments: composition.attachments ?? [],
    size_bytes: Buffer.byteLength(text) + Buffer.byteLength(html) + (composition.attachments ?? []).reduce((sum, file) => sum + file.size_bytes, 0),
    seen: true,
    delivery_status: 'queued',
    next_attempt_at: now,
    sent_by: sentBy,
    received_at: now,
  });
  return message;
}
