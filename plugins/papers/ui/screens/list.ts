import { appLink, errorText, html, kit, LitElement, navigate, screenStyles, sendFile, toast } from '@wpk/ui';
import { api, PAPERS_STYLES, type Folder, type Paper, type Template } from '../api.js';

/** A file's bytes in base64 (the import takes a Word document so, as JSON). */
async function base64Of(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

/** Word documents larger than this go up through a signed link (`POST /papers/imports/uploads`) rather than in the JSON body. */
const INLINE_DOCX_BYTES = 700_000;

/**
 * `/`: one's papers and those shared with one, by folder; a new paper (or template); a paper from a
 * template, its merge fields asked; a paper imported from a Markdown or Word file; a new folder.
 */
export class PapersList extends LitElement {
  static override properties = {
    papers: { state: true },
    folders: { state: true },
    folder: { state: true },
    error: { state: true },
    templates: { state: true },
    chosen: { state: true },
    templateError: { state: true },
  };
  static override styles = [screenStyles, PAPERS_STYLES];
  declare papers: Paper[];
  declare folders: Folder[];
  declare folder: string;
  declare error: string | null;
  declare templates: Template[];
  declare chosen: Template | null;
  declare templateError: string | null;

  constructor() {
    super();
    this.papers = [];
    this.folders = [];
    this.folder = '';
    this.error = null;
    this.templates = [];
    this.chosen = null;
    this.templateError = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Papers');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.folders = (await api<Folder[]>('GET', '/papers/folders')).data;
      this.papers = (await api<Paper[]>('GET', '/papers', undefined, { per_page: 100, ...(this.folder ? { folder_id: this.folder } : {}) })).data;
      this.error = null;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async create(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const title = (form.elements.namedItem('title') as HTMLInputElement).value;
    const template = (form.elements.namedItem('template') as HTMLInputElement).checked;
    try {
      const paper = (await api<Paper>('POST', '/papers', { title, ...(template ? { template: true } : {}), ...(this.folder ? { folder_id: this.folder } : {}) })).data;
      navigate(`/papers/${paper.id}`);
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  /** "New from template": the templates one may open, each with its merge fields, in a dialog. */
  private async openTemplates(): Promise<void> {
    try {
      this.templates = (await api<Template[]>('GET', '/papers/templates', undefined, { per_page: 100 })).data;
      this.chosen = this.templates[0] ?? null;
      this.templateError = null;
      this.renderRoot.querySelector<HTMLDialogElement>('#from-template')!.showModal();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  /** A paper of the chosen template, each merge field as typed; a refusal is shown as the API words it. */
  private async createFromTemplate(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (!this.chosen) return;
    const form = event.target as HTMLFormElement;
    const title = (form.elements.namedItem('paper-title') as HTMLInputElement).value.trim();
    const merge = Object.fromEntries((this.chosen.fields ?? []).map((field) => [field.name, (form.elements.namedItem(`field-${field.name}`) as HTMLInputElement).value]));
    try {
      const paper = (await api<Paper>('POST', '/papers', { template_id: this.chosen.id, merge, ...(title ? { title } : {}), ...(this.folder ? { folder_id: this.folder } : {}) })).data;
      this.renderRoot.querySelector<HTMLDialogElement>('#from-template')!.close();
      navigate(`/papers/${paper.id}`);
    } catch (error) {
      this.templateError = errorText(error);
    }
  }

  /** A Word document too large for the JSON body: a signed link, its bytes PUT there, then the import by its file_key. */
  private async importLargeDocx(file: File, folder: { folder_id?: string }): Promise<Paper> {
    const upload = (await api<{ file_key: string; upload: { url: string } }>('POST', '/papers/imports/uploads', { size_bytes: Math.max(1, file.size), filename: file.name.slice(0, 255) })).data;
    await sendFile(file, { url: upload.upload.url, method: 'PUT', headers: { 'content-type': 'application/octet-stream' } });
    return (await api<Paper>('POST', '/papers/imports', { file_key: upload.file_key, filename: file.name.slice(0, 255), ...folder })).data;
  }

  /**
   * A Markdown or Word file chosen: a new paper of its content in the folder shown. A Markdown
   * file is titled by its name; a Word file by its first heading, else its name (the server's rule).
   */
  private async importFile(event: Event): Promise<void> {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    try {
      const folder = this.folder ? { folder_id: this.folder } : {};
      if (/\.docx$/i.test(file.name) && file.size > INLINE_DOCX_BYTES) {
        navigate(`/papers/${(await this.importLargeDocx(file, folder)).id}`);
        return;
      }
      let body: Record<string, unknown>;
      if (/\.docx$/i.test(file.name)) body = { docx: await base64Of(file), filename: file.name.slice(0, 255), ...folder };
      else {
        const title = file.name.replace(/\.(md|markdown|txt)$/i, '').trim().slice(0, 300) || undefined;
        body = { markdown: await file.text(), ...(title ? { title } : {}), ...folder };
      }
      const paper = (await api<Paper>('POST', '/papers/imports', body)).data;
      navigate(`/papers/${paper.id}`);
    } catch (error) {
      toast(errorText(error), 'danger');
    } finally {
      input.value = '';
    }
  }

  private async createFolder(): Promise<void> {
    const input = this.renderRoot.querySelector<HTMLInputElement>('#folder-name')!;
    try {
      await api('POST', '/papers/folders', { name: input.value });
      input.value = '';
      await this.load();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override render() {
    return html`
      <h1>Papers</h1>
      ${this.error ? html`<p role="alert">${this.error}</p>` : ''}
      <form class="row" @submit=${this.create}>
        <label>Title <input name="title" required maxlength="300" /></label>
        <label class="choice"><input type="checkbox" name="template" /> Save as template</label>
        <button type="submit">New paper</button>
        <button type="button" class="secondary" @click=${this.openTemplates}>New from template</button>
      </form>
      ${this.renderTemplates()}
      <div class="row">
        <label>Import Markdown or Word <input type="file" accept=".md,.markdown,.txt,.docx,text/markdown,text/plain,application/vnd.openxmlformats-officedocument.wordprocessingml.document" @change=${this.importFile} /></label>
      </div>
      <div class="row">
        <label>Folder
          <select @change=${(event: Event) => { this.folder = (event.target as HTMLSelectElement).value; void this.load(); }}>
            <option value="">All papers</option>
            ${this.folders.map((folder) => html`<option value=${folder.id} ?selected=${folder.id === this.folder}>${folder.name}</option>`)}
          </select>
        </label>
        <label>New folder <input id="folder-name" maxlength="200" /></label>
        <button type="button" class="secondary" @click=${this.createFolder}>Add folder</button>
      </div>
      ${this.papers.length === 0
        ? html`<p class="muted">No papers yet.</p>`
        : html`<ul class="papers">
            ${this.papers.map((paper) => html`<li>${appLink(`/papers/${paper.id}`, paper.title)} <span class="muted">${paper.level === 'owner' ? 'Yours' : `Shared with you to ${paper.level}`}</span></li>`)}
          </ul>`}
    `;
  }

  /** The dialog of "New from template": pick a template, fill its merge fields (required ones marked). */
  private renderTemplates() {
    const chosen = this.chosen;
    return html`<dialog id="from-template" aria-labelledby="from-template-title">
      <form novalidate @submit=${this.createFromTemplate}>
        <h2 id="from-template-title">New from template</h2>
        ${this.templates.length === 0
          ? html`<p class="muted">No templates yet: tick "Save as template" on a new paper to make one.</p>`
          : html`<fieldset>
              <legend>Template</legend>
              ${this.templates.map(
                (template) => html`<label class="choice"><input type="radio" name="template-id" .checked=${template.id === chosen?.id} @change=${() => { this.chosen = template; this.templateError = null; }} /> ${template.title}
                  <span class="muted">${template.fields?.length ? template.fields.map((field) => `${field.name}${field.required ? '*' : ''}`).join(', ') : 'no fields'}</span></label>`,
              )}
            </fieldset>`}
        ${chosen
          ? html`<label>Title <input name="paper-title" maxlength="300" placeholder=${chosen.title} /></label>
              ${(chosen.fields ?? []).map(
                (field) => html`<label>${field.name}${field.required ? html` <span class="required" aria-hidden="true">*</span><span class="muted">(required)</span>` : html` <span class="muted">(optional)</span>`}
                  <input name=${`field-${field.name}`} maxlength="10000" aria-required=${field.required ? 'true' : 'false'} /></label>`,
              )}`
          : ''}
        ${this.templateError ? html`<p role="alert" class="error">${this.templateError}</p>` : ''}
        <div class="actions">
          <button type="button" class="secondary" @click=${() => this.renderRoot.querySelector<HTMLDialogElement>('#from-template')!.close()}>Cancel</button>
          <button type="submit" ?disabled=${!chosen}>Create paper</button>
        </div>
      </form>
    </dialog>`;
  }
}

customElements.define('papers-list', PapersList);
