import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExecutionContext, TestFn } from 'ava';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { RuntimeOptions } from '../../src/index.js';
import { startIdentityRuntime, type IdentityTestRuntime } from './identity-runtime.js';

/** The base domain browser tests use; Chromium maps it and every subdomain to 127.0.0.1. */
export const WEB_DOMAIN = 'wpk.test';

/** Where a failing browser test leaves its screenshots (gitignored). */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../.scratch/screenshots', import.meta.url));

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The two widths every page is checked at. */
export const WIDTHS = [375, 1280] as const;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A listening platform on http://wpk.test:{port} with its SMTP sink, and a headless Chromium. */
export interface WebTestEnv {
  env: IdentityTestRuntime;
  browser: Browser;
  /** `http://wpk.test:1234` (subdomain null) or `http://acme.wpk.test:1234`. */
  url(subdomain: string | null, path?: string): string;
  /** A fresh browser profile (own cookies) at the given width; with the test's title it is photographed if the test fails. */
  context(width?: number, title?: string): Promise<BrowserContext>;
  close(): Promise<void>;
}

export async function startWebEnv(options: RuntimeOptions = {}): Promise<WebTestEnv> {
  const port = await freePort();
  const origin = `http://${WEB_DOMAIN}:${port}`;
  const env = await startIdentityRuntime({ host: '127.0.0.1', port, baseDomain: WEB_DOMAIN, publicUrl: origin, cookieSecure: false, scryptLogN: 10, ...options } as RuntimeOptions);
  let browser: Browser;
  try {
    browser = await chromium.launch({
      // The same choice as @wpk/testing's chromiumPath(): the headless shell when installed.
      executablePath: process.env.CHROMIUM_PATH || (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium'),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', `--host-resolver-rules=MAP *.${WEB_DOMAIN} 127.0.0.1, MAP ${WEB_DOMAIN} 127.0.0.1`],
    });
  } catch (error) {
    await env.close();
    throw error;
  }
  return {
    env,
    browser,
    url: (subdomain, path = '/') => `http://${subdomain ? `${subdomain}.` : ''}${WEB_DOMAIN}:${port}${path}`,
    async context(width = 1280, title?: string) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      if (title) openContexts.set(`${title}`, context);
      return context;
    },
    async close() {
      try {
        await browser.close();
      } finally {
        await env.close();
      }
    },
  };
}

/** The workspace every browser test file starts with: `acme`, owned by Olive Owner. */
export const ACME = { subdomain: 'acme', name: 'Acme', ownerEmail: 'owner@acme.test', ownerPassword: 'owner-password-1', ownerName: 'Olive Owner' } as const;

/**
 * Declares a browser test file's set-up: one listening platform and Chromium for the whole file
 * (`startWebEnv(options)`), the workspace `acme` with its owner, then `seed` for the file's own
 * data; after the file, the axe summary line and the shutdown; after each test, screenshots of a
 * failed test's pages. The returned environment is filled in by `test.before`.
 */
export function declareWebEnv(test: TestFn, options: RuntimeOptions = {}, seed?: (web: WebTestEnv, acmeId: string) => Promise<void>): WebTestEnv {
  const web = {} as WebTestEnv; // filled in by test.before, before any test reads it
  let started = false;
  test.before(async () => {
    Object.assign(web, await startWebEnv(options));
    started = true;
    const acme = await web.env.runtime.identity.createWorkspaceWithOwner({ ...ACME });
    await seed?.(web, acme.workspaceId);
  });
  test.after.always(async () => {
    console.log(`axe: ${axeSummary.pages} page checks, ${axeSummary.violations} serious or critical violations`);
    if (started) await web.close();
  });
  test.afterEach.always(screenshotOnFailure);
  return web;
}

/** Fills the fields labelled by the keys, then clicks the named button. */
export async function fillAndSubmit(page: Page, fields: Record<string, string>, button: string): Promise<void> {
  for (const [label, value] of Object.entries(fields)) await page.getByLabel(label, { exact: true }).fill(value);
  await page.getByRole('button', { name: button }).click();
}

/** axe-core's serious and critical violations on the page as it is now ("rule: target" lines). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // A click that submits a form resolves once the next document commits, before it has parsed:
  // wait for it, or the script tag has no head to go into.
  await page.waitForLoadState('load');
  // Evaluated in the page (strings: this package is compiled without the DOM's types).
  if (!(await page.evaluate<boolean>("'axe' in window"))) await page.addScriptTag({ content: AXE_SOURCE });
  const results = await page.evaluate<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: string[] }> }> }>("axe.run(document, { resultTypes: ['violations'] })");
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** Running axe counts, for the closing summary line of a browser test file. */
export const axeSummary = { pages: 0, violations: 0 };

/** Checks the page with axe (0 serious/critical) and that nothing overflows sideways at its width. */
export async function checkPage(t: ExecutionContext, page: Page, label: string): Promise<void> {
  const violations = await seriousViolations(page);
  axeSummary.pages += 1;
  axeSummary.violations += violations.length;
  t.deepEqual(violations, [], `axe on ${label} (${page.url()})`);
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
  t.true(overflow <= 0, `${label} is ${overflow}px wider than the ${page.viewportSize()?.width}px window`);
}

/** Browser profiles by test title, so a failed test's pages can be photographed afterwards. */
export const openContexts = new Map<string, BrowserContext>();

/** For `test.afterEach.always`: on failure, a screenshot of each page the test had open. */
export async function screenshotOnFailure(t: ExecutionContext): Promise<void> {
  // A hook's title is "afterEach.always hook for <the test's title>".
  const title = t.title.replace(/^afterEach(\.always)? hook for /, '');
  for (const [key, context] of openContexts) {
    if (key !== title && !key.startsWith(`${title} (`)) continue;
    openContexts.delete(key);
    if (!t.passed) t.log(`screenshots: ${(await saveScreenshots(key, context)).join(', ')}`);
    await context.close();
  }
}

/** Saves a screenshot of each page of the context; returns the paths. */
export async function saveScreenshots(title: string, context: BrowserContext): Promise<string[]> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const saved: string[] = [];
  for (const [index, page] of context.pages().entries()) {
    const file = path.join(SCREENSHOT_DIR, `${title.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}-${index}.png`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
    saved.push(file);
  }
  return saved;
}

/** A plain HTTP answer (no redirects followed). */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Sends one request to the test server at 127.0.0.1 with the Host of `{subdomain}.wpk.test` (or the base domain). */
export function rawRequest(web: WebTestEnv, subdomain: string | null, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawAnswer> {
  const url = new URL(web.url(subdomain, path));
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port: url.port, path: `${url.pathname}${url.search}`, method: options.method ?? 'GET', headers: { host: url.host, ...options.headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
    request.end(options.body);
  });
}
