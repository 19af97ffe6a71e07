import { LitElement, appLink, errorText, html, kit, navigate, screenStyles, toast } from '@wpk/ui';
import { VERIFICATION_LABELS, WIKI_STYLES, get, send, visibleTemplates, type Page, type PageSummary, type Space, type TemplateChoice } from '../api.js';

/**
 * `/spaces/{id}`: a space's page tree (a page whose parent is hidden is marked, a template badged)
 * and a form to add a page, blank or from a template the member can see in any space.
 */
export class WikiSpace extends LitElement {
  static override properties = { spaceId: { attribute: 'space-id' }, space: { state: true }, pages: { state: true }, templates: { state: true }, error: { state: true } };
  static override styles = [screenStyles, WIKI_STYLES];
  declare spaceId: string;
  declare space: Space | null;
  declare pages: PageSummary[];
  declare templates: TemplateChoice[];
  declare error: string | null;

  constructor() {
    super();
    this.spaceId = '';
    this.space = null;
    this.pages = [];
    this.templates = [];
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.space = (await get<Space[]>('/wiki/spaces')).find((space) => space.id === this.spaceId) ?? null;
      this.pages = await get<PageSummary[]>(`/wiki/spaces/${this.spaceId}/pages`);
      void kit().bridge.title(this.space?.name ?? 'Space');
      this.templates = this.space && ['edit', 'admin'].includes(this.space.role) ? await visibleTemplates() : [];
      this.error = null;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async add(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const parent = String(data.get('parent_id') ?? '');
    const template = String(data.get('template_id') ?? '');
    try {
      const page = await send<Page>('POST', `/wiki/spaces/${this.spaceId}/pages`, { title: String(data.get('title') ?? '').trim(), ...(parent ? { parent_id: parent } : {}), ...(template ? { template_id: template } : {}) });
      toast(`Page ${page.title} added`, 'success');
      navigate(`/pages/${page.id}`);
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override render() {
    const canEdit = this.space && ['edit', 'admin'].includes(this.space.role);
    return html`<h1>${this.space?.name ?? 'Space'}</h1>
      ${this.space?.description ? html`<p class="muted">${this.space.description}</p>` : ''}
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
      <h2>Pages</h2>
      ${this.pages.length
        ? html`<ul class="tree" aria-label="Pages">${this.pages.map((page) => html`<li class=${`depth-${Math.min(page.depth, 8)}`}>
            ${appLink(`/pages/${page.id}`, page.title)}
            ${page.verification !== 'unverified' ? html` <span class="badge">${VERIFICATION_LABELS[page.verification]}</span>` : ''}
            ${page.template ? html` <span class="badge">Template</span>` : ''}
            ${page.parent_hidden ? html` <span class="muted">(its parent page is hidden from you)</span>` : ''}
          </li>`)}</ul>`
        : html`<p class="muted">No page yet.</p>`}
      ${canEdit
        ? html`<h2>New page</h2>
          <form class="inline" @submit=${(event: SubmitEvent) => this.add(event)}>
            <label>Title <input name="title" required maxlength="300" /></label>
            <label>Under <select name="parent_id"><option value="">The top of the space</option>${this.pages.map((page) => html`<option value=${page.id}>${'— '.repeat(page.depth)}${page.title}</option>`)}</select></label>
            <label>From <select name="template_id"><option value="">A blank page</option>${this.templates.map((template) => html`<option value=${template.id}>The template ${template.title} (${template.space})</option>`)}</select></label>
            <button type="submit">Add page</button>
          </form>`
        : ''}`;
  }
}

customElements.define('wiki-space', WikiSpace);
