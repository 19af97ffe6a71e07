import { errorText, html, kit, LitElement, memberColor, saveDownload, screenStyles, toast } from '@wpk/ui';
import { api, paperImages, PAPERS_STYLES, type PaperWithContent } from '../api.js';

/**
 * `/papers/:paper_id`: the paper in the collaborative editor (loaded on demand: `@wpk/ui/editor`),
 * its title, Export (Markdown, HTML, Word or PDF, downloaded as a file named by the title), and sharing with a member.
 */
export class PapersPaper extends LitElement {
  static override properties = { paperId: { attribute: false }, paper: { state: true }, ready: { state: true }, error: { state: true } };
  static override styles = [screenStyles, PAPERS_STYLES];
  declare paperId: string;
  declare paper: PaperWithContent | null;
  declare ready: boolean;
  declare error: string | null;
  private images: ReturnType<typeof paperImages> | null = null;

  constructor() {
    super();
    this.paper = null;
    this.ready = false;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.paper = (await api<PaperWithContent>('GET', `/papers/${this.paperId}`)).data;
      void kit().bridge.title(this.paper.title);
      await import('@wpk/ui/editor');
      this.ready = true;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async share(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const member = (form.elements.namedItem('member') as HTMLInputElement).value.trim();
    const level = (form.elements.namedItem('level') as HTMLSelectElement).value;
    try {
      const current = (await api<{ shares: Array<{ principal_type: string; principal_id: string; level: string }> }>('GET', `/papers/${this.paperId}/shares`)).data.shares;
      const shares = [...current.filter((share) => !(share.principal_type === 'member' && share.principal_id === member)), { principal_type: 'member', principal_id: member, level }];
      await api('PUT', `/papers/${this.paperId}/shares`, { shares });
      toast('Shared', 'success');
      form.reset();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async download(format: 'markdown' | 'html' | 'docx' | 'pdf'): Promise<void> {
    try {
      await saveDownload(`/papers/${this.paperId}/export?format=${format}`, `${this.paper?.title ?? 'paper'}.${format === 'markdown' ? 'md' : format}`);
      this.renderRoot.querySelector('details.export')?.removeAttribute('open');
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override render() {
    if (this.error) return html`<p role="alert">${this.error}</p>`;
    if (!this.paper) return html`<p>Loading…</p>`;
    const paper = this.paper;
    const me = kit().member;
    const transport = {
      channel: `papers/papers/${paper.id}`,
      load: async () => {
        const document = (await api<{ update: string; level: string }>('GET', `/papers/${paper.id}/document`)).data;
        return { update: document.update, editable: document.level === 'edit' || document.level === 'owner' };
      },
      send: async (update: string) => void (await api('POST', `/papers/${paper.id}/updates`, { update })),
    };
    this.images ??= paperImages(paper.id);
    return html`
      <div class="row heading">
        <h1>${paper.title}</h1>
        <details class="export">
          <summary>Export</summary>
          <div class="menu">
            <button type="button" class="secondary" @click=${() => this.download('markdown')}>Markdown (.md)</button>
            <button type="button" class="secondary" @click=${() => this.download('html')}>HTML (.html)</button>
            <button type="button" class="secondary" @click=${() => this.download('docx')}>Word (.docx)</button>
            <button type="button" class="secondary" @click=${() => this.download('pdf')}>PDF (.pdf)</button>
          </div>
        </details>
      </div>
      ${this.ready ? html`<wpk-collab-editor .transport=${transport} .user=${{ id: me.id, name: me.name, color: memberColor(me.id) }} .findMembers=${(query: string) => kit().bridge.findMembers(query)} .images=${this.images} label=${paper.title}></wpk-collab-editor>` : html`<p>Loading the editor…</p>`}
      ${paper.level === 'owner'
        ? html`<h2>Share</h2>
            <form class="row" @submit=${this.share}>
              <label>Member id <input name="member" required /></label>
              <label>Access
                <select name="level"><option value="view">View</option><option value="comment">Comment</option><option value="edit" selected>Edit</option></select>
              </label>
              <button type="submit">Share</button>
            </form>`
        : ''}
    `;
  }
}

customElements.define('papers-paper', PapersPaper);
