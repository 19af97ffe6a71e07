import { RECORD_MRN, type RichTextMark, type RichTextNode } from './rich-text.js';
import { DOCX_STYLES } from './docx.js';
import { safeHref } from './markdown.js';
import { loadPeer } from './peer.js';

/**
 * HTML, and Word documents through it, as rich text (ProseMirror JSON). Only the editor's node
 * and mark types come out (paragraph, heading, blockquote, bulletList, orderedList, listItem,
 * taskList, taskItem, codeBlock, horizontalRule, hardBreak, table, tableRow, tableHeader,
 * tableCell, image, record (an MRN chip: `<span data-type="record" data-mrn>` or a link to an MRN); bold, italic, underline, strike, code, link, highlight): any other element
 * gives its content, scripts and styles give nothing, a link keeps only a safe target
 * (`safeHref`), an image only a PNG, JPEG, GIF or WebP data URL (else its alt text). htmlparser2
 * and mammoth load on first use (docs/decisions/0273).
 */

interface Element {
  type: 'tag';
  name: string;
  attribs: Record<string, string>;
  children: Child[];
}
interface Text {
  type: 'text';
  data: string;
}
type Child = Element | Text | { type: 'comment' | 'directive' | 'cdata' | 'script' | 'style' };

const DROPPED = new Set(['script', 'style', 'head', 'title', 'template', 'noscript', 'iframe', 'object', 'svg', 'math']);
const BLOCKS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'pre', 'hr', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'div', 'section', 'article', 'header', 'footer', 'main', 'aside', 'nav', 'figure', 'figcaption', 'dl', 'dt', 'dd', 'body', 'html']);
const MARKS: Record<string, string> = { strong: 'bold', b: 'bold', em: 'italic', i: 'italic', u: 'underline', ins: 'underline', s: 'strike', strike: 'strike', del: 'strike', code: 'code', kbd: 'code', samp: 'code', tt: 'code', mark: 'highlight' };
const IMAGE_SRC = /^data:image\/(png|jpeg|jpg|gif|webp);base64,[A-Za-z0-9+/=]+$/i;

const isElement = (child: Child): child is Element => child.type === 'tag' || child.type === 'script' || child.type === 'style';
const tagOf = (child: Child) => (isElement(child) ? child.name.toLowerCase() : '');
/** True when the element holds a block element (so its content is read as blocks). */
const holdsBlocks = (element: Element): boolean => element.children.some((child) => isElement(child) && (BLOCKS.has(tagOf(child)) || holdsBlocks(child)));

/** An element's text, every descendant's. */
const textOf = (element: Element): string => element.children.map((child) => (child.type === 'text' ? child.data : isElement(child) ? textOf(child) : '')).join('');

const sameMarks = (a: RichTextMark[] | undefined, b: RichTextMark[] | undefined) => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

/** Inline content: text nodes (whitespace collapsed, marks sorted by type), hard breaks and images. */
function inline(children: Child[], marks: RichTextMark[], out: RichTextNode[], pre = false): RichTextNode[] {
  for (const child of children) {
    if (child.type === 'text') {
      const text = pre ? child.data : child.data.replace(/[\t\n\r\f ]+/g, ' ');
      if (!text) continue;
      const last = out.at(-1);
      if (last?.type === 'text' && sameMarks(last.marks, marks)) last.text += text;
      else out.push(marks.length ? { type: 'text', text, marks: [...marks] } : { type: 'text', text });
      continue;
    }
    if (!isElement(child)) continue;
    const tag = tagOf(child);
    if (DROPPED.has(tag)) continue;
    if (tag === 'br') {
      out.push(pre ? { type: 'text', text: '\n', ...(marks.length ? { marks: [...marks] } : {}) } : { type: 'hardBreak' });
      continue;
    }
    if (tag === 'img') {
      const src = child.attribs.src ?? '';
      const alt = (child.attribs.alt ?? '').slice(0, 1000);
      if (IMAGE_SRC.test(src)) out.push({ type: 'image', attrs: { src, ...(alt ? { alt } : {}) } });
      else if (alt) inline([{ type: 'text', data: alt }], marks, out, pre);
      continue;
    }
    // An MRN chip as the kit writes it (`<span data-type="record" data-mrn>`) or a link to an MRN.
    const mrn = tag === 'span' && child.attribs['data-type'] === 'record' ? child.attribs['data-mrn'] : tag === 'a' ? child.attribs.href : undefined;
    if (mrn !== undefined && RECORD_MRN.test(mrn)) {
      const label = textOf(child).replace(/\s+/g, ' ').trim().slice(0, 500);
      out.push({ type: 'record', attrs: label && label !== mrn ? { label, mrn } : { mrn } });
      continue;
    }
    let next = marks;
    const mark = MARKS[tag];
    if (mark && !marks.some((m) => m.type === mark)) next = [...marks, { type: mark }];
    if (tag === 'a' && child.attribs.href) {
      const href = safeHref(child.attribs.href);
      if (href && !marks.some((m) => m.type === 'link')) next = [...next, { type: 'link', attrs: { href } }];
    }
    if (next !== marks) next = [...next].sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
    inline(child.children, next, out, pre);
  }
  return out;
}

