import { existsSync } from 'node:fs';
import { UnavailableError } from '../errors.js';
import type { RichTextNode } from './rich-text.js';
import { escapeHtml, richTextToHtml, safeHref } from './markdown.js';
import { loadPeer } from './peer.js';

/**
 * Rich text as a PDF printed by Chromium (playwright-core, loaded on first use: docs/decisions/0273),
 * so the file looks as the document does in a browser. The browser is `CHROMIUM_PATH`, else
 * Debian's `chromium-headless-shell`, else Debian's `chromium`; without one, the export answers 503
 * saying what to set. Nothing is fetched while printing: the page is offline, without scripts, and
 * only data-URL images show.
 */

const CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];

/** The Chromium executable the server prints with, or null when there is none. */
export function chromiumExecutable(): string | null {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return existsSync(configured) ? configured : null;
  return CANDIDATES.find((path) => existsSync(path)) ?? null;
}

/** The print stylesheet: A4, 2 cm margins, the editor's look in print colours. */
const PRINT_CSS = `@page { size: A4; margin: 20mm; }
body { font: 11pt/1.5 "Liberation Sans", Arial, Helvetica, sans-serif; color: #111; }
h1 { font-size: 22pt; } h2 { font-size: 17pt; } h3 { font-size: 14pt; } h4, h5, h6 { font-size: 12pt; }
h1, h2, h3, h4, h5, h6 { break-after: avoid; margin: 1em 0 0.4em; }
pre { background: #f3f4f6; padding: 8px 10px; white-space: pre-wrap; font: 9.5pt/1.4 "Liberation Mono", "Courier New", monospace; break-inside: avoid; }
code { font-family: "Liberation Mono", "Courier New", monospace; background: #f3f4f6; }
pre code { background: none; }
blockquote { margin: 0.8em 0; padding-left: 12px; border-left: 3px solid #bbb; color: #555; }
table { border-collapse: collapse; width: 100%; margin: 0.8em 0; }
th, td { border: 1px solid #999; padding: 4px 6px; vertical-align: top; text-align: left; }
th { background: #f3f4f6; }
thead { display: table-header-group; }
tr { break-inside: avoid; }
hr { border: 0; border-top: 1px solid #aaa; margin: 1em 0; }
img { max-width: 100%; }
a { color: #1a56db; }
mark { background: #fef08a; }`;

/** A target as printed: safeHref's, and an image's data URL (the page is offline: nothing else could show). */
const printedHref = (target: string) => (/^data:image\/(png|jpeg|jpg|gif|webp);base64,/i.test(target) ? target : safeHref(target));

/** A document as a printable HTML page. */
export const richTextPrintPage = (doc: RichTextNode, title: string) =>
  `<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>${escapeHtml(title)}</title>\n<style>${PRINT_CSS}</style>\n</head>\n<body>\n${richTextToHtml(doc, printedHref)}\n</body>\n</html>\n`;

/** A document as a PDF (A4), its title the file's title; 503 (UnavailableError) when no Chromium is found. */
export async function richTextToPdf(doc: RichTextNode, options: { title?: string } = {}): Promise<Buffer> {
  const executablePath = chromiumExecutable();
  if (!executablePath) {
    throw new UnavailableError(
      process.env.CHROMIUM_PATH
        ? `PDF export needs Chromium: CHROMIUM_PATH (${process.env.CHROMIUM_PATH}) is not a file`
        : `PDF export needs Chromium: install it (${CANDIDATES.join(' or ')}) or set CHROMIUM_PATH to its executable`,
    );
  }
  const { chromium } = await loadPeer('playwright-core', 'richTextToPdf', () => import('playwright-core'));
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  try {
    const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
    const page = await context.newPage();
    await page.setContent(richTextPrintPage(doc, options.title ?? ''), { waitUntil: 'load' });
    return await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true, tagged: true, outline: true });
  } finally {
    await browser.close();
  }
}
