import Inert from '@hapi/inert';
import type { Lifecycle, ResponseObject, Server } from '@hapi/hapi';
import path from 'node:path';
import type { RuntimeConfig } from '../config.js';
import type { Throttle } from '../identity/index.js';
import type { Mailer } from '../mail/index.js';
import type { AppRegistry } from '../apps/index.js';
import { routeMeta } from '../server/index.js';
import type { WorkspaceService } from '../tenancy/index.js';
import { AssetCatalog, IMMUTABLE_MAX_AGE_MS } from './assets.js';
import { accountRoutes } from './routes/account.js';
import { authRoutes } from './routes/auth.js';
import { siteRoutes } from './routes/site.js';
import { registerViews, WEB_DIR } from './views.js';
import { workspaceRoutes } from './routes/workspace.js';

/** What the web needs from the runtime. */
export interface WebDependencies {
  config: RuntimeConfig;
  workspaces: WorkspaceService;
  apps: AppRegistry;
  mailer: Mailer;
  /** Identity's database-backed throttle (shared by every process): bounds the demo-request form. */
  throttle: Throttle;
}

const HTML_ERROR_HEADINGS: Record<number, string> = { 400: 'Something is missing', 401: 'Please sign in', 403: 'Not allowed', 404: 'Not found', 429: 'Too many attempts' };

/** The folder an app declared in its manifest (`public`) for `/public/apps/{slug}/*`, or null. */
function publicDirOf(apps: AppRegistry, slug: string): string | null {
  const app = apps.list().find((candidate) => candidate.namespace === slug);
  if (!app?.manifest.public || !app.dir) return null;
  return path.resolve(app.dir, app.manifest.public);
}

/** True for a browser navigation: it asks for HTML first, as a typed URL or a followed link does. */
function wantsHtml(accept: unknown): boolean {
  return typeof accept === 'string' && accept.trim().toLowerCase().startsWith('text/html');
}

/**
 * Installs the web: @hapi/vision (Handlebars) and @hapi/inert, the site pages of the base domain,
 * the sign-in flows, the workspace shell and admin screens with their `/partials/*`, fingerprinted
 * `/assets/*`, each app's declared public files under `/public/apps/{app}/*`, and two answers
 * for browsers: a signed-out navigation goes to `/login?next=...` (an API client keeps its 401
 * JSON), and a page's failure is an HTML page with the same status.
 */
export async function installWeb(server: Server, dependencies: WebDependencies): Promise<void> {
  const { config, workspaces, apps } = dependencies;
  await server.register(Inert);
  const assets = new AssetCatalog(path.join(WEB_DIR, 'assets'));
  await registerViews(server, { assets, publicUrl: config.publicUrl, baseDomain: config.baseDomain });

  server.route([
    ...siteRoutes({ publicUrl: config.publicUrl, mailer: () => dependencies.mailer, operatorAddress: config.mailFrom, throttle: dependencies.throttle }),
    ...authRoutes({ publicUrl: config.publicUrl, workspaces, sharedCookie: config.cookieDomain.includes('.') }),
    ...workspaceRoutes({ apps }),
    ...accountRoutes(),
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
  ]);

  server.ext('onPreResponse', (request, h): Lifecycle.ReturnValue => {
    const response = request.response as ResponseObject & { isBoom?: boolean };
    if (response.isBoom) return h.continue;
    const status = response.statusCode;
    // Layer 1 for a person: a signed-out navigation on a workspace goes to its sign-in page.
    if (status === 401 && request.method === 'get' && request.app.workspace && wantsHtml(request.headers.accept) && request.headers.authorization === undefined) {
      const next = `${request.path}${request.url.search}`;
      return h.redirect(`/login?next=${encodeURIComponent(next)}`).code(302).takeover();
    }
    if (status >= 400 && routeMeta(request).kind === 'page' && typeof response.source === 'object' && response.source !== null && 'error' in response.source) {
      const message = String((response.source as { error: unknown }).error);
      return h.view('error', { title: HTML_ERROR_HEADINGS[status] ?? 'Error', heading: HTML_ERROR_HEADINGS[status] ?? 'Something went wrong', message }).code(status).header('cache-control', 'no-store').takeover();
    }
    return h.continue;
  });
}
