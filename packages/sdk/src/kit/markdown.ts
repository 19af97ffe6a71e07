import type { RichTextMark, RichTextNode } from './rich-text.js';

/**
 * Markdown in and out of rich text (ProseMirror JSON, `RichTextNode`), and rich text as HTML,
 * shared by the apps that import or export documents (Wiki's pages, Papers). Markdown read:
 * headings, paragraphs, bullet, ordered and task lists, fenced code, quotes, rules; bold, italic,
 * code and links (inline text is never read as a mention: `@name` stays text). Written: the same,
 * and a mention as `@Label`, a hard break as two spaces and a line end, strike as `~~…~~`, an
 * image as `![alt](src)` and a table as a GitHub table (underline and highlight have no Markdown:
 * their text stays). HTML: the same with a mention as
 * `<span data-type="mention" data-id="…">@Label</span>` (the editor's own markup).
 */

/** Inline Markdown as text nodes with marks. */
function inline(source: string, marks: RichTextMark[] = []): RichTextNode[] {
  const out: RichTextNode[] = [];
  const push = (text: string, with_: RichTextMark[]) => {
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

const paragraph = (text: string): RichTextNode => {
  const content = inline(text);
  return content.length ? { type: 'paragraph', content } : { type: 'paragraph' };
};

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

/** A mention's text: `@` and its label (its id when it has none). */
const mentionText = (node: RichTextNode) => `@${String(node.attrs?.label ?? node.attrs?.id ?? '')}`;

const has = (node: RichTextNode, type: string) => (node.marks ?? []).some((mark) => mark.type === type);

/** Inline nodes back to inline Markdown. */
function inlineOut(nodes: RichTextNode[] = []): string {
  return nodes
    .map((node) => {
      if (node.type === 'hardBreak') return '  \n';
      if (node.type === 'mention') return mentionText(node);
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

/** A table's cell as one line of Markdown (its paragraphs joined by `<br>`, pipes escaped). */
const cellOut = (cell: RichTextNode) => (cell.content ?? []).map((child) => blockOut(child).replace(/\n/g, ' ')).join('<br>').replace(/\|/g, '\\|');

function tableOut(node: RichTextNode): string {
  const rows = (node.content ?? []).map((row) => (row.content ?? []).map(cellOut));
  const width = Math.max(1, ...rows.map((row) => row.length));
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, at) => cells[at] ?? '').join(' | ')} |`;
  const [head = [], ...body] = rows;
  return [line(head), line(Array.from({ length: width }, () => '---')), ...body.map(line)].join('\n');
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
      return (node.content ?? []).map((item) => `- ${itemText(item)}`).join('\n');
    case 'orderedList':
      return (node.content ?? []).map((item, at) => `${at + 1}. ${itemText(item)}`).join('\n');
    case 'taskList':
      return (node.content ?? []).map((item) => `- [${item.attrs?.checked ? 'x' : ' '}] ${itemText(item)}`).join('\n');
    case 'table':
      return tableOut(node);
    case 'image':
    case 'mention':
      return inlineOut([node]);
    default:
      return inlineOut(node.content);
  }
}

const itemText = (item: RichTextNode) => (item.content ?? []).map(blockOut).join(' ');

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
      case 'table':
        return `<table>${(node.content ?? []).map(block).join('')}</table>`;
      case 'tableRow':
        return `<tr>${(node.content ?? []).map(block).join('')}</tr>`;
      case 'tableHeader':
        return `<th>${children(node)}</th>`;
      case 'tableCell':
        return `<td>${children(node)}</td>`;
      case 'image':
      case 'mention':
        return `<p>${inlineHtml([node])}</p>`;
      default:
        return `<p>${inlineHtml(node.content)}</p>`;
    }
  };
  return (doc.content ?? []).map(block).join('\n');
}
