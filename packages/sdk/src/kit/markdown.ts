import { RECORD_MRN, recordText, type RichTextMark, type RichTextNode } from './rich-text.js';

/**
 * Markdown in and out of rich text (ProseMirror JSON, `RichTextNode`), and rich text as HTML,
 * shared by the apps that import or export documents (Wiki's pages, Papers). Markdown read:
 * headings, paragraphs, bullet and ordered lists and task lists (`- [ ] item`, `- [x] item`: the
 * editor's checklists), nested by indenting, GFM tables (the first row the header), fenced code,
 * quotes, rules; bold, italic, code and links (inline text is never read as a mention: `@name`
 * stays text). Written: the same, and a mention as `@Label`, a hard break as two spaces and a line
 * end, strike as `~~…~~` and an image as `![alt](src)` (underline and highlight have no Markdown:
 * their text stays). HTML: the same, a task item ticked (☑) or not (☐), a table's header row in
 * `<thead>` as column headers (spans kept), a mention as
 * `<span data-type="mention" data-id="…">@Label</span>` (the editor's own markup). An MRN chip
 * (`record`) is written `[Label](mrn:…)`, or `<mrn:…>` without a label, and both are read back as
 * one (docs/decisions, "MRN chips"); in HTML it is `<span data-type="record" data-mrn="…">Label</span>`.
 */

/** A `record` node for an MRN written as a Markdown link or autolink; null when the target is not an MRN. */
function recordOf(mrn: string, text: string): RichTextNode | null {
  if (!RECORD_MRN.test(mrn)) return null;
  return { type: 'record', attrs: text && text !== mrn ? { label: text, mrn } : { mrn } };
}

/** Inline Markdown as text nodes with marks. */
function inline(source: string, marks: RichTextMark[] = []): RichTextNode[] {
  const out: RichTextNode[] = [];
  const push = (text: string, with_: RichTextMark[]) => {
    if (!text) return;
    const last = out.at(-1);
    if (last && last.type === 'text' && JSON.stringify(last.marks ?? []) === JSON.stringify(with_)) last.text += text;
    else out.push(with_.length ? { type: 'text', text, marks: with_ } : { type: 'text', text });
  };
  /** Nodes read inside a mark: text joins the run, an MRN chip stays a node. */
  const take = (nodes: RichTextNode[]) => {
    for (const node of nodes) {
      if (node.type === 'text') push(node.text!, node.marks ?? []);
      else out.push(node);
    }
  };
  const pattern = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*]+\*|_[^_]+_)|(\[[^\]]*\]\([^)\s]+\))|(<mrn:[^>\s]+>)/;
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
    else if (match[2]) take(inline(token.slice(2, -2), [...marks, { type: 'bold' }]));
    else if (match[3]) take(inline(token.slice(1, -1), [...marks, { type: 'italic' }]));
    else if (match[5]) {
      const record = recordOf(token.slice(1, -1), '');
      if (record) out.push(record);
      else push(token, marks);
    } else {
      const link = /^\[([^\]]*)\]\(([^)\s]+)\)$/.exec(token)!;
      const record = link[2]!.startsWith('mrn:') ? recordOf(link[2]!, link[1]!) : null;
      if (record) {
        out.push(record);
        rest = rest.slice(match.index + token.length);
        continue;
      }
      take(inline(link[1]! || link[2]!, [...marks, { type: 'link', attrs: { href: link[2] } }]));
    }
    rest = rest.slice(match.index + token.length);
  }
  return out;
}

