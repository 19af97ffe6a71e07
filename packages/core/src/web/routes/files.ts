import type { ResponseObject, ServerRoute } from '@hapi/hapi';
import fs from 'node:fs';
import path from 'node:path';
import { isInstalled } from '../../access/index.js';
import type { AppRegistry, InstallationService } from '../../apps/index.js';
import { APP_PAGE_CSP, APP_SVG_CSP, publicDirOf, SAME_ORIGIN_PAGE_CSP, type AppFrontEnds } from '../app-files.js';
import { IMMUTABLE_MAX_AGE_MS, type AssetCatalog } from '../assets.js';
import { WEB_DIR } from '../views.js';

const noSuchFile = (app: string) => ({ error: `No app ${app.slice(0, 100)} with public files` });

/** Inside `dir`, never above it (inert confines it too; this keeps the choice of folder honest). */
function within(dir: string, file: string): string | null {
  const full = path.resolve(dir, file);
  return full === dir || full.startsWith(dir + path.sep) ? full : null;
}

/**
 * Files the web serves as they are: fingerprinted `/assets/*` (cached for good), the site's
 * `/public/*`, and each app's files under `/public/apps/{app}/*`: its built front-end (`index.html`
 * and the fingerprinted `assets/`) and its declared public folder, only on a workspace where the
 * app is installed. App HTML and SVG always carry a Content-Security-Policy `sandbox`.
 */
export function fileRoutes(options: { assets: AssetCatalog; apps: AppRegistry; installations: InstallationService; frontEnds: AppFrontEnds }): ServerRoute[] {
  const { assets, apps, installations, frontEnds } = options;
  return [
    {
      method: 'GET',
      path: '/assets/{file}',
      options: { auth: false, app: { wpk: { kind: 'system', scope: 'any' } } },
      handler: (request, h) => {
        const asset = assets.served(String(request.params.file));
        if (!asset) return h.response({ error: `No asset ${String(request.params.file).slice(0, 100)}` }).code(404);
        return h.file(asset.file, { confine: false, etagMethod: false }).header('cache-control', `public, max-age=${IMMUTABLE_MAX_AGE_MS / 1000}, immutable`);
      },
    },
    {
      method: 'GET',
      path: '/public/{file*}',
      options: { auth: false, app: { wpk: { kind: 'system', scope: 'any' } } },
      handler: { directory: { path: path.join(WEB_DIR, 'public'), index: false, listing: false, redirectToSlash: false, showHidden: false } },
    },
    {
      method: 'GET',
      path: '/public/apps/{app}/{file*}',
      options: { auth: false, app: { wpk: { kind: 'system', scope: 'any' } } },
      handler: async (request, h) => {
        const slug = String(request.params.app);
        const app = apps.list().find((candidate) => candidate.namespace === slug);
        const workspace = request.app.workspace;
        // Nothing of an app that is not installed here (nor on the base domain, which has no apps).
        if (!app || !workspace || !isInstalled(await installations.find(workspace.id, app.namespace))) return h.response(noSuchFile(slug)).code(404);
        const file = String(request.params.file ?? '') || 'index.html';
        const built = await frontEnds.folder(app);
        const publicDir = publicDirOf(app);
        // A first-party app's same-origin page that its public folder does not hold is its built
        // front-end, top-level on the workspace's origin (Calls' join.html: the camera).
        const listed = app.firstParty && (app.manifest.same_origin_pages ?? []).includes(file);
        const builtPage = Boolean(built && listed && !(publicDir && fs.existsSync(within(publicDir, file) ?? '')));
        const fromBuild = built && (file === 'index.html' || file.startsWith('assets/')) ? within(built, file) : builtPage ? within(built!, 'index.html') : null;
        let response: ResponseObject;
        let cache = 'public, max-age=3600';
        if (fromBuild && fs.existsSync(fromBuild)) {
          const served = builtPage ? 'index.html' : file;
          response = h.file(served, { confine: built!, etagMethod: served === 'index.html' ? 'hash' : false });
          // Fingerprinted names never change content; the small unhashed index.html is checked each time.
          cache = served === 'index.html' ? 'no-cache' : `public, max-age=${IMMUTABLE_MAX_AGE_MS / 1000}, immutable`;
        } else if (publicDir) {
          // inert confines the file to the app's declared folder: no `..` escapes it.
          response = h.file(file, { confine: publicDir });
        } else {
          return h.response(noSuchFile(slug)).code(404);
        }
        response.header('cache-control', cache);
        response.header('x-content-type-options', 'nosniff');
        // The app's pages run in an opaque origin: their module scripts and fonts are cross-origin loads.
        response.header('access-control-allow-origin', '*');
        if (/\.html?$/i.test(file)) {
          const sameOrigin = listed && (!fromBuild || builtPage);
          response.header('content-security-policy', sameOrigin ? SAME_ORIGIN_PAGE_CSP : APP_PAGE_CSP);
        } else if (/\.svgz?$/i.test(file)) {
          response.header('content-security-policy', APP_SVG_CSP);
        }
        return response;
      },
    },
  ];
}
