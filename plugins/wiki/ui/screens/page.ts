import { LitElement, appLink, errorText, html, kit, navigate, screenStyles, toast } from '@wpk/ui';
import { VERIFICATION_LABELS, WIKI_STYLES, get, renderDoc, send, type Page, type PageSummary } from '../api.js';

/**
 * `/pages/{id}`: a page read (its content rendered from the JSON document), edited as Markdown in
 * a text area with the version read (a stale save says so and keeps the text), its backlinks and
 * its verification.
 */
export class WikiPage extends LitElement {
  static override properties = { pageId: { attribute: 'page-id' }, page: { state: true }, backlinks: { state: true }, editing: { state: true }, error: { state: true } };
  static override styles = [screenStyles, WIKI_STYLES];
  declare pageId: string;
  declare page: Page | null;
  declare backlinks: PageSummary[];
  declare editing: boolean;
  declare error: string | null;

  constructor() {
    super();
    this.pageId = '';
    this.page = null;
    this.backlinks = [];
    this.editing = false;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  override updated(changed: Map<string, unknown>): void {
    if (changed.has('pageId') && changed.get('pageId') !== undefined) void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.page = await get<Page>(`/wiki/pages/${this.pageId}`);
      this.backlinks = await get<PageSummary[]>(`/wiki/pages/${this.pageId}/backlinks`);
      void kit().bridge.title(this.page.title);
      this.error = null;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    try {
      this.page = await send<Page>('PATCH', `/wiki/pages/${this.pageId}`, { version: this.page!.version, title: String(data.get('title') ?? '').trim(), markdown: String(data.get('markdown') ?? '') });
      this.editing = false;
      toast('Page saved', 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  private async verify(): Promise<void> {
    try {
      this.page = await send<Page>('POST', `/wiki/pages/${this.pageId}/verification`, {});
      toast('Page verified', 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override render() {
    const page = this.page;
    if (!page) return html`${this.error ? html`<p class="error" role="alert">${this.error}</p>` : html`<p class="muted">Loading…</p>`}`;
    return html`<p>${appLink(`/spaces/${page.space_id}`, 'Back to the space')}</p>
      ${this.editing
        ? html`<form @submit=${(event: SubmitEvent) => this.save(event)}>
            <p><label>Title <input name="title" required maxlength="300" .value=${page.title} /></label></p>
            <p><label for="markdown">Content (Markdown; link a page as [text](page:id))</label></p>
            <textarea id="markdown" name="markdown" .value=${page.markdown}></textarea>
            <div class="actions"><button type="submit">Save</button><button type="button" @click=${() => { this.editing = false; }}>Cancel</button></div>
          </form>`
        : html`<h1>${page.title}</h1>
          <p class="muted">Version ${page.version} · <span class="badge">${VERIFICATION_LABELS[page.verification]}</span>${page.due_at ? ` · review by ${page.due_at.slice(0, 10)}` : ''}${page.parent_hidden ? ' · its parent page is hidden from you' : ''}</p>
          <div class="actions"><button type="button" @click=${() => { this.editing = true; }}>Edit</button><button type="button" @click=${() => this.verify()}>Verify</button></div>
          <article>${renderDoc(page.content, (id) => navigate(`/pages/${id}`))}</article>`}
      <h2>Linked from</h2>
      ${this.backlinks.length ? html`<ul class="tree" aria-label="Linked from">${this.backlinks.map((row) => html`<li>${appLink(`/pages/${row.id}`, row.title)}</li>`)}</ul>` : html`<p class="muted">No page links here.</p>`}`;
  }
}

customElements.define('wiki-page', WikiPage);
