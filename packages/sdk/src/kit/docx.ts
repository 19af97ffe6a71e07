// docx's own declarations are kept out of the SDK's type graph: they pull @types/node 26 (a
// dependency of docx) into every app's program beside the app's own, and the two conflict.
type IRunOptions = Record<string, unknown>;
type IParagraphOptions = Record<string, unknown>;
type ParagraphChild = unknown;
type DocxParagraph = unknown;
type DocxTable = unknown;
/** The module name, not a literal in `import()`, so TypeScript does not read docx's declarations. */
const DOCX: string = 'docx';
import { recordText, type RichTextNode } from './rich-text.js';
import { safeHref } from './markdown.js';
import { loadPeer } from './peer.js';

/**
 * Rich text (ProseMirror JSON) as a Word document (DOCX), written with `docx`, loaded on first use
 * (docs/decisions/0273). What a reader such as mammoth gets back: headings as `Heading 1`-`6`,
 * bold, italic, underline, strike, highlight, inline code (the `Inline Code` character style, a
 * monospace font), http(s) and mailto links, bullet and numbered lists nested by level (each list
 * numbered from 1), checklists as bulleted items that start with a Word checkbox, code blocks (the
 * `Code Block` paragraph style, one paragraph whose lines are line breaks), quotes (`Quote`),
 * rules (`Horizontal Rule`: an empty paragraph with a bottom border), tables (the header row
 * repeated on each page, spans kept), mentions as `@Label`, MRN chips as their label (else MRN), and images given as PNG, JPEG or GIF
 * data URLs (any other image: its alt text).
 */

/** The styles the export names and the import's style map reads back (DOCX_STYLE_MAP). */
export const DOCX_STYLES = { code: 'Inline Code', codeBlock: 'Code Block', quote: 'Quote', rule: 'Horizontal Rule' } as const;

/** Their ids in the file (what a run or paragraph names). */
const STYLE_IDS = { code: 'InlineCode', codeBlock: 'CodeBlock', quote: 'Quote', rule: 'HorizontalRule' } as const;

const MONO = 'Courier New';
/** A page's text width in pixels at 96 dpi (A4 less 2.5 cm margins ≈ 6.27 in): wider images are scaled down to it. */
const TEXT_WIDTH_PX = 600;

interface ImageData {
  type: 'png' | 'jpg' | 'gif';
  data: Buffer;
  width: number;
  height: number;
}

/** The width and height a PNG, JPEG or GIF declares in its header, else null. */
function imageSize(type: ImageData['type'], data: Buffer): { width: number; height: number } | null {
  if (type === 'png') return data.length >= 24 && data.readUInt32BE(12) === 0x49484452 ? { width: data.readUInt32BE(16), height: data.readUInt32BE(20) } : null;
  if (type === 'gif') return data.length >= 10 ? { width: data.readUInt16LE(6), height: data.readUInt16LE(8) } : null;
  let at = 2;
  while (at + 9 < data.length) {
    if (data[at] !== 0xff) return null;
    const marker = data[at + 1]!;
    // Start of frame (baseline, progressive…): height then width.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { width: data.readUInt16BE(at + 7), height: data.readUInt16BE(at + 5) };
    at += 2 + data.readUInt16BE(at + 2);
  }
  return null;
}

/** A PNG, JPEG or GIF data URL's image with its size, else null (the export fetches nothing). */
function imageOf(src: string): ImageData | null {
  const match = /^data:image\/(png|jpeg|jpg|gif);base64,([A-Za-z0-9+/=\s]+)$/i.exec(src);
  if (!match) return null;
  const kind = match[1]!.toLowerCase();
  const type = kind === 'png' ? 'png' : kind === 'gif' ? 'gif' : 'jpg';
  const data = Buffer.from(match[2]!, 'base64');
  const size = imageSize(type, data);
  return size && size.width > 0 && size.height > 0 ? { type, data, ...size } : null;
}

/** A block of the body: a paragraph or a table. */
type Block = DocxParagraph | DocxTable;

const has = (node: RichTextNode, type: string) => (node.marks ?? []).some((mark) => mark.type === type);

