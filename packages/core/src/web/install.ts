import Inert from '@hapi/inert';
import type { Lifecycle, Request, ResponseObject, Server } from '@hapi/hapi';
import path from 'node:path';
import type { RuntimeConfig } from '../config.js';
import type { Throttle } from '../identity/index.js';
import type { Mailer } from '../mail/index.js';
import type { AppRegistry, InstallationService } from '../apps/index.js';
import { routeMeta } from '../server/index.js';
import type { WorkspaceService } from '../tenancy/index.js';
import { AppFrontEnds } from './app-files.js';
import { AssetCatalog } from './assets.js';
import { accountRoutes } from './routes/account.js';
import { fileRoutes } from './routes/files.js';
import { authRoutes } from './routes/auth.js';
import { siteRoutes } from './routes/site.js';
import { registerViews, WEB_DIR } from './views.js';
import { workspaceRoutes } from './routes/workspace.js';

/** What the web needs from the runtime. */
export interface WebDependencies {
  config: RuntimeConfig;
  workspaces: WorkspaceService;
  apps: AppRegistry;
  installations: InstallationService;
  mailer: Mailer;
  /** Identity's database-backed throttle (shared by every process): bounds the demo-request form. */
  throttle: Throttle;
}

const HTML_ERROR_HEADINGS: Record<number, string> = { 400: 'Something is missing', 401: 'Please sign in', 403: 'Not allowed', 404: 'Not found', 429: 'Too many attempts' };

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
  // One design-token stylesheet for the pages, the shell and every app: the UI kit's.
  const { kitRoot, shellFolder } = await import('@wpk/ui/build');
  const assets = new AssetCatalog(path.join(WEB_DIR, 'assets'), { 'tokens.css': path.join(kitRoot(), 'styles', 'tokens.css'), 'shell.js': path.join(await shellFolder(), 'shell.js') });
  const frontEnds = new AppFrontEnds();
  await registerViews(server, { assets, publicUrl: config.publicUrl, baseDomain: config.baseDomain });

  server.route([
    ...siteRoutes({ publicUrl: config.publicUrl, mailer: dependencies.mailer, operatorAddress: config.mailFrom, throttle: dependencies.throttle }),
    ...authRoutes({ publicUrl: config.publicUrl, workspaces, sharedCookie: config.cookieDomain.includes('.') }),
    ...workspaceRoutes({ apps, frontEnds }),
    ...accountRoutes(),
    ...fileRoutes({ assets, apps, installations: dependencies.installations, frontEnds }),
  ]);

  server.ext('onPreResponse', (request, h): Lifecycle.ReturnValue => {
    const response = request.response as ResponseObject & { isBoom?: boolean };
    if (response.isBoom) {
      if (isPage(request)) denyFraming((response as unknown as { output: { headers: Record<string, string> } }).output.headers);
      return h.continue;
    }
    const status = response.statusCode;
    // Layer 1 for a person: a signed-out navigation on a workspace goes to its sign-in page.
    if (status === 401 && request.method === 'get' && request.app.workspace && wantsHtml(request.headers.accept) && request.headers.authorization === undefined) {
      const next = `${request.path}${request.url.search}`;
      return h.redirect(`/login?next=${encodeURIComponent(next)}`).code(302).takeover();
    }
    if (status >= 400 && routeMeta(request).kind === 'page' && typeof response.source === 'object' && response.source !== null && 'error' in response.source) {
      const message = String((response.source as { error: unknown }).error);
      const view = h.view('error', { title: HTML_ERROR_HEADINGS[status] ?? 'Error', heading: HTML_ERROR_HEADINGS[status] ?? 'Something went wrong', message }).code(status).header('cache-control', 'no-store');
      denyFraming(view.headers as Record<string, string>);
      return view.takeover();
    }
    const html = (response.variety as string) === 'view' || /^text\/html\b/i.test(String(response.headers['content-type'] ?? ''));
    if (isPage(request) || (html && !request.path.startsWith('/public/apps/'))) denyFraming(response.headers as Record<string, string>);
    return h.continue;
  });
}

/**
 * True for a server-rendered page's route, the app front-ends under /public/apps/ excepted: the
 * workspace shell frames those (web/app-files.ts sends their `frame-ancestors 'self'`).
 */
function isPage(request: Request): boolean {
  return routeMeta(request).kind === 'page' && !request.path.startsWith('/public/apps/');
}

/**
 * No other site may frame a page (clickjacking): `frame-ancestors 'none'` merged into the page's
 * Content-Security-Policy, and `X-Frame-Options: DENY` for browsers that predate it. A policy that
 * already names its frame ancestors (an app's page) is left as it is.
 */
function denyFraming(headers: Record<string, string>): void {
  const key = Object.keys(headers).find((name) => name.toLowerCase() === 'content-security-policy');
  const policy = key === undefined ? '' : String(headers[key]);
  if (/(^|;)\s*frame-ancestors\b/i.test(policy)) return;
  if (key !== undefined) delete headers[key];
  headers['content-security-policy'] = policy.trim() === '' ? "frame-ancestors 'none'" : `${policy.replace(/;\s*$/, '')}; frame-ancestors 'none'`;
  headers['x-frame-options'] = 'DENY';
}
