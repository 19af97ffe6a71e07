import { LitElement, appLink, confirmAction, css, errorText, html, kit, nothing, sharedStyles, toast, type UploadTarget } from '@wpk/ui';
import { bytes, changed, completeUpload, folderItems, itemPath, trail, uploadTarget, type Item } from '../api.js';
import './preview.js';
import './shares.js';
import './versions.js';

/**
 * `/` and `/files/{id}`: a folder of the member's drive (the root at `/`) with its breadcrumbs,
 * a new folder, uploads with progress, each item's rename, move and trash, and a folder's sharing;
 * or a file's page with its preview, download, versions and sharing.
 */
export class FilesDrive extends LitElement {
  static override properties = {
    itemId: { attribute: false },
    item: { state: true },
    crumbs: { state: true },
    items: { state: true },
    loading: { state: true },
    error: { state: true },
    renaming: { state: true },
    renameError: { state: true },
    folderError: { state: true },
    download: { state: true },
  };
  /** The folder or file shown; null: the root. */
  declare itemId: string | null;
  declare item: Item | null;
  declare crumbs: Item[];
  declare items: Item[];
  declare loading: boolean;
  declare error: string | null;
  /** The id of the item whose name is being edited. */
  declare renaming: string | null;
  declare renameError: string | null;
  declare folderError: string | null;
  declare download: string | null;
  private ticket = 0;

  constructor() {
    super();
    this.itemId = null;
    this.item = null;
    this.crumbs = [];
    this.items = [];
    this.loading = true;
    this.error = null;
    this.renaming = null;
    this.renameError = null;
    this.folderError = null;
    this.download = null;
  }

  static override styles = [
    sharedStyles,
    css`
      :host { display: block; }
      h1 { font-size: var(--wpk-font-size-xl); margin: 0 0 var(--wpk-space-3); overflow-wrap: anywhere; }
      ol.crumbs { display: flex; flex-wrap: wrap; gap: var(--wpk-space-1); list-style: none; margin: 0 0 var(--wpk-space-2); padding: 0; }
      ol.crumbs li + li::before { content: '›'; margin-right: var(--wpk-space-1); color: var(--wpk-color-text-muted); }
      .tools { display: grid; align-items: start; gap: var(--wpk-space-4); grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); margin-bottom: var(--wpk-space-4); }
      form.inline { display: flex; flex-wrap: wrap; gap: var(--wpk-space-2); align-items: end; }
      form.inline wa-input { flex: 1 1 10rem; min-width: 0; }
      .wrap { overflow-x: auto; }
      table { border-collapse: collapse; width: 100%; }
      caption { text-align: left; font-weight: var(--wpk-font-weight-bold); padding-bottom: var(--wpk-space-2); }
      th, td { text-align: left; padding: var(--wpk-space-2); border-bottom: 1px solid var(--wpk-color-border); vertical-align: middle; }
      div.actions { display: flex; flex-wrap: wrap; gap: var(--wpk-space-1); align-items: center; justify-content: flex-end; }
      .kind { color: var(--wpk-color-text-muted); font-size: var(--wpk-font-size-s); }
      select { font: inherit; font-size: var(--wpk-font-size-s); color: var(--wpk-color-text); background: var(--wpk-color-bg); border: 1px solid var(--wpk-color-border-strong); border-radius: var(--wpk-radius-s); max-width: 10rem; }
      .state { padding: var(--wpk-space-5); text-align: center; color: var(--wpk-color-text-muted); }
      @media (max-width: 600px) { .optional { display: none; } }
      dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: var(--wpk-space-2) var(--wpk-space-4); }
      dt { color: var(--wpk-color-text-muted); }
      dd { margin: 0; }
      a.download { display: inline-block; padding: var(--wpk-space-2) var(--wpk-space-3); border-radius: var(--wpk-radius-m); background: var(--wpk-color-brand-fill); color: var(--wpk-color-on-brand-fill); text-decoration: none; font-weight: var(--wpk-font-weight-bold); }
    `,
  ];

  protected override willUpdate(changedProperties: Map<string, unknown>): void {
    if (changedProperties.has('itemId')) void this.load();
  }