/** A document as a DOCX file (`title` is the file's title property). */
export async function richTextToDocx(doc: RichTextNode, options: { title?: string } = {}): Promise<Buffer> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see DOCX: the module is untyped here
  const docx: any = await loadPeer('docx', 'richTextToDocx', () => import(DOCX));
  const { AlignmentType, BorderStyle, CheckBox, Document, ExternalHyperlink, HeadingLevel, ImageRun, LevelFormat, Packer, Paragraph, Table, TableCell, TableRow, TextRun, WidthType } = docx;
  const HEADINGS = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3, HeadingLevel.HEADING_4, HeadingLevel.HEADING_5, HeadingLevel.HEADING_6];
  let orderedLists = 0;

  const run = (node: RichTextNode, extra: Partial<IRunOptions> = {}) =>
    new TextRun({
      text: node.text ?? '',
      ...(has(node, 'bold') ? { bold: true } : {}),
      ...(has(node, 'italic') ? { italics: true } : {}),
      ...(has(node, 'underline') ? { underline: {} } : {}),
      ...(has(node, 'strike') ? { strike: true } : {}),
      ...(has(node, 'highlight') ? { highlight: 'yellow' as const } : {}),
      ...(has(node, 'code') ? { style: STYLE_IDS.code } : {}),
      ...extra,
    });

  const inline = (nodes: RichTextNode[] = []): ParagraphChild[] =>
    nodes.flatMap((node): ParagraphChild[] => {
      if (node.type === 'hardBreak') return [new TextRun({ break: 1 })];
      if (node.type === 'mention') return [new TextRun({ text: `@${String(node.attrs?.label ?? node.attrs?.id ?? '')}` })];
      if (node.type === 'record') return [new TextRun({ text: recordText(node) })];
      if (node.type === 'image') return [imageRun(node)];
      const link = node.marks?.find((mark) => mark.type === 'link');
      const target = link ? safeHref(String(link.attrs?.href ?? '')) : null;
      if (target && /^(https?:|mailto:)/i.test(target)) return [new ExternalHyperlink({ link: target, children: [run(node, { style: has(node, 'code') ? STYLE_IDS.code : 'Hyperlink' })] })];
      return [run(node)];
    });

  const imageRun = (node: RichTextNode): ParagraphChild => {
    const image = imageOf(String(node.attrs?.src ?? ''));
    if (!image) return new TextRun({ text: String(node.attrs?.alt ?? '') });
    const scale = Math.min(1, TEXT_WIDTH_PX / image.width);
    const alt = String(node.attrs?.alt ?? '');
    return new ImageRun({ type: image.type, data: image.data, transformation: { width: Math.round(image.width * scale), height: Math.round(image.height * scale) }, altText: { name: alt || 'image', description: alt, title: alt } });
  };

  /** Blocks as the body's paragraphs and tables: `within` goes on each plain paragraph (a quote's style, a list item's indent); a list starts at `level`. */
  const blocks = (nodes: RichTextNode[] = [], within: Partial<IParagraphOptions> = {}, level = 0): Block[] =>
    nodes.flatMap((node): Block[] => {
      switch (node.type) {
        case 'heading':
          return [new Paragraph({ heading: HEADINGS[Math.min(6, Math.max(1, Number(node.attrs?.level ?? 1))) - 1], children: inline(node.content) })];
        case 'codeBlock': {
          const lines = (node.content ?? []).map((text) => text.text ?? '').join('').split('\n');
          return [new Paragraph({ style: STYLE_IDS.codeBlock, children: lines.map((line, at) => new TextRun({ text: line, ...(at > 0 ? { break: 1 } : {}) })) })];
        }
        case 'horizontalRule':
          return [new Paragraph({ style: STYLE_IDS.rule })];
        case 'blockquote':
          return blocks(node.content, { style: STYLE_IDS.quote }, level);
        case 'bulletList':
        case 'taskList':
          return listItems(node, (at) => ({ bullet: { level: at } }), level);
        case 'orderedList': {
          orderedLists += 1;
          const instance = orderedLists;
          return listItems(node, (at) => ({ numbering: { reference: 'ordered', level: at, instance } }), level);
        }
        case 'table':
          return [table(node)];
        case 'image':
        case 'mention':
        case 'record':
          return [new Paragraph({ ...within, children: inline([node]) })];
        default:
          return [new Paragraph({ ...within, children: inline(node.content) })];
      }
    });

  /** A list's items: an item's first paragraph carries the bullet or number (and a checklist's box), its other blocks follow it indented. */
  const listItems = (list: RichTextNode, marker: (level: number) => Partial<IParagraphOptions>, level: number): Block[] =>
    (list.content ?? []).flatMap((item) => {
      const out: Block[] = [];
      let first = true;
      for (const child of item.content ?? []) {
        if (['bulletList', 'orderedList', 'taskList'].includes(child.type)) {
          out.push(...blocks([child], {}, Math.min(8, level + 1)));
          continue;
        }
        if (first && child.type === 'paragraph') {
          const box = item.type === 'taskItem' ? [new CheckBox({ checked: item.attrs?.checked === true }), new TextRun({ text: ' ' })] : [];
          out.push(new Paragraph({ ...marker(level), children: [...box, ...inline(child.content)] }));
        } else out.push(...blocks([child], { indent: { left: 720 * (level + 1) } }, level));
        first = false;
      }
      if (first) out.push(new Paragraph({ ...marker(level), children: item.type === 'taskItem' ? [new CheckBox({ checked: item.attrs?.checked === true })] : [] }));
      return out;
    });

  const table = (node: RichTextNode) => {
    const rows = node.content ?? [];
    const columns = Math.max(1, ...rows.map((row) => (row.content ?? []).reduce((sum, cell) => sum + Math.max(1, Number(cell.attrs?.colspan ?? 1)), 0)));
    const width = Math.floor(9000 / columns);
    return new Table({
      width: { size: 100, type: WidthType.PERCENTAGE },
      columnWidths: Array.from({ length: columns }, () => width),
      rows: rows.map(
        (row, at) =>
          new TableRow({
            // Written only when true: a reader may take the element's presence for a header row.
            ...(at === 0 && (row.content ?? []).length > 0 && (row.content ?? []).every((cell) => cell.type === 'tableHeader') ? { tableHeader: true } : {}),
            children: (row.content ?? []).map((cell) => {
              const content = blocks(cell.content, {}, 0);
              return new TableCell({
                children: content.length ? content : [new Paragraph({})],
                ...(Number(cell.attrs?.colspan ?? 1) > 1 ? { columnSpan: Math.trunc(Number(cell.attrs?.colspan)) } : {}),
                ...(Number(cell.attrs?.rowspan ?? 1) > 1 ? { rowSpan: Math.trunc(Number(cell.attrs?.rowspan)) } : {}),
              });
            }),
          }),
      ),
    });
  };

  const children = blocks(doc.content);
  const document = new Document({
    ...(options.title ? { title: options.title } : {}),
    styles: {
      paragraphStyles: [
        { id: STYLE_IDS.codeBlock, name: DOCX_STYLES.codeBlock, basedOn: 'Normal', run: { font: MONO, size: 20 }, paragraph: { spacing: { before: 120, after: 120 }, shading: { type: 'clear', fill: 'F3F4F6', color: 'auto' } } },
        { id: STYLE_IDS.quote, name: DOCX_STYLES.quote, basedOn: 'Normal', run: { italics: true, color: '555555' }, paragraph: { indent: { left: 567 }, border: { left: { style: BorderStyle.SINGLE, size: 12, color: 'BBBBBB', space: 8 } } } },
        { id: STYLE_IDS.rule, name: DOCX_STYLES.rule, basedOn: 'Normal', paragraph: { border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: 'AAAAAA', space: 1 } } } },
      ],
      characterStyles: [{ id: STYLE_IDS.code, name: DOCX_STYLES.code, run: { font: MONO } }],
    },
    numbering: {
      config: [
        {
          reference: 'ordered',
          levels: Array.from({ length: 9 }, (_, level) => ({ level, format: LevelFormat.DECIMAL, text: `%${level + 1}.`, alignment: AlignmentType.START, style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } } })),
        },
      ],
    },
    sections: [{ children: children.length ? children : [new Paragraph({})] }],
  });
  return Packer.toBuffer(document);
}
