import { mergeAttributes, Node, type AnyExtension, type Editor } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { html, nothing, type TemplateResult } from 'lit';

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

/** The extension set; `collaborative` leaves undo/redo to the Yjs binding (its own history). */
export function richTextExtensions(options: { collaborative: boolean }): AnyExtension[] {
  return [
    StarterKit.configure({
      ...(options.collaborative ? { undoRedo: false as const } : {}),
      link: { openOnClick: false, autolink: true, protocols: ['mailto'], isAllowedUri: (url) => /^(https?:\/\/|mailto:)/i.test(url) },
    }),
    Mention,
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

/** The formatting buttons both editors show (bold, italic, headings, lists). */
export function formattingButtons(editor: Editor): TemplateResult | typeof nothing {
  const chain = () => editor.chain().focus();
  return html`${toggle('B', 'Bold', () => chain().toggleBold().run(), editor.isActive('bold'))} ${toggle('I', 'Italic', () => chain().toggleItalic().run(), editor.isActive('italic'))}
    ${toggle('H2', 'Heading', () => chain().toggleHeading({ level: 2 }).run(), editor.isActive('heading', { level: 2 }))} ${toggle('H3', 'Subheading', () => chain().toggleHeading({ level: 3 }).run(), editor.isActive('heading', { level: 3 }))}
    ${toggle('• List', 'Bulleted list', () => chain().toggleBulletList().run(), editor.isActive('bulletList'))} ${toggle('1. List', 'Numbered list', () => chain().toggleOrderedList().run(), editor.isActive('orderedList'))}`;
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
${tag} .ProseMirror-hideselection *::selection { background: transparent; }
${tag} .ProseMirror-separator, ${tag} .ProseMirror-trailingBreak { display: inline !important; }
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
