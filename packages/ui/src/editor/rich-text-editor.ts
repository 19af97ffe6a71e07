import { Editor, type JSONContent } from '@tiptap/core';
import { html, LitElement, nothing } from 'lit';
import { editorCss, formattingButtons, insertMention, richTextExtensions, styleAdopter } from './extensions.js';
import { MentionSuggestions, type FindMembers, type MentionedMember } from './mention-suggest.js';

const addStyles = styleAdopter(editorCss('wpk-rich-text-editor', '120px'));

/**
 * `<wpk-rich-text-editor>`: rich text one person writes (a post, a comment), not a shared
 * document: tiptap without Yjs, with the kit's extension set (extensions.ts, the one
 * `<wpk-collab-editor>` uses): bold, italic, headings, lists, links (`http(s):`, `mailto:`),
 * checklists and tables when `blocks` is set, and
 * mentions of members chosen in the shell's member picker (`pickMember`, given by the app:
 * `() => kit().bridge.pickMembers(...)`) or typed: `@` and the start of a name lists the members
 * `findMembers` finds (`(q) => kit().bridge.findMembers(q)`; mention-suggest.ts). `html` / `json` read what was written; `clear()`
 * empties it. Load it on demand: `await import('@wpk/ui/editor')`.
 *
 * ```ts
 * html`<wpk-rich-text-editor label="Text" .pickMember=${() => pick()}></wpk-rich-text-editor>`
 * ```
 */
export class WpkRichTextEditor extends LitElement {
  static override properties = { label: {}, value: {}, blocks: { type: Boolean }, pickMember: { attribute: false }, findMembers: { attribute: false }, linking: { state: true } };

  /** The accessible name of the text box. */
  label = 'Text';
  /** The HTML it starts with. */
  value = '';
  /**
   * Offers checklists and tables too (attribute `blocks`; read when the editor starts): only where
   * the app's server keeps their markup, an HTML sanitiser such as Feeds' would flatten them.
   */
  blocks = false;
  /** Asks the shell for a member to mention (null: the Mention button is not shown). */
  pickMember: (() => Promise<MentionedMember | null | undefined>) | null = null;
  /** Finds members to mention as `@` and a name are typed (null: no list). */
  findMembers: FindMembers | null = null;
  /** True while the link address field shows. */
  linking = false;
  editor: Editor | null = null;
  private readonly suggestions = new MentionSuggestions(this, () => this.findMembers, () => this.editor);

  protected override createRenderRoot() {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    addStyles(this.getRootNode() as Document | ShadowRoot);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.editor?.destroy();
    this.editor = null;
  }

  protected override firstUpdated(): void {
    this.editor = new Editor({
      element: this.querySelector<HTMLElement>('.wpk-editor-surface')!,
      content: this.value || '',
      injectCSS: false,
      extensions: richTextExtensions({ collaborative: false, blocks: this.blocks }),
      editorProps: { attributes: { role: 'textbox', 'aria-multiline': 'true', 'aria-label': this.label }, handleKeyDown: (_view, event) => this.suggestions.keydown(event) },
      onTransaction: ({ editor }) => {
        this.suggestions.track(editor);
        this.requestUpdate();
      },
      onUpdate: () => this.dispatchEvent(new Event('input', { bubbles: true, composed: true })),
    });
    // The bar needs the editor: show it now, not at the first keystroke.
    this.requestUpdate();
  }

  /** What was written, as HTML (the servers' sanitisers keep it); '' when empty. */
  get html(): string {
    return !this.editor || this.editor.isEmpty ? '' : this.editor.getHTML();
  }

  /** What was written, as ProseMirror JSON. */
  get json(): JSONContent | null {
    return this.editor?.getJSON() ?? null;
  }

  /** True when nothing is written. */
  get empty(): boolean {
    return !this.editor || this.editor.isEmpty;
  }

  /** Empties the editor (after a post was sent). */
  clear(): void {
    this.editor?.commands.clearContent(true);
  }

  override focus(): void {
    this.editor?.commands.focus();
  }

  private async mention(): Promise<void> {
    const member = await this.pickMember?.();
    if (member && this.editor) insertMention(this.editor, member);
  }

  private applyLink(event: Event): void {
    event.preventDefault();
    const input = this.querySelector<HTMLInputElement>('.wpk-editor-link input');
    const href = input?.value.trim() ?? '';
    const chain = this.editor!.chain().focus().extendMarkRange('link');
    if (href === '') chain.unsetLink().run();
    else if (/^(https?:\/\/|mailto:)/i.test(href)) chain.setLink({ href }).run();
    else return void input?.setCustomValidity('A link starts with https://, http:// or mailto:');
    this.linking = false;
  }

  protected override render() {
    const editor = this.editor;
    return html`
      <div class="wpk-editor-bar" role="toolbar" aria-label="Formatting">
        ${editor
          ? html`${formattingButtons(editor)}
              <button type="button" aria-label="Link" title="Link" aria-pressed=${editor.isActive('link') ? 'true' : 'false'} @click=${() => (this.linking = !this.linking)}>Link</button>
              ${this.pickMember ? html`<button type="button" @click=${() => this.mention()}>@ Mention</button>` : nothing}`
          : nothing}
      </div>
      ${this.linking
        ? html`<form class="wpk-editor-bar wpk-editor-link" @submit=${(event: Event) => this.applyLink(event)}>
            <input type="url" aria-label="Link address" placeholder="https://…" .value=${String(editor?.getAttributes('link').href ?? '')} @input=${(event: Event) => (event.target as HTMLInputElement).setCustomValidity('')} />
            <button type="submit">Apply link</button>
          </form>`
        : nothing}
      <div class="wpk-editor-surface"></div>
      ${this.suggestions.list()}
    `;
  }
}

if (!customElements.get('wpk-rich-text-editor')) customElements.define('wpk-rich-text-editor', WpkRichTextEditor);
