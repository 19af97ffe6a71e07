import * as Y from 'yjs';

/**
 * ProseMirror JSON for the rich text a Yjs document holds, without ProseMirror or a schema on the
 * server. The editor (`@tiptap/core` + its Yjs binding) keeps a document in one `Y.XmlFragment`
 * (tiptap's `Collaboration` extension: the field `default`): every ProseMirror node is a
 * `Y.XmlElement` named by the node type whose attributes are the node's attrs; text is a
 * `Y.XmlText` whose formatting attributes are the marks (the mark name → its attrs). These
 * functions read that tree as ProseMirror JSON (`{ type, attrs?, content?, text?, marks? }`, attrs
 * sorted by name so equal documents give equal JSON), write JSON back into a fragment, and pull
 * the plain text out of it for search and diffs.
 */

/** A ProseMirror node as JSON (`doc.toJSON()`). */
export interface RichTextNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: RichTextNode[];
  text?: string;
  marks?: RichTextMark[];
}

/** A ProseMirror mark as JSON. */
export interface RichTextMark {
  type: string;
  attrs?: Record<string, unknown>;
}

/** The empty document: one empty paragraph. */
export const emptyRichText = (): RichTextNode => ({ type: 'doc', content: [{ type: 'paragraph' }] });

function sortedAttrs(attrs: Record<string, unknown>): Record<string, unknown> | undefined {
  const keys = Object.keys(attrs)
    .filter((key) => attrs[key] !== null && attrs[key] !== undefined)
    .sort();
  if (keys.length === 0) return undefined;
  return Object.fromEntries(keys.map((key) => [key, attrs[key]]));
}

/** A mark attribute's name as y-prosemirror stores it (`bold`, or `comment--hash` for an overlapping one). */
const markName = (key: string) => key.split('--')[0];

function textNodes(text: Y.XmlText): RichTextNode[] {
  const nodes: RichTextNode[] = [];
  for (const op of text.toDelta() as Array<{ insert: unknown; attributes?: Record<string, unknown> }>) {
    if (typeof op.insert !== 'string' || op.insert.length === 0) continue;
    const node: RichTextNode = { type: 'text', text: op.insert };
    const attributes = op.attributes ?? {};
    const marks = Object.keys(attributes)
      .sort()
      .map((key): RichTextMark => {
        const value = attributes[key];
        const attrs = value && typeof value === 'object' ? sortedAttrs(value as Record<string, unknown>) : undefined;
        return attrs ? { type: markName(key), attrs } : { type: markName(key) };
      });
    if (marks.length > 0) node.marks = marks;
    nodes.push(node);
  }
  return nodes;
}

function childrenOf(parent: Y.XmlFragment | Y.XmlElement): RichTextNode[] {
  const content: RichTextNode[] = [];
  for (const child of parent.toArray()) {
    if (child instanceof Y.XmlText) content.push(...textNodes(child));
    else if (child instanceof Y.XmlElement) content.push(elementNode(child));
  }
  return content;
}

function elementNode(element: Y.XmlElement): RichTextNode {
  const node: RichTextNode = { type: element.nodeName };
  const attrs = sortedAttrs(element.getAttributes() as Record<string, unknown>);
  if (attrs) node.attrs = attrs;
  const content = childrenOf(element);
  if (content.length > 0) node.content = content;
  return node;
}

/** The fragment as a ProseMirror `doc` node (an empty fragment: `{ type: 'doc' }`). */
export function richTextFromFragment(fragment: Y.XmlFragment): RichTextNode {
  const content = childrenOf(fragment);
  return content.length > 0 ? { type: 'doc', content } : { type: 'doc' };
}

/** The text blocks of the editor's schema that start with an empty text when written empty. */
const TEXTBLOCKS = new Set(['paragraph', 'heading', 'codeBlock']);

function fill(parent: Y.XmlFragment | Y.XmlElement, nodes: readonly RichTextNode[]): void {
  let index = parent.length;
  let pendingText: Y.XmlText | null = null;
  for (const node of nodes) {
    if (node.type === 'text') {
      if (!pendingText) {
        pendingText = new Y.XmlText();
        parent.insert(index, [pendingText]);
        index += 1;
      }
      const attributes: Record<string, unknown> = {};
      for (const mark of node.marks ?? []) attributes[mark.type] = mark.attrs ?? {};
      pendingText.insert(pendingText.length, node.text ?? '', attributes);
      continue;
    }
    pendingText = null;
    const element = new Y.XmlElement(node.type);
    parent.insert(index, [element]);
    index += 1;
    for (const [key, value] of Object.entries(node.attrs ?? {})) if (value !== null && value !== undefined) element.setAttribute(key, value as string);
    // An empty text block gets an empty Y.XmlText: two members typing its first characters at
    // once then both insert into that one text (each creating their own, the editor's binding
    // would join the two and may write a character twice).
    if (!node.content?.length && TEXTBLOCKS.has(node.type)) element.insert(0, [new Y.XmlText()]);
    fill(element, node.content ?? []);
  }
}

