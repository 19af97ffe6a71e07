import dns from 'node:dns/promises';
import net from 'node:net';
import type { FetchMessageObject, ImapFlow } from 'imapflow';
import nodemailer from 'nodemailer';
import { InvalidError, Op, type AppServiceHost } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Message, Models, RemoteOperation } from './models/index.js';
import { parseMessage } from './parse.js';
import { connectionSettings, type ConnectionSettings, type ServerInput } from './services/accounts.js';
import type { MailBaseContext } from './kit.js';
import { applyRules, columns, received, type IncomingMessage } from './services/inbound.js';
import { accountFiles, storeReceived } from './services/attachments.js';
import { messageDocument } from './services/messages.js';

type Host = AppServiceHost<Models, AppTypes>;

/** The newest messages of a folder an account's first sync imports (older ones stay on the server). */
export const INITIAL_SYNC_MESSAGES = 200;
/** New messages one sync of a folder imports at most (the rest come with the next sync). */
const BATCH = 200;
/** How long a connection attempt may take. */
const TIMEOUT_MS = 15_000;

/** The folders a connected account syncs: its inbox and its sent mail (the server's `\Sent` folder). */
const SYNCED = ['inbox', 'sent'] as const;

/** An IMAP client for one server, not connected yet (imapflow loads with the first connected account, not with the app). */
export async function imapClient(server: ServerInput): Promise<ImapFlow> {
  const { ImapFlow } = await import('imapflow');
  return new ImapFlow({
    host: server.host,
    port: server.port,
    secure: server.security === 'tls',
    doSTARTTLS: server.security === 'starttls' ? true : server.security === 'none' ? false : undefined,
    auth: { user: server.username, pass: server.password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: 5 * 60_000,
  });
}

/** nodemailer's transport options for an account's SMTP server. */
export function smtpTransportOptions(server: ServerInput) {
  return {
    host: server.host,
    port: server.port,
    secure: server.security === 'tls',
    requireTLS: server.security === 'starttls',
    ignoreTLS: server.security === 'none',
    auth: { user: server.username, pass: server.password },
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
  };
}

function reason(error: unknown): string {
  const failure = error as { responseText?: string; response?: string; message?: string; code?: string; authenticationFailed?: boolean };
  if (failure.authenticationFailed) return 'the server refused the username or password';
  return (failure.responseText || failure.response || failure.message || String(error)).slice(0, 200);
}

/** Whether an address is one a member's mail server must not be: loopback, private, link-local, CGNAT, unspecified, multicast, reserved. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip = mapped ? mapped[1] : address;
  if (net.isIPv4(ip)) {
    const [a, b] = ip.split('.').map(Number);
    return a === 0 || a === 10 || a === 127 || a >= 224 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 192 && b === 0) || (a === 198 && (b === 18 || b === 19));
  }
  const lower = ip.toLowerCase();
  return lower === '::' || lower === '::1' || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower) || lower.startsWith('ff');
}

/**
 * Refuses (400) a server whose host is, or resolves to, an address inside the platform's own
 * networks: a member connecting an account must not make the server talk to internal hosts
 * (metadata services, databases, the relay). `allowPrivate` (`MAIL_ALLOW_PRIVATE_HOSTS`) lifts
 * it for deployments whose mail servers are internal.
 */
export async function assertReachableServer(label: 'imap' | 'smtp', server: Pick<ServerInput, 'host'>, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  let addresses: string[];
  try {
    addresses = net.isIP(server.host) ? [server.host] : (await dns.lookup(server.host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    throw new InvalidError(`${label}.host ${server.host} does not resolve`);
  }
  const inside = addresses.find(isPrivateAddress);
  if (inside) throw new InvalidError(`${label}.host ${server.host} resolves to ${inside}, an address of a private network: connected accounts reach public mail servers only`);
}

/** The verifier of new and changed accounts: both hosts outside the platform's networks (unless allowed), then both logins. */
export function connectionVerifier(allowPrivate: boolean) {
  return async (settings: ConnectionSettings): Promise<void> => {
    await assertReachableServer('imap', settings.imap, allowPrivate);
    await assertReachableServer('smtp', settings.smtp, allowPrivate);
    await verifyConnection(settings);
  };
}

/** Logs in to both servers of an account, or throws a 400 naming the one that refused and why. */
export async function verifyConnection(settings: ConnectionSettings): Promise<void> {
  const client = await imapClient(settings.imap);
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    throw new InvalidError(`imap: could not log in to ${settings.imap.host}:${settings.imap.port}: ${reason(error)}`);
  } finally {
    await client.logout().catch(() => client.close());
  }
  const transport = nodemailer.createTransport(smtpTransportOptions(settings.smtp));
  try {
    await transport.verify();
  } catch (error) {
    throw new InvalidError(`smtp: could not log in to ${settings.smtp.host}:${settings.smtp.port}: ${reason(error)}`);
  } finally {
    transport.close();
  }
}

/** The server's path of a local folder name: INBOX, the special-use folders, or the name itself. */
async function remotePath(client: ImapFlow, folder: string, create: boolean): Promise<string | null> {
  if (folder === 'inbox') return 'INBOX';
  const special: Record<string, string> = { sent: '\\Sent', trash: '\\Trash', spam: '\\Junk', drafts: '\\Drafts', archive: '\\Archive' };
  const list = await client.list();
  const use = special[folder];
  const found = (use ? list.find((entry) => entry.specialUse === use) : undefined) ?? list.find((entry) => entry.path.toLowerCase() === folder.toLowerCase());
  if (found) return found.path;
  if (!create) return null;
  const name = folder === 'trash' ? 'Trash' : folder === 'spam' ? 'Junk' : folder;
  await client.mailboxCreate(name);
  return name;
}

/** What one sync of one account did. */
export interface SyncReport {
  imported: number;
  updated: number;
  removed: number;
  pushed: number;
}

/** What a sync needs from the database before it talks to the server. */
interface Plan {
  settings: ConnectionSettings;
  folders: Map<string, { remote_path: string; uid_validity: string; uid_next: number; highest_modseq: string | null }>;
  operations: RemoteOperation[];
}

type Dirty = Pick<Message, 'id' | 'remote_path' | 'remote_uid' | 'seen' | 'flagged'>;

/** A remote message fetched for import. */
interface Fetched {
  uid: number;
  seen: boolean;
  flagged: boolean;
  parsed: IncomingMessage;
  date: Date | null;
}

function flagsOf(message: Pick<FetchMessageObject, 'flags'>): { seen: boolean; flagged: boolean } {
  return { seen: message.flags?.has('\\Seen') ?? false, flagged: message.flags?.has('\\Flagged') ?? false };
}

/**
 * Syncs one connected account with its IMAP server, outside any transaction (each write is a
 * short transaction of its own): first the changes made here (moves, deletions, then read and
 * flagged), then, for the inbox and the sent folder, what changed there since the last sync —
 * a new UIDVALIDITY (or a first sync) imports the newest INITIAL_SYNC_MESSAGES afresh; otherwise
 * the UIDs from the stored UIDNEXT on are new, the flags of known ones are compared (only those
 * changed since the stored HIGHESTMODSEQ, when the server has CONDSTORE), and UIDs gone from the
 * server are removed here. New inbox mail runs through the account's blocked senders and filters
 * and emits `core.mail.message.received`.
 */
export async function syncAccount(host: Host, workspaceId: string, accountId: string): Promise<SyncReport | null> {
  const plan = await host.run(workspaceId, async (ctx): Promise<Plan | null> => {
    const account = await ctx.db.connectedAccounts.findById(accountId);
    if (!account) return null;
    const folders = new Map((await ctx.db.accountFolders.findAll({ where: { account_id: accountId } })).map((row) => [row.folder, { remote_path: row.remote_path, uid_validity: row.uid_validity, uid_next: Number(row.uid_next), highest_modseq: row.highest_modseq }]));
    const operations = await ctx.db.remoteOperations.findAll({ where: { account_id: accountId }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
    return { settings: connectionSettings(ctx, account), folders, operations };
  });
  if (!plan) return null;
  const report: SyncReport = { imported: 0, updated: 0, removed: 0, pushed: 0 };
  const client = await imapClient(plan.settings.imap);
  // Only the reason is logged: an IMAP error object can carry the command it failed on.
  client.on('error', (error: Error) => host.log.warn({ account_id: accountId, reason: reason(error) }, 'imap connection error'));
  try {
    await client.connect();
    await pushOperations(host, workspaceId, client, plan, report);
    await pushFlags(host, workspaceId, accountId, client, report);
    for (const folder of SYNCED) {
      const path = await remotePath(client, folder, false);
      if (path) await pullFolder(host, workspaceId, accountId, client, folder, path, plan, report);
    }
    await host.run(workspaceId, (ctx) => ctx.db.connectedAccounts.update({ sync_status: 'ok', last_error: '', last_synced_at: new Date() }, { where: { id: accountId } }));
    return report;
  } catch (error) {
    await host.run(workspaceId, (ctx) => ctx.db.connectedAccounts.update({ sync_status: 'error', last_error: reason(error) }, { where: { id: accountId } }));
    host.log.warn({ account_id: accountId, reason: reason(error) }, 'connected account sync failed');
    return report;
  } finally {
    await client.logout().catch(() => client.close());
  }
}

/** Moves and deletions made here, carried out on the server in the order they were made. */
async function pushOperations(host: Host, workspaceId: string, client: ImapFlow, plan: Plan, report: SyncReport): Promise<void> {
  for (const operation of plan.operations) {
    const lock = await client.getMailboxLock(operation.remote_path).catch(() => null);
    let moved: { path: string; uid: number | null } | null = null;
    if (lock) {
      try {
        // A UIDVALIDITY that changed since means the UID names another message (or none): skip.
        // (A folder that is not synced has no stored UIDVALIDITY: '' trusts the UID.)
        if (operation.uid_validity === '' || String(client.mailbox && client.mailbox.uidValidity) === operation.uid_validity) {
          const uid = String(operation.remote_uid);
          if (operation.target_folder === '') {
            await client.messageDelete(uid, { uid: true });
          } else {
            const target = (await remotePath(client, operation.target_folder, true))!;
            const result = await client.messageMove(uid, target, { uid: true });
            moved = { path: target, uid: (result ? result.uidMap?.get(Number(operation.remote_uid)) : undefined) ?? null };
          }
          report.pushed += 1;
        }
      } finally {
        lock.release();
      }
    }
    await host.run(workspaceId, async (ctx) => {
      await ctx.db.remoteOperations.destroy({ where: { id: operation.id } });
      if (operation.message_id) {
        // The local copy now lives where it went (without a UID when the server named none: the folder is not synced).
        await ctx.db.messages.update({ remote_path: moved?.uid ? moved.path : null, remote_uid: moved?.uid ?? null }, { where: { id: operation.message_id } });
      }
    });
  }
}

/** Read and flagged changed here, set on the server (unless they changed again since: then the next sync). */
async function pushFlags(host: Host, workspaceId: string, accountId: string, client: ImapFlow, report: SyncReport): Promise<void> {
  // Read after the moves ran: a moved message's flags go to where it is now.
  const dirty = (await host.run(workspaceId, (ctx) => ctx.db.messages.findAll({ where: { account_id: accountId, flags_dirty: true }, attributes: ['id', 'remote_path', 'remote_uid', 'seen', 'flagged'] }))) ?? [];
  const byPath = new Map<string, Dirty[]>();
  for (const message of dirty) if (message.remote_path && message.remote_uid !== null) byPath.set(message.remote_path, [...(byPath.get(message.remote_path) ?? []), message]);
  for (const [path, messages] of byPath) {
    const lock = await client.getMailboxLock(path);
    try {
      for (const message of messages) {
        const uid = String(message.remote_uid);
        await (message.seen ? client.messageFlagsAdd(uid, ['\\Seen'], { uid: true }) : client.messageFlagsRemove(uid, ['\\Seen'], { uid: true }));
        await (message.flagged ? client.messageFlagsAdd(uid, ['\\Flagged'], { uid: true }) : client.messageFlagsRemove(uid, ['\\Flagged'], { uid: true }));
        report.pushed += 1;
      }
    } finally {
      lock.release();
    }
    await host.run(workspaceId, async (ctx) => {
      for (const message of messages) await ctx.db.messages.update({ flags_dirty: false }, { where: { id: message.id, seen: message.seen, flagged: message.flagged } });
    });
  }
}

/** One folder's changes on the server since the last sync, applied here. */
async function pullFolder(host: Host, workspaceId: string, accountId: string, client: ImapFlow, folder: string, path: string, plan: Plan, report: SyncReport): Promise<void> {
  const lock = await client.getMailboxLock(path);
  try {
    const mailbox = client.mailbox;
    if (!mailbox) return;
    const uidValidity = String(mailbox.uidValidity);
    const state = plan.folders.get(folder);
    const fresh = !state || state.uid_validity !== uidValidity || state.remote_path !== path;
    const onServer = ((await client.search({ all: true }, { uid: true })) || []).sort((a, b) => a - b);
    const known = fresh
      ? new Set<number>()
      : new Set(
          ((await host.run(workspaceId, (ctx) => ctx.db.messages.findAll({ where: { account_id: accountId, remote_path: path, remote_uid: { [Op.ne]: null } }, attributes: ['remote_uid'] }))) ?? []).map((row) => Number(row.remote_uid)),
        );
    // Flags of the messages already here (only those changed since the last HIGHESTMODSEQ when the server keeps mod-sequences).
    const flagChanges = new Map<number, { seen: boolean; flagged: boolean }>();
    if (!fresh && known.size > 0) {
      const since = state.highest_modseq && mailbox.highestModseq ? BigInt(state.highest_modseq) : undefined;
      if (since === undefined || mailbox.highestModseq! > since) {
        for await (const message of client.fetch('1:*', { uid: true, flags: true }, { uid: true, ...(since !== undefined ? { changedSince: since } : {}) })) {
          if (known.has(message.uid)) flagChanges.set(message.uid, flagsOf(message));
        }
      }
    }
    const candidates = fresh ? onServer.slice(-INITIAL_SYNC_MESSAGES) : onServer.filter((uid) => uid >= state.uid_next && !known.has(uid));
    const batch = candidates.slice(0, BATCH);
    const fetched: Fetched[] = [];
    if (batch.length > 0) {
      for await (const message of client.fetch(batch.join(','), { uid: true, flags: true, source: true, internalDate: true }, { uid: true })) {
        if (!message.source) continue;
        const internal = message.internalDate ? new Date(message.internalDate) : null;
        fetched.push({ uid: message.uid, ...flagsOf(message), parsed: await parseMessage(message.source), date: internal });
      }
    }
    const present = new Set(onServer);
    // With more than a batch waiting, UIDNEXT stays just past the last one taken, so the next sync goes on from there.
    const uidNext = candidates.length > batch.length ? batch[batch.length - 1]! + 1 : mailbox.uidNext;
    await host.run(workspaceId, async (ctx) => {
      const local = await ctx.db.messages.findAll({ where: { account_id: accountId, remote_path: path, remote_uid: { [Op.ne]: null } } });
      for (const row of local) {
        const uid = Number(row.remote_uid);
        if (fresh || !present.has(uid)) {
          await ctx.db.messages.destroy({ where: { id: row.id } });
          ctx.search.remove('message', row.id);
          report.removed += 1;
          continue;
        }
        const flags = flagChanges.get(uid);
        if (flags && !row.flags_dirty && (flags.seen !== row.seen || flags.flagged !== row.flagged)) {
          await ctx.db.messages.update(flags, { where: { id: row.id } });
          report.updated += 1;
        }
      }
      for (const message of fetched) if (await importMessage(ctx, accountId, folder, path, uidValidity, message)) report.imported += 1;
      await ctx.db.accountFolders.upsert(
        { account_id: accountId, folder, remote_path: path, uid_validity: uidValidity, uid_next: uidNext, highest_modseq: mailbox.highestModseq !== undefined ? String(mailbox.highestModseq) : null },
        { conflictFields: ['account_id', 'folder'] },
      );
    });
  } finally {
    lock.release();
  }
}

/**
 * Stores one message found on the server. Sent mail this app sent already has its copy (matched
 * by Message-ID): it only learns its UID. New inbox mail runs through the account's rules: a
 * dropped one goes to the server's Trash, a moved one moves there too.
 */
async function importMessage(ctx: MailBaseContext, accountId: string, folder: string, path: string, uidValidity: string, message: Fetched): Promise<boolean> {
  if (folder === 'sent' && message.parsed.messageId) {
    const ours = await ctx.db.messages.findOne({ where: { account_id: accountId, folder: 'sent', message_id_header: message.parsed.messageId, remote_uid: null } });
    if (ours) {
      await ctx.db.messages.update({ remote_path: path, remote_uid: message.uid }, { where: { id: ours.id } });
      return false;
    }
  }
  let target = folder;
  let seen = message.seen;
  let flagged = message.flagged;
  let dirty = false;
  if (folder === 'inbox') {
    const outcome = await applyRules(ctx, accountId, message.parsed);
    if (outcome.drop) {
      await ctx.db.remoteOperations.create({ account_id: accountId, message_id: null, remote_path: path, uid_validity: uidValidity, remote_uid: message.uid, target_folder: 'trash' });
      return false;
    }
    target = outcome.folder;
    if ((outcome.seen && !seen) || (outcome.flagged && !flagged)) dirty = true;
    seen = seen || outcome.seen;
    flagged = flagged || outcome.flagged;
  }
  const row = await ctx.db.messages.create({
    ...columns(message.parsed),
    attachments: await storeReceived(ctx, accountFiles(accountId), message.parsed.files ?? []),
    account_id: accountId,
    folder: target,
    seen,
    flagged,
    flags_dirty: dirty,
    remote_path: path,
    remote_uid: message.uid,
    received_at: message.date ?? new Date(),
    ...(folder === 'sent' ? { delivery_status: 'sent' as const, sent_at: message.parsed.date ?? message.date } : {}),
  });
  if (target !== folder) await ctx.db.remoteOperations.create({ account_id: accountId, message_id: row.id, remote_path: path, uid_validity: uidValidity, remote_uid: message.uid, target_folder: target });
  if (folder === 'inbox') received(ctx, row);
  else ctx.search.upsert(messageDocument(row));
  return true;
}

/** Appends a sent message to the account's Sent folder (as mail clients do); its UID, or null. */
export async function appendToSent(settings: ConnectionSettings, raw: Buffer): Promise<{ path: string; uid: number | null } | null> {
  const client = await imapClient(settings.imap);
  client.on('error', () => undefined);
  try {
    await client.connect();
    const path = await remotePath(client, 'sent', true);
    if (!path) return null;
    const appended = await client.append(path, raw, ['\\Seen']);
    return { path, uid: appended && appended.uid ? appended.uid : null };
  } finally {
    await client.logout().catch(() => client.close());
  }
}
