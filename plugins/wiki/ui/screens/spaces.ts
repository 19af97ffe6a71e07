import { LitElement, appLink, errorText, html, kit, navigate, screenStyles, toast } from '@wpk/ui';
import { WIKI_STYLES, get, send, type Space } from '../api.js';

/** `/`: the spaces the member has a role on, and a form to make one. */
export class WikiSpaces extends LitElement {
  static override properties = { spaces: { state: true }, error: { state: true } };
  static override styles = [screenStyles, WIKI_STYLES];
  declare spaces: Space[];
  declare error: string | null;

  constructor() {
    super();
    this.spaces = [];
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Wiki');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.spaces = await get<Space[]>('/wiki/spaces');
      this.error = null;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async create(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const name = String(new FormData(form).get('name') ?? '').trim();
    try {
      const space = await send<Space>('POST', '/wiki/spaces', { name });
      toast(`Space ${space.name} created`, 'success');
      form.reset();
      navigate(`/spaces/${space.id}`);
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override render() {
    return html`<h1>Spaces</h1>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
      ${this.spaces.length
        ? html`<ul class="tree" aria-label="Spaces">${this.spaces.map((space) => html`<li>${appLink(`/spaces/${space.id}`, space.name)} <span class="muted">· ${space.role}${space.publication ? ' · published' : ''}</span>${space.description ? html`<div class="muted">${space.description}</div>` : ''}</li>`)}</ul>`
        : html`<p class="muted">No space yet.</p>`}
      <h2>New space</h2>
      <form class="inline" @submit=${(event: SubmitEvent) => this.create(event)}>
        <label>Name <input name="name" required maxlength="200" /></label>
        <button type="submit">Create space</button>
      </form>`;
  }
}

customElements.define('wiki-spaces', WikiSpaces);
