/**
 * Markdown in and out of the stable JSON snapshot (ProseMirror/tiptap nodes): headings, paragraphs,
 * bullet and ordered lists, task items, code blocks, quotes, rules; bold, italic, code and links.
 * A link to a page is `[text](page:{id})`: it names the page by id, so a rename never breaks it.
 */
import { InvalidError } from '@wpk/sdk';
import type { DocNode } from '../models/index.js';

type Mark = NonNullable<DocNode['marks']>[number];

/** A link target naming a page by id. */
export const PAGE_LINK = /^page:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** Inline Markdown as text nodes with marks. */
export function inline(source: string, marks: Mark[] = []): DocNode[] {
  const out: DocNode[] = [];
  const push = (text: string, with_: Mark[]) => {
    if (!text) return;
    const last = out.at(-1);
    if (last && last.type === 'text' && JSON.stringify(last.marks ?? []) === JSON.stringify(with_)) last.text += text;
    else out.push(with_.length ? { type: 'text', text, marks: with_ } : { type: 'text', text });
  };
  const pattern = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*]+\*|_[^_]+_)|(\[[^\]]*\]\([^)\s]+\))/;
  let rest = source;
  while (rest.length) {
    const match = pattern.exec(rest);
    if (!match) {
      push(rest, marks);
      break;
    }
    push(rest.slice(0, match.index), marks);
    const token = match[0];
    if (match[1]) push(token.slice(1, -1), [...marks, { type: 'code' }]);
    else if (match[2]) for (const node of inline(token.slice(2, -2), [...marks, { type: 'bold' }])) push(node.text!, node.marks ?? []);
    else if (match[3]) for (const node of inline(token.slice(1, -1), [...marks, { type: 'italic' }])) push(node.text!, node.marks ?? []);
    else {
      const link = /^\[([^\]]*)\]\(([^)\s]+)\)$/.exec(token)!;
      for (const node of inline(link[1]! || link[2]!, [...marks, { type: 'link', attrs: { href: link[2] } }])) push(node.text!, node.marks ?? []);
    }
    rest = rest.slice(match.index + token.length);
  }
  return out;
}

const paragraph = (text: string): DocNode => {
  const content = inline(text);
  return content.length ? { type: 'paragraph', content } : { type: 'paragraph' };
};

/** Markdown as a document. */
export function fromMarkdown(markdown: string): DocNode {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const content: DocNode[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    if (!line.trim()) {
      index += 1;
      continue;
    }
    const fence = /^```(\S*)\s*$/.exec(line);
    if (fence) {
      const code: string[] = [];
      index += 1;
      while (index < lines.length && !/^```\s*$/.test(lines[index]!)) code.push(lines[index++]!);
      index += 1;
      const text = code.join('\n');
      content.push({ type: 'codeBlock', attrs: { language: fence[1] || null }, ...(text ? { content: [{ type: 'text', text }] } : {}) });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      content.push({ type: 'heading', attrs: { level: heading[1]!.length }, content: inline(heading[2]!.trim()) });
      index += 1;
      continue;
    }
    if (/^(-{3,}|\*{3,})\s*$/.test(line)) {
      content.push({ type: 'horizontalRule' });
      index += 1;
      continue;
    }
    if (/^>\s?/.test(line)) {
      const quoted: string[] = [];
      while (index < lines.length && /^>\s?/.test(lines[index]!)) quoted.push(lines[index++]!.replace(/^>\s?/, ''));
      content.push({ type: 'blockquote', content: fromMarkdown(quoted.join('\n')).content ?? [] });
      continue;
    }
    const bullet = /^[-*+]\s+/;
    const ordered = /^\d+[.)]\s+/;
    if (bullet.test(line) || ordered.test(line)) {
      const kind = bullet.test(line) ? bullet : ordered;
      const items: string[] = [];
      while (index < lines.length && kind.test(lines[index]!)) items.push(lines[index++]!.replace(kind, ''));
      const tasks = kind === bullet && items.every((item) => /^\[[ xX]\]\s/.test(item));
      if (tasks) content.push({ type: 'taskList', content: items.map((item) => ({ type: 'taskItem', attrs: { checked: item[1] !== ' ' }, content: [paragraph(item.slice(4))] })) });
      else content.push({ type: kind === bullet ? 'bulletList' : 'orderedList', content: items.map((item) => ({ type: 'listItem', content: [paragraph(item)] })) });
      continue;
    }
    const text: string[] = [];
    while (index < lines.length && lines[index]!.trim() && !/^(#{1,6}\s|```|>|[-*+]\s|\d+[.)]\s)/.test(lines[index]!)) text.push(lines[index++]!.trim());
    if (!text.length) text.push(lines[index++]!.trim());
    content.push(paragraph(text.join(' ')));
  }
  return { type: 'doc', content };
}

