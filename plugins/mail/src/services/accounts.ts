import { ConflictError, InvalidError, NotFoundError } from '@wpk/sdk';
import type { ConnectedAccount, Mailbox, Security } from '../models/index.js';
import type { MailBaseContext, MailContext } from '../kit.js';

/**
 * An account of a member: a hosted mailbox assigned to them, or an external mailbox they
 * connected (IMAP + SMTP). Both share the account parts (messages, drafts, signatures, filters,
 * blocked senders), which hang off the account's id.
 */
export interface Account {
  id: string;
  kind: 'hosted' | 'connected';
  address: string;
  display_name: string;
  signature_id: string | null;
  member_id: string | null;
  created_at: Date;
  updated_at: Date;
  mailbox?: Mailbox;
  connected?: ConnectedAccount;
}

function fromMailbox(mailbox: Mailbox): Account {
  return { id: mailbox.id, kind: 'hosted', address: mailbox.address, display_name: mailbox.display_name, signature_id: mailbox.signature_id, member_id: mailbox.member_id, created_at: mailbox.created_at, updated_at: mailbox.updated_at, mailbox };
}

function fromConnected(account: ConnectedAccount): Account {
  return { id: account.id, kind: 'connected', address: account.address, display_name: account.display_name, signature_id: account.signature_id, member_id: account.member_id, created_at: account.created_at, updated_at: account.updated_at, connected: account };
}

/** The account with this id (hosted or connected), whoever it belongs to; null when there is none. */
export async function findAccount(ctx: MailBaseContext, id: string, lock = false): Promise<Account | null> {
  const options = lock ? { lock: 'update' as const } : {};
  const mailbox = await ctx.db.mailboxes.findById(id, options);
  if (mailbox) return fromMailbox(mailbox);
  const connected = await ctx.db.connectedAccounts.findById(id, options);
  return connected ? fromConnected(connected) : null;
}

/** The caller's account (a mailbox assigned to them, or one they connected), or 404. */
export async function requireAccount(ctx: MailContext, id: string, lock = false): Promise<Account> {
  const account = await findAccount(ctx, id, lock);
  if (!account || account.member_id !== ctx.member.id) throw new NotFoundError('Account not found');
  return account;
}

/** The ids of the caller's accounts. */
export async function myAccountIds(ctx: MailContext): Promise<string[]> {
  const hosted = await ctx.db.mailboxes.findAll({ where: { member_id: ctx.member.id }, attributes: ['id'] });
  const connected = await ctx.db.connectedAccounts.findAll({ where: { member_id: ctx.member.id }, attributes: ['id'] });
  return [...hosted, ...connected].map((row) => row.id);
}

/** An account as the API shows it; a connected one shows its servers and sync state, never its passwords. */
export function presentAccount(account: Account) {
  const base = { id: account.id, kind: account.kind, address: account.address, display_name: account.display_name, signature_id: account.signature_id };
  if (account.mailbox) return { ...base, mailbox_id: account.mailbox.id, created_at: account.created_at, updated_at: account.updated_at };
  const connected = account.connected!;
  return {
    ...base,
    imap: { host: connected.imap_host, port: connected.imap_port, security: connected.imap_security, username: connected.imap_username },
    smtp: { host: connected.smtp_host, port: connected.smtp_port, security: connected.smtp_security, username: connected.smtp_username },
    sync_status: connected.sync_status,
    last_error: connected.last_error || null,
    last_synced_at: connected.last_synced_at,
    created_at: account.created_at,
    updated_at: account.updated_at,
  };
}

/** The caller's accounts, hosted and connected, by address. */
export async function listAccounts(ctx: MailContext): Promise<{ rows: Account[]; count: number }> {
  const hosted = (await ctx.db.mailboxes.findAll({ where: { member_id: ctx.member.id } })).map(fromMailbox);
  const connected = (await ctx.db.connectedAccounts.findAll({ where: { member_id: ctx.member.id } })).map(fromConnected);
  const all = [...hosted, ...connected].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : a.kind.localeCompare(b.kind) || a.id.localeCompare(b.id)));
  return { rows: all.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), count: all.length };
}

/** One server of a connected account as a request gives it. */
export interface ServerInput {
  host: string;
  port: number;
  security: Security;
  username: string;
  password: string;
}

/** What a connection is checked with: both servers, with their passwords. */
export interface ConnectionSettings {
  address: string;
  imap: ServerInput;
  smtp: ServerInput;
}

/** Logs in to both servers, or throws a 400 naming the server that refused and why. */
export type ConnectionVerifier = (settings: ConnectionSettings) => Promise<void>;

/** The passwords of a connected account, opened (only for a connection, never shown). */
export function openCredentials(ctx: MailBaseContext, account: ConnectedAccount): { imap: string; smtp: string } {
  return JSON.parse(ctx.secrets.open(account.credentials)) as { imap: string; smtp: string };
}

/** The full settings of a connected account, with its passwords opened. */
export function connectionSettings(ctx: MailBaseContext, account: ConnectedAccount): ConnectionSettings {
  const passwords = openCredentials(ctx, account);
  return {
    address: account.address,
    imap: { host: account.imap_host, port: account.imap_port, security: account.imap_security, username: account.imap_username, password: passwords.imap },
    smtp: { host: account.smtp_host, port: account.smtp_port, security: account.smtp_security, username: account.smtp_username, password: passwords.smtp },
  };
}

function columns(ctx: MailBaseContext, settings: ConnectionSettings) {
  return {
    imap_host: settings.imap.host,
    imap_port: settings.imap.port,
    imap_security: settings.imap.security,
    imap_username: settings.imap.username,
    smtp_host: settings.smtp.host,
    smtp_port: settings.smtp.port,
    smtp_security: settings.smtp.security,
    smtp_username: settings.smtp.username,
    credentials: ctx.secrets.seal(JSON.stringify({ imap: settings.imap.password, smtp: settings.smtp.password })),
  };
}

