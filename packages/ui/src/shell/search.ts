import { LitElement, css, html, nothing } from 'lit';
import type { SearchHit } from '../bridge/protocol.js';
import { sharedStyles } from '../components/shared-styles.js';
import { shellApi, type ShellContext } from './api.js';

/** A result with the app it came from. */
interface Found extends SearchHit {
  app: string;
  appName: string;
}

/**
 * `<wpk-shell-search>`: the global search of the top bar (`GET /search`). In an app it searches
 * that app; elsewhere every app the member can open. Keystrokes are debounced 200 ms (the
 * specification's client debounce) and an answer older than the newest request is dropped.
 * `/` or Ctrl+K (⌘K) focuses it; arrows move through the results (a combobox and its listbox),
 * Enter opens one in its app, Escape closes the list.
 */
export class WpkShellSearch extends LitElement {
  static override properties = { results: { state: true }, open: { state: true }, active: { state: true }, status: { state: true } };
  declare results: Found[];
  declare open: boolean;
  declare active: number;
  declare status: string;
  context: ShellContext | null = null;
  /** The apps searched outside an app page (read from the app switcher). */
  apps: () => Promise<Array<{ slug: string; name: string }>> = async () => [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private ticket = 0;

  constructor() {
    super();
    this.results = [];
    this.open = false;
    this.active = -1;
    this.status = '';
  }

  static override styles = [sharedStyles, css`
    :host { position: relative; display: block; flex: 1 1 12rem; max-width: 28rem; }
    input { width: 100%; font: inherit; padding: var(--wpk-space-1) var(--wpk-space-2); border-radius: var(--wpk-radius-s); border: 1px solid var(--wpk-color-border-strong); background: var(--wpk-color-bg); color: var(--wpk-color-text); }
    ul { position: absolute; inset: calc(100% + 4px) 0 auto 0; z-index: 50; list-style: none; margin: 0; padding: var(--wpk-space-1); background: var(--wpk-color-surface-raised); color: var(--wpk-color-text); border: 1px solid var(--wpk-color-border); border-radius: var(--wpk-radius-m); box-shadow: var(--wpk-shadow-raised); max-height: 60vh; overflow: auto; }
    li { padding: var(--wpk-space-2); border-radius: var(--wpk-radius-s); cursor: pointer; }
    li[aria-selected='true'] { background: var(--wpk-color-brand-quiet); }
    .badge { font-family: var(--wpk-font-mono); color: var(--wpk-color-text-muted); margin-right: var(--wpk-space-1); }
    .sub { display: block; font-size: var(--wpk-font-size-s); color: var(--wpk-color-text-muted); }
  `];

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('keydown', this.shortcut);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('keydown', this.shortcut);
  }

  private readonly shortcut = (event: KeyboardEvent) => {
    const typing = event.target instanceof HTMLElement && (event.target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(event.target.tagName));
    if ((event.key === 'k' && (event.ctrlKey || event.metaKey)) || (event.key === '/' && !typing)) {
      event.preventDefault();
      this.focus();
    }
  };

  /** Puts the focus in the search field (the shortcut, from the shell or from an app's frame). */
  override focus(): void {
    this.renderRoot.querySelector('input')?.focus();
  }

  /** Runs the search now (the debounce calls it). */
  async search(query: string): Promise<void> {
    const ticket = ++this.ticket;
    if (!query.trim()) {
      this.results = [];
      this.open = false;
      return;
    }
    const context = this.context!;
    const apps = context.app ? [context.app] : await this.apps();
    const answers = await Promise.all(
      apps.map((app) =>
        shellApi<{ data: SearchHit[] }>(context, 'GET', `/search?${new URLSearchParams({ app: app.slug, q: query, per_page: '8' })}`)
          .then((answer) => answer.data.map((hit) => ({ ...hit, app: app.slug, appName: app.name })))
          .catch(() => [] as Found[]),
      ),
    );
    if (ticket !== this.ticket) return; // a newer search is on its way
    this.results = answers.flat().sort((a, b) => (b.score ?? 0) - (a.score ?? 0)).slice(0, 20);
    this.active = this.results.length ? 0 : -1;
    this.open = true;
    this.status = `${this.results.length} result${this.results.length === 1 ? '' : 's'}`;
  }

  private typed(event: Event): void {
    const query = (event.target as HTMLInputElement).value;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.search(query), 200);
  }

  private go(found: Found): void {
    location.assign(`/app/${found.app}${found.url}`);
  }

  private key(event: KeyboardEvent): void {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!this.results.length) return;
      this.open = true;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      this.active = (this.active + step + this.results.length) % this.results.length;
    } else if (event.key === 'Enter' && this.open && this.results[this.active]) {
      event.preventDefault();
      this.go(this.results[this.active]);
    } else if (event.key === 'Escape') {
      this.open = false;
    }
  }

  protected override render() {
    const where = this.context?.app ? `Search ${this.context.app.name}` : 'Search your apps';
    return html`<input
        type="search"
        role="combobox"
        aria-label=${where}
        placeholder=${`${where} (/)`}
        aria-expanded=${this.open ? 'true' : 'false'}
        aria-controls=${this.open ? 'results' : nothing}
        aria-autocomplete="list"
        aria-activedescendant=${this.open && this.active >= 0 ? `result-${this.active}` : nothing}
        @input=${this.typed}
        @keydown=${this.key}
        @blur=${() => setTimeout(() => (this.open = false), 150)}
      />
      <span class="wpk-visually-hidden" aria-live="polite">${this.status}</span>
      ${this.open
        ? html`<ul id="results" role="listbox" aria-label="Results">
            ${this.results.length === 0 ? html`<li role="option" aria-selected="false" aria-disabled="true">Nothing found</li>` : nothing}
            ${this.results.map(
              (found, index) => html`<li id=${`result-${index}`} role="option" aria-selected=${index === this.active ? 'true' : 'false'} @mousedown=${() => this.go(found)}>
                ${found.id ? html`<span class="badge">${found.id}</span>` : nothing}${found.title}<span class="sub">${found.appName}${found.subtitle ? ` · ${found.subtitle}` : ''}</span>
              </li>`,
            )}
          </ul>`
        : nothing}`;
  }
}

customElements.define('wpk-shell-search', WpkShellSearch);
