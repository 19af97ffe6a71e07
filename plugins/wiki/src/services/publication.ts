/**
 * Publishing a space, or one page's subtree, read-only on the workspace's site: public routes
 * answer its pages without a credential, and nothing else. A restricted page (and what it rules)
 * is never published; a link to a page outside what is published loses its link.
 */
import { escapeHtml, NotFoundError, richTextToHtml } from '@wpk/sdk';
import type { AnyCtx, Ctx } from '../kit.js';
import type { Page, Space } from '../models/index.js';
import { pagesOf, requireSpace, ruleOf } from './access.js';
import { PAGE_LINK } from './markdown.js';
import { subtreeOf } from './pages.js';
import { presentSpace } from './spaces.js';

/** A published page's public address (the site page that shows it). */
export const siteUrl = (pageId: string) => `/public/apps/wiki/site.html?page=${pageId}`;

/** The pages a space publishes, in tree order (none when it is not published). */
export function publishedPages(space: Space, byId: Map<string, Page>): Page[] {
  if (!space.published) return [];
  const roots = space.published_page_id ? [space.published_page_id] : [...byId.values()].filter((page) => page.parent_id === null).sort((a, b) => (a.position < b.position ? -1 : 1)).map((page) => page.id);
  return roots.flatMap((id) => subtreeOf(id, byId)).filter((page) => ruleOf(page, byId) === null);
}

/** Publishes the space, or the subtree of page_id (admins): emits page.published. */
export async function publish(ctx: Ctx, spaceId: string, input: { page_id?: string | null }) {
  const { space, role } = await requireSpace(ctx, spaceId, 'admin', 'update');
  const byId = await pagesOf(ctx, space.id);
  const root = input.page_id ? byId.get(input.page_id.toLowerCase()) : null;
  if (input.page_id && !root) throw new NotFoundError(`Page ${input.page_id} not found in space ${space.name}`);
  const changes = { published: true, published_page_id: root?.id ?? null, published_at: ctx.now() };
  await ctx.db.spaces.update({ ...changes, revision: space.revision + 1 }, { where: { id: space.id } });
  const updated = { ...space, ...changes, revision: space.revision + 1 };
  const pages = publishedPages(updated, byId);
  ctx.events.stage('core.wiki.page.published', { space_id: space.id, page_id: changes.published_page_id, page_ids: pages.map((page) => page.id), by: ctx.member.mrn });
  return { ...presentSpace(updated, role), published_pages: pages.length };
}

/** Takes the space off the site (admins): emits page.unpublished. */
export async function unpublish(ctx: Ctx, spaceId: string) {
  const { space, role } = await requireSpace(ctx, spaceId, 'admin', 'update');
  if (!space.published) throw new NotFoundError(`Space ${space.name} is not published`);
  const byId = await pagesOf(ctx, space.id);
  const before = publishedPages(space, byId);
  const changes = { published: false, published_page_id: null, published_at: null };
  await ctx.db.spaces.update({ ...changes, revision: space.revision + 1 }, { where: { id: space.id } });
  ctx.events.stage('core.wiki.page.unpublished', { space_id: space.id, page_id: space.published_page_id, page_ids: before.map((page) => page.id), by: ctx.member.mrn });
  return { ...presentSpace({ ...space, ...changes, revision: space.revision + 1 }, role), published_pages: 0 };
}

/** Every published page of the workspace by id, with its space. */
async function site(ctx: AnyCtx) {
  const spaces = await ctx.db.spaces.findAll({ where: { published: true }, order: [['name', 'ASC'], ['id', 'ASC']] });
  const out: Array<{ space: Space; pages: Page[]; byId: Map<string, Page> }> = [];
  for (const space of spaces) {
    const byId = await pagesOf(ctx, space.id);
    out.push({ space, pages: publishedPages(space, byId), byId });
  }
  return out;
}

/** The site's index: each published space with its pages in tree order. */
export async function siteIndex(ctx: AnyCtx) {
  return {
    workspace: ctx.workspace.name,
    spaces: (await site(ctx)).map(({ space, pages, byId }) => {
      const published = new Set(pages.map((page) => page.id));
      const depth = (page: Page) => {
        let count = 0;
        for (let at = page.parent_id ? byId.get(page.parent_id) : undefined; at && published.has(at.id); at = at.parent_id ? byId.get(at.parent_id) : undefined) count += 1;
        return count;
      };
      return { id: space.id, name: space.name, description: space.description, pages: pages.map((page) => ({ id: page.id, title: page.title, depth: depth(page), url: siteUrl(page.id) })) };
    }),
  };
}

/** A published page as the site shows it (404 for anything not published). */
export async function sitePage(ctx: AnyCtx, pageId: string) {
  for (const { space, pages, byId } of await site(ctx)) {
    const page = pages.find((row) => row.id === pageId.toLowerCase());
    if (!page) continue;
    const published = new Set(pages.map((row) => row.id));
    const href = (target: string) => {
      const match = PAGE_LINK.exec(target);
      if (match) return published.has(match[1]!.toLowerCase()) ? siteUrl(match[1]!.toLowerCase()) : null;
      return /^(https?:|mailto:)/i.test(target) ? target : null;
    };
    const trail: Array<{ id: string; title: string; url: string }> = [];
    for (let at = page.parent_id ? byId.get(page.parent_id) : undefined; at && published.has(at.id); at = at.parent_id ? byId.get(at.parent_id) : undefined) trail.unshift({ id: at.id, title: at.title, url: siteUrl(at.id) });
    const children = pages.filter((row) => row.parent_id === page.id).map((row) => ({ id: row.id, title: row.title, url: siteUrl(row.id) }));
    return { id: page.id, title: page.title, space: { id: space.id, name: space.name }, html: richTextToHtml(page.content, href), breadcrumbs: trail, children, updated_at: page.updated_at };
  }
  throw new NotFoundError(`Page ${pageId} is not published`);
}

/** The sitemap of the published pages (absolute addresses on the workspace's host). */
export async function sitemap(ctx: AnyCtx) {
  const origin = ctx.workspace.origin;
  const urls = (await site(ctx)).flatMap(({ pages }) => pages.map((page) => `  <url><loc>${escapeHtml(origin + siteUrl(page.id))}</loc><lastmod>${page.updated_at.toISOString()}</lastmod></url>`));
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}${urls.length ? '\n' : ''}</urlset>\n`;
}
