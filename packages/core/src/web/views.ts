import Vision from '@hapi/vision';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import Handlebars from 'handlebars';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { publicOrigin } from '../tenancy/index.js';
import { API_VERSIONS } from '../server/index.js';
import type { AssetCatalog } from './assets.js';

/** The parts of `GET /me` the shell's context takes. */
interface ShellMe {
  member: { id: string; name: string; email: string };
  workspace: { id: string; subdomain: string; name: string };
  platform_role: string;
}

/**
 * Where the web's files live: templates/ (layouts/, partials/) and assets/. The package's web/
 * folder: two levels up from this source file, one up from the published bundle (dist/index.js).
 */
export const WEB_DIR = [new URL('../../web', import.meta.url), new URL('../web', import.meta.url)].map((url) => fileURLToPath(url)).find((dir) => fs.existsSync(path.join(dir, 'templates'))) ?? fileURLToPath(new URL('../../web', import.meta.url));

/** The product name pages show. */
export const SITE_NAME = 'Workspace Platform';

/**
 * Registers @hapi/vision with Handlebars: `{{...}}` escapes HTML, `{{{content}}}` only in the
 * layout. Every view gets the site's name, the base domain's URL and the request's workspace.
 */
export async function registerViews(server: Server, options: { assets: AssetCatalog; publicUrl: string; baseDomain: string }): Promise<void> {
  await server.register(Vision);
  const engine = Handlebars.create();
  engine.registerHelper('asset', (name: string) => options.assets.url(name));
  engine.registerHelper('concat', (...parts: unknown[]) => parts.slice(0, -1).join(''));
  engine.registerHelper('eq', (a: unknown, b: unknown) => a === b);
  engine.registerHelper('includes', (list: unknown, value: unknown) => Array.isArray(list) && list.includes(value));
  // What the shell's script reads (docs/ui.md): JSON in a data block, `<` escaped so no text ends the block.
  engine.registerHelper('shellContext', (me: ShellMe | undefined, app: { slug: string; name: string } | undefined) => {
    if (!me) return '';
    const context = {
      apiVersion: API_VERSIONS[API_VERSIONS.length - 1].date,
      member: { id: me.member.id, name: me.member.name, email: me.member.email, platform_role: me.platform_role },
      workspace: me.workspace,
      app: app ? { slug: app.slug, name: app.name } : null,
      apps: null,
    };
    return new Handlebars.SafeString(JSON.stringify(context).replace(/</g, '\\u003c'));
  });
  server.views({
    engines: { hbs: engine },
    relativeTo: WEB_DIR,
    path: 'templates',
    partialsPath: 'templates/partials',
    layoutPath: 'templates/layouts',
    layout: true,
    isCached: true,
    context: (request: Request) => ({
      siteName: SITE_NAME,
      baseDomain: options.baseDomain,
      siteUrl: publicOrigin(options.publicUrl, null),
      workspace: request.app.workspace ? { id: request.app.workspace.id, name: request.app.workspace.name, subdomain: request.app.workspace.subdomain } : null,
    }),
  });
}

/** Renders a page, optionally with a status other than 200. */
export function page(h: ResponseToolkit, template: string, context: object, status = 200) {
  return h.view(template, context).code(status).header('cache-control', 'no-store');
}

/** Renders a fragment (no layout) for `/partials/*`. */
export function fragment(h: ResponseToolkit, template: string, context: object, status = 200) {
  return h.view(template, context, { layout: false }).code(status).header('cache-control', 'no-store');
}
