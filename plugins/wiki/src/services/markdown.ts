/**
 * The Wiki's side of its documents (ProseMirror/tiptap nodes); Markdown in and out and HTML are
 * the SDK's (`richTextFromMarkdown`, `richTextToMarkdown`, `richTextToHtml`). A link to a page is
 * `[text](page:{id})`: it names the page by id, so a rename never breaks it.
 */
import { InvalidError } from '@wpk/sdk';
import type { DocNode } from '../models/index.js';

/** A link target naming a page by id. */
export const PAGE_LINK = /^page:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** Every page id the document links to, once each, in order. */
export function linkedPages(doc: DocNode): string[] {
  const found = new Set<string>();
  const walk = (node: DocNode) => {
    for (const mark of node.marks ?? []) {
      const match = mark.type === 'link' ? PAGE_LINK.exec(String(mark.attrs?.href ?? '')) : null;
      if (match) found.add(match[1]!.toLowerCase());
    }
    if (node.type === 'pageLink' && typeof node.attrs?.page_id === 'string') found.add(node.attrs.page_id.toLowerCase());
    for (const child of node.content ?? []) walk(child);
  };
  walk(doc);
  return [...found];
}

/** The document's plain text (search, diffs): its texts and mentions (`@Label`), apart by a space. */
export function plainText(doc: DocNode): string {
  const parts: string[] = [];
  const walk = (node: DocNode) => {
    if (node.text) parts.push(node.text);
    if (node.type === 'mention') parts.push(`@${String(node.attrs?.label ?? node.attrs?.id ?? '')}`);
    for (const child of node.content ?? []) walk(child);
  };
  walk(doc);
  return parts.join(' ');
}

/** Checks a document's nodes (type, attrs, content, text, marks), naming the first bad one by its path. */
export function checkDoc(doc: unknown, path = 'content'): DocNode {
  let count = 0;
  const check = (node: unknown, at: string, depth: number) => {
    count += 1;
    if (count > 50_000) throw new InvalidError(`${path}: the document has more than 50000 nodes`, { field: path });
    if (depth > 50) throw new InvalidError(`${at}: nodes nest deeper than 50`, { field: at });
    if (!node || typeof node !== 'object' || Array.isArray(node)) throw new InvalidError(`${at} must be a node object`, { field: at });
    const { type, attrs, content, text, marks, ...rest } = node as Record<string, unknown>;
    const extra = Object.keys(rest)[0];
    if (extra) throw new InvalidError(`${at}.${extra} is not allowed`, { field: `${at}.${extra}` });
    if (typeof type !== 'string' || !/^[A-Za-z][A-Za-z0-9_]{0,49}$/.test(type)) throw new InvalidError(`${at}.type must be a node type name`, { field: `${at}.type` });
    if (attrs !== undefined && (attrs === null || typeof attrs !== 'object' || Array.isArray(attrs))) throw new InvalidError(`${at}.attrs must be an object`, { field: `${at}.attrs` });
    if (text !== undefined && (typeof text !== 'string' || type !== 'text')) throw new InvalidError(`${at}.text must be a string, on a text node`, { field: `${at}.text` });
    if (marks !== undefined) {
      if (!Array.isArray(marks) || marks.length > 20) throw new InvalidError(`${at}.marks must be a list of at most 20 marks`, { field: `${at}.marks` });
      marks.forEach((mark: unknown, index) => {
        if (!mark || typeof mark !== 'object' || typeof (mark as { type?: unknown }).type !== 'string') throw new InvalidError(`${at}.marks[${index}].type must be a mark type name`, { field: `${at}.marks.${index}.type` });
      });
    }
    if (content !== undefined) {
      if (!Array.isArray(content)) throw new InvalidError(`${at}.content must be a list of nodes`, { field: `${at}.content` });
      content.forEach((child, index) => check(child, `${at}.content[${index}]`, depth + 1));
    }
  };
  check(doc, path, 0);
  if ((doc as DocNode).type !== 'doc') throw new InvalidError(`${path}.type must be doc`, { field: `${path}.type` });
  return doc as DocNode;
}
