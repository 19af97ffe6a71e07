import { LitElement, css, html, matchRoute, onRoute, sharedStyles } from '@wpk/ui';
import { appLink } from './api.js';
import './screens/company.js';
import './screens/edit.js';
import './screens/list.js';

/** The app's screens by path: the shell hands the path over (deep links) and keeps history. */
export class CompaniesApp extends LitElement {
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
    if (matchRoute('/new', this.path)) return html`<companies-edit></companies-edit>`;
    const edit = matchRoute('/companies/:company_id/edit', this.path);
    if (edit) return html`<companies-edit company-id=${edit.company_id}></companies-edit>`;
    const company = matchRoute('/companies/:company_id', this.path);
    if (company) return html`<companies-company company-id=${company.company_id}></companies-company>`;
    return html`<companies-list></companies-list>`;
  }

  protected override render() {
    const onNew = Boolean(matchRoute('/new', this.path));
    return html`<nav aria-label="Companies">
        <ul>
          <li>${appLink('/', 'Companies', !onNew)}</li>
          <li>${appLink('/new', 'New company', onNew)}</li>
        </ul>
      </nav>
      <main>${this.screen()}</main>`;
  }
}

customElements.define('companies-app', CompaniesApp);
