/**
 * Helpers for an app's browser tests (docs/ui.md, "Testing a front-end"): Debian's Chromium
 * through playwright-core, signing in through the real sign-in page, opening an app in the
 * workspace shell, axe-core on every frame (the shell and the app's sandboxed frame), the CSP
 * violations a page caused, sideways overflow, and screenshots for an app's docs page.
 */
import { existsSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';
import type { World } from './world.js';

export type { Browser, BrowserContext, Frame, Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// Runs in every frame as it is created (CDP injects it: a page's CSP does not stop it): it keeps
// the frame's CSP violations where the test can read them.
const WATCH_CSP = `window.__wpkCspViolations = [];
document.addEventListener('securitypolicyviolation', (event) => window.__wpkCspViolations.push(event.violatedDirective + ' ' + (event.blockedURI || 'inline') + ' ' + (event.sourceFile || '') + ':' + event.lineNumber));`;

/**
 * The Chromium the browser tests drive: `CHROMIUM_PATH`, else Debian's headless shell
 * (`chromium-headless-shell`, the build made for automation: the same Blink, about half the CPU of
 * the full browser per test) when it is installed, else Debian's `chromium`.
 */
export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium';
}

/** Chromium as the platform's browser tests run it (`chromiumPath()`). */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--host-resolver-rules=MAP *.localhost 127.0.0.1', ...extraArgs],
  });
}

/** A fresh browser profile at `width` (× 900) with the CSP watch in every frame (axe-core is added to a frame when it is checked). */
export async function browserContext(browser: Browser, width: number): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await context.addInitScript({ content: WATCH_CSP });
  return context;
}

/**
 * Signs in through the workspace's own sign-in page (`/login`) as a person would, and waits for
 * the launcher. `origin` is the workspace's (`platform.url(subdomain, '')`).
 */
