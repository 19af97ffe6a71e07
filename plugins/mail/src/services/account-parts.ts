import { ConflictError, conflictOnDuplicate, InvalidError, NotFoundError } from '@wpk/sdk';
import type { BlockedSender, Draft, Filter, FilterAction, FilterCondition, Signature } from '../models/index.js';
import type { MailContext } from '../kit.js';
import { findAccount, myAccountIds, requireAccount } from './accounts.js';
import { queueMessage, type Composition } from './messages.js';
import { resolveAttachments } from './attachments.js';

/** What a member writes, its files named by their storage keys (checked into `Attachment`s). */
export type Written = Omit<Composition, 'attachments'> & { attachments?: Array<{ file_key: string; filename?: string }> };

/** Signature, filter, blocked sender and draft as the API shows them. */
export const present = {
  signature: (row: Signature) => ({ id: row.id, account_id: row.account_id, name: row.name, text: row.text_body, html: row.html_body, created_at: row.created_at, updated_at: row.updated_at }),
  filter: (row: Filter) => ({ id: row.id, account_id: row.account_id, name: row.name, match: row.match, conditions: row.conditions, actions: row.actions, position: row.position, created_at: row.created_at }),
  blocked: (row: BlockedSender) => ({ id: row.id, account_id: row.account_id, address: row.address, created_at: row.created_at }),
  draft: (row: Draft) => ({ id: row.id, account_id: row.account_id, to: row.to_addresses, cc: row.cc_addresses, bcc: row.bcc_addresses, subject: row.subject, text: row.text_body, html: row.html_body, attachments: row.attachments, in_reply_to: row.in_reply_to, created_at: row.created_at, updated_at: row.updated_at }),
};

// Signatures

