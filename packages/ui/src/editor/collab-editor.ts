import { Editor } from '@tiptap/core';
import Collaboration from '@tiptap/extension-collaboration';
import CollaborationCaret from '@tiptap/extension-collaboration-caret';
import { absolutePositionToRelativePosition, relativePositionToAbsolutePosition, ySyncPluginKey } from '@tiptap/y-tiptap';
import { html, LitElement, nothing, type PropertyValues } from 'lit';
import * as Y from 'yjs';
import { CollabSession, fromBase64, REMOTE, statusText, toBase64, type CollabTransport, type CollabUser } from '../collab/session.js';
import { keepEmptyBlocksText } from './empty-blocks.js';
import { editorCss, formattingButtons, richTextExtensions, styleAdopter, type ImageSource } from './extensions.js';
import { MentionSuggestions, type FindMembers } from './mention-suggest.js';
import { RECORD_MRN, recordsThroughShell, type RecordLookup } from './record-chips.js';
import { suggestedChanges, suggestedChangesExtension } from './suggested-changes.js';

/**
 * `<wpk-collab-editor>`: rich text written together, on the platform's editing stack
 * (docs/ui.md, "The collaborative editor"): tiptap (`@tiptap/core` + starter kit, with checklists
 * and tables: extensions.ts) bound to a Yjs
 * document (`Y.XmlFragment` `default`), kept in step with the app's server by the kit's
 * `CollabSession` (`@wpk/ui/collab`: updates sent by HTTP, everyone's received on the app's live
 * channel, edits kept while offline, carets and who is here as the channel's signals). It lives in its own entry, `@wpk/ui/editor`, so only the apps that
 * edit text carry it; load it with `await import('@wpk/ui/editor')`.
 *
 * ```ts
 * html`<wpk-collab-editor .transport=${{ channel: `papers/papers/${id}`, load, send }} .user=${{ id, name, color }}></wpk-collab-editor>`
 * ```
 */
/**
 * Images in the document, for a server that keeps them (Papers': `POST /papers/{id}/images`):
 * with it the bar has an Image button (a file, or one pasted or dropped, then its alt text asked),
 * and the images show.
 */
export interface CollabImages {
  /** Uploads the file for the document; answers the `src` an image node names (a rejection's message is shown). */
  upload(file: File): Promise<string>;
  /** A stored `src` as an address the page may show (a blob: URL of the bytes read with the app's token). */
  source: ImageSource;
}

/** The editor's look (the shared one, and the carets and who is here), adopted by the document or shadow root it renders in. */
const addStyles = styleAdopter(`${editorCss('wpk-collab-editor', '240px')}
wpk-collab-editor .wpk-editor-here { display: flex; gap: 6px; margin-left: auto; flex-wrap: wrap; }
wpk-collab-editor .wpk-editor-here span { padding: 2px 8px; border-radius: 999px; color: #fff; font-size: 0.85em; }
wpk-collab-editor .collaboration-carets__caret { position: relative; margin: 0 -1px; border-left: 1px solid; border-right: 1px solid; word-break: normal; pointer-events: none; }
wpk-collab-editor .collaboration-carets__label { position: absolute; top: -1.4em; left: -1px; font-size: 12px; font-weight: 600; line-height: normal; white-space: nowrap; color: #fff; padding: 0.1rem 0.3rem; border-radius: 3px 3px 3px 0; user-select: none; }
wpk-collab-editor .collaboration-carets__selection { background: rgba(29, 78, 216, 0.18); }
wpk-collab-editor .wpk-suggested-insert { background: #dcfce7; color: #14532d; text-decoration: underline; }
wpk-collab-editor .wpk-suggested-delete { background: #fee2e2; color: #7f1d1d; text-decoration: line-through; }
wpk-collab-editor del.wpk-suggested-block { display: block; margin: 0 0 0.6em; }
wpk-collab-editor .wpk-editor-mode { font-weight: 600; color: #14532d; }
`);

/** A peer's caret: its colour set through the CSSOM (allowed by the frame's CSP, where a style attribute is not). */
function caret(user: Record<string, unknown>): HTMLElement {
  const color = typeof user.color === 'string' ? user.color : '#1d4ed8';
  const cursor = document.createElement('span');
  cursor.classList.add('collaboration-carets__caret');
  cursor.style.borderColor = color;
  const label = document.createElement('div');
  label.classList.add('collaboration-carets__label');
  label.style.backgroundColor = color;
  label.textContent = typeof user.name === 'string' ? user.name : '';
  cursor.append(label);
  return cursor;
}

export type { CollabTransport, CollabUser };

export class WpkCollabEditor extends LitElement {
  static override properties = { suggesting: { type: Boolean }, transport: { attribute: false }, user: { attribute: false }, findMembers: { attribute: false }, images: { attribute: false }, records: { attribute: false }, linkingRecord: { state: true }, recordError: { state: true }, imageFile: { state: true }, imageError: { state: true }, label: {}, here: { state: true }, status: { state: true }, editable: { state: true } };

