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

/** What a print may set of the page (a subset of playwright-core's `page.pdf` options). */
export interface PrintOptions {
  format?: 'A4' | 'Letter';
  width?: string;
  height?: string;
  margin?: { top?: string; right?: string; bottom?: string; left?: string };
  /** A tagged (accessible) PDF. */
  tagged?: boolean;
  /** The PDF's outline (bookmarks) from the page's headings. */
  outline?: boolean;
}

/** How long the shared browser stays open after its last print. */
const IDLE_MS = 30_000;
/** Prints at once per process; further ones wait their turn (each page holds tens of MB). */
const MAX_PRINTS = 2;

type Browser = import('playwright-core').Browser;
interface Printer {
  browser: Promise<Browser>;
  busy: number;
  idle?: ReturnType<typeof setTimeout>;
}
let printer: Printer | null = null;
const waiting: Array<() => void> = [];

/** The executable, or the 503 saying what to set. */
function requireChromium(): string {
  const executablePath = chromiumExecutable();
  if (executablePath) return executablePath;
  throw new UnavailableError(
    process.env.CHROMIUM_PATH
      ? `PDF export needs Chromium: CHROMIUM_PATH (${process.env.CHROMIUM_PATH}) is not a file`
      : `PDF export needs Chromium: install it (${CANDIDATES.join(' or ')}) or set CHROMIUM_PATH to its executable`,
  );
}

/** The process's browser: launched on the first print, shared by later ones, closed when idle. */
function openPrinter(executablePath: string): Printer {
  if (printer) {
    clearTimeout(printer.idle);
    printer.idle = undefined;
    return printer;
  }
  const opened: Printer = {
    busy: 0,
    browser: loadPeer('playwright-core', 'PDF export', () => import('playwright-core')).then(async ({ chromium }) => {
      const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
      // A crashed or killed browser is forgotten: the next print launches another.
      browser.on('disconnected', () => {
        if (printer === opened) printer = null;
      });
      return browser;
    }),
  };
  // A launch that failed is not kept: the next print tries again (and reports its own failure).
  opened.browser.catch(() => {
    if (printer === opened) printer = null;
  });
  printer = opened;
  return opened;
}

function release(used: Printer): void {
  used.busy -= 1;
  waiting.shift()?.();
  if (used.busy > 0 || printer !== used) return;
  used.idle = setTimeout(() => {
    if (printer === used && used.busy === 0) {
      printer = null;
      void used.browser.then((browser) => browser.close()).catch(() => undefined);
    }
  }, IDLE_MS);
  used.idle.unref();
}

/**
 * An HTML page printed to PDF by Chromium. One browser serves the process (launched on the first
 * print, closed 30 s after the last), each print in its own context: offline, without scripts,
 * closed after; at most two at once. 503 (UnavailableError) when no Chromium is found.
 */
export async function printHtmlToPdf(html: string, options: PrintOptions = {}): Promise<Buffer> {
  const executablePath = requireChromium();
  while (printer && printer.busy >= MAX_PRINTS) await new Promise<void>((resolve) => waiting.push(resolve));
  const used = openPrinter(executablePath);
  used.busy += 1;
  try {
    const context = await (await used.browser).newContext({ javaScriptEnabled: false, offline: true });
    try {
      const page = await context.newPage();
      await page.setContent(html, { waitUntil: 'load' });
      return await page.pdf({ printBackground: true, preferCSSPageSize: true, ...options });
    } finally {
      await context.close().catch(() => undefined);
    }
  } finally {
    release(used);
  }
}

/**
 * Closes the shared browser unless a print is under way (that one's idle timer closes it): its
 * pipe would otherwise keep a stopping process alive for the idle delay. The runtime calls this
 * when it stops.
 */
export async function closeIdlePrinter(): Promise<void> {
  const open = printer;
  if (!open || open.busy > 0) return;
  printer = null;
  clearTimeout(open.idle);
  await open.browser.then((browser) => browser.close()).catch(() => undefined);
}

/** A document as a PDF (A4), its title the file's title; 503 (UnavailableError) when no Chromium is found. */
export function richTextToPdf(doc: RichTextNode, options: { title?: string } = {}): Promise<Buffer> {
  return printHtmlToPdf(richTextPrintPage(doc, options.title ?? ''), { format: 'A4', tagged: true, outline: true });
}
