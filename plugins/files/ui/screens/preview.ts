import { LitElement, css, errorText, html, nothing, sharedStyles } from '@wpk/ui';
import type { Item } from '../api.js';

/**
 * The preview of a file on its page. An image is fetched through its download link (the frame's
 * opaque origin has no cookie: the signed link is the credential) and shown from a blob URL. A PDF
 * cannot be shown inside the app's frame — the frame's Content-Security-Policy allows no nested
 * frame or object — so it gets a clear way to the browser's own viewer: the link opens in a new
 * tab. Anything else: no preview, the download only.
 */
export class FilesPreview extends LitElement {
  static override properties = { item: { attribute: false }, url: { attribute: false }, image: { state: true }, error: { state: true } };
  declare item: Item;
  /** The file's download link (`GET /files/{id}/download`). */
  declare url: string;
  /** The image's blob URL once fetched. */
  declare image: string | null;
  declare error: string | null;

  constructor() {
    super();
    this.image = null;
    this.error = null;
  }

  static override styles = [
    sharedStyles,
    css`
      :host { display: block; margin: var(--wpk-space-3) 0; }
      img { display: block; max-width: 100%; max-height: 60vh; height: auto; border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m); background: var(--wpk-color-surface); }
      .pdf { border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m); padding: var(--wpk-space-3); }
      .pdf p { margin: 0 0 var(--wpk-space-2); }
    `,
  ];

  protected override willUpdate(changed: Map<string, unknown>): void {
    if ((changed.has('url') || changed.has('item')) && this.url && this.item?.type === 'image') void this.fetchImage();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.forget();
  }

  private forget(): void {
    if (this.image) URL.revokeObjectURL(this.image);
    this.image = null;
  }

  private async fetchImage(): Promise<void> {
    try {
      const response = await fetch(this.url);
      if (!response.ok) throw new Error(`The image could not be read (HTTP ${response.status})`);
      const blob = await response.blob();
      this.forget();
      this.image = URL.createObjectURL(blob);
      this.error = null;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  protected override render() {
    if (!this.item || !this.url) return nothing;
    if (this.item.type === 'image') {
      if (this.error) return html`<p class="error" role="alert">${this.error}</p>`;
      return this.image ? html`<img src=${this.image} alt=${`Preview of ${this.item.name}`} />` : html`<wa-spinner label=${`Loading the preview of ${this.item.name}`}></wa-spinner>`;
    }
    if (this.item.type === 'pdf') {
      return html`<div class="pdf">
        <p>PDFs open in your browser's viewer, in a tab of their own.</p>
        <a href=${this.url} target="_blank" rel="noopener">Open ${this.item.name} in a new tab</a>
      </div>`;
    }
    return html`<p class="muted">No preview for this kind of file: download it to open it.</p>`;
  }
}

customElements.define('files-preview', FilesPreview);
