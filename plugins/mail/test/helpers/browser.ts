/** What the Mail app's Chromium tests share: the mail world in a browser, the screenshots' folder, a member's keys. */
import { fileURLToPath } from 'node:url';
import { browseWorld, type WorldBrowser } from '@wpk/testing/browser';
import { mailWorld, type World } from './world.js';

export { KEYS } from './world.js';

/** Where the screenshots docs/apps/mail.md shows are written. */
export const IMAGES = fileURLToPath(new URL('../../../../docs/apps/images/', import.meta.url));

/** The mail world (its front-end served) in Chromium, opened from the launcher's Mail tile. */
export const browseMail = (): Promise<WorldBrowser<World>> => browseWorld(mailWorld('acme', { ui: true }), { link: 'Mail', exact: true, slug: 'mail', ready: 'mail-mailbox' });