/** Replaces the fragment's content with `doc`'s (inside a transaction of the caller's, or one of its own). */
export function writeRichText(fragment: Y.XmlFragment, doc: RichTextNode): void {
  const write = () => {
    if (fragment.length > 0) fragment.delete(0, fragment.length);
    fill(fragment, doc.content ?? []);
  };
  if (fragment.doc) fragment.doc.transact(write);
  else write();
}

/** Node types whose content ends a line in the plain text (anything that is not inline). */
const INLINE = new Set(['text', 'hardBreak', 'mention', 'image', 'record']);

/**
 * The MRN a `record` node (an MRN chip: any app's record, `attrs.mrn`, perhaps a cached
 * `attrs.label`) may hold: `mrn:{app}:{resource}:{id}` as search's `mrn` filter reads it, so every
 * chip written can be looked up.
 */
export const RECORD_MRN = /^mrn:[a-z0-9][a-z0-9._-]{0,99}:[a-z0-9_-]{1,100}:[A-Za-z0-9._-]{1,200}$/;

/** A `record` node's text outside the editor (plain text, Markdown, DOCX, HTML): its label, else its MRN. */
export const recordText = (node: RichTextNode): string => {
  const label = node.attrs?.label;
  return typeof label === 'string' && label.trim() !== '' ? label : String(node.attrs?.mrn ?? '');
};

/** The first `record` node whose `mrn` is not an MRN (`RECORD_MRN`), as its `mrn` reads; null when every one is. */
export function richTextBadRecord(doc: RichTextNode): string | null {
  if (doc.type === 'record') {
    const mrn = doc.attrs?.mrn;
    const label = doc.attrs?.label;
    if (typeof mrn !== 'string' || !RECORD_MRN.test(mrn)) return String(mrn ?? '');
    if (label !== undefined && label !== null && (typeof label !== 'string' || label.length > 500)) return mrn;
  }
  for (const child of doc.content ?? []) {
    const bad = richTextBadRecord(child);
    if (bad !== null) return bad;
  }
  return null;
}

/**
 * The document's plain text: each block on its own line, no empty lines doubled (for search and
 * diffs). A checklist item starts `[ ] ` or `[x] ` (ticking one is a change); a table row is one
 * line, its cells' text apart by tabs (trailing empty cells left off, empty rows skipped).
 */
export function richTextPlain(doc: RichTextNode): string {
  const lines: string[] = [];
  let line = '';
  const walk = (node: RichTextNode) => {
    if (node.type === 'tableRow') {
      if (line !== '') lines.push(line);
      line = (node.content ?? []).map((cell) => richTextPlain(cell).replace(/\n/g, ' ')).join('\t').replace(/\t+$/, '');
      if (line !== '') lines.push(line);
      line = '';
      return;
    }
    if (node.type === 'taskItem') line += node.attrs?.checked === true ? '[x] ' : '[ ] ';
    if (node.type === 'text') {
      line += node.text ?? '';
      return;
    }
    if (node.type === 'hardBreak') {
      lines.push(line);
      line = '';
      return;
    }
    if (node.type === 'mention') line += `@${String(node.attrs?.label ?? node.attrs?.id ?? '')}`;
    if (node.type === 'record') line += recordText(node);
    for (const child of node.content ?? []) walk(child);
    if (!INLINE.has(node.type) && node.type !== 'doc' && line !== '') {
      lines.push(line);
      line = '';
    }
  };
  walk(doc);
  if (line !== '') lines.push(line);
  return lines.join('\n');
}

const MEMBER_MRN = 'mrn:account:member:';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The members a document mentions (the editors' `mention` nodes: `attrs.id` a member id or MRN;
 * anything else is skipped), by lower-cased member id in the order they first appear, each with the
 * plain text of the block holding that first mention (one line: a hard break is a space).
 */
export function richTextMentions(doc: RichTextNode | null | undefined): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (node: RichTextNode, parent: RichTextNode | null) => {
    if (node.type === 'mention') {
      const raw = node.attrs?.id;
      const id = typeof raw === 'string' ? (raw.startsWith(MEMBER_MRN) ? raw.slice(MEMBER_MRN.length) : raw).toLowerCase() : '';
      if (UUID.test(id) && !found.has(id)) found.set(id, parent ? richTextPlain(parent).replace(/\n/g, ' ') : '');
      return;
    }
    for (const child of node.content ?? []) walk(child, node);
  };
  if (doc && typeof doc === 'object') walk(doc, null);
  return found;
}

/** The node and mark types used in a document, for checking it against what an app allows. */
export function richTextTypes(doc: RichTextNode): { nodes: Set<string>; marks: Set<string> } {
  const nodes = new Set<string>();
  const marks = new Set<string>();
  const walk = (node: RichTextNode) => {
    nodes.add(node.type);
    for (const mark of node.marks ?? []) marks.add(mark.type);
    for (const child of node.content ?? []) walk(child);
  };
  walk(doc);
  return { nodes, marks };
}