  /** Where the document comes from and goes to. */
  transport: CollabTransport | null = null;
  /** This member, as others see their caret. */
  user: CollabUser = { id: '', name: 'Me', color: '#1d4ed8' };
  /** The editor's accessible name. */
  label = 'Document';
  /** Finds members to mention as `@` and a name are typed (null: mentions are not offered). */
  findMembers: FindMembers | null = null;
  /** Images: uploaded and shown through the app (null: no Image button; stored images show only as data: URLs). */
  images: CollabImages | null = null;
  /** How MRN chips are looked up and opened (null: through the shell, `recordsThroughShell`). */
  records: RecordLookup | null = null;
  /** True while the "Link a record" form shows. */
  linkingRecord = false;
  recordError = '';
  /** The image chosen, pasted or dropped, waiting for its alt text. */
  imageFile: File | null = null;
  imageError = '';
  /** Who is here (this member first). */
  here: CollabUser[] = [];
  /** `loading`, `saved`, `saving` or `offline` (edits queued). */
  status = 'loading';
  editable = false;
  /**
   * Suggesting (attribute `suggesting`): edits go to a fork of the document, never sent, shown
   * against the live document (insertions underlined, deletions struck through) until
   * `suggestion()` is taken and `discardSuggestion()` starts again. Everyone's edits still arrive.
   */
  suggesting = false;
  /** The fork being written in suggesting mode (it keeps deleted content, to show it). */
  private fork: Y.Doc | null = null;
  private markLoaded: () => void = () => undefined;
  /** Resolves once the document is loaded and the editor shows it (`showAnchor` can find a comment's range). */
  readonly loaded = new Promise<void>((resolve) => {
    this.markLoaded = resolve;
  });

  /** The document kept in step with the server, and who is here. */
  readonly session = new CollabSession({
    onChange: () => {
      this.here = this.session.here;
      this.status = this.session.status;
      this.editable = this.session.editable;
    },
    onLoad: (editable) => {
      this.editable = editable;
      if (!this.editor) this.mount();
      else this.editor.setEditable(editable || this.suggesting);
      this.dispatchEvent(new Event('collab-load'));
      this.markLoaded();
    },
  });
  /** The Yjs document (for tests and the app: `editor.doc.getXmlFragment('default')`). */
  readonly doc: Y.Doc = this.session.doc;
  readonly awareness = this.session.awareness;
  editor: Editor | null = null;
  private stopEmptyBlocks: (() => void) | null = null;
  private readonly suggestions = new MentionSuggestions(this, () => this.findMembers, () => this.editor);

