import { mergeAttributes, Node, type AnyExtension, type Editor } from '@tiptap/core';
import { TaskItem, TaskList } from '@tiptap/extension-list';
import { Table, TableCell, TableHeader, TableRow } from '@tiptap/extension-table';
import StarterKit from '@tiptap/starter-kit';
import { html, nothing, type TemplateResult } from 'lit';
import { recordChipCss } from '../records.js';
import { RecordChip, type RecordLookup } from './record-chips.js';

/**
 * The rich text every editor of the kit writes, shared by `<wpk-collab-editor>` (with Yjs) and
 * `<wpk-rich-text-editor>` (without): tiptap's starter kit (paragraphs, bold, italic, headings,
 * lists, links on `http(s):`/`mailto:` only, opened by the reader not the writer) and a mention of
 * a workspace member as an inline atom, written as the apps' servers read it:
 * `<span data-type="mention" data-id="{member_id}">@Ada</span>` (the feeds sanitiser keeps
 * exactly that). Members are chosen in the shell's member picker (`insertMention`) or typed after
 * `@` (mention-suggest.ts).
 */
export const Mention = Node.create({
  name: 'mention',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: false,
  addAttributes() {
    return {
      id: { default: null, parseHTML: (element) => element.getAttribute('data-id'), renderHTML: (attributes) => ({ 'data-id': attributes.id as string }) },
      label: { default: null, parseHTML: (element) => (element.textContent ?? '').replace(/^@/, ''), renderHTML: () => ({}) },
    };
  },
  parseHTML() {
    return [{ tag: 'span[data-type="mention"]' }];
  },
  renderHTML({ node, HTMLAttributes }) {
    return ['span', mergeAttributes({ 'data-type': 'mention' }, HTMLAttributes), `@${String(node.attrs.label ?? '')}`];
  },
  renderText({ node }) {
    return `@${String(node.attrs.label ?? '')}`;
  },
});

/** Turns an image's stored `src` into an address the page may show (a blob: URL of bytes read with the app's token). */
export type ImageSource = (src: string) => Promise<string>;

/**
 * An image (`image`, a block atom: `src`, `alt`), as Papers' server keeps it. A `src` that is a
 * path (`/papers/{paper_id}/images/{image_id}`: the API's, which a frame without cookies cannot
 * load) is shown through `source`; a data: URL as it is; anything else (the frame's CSP allows
 * only its own, data: and blob: images) by its alt text.
 */
