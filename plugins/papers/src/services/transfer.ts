/**
 * A paper as a file (Markdown or HTML, converted by the SDK from its JSON snapshot) and a paper
 * made from Markdown (docs/decisions/new-papers-markdown-transfer.md). PDF and DOCX are not
 * offered yet.
 */
import { escapeHtml, fileNameOf, richTextFromMarkdown, richTextPlain, richTextToHtml, richTextToMarkdown, type RichTextNode } from '@wpk/sdk';
import type { Ctx } from '../kit.js';
import type { Paper } from '../models/index.js';
import { requirePaper } from './access.js';
import { paperDocuments } from './documents.js';
import { createPaper } from './papers.js';

/** The formats a paper exports to, with their media type and file extension. */
export const EXPORT_FORMATS = {
  markdown: { contentType: 'text/markdown; charset=utf-8', extension: 'md' },
  html: { contentType: 'text/html; charset=utf-8', extension: 'html' },
} as const;
export type ExportFormat = keyof typeof EXPORT_FORMATS;

/** The most Markdown an import takes (characters): what a paper's document holds at most. */
export const MAX_IMPORT_MARKDOWN = 500_000;

/** A whole HTML page holding the paper's content, titled by the paper. */
const htmlPage = (title: string, body: string) =>
  `<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>${escapeHtml(title)}</title>\n</head>\n<body>\n${body}${body ? '\n' : ''}</body>\n</html>\n`;

/** The paper (any level one holds on it) as a file of the format: its body, media type and file name. */
export async function exportPaper(ctx: Ctx, paperId: string, format: ExportFormat) {
  const { paper } = await requirePaper(ctx, paperId);
  const content = ((await paperDocuments.snapshot(ctx, paper.id))?.content ?? { type: 'doc' }) as RichTextNode;
  const { contentType, extension } = EXPORT_FORMATS[format];
  const body = format === 'markdown' ? richTextToMarkdown(content) : htmlPage(paper.title, richTextToHtml(content));
  return { body, contentType, filename: `${fileNameOf(paper.title.slice(0, 200))}.${extension}` };
}

/**
 * A new paper of the caller's whose document is the Markdown converted (one
 * `core.papers.paper.created`). Without a title, the text of the Markdown's first heading names it
 * (else 'Untitled'), as a file's name or first heading does in other editors.
 */
export async function importMarkdown(ctx: Ctx, input: { title?: string; folder_id?: string | null; markdown: string }): Promise<Paper> {
  const doc = richTextFromMarkdown(input.markdown);
  const heading = (doc.content ?? []).find((node) => node.type === 'heading');
  const title = input.title ?? ((heading ? richTextPlain(heading).trim().slice(0, 300) : '') || 'Untitled');
  return createPaper(ctx, { title, folder_id: input.folder_id, content: doc.content?.length ? doc : undefined });
}
