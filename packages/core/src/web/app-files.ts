import fs from 'node:fs';
import path from 'node:path';
import type { LoadedApp } from '../apps/index.js';

/**
 * The Content-Security-Policy of an app's page (docs/ui.md, "Where app pages run"). `sandbox`
 * without `allow-same-origin` gives the page an opaque origin: it runs without the session
 * cookie and cannot touch the shell's document, whatever its script does. It may run its own
 * scripts and styles (never inline ones), call the API and the sockets of this host with the
 * token the shell hands it, and be framed by this host only.
 */
export const APP_PAGE_CSP = [
  'sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads',
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  // Web Awesome's system icons are data: URIs it fetches.
  "connect-src 'self' data:",
  "media-src 'self' blob:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
].join('; ');

/**
 * A page a first-party app declared in `same_origin_pages` (a call's page: browsers refuse the
 * camera to an opaque origin): same rules, but no sandbox, and the shell may not frame it.
 */
export const SAME_ORIGIN_PAGE_CSP = APP_PAGE_CSP.replace(/^sandbox[^;]*; /, '');

/** An app's SVG: a picture, never a document that runs anything. */
export const APP_SVG_CSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** The folder an app declared in its manifest (`public`), or null. */
export function publicDirOf(app: LoadedApp): string | null {
  if (!app.manifest.public || !app.dir) return null;
  return path.resolve(app.dir, app.manifest.public);
}

/** The built front-end of an app, kept per app (built once per process, from the cache when it can be). */
export class AppFrontEnds {
  private readonly builds = new Map<string, Promise<string | null>>();

  /** The folder of the app's built `ui/` (index.html, assets/), or null when it has none. */
  folder(app: LoadedApp): Promise<string | null> {
    if (!app.dir) return Promise.resolve(null);
    let build = this.builds.get(app.namespace);
    if (!build) {
      const dir = app.dir;
      const hasSources = fs.existsSync(path.join(dir, 'ui', 'main.ts'));
      const hasBuilt = fs.existsSync(path.join(dir, 'dist', 'ui', 'index.html'));
      build = hasSources || hasBuilt ? import('@wpk/ui/build').then(({ appUiFolder }) => appUiFolder(dir, app.manifest.tile?.name ?? app.manifest.name)) : Promise.resolve(null);
      // A failed build is tried again on the next request (after the sources were fixed).
      build.catch(() => this.builds.delete(app.namespace));
      this.builds.set(app.namespace, build);
    }
    return build;
  }

  /** True when the app has a front-end to open in the shell (sources or a built folder). */
  has(app: LoadedApp): boolean {
    return app.dir !== null && (fs.existsSync(path.join(app.dir, 'ui', 'main.ts')) || fs.existsSync(path.join(app.dir, 'dist', 'ui', 'index.html')));
  }
}
