import { LitElement, css, html, matchRoute, onRoute, sharedStyles } from '@wpk/ui';
import { appLink } from './api.js';
import './screens/drive.js';
import './screens/trash.js';

/** The app's screens by path: the shell hands the path over (deep links) and keeps history. */
export class FilesApp extends LitElement {
  static override properties = { path: { state: true } };
  declare path: string;
  private stop: (() => void) | null = null;

  constructor() {
    super();
    this.path = '/';
  }

  static override styles = [
    sharedStyles,
    css`
      :host { display: block; max-width: 1100px; margin: 0 auto; padding: var(--wpk-space-3) var(--wpk-space-4) var(--wpk-space-6); }
      nav ul { display: flex; flex-wrap: wrap; gap: var(--wpk-space-4); list-style: none; margin: 0 0 var(--wpk-space-4); padding: 0; border-bottom: 1px solid var(--wpk-color-border); }
      nav a { display: inline-block; padding: var(--wpk-space-2) 0; text-decoration: none; color: var(--wpk-color-text); border-bottom: 3px solid transparent; }
      nav a[aria-current='page'] { border-bottom-color: var(--wpk-color-brand); font-weight: var(--wpk-font-weight-bold); }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    this.stop = onRoute((path) => {
      this.path = path;
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stop?.();
  }

  private screen() {
    if (matchRoute('/trash', this.path)) return html`<files-trash></files-trash>`;
    const item = matchRoute('/files/:file_id', this.path);
    return html`<files-drive .itemId=${item?.file_id ?? null}></files-drive>`;
  }

  protected override render() {
    const trash = Boolean(matchRoute('/trash', this.path));
    return html`<nav aria-label="Files">
        <ul>
          <li>${appLink('/', 'My files', !trash)}</li>
          <li>${appLink('/trash', 'Trash', trash)}</li>
        </ul>
      </nav>
      <main>${this.screen()}</main>`;
  }
}

customElements.define('files-app', FilesApp);