  private async load(): Promise<void> {
    const ticket = ++this.ticket;
    this.loading = true;
    this.error = null;
    this.renaming = null;
    this.folderError = null;
    this.download = null;
    // Another folder: what was typed for the one before goes.
    const typed = this.renderRoot?.querySelector<HTMLInputElement>('form.inline wa-input[name="name"]');
    if (typed) typed.value = '';
    try {
      const item = this.itemId ? ((await kit().client.files.getFilesByFileId({ params: { file_id: this.itemId } })).data as Item) : null;
      const crumbs = item ? await trail(item) : [];
      const items = item === null || item.kind === 'folder' ? await folderItems(item?.id ?? null) : [];
      if (ticket !== this.ticket) return;
      Object.assign(this, { item, crumbs, items });
      void kit().bridge.title(item?.name ?? 'My files');
      if (item?.kind === 'file') this.download = (await kit().client.files.getFilesByFileIdDownload({ params: { file_id: item.id } })).data.url;
    } catch (error) {
      if (ticket === this.ticket) this.error = errorText(error);
    } finally {
      if (ticket === this.ticket) this.loading = false;
    }
  }

  private folderId(): string | null {
    return this.item?.kind === 'folder' ? this.item.id : null;
  }

  private async reloadItems(): Promise<void> {
    this.items = await folderItems(this.folderId());
  }

  private async newFolder(event: Event): Promise<void> {
    event.preventDefault();
    const input = (event.target as HTMLFormElement).querySelector('wa-input')!;
    const name = String(input.value ?? '').trim();
    try {
      const folderId = this.folderId();
      await kit().client.files.postFolders({ body: { name, ...(folderId ? { parent_id: folderId } : {}) } as never });
      input.value = '';
      this.folderError = null;
      toast(`Folder ${name} created`, 'success');
      await this.reloadItems();
    } catch (error) {
      this.folderError = errorText(error);
    }
  }

  /** Where an upload's bytes go: `POST /uploads` in this folder answers the link. */
  private readonly prepare = (file: File): Promise<UploadTarget & Record<string, unknown>> => {
    const folderId = this.folderId();
    return uploadTarget({ name: file.name, size_bytes: file.size, ...(folderId ? { folder_id: folderId } : {}) });
  };

  private readonly finish = async (_file: File, prepared: Record<string, unknown>) => {
    await completeUpload(prepared);
    await this.reloadItems();
  };

  private async rename(event: Event, item: Item): Promise<void> {
    event.preventDefault();
    const name = String((event.target as HTMLFormElement).querySelector('wa-input')!.value ?? '').trim();
    if (name === item.name) {
      this.renaming = null;
      return;
    }
    try {
      await kit().client.files.patchFilesByFileId({ params: { file_id: item.id }, body: { name } });
      this.renaming = null;
      this.renameError = null;
      toast(`Renamed to ${name}`, 'success');
      await this.reloadItems();
    } catch (error) {
      this.renameError = errorText(error);
    }
  }

  private async move(item: Item, target: string): Promise<void> {
    if (!target) return;
    const parentId = target === 'root' ? null : target;
    const where = parentId === null ? 'My files' : ([...this.crumbs, ...this.items].find((folder) => folder.id === parentId)?.name ?? 'the folder');
    try {
      await kit().client.files.patchFilesByFileId({ params: { file_id: item.id }, body: { parent_id: parentId } });
      toast(`${item.name} moved to ${where}`, 'success');
      await this.reloadItems();
    } catch (error) {
      toast(errorText(error), 'danger');
      await this.reloadItems();
    }
  }

