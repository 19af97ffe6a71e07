import { printHtmlToPdf } from '@wpk/sdk';
import { STAGE } from '../services/content.js';

/**
 * Prints a deck's HTML to PDF with the SDK's shared Chromium (`printHtmlToPdf`: `CHROMIUM_PATH`,
 * else Debian's headless shell, else Debian's `chromium`; 503 naming what to set without one), one
 * page per slide at the stage's size. Nothing is fetched from the network: images come as data URLs.
 */
export function printPdf(html: string): Promise<Buffer> {
  return printHtmlToPdf(html, { width: `${STAGE.width}px`, height: `${STAGE.height}px`, margin: { top: '0', right: '0', bottom: '0', left: '0' } });
}
