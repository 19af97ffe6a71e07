/** What the Calls app's Chromium tests share: the app in a browser with a fake camera and microphone, and the call's state on a join page. */
import { fileURLToPath } from 'node:url';
import { startWorld } from '@wpk/testing';
import { browseWorld, FAKE_MEDIA_ARGS, type Page, type WorldBrowser } from '@wpk/testing/browser';
import { MEMBER_KEYS } from './world.js';

/** Where the screenshots docs/apps/calls.md shows are written (UPDATE_SCREENSHOTS=1). */
export const IMAGES = fileURLToPath(new URL('../../../../docs/apps/images/', import.meta.url));

/** The app, loaded from its folder, in workspace `acme` (listening), opened from the launcher's Calls tile; Chromium with fake media. */
export function browseCalls(): Promise<WorldBrowser> {
  return browseWorld(startWorld({ app: fileURLToPath(new URL('../..', import.meta.url)), subdomain: 'acme', listen: true, memberKeys: MEMBER_KEYS }), { link: 'Calls', exact: true, slug: 'calls', ready: 'calls-list' }, FAKE_MEDIA_ARGS);
}

/** The call component's state on a join page (window.wpkCall). */
export const callState = (page: Page) => page.evaluate(() => (globalThis as any).wpkCall as { phase: string; connections: Record<string, string>; recording: string | null; error: string | null });