  private async trash(item: Item): Promise<void> {
    const what = item.kind === 'folder' ? `${item.name} and everything in it go` : `${item.name} goes`;
    if (!(await confirmAction({ title: `Move ${item.name} to the trash?`, message: `${what} to your trash, where you can restore it.`, confirm_label: 'Move to trash', danger: true }))) return;
    try {
      await kit().client.files.deleteFilesByFileId({ params: { file_id: item.id } });
      toast(`${item.name} moved to the trash`, 'success');
      await this.reloadItems();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  /** The folders an item may move to from here: one level up, and the folders beside it. */
  private targets(item: Item): Array<{ value: string; label: string }> {
    const parentOfHere = this.crumbs.length >= 2 ? this.crumbs[this.crumbs.length - 2] : null;
    const up = this.folderId() ? [{ value: parentOfHere?.id ?? 'root', label: `↑ ${parentOfHere?.name ?? 'My files'}` }] : [];
    return [...up, ...this.items.filter((folder) => folder.kind === 'folder' && folder.id !== item.id).map((folder) => ({ value: folder.id, label: folder.name }))];
  }

  private row(item: Item) {
    if (this.renaming === item.id) {
      return html`<tr><td colspan="4">
        <form class="inline" @submit=${(event: Event) => this.rename(event, item)}>
          <wa-input label=${`New name of ${item.name}`} .value=${item.name} maxlength="255" autofocus>${this.renameError ? html`<span slot="hint" class="error">${this.renameError}</span>` : nothing}</wa-input>
          <wa-button type="submit" variant="brand">Save</wa-button>
          <wa-button @click=${() => ((this.renaming = null), (this.renameError = null))}>Cancel</wa-button>
        </form>
      </td></tr>`;
    }
    const targets = this.targets(item);
    return html`<tr>
      <th scope="row">${appLink(itemPath(item), item.kind === 'folder' ? `${item.name}/` : item.name)} <span class="kind">${item.kind === 'folder' ? 'folder' : item.type}</span></th>
      <td class="optional">${item.kind === 'file' ? bytes(item.size_bytes) : ''}</td>
      <td class="optional">${changed(item.updated_at)}</td>
      <td><div class="actions">
        <wa-button size="small" appearance="outlined" @click=${() => ((this.renaming = item.id), (this.renameError = null))}>Rename<span class="wpk-visually-hidden"> ${item.name}</span></wa-button>
        ${targets.length
          ? html`<label><span class="wpk-visually-hidden">Move ${item.name} to</span>
              <select @change=${(event: Event) => {
                const select = event.target as HTMLSelectElement;
                const target = select.value;
                select.value = ''; // the row's element may show another item next
                void this.move(item, target);
              }}>
                <option value="">Move to…</option>
                ${targets.map((target) => html`<option value=${target.value}>${target.label}</option>`)}
              </select></label>`
          : nothing}
        <wa-button size="small" appearance="outlined" variant="danger" @click=${() => this.trash(item)}>Trash<span class="wpk-visually-hidden"> ${item.name}</span></wa-button>
      </div></td>
    </tr>`;
  }

  private breadcrumbs() {
    return html`<nav aria-label="Breadcrumbs"><ol class="crumbs">
      <li>${this.crumbs.length ? appLink('/', 'My files') : html`<span aria-current="page">My files</span>`}</li>
      ${this.crumbs.map((crumb, index) => html`<li>${index === this.crumbs.length - 1 ? html`<span aria-current="page">${crumb.name}</span>` : appLink(itemPath(crumb), crumb.name)}</li>`)}
    </ol></nav>`;
  }

  private file(item: Item) {
    return html`${this.breadcrumbs()}
      <h1>${item.name}</h1>
      <dl>
        <dt>Type</dt><dd>${item.type}${item.content_type ? ` (${item.content_type})` : ''}</dd>
        <dt>Size</dt><dd>${bytes(item.size_bytes)}</dd>
        <dt>Version</dt><dd>${item.version_number ?? 1}</dd>
        <dt>Changed</dt><dd>${changed(item.updated_at)}</dd>
      </dl>
      ${this.download ? html`<files-preview .item=${item} .url=${this.download}></files-preview>` : nothing}
      ${this.download ? html`<p><a class="download" href=${this.download} download=${item.name}>Download ${item.name}</a></p>` : nothing}
      <files-versions .item=${item} @changed=${() => this.load()}></files-versions>
      <files-shares .item=${item}></files-shares>
      <p>${appLink(item.parent_id ? itemPath({ id: item.parent_id }) : '/', '← Back to the folder')}</p>`;
  }

  protected override render() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p><p>${appLink('/', 'Back to my files')}</p>`;
    if (this.loading && !this.item && this.items.length === 0) return html`<wa-spinner label="Loading the folder"></wa-spinner>`;
    if (this.item?.kind === 'file') return this.file(this.item);
    const name = this.item?.name ?? 'My files';
    return html`${this.breadcrumbs()}
      <h1>${name}</h1>
      <div class="tools">
        <form class="inline" @submit=${this.newFolder}>
          <wa-input label="New folder" name="name" maxlength="255">${this.folderError ? html`<span slot="hint" class="error">${this.folderError}</span>` : nothing}</wa-input>
          <wa-button type="submit">Create folder</wa-button>
        </form>
        <wpk-upload label=${`Upload to ${name}`} multiple .prepare=${this.prepare} .finish=${this.finish}></wpk-upload>
      </div>
      <div class="wrap" aria-busy=${this.loading ? 'true' : 'false'}>
        <table>
          <caption>${`In ${name}`}</caption>
          <thead><tr><th scope="col">Name</th><th scope="col" class="optional">Size</th><th scope="col" class="optional">Changed</th><th scope="col"><span class="wpk-visually-hidden">Actions</span></th></tr></thead>
          <tbody>${this.items.map((item) => this.row(item))}</tbody>
        </table>
        ${!this.loading && this.items.length === 0 ? html`<p class="state" role="status">This folder is empty: upload files or make a folder.</p>` : nothing}
      </div>
      ${this.item ? html`<files-shares .item=${this.item}></files-shares>` : nothing}`;
  }
}

customElements.define('files-drive', FilesDrive);

