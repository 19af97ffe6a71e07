/**
 * Attachments in the app's storage: a signed link uploads a file under the table's prefix; an
 * attachment cell names uploaded files (`[{key, name}]`, checked to exist), kept with their type
 * and size; a record's reader gets a short-lived download link for a file the record holds.
 */
import { randomUUID } from 'node:crypto';
import { InvalidError, NotFoundError } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import type { Field } from '../models/index.js';
import { requireRecord, requireTable } from './access.js';

/** The largest attachment, in bytes. */
export const ATTACHMENT_MAX_BYTES = 25 * 1024 * 1024;

/** One file of an attachment cell. */
export interface AttachmentCell { key: string; name: string; content_type: string; size_bytes: number }

/** A signed link to upload one file for a table's attachment cells (PUT, within ten minutes; editors). */
export async function uploadLink(ctx: Ctx, tableId: string, input: { filename: string; content_type: string; size_bytes?: number }) {
  const { table } = await requireTable(ctx, tableId, 'editor');
  if (input.size_bytes !== undefined && input.size_bytes > ATTACHMENT_MAX_BYTES) throw new InvalidError(`size_bytes must be at most ${ATTACHMENT_MAX_BYTES}`, { field: 'size_bytes' });
  const safe = input.filename.replace(/[^A-Za-z0-9._-]+/g, '_').slice(-100) || 'file';
  const key = `attachments/${table.id}/${randomUUID()}/${safe}`;
  const upload = await ctx.storage.signedUploadUrl(key, { contentType: input.content_type, maxBytes: ATTACHMENT_MAX_BYTES, expiresInSeconds: 600 });
  return { key, filename: input.filename, content_type: input.content_type, upload: { url: upload.url, method: upload.method, expires_at: upload.expires_at.toISOString() } };
}

/** An attachment cell's files checked against the storage: each must be an uploaded file of this table. */
export async function resolveAttachments(ctx: AnyCtx, field: Field, files: Array<{ key: string; name: string }>, path: string): Promise<AttachmentCell[]> {
  const out: AttachmentCell[] = [];
  for (const [index, file] of files.entries()) {
    const stored = file.key.startsWith(`attachments/${field.table_id}/`) && file.key.length <= 400 ? await ctx.storage.head(file.key) : null;
    if (!stored) throw new InvalidError(`${path}[${index}].key: ${file.key} names no uploaded file of this table`, { field: `${path}[${index}].key` });
    out.push({ key: file.key, name: String(file.name).slice(0, 255), content_type: stored.content_type, size_bytes: stored.size_bytes });
  }
  return out;
}

/** A download link (five minutes) for a file one of the record's attachment cells holds. */
export async function downloadLink(ctx: Ctx, recordId: string, key: string) {
  const { record } = await requireRecord(ctx, recordId, 'viewer');
  const file = Object.values(record.cells).flatMap((value) => (Array.isArray(value) ? value : [])).find((item): item is AttachmentCell => Boolean(item) && typeof item === 'object' && (item as AttachmentCell).key === key);
  if (!file || !(await ctx.storage.head(key))) throw new NotFoundError(`Record ${recordId} has no attachment ${key}`);
  const link = await ctx.storage.signedDownloadUrl(key, { filename: file.name, expiresInSeconds: 300 });
  return { key, name: file.name, url: link.url, expires_at: link.expires_at.toISOString() };
}