/** Text nodes back to inline Markdown. */
function inlineOut(nodes: DocNode[] = []): string {
  return nodes
    .map((node) => {
      if (node.type === 'hardBreak') return '  \n';
      let text = node.text ?? '';
      const marks = node.marks ?? [];
      if (marks.some((mark) => mark.type === 'code')) text = `\`${text}\``;
      if (marks.some((mark) => mark.type === 'italic')) text = `*${text}*`;
      if (marks.some((mark) => mark.type === 'bold')) text = `**${text}**`;
      const link = marks.find((mark) => mark.type === 'link');
      if (link) text = `[${text}](${String(link.attrs?.href ?? '')})`;
      return text;
    })
    .join('');
}

function blockOut(node: DocNode): string {
  switch (node.type) {
    case 'heading':
      return `${'#'.repeat(Number(node.attrs?.level ?? 1))} ${inlineOut(node.content)}`;
    case 'codeBlock':
      return `\`\`\`${String(node.attrs?.language ?? '')}\n${(node.content ?? []).map((text) => text.text ?? '').join('')}\n\`\`\``;
    case 'horizontalRule':
      return '---';
    case 'blockquote':
      return (node.content ?? []).map(blockOut).join('\n\n').split('\n').map((line) => `> ${line}`.trimEnd()).join('\n');
    case 'bulletList':
      return (node.content ?? []).map((item) => `- ${itemText(item)}`).join('\n');
    case 'orderedList':
      return (node.content ?? []).map((item, at) => `${at + 1}. ${itemText(item)}`).join('\n');
    case 'taskList':
      return (node.content ?? []).map((item) => `- [${item.attrs?.checked ? 'x' : ' '}] ${itemText(item)}`).join('\n');
    default:
      return inlineOut(node.content);
  }
}

const itemText = (item: DocNode) => (item.content ?? []).map(blockOut).join(' ');

/** A document as Markdown. */
export function toMarkdown(doc: DocNode): string {
  const blocks = (doc.content ?? []).map(blockOut);
  return blocks.length ? `${blocks.join('\n\n')}\n` : '';
}

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

/** The document's plain text (search, diffs). */
export function plainText(doc: DocNode): string {
  const parts: string[] = [];
  const walk = (node: DocNode) => {
    if (node.text) parts.push(node.text);
    for (const child of node.content ?? []) walk(child);
  };
  walk(doc);
  return parts.join(' ');
}

/** Escapes text for HTML. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** A document as HTML (the public site); `href` maps a link's target (a page link outside what is published loses its link). */
export function toHtml(doc: DocNode, href: (target: string) => string | null): string {
  const inlineHtml = (nodes: DocNode[] = []) =>
    nodes
      .map((node) => {
        if (node.type === 'hardBreak') return '<br>';
        let html = escapeHtml(node.text ?? '');
        const marks = node.marks ?? [];
        if (marks.some((mark) => mark.type === 'code')) html = `<code>${html}</code>`;
        if (marks.some((mark) => mark.type === 'italic')) html = `<em>${html}</em>`;
        if (marks.some((mark) => mark.type === 'bold')) html = `<strong>${html}</strong>`;
        const link = marks.find((mark) => mark.type === 'link');
        const target = link ? href(String(link.attrs?.href ?? '')) : null;
        if (target) html = `<a href="${escapeHtml(target)}">${html}</a>`;
        return html;
      })
      .join('');
  const block = (node: DocNode): string => {
    switch (node.type) {
      case 'heading': {
        const level = Math.min(6, Math.max(1, Number(node.attrs?.level ?? 1)));
        return `<h${level}>${inlineHtml(node.content)}</h${level}>`;
      }
      case 'codeBlock':
        return `<pre><code>${escapeHtml((node.content ?? []).map((text) => text.text ?? '').join(''))}</code></pre>`;
      case 'horizontalRule':
        return '<hr>';
      case 'blockquote':
        return `<blockquote>${(node.content ?? []).map(block).join('')}</blockquote>`;
      case 'bulletList':
      case 'taskList':
        return `<ul>${(node.content ?? []).map(block).join('')}</ul>`;
      case 'orderedList':
        return `<ol>${(node.content ?? []).map(block).join('')}</ol>`;
      case 'listItem':
      case 'taskItem':
        return `<li>${node.type === 'taskItem' ? (node.attrs?.checked ? '☑ ' : '☐ ') : ''}${(node.content ?? []).map((child) => (child.type === 'paragraph' ? inlineHtml(child.content) : block(child))).join('')}</li>`;
      default:
        return `<p>${inlineHtml(node.content)}</p>`;
    }
  };
  return (doc.content ?? []).map(block).join('\n');
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