/** Trims the whitespace at a paragraph's ends (left by the HTML's layout) and drops empty text. */
function trimmed(nodes: RichTextNode[]): RichTextNode[] {
  const first = nodes[0];
  if (first?.type === 'text') first.text = first.text!.replace(/^ +/, '');
  const last = nodes.at(-1);
  if (last?.type === 'text') last.text = last.text!.replace(/ +$/, '');
  return nodes.filter((node) => node.type !== 'text' || node.text);
}

/** A text block of the inline content, images lifted out between paragraphs (the editor's images are blocks). */
function textBlocks(type: string, attrs: Record<string, unknown> | undefined, content: RichTextNode[], keepEmpty: boolean): RichTextNode[] {
  const out: RichTextNode[] = [];
  let run: RichTextNode[] = [];
  const flush = (force: boolean) => {
    const parts = trimmed(run);
    if (parts.length || force) out.push({ type, ...(attrs ? { attrs } : {}), ...(parts.length ? { content: parts } : {}) });
    run = [];
  };
  for (const node of content) {
    if (node.type === 'image') {
      flush(false);
      out.push(node);
    } else run.push(node);
  }
  flush(keepEmpty && out.length === 0);
  return out;
}

const CHECKBOX = /^\s*([☐☑☒✓✔])\s?/;

/** Reads an `<li>`: whether it starts with a checkbox (and if it is ticked), and its blocks. */
function listItem(element: Element): { checked: boolean | null; content: RichTextNode[] } {
  let checked: boolean | null = null;
  const children = [...element.children];
  const firstIndex = children.findIndex((child) => child.type !== 'text' || child.data.trim() !== '');
  const first = children[firstIndex];
  if (first && isElement(first) && tagOf(first) === 'input' && (first.attribs.type ?? '').toLowerCase() === 'checkbox') {
    checked = 'checked' in first.attribs;
    children.splice(firstIndex, 1);
  }
  const content = blocks(children);
  const paragraph = content[0];
  if (checked === null && paragraph?.type === 'paragraph' && paragraph.content?.[0]?.type === 'text') {
    const box = CHECKBOX.exec(paragraph.content[0].text!);
    if (box) {
      checked = box[1] !== '☐';
      paragraph.content[0].text = paragraph.content[0].text!.slice(box[0].length);
      if (!paragraph.content[0].text) paragraph.content.shift();
      if (!paragraph.content.length) delete paragraph.content;
    }
  }
  if (content[0]?.type !== 'paragraph') content.unshift({ type: 'paragraph' });
  return { checked, content };
}

/** A list's items: runs of items that start with a checkbox are checklists, the others a list of the element's kind. */
function lists(element: Element): RichTextNode[] {
  const items = element.children.filter((child): child is Element => isElement(child) && tagOf(child) === 'li').map(listItem);
  const type = tagOf(element) === 'ol' ? 'orderedList' : 'bulletList';
  if (!items.length) return [{ type, content: [{ type: 'listItem', content: [{ type: 'paragraph' }] }] }];
  const out: RichTextNode[] = [];
  for (const item of items) {
    const tasks = item.checked !== null;
    const node: RichTextNode = tasks ? { type: 'taskItem', attrs: { checked: item.checked }, content: item.content } : { type: 'listItem', content: item.content };
    const last = out.at(-1);
    if (last && (last.type === 'taskList') === tasks) last.content!.push(node);
    else out.push({ type: tasks ? 'taskList' : type, content: [node] });
  }
  return out;
}

function table(element: Element): RichTextNode | null {
  const rows: Element[] = [];
  const collect = (parent: Element) => {
    for (const child of parent.children) {
      if (!isElement(child)) continue;
      const tag = tagOf(child);
      if (tag === 'tr') rows.push(child);
      else if (tag === 'thead' || tag === 'tbody' || tag === 'tfoot') collect(child);
    }
  };
  collect(element);
  const content = rows
    .map((row) => {
      const cells = row.children.filter((child): child is Element => isElement(child) && (tagOf(child) === 'td' || tagOf(child) === 'th'));
      return {
        type: 'tableRow',
        content: cells.map((cell) => {
          const span = (name: string) => Math.min(1000, Math.max(1, Math.trunc(Number(cell.attribs[name] ?? 1)) || 1));
          const inner = blocks(cell.children);
          return { type: tagOf(cell) === 'th' ? 'tableHeader' : 'tableCell', attrs: { colspan: span('colspan'), rowspan: span('rowspan') }, content: inner.length ? inner : [{ type: 'paragraph' }] };
        }),
      };
    })
    .filter((row) => row.content.length > 0);
  return content.length ? { type: 'table', content } : null;
}

