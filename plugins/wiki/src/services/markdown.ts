/**
 * Markdown in and out of the stable JSON snapshot (ProseMirror/tiptap nodes): headings, paragraphs,
 * bullet and ordered lists and checklists (`- [ ] item`, `- [x] item`), nested by indenting, GFM
 * tables (the first row the header), code blocks, quotes, rules; bold, italic, code and links.
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

const BULLET = /^(\s*)[-*+]\s+(.*)$/;
const ORDERED = /^(\s*)\d+[.)]\s+(.*)$/;
const TASK = /^\[([ xX])\]\s(.*)$/;
const indentOf = (line: string) => line.length - line.trimStart().length;

/**
 * The list starting at `lines[start]`: its items are the lines at its indent with its marker (a
 * bullet or a number); the more indented lines under an item are that item's blocks (a nested list).
 * A bullet list whose every item starts `[ ]` or `[x]` is a checklist.
 */
function listAt(lines: string[], start: number): { node: DocNode; next: number } {
  const indent = indentOf(lines[start]!);
  const marker = BULLET.test(lines[start]!) ? BULLET : ORDERED;
  const items: Array<{ text: string; under: string[] }> = [];
  let index = start;
  while (index < lines.length && lines[index]!.trim()) {
    const line = lines[index]!;
    const item = indentOf(line) === indent ? marker.exec(line) : null;
    if (item) items.push({ text: item[2]!, under: [] });
    else if (indentOf(line) > indent) items.at(-1)!.under.push(line);
    else break;
    index += 1;
  }
  const blocksUnder = (under: string[]) => {
    const cut = Math.min(...under.map(indentOf));
    return under.length ? (fromMarkdown(under.map((line) => line.slice(cut)).join('\n')).content ?? []) : [];
  };
  const tasks = marker === BULLET && items.every((item) => TASK.test(item.text));
  const node: DocNode = tasks
    ? { type: 'taskList', content: items.map((item) => { const task = TASK.exec(item.text)!; return { type: 'taskItem', attrs: { checked: task[1] !== ' ' }, content: [paragraph(task[2]!), ...blocksUnder(item.under)] }; }) }
    : { type: marker === BULLET ? 'bulletList' : 'orderedList', content: items.map((item) => ({ type: 'listItem', content: [paragraph(item.text), ...blocksUnder(item.under)] })) };
  return { node, next: index };
}

const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/** A GFM table row's cells (`\|` is a bar inside a cell). */
const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));

/** The GFM table starting at `lines[start]` (a row, then the rule under the header), else null. */
function tableAt(lines: string[], start: number): { node: DocNode; next: number } | null {
  if (!TABLE_ROW.test(lines[start]!) || !TABLE_RULE.test(lines[start + 1] ?? '') || !(lines[start + 1] ?? '').includes('-')) return null;
  const header = cellsOf(lines[start]!);
  const rows = [header];
  let index = start + 2;
  while (index < lines.length && TABLE_ROW.test(lines[index]!)) rows.push(cellsOf(lines[index++]!));
  const cell = (type: string, text: string): DocNode => ({ type, attrs: { colspan: 1, rowspan: 1 }, content: [paragraph(text)] });
  const node: DocNode = {
    type: 'table',
    content: rows.map((row, at) => ({ type: 'tableRow', content: header.map((_, column) => cell(at === 0 ? 'tableHeader' : 'tableCell', row[column] ?? '')) })),
  };
  return { node, next: index };
}

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
    if (BULLET.test(line) || ORDERED.test(line)) {
      const list = listAt(lines, index);
      content.push(list.node);
      index = list.next;
      continue;
    }
    if (tableAt(lines, index)) {
      const table = tableAt(lines, index)!;
      content.push(table.node);
      index = table.next;
      continue;
    }
    const text: string[] = [];
    while (index < lines.length && lines[index]!.trim() && !/^(#{1,6}\s|```|>|[-*+]\s|\d+[.)]\s)/.test(lines[index]!) && !tableAt(lines, index)) text.push(lines[index++]!.trim());
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
    case 'orderedList':
    case 'taskList':
      return listOut(node);
    case 'table':
      return tableOut(node);
    default:
      return inlineOut(node.content);
  }
}

const LISTS = new Set(['bulletList', 'orderedList', 'taskList']);

/** A list as Markdown: an item's first block on its line (its other text blocks after it), a nested list indented under it. */
function listOut(list: DocNode): string {
  return (list.content ?? [])
    .map((item, at) => {
      const marker = list.type === 'orderedList' ? `${at + 1}. ` : list.type === 'taskList' ? `- [${item.attrs?.checked ? 'x' : ' '}] ` : '- ';
      const pad = ' '.repeat(list.type === 'orderedList' ? marker.length : 2);
      const text: string[] = [];
      const nested: string[] = [];
      for (const child of item.content ?? []) {
        if (LISTS.has(child.type) && text.length > 0) nested.push(...listOut(child).split('\n').map((line) => `${pad}${line}`));
        else text.push(blockOut(child));
      }
      return [`${marker}${text.join(' ')}`.trimEnd(), ...nested].join('\n');
    })
    .join('\n');
}

/** A cell's text on one line, its bars escaped. */
const cellOut = (cell: DocNode) => (cell.content ?? []).map(blockOut).join(' ').replace(/\n/g, ' ').replace(/\|/g, '\\|');

/** A table as a GFM table: its first row is the header (GFM has no table without one). */
function tableOut(table: DocNode): string {
  const rows = (table.content ?? []).map((row) => (row.content ?? []).map(cellOut));
  const width = Math.max(1, ...rows.map((row) => row.length));
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, at) => cells[at] ?? '').join(' | ')} |`.replace(/ {2}\|/g, ' |');
  const [header = [], ...body] = rows;
  return [line(header), `|${' --- |'.repeat(width)}`, ...body.map(line)].join('\n');
}

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
      case 'table': {
        const rows = node.content ?? [];
        const headed = rows.length > 0 && (rows[0]!.content ?? []).every((cell) => cell.type === 'tableHeader');
        const row = (tr: DocNode) => `<tr>${(tr.content ?? []).map(cellHtml).join('')}</tr>`;
        return `<table>${headed ? `<thead>${row(rows[0]!)}</thead>` : ''}<tbody>${rows.slice(headed ? 1 : 0).map(row).join('')}</tbody></table>`;
      }
      default:
        return `<p>${inlineHtml(node.content)}</p>`;
    }
  };
  const cellHtml = (cell: DocNode) => {
    const [tag, scope] = cell.type === 'tableHeader' ? ['th', ' scope="col"'] : ['td', ''];
    const span = (name: string) => (Number(cell.attrs?.[name] ?? 1) > 1 ? ` ${name}="${Math.min(1000, Math.trunc(Number(cell.attrs?.[name])))}"` : '');
    const blocks = cell.content ?? [];
    const inner = blocks.length === 1 && blocks[0]!.type === 'paragraph' ? inlineHtml(blocks[0]!.content) : blocks.map(block).join('');
    return `<${tag}${scope}${span('colspan')}${span('rowspan')}>${inner}</${tag}>`;
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