export async function listSignatures(ctx: MailContext, accountId: string) {
  await requireAccount(ctx, accountId);
  return ctx.db.signatures.findAndCountAll({ where: { account_id: accountId }, order: [['name', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset });
}

export async function createSignature(ctx: MailContext, accountId: string, input: { name: string; text?: string; html?: string }): Promise<Signature> {
  await requireAccount(ctx, accountId, true);
  const clash = await ctx.db.signatures.findAll({ where: { account_id: accountId } });
  if (clash.some((row) => row.name.toLowerCase() === input.name.toLowerCase())) throw new ConflictError(`A signature named ${input.name} already exists`);
  return conflictOnDuplicate(ctx.db.signatures.create({ account_id: accountId, name: input.name, text_body: input.text ?? '', html_body: input.html ?? '' }), `A signature named ${input.name} already exists`);
}

async function requireSignature(ctx: MailContext, accountId: string, id: string): Promise<Signature> {
  await requireAccount(ctx, accountId, true);
  const row = await ctx.db.signatures.findOne({ where: { id, account_id: accountId } });
  if (!row) throw new NotFoundError('Signature not found');
  return row;
}

/** Replaces a signature's name and bodies (PUT: omitted bodies become empty). */
export async function replaceSignature(ctx: MailContext, accountId: string, id: string, input: { name: string; text?: string; html?: string }): Promise<Signature> {
  const row = await requireSignature(ctx, accountId, id);
  const others = await ctx.db.signatures.findAll({ where: { account_id: accountId } });
  if (others.some((other) => other.id !== id && other.name.toLowerCase() === input.name.toLowerCase())) throw new ConflictError(`A signature named ${input.name} already exists`);
  const changes = { name: input.name, text_body: input.text ?? '', html_body: input.html ?? '' };
  await conflictOnDuplicate(ctx.db.signatures.update(changes, { where: { id } }), `A signature named ${input.name} already exists`);
  return { ...row, ...changes, updated_at: new Date() };
}

export async function deleteSignature(ctx: MailContext, accountId: string, id: string): Promise<void> {
  await requireSignature(ctx, accountId, id);
  await ctx.db.mailboxes.update({ signature_id: null }, { where: { id: accountId, signature_id: id } });
  await ctx.db.connectedAccounts.update({ signature_id: null }, { where: { id: accountId, signature_id: id } });
  await ctx.db.signatures.destroy({ where: { id } });
}

// Filters

export async function listFilters(ctx: MailContext, accountId: string) {
  await requireAccount(ctx, accountId);
  return ctx.db.filters.findAndCountAll({ where: { account_id: accountId }, order: [['position', 'ASC'], ['id', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset });
}

export async function createFilter(ctx: MailContext, accountId: string, input: { name: string; match?: 'all' | 'any'; conditions: FilterCondition[]; actions: FilterAction[] }): Promise<Filter> {
  await requireAccount(ctx, accountId, true);
  if (input.actions.some((action) => action.type === 'move' && !action.folder)) throw new InvalidError('actions: a move action needs a folder');
  if (input.actions.some((action) => action.type === 'move' && action.folder === 'outbox')) throw new InvalidError('actions: mail cannot be moved into the outbox');
  const count = await ctx.db.filters.count({ where: { account_id: accountId } });
  if (count >= 100) throw new ConflictError('An account has at most 100 filters');
  return ctx.db.filters.create({ account_id: accountId, name: input.name, match: input.match ?? 'all', conditions: input.conditions, actions: input.actions, position: count });
}

export async function deleteFilter(ctx: MailContext, accountId: string, id: string): Promise<void> {
  await requireAccount(ctx, accountId, true);
  const row = await ctx.db.filters.findOne({ where: { id, account_id: accountId } });
  if (!row) throw new NotFoundError('Filter not found');
  await ctx.db.filters.destroy({ where: { id } });
}

// Blocked senders

export async function listBlocked(ctx: MailContext, accountId: string) {
  await requireAccount(ctx, accountId);
  return ctx.db.blockedSenders.findAndCountAll({ where: { account_id: accountId }, order: [['address', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset });
}

/** Blocks an address (`spam@example.com`) or a whole domain (`@example.com`). */
export async function blockSender(ctx: MailContext, accountId: string, address: string): Promise<BlockedSender> {
  await requireAccount(ctx, accountId, true);
  const normalized = address.trim().toLowerCase();
  if (!/^[^\s@]*@[a-z0-9.-]+\.[a-z]{2,63}$/.test(normalized)) throw new InvalidError('address must be an address (name@example.com) or a domain (@example.com)');
  const existing = await ctx.db.blockedSenders.findAll({ where: { account_id: accountId } });
  if (existing.some((row) => row.address === normalized)) throw new ConflictError(`${normalized} is already blocked`);
  return conflictOnDuplicate(ctx.db.blockedSenders.create({ account_id: accountId, address: normalized }), `${normalized} is already blocked`);
}

export async function unblockSender(ctx: MailContext, accountId: string, id: string): Promise<void> {
  await requireAccount(ctx, accountId, true);
  const row = await ctx.db.blockedSenders.findOne({ where: { id, account_id: accountId } });
  if (!row) throw new NotFoundError('Blocked sender not found');
  await ctx.db.blockedSenders.destroy({ where: { id } });
}

// Drafts

/** The caller's drafts (optionally of one account), last saved first. */
export async function listDrafts(ctx: MailContext, accountId?: string) {
  const accounts = await myAccountIds(ctx);
  const ids = accountId ? accounts.filter((id) => id === accountId) : accounts;
  return ctx.db.drafts.findAndCountAll({ where: { account_id: ids }, order: [['updated_at', 'DESC'], ['id', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset });
}

async function draftColumns(ctx: MailContext, accountId: string, input: Written) {
  return {
    attachments: await resolveAttachments(ctx, accountId, input.attachments), to_addresses: input.to ?? [], cc_addresses: input.cc ?? [], bcc_addresses: input.bcc ?? [], subject: input.subject ?? '', text_body: input.text ?? '', html_body: input.html ?? '', in_reply_to: input.in_reply_to ?? '' };
}

export async function createDraft(ctx: MailContext, input: Written & { account_id: string }): Promise<Draft> {
  const account = await findAccount(ctx, input.account_id);
  if (!account || account.member_id !== ctx.member.id) throw new InvalidError(`account_id ${input.account_id} is not one of your accounts`);
  return ctx.db.drafts.create({ account_id: account.id, created_by: ctx.member.id, ...(await draftColumns(ctx, account.id, input)) });
}

/** The caller's draft, or 404. */
export async function requireDraft(ctx: MailContext, id: string): Promise<Draft> {
  const draft = await ctx.db.drafts.findById(id, { lock: 'update' });
  if (!draft) throw new NotFoundError('Draft not found');
  const account = await findAccount(ctx, draft.account_id);
  if (!account || account.member_id !== ctx.member.id) throw new NotFoundError('Draft not found');
  return draft;
}

/** Saves a draft whole (PUT: what is omitted becomes empty). */
export async function saveDraft(ctx: MailContext, id: string, input: Written): Promise<Draft> {
  const draft = await requireDraft(ctx, id);
  const columns = await draftColumns(ctx, draft.account_id, input);
  await ctx.db.drafts.update(columns, { where: { id } });
  return { ...draft, ...columns, updated_at: new Date() };
}

export async function deleteDraft(ctx: MailContext, id: string): Promise<void> {
  const draft = await requireDraft(ctx, id);
  await ctx.db.drafts.destroy({ where: { id } });
  // A discarded draft's uploads go with it (a sent one's went to its message).
  for (const file of draft.attachments) await ctx.storage.delete(file.file_key);
}

/** Sends a draft: it becomes a queued message of its account and the draft goes. */
export async function sendDraft(ctx: MailContext, id: string, signatureId?: string | null) {
  const draft = await requireDraft(ctx, id);
  const account = await requireAccount(ctx, draft.account_id, true);
  const message = await queueMessage(ctx, account, { to: draft.to_addresses, cc: draft.cc_addresses, bcc: draft.bcc_addresses, subject: draft.subject, text: draft.text_body, html: draft.html_body, in_reply_to: draft.in_reply_to, attachments: draft.attachments }, ctx.member.id, signatureId);
  await ctx.db.drafts.destroy({ where: { id } });
  return message;
}