const paragraph = (text: string): RichTextNode => {
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
 * A bullet list whose every item starts `[ ]` or `[x]` is a task list (the editor's checklist).
 */
function listAt(lines: string[], start: number): { node: RichTextNode; next: number } {
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
    if (!under.length) return [];
    const cut = Math.min(...under.map(indentOf));
    return richTextFromMarkdown(under.map((line) => line.slice(cut)).join('\n')).content ?? [];
  };
  const tasks = marker === BULLET && items.every((item) => TASK.test(item.text));
  const node: RichTextNode = tasks
    ? {
        type: 'taskList',
        content: items.map((item) => {
          const task = TASK.exec(item.text)!;
          return { type: 'taskItem', attrs: { checked: task[1] !== ' ' }, content: [paragraph(task[2]!), ...blocksUnder(item.under)] };
        }),
      }
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

/**
 * The GFM table starting at `lines[start]` (a row, then the rule under the header), else null: the
 * first row is the header, every row as wide as it; a cell's `<br>` parts are its paragraphs.
 */
function tableAt(lines: string[], start: number): { node: RichTextNode; next: number } | null {
  if (!TABLE_ROW.test(lines[start]!) || !TABLE_RULE.test(lines[start + 1] ?? '') || !(lines[start + 1] ?? '').includes('-')) return null;
  const header = cellsOf(lines[start]!);
  const rows = [header];
  let index = start + 2;
  while (index < lines.length && TABLE_ROW.test(lines[index]!)) rows.push(cellsOf(lines[index++]!));
  const cell = (type: string, text: string): RichTextNode => ({ type, attrs: { colspan: 1, rowspan: 1 }, content: text.split(/<br\s*\/?>/i).map((part) => paragraph(part.trim())) });
  const node: RichTextNode = {
    type: 'table',
    content: rows.map((row, at) => ({ type: 'tableRow', content: header.map((_, column) => cell(at === 0 ? 'tableHeader' : 'tableCell', row[column] ?? '')) })),
  };
  return { node, next: index };
}

/** Markdown as a `doc` node (no Markdown: `{ type: 'doc', content: [] }`). */
export function richTextFromMarkdown(markdown: string): RichTextNode {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const content: RichTextNode[] = [];
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
      content.push({ type: 'blockquote', content: richTextFromMarkdown(quoted.join('\n')).content ?? [] });
      continue;
    }
    if (BULLET.test(line) || ORDERED.test(line)) {
      const list = listAt(lines, index);
      content.push(list.node);
      index = list.next;
      continue;
    }
    const table = tableAt(lines, index);
    if (table) {
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

/** A mention's text: `@` and its label (its id when it has none). */
const mentionText = (node: RichTextNode) => `@${String(node.attrs?.label ?? node.attrs?.id ?? '')}`;

const has = (node: RichTextNode, type: string) => (node.marks ?? []).some((mark) => mark.type === type);

/** Inline nodes back to inline Markdown. */
function inlineOut(nodes: RichTextNode[] = []): string {
  return nodes
    .map((node) => {
      if (node.type === 'hardBreak') return '  \n';
      if (node.type === 'mention') return mentionText(node);
      if (node.type === 'record') return node.attrs?.label ? `[${recordText(node).replace(/[[\]]/g, '')}](${String(node.attrs?.mrn ?? '')})` : `<${String(node.attrs?.mrn ?? '')}>`;
      if (node.type === 'image') return `![${String(node.attrs?.alt ?? '')}](${String(node.attrs?.src ?? '')})`;
      let text = node.text ?? '';
      if (has(node, 'code')) text = `\`${text}\``;
      if (has(node, 'strike')) text = `~~${text}~~`;
      if (has(node, 'italic')) text = `*${text}*`;
      if (has(node, 'bold')) text = `**${text}**`;
      const link = node.marks?.find((mark) => mark.type === 'link');
      if (link) text = `[${text}](${String(link.attrs?.href ?? '')})`;
      return text;
    })
    .join('');
}

/** A table's cell as one line of Markdown (its paragraphs joined by `<br>`, bars escaped). */
const cellOut = (cell: RichTextNode) => (cell.content ?? []).map((child) => blockOut(child).replace(/\n/g, ' ')).join('<br>').replace(/\|/g, '\\|');

/** A table as a GFM table: its first row is the header (GFM has no table without one). */
function tableOut(node: RichTextNode): string {
  const rows = (node.content ?? []).map((row) => (row.content ?? []).map(cellOut));
  const width = Math.max(1, ...rows.map((row) => row.length));
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, at) => cells[at] ?? '').join(' | ')} |`.replace(/ {2}\|/g, ' |');
  const [head = [], ...body] = rows;
  return [line(head), `|${' --- |'.repeat(width)}`, ...body.map(line)].join('\n');
}

const LISTS = new Set(['bulletList', 'orderedList', 'taskList']);

/** A list as Markdown: an item's first block on its line (its other text blocks after it), a nested list indented under it. */
function listOut(list: RichTextNode): string {
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

function blockOut(node: RichTextNode): string {
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
    case 'image':
    case 'mention':
    case 'record':
      return inlineOut([node]);
    default:
      return inlineOut(node.content);
  }
}

/** A document as Markdown (blocks apart by an empty line, ending with a line end; nothing: ''). */
export function richTextToMarkdown(doc: RichTextNode): string {
  const blocks = (doc.content ?? []).map(blockOut);
  return blocks.length ? `${blocks.join('\n\n')}\n` : '';
}

/** Escapes text for HTML (content and attribute values). */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** A link's target as it may be written in HTML: http(s), mailto, an anchor or a path; anything else (`javascript:`, `data:`) is null. */
export const safeHref = (target: string): string | null => (/^(https?:|mailto:)/i.test(target) || (!/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('//') && target !== '') ? target : null);

/**
 * A document as HTML (a fragment: one line a top-level block). `href` maps a link's target to the
 * address written (null: the text loses its link; by default `safeHref`). An image's address goes
 * through `href` too (null: its alt text is written).
 */
export function richTextToHtml(doc: RichTextNode, href: (target: string) => string | null = safeHref): string {
  const inlineHtml = (nodes: RichTextNode[] = []) =>
    nodes
      .map((node) => {
        if (node.type === 'hardBreak') return '<br>';
        if (node.type === 'mention') return `<span data-type="mention" data-id="${escapeHtml(String(node.attrs?.id ?? ''))}">${escapeHtml(mentionText(node))}</span>`;
        if (node.type === 'record') return `<span data-type="record" data-mrn="${escapeHtml(String(node.attrs?.mrn ?? ''))}">${escapeHtml(recordText(node))}</span>`;
        if (node.type === 'image') {
          const src = href(String(node.attrs?.src ?? ''));
          return src ? `<img src="${escapeHtml(src)}" alt="${escapeHtml(String(node.attrs?.alt ?? ''))}">` : escapeHtml(String(node.attrs?.alt ?? ''));
        }
        let html = escapeHtml(node.text ?? '');
        if (has(node, 'code')) html = `<code>${html}</code>`;
        if (has(node, 'highlight')) html = `<mark>${html}</mark>`;
        if (has(node, 'underline')) html = `<u>${html}</u>`;
        if (has(node, 'strike')) html = `<s>${html}</s>`;
        if (has(node, 'italic')) html = `<em>${html}</em>`;
        if (has(node, 'bold')) html = `<strong>${html}</strong>`;
        const link = node.marks?.find((mark) => mark.type === 'link');
        const target = link ? href(String(link.attrs?.href ?? '')) : null;
        if (target) html = `<a href="${escapeHtml(target)}">${html}</a>`;
        return html;
      })
      .join('');
  const children = (node: RichTextNode) => (node.content ?? []).map((child) => (child.type === 'paragraph' ? inlineHtml(child.content) : block(child))).join('');
  const block = (node: RichTextNode): string => {
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
        return `<li>${node.type === 'taskItem' ? (node.attrs?.checked ? '☑ ' : '☐ ') : ''}${children(node)}</li>`;
      case 'table': {
        const rows = node.content ?? [];
        const headed = rows.length > 0 && (rows[0]!.content ?? []).every((cell) => cell.type === 'tableHeader');
        const row = (tr: RichTextNode) => `<tr>${(tr.content ?? []).map(cellHtml).join('')}</tr>`;
        return `<table>${headed ? `<thead>${row(rows[0]!)}</thead>` : ''}<tbody>${rows.slice(headed ? 1 : 0).map(row).join('')}</tbody></table>`;
      }
      case 'image':
      case 'mention':
      case 'record':
        return `<p>${inlineHtml([node])}</p>`;
      default:
        return `<p>${inlineHtml(node.content)}</p>`;
    }
  };
  /** A cell: a header cell is a column header; its spans kept; one paragraph as its text, else its blocks. */
  const cellHtml = (cell: RichTextNode) => {
    const [tag, scope] = cell.type === 'tableHeader' ? ['th', ' scope="col"'] : ['td', ''];
    const span = (name: string) => (Number(cell.attrs?.[name] ?? 1) > 1 ? ` ${name}="${Math.min(1000, Math.trunc(Number(cell.attrs?.[name])))}"` : '');
    const blocks = cell.content ?? [];
    const inner = blocks.length === 1 && blocks[0]!.type === 'paragraph' ? inlineHtml(blocks[0]!.content) : blocks.map(block).join('');
    return `<${tag}${scope}${span('colspan')}${span('rowspan')}>${inner}</${tag}>`;
  };
  return (doc.content ?? []).map(block).join('\n');
}