/** What a request to connect an account gives: SMTP's username and password default to IMAP's. */
export interface ConnectInput {
  address: string;
  display_name?: string;
  imap: ServerInput;
  smtp: Omit<ServerInput, 'username' | 'password'> & { username?: string; password?: string };
}

/**
 * Connects an external mailbox for the caller: both servers must accept the credentials (checked
 * before anything is stored), the passwords are sealed, and the sync picks the account up.
 */
export async function connectAccount(ctx: MailContext, input: ConnectInput, verify: ConnectionVerifier): Promise<Account> {
  const address = input.address.toLowerCase();
  await ctx.lock(`connected:${ctx.member.id}:${address}`);
  const existing = await ctx.db.connectedAccounts.findAll({ where: { member_id: ctx.member.id } });
  if (existing.some((row) => row.address === address)) throw new ConflictError(`${address} is already connected`);
  if (existing.length >= 20) throw new ConflictError('A member connects at most 20 accounts');
  const settings: ConnectionSettings = { address, imap: input.imap, smtp: { ...input.smtp, username: input.smtp.username ?? input.imap.username, password: input.smtp.password ?? input.imap.password } };
  await verify(settings);
  const row = await ctx.db.connectedAccounts.create({ member_id: ctx.member.id, address, display_name: input.display_name ?? '', sync_status: 'pending', ...columns(ctx, settings) });
  ctx.events.stage('core.mail.account.connected', { account_id: row.id, address, member_id: ctx.member.id, imap_host: row.imap_host });
  return fromConnected(row);
}

/** What UpdateAccount changes: display name and default signature; for a connected account also its servers (merged, re-checked). */
export interface UpdateAccountInput {
  display_name?: string;
  signature_id?: string | null;
  imap?: Partial<ServerInput>;
  smtp?: Partial<ServerInput>;
}

/** Changes an account (UpdateAccount); new server settings are checked before they are kept, and a new IMAP mailbox is synced afresh. */
export async function updateAccount(ctx: MailContext, id: string, input: UpdateAccountInput, verify: ConnectionVerifier): Promise<Account> {
  const account = await requireAccount(ctx, id, true);
  if (input.signature_id !== undefined && input.signature_id !== null && !(await ctx.db.signatures.findOne({ where: { id: input.signature_id, account_id: id } }))) {
    throw new InvalidError(`signature_id ${input.signature_id} is not a signature of this account`);
  }
  const base: { display_name?: string; signature_id?: string | null } = {};
  if (input.display_name !== undefined) base.display_name = input.display_name;
  if (input.signature_id !== undefined) base.signature_id = input.signature_id;
  if (account.mailbox) {
    if (input.imap || input.smtp) throw new InvalidError('imap and smtp: a hosted mailbox has no servers to set');
    if (Object.keys(base).length === 0) return account;
    await ctx.db.mailboxes.update(base, { where: { id } });
    return fromMailbox({ ...account.mailbox, ...base, updated_at: new Date() });
  }
  const connected = account.connected!;
  let changes: Partial<ConnectedAccount> = { ...base };
  if (input.imap || input.smtp) {
    const current = connectionSettings(ctx, connected);
    const settings: ConnectionSettings = { address: connected.address, imap: { ...current.imap, ...input.imap }, smtp: { ...current.smtp, ...input.smtp } };
    await verify(settings);
    changes = { ...changes, ...columns(ctx, settings) };
    if (settings.imap.host !== current.imap.host || settings.imap.port !== current.imap.port || settings.imap.username !== current.imap.username) {
      // Another IMAP mailbox: its UIDs mean nothing here, so it is synced afresh.
      await ctx.db.accountFolders.destroy({ where: { account_id: id } });
      await ctx.db.remoteOperations.destroy({ where: { account_id: id } });
      changes.sync_status = 'pending';
      changes.last_error = '';
    }
  }
  if (Object.keys(changes).length === 0) return account;
  await ctx.db.connectedAccounts.update(changes, { where: { id } });
  return fromConnected({ ...connected, ...changes, updated_at: new Date() });
}

/** Deletes an account's parts (its local messages leave the index). */
export async function deleteAccountParts(ctx: MailBaseContext, accountId: string): Promise<void> {
  const messages = await ctx.db.messages.findAll({ where: { account_id: accountId }, attributes: ['id'] });
  for (const message of messages) ctx.search.remove('message', message.id);
  await ctx.db.messages.destroy({ where: { account_id: accountId } });
  await ctx.db.drafts.destroy({ where: { account_id: accountId } });
  await ctx.db.signatures.destroy({ where: { account_id: accountId } });
  await ctx.db.filters.destroy({ where: { account_id: accountId } });
  await ctx.db.blockedSenders.destroy({ where: { account_id: accountId } });
}

/**
 * Disconnects a connected account: its local copies, drafts, signatures, filters and blocked
 * senders go; the mail on its server stays. A hosted mailbox is not disconnected (409): a
 * mailbox manager deletes it.
 */
export async function disconnectAccount(ctx: MailBaseContext, account: Account, by: string | null): Promise<void> {
  if (!account.connected) throw new ConflictError('A hosted mailbox cannot be disconnected: a mailbox manager deletes it (DELETE /mail/mailboxes/{mailbox_id})');
  await deleteAccountParts(ctx, account.id);
  await ctx.db.connectedAccounts.destroy({ where: { id: account.id } });
  ctx.events.stage('core.mail.account.disconnected', { account_id: account.id, address: account.address, member_id: account.member_id!, disconnected_by: by });
}
