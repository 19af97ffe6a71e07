import { InvalidError, newId, NotFoundError } from '@wpk/sdk';
import type { Attachment, Message } from '../models/index.js';
import type { MailBaseContext, MailContext } from '../kit.js';
import { requireAccount } from './accounts.js';

/** At most this many files go with one message. */
export const MAX_ATTACHMENTS = 20;

/** A file named for a storage key: letters, digits, `._-` (the real name is kept beside it). */
const safeName = (filename: string): string => filename.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 120) || 'file';

/** Where an account's files live in the app's storage. */
const prefixOf = (accountId: string): string => `accounts/${accountId}/`;

/**
 * A signed link to upload one file into the account's uploads (`accounts/{account_id}/uploads/{uuid}/{name}`),
 * valid 15 minutes; attach it afterwards with `attachments: [{file_key}]` in a message or a draft.
 */
export async function createUpload(ctx: MailContext, accountId: string, input: { filename: string; content_type?: string; size_bytes?: number }) {
  const account = await requireAccount(ctx, accountId);
  // What the caller announced binds the upload: the type it must carry, the size it may not pass.
  const bound: { contentType?: string; maxBytes?: number } = {};
  if (input.content_type) bound.contentType = input.content_type;
  if (input.size_bytes !== undefined) bound.maxBytes = input.size_bytes;
  const fileKey = [prefixOf(account.id) + 'uploads', newId(), safeName(input.filename)].join('/');
  return { file_key: fileKey, filename: input.filename, upload: await ctx.storage.signedUploadUrl(fileKey, { ...bound, expiresInSeconds: 15 * 60 }) };
}

/** The files a composition names, each checked: a key of this account's storage, uploaded. 400 otherwise. */
export async function resolveAttachments(ctx: MailBaseContext, accountId: string, files: Array<{ file_key: string; filename?: string }> | undefined): Promise<Attachment[]> {
  const resolved: Attachment[] = [];
  for (const [index, file] of (files ?? []).entries()) {
    if (!file.file_key.startsWith(prefixOf(accountId))) throw new InvalidError(`attachments[${index}].file_key must be a key of this account's files (${prefixOf(accountId)}...): ask POST /mail/accounts/${accountId}/uploads for one`);
    const stored = await ctx.storage.head(file.file_key);
    if (!stored) throw new InvalidError(`attachments[${index}].file_key ${file.file_key} names no uploaded file`);
    resolved.push({ id: newId(), file_key: stored.key, filename: file.filename ?? stored.key.split('/').pop()!, content_type: stored.content_type, size_bytes: stored.size_bytes });
  }
  return resolved;
}

/** Stores a received message's files under the account's (or group's) prefix; answers what the message keeps of them. */
export async function storeReceived(ctx: MailBaseContext, owner: string, files: IncomingFile[]): Promise<Attachment[]> {
  const kept: Attachment[] = [];
  for (const file of files.slice(0, MAX_ATTACHMENTS)) {
    const filename = file.filename || 'attachment';
    const stored = await ctx.storage.put(`${owner}received/${newId()}/${safeName(filename)}`, file.content, { contentType: file.contentType || 'application/octet-stream' });
    kept.push({ id: newId(), file_key: stored.key, filename, content_type: stored.content_type, size_bytes: stored.size_bytes });
  }
  return kept;
}

/** A file of an incoming message, as the parser hands it over. */
export interface IncomingFile {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** The account's storage prefix, for `storeReceived`. */
export const accountFiles = prefixOf;

/** A group's storage prefix, for `storeReceived`. */
export const groupFiles = (groupId: string): string => `groups/${groupId}/`;

/** A message's files with their bytes, for the relay. */
export async function attachmentContents(ctx: MailBaseContext, message: Message): Promise<Array<{ filename: string; contentType: string; content: Buffer }>> {
  const files = [];
  for (const attachment of message.attachments) {
    const stored = await ctx.storage.get(attachment.file_key);
    if (!stored) throw new Error(`the attachment ${attachment.filename} is gone from storage`);
    const chunks: Buffer[] = [];
    for await (const chunk of stored.body) chunks.push(Buffer.from(chunk as Uint8Array));
    files.push({ filename: attachment.filename, contentType: attachment.content_type, content: Buffer.concat(chunks) });
  }
  return files;
}

/** A signed link (5 minutes) to download one file of a message. */
export async function downloadLink(ctx: MailBaseContext, message: Message, attachmentId: string) {
  const attachment = message.attachments.find((each) => each.id === attachmentId);
  if (!attachment) throw new NotFoundError('Attachment not found');
  return ctx.storage.signedDownloadUrl(attachment.file_key, { filename: attachment.filename, expiresInSeconds: 300 });
}
