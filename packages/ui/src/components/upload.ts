import { LitElement, css, html } from 'lit';
import { localeOf } from '../app.js';
import { formatBytes } from '../format.js';
import { sendFile, type UploadTarget } from '../send-file.js';
import { sharedStyles } from './shared-styles.js';
import './wa.js';

export { sendFile, type UploadTarget };

/**
 * A file as an app's signed-upload route takes it (`POST …/uploads`): its name, its size (one byte
 * at the least: a route refuses 0) and its type when the browser knows one.
 */
export const uploadFileBody = (file: File): { filename: string; size_bytes: number; content_type?: string } => ({ filename: file.name, size_bytes: Math.max(1, file.size), ...(file.type ? { content_type: file.type } : {}) });

/** Where a file's bytes go through a signed link: PUT to `url`, with the file's type when it has one. */
export const signedUploadTarget = (url: string, file: File): UploadTarget => ({ url, method: 'PUT', ...(file.type ? { headers: { 'content-type': file.type } } : {}) });

interface Upload {
  name: string;
  size: number;
  loaded: number;
  state: 'uploading' | 'done' | 'failed';
  error?: string;
}

/**
 * `<wpk-upload label="Upload files" multiple .prepare=${(file) => target}>`: a file input whose
 * files go up one by one with a progress bar each. `prepare(file)` answers where the file goes
 * (for the Files app: `POST /uploads`, then its `upload_url`); `finish(file, prepared)` runs after
 * the bytes are in (`POST /uploads/{id}/completion`). Fires `wpk-uploaded` per file.
 */
export class WpkUpload extends LitElement {
  static override properties = { label: { type: String }, multiple: { type: Boolean }, accept: { type: String }, uploads: { state: true } };
  declare label: string;
  declare multiple: boolean;
  declare accept: string;
  declare uploads: Upload[];
  /** Where a file goes. */
  prepare: (file: File) => Promise<UploadTarget & Record<string, unknown>> = async () => {
    throw new Error('wpk-upload needs a prepare function');
  };
  /** What runs once a file's bytes are in. */
  finish: (file: File, prepared: UploadTarget & Record<string, unknown>) => Promise<unknown> = async () => null;

  constructor() {
    super();
    this.label = 'Upload';
    this.multiple = false;
    this.accept = '';
    this.uploads = [];
  }

  static override styles = [sharedStyles, css`
    :host { display: block; }
    ul { list-style: none; padding: 0; margin: var(--wpk-space-2) 0 0; display: grid; gap: var(--wpk-space-2); }
    label { font-weight: var(--wpk-font-weight-bold); display: block; margin-bottom: var(--wpk-space-1); }
  `];

  private async chosen(event: Event): Promise<void> {
    const input = event.target as HTMLInputElement;
    const files = [...(input.files ?? [])];
    input.value = '';
    for (const file of files) await this.upload(file);
  }

  private update1(index: number, patch: Partial<Upload>): void {
    this.uploads = this.uploads.map((upload, at) => (at === index ? { ...upload, ...patch } : upload));
  }

  private async upload(file: File): Promise<void> {
    const index = this.uploads.length;
    this.uploads = [...this.uploads, { name: file.name, size: file.size, loaded: 0, state: 'uploading' }];
    try {
      const prepared = await this.prepare(file);
      await sendFile(file, prepared, (loaded) => this.update1(index, { loaded }));
      const result = await this.finish(file, prepared);
      this.update1(index, { loaded: file.size, state: 'done' });
      this.dispatchEvent(new CustomEvent('wpk-uploaded', { detail: { file, result }, bubbles: true, composed: true }));
    } catch (error) {
      this.update1(index, { state: 'failed', error: error instanceof Error ? error.message : String(error) });
    }
  }

  protected override render() {
    const { locale } = localeOf();
    return html`<label for="file">${this.label}</label>
      <input id="file" type="file" ?multiple=${this.multiple} accept=${this.accept} @change=${this.chosen} />
      <ul>
        ${this.uploads.map(
          (upload) => html`<li>
            <wa-progress-bar value=${upload.size ? Math.round((100 * upload.loaded) / upload.size) : 100} label=${`${upload.name}: ${upload.state}`}></wa-progress-bar>
            <span>${upload.name} · ${formatBytes(upload.loaded, locale)} of ${formatBytes(upload.size, locale)}</span>
            ${upload.state === 'failed' ? html`<p class="error" role="alert">${upload.error}</p>` : upload.state === 'done' ? html`<span class="muted"> · done</span>` : ''}
          </li>`,
        )}
      </ul>`;
  }
}

customElements.define('wpk-upload', WpkUpload);

declare global {
  interface HTMLElementTagNameMap {
    'wpk-upload': WpkUpload;
  }
}