/** Block content: block elements as nodes, runs of inline content between them as paragraphs. */
function blocks(children: Child[]): RichTextNode[] {
  const out: RichTextNode[] = [];
  let pending: Child[] = [];
  const flush = () => {
    if (pending.length) out.push(...textBlocks('paragraph', undefined, inline(pending, [], []), false));
    pending = [];
  };
  for (const child of children) {
    const tag = tagOf(child);
    if (!isElement(child) || !(BLOCKS.has(tag) || holdsBlocks(child))) {
      if (!DROPPED.has(tag)) pending.push(child);
      continue;
    }
    flush();
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) out.push(...textBlocks('heading', { level: Number(heading[1]) }, inline(child.children, [], []), true));
    else if (tag === 'p') out.push(...textBlocks('paragraph', undefined, inline(child.children, [], []), false));
    else if (tag === 'ul' || tag === 'ol') out.push(...lists(child));
    else if (tag === 'blockquote') {
      const content = blocks(child.children);
      if (content.length) out.push({ type: 'blockquote', content });
    } else if (tag === 'pre') {
      const text = inline(child.children, [], [], true)
        .map((node) => (node.type === 'text' ? node.text : ''))
        .join('')
        .replace(/\n$/, '');
      out.push({ type: 'codeBlock', attrs: { language: null }, ...(text ? { content: [{ type: 'text', text }] } : {}) });
    } else if (tag === 'hr') out.push({ type: 'horizontalRule' });
    else if (tag === 'table') {
      const node = table(child);
      if (node) out.push(node);
    } else out.push(...blocks(child.children));
  }
  flush();
  return out;
}

/** HTML (a page or a fragment) as a `doc` node (nothing in it: `{ type: 'doc', content: [] }`). */
export async function richTextFromHtml(html: string): Promise<RichTextNode> {
  const { parseDocument } = await import('htmlparser2');
  const dom = parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  return { type: 'doc', content: blocks(dom.children as unknown as Child[]) };
}

/** What mammoth maps the export's styles (richTextToDocx) and Word's own to. */
export const DOCX_STYLE_MAP = [
  `p[style-name='${DOCX_STYLES.codeBlock}'] => pre:fresh`,
  `p[style-name='${DOCX_STYLES.quote}'] => blockquote > p:fresh`,
  "p[style-name='Intense Quote'] => blockquote > p:fresh",
  `p[style-name='${DOCX_STYLES.rule}'] => hr:fresh`,
  `r[style-name='${DOCX_STYLES.code}'] => code`,
  'u => u',
  'strike => s',
  'highlight => mark',
];

/** The bytes are not a Word document mammoth can read (the message says why). */
export class DocxReadError extends Error {}

/**
 * A Word document (DOCX bytes) as a `doc` node, read by mammoth (its HTML, then richTextFromHtml)
 * with the styles of DOCX_STYLE_MAP. Bytes that are not a DOCX (no ZIP, a ZIP without
 * `word/document.xml`, a broken one) or a document nested more than 50 levels deep throw a
 * DocxReadError.
 */
export async function richTextFromDocx(bytes: Buffer): Promise<RichTextNode> {
  // A ZIP starts with a file's header, or is an empty archive's end record.
  if (bytes.length < 4 || (bytes.readUInt32LE(0) !== 0x04034b50 && bytes.readUInt32LE(0) !== 0x06054b50)) throw new DocxReadError('not a DOCX file (a DOCX is a ZIP archive; these bytes are not one)');
  const mammoth = (await loadPeer('mammoth', 'richTextFromDocx', () => import('mammoth'))).default;
  let doc: RichTextNode;
  try {
    const html = (await mammoth.convertToHtml({ buffer: bytes }, { styleMap: DOCX_STYLE_MAP, includeDefaultStyleMap: true })).value;
    doc = await richTextFromHtml(html);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (/word\/document\.xml|main document part/i.test(reason)) throw new DocxReadError('not a DOCX file (the archive holds no word/document.xml)');
    // A broken archive or XML, or one nested past the stack (tables in tables).
    throw new DocxReadError(`a damaged DOCX file (${reason.replace(/\s+/g, ' ').slice(0, 200)})`);
  }
  if (depthOf(doc) > MAX_DEPTH) throw new DocxReadError(`the document nests more than ${MAX_DEPTH} levels deep (tables or lists within each other)`);
  return doc;
}

/** How deep a document may nest (as the editor's JSON: a table in a table cell is 3 levels). */
const MAX_DEPTH = 50;

/** A document's depth, counted without recursion. */
function depthOf(doc: RichTextNode): number {
  let deepest = 0;
  const stack: Array<[RichTextNode, number]> = [[doc, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    for (const child of node.content ?? []) stack.push([child, depth + 1]);
  }
  return deepest;
}