export async function signIn(page: Page, origin: string, email: string, password = 'harness-password-1'): Promise<void> {
  await page.goto(`${origin}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await Promise.all([page.waitForURL(`${origin}/`), page.getByRole('button', { name: 'Sign in' }).click()]);
}

/** The app's sandboxed frame in the shell, once its front-end has rendered `selector`. */
export async function appFrame(page: Page, selector: string): Promise<Frame> {
  const handle = await page.waitForSelector('#app-frame');
  const frame = (await handle.contentFrame())!;
  await frame.waitForSelector(selector);
  return frame;
}

/** One serious or critical axe-core violation: `rule: target` (in which frame). */
export type AxeFinding = string;

/** axe-core's serious and critical violations in the page and every frame in it. */
export async function accessibilityViolations(page: Page): Promise<AxeFinding[]> {
  const findings: AxeFinding[] = [];
  for (const frame of page.frames()) {
    // axe-core (550 kB) is evaluated in a frame only when the frame is checked, not in every frame
    // of every page as it loads; evaluation through the DevTools protocol is not subject to the
    // frame's CSP.
    if (!(await frame.evaluate<boolean>("typeof axe !== 'undefined'"))) await frame.evaluate(AXE_SOURCE);
    // axe itself adds <style> elements, which a page's CSP refuses: its own violations are dropped.
    const results = await frame.evaluate<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: string[] }> }> }>(`(async () => {
      const before = window.__wpkCspViolations.length;
      const results = await axe.run(document, { resultTypes: ['violations'], iframes: false });
      await new Promise((resolve) => setTimeout(resolve, 50));
      window.__wpkCspViolations.length = before;
      return results;
    })()`);
    for (const violation of results.violations) {
      if (violation.impact !== 'serious' && violation.impact !== 'critical') continue;
      for (const node of violation.nodes) findings.push(`${violation.id}: ${node.target.join(' ')} (${frame === page.mainFrame() ? 'shell' : frame.url()})`);
    }
  }
  return findings;
}

/** The Content-Security-Policy violations every frame of the page reported so far. */
export async function cspViolations(page: Page): Promise<string[]> {
  const all: string[] = [];
  for (const frame of page.frames()) {
    const found = await frame.evaluate(() => (globalThis as unknown as { __wpkCspViolations?: string[] }).__wpkCspViolations ?? []);
    all.push(...found.map((violation) => `${violation} (${frame === page.mainFrame() ? 'shell' : frame.url()})`));
  }
  return all;
}

/** How many pixels the page (or the frame) is wider than its window: 0 when nothing overflows sideways. */
export async function sidewaysOverflow(target: Page | Frame): Promise<number> {
  return target.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
}

/**
 * Takes a PNG of the page's viewport for an app's docs (`docs/apps/images/...`). The file is
 * written only with `UPDATE_SCREENSHOTS=1` (run the browser test so after a change to the screen);
 * otherwise the picture is taken and dropped, so a test run leaves the committed images as they are.
 * Returns the bytes.
 */
export async function saveScreenshot(page: Page, file: string): Promise<Buffer> {
  const bytes = await page.screenshot({ fullPage: false, animations: 'disabled', caret: 'hide' });
  if (process.env.UPDATE_SCREENSHOTS === '1') {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, bytes);
  }
  return bytes;
}

/** Dismisses the shell's toasts, so a screenshot shows the screen under them. */
export async function dismissToasts(page: Page): Promise<void> {
  const buttons = page.getByRole('button', { name: 'Dismiss' });
  while ((await buttons.count()) > 0) await buttons.first().click();
}

/** Chromium's fake camera and microphone, granted without a prompt (pass to `browseWorld` or `launchChromium`). */
export const FAKE_MEDIA_ARGS = ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', '--autoplay-policy=no-user-gesture-required'];

/**
 * Waits until a page's `<wpk-call>` (inside the custom element `host`) plays a remote peer's
 * camera: a video track whose frames have a size; throws the call's own error if it reports one.
 */
export async function remoteVideoPlays(page: Page, host: string): Promise<{ width: number; state: string }> {
  const handle = await page.waitForFunction(
    (tag) => {
      type Host = { shadowRoot: { querySelector(selector: string): Host | null } | null };
      type Video = { videoWidth: number; srcObject: { getVideoTracks(): Array<{ readyState: string }> } | null };
      const scope = globalThis as unknown as { document: { querySelector(selector: string): Host | null }; wpkCall?: { error: string | null } };
      const root = scope.document.querySelector(tag)?.shadowRoot?.querySelector('wpk-call')?.shadowRoot;
      const video = root?.querySelector('video.remote') as unknown as Video | null | undefined;
      const track = video?.srcObject?.getVideoTracks()[0];
      if (scope.wpkCall?.error) throw new Error(scope.wpkCall.error);
      return video && track && video.videoWidth > 0 ? { width: video.videoWidth, state: track.readyState } : null;
    },
    host,
    { timeout: 20_000, polling: 100 },
  );
  return (await handle.jsonValue()) as { width: number; state: string };
}

/** Each page plays the other's camera: a live remote track with frames (see `remoteVideoPlays`). */
export async function assertRemoteVideos(t: { true(actual: boolean, message?: string): unknown; is(actual: string, expected: string, message?: string): unknown }, pages: Page[], host: string): Promise<void> {
  for (const [index, page] of pages.entries()) {
    const video = await remoteVideoPlays(page, host);
    t.true(video.width > 0, `page ${index + 1}: the remote video has no frames`);
    t.is(video.state, 'live', `page ${index + 1}: the remote track is not live`);
  }
}

/**
 * The text of a `<wpk-collab-editor>` in `frame` (its text box named `name`), one line a block,
 * without the other members' carets (their name labels).
 */
export function collabEditorText(frame: Frame, name: string): Promise<string> {
  return frame.getByRole('textbox', { name }).evaluate((element: unknown) => {
    const copy = (element as DomNode).cloneNode(true);
    copy.querySelectorAll('.collaboration-carets__caret').forEach((caret) => caret.remove());
    return Array.from(copy.children, (block) => block.textContent).join('\n');
  });
}

/** The little of the DOM `collabEditorText` runs in the page (this package is typed without the DOM). */
interface DomNode {
  cloneNode(deep: boolean): DomNode;
  querySelectorAll(selector: string): { forEach(each: (node: DomNode) => void): void };
  remove(): void;
  children: ArrayLike<DomNode>;
  textContent: string | null;
}

/**
 * Reads every replica's text (`read`) every 100 ms until they are all equal and `done` holds for
 * the text, at most `tries` times; answers the texts last read (a convergence test asserts them).
 */
export async function untilConverged<T extends readonly string[]>(read: () => Promise<T>, done: (text: string) => boolean, tries = 100): Promise<T> {
  let texts = await read();
  for (let attempt = 1; attempt < tries && !(texts.every((text) => text === texts[0]) && done(texts[0]!)); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    texts = await read();
  }
  return texts;
}

/** The assertions `checkPage` makes (an ava `t` fits). */
export interface PageAssertions {
  deepEqual(actual: string[], expected: string[], message: string): unknown;
  true(actual: boolean, message: string): unknown;
}

/**
 * A front-end's standing checks at one step: no Content-Security-Policy violation, axe-clean (the
 * shell and every frame), and nothing wider than the window (the shell) or its frame (the app's,
 * when there is one). Each message starts with `label`.
 */
export async function checkPage(t: PageAssertions, page: Page, frame: Frame | null, label: string): Promise<void> {
  t.deepEqual(await cspViolations(page), [], `CSP: ${label}`);
  t.deepEqual(await accessibilityViolations(page), [], `axe: ${label}`);
  t.true((await sidewaysOverflow(page)) <= 0, `${label}: the shell is wider than the window`);
  if (frame) t.true((await sidewaysOverflow(frame)) <= 0, `${label}: the app is wider than its frame`);
}

/** What `openApp` needs: where, as whom, and how the app shows in the launcher and its frame. */
export interface OpenAppOptions {
  /** The workspace's origin (`platform.url(subdomain, '')`). */
  origin: string;
  /** Who signs in. */
  email: string;
  /** The launcher tile's link name (matched exactly with `exact`). */
  link: string;
  exact?: boolean;
  /** The app's slug: the shell opens at `/app/{slug}/`. */
  slug: string;
  /** What the app's front-end renders once it is ready (see appFrame). */
  ready: string;
}

/** Signs in on `page` and opens the app from the launcher's tile: the shell at `/app/{slug}/` with the app's frame. */
export async function openApp(page: Page, options: OpenAppOptions): Promise<{ page: Page; frame: Frame }> {
  await signIn(page, options.origin, options.email);
  await page.getByRole('link', { name: options.link, ...(options.exact ? { exact: true } : {}) }).click();
  await page.waitForURL(`${options.origin}/app/${options.slug}/`);
  return { page, frame: await appFrame(page, options.ready) };
}

/** How `browseWorld`'s `openApp` finds the app: its launcher tile, its path and what it renders when ready (see `openApp`). */
export type WorldApp = Omit<OpenAppOptions, 'origin' | 'email'>;

/** What `browseWorld` answers: a world's workspace in Chromium. */
export interface WorldBrowser<W extends World = World> {
  world: W;
  browser: Browser;
  /** The workspace's origin (`platform.url(subdomain, '')`). */
  origin: string;
  /** A page in a fresh profile at `width` px (default 1280; `browserContext`); `prepare` sets the profile up first (permissions, geolocation). */
  newPage(width?: number, prepare?: (context: BrowserContext) => Promise<void>): Promise<Page>;
  /** A new page (as `newPage`) signed in as `email` (default the owner) with the world's app opened from the launcher (`openApp`). */
  openApp(width: number, options?: { email?: string; prepare?: (context: BrowserContext) => Promise<void> }): Promise<{ page: Page; frame: Frame }>;
  /** Closes the browser, then the world. */
  close(): Promise<void>;
}

/**
 * A browser test's preamble: the world (started with `listen: true`) and Chromium
 * (`launchChromium(chromiumArgs)`); should Chromium not start, the world is closed. `app` says how
 * `openApp` opens the app under test.
 *
 * ```ts
 * let web: WorldBrowser;
 * test.before(async () => {
 *   web = await browseWorld(startWorld({ app: APP_DIR, subdomain: 'acme', listen: true }), { link: 'Files', slug: 'files', ready: 'files-drive' });
 * });
 * test.after.always(() => web?.close());
 * const { page, frame } = await web.openApp(375);
 * ```
 */
export async function browseWorld<W extends World>(started: W | Promise<W>, app?: WorldApp, chromiumArgs: string[] = []): Promise<WorldBrowser<W>> {
  const world = await started;
  let browser: Browser;
  try {
    browser = await launchChromium(chromiumArgs);
  } catch (error) {
    await world.close();
    throw error;
  }
  const origin = world.platform.url(world.workspace.subdomain, '');
  const newPage = async (width = 1280, prepare?: (context: BrowserContext) => Promise<void>) => {
    const context = await browserContext(browser, width);
    await prepare?.(context);
    return context.newPage();
  };
  return {
    world,
    browser,
    origin,
    newPage,
    async openApp(width, options = {}) {
      if (!app) throw new Error('browseWorld was not told how to open the app (its second argument)');
      return openApp(await newPage(width, options.prepare), { ...app, origin, email: options.email ?? world.owner.email });
    },
    async close() {
      try {
        await browser.close();
      } finally {
        await world.close();
      }
    },
  };
}
