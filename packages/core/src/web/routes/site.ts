import type { ServerRoute } from '@hapi/hapi';
import { Joi, TooManyRequestsError } from '@wpk/sdk';
import type { Throttle, ThrottleRule } from '../../identity/index.js';
import type { Mailer } from '../../mail/index.js';
import { clientAddressOf } from '../../server/index.js';
import { publicOrigin } from '../../tenancy/index.js';
import { blankForm, formValues, type FormState } from '../forms.js';
import { page } from '../views.js';

/** The site's informational pages: path → title and text. */
const INFO_PAGES: Record<string, { title: string; paragraphs: string[] }> = {
  '/pricing': { title: 'Pricing', paragraphs: ['Every workspace starts on the free plan. Paid plans add seats and apps; you can change plan or billing interval at any time.'] },
  '/about': { title: 'About', paragraphs: ['The Workspace Platform Kit is an open-source kit for running a multi-tenant workspace platform made of apps.'] },
  '/privacy': { title: 'Privacy', paragraphs: ['We keep the data your workspace stores, and the records needed to run and secure it (sign-ins, admin actions). We do not sell it. Ask the operator of this site to export or delete your data.'] },
  '/terms': { title: 'Terms', paragraphs: ['Use this service lawfully and do not try to reach data that is not yours. The operator may suspend a workspace that breaks these terms.'] },
};

/** The public pages listed in sitemap.xml. */
export const SITEMAP_PATHS = ['/', '/pricing', '/about', '/privacy', '/terms', '/signup', '/login'];

const CONTACT = Joi.object({
  name: Joi.string().trim().min(1).max(200).required(),
  email: Joi.string().trim().lowercase().max(254).email({ tlds: { allow: false } }).required(),
  message: Joi.string().trim().min(1).max(5000).required(),
});

/**
 * Demo requests per client address: each one mails the operator, so a script posting the form
 * in a loop is refused (429) after a few, before any mail is sent.
 */
export const DEMO_REQUESTS: ThrottleRule = { name: 'demo-request', limit: 5, windowSeconds: 3600, message: 'Too many demo requests from this address; try again in an hour' };

/** Checks the demo-request form; its errors sit beside their fields. */
function checkContact(values: Record<string, string>): { form: FormState; value?: { name: string; email: string; message: string } } {
  const result = CONTACT.validate(values, { abortEarly: false, errors: { wrap: { label: false } } });
  if (!result.error) return { form: blankForm(), value: result.value };
  const errors: Record<string, string> = {};
  for (const detail of result.error.details) errors[String(detail.path[0])] ??= detail.message;
  return { form: { values, errors, error: null } };
}

/**
 * Pages of the base domain: home (with the demo-request form, `POST /`), pricing, about, privacy,
 * terms, robots.txt, sitemap.xml and the app-association documents under /.well-known/.
 */
export function siteRoutes(options: { publicUrl: string; mailer: Mailer; operatorAddress: string; throttle: Throttle }): ServerRoute[] {
  const site = publicOrigin(options.publicUrl, null);
  const pageMeta = { wpk: { kind: 'page' as const, scope: 'platform' as const } };
  return [
    ...Object.entries(INFO_PAGES).map(([path, info]): ServerRoute => ({
      method: 'GET',
      path,
      options: { auth: false, app: pageMeta },
      handler: (_request, h) => page(h, 'info', info),
    })),
    {
      method: 'POST',
      path: '/',
      options: { auth: false, app: { wpk: { kind: 'page', scope: 'platform', contentTypes: ['application/x-www-form-urlencoded'] } }, payload: { maxBytes: 16 * 1024 } },
      handler: async (request, h) => {
        const checked = checkContact(formValues(request.payload, ['name', 'email', 'message']));
        if (!checked.value) return page(h, 'home', { title: 'Home', form: checked.form }, 400);
        try {
          // Only requests that would send a mail count: a mistyped form costs nothing.
          await options.throttle.count(DEMO_REQUESTS, clientAddressOf(request) || 'unknown');
        } catch (error) {
          if (!(error instanceof TooManyRequestsError)) throw error;
          const form = { ...checked.form, values: formValues(request.payload, ['name', 'email', 'message']), error: error.message };
          return page(h, 'home', { title: 'Home', form }, 429).header('retry-after', error.headers['Retry-After'] ?? String(DEMO_REQUESTS.windowSeconds));
        }
        const { name, email, message } = checked.value;
        // Only ever to the operator: the form cannot make the platform mail anyone else.
        await options.mailer.send({ to: options.operatorAddress, subject: `Demo request from ${name}`, text: `From: ${name} <${email}>\n\n${message}\n` });
        return page(h, 'home', { title: 'Home', form: blankForm(), sent: true });
      },
    },
    {
      method: 'GET',
      path: '/robots.txt',
      options: { auth: false, app: { wpk: { kind: 'page', scope: 'any' } } },
      handler: (request, h) => {
        // Workspaces are private: only the base domain's public pages are for crawlers.
        const body = request.app.workspace ? 'User-agent: *\nDisallow: /\n' : `User-agent: *\nDisallow: /partials/\nDisallow: /verify\nDisallow: /invitations/\nDisallow: /password-resets/\nSitemap: ${site}/sitemap.xml\n`;
        return h.response(body).type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600');
      },
    },
    {
      method: 'GET',
      path: '/sitemap.xml',
      options: { auth: false, app: pageMeta },
      handler: (_request, h) => {
        const urls = SITEMAP_PATHS.map((path) => `  <url><loc>${site}${path === '/' ? '/' : path}</loc></url>`).join('\n');
        return h.response(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`).type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=3600');
      },
    },
    {
      method: 'GET',
      path: '/.well-known/apple-app-site-association',
      options: { auth: false, app: { wpk: { kind: 'system', scope: 'any' } } },
      // No native app is associated yet: an empty, valid document (docs/decisions/0091-web-site.md).
      handler: (_request, h) => h.response({ applinks: { details: [] }, webcredentials: { apps: [] } }).type('application/json').header('cache-control', 'public, max-age=3600'),
    },
    {
      method: 'GET',
      path: '/.well-known/assetlinks.json',
      options: { auth: false, app: { wpk: { kind: 'system', scope: 'any' } } },
      handler: (_request, h) => h.response([]).type('application/json').header('cache-control', 'public, max-age=3600'),
    },
  ];
}
