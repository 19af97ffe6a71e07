import type { SlidesBaseContext } from '../kit.js';
import type { Deck } from '../models/index.js';
import { deckHtml } from '../render/html.js';
import { imageKeys } from './content.js';

export const EXPORT_FORMATS = ['pdf', 'pptx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  pdf: 'application/pdf',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/** The deck's images as data URLs, by file key (a file gone from storage is left out). */
async function imageData(ctx: SlidesBaseContext, deck: Deck): Promise<Map<string, string>> {
  const images = new Map<string, string>();
  for (const key of imageKeys(deck.slides)) {
    const stored = await ctx.storage.get(key);
    if (!stored) continue;
    const chunks: Buffer[] = [];
    for await (const chunk of stored.body) chunks.push(Buffer.from(chunk as Buffer));
    images.set(key, `data:${stored.content_type};base64,${Buffer.concat(chunks).toString('base64')}`);
  }
  return images;
}

/** A file name from the deck's title: letters, digits, spaces, - and _ kept. */
export const fileName = (deck: Deck, format: ExportFormat) => `${deck.title.replace(/[^\p{L}\p{N} _-]+/gu, '').trim().slice(0, 100) || 'deck'}.${format}`;

/** The deck as it is now: PDF (printed by Chromium, one page per slide) or PPTX (speaker notes kept). */
export async function exportDeck(ctx: SlidesBaseContext, deck: Deck, format: ExportFormat): Promise<{ bytes: Buffer; contentType: string; filename: string }> {
  const images = await imageData(ctx, deck);
  // The renderers (Chromium's driver, pptxgenjs) load on the first export, not with the app.
  const bytes = format === 'pdf' ? await (await import('../render/pdf.js')).printPdf(deckHtml(deck, images)) : await (await import('../render/pptx.js')).renderPptx(deck, images);
  return { bytes, contentType: CONTENT_TYPES[format], filename: fileName(deck, format) };
}
