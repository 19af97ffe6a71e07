import type { ServerRoute } from '@hapi/hapi';
import path from 'node:path';
import type { AppRegistry } from '../../apps/index.js';
import { IMMUTABLE_MAX_AGE_MS, type AssetCatalog } from '../assets.js';
import { WEB_DIR } from '../views.js';

/** The folder an app declared in its manifest (`public`) for `/public/apps/{slug}/*`, or null. */
function publicDirOf(apps: AppRegistry, slug: string): string | null {
  const app = apps.list().find((candidate) => candidate.namespace === slug);
  if (!app?.manifest.public || !app.dir) return null;
  return path.resolve(app.dir, app.manifest.public);
}

/**
 * Files the web serves as they are: fingerprinted `/assets/*` (cached for good), the site's
 * `/public/*`, and each app's declared public folder under `/public/apps/{app}/*`.
 */
export function fileRoutes(options: { assets: AssetCatalog; apps: AppRegistry }): ServerRoute[] {
  const { assets, apps } = options;
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
      handler: (request, h) => {
        const dir = publicDirOf(apps, String(request.params.app));
        if (!dir) return h.response({ error: `No app ${String(request.params.app).slice(0, 100)} with public files` }).code(404);
        // inert confines the file to the app's declared folder: no `..` escapes it.
        return h.file(String(request.params.file ?? ''), { confine: dir }).header('cache-control', 'public, max-age=3600');
      },
    },
  ];
}
