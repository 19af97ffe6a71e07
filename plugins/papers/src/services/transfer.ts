/**
 * A paper as a file (Markdown, HTML, DOCX or PDF, converted by the SDK from its JSON snapshot) and
 * a paper made from Markdown or a Word document (docs/decisions/0287-rich-text-markdown.md,
 * docs/decisions/0294-papers-docx-pdf.md).
 */
import {
  DocxReadError,
  escapeHtml,
  fileNameOf,
  InvalidError,
  newId,
  richTextFromDocx,
  richTextFromMarkdown,
  richTextPlain,
  richTextToDocx,
  richTextToHtml,
  richTextToMarkdown,
  richTextToPdf,
  safeHref,
  type RichTextNode,
} from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import type { Paper } from '../models/index.js';
import { requirePaper } from './access.js';
import { paperDocuments, PAPER_MARKS, PAPER_NODES } from './documents.js';
import { DATA_IMAGE, inlineImages } from './images.js';
import { createPaper } from './papers.js';

/** The formats a paper exports to, with their media type and file extension. */
export const EXPORT_FORMATS = {
  markdown: { contentType: 'text/markdown; charset=utf-8', extension: 'md' },
  html: { contentType: 'text/html; charset=utf-8', extension: 'html' },
  docx: { contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', extension: 'docx' },
  pdf: { contentType: 'application/pdf', extension: 'pdf' },
} as const;
export type ExportFormat = keyof typeof EXPORT_FORMATS;

/** The most Markdown an import takes (characters): what a paper's document holds at most. */
export const MAX_IMPORT_MARKDOWN = 500_000;

/**
 * The largest Word document an import takes (bytes): its base64 (4 characters per 3 bytes) keeps
 * the request under the server's 1 MiB body limit.
 */
export const MAX_IMPORT_DOCX_BYTES = 750_000;

/**
 * The largest Word document imported through a stored upload (bytes): `POST /papers/imports/uploads`
 * gives a signed link for it, and `POST /papers/imports` takes its `file_key`
 * (docs/decisions/0311-papers-large-imports.md).
 */
export const MAX_UPLOADED_DOCX_BYTES = 20 * 1024 * 1024;

/** Where a member's import upload is kept until the import reads it (and removes it). */
const uploadKey = (memberId: string, id: string) => `imports/${memberId}/${id}`;
const UPLOAD_KEY = /^imports\/([0-9a-f-]{36})\/([0-9a-f-]{36})$/;

/** How long after its link was made an upload never imported is deleted (its link lasts 15 minutes; the import may come later). */
export const ABANDONED_UPLOAD_MS = 24 * 60 * 60 * 1000;

/**
 * A signed link (PUT, 15 minutes, at most MAX_UPLOADED_DOCX_BYTES) for a Word document to import;
 * its `file_key` is the caller's. Stages the app's own `core.papers.upload.expired`, delivered
 * ABANDONED_UPLOAD_MS later, which deletes the upload if it was never imported.
 */
export async function createImportUpload(ctx: Ctx, input: { size_bytes?: number }) {
  const key = uploadKey(ctx.member.id, newId());
  const link = await ctx.storage.signedUploadUrl(key, { expiresInSeconds: 900, maxBytes: Math.min(input.size_bytes ?? MAX_UPLOADED_DOCX_BYTES, MAX_UPLOADED_DOCX_BYTES) });
  ctx.events.stage('core.papers.upload.expired', { file_key: key }, {}, { deliverAt: new Date(ctx.now().getTime() + ABANDONED_UPLOAD_MS), dedupeKey: `papers-upload:${key}` });
  return { file_key: key, max_bytes: MAX_UPLOADED_DOCX_BYTES, upload: { url: link.url, method: 'PUT' as const, expires_at: link.expires_at.toISOString() } };
}

/** `core.papers.upload.expired`: deletes the upload if it is still there (never imported: an import removes it); whether it was. */
export async function sweepImportUpload(ctx: AnyCtx, fileKey: string): Promise<boolean> {
  if (!UPLOAD_KEY.test(fileKey)) return false;
  return ctx.storage.delete(fileKey);
}

/** The bytes of the caller's upload named by file_key: 400 naming the key when it is not the caller's, absent, empty or over the limit. */
async function uploadedBytes(ctx: Ctx, fileKey: string): Promise<Buffer> {
  const match = UPLOAD_KEY.exec(fileKey);
  if (!match || match[1] !== ctx.member.id) throw new InvalidError('file_key: must be a file_key answered to you by POST /papers/imports/uploads', { field: 'file_key' });
  const stored = await ctx.storage.head(fileKey);
  if (!stored) throw new InvalidError(`file_key: nothing was uploaded at ${fileKey}`, { field: 'file_key' });
  if (stored.size_bytes > MAX_UPLOADED_DOCX_BYTES) throw new InvalidError(`file_key: the file is ${stored.size_bytes} bytes; at most ${MAX_UPLOADED_DOCX_BYTES} (20 MB) are imported`, { field: 'file_key' });
  if (stored.size_bytes === 0) throw new InvalidError('file_key: the file is empty', { field: 'file_key' });
  const object = await ctx.storage.get(fileKey);
  if (!object) throw new InvalidError(`file_key: nothing was uploaded at ${fileKey}`, { field: 'file_key' });
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** A whole HTML page holding the paper's content, titled by the paper. */
const htmlPage = (title: string, body: string) =>
  `<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>${escapeHtml(title)}</title>\n</head>\n<body>\n${body}${body ? '\n' : ''}</body>\n</html>\n`;

/** The paper (any level one holds on it) as a file of the format: its body, media type and file name. */
export async function exportPaper(ctx: Ctx, paperId: string, format: ExportFormat) {
  const { paper } = await requirePaper(ctx, paperId);
  const stored = ((await paperDocuments.snapshot(ctx, paper.id))?.content ?? { type: 'doc' }) as RichTextNode;
  // The file holds the paper's images (as data URLs); Markdown keeps their API paths.
  const content = format === 'markdown' ? stored : await inlineImages(ctx, paper.id, stored);
  const { contentType, extension } = EXPORT_FORMATS[format];
  const body =
    format === 'markdown'
      ? richTextToMarkdown(content)
      : format === 'html'
        ? htmlPage(paper.title, richTextToHtml(content, (target) => (DATA_IMAGE.test(target) ? target : safeHref(target))))
        : format === 'docx'
          ? await richTextToDocx(content, { title: paper.title })
          : await richTextToPdf(content, { title: paper.title });
  return { body, contentType, filename: `${fileNameOf(paper.title.slice(0, 200))}.${extension}` };
}

/**
 * A new paper of the caller's whose document is the Markdown converted (one
 * `core.papers.paper.created`). Without a title, the text of the Markdown's first heading names it
 * (else 'Untitled'), as a file's name or first heading does in other editors.
 */
export async function importMarkdown(ctx: Ctx, input: { title?: string; folder_id?: string | null; markdown: string }): Promise<Paper> {
  return createFrom(ctx, richTextFromMarkdown(input.markdown), input);
}

/** The paper made of a document: titled by the input, else the first heading, else the file's name, else 'Untitled'. */
async function createFrom(ctx: Ctx, doc: RichTextNode, input: { title?: string; folder_id?: string | null; filename?: string }): Promise<Paper> {
  const heading = (doc.content ?? []).find((node) => node.type === 'heading');
  const named = (input.filename ?? '').replace(/\.[A-Za-z0-9]{1,5}$/, '').trim();
  const title = input.title ?? ((heading ? richTextPlain(heading).trim().slice(0, 300) : '') || named.slice(0, 300) || 'Untitled');
  return createPaper(ctx, { title, folder_id: input.folder_id, content: doc.content?.length ? doc : undefined });
}

const ALLOWED_NODES = new Set<string>(['doc', 'text', ...PAPER_NODES]);
const ALLOWED_MARKS = new Set<string>(PAPER_MARKS);

/** Keeps only what a paper may hold (the converter makes nothing else; this keeps it true). */
function paperContent(node: RichTextNode): RichTextNode | null {
  if (!ALLOWED_NODES.has(node.type)) return null;
  const out: RichTextNode = { ...node };
  if (node.marks) out.marks = node.marks.filter((mark) => ALLOWED_MARKS.has(mark.type));
  if (out.marks && !out.marks.length) delete out.marks;
  if (node.content) out.content = node.content.map(paperContent).filter((child): child is RichTextNode => child !== null);
  return out;
}

/**
 * A new paper of the caller's whose document is the Word document (base64 DOCX) converted by
 * mammoth (one `core.papers.paper.created`): titled by title, else its first heading, else the
 * file's name. Bytes that are not a readable DOCX, or too many, are refused before anything is
 * written.
 */
export async function importDocx(ctx: Ctx, input: { title?: string; folder_id?: string | null; docx?: string; file_key?: string; filename?: string }): Promise<Paper> {
  if (input.file_key !== undefined) {
    const bytes = await uploadedBytes(ctx, input.file_key);
    const paper = await docxPaper(ctx, bytes, input, 'file_key');
    await ctx.storage.delete(input.file_key);
    return paper;
  }
  const encoded = (input.docx ?? '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) throw new InvalidError('docx: must be the file\'s bytes in base64', { field: 'docx' });
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length === 0) throw new InvalidError('docx: the file is empty', { field: 'docx' });
  if (bytes.length > MAX_IMPORT_DOCX_BYTES) throw new InvalidError(`docx: the file is ${bytes.length} bytes; at most ${MAX_IMPORT_DOCX_BYTES} are imported (a larger one, up to ${MAX_UPLOADED_DOCX_BYTES}, through POST /papers/imports/uploads and file_key)`, { field: 'docx' });
  return docxPaper(ctx, bytes, input, 'docx');
}

/** The paper made of a DOCX's bytes; a file mammoth cannot read is a 400 naming the field. */
async function docxPaper(ctx: Ctx, bytes: Buffer, input: { title?: string; folder_id?: string | null; filename?: string }, field: 'docx' | 'file_key'): Promise<Paper> {
  let doc: RichTextNode;
  try {
    doc = await richTextFromDocx(bytes);
  } catch (error) {
    if (error instanceof DocxReadError) throw new InvalidError(`${field}: ${error.message}`, { field });
    throw error;
  }
  return createFrom(ctx, paperContent(doc) ?? { type: 'doc' }, input);
}