export const ImageBlock = Node.create<{ source: ImageSource | null }>({
  name: 'image',
  group: 'block',
  atom: true,
  draggable: true,
  addOptions() {
    return { source: null };
  },
  addAttributes() {
    return { src: { default: null }, alt: { default: null } };
  },
  parseHTML() {
    return [{ tag: 'img[src]' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['img', mergeAttributes(HTMLAttributes)];
  },
  addNodeView() {
    const source = this.options.source;
    return ({ node }) => {
      const img = document.createElement('img');
      const src = String(node.attrs.src ?? '');
      img.alt = String(node.attrs.alt ?? '');
      img.className = 'wpk-editor-image';
      if (/^data:image\//i.test(src)) img.src = src;
      else if (source && src.startsWith('/')) void source(src).then((url) => (img.src = url), () => undefined);
      return { dom: img };
    };
  },
});

/** The accessible name of a checklist item's checkbox: the item's own text (its first paragraph). */
export const checkboxLabel = (node: { firstChild?: { textContent: string } | null }): string => `Done: ${node.firstChild?.textContent.trim() || 'empty item'}`;

/**
 * A checklist item (`taskItem`, `checked` true or false): a real checkbox labelled by the item's
 * text, items nest (Tab, Shift+Tab), and Mod+Enter ticks or unticks the item at the cursor.
 */
export const ChecklistItem = TaskItem.extend({
  addKeyboardShortcuts() {
    return {
      ...this.parent?.(),
      'Mod-Enter': () => {
        const { $from } = this.editor.state.selection;
        for (let depth = $from.depth; depth > 0; depth -= 1) {
          const node = $from.node(depth);
          if (node.type.name !== this.name) continue;
          const at = $from.before(depth);
          return this.editor.commands.command(({ tr }) => {
            tr.setNodeMarkup(at, undefined, { ...node.attrs, checked: !node.attrs.checked });
            return true;
          });
        }
        return false;
      },
    };
  },
}).configure({ nested: true, a11y: { checkboxLabel } });

/**
 * The extension set; `collaborative` leaves undo/redo to the Yjs binding (its own history).
 * `blocks` adds checklists (`taskList` of `taskItem`, nested), tables (`table`, `tableRow`,
 * `tableHeader`, `tableCell`; no column resizing), images (`image`, shown through
 * `imageSource`) and MRN chips (`record`, looked up through `records`, by default the shell's:
 * record-chips.ts): for documents whose server keeps them (Papers', Wiki's),
 * not for HTML an app's sanitiser would flatten.
 */
export function richTextExtensions(options: { collaborative: boolean; blocks?: boolean; imageSource?: ImageSource | null; records?: () => RecordLookup | null }): AnyExtension[] {
  return [
    StarterKit.configure({
      ...(options.collaborative ? { undoRedo: false as const } : {}),
      link: { openOnClick: false, autolink: true, protocols: ['mailto'], isAllowedUri: (url) => /^(https?:\/\/|mailto:)/i.test(url) },
    }),
    Mention,
    ...(options.blocks ? [TaskList, ChecklistItem, Table.configure({ resizable: false }), TableRow, TableHeader, TableCell, ImageBlock.configure({ source: options.imageSource ?? null }), RecordChip.configure({ lookup: options.records ?? null })] : []),
  ];
}

/** Inserts a mention of `member` at the cursor, then a space. */
export function insertMention(editor: Editor, member: { id: string; name: string }): void {
  editor.chain().focus().insertContent([{ type: 'mention', attrs: { id: member.id, label: member.name } }, { type: 'text', text: ' ' }]).run();
}

/**
 * A toggle button; `label` names a one-letter one (B, I) and is its tooltip, the others are named
 * by their text. A press keeps the focus (and the selection) in the text: no blur and refocus
 * between the mark being set and the next keystroke.
 */
const toggle = (name: string, label: string, run: () => void, active: boolean) =>
  html`<button type="button" aria-label=${name.length === 1 ? label : nothing} title=${label} aria-pressed=${active ? 'true' : 'false'} @mousedown=${(event: Event) => event.preventDefault()} @click=${run}>${name}</button>`;

/** A plain button (an action, not a state), keeping the focus in the text like a toggle. */
const action = (name: string, run: () => void) => html`<button type="button" @mousedown=${(event: Event) => event.preventDefault()} @click=${run}>${name}</button>`;

/**
 * The formatting buttons both editors show (bold, italic, headings, lists), and with the `blocks`
 * extensions a Checklist toggle and a Table button (a 3×3 table with a header row); inside a table,
 * rows and columns are added (after the cursor's) and removed (the cursor's), or the table removed.
 */
export function formattingButtons(editor: Editor): TemplateResult | typeof nothing {
  const chain = () => editor.chain().focus();
  const blocks = Boolean(editor.schema.nodes.taskList && editor.schema.nodes.table);
  const inTable = blocks && editor.isActive('table');
  return html`${toggle('B', 'Bold', () => chain().toggleBold().run(), editor.isActive('bold'))} ${toggle('I', 'Italic', () => chain().toggleItalic().run(), editor.isActive('italic'))}
    ${toggle('H2', 'Heading', () => chain().toggleHeading({ level: 2 }).run(), editor.isActive('heading', { level: 2 }))} ${toggle('H3', 'Subheading', () => chain().toggleHeading({ level: 3 }).run(), editor.isActive('heading', { level: 3 }))}
    ${toggle('• List', 'Bulleted list', () => chain().toggleBulletList().run(), editor.isActive('bulletList'))} ${toggle('1. List', 'Numbered list', () => chain().toggleOrderedList().run(), editor.isActive('orderedList'))}
    ${blocks ? html`${toggle('Checklist', 'Checklist', () => chain().toggleTaskList().run(), editor.isActive('taskList'))} ${inTable ? nothing : action('Table', () => chain().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run())}` : nothing}
    ${inTable
      ? html`<span class="wpk-editor-group" role="group" aria-label="Table">${action('Add row', () => chain().addRowAfter().run())} ${action('Remove row', () => chain().deleteRow().run())} ${action('Add column', () => chain().addColumnAfter().run())} ${action('Remove column', () => chain().deleteColumn().run())} ${action('Remove table', () => chain().deleteTable().run())}</span>`
      : nothing}`;
}

/** The look of an editor element `tag` (its bar and its ProseMirror surface), for a constructed sheet. */
export function editorCss(tag: string, minHeight: string): string {
  return `
${tag} { display: block; }
${tag} .wpk-editor-bar { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; margin-bottom: 8px; }
${tag} .wpk-editor-bar button { font: inherit; min-width: 44px; min-height: 36px; border: 1px solid #8a94a6; border-radius: 6px; background: #fff; color: #1f2933; cursor: pointer; }
${tag} .wpk-editor-bar button[aria-pressed='true'] { background: #1d4ed8; color: #fff; }
${tag} .wpk-editor-bar input { font: inherit; min-height: 32px; padding: 2px 8px; border: 1px solid #8a94a6; border-radius: 6px; }
${tag} .ProseMirror { min-height: ${minHeight}; padding: 12px 16px; border: 1px solid #8a94a6; border-radius: 8px; background: #fff; color: #1f2933; outline-offset: 2px; white-space: pre-wrap; word-wrap: break-word; position: relative; font-variant-ligatures: none; font-feature-settings: 'liga' 0; }
${tag} .ProseMirror p { margin: 0 0 0.6em; }
${tag} .ProseMirror a { color: #1d4ed8; text-decoration: underline; }
${tag} .ProseMirror span[data-type='mention'] { color: #1e3a8a; background: #dbeafe; border-radius: 4px; padding: 0 2px; }
${tag} .ProseMirror [contenteditable='false'] { white-space: normal; }
${tag} .wpk-mentions { list-style: none; margin: 4px 0 0; padding: 4px; max-width: 100%; width: 20rem; border: 1px solid #8a94a6; border-radius: 8px; background: #fff; box-shadow: 0 4px 12px rgba(15, 23, 42, 0.15); }
${tag} .wpk-mentions li { padding: 8px 12px; min-height: 24px; border-radius: 6px; color: #1f2933; cursor: pointer; overflow-wrap: anywhere; }
${tag} .wpk-mentions li[aria-selected='true'] { background: #1d4ed8; color: #fff; }
${tag} .ProseMirror pre { white-space: pre-wrap; }
${tag} .wpk-editor-group { display: contents; }
${tag} .ProseMirror ul[data-type='taskList'] { list-style: none; padding-left: 0.25em; }
${tag} .ProseMirror ul[data-type='taskList'] > li { display: flex; gap: 0.5em; align-items: flex-start; }
${tag} .ProseMirror ul[data-type='taskList'] > li > label { position: relative; flex: 0 0 auto; display: flex; align-items: center; min-width: 24px; min-height: 24px; }
${tag} .ProseMirror ul[data-type='taskList'] > li > label input { width: 18px; height: 18px; margin: 3px; accent-color: #1d4ed8; cursor: pointer; }
${tag} .ProseMirror ul[data-type='taskList'] > li > div { flex: 1 1 auto; min-width: 0; }
${tag} .ProseMirror ul[data-type='taskList'] > li > div > p { margin: 2px 0 0.3em; }
${tag} .ProseMirror ul[data-type='taskList'] > li[data-checked='true'] > div > p { text-decoration: line-through; color: #52606d; }
${tag} .ProseMirror .tableWrapper { overflow-x: auto; margin: 0 0 0.6em; }
${tag} .ProseMirror table { border-collapse: collapse; table-layout: fixed; width: 100%; margin: 0 0 0.6em; }
${tag} .ProseMirror th, ${tag} .ProseMirror td { position: relative; border: 1px solid #8a94a6; padding: 4px 8px; vertical-align: top; min-width: 1em; box-sizing: border-box; overflow-wrap: anywhere; }
${tag} .ProseMirror th { background: #eef2f7; font-weight: 600; text-align: left; }
${tag} .ProseMirror th p, ${tag} .ProseMirror td p { margin: 0; }
${tag} .ProseMirror .selectedCell::after { content: ''; position: absolute; inset: 0; background: rgba(29, 78, 216, 0.18); pointer-events: none; }
${tag} .ProseMirror-hideselection *::selection { background: transparent; }
${tag} .ProseMirror-separator, ${tag} .ProseMirror-trailingBreak { display: inline !important; }
${tag} .ProseMirror img.wpk-editor-image { display: block; max-width: 100%; height: auto; margin: 0 0 0.6em; }
${tag} .ProseMirror img.wpk-editor-image.ProseMirror-selectednode { outline: 2px solid #1d4ed8; }
${tag} .wpk-editor-image-form { display: flex; flex-wrap: wrap; gap: 4px; align-items: end; margin-bottom: 8px; }
${tag} .wpk-editor-image-form label { display: grid; gap: 2px; max-width: 100%; }
${tag} .wpk-editor-image-form input { font: inherit; min-height: 32px; padding: 2px 8px; border: 1px solid #8a94a6; border-radius: 6px; }
${tag} .wpk-editor-image-form button { font: inherit; min-height: 36px; border: 1px solid #8a94a6; border-radius: 6px; background: #fff; color: #1f2933; cursor: pointer; }
${tag} .wpk-editor-image-form [role='alert'] { color: #b91c1c; }
${recordChipCss(tag)}${tag} .ProseMirror-selectednode.wpk-record { outline: 2px solid #1d4ed8; }
${tag} .ProseMirror-gapcursor { display: none; pointer-events: none; position: absolute; }
${tag} .ProseMirror-focused .ProseMirror-gapcursor { display: block; }
`;
}

/** Adopts `css` once per document or shadow root (a constructed sheet: no inline style under the frame's CSP). */
export function styleAdopter(css: string): (root: Document | ShadowRoot) => void {
  const styled = new WeakSet<Document | ShadowRoot>();
  let sheet: CSSStyleSheet | null = null;
  return (root) => {
    if (styled.has(root)) return;
    styled.add(root);
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
    }
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  };
}
