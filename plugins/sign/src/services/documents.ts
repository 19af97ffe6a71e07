import { InvalidError } from '@wpk/sdk';
import type { AnyCtx } from '../kit.js';
import { openPdf, sha256 } from './pdf.js';

/** A PDF as the API takes it: its bytes in base64, its name, and optionally the hash the sender computed. */
export interface DocumentInput {
  filename: string;
  data_base64: string;
  content_type?: string;
  sha256?: string;
}

/** The most a document may weigh (decoded). */
export const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;

/** Decodes and checks a document: a PDF pdf-lib opens, within the limit, matching its declared hash. */
export async function readDocument(input: DocumentInput, field = 'document'): Promise<{ bytes: Buffer; sha256: string; pages: number; filename: string }> {
  const bytes = Buffer.from(input.data_base64, 'base64');
  if (bytes.length === 0) throw new InvalidError(`${field}.data_base64 is empty`, { field: `${field}.data_base64` });
  if (bytes.length > MAX_DOCUMENT_BYTES) throw new InvalidError(`${field} is over ${MAX_DOCUMENT_BYTES} bytes`, { field: `${field}.data_base64` });
  const hash = sha256(bytes);
  if (input.sha256 && input.sha256.toLowerCase() !== hash) throw new InvalidError(`${field}.sha256 ${input.sha256} is not the hash of the bytes (${hash})`, { field: `${field}.sha256` });
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') throw new InvalidError(`${field} is not a PDF`, { field: `${field}.data_base64` });
  const doc = await openPdf(bytes);
  if (!doc || doc.getPageCount() === 0) throw new InvalidError(`${field} is not a PDF that can be read`, { field: `${field}.data_base64` });
  return { bytes, sha256: hash, pages: doc.getPageCount(), filename: input.filename };
}

/** Reads a stored file whole. */
export async function readStored(ctx: AnyCtx, key: string): Promise<Buffer> {
  const stored = await ctx.storage.get(key);
  if (!stored) throw new Error(`Stored file ${key} is missing`);
  const chunks: Buffer[] = [];
  for await (const chunk of stored.body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
