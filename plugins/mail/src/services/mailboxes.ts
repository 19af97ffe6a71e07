import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ConflictError, conflictOnDuplicate, ForbiddenError, InvalidError, NotFoundError } from '@wpk/sdk';
import type { Mailbox, OutboxKey } from '../models/index.js';
import { deleteAccountParts } from './accounts.js';
import { localPart } from './addresses.js';
import type { MailBaseContext, MailContext } from '../kit.js';
import { mailboxResource } from './resources.js';

/** A mailbox as the API shows it. */
export function presentMailbox(mailbox: Mailbox) {
  return {
    id: mailbox.id,
    domain_id: mailbox.domain_id,
    local_part: mailbox.local_part,
    address: mailbox.address,
    display_name: mailbox.display_name,
    member_id: mailbox.member_id,
    signature_id: mailbox.signature_id,
    created_by: mailbox.created_by,
    created_at: mailbox.created_at,
    updated_at: mailbox.updated_at,
  };
}

/** The mailbox, or 404. */
export function requireMailbox(ctx: MailBaseContext, id: string, lock = false): Promise<Mailbox> {
  return mailboxResource.require(ctx, id, lock ? { lock: 'update' } : {});
}

/** Refuses an address a mailbox or a group of the workspace already has. */
export async function assertAddressFree(ctx: MailBaseContext, address: string): Promise<void> {
  await ctx.lock(`address:${address}`);
  const taken = (await ctx.db.mailboxes.findOne({ where: { address } })) ?? (await ctx.db.groups.findOne({ where: { address } }));
  if (taken) throw new ConflictError(`${address} is already a mailbox or a group`);
}

/** Lists mailboxes (optionally of one domain, one member, or matching `q`), by address. */
export async function listMailboxes(ctx: MailContext, query: { domain_id?: string; member_id?: string; q?: string }) {
  const where: Record<string, unknown> = {};
  if (query.domain_id) where.domain_id = query.domain_id;
  if (query.member_id) where.member_id = query.member_id.toLowerCase();
  return mailboxResource.list(ctx, { q: query.q, where });
}

/** Creates a mailbox on a hosted domain, optionally assigned to a member (the route checked they are one of the workspace now). */
export async function createMailbox(ctx: MailContext, given: { domain_id: string; local_part: string; display_name?: string; member_id?: string | null }): Promise<Mailbox> {
  const input = { ...given, member_id: given.member_id?.toLowerCase() ?? null };
  const domain = await ctx.db.domains.findById(input.domain_id);
  if (!domain) throw new InvalidError(`domain_id ${input.domain_id} is not a domain of this workspace`);
  const local = localPart(input.local_part);
  const address = `${local}@${domain.name}`;
  await assertAddressFree(ctx, address);
  const mailbox = await conflictOnDuplicate(
    ctx.db.mailboxes.create({ domain_id: domain.id, local_part: local, address, display_name: input.display_name ?? '', member_id: input.member_id ?? null, created_by: ctx.member.id }),
    `${address} is already a mailbox or a group`,
  );
  ctx.events.stage('core.mail.mailbox.created', { mailbox_id: mailbox.id, address, member_id: mailbox.member_id, created_by: ctx.member.id });
  return mailbox;
}

/** Assigns the mailbox to a member (null: to nobody; the route checked a member is one of the workspace now) and/or renames it. */
export async function updateMailbox(ctx: MailContext, id: string, given: { member_id?: string | null; display_name?: string }): Promise<Mailbox> {
  const input = { ...given, ...(typeof given.member_id === 'string' ? { member_id: given.member_id.toLowerCase() } : {}) };
  const mailbox = await requireMailbox(ctx, id, true);
  const changes: Partial<Mailbox> = {};
  if (input.display_name !== undefined && input.display_name !== mailbox.display_name) changes.display_name = input.display_name;
  const reassigned = input.member_id !== undefined && input.member_id !== mailbox.member_id;
  if (reassigned) changes.member_id = input.member_id ?? null;
  if (Object.keys(changes).length === 0) return mailbox;
  await ctx.db.mailboxes.update(changes, { where: { id } });
  if (reassigned) ctx.events.stage('core.mail.mailbox.assigned', { mailbox_id: id, address: mailbox.address, member_id: changes.member_id ?? null, assigned_by: ctx.member.id });
  return { ...mailbox, ...changes, updated_at: new Date() };
}

/** Deletes a mailbox with its mail, drafts, signatures, filters, blocked senders and outbox keys. */
export async function deleteMailbox(ctx: MailContext, id: string): Promise<void> {
  const mailbox = await requireMailbox(ctx, id, true);
  await ctx.db.domains.update({ catch_all_mailbox_id: null }, { where: { catch_all_mailbox_id: id } });
  await deleteAccountParts(ctx, id);
  await ctx.db.mailboxes.destroy({ where: { id } });
  ctx.events.stage('core.mail.mailbox.deleted', { mailbox_id: id, address: mailbox.address, deleted_by: ctx.member.id });
}

