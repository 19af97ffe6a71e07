/** Markdown export and import of a whole space: one file per page, folders for the tree. */
import { fileNameOf as fileName, InvalidError, richTextFromMarkdown, richTextToMarkdown } from '@wpk/sdk';
import type { Ctx } from '../kit.js';
import type { DocNode, Page } from '../models/index.js';
import { pagesOf, requireSpace, sees } from './access.js';
import { createPage, subtreeOf, updatePage } from './pages.js';


/**
 * The pages the caller sees as Markdown files, in tree order: `Parent/Child.md` (a page with
 * children is also the folder of its children). Links between pages stay `page:{id}`.
 */
export async function exportSpace(ctx: Ctx, spaceId: string) {
  const { space, role } = await requireSpace(ctx, spaceId, 'view');
  const byId = await pagesOf(ctx, space.id);
  const files: Array<{ path: string; page_id: string; title: string; markdown: string }> = [];
  const used = new Set<string>();
  const walk = (page: Page, folder: string) => {
    if (!sees(ctx.member.id, role, page, byId)) return;
    let name = fileName(page.title);
    for (let n = 2; used.has(`${folder}${name}`.toLowerCase()); n += 1) name = `${fileName(page.title)} (${n})`;
    used.add(`${folder}${name}`.toLowerCase());
    files.push({ path: `${folder}${name}.md`, page_id: page.id, title: page.title, markdown: richTextToMarkdown(page.content) });
    for (const child of subtreeOf(page.id, byId).filter((row) => row.parent_id === page.id)) walk(child, `${folder}${name}/`);
  };
  for (const root of [...byId.values()].filter((page) => page.parent_id === null).sort((a, b) => (a.position < b.position ? -1 : 1))) walk(root, '');
  return { space_id: space.id, name: space.name, files };
}

/**
 * Imports Markdown files into a space (editors): `A/B.md` becomes page B under page A (made
 * empty when no `A.md` is given), under parent_id when given. A link to another imported file
 * (`[text](A/B.md)`, relative to the file) becomes a link to its page by id. One page.created each.
 */
export async function importSpace(ctx: Ctx, spaceId: string, input: { parent_id?: string | null; files: Array<{ path: string; markdown: string }> }) {
  await requireSpace(ctx, spaceId, 'edit');
  const seen = new Set<string>();
  const files = input.files.map((file, at) => {
    const path = file.path.replace(/^\.?\/+/, '').replace(/\.md$/i, '');
    const parts = path.split('/').map((part) => part.trim());
    if (!path || parts.some((part) => !part || part === '.' || part === '..')) throw new InvalidError(`files[${at}].path: ${file.path} is not a relative path of a .md file`, { field: `files.${at}.path` });
    if (seen.has(parts.join('/').toLowerCase())) throw new InvalidError(`files[${at}].path: ${file.path} is given twice`, { field: `files.${at}.path` });
    seen.add(parts.join('/').toLowerCase());
    return { parts, markdown: file.markdown };
  });
  const made = new Map<string, { id: string; version: number; title: string }>();
  const ensure = async (parts: string[], markdown: string): Promise<string> => {
    const key = parts.join('/').toLowerCase();
    const existing = made.get(key);
    if (existing) return existing.id;
    const parentId = parts.length > 1 ? await ensure(parts.slice(0, -1), files.find((file) => file.parts.join('/').toLowerCase() === parts.slice(0, -1).join('/').toLowerCase())?.markdown ?? '') : (input.parent_id ?? null);
    const page = await createPage(ctx, spaceId, { title: parts.at(-1)!.slice(0, 300), parent_id: parentId, markdown });
    made.set(key, { id: page.id, version: page.version, title: page.title });
    return page.id;
  };
  for (const file of [...files].sort((a, b) => a.parts.length - b.parts.length)) await ensure(file.parts, file.markdown);
  // Links to imported files, relative to the linking file, become links by id.
  for (const file of files) {
    const doc = richTextFromMarkdown(file.markdown) as DocNode;
    let changed = false;
    const walk = (node: DocNode) => {
      for (const mark of node.marks ?? []) {
        const href = String(mark.attrs?.href ?? '');
        if (mark.type !== 'link' || /^[a-z]+:/i.test(href) || !/\.md$/i.test(href)) continue;
        const target = [...file.parts.slice(0, -1), ...decodeURI(href).replace(/\.md$/i, '').split('/')].reduce<string[]>((path, part) => (part === '..' ? path.slice(0, -1) : part === '.' ? path : [...path, part]), []);
        const page = made.get(target.join('/').toLowerCase());
        if (page) {
          mark.attrs = { href: `page:${page.id}` };
          changed = true;
        }
      }
      for (const child of node.content ?? []) walk(child);
    };
    walk(doc);
    if (changed) {
      const page = made.get(file.parts.join('/').toLowerCase())!;
      await updatePage(ctx, page.id, { version: page.version, content: doc });
    }
  }
  return { space_id: spaceId, pages: [...made.values()].map((page) => ({ id: page.id, title: page.title })) };
}
