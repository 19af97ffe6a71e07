import { LitElement, confirmAction, css, errorText, html, kit, nothing, sharedStyles, toast, type UploadTarget } from '@wpk/ui';
import { bytes, changed, completeUpload, uploadTarget, type Item, type Version } from '../api.js';

/**
 * A file's versions, newest first: each one's download, **Upload a new version** (`POST /uploads`
 * with the file's id), and **Restore** on an older one (the shell asks; the old bytes become a new
 * current version). Fires `changed` once the file has a new current version.
 */
export class FilesVersions extends LitElement {
  static override properties = { item: { attribute: false }, versions: { state: true }, error: { state: true } };
  declare item: Item;
  declare versions: Version[] | null;
  declare error: string | null;

  constructor() {
    super();
    this.versions = null;
    this.error = null;
  }

  static override styles = [
    sharedStyles,
    css`
      :host { display: block; margin: var(--wpk-space-4) 0; }
      h2 { font-size: var(--wpk-font-size-l); margin: 0 0 var(--wpk-space-2); }
      ol { list-style: none; margin: 0; padding: 0; }
      li { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: center; padding: var(--wpk-space-2) 0; border-bottom: 1px solid var(--wpk-color-border); }
      li .what { flex: 1 1 12rem; }
      wpk-upload { margin-top: var(--wpk-space-3); }
    `,
  ];

  protected override willUpdate(changedProperties: Map<string, unknown>): void {
    if (changedProperties.has('item')) void this.load();
  }

  private async load(): Promise<void> {
    try {
      const versions: Version[] = [];
      for await (const version of kit().client.paginate('getFilesByFileIdVersions', { params: { file_id: this.item.id }, query: { per_page: 100 } })) versions.push(version as Version);
      this.versions = versions;
      this.error = null;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async download(version: Version): Promise<void> {
    try {
      const link = (await kit().client.files.getFilesByFileIdVersionsByVersionIdDownload({ params: { file_id: this.item.id, version_id: version.id } })).data;
      const anchor = document.createElement('a');
      anchor.href = link.url;
      anchor.download = this.item.name;
      anchor.click();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  /** Where a new version's bytes go: `POST /uploads` with this file's id. */
  private readonly prepare = (file: File): Promise<UploadTarget & Record<string, unknown>> => uploadTarget({ file_id: this.item.id, size_bytes: file.size });

  private readonly finish = async (_file: File, prepared: Record<string, unknown>) => {
    await completeUpload(prepared);
    this.changed();
  };

  private changed(): void {
    this.dispatchEvent(new CustomEvent('changed', { bubbles: true, composed: true }));
  }

  private async restore(version: Version): Promise<void> {
    if (!(await confirmAction({ title: `Restore version ${version.number}?`, message: `Its content becomes the current version of ${this.item.name}; the versions after it stay in the history.`, confirm_label: 'Restore version' }))) return;
    try {
      await kit().client.files.postFilesByFileIdVersionsByVersionIdRestoration({ params: { file_id: this.item.id, version_id: version.id } });
      toast(`Version ${version.number} of ${this.item.name} restored`, 'success');
      this.changed();
    } catch (error) {
      toast(errorText(error), 'danger');
      await this.load();
    }
  }

  protected override render() {
    const mayRestore = this.item.access !== 'read';
    return html`<section aria-labelledby="versions">
      <h2 id="versions">Versions</h2>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.versions === null && !this.error ? html`<wa-spinner label="Loading the versions"></wa-spinner>` : nothing}
      ${this.versions
        ? html`<ol aria-label=${`Versions of ${this.item.name}, newest first`}>
            ${this.versions.map(
              (version) => html`<li>
                <span class="what">Version ${version.number}${version.current ? ' (current)' : ''} · ${bytes(version.size_bytes)} · ${changed(version.created_at)}</span>
                <wa-button size="small" appearance="outlined" @click=${() => this.download(version)}>Download<span class="wpk-visually-hidden"> version ${version.number}</span></wa-button>
                ${!version.current && mayRestore
                  ? html`<wa-button size="small" appearance="outlined" @click=${() => this.restore(version)}>Restore<span class="wpk-visually-hidden"> version ${version.number}</span></wa-button>`
                  : nothing}
              </li>`,
            )}
          </ol>`
        : nothing}
      ${mayRestore ? html`<wpk-upload label=${`Upload a new version of ${this.item.name}`} .prepare=${this.prepare} .finish=${this.finish}></wpk-upload>` : nothing}
    </section>`;
  }
}

customElements.define('files-versions', FilesVersions);
