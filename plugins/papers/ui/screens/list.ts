import { appLink, errorText, html, kit, LitElement, navigate, screenStyles, toast } from '@wpk/ui';
import { api, PAPERS_STYLES, type Folder, type Paper } from '../api.js';

/** A file's bytes in base64 (the import takes a Word document so, as JSON). */
async function base64Of(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

/** `/`: one's papers and those shared with one, by folder; a new paper; a paper imported from a Markdown or Word file; a new folder. */
export class PapersList extends LitElement {
  static override properties = { papers: { state: true }, folders: { state: true }, folder: { state: true }, error: { state: true } };
  static override styles = [screenStyles, PAPERS_STYLES];
  declare papers: Paper[];
  declare folders: Folder[];
  declare folder: string;
  declare error: string | null;

  constructor() {
    super();
    this.papers = [];
    this.folders = [];
    this.folder = '';
    this.error = null;
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
    try {
      const paper = (await api<Paper>('POST', '/papers', { title, ...(this.folder ? { folder_id: this.folder } : {}) })).data;
      navigate(`/papers/${paper.id}`);
    } catch (error) {
      toast(errorText(error), 'danger');
    }
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
        <button type="submit">New paper</button>
      </form>
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
}

customElements.define('papers-list', PapersList);