  constructor() {
    super();
    // Everyone's edits reach the fork too: a suggestion is written on the document as it is now.
    this.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin === REMOTE && this.fork) Y.applyUpdate(this.fork, update, REMOTE);
    });
  }

  protected override createRenderRoot() {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    addStyles(this.getRootNode() as Document | ShadowRoot);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.session.stop();
    this.stopEmptyBlocks?.();
    this.editor?.destroy();
  }

  protected override firstUpdated(_changed: PropertyValues): void {
    if (this.transport) {
      // The screen hears the channel's other events (comments, suggestions) as `collab-event`.
      const transport = this.transport;
      this.session.start(
        {
          ...transport,
          event: (name, data) => {
            transport.event?.(name, data);
            this.dispatchEvent(new CustomEvent('collab-event', { detail: { name, data } }));
          },
        },
        this.user,
      );
    }
  }

  /** The suggestion written so far: one Yjs update (base64) of the fork against the live document; null when it changes nothing. */
  suggestion(): string | null {
    if (!this.fork || suggestedChanges(this.fork.getXmlFragment('default'), Y.snapshot(this.doc)).length === 0) return null;
    return toBase64(Y.encodeStateAsUpdate(this.fork, Y.encodeStateVector(this.doc)));
  }

  /** Drops the fork (after it was sent, or to start again): the editor shows the live document again. */
  discardSuggestion(): void {
    this.fork?.destroy();
    this.fork = null;
    if (this.editor) this.remount();
  }

  private remount(): void {
    this.stopEmptyBlocks?.();
    this.editor?.destroy();
    this.editor = null;
    this.mount();
  }

  private mount(): void {
    if (this.suggesting && !this.fork) {
      this.fork = new Y.Doc({ gc: false });
      Y.applyUpdate(this.fork, Y.encodeStateAsUpdate(this.doc), REMOTE);
    }
    const doc = this.suggesting && this.fork ? this.fork : this.doc;
    const surface = this.querySelector<HTMLElement>('.wpk-editor-surface')!;
    // Inside a shadow root (a Lit screen's), the Yjs binding asks the view's root for
    // createRange(), which only a Document has: lend it the document's.
    const root = this.getRootNode() as ShadowRoot & { createRange?: () => Range };
    if (root !== (document as unknown) && typeof root.createRange !== 'function') root.createRange = () => document.createRange();
    this.editor = new Editor({
      element: surface,
      editable: this.editable || this.suggesting,
      // Its base style comes with the shared sheet (extensions.ts): a <style> element of its own breaks the frame's CSP.
      injectCSS: false,
      extensions: [
        ...richTextExtensions({ collaborative: true, blocks: true, imageSource: (src) => this.images?.source(src) ?? Promise.reject(new Error('no images')), records: () => this.records ?? recordsThroughShell() }),
        Collaboration.configure({ document: doc, field: 'default' }),
        // A fork's positions mean nothing to the others: no carets while suggesting.
        ...(doc === this.fork
          ? [suggestedChangesExtension(this.fork, () => Y.snapshot(this.doc))]
          : [
              CollaborationCaret.configure({
                provider: { awareness: this.awareness },
                user: { name: this.user.name, color: this.user.color, id: this.user.id },
                render: caret,
                selectionRender: () => ({ class: 'collaboration-carets__selection' }),
              }),
            ]),
      ],
      editorProps: {
        attributes: { role: 'textbox', 'aria-multiline': 'true', 'aria-label': this.label },
        handleKeyDown: (_view, event) => this.suggestions.keydown(event),
        handlePaste: (_view, event) => this.takeImage(event.clipboardData?.files),
        handleDrop: (_view, event) => this.takeImage((event as DragEvent).dataTransfer?.files),
      },
      onTransaction: ({ editor }) => {
        this.suggestions.track(editor);
        this.requestUpdate();
      },
    });
    const schema = this.editor.schema;
    this.stopEmptyBlocks = keepEmptyBlocksText(doc.getXmlFragment('default'), (name) => schema.nodes[name]?.isTextblock === true);
  }

  /** The Yjs binding's state (its fragment and mapping), once the editor is mounted. */
  private binding(): { type: Y.XmlFragment; mapping: Map<unknown, unknown> } | null {
    const state = this.editor ? (ySyncPluginKey.getState(this.editor.state) as { type: Y.XmlFragment; binding: { mapping: Map<unknown, unknown> } } | undefined) : undefined;
    return state ? { type: state.type, mapping: state.binding.mapping } : null;
  }

  /**
   * The selection as a comment's anchor (the SDK's comments kit): two Yjs relative positions
   * (base64), which follow the text through everyone's edits, and the text it holds; null when
   * nothing is selected.
   */
  selectionAnchor(): CommentAnchorDraft | null {
    const binding = this.binding();
    const selection = this.editor?.state.selection;
    if (!binding || !selection || selection.empty) return null;
    const encode = (pos: number) => toBase64(Y.encodeRelativePosition(absolutePositionToRelativePosition(pos, binding.type, binding.mapping as never)));
    const quote = this.editor!.state.doc.textBetween(selection.from, selection.to, ' ').slice(0, 1000);
    return { from: encode(selection.from), to: encode(selection.to), quote };
  }

  /** Where an anchor is now in the editor; null when its text is gone (or the editor is not ready). */
  anchorRange(anchor: { from: string; to: string }): { from: number; to: number } | null {
    const binding = this.binding();
    if (!binding) return null;
    const decode = (position: string) => relativePositionToAbsolutePosition(binding.type.doc ?? this.doc, binding.type, Y.decodeRelativePosition(fromBase64(position)), binding.mapping as never);
    const from = decode(anchor.from);
    const to = decode(anchor.to);
    return from === null || to === null || to <= from ? null : { from, to };
  }

  /** Selects an anchor's range and scrolls to it (false when its text is gone). */
  showAnchor(anchor: { from: string; to: string }): boolean {
    const range = this.anchorRange(anchor);
    if (!range || !this.editor) return false;
    this.editor.chain().setTextSelection(range).scrollIntoView().run();
    return true;
  }

  /** A pasted or dropped image file waits for its alt text (true: the editor does nothing else with the event). */
  private takeImage(files: FileList | undefined): boolean {
    const file = [...(files ?? [])].find((item) => item.type.startsWith('image/'));
    if (!file || !this.images || !this.editable || this.suggesting) return false;
    this.imageFile = file;
    this.imageError = '';
    return true;
  }

  private chooseImage(event: Event): void {
    const input = event.target as HTMLInputElement;
    this.imageFile = input.files?.[0] ?? null;
    this.imageError = '';
    input.value = '';
  }

  /** Uploads the waiting image, then inserts it at the cursor with the alt text given. */
  private async insertImage(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const file = this.imageFile;
    if (!file || !this.images || !this.editor) return;
    const alt = ((event.target as HTMLFormElement).elements.namedItem('alt') as HTMLInputElement).value.trim();
    try {
      const src = await this.images.upload(file);
      this.editor.chain().focus().insertContent({ type: 'image', attrs: { src, alt: alt || null } }).run();
      this.imageFile = null;
    } catch (error) {
      this.imageError = error instanceof Error ? error.message : String(error);
    }
  }

  /** Inserts the chip of the MRN given in the "Link a record" form at the cursor, then a space. */
  private insertRecord(event: SubmitEvent): void {
    event.preventDefault();
    const input = (event.target as HTMLFormElement).elements.namedItem('mrn') as HTMLInputElement;
    const mrn = input.value.trim();
    if (!RECORD_MRN.test(mrn)) {
      this.recordError = 'An MRN looks like mrn:{app}:{resource}:{id}, for example mrn:wiki:page:…';
      input.focus();
      return;
    }
    this.editor?.chain().focus().insertContent([{ type: 'record', attrs: { mrn } }, { type: 'text', text: ' ' }]).run();
    this.linkingRecord = false;
    this.recordError = '';
  }

  protected override updated(changed: PropertyValues): void {
    if (changed.has('linkingRecord') && this.linkingRecord) this.querySelector<HTMLInputElement>('.wpk-editor-record-form input[name="mrn"]')?.focus();
    if (changed.has('suggesting') && changed.get('suggesting') !== undefined && this.editor) this.remount();
    if (changed.has('imageFile') && this.imageFile) this.querySelector<HTMLInputElement>('.wpk-editor-image-form input[name="alt"]')?.focus();
    // Colours through the CSSOM: the frame's CSP refuses style attributes.
    for (const chip of this.querySelectorAll<HTMLElement>('.wpk-editor-here span[data-color]')) chip.style.backgroundColor = chip.dataset.color ?? '';
  }

  protected override render() {
    const editor = this.editor;
    return html`
      <div class="wpk-editor-bar" role="toolbar" aria-label="Formatting">
        ${this.suggesting ? html`<span class="wpk-editor-mode">Suggesting</span>` : nothing}
        ${editor && (this.editable || this.suggesting) ? formattingButtons(editor) : nothing}
        ${editor && this.editable && !this.suggesting && this.images
          ? html`<button type="button" @mousedown=${(event: Event) => event.preventDefault()} @click=${() => this.querySelector<HTMLInputElement>('.wpk-editor-image-file')?.click()}>Image</button>
              <input class="wpk-editor-image-file" type="file" accept="image/png,image/jpeg,image/gif,image/webp" hidden aria-label="Image file" @change=${this.chooseImage} />`
          : nothing}
        ${editor && this.editable ? html`<button type="button" aria-expanded=${this.linkingRecord ? 'true' : 'false'} @mousedown=${(event: Event) => event.preventDefault()} @click=${() => (this.linkingRecord = !this.linkingRecord)}>Link a record</button>` : nothing}
        <span class="wpk-editor-status" role="status">${statusText(this.session.status)}</span>
        <div class="wpk-editor-here" aria-label="Who is here">${this.here.map((user) => html`<span data-color=${user.color} title=${user.name}>${user.name}</span>`)}</div>
      </div>
      ${this.linkingRecord && this.editable
        ? html`<form class="wpk-editor-image-form wpk-editor-record-form" aria-label="Link a record" @submit=${this.insertRecord}>
            <label>Record's MRN (a bare MRN typed or pasted in the text works too) <input name="mrn" maxlength="400" placeholder="mrn:wiki:page:…" aria-invalid=${this.recordError ? 'true' : 'false'} @input=${() => (this.recordError = '')} /></label>
            <button type="submit">Insert record</button>
            <button type="button" @click=${() => (this.linkingRecord = false)}>Cancel</button>
            ${this.recordError ? html`<span role="alert">${this.recordError}</span>` : nothing}
          </form>`
        : nothing}
      ${this.imageFile
        ? html`<form class="wpk-editor-image-form" aria-label="Insert an image" @submit=${this.insertImage}>
            <label>Describe ${this.imageFile.name || 'the image'} for those who cannot see it <input name="alt" maxlength="1000" /></label>
            <button type="submit">Insert image</button>
            <button type="button" @click=${() => (this.imageFile = null)}>Cancel</button>
            ${this.imageError ? html`<span role="alert">${this.imageError}</span>` : nothing}
          </form>`
        : nothing}
      <div class="wpk-editor-surface"></div>
      ${this.suggestions.list()}
    `;
  }
}

/** A new thread's anchor, made from the editor's selection. */
export interface CommentAnchorDraft {
  from: string;
  to: string;
  quote: string;
}

if (!customElements.get('wpk-collab-editor')) customElements.define('wpk-collab-editor', WpkCollabEditor);