/** The mailbox when the caller may manage its outbox keys: its assignee, or a holder of mail.mailboxes.manage. */
export async function mailboxForKeys(ctx: MailContext, id: string): Promise<Mailbox> {
  const mailbox = await requireMailbox(ctx, id, true);
  if (mailbox.member_id !== ctx.member.id && !ctx.permissions.has('mail.mailboxes.manage')) throw new ForbiddenError('Only the mailbox\'s member or a mailbox manager can manage its outbox keys');
  return mailbox;
}

/** A mailbox's outbox keys, newest first (its assignee, or a holder of mail.mailboxes.manage). */
export async function listOutboxKeys(ctx: MailContext, mailboxId: string) {
  await mailboxForKeys(ctx, mailboxId);
  return ctx.db.outboxKeys.findAndCountAll({ where: { mailbox_id: mailboxId }, order: [['created_at', 'DESC'], ['id', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset });
}

/** An outbox key as the API shows it (the secret only once, at creation). */
export function presentKey(key: OutboxKey, secret?: string) {
  return {
    id: key.id,
    mailbox_id: key.mailbox_id,
    name: key.name,
    prefix: key.prefix,
    status: key.revoked_at ? 'revoked' : 'active',
    revoked_at: key.revoked_at,
    last_used_at: key.last_used_at,
    created_by: key.created_by,
    created_at: key.created_at,
    updated_at: key.updated_at,
    ...(secret ? { secret } : {}),
  };
}

/** SHA-256 of a key's secret, hex: what is stored. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Creates an outbox key; the secret is returned this once. */
export async function createOutboxKey(ctx: MailContext, mailboxId: string, name: string): Promise<{ key: OutboxKey; secret: string }> {
  const mailbox = await mailboxForKeys(ctx, mailboxId);
  const secret = `mbk_${randomBytes(24).toString('base64url')}`;
  const key = await ctx.db.outboxKeys.create({ mailbox_id: mailbox.id, name, prefix: secret.slice(0, 12), secret_hash: hashSecret(secret), created_by: ctx.member.id });
  ctx.events.stage('core.mail.outbox_key.created', { key_id: key.id, mailbox_id: mailbox.id, name, created_by: ctx.member.id });
  return { key, secret };
}

/** The key of the mailbox, or 404. */
async function requireKey(ctx: MailContext, mailboxId: string, keyId: string): Promise<OutboxKey> {
  const key = await ctx.db.outboxKeys.findOne({ where: { id: keyId, mailbox_id: mailboxId }, lock: 'update' });
  if (!key) throw new NotFoundError('Outbox key not found');
  return key;
}

/** Renames a key and/or revokes it (a revoked key stays revoked). */
export async function updateOutboxKey(ctx: MailContext, mailboxId: string, keyId: string, input: { name?: string; revoked?: boolean }): Promise<OutboxKey> {
  await mailboxForKeys(ctx, mailboxId);
  const key = await requireKey(ctx, mailboxId, keyId);
  if (input.revoked === false && key.revoked_at) throw new ConflictError('A revoked key cannot be restored: create a new one');
  const changes: Partial<OutboxKey> = {};
  if (input.name !== undefined && input.name !== key.name) changes.name = input.name;
  if (input.revoked === true && !key.revoked_at) changes.revoked_at = new Date();
  if (Object.keys(changes).length === 0) return key;
  await ctx.db.outboxKeys.update(changes, { where: { id: keyId } });
  if (changes.revoked_at) ctx.events.stage('core.mail.outbox_key.revoked', { key_id: keyId, mailbox_id: mailboxId, revoked_by: ctx.member.id });
  return { ...key, ...changes, updated_at: new Date() };
}

/** Deletes a key (it stops working at once). */
export async function deleteOutboxKey(ctx: MailContext, mailboxId: string, keyId: string): Promise<void> {
  await mailboxForKeys(ctx, mailboxId);
  await requireKey(ctx, mailboxId, keyId);
  await ctx.db.outboxKeys.destroy({ where: { id: keyId } });
  ctx.events.stage('core.mail.outbox_key.deleted', { key_id: keyId, mailbox_id: mailboxId, deleted_by: ctx.member.id });
}

/**
 * SMTP submission: the mailbox `address` when `secret` is one of its live keys (its last use
 * stamped at one-minute resolution), otherwise null.
 */
export async function authenticateSubmission(ctx: MailBaseContext, address: string, secret: string): Promise<Mailbox | null> {
  const mailbox = await ctx.db.mailboxes.findOne({ where: { address: address.toLowerCase() } });
  if (!mailbox || !secret.startsWith('mbk_')) return null;
  const domain = await ctx.db.domains.findById(mailbox.domain_id);
  if (!domain?.verified_at) return null;
  const keys = await ctx.db.outboxKeys.findAll({ where: { mailbox_id: mailbox.id, prefix: secret.slice(0, 12), revoked_at: null } });
  const hash = Buffer.from(hashSecret(secret));
  const key = keys.find((candidate) => timingSafeEqual(Buffer.from(candidate.secret_hash), hash));
  if (!key) return null;
  const now = new Date();
  if (!key.last_used_at || now.getTime() - key.last_used_at.getTime() >= 60_000) await ctx.db.outboxKeys.update({ last_used_at: now }, { where: { id: key.id } });
  return mailbox;
}
