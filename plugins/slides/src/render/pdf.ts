import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { STAGE } from '../services/content.js';

/**
 * Prints HTML to PDF with Chromium (`CHROMIUM_PATH`, else Debian's `chromium-headless-shell`, the
 * build made for printing and automation, when installed, else Debian's `chromium`), one page
 * per slide at the stage's size. Nothing is fetched from the network: images come as data URLs.
 */
export async function printPdf(html: string): Promise<Buffer> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium'),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
    const page = await context.newPage();
    await page.setContent(html, { waitUntil: 'load' });
    return await page.pdf({ width: `${STAGE.width}px`, height: `${STAGE.height}px`, printBackground: true, preferCSSPageSize: true, margin: { top: '0', right: '0', bottom: '0', left: '0' } });
  } finally {
    await browser.close();
  }
}
