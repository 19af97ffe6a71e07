import { css, kit } from '@wpk/ui';

export interface Space { id: string; name: string; description: string; role: string; default_role: string; publication: { page_id: string | null } | null }
export interface DocNode { type: string; attrs?: Record<string, unknown>; content?: DocNode[]; text?: string; marks?: Array<{ type: string; attrs?: Record<string, unknown> }> }
export interface PageSummary { id: string; space_id: string; parent_id: string | null; title: string; depth: number; parent_hidden: boolean; version: number; verification: string; owner_id: string | null; due_at: string | null; template: boolean }
export interface Page extends PageSummary { content: DocNode; markdown: string }
/** A page's live document (GET /wiki/pages/{id}/document). */
export interface PageDocument { page_id: string; role: string; editable: boolean; version: number; update: string }

/** A GET of the app's API, answering its data. */
export async function get<T>(path: string): Promise<T> {
  return ((await kit().client.request('GET', path, { query: { per_page: 100 } })) as { data: T }).data;
}

/** A write of the app's API, answering its data. */
export async function send<T>(method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  return ((await kit().client.request(method, path, body === undefined ? {} : { body })) as { data: T }).data;
}

/** A template page one may start a page from, with its space's name. */
export interface TemplateChoice { id: string; title: string; space: string }

/**
 * The template pages the member can see, in every space they read (record 0310: a template serves
 * any space), by space then tree order: each readable space's tree, its pages marked `template`.
 */
export async function visibleTemplates(): Promise<TemplateChoice[]> {
  const spaces = await get<Space[]>('/wiki/spaces');
  const trees = await Promise.all(spaces.map(async (space) => ({ space, pages: await get<PageSummary[]>(`/wiki/spaces/${space.id}/pages`).catch(() => [] as PageSummary[]) })));
  return trees.flatMap(({ space, pages }) => pages.filter((page) => page.template).map((page) => ({ id: page.id, title: page.title, space: space.name })));
}

/** How a verification state reads. */
export const VERIFICATION_LABELS: Record<string, string> = { unverified: 'Not verified', verified: 'Verified', due: 'Due for review', expired: 'Expired' };

/** A page id from a link target (`page:{id}`), else null. */
const pageTarget = (href: string) => /^page:([0-9a-f-]{36})$/i.exec(href)?.[1] ?? null;

/** The pages a document links to by id, once each in order, with the text of their first link. */
export function pageLinksOf(doc: DocNode): Array<{ id: string; text: string }> {
  const found = new Map<string, string>();
  const walk = (node: DocNode) => {
    const link = (node.marks ?? []).find((mark) => mark.type === 'link');
    const id = link ? pageTarget(String(link.attrs?.href ?? '')) : null;
    if (id) found.set(id, `${found.get(id) ?? ''}${node.text ?? ''}`);
    for (const child of node.content ?? []) walk(child);
  };
  walk(doc);
  return [...found].map(([id, text]) => ({ id, text: text || id }));
}

/** The screens' shared look. */
export const WIKI_STYLES = css`
  .muted { color: var(--wpk-color-text-muted); }
  ul.tree { list-style: none; padding: 0; margin: 0; }
  ul.tree li { padding: var(--wpk-space-1) 0; }
  ul.tree li.depth-1 { padding-inline-start: 1.25rem; }
  ul.tree li.depth-2 { padding-inline-start: 2.5rem; }
  ul.tree li.depth-3 { padding-inline-start: 3.75rem; }
  ul.tree li.depth-4 { padding-inline-start: 5rem; }
  ul.tree li.depth-5 { padding-inline-start: 6.25rem; }
  ul.tree li.depth-6 { padding-inline-start: 7.5rem; }
  ul.tree li.depth-7 { padding-inline-start: 8.75rem; }
  ul.tree li.depth-8 { padding-inline-start: 10rem; }
  form.inline { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: end; margin: var(--wpk-space-3) 0; }
  form.inline label { display: grid; gap: var(--wpk-space-1); font-weight: var(--wpk-font-weight-bold); }
  textarea { width: 100%; min-height: 16rem; font-family: var(--wpk-font-mono, monospace); box-sizing: border-box; }
  .badge { display: inline-block; padding: 0 var(--wpk-space-2); border-radius: 999px; border: 1px solid var(--wpk-color-border); font-size: 0.875em; }
  .with-comments { display: grid; grid-template-columns: minmax(0, 1fr) minmax(14rem, 20rem); gap: var(--wpk-space-4); align-items: start; }
  @media (max-width: 800px) { .with-comments { grid-template-columns: minmax(0, 1fr); } }
  .actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); margin: var(--wpk-space-2) 0; }
`;
